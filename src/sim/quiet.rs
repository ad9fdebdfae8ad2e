//! Quiet segments: a segment of a book round in which nothing can happen is not played
//! system by system — [`step`](super::step) only moves the clock, without running the
//! [`SimStep`](super::SimStep) schedule. A duel whose blows all fall in segment 1 has
//! eight such segments a round, and the odds play thousands of rounds.
//!
//! A segment can hold something when it starts or ends a round (declarations, initiative,
//! bleeding), when the plan has an entry for it, when a figure is closing, charging or
//! moving, when a spell, device or potion completes in it, or while a spell's area is on
//! the map, or in any segment of a scene with psionics. Surprise segments, the encounter step and "Take Initiative!" rounds are always
//! played in full. [`PlayEverySegment`] turns the skip off; a test holds every library
//! scene to the same log either way.

use super::components::{Casting, Closing, Psionic, SpellArea};
use super::plan::{MoveTo, Plan};
use super::{Phase, SegmentClock};
use crate::rules::options::RulesSystem;
use bevy::ecs::system::SystemState;
use bevy::prelude::*;
use std::sync::{Mutex, PoisonError};

/// Plays every segment in full, quiet or not (for checking the skip; off by default).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct PlayEverySegment(pub bool);

/// A figure closing, charging or moving to a point.
type Moving = Or<(With<Closing>, With<MoveTo>)>;

/// What the check reads besides the clock.
type Reads = (
    Res<'static, Plan>,
    Option<Res<'static, PlayEverySegment>>,
    Query<'static, 'static, (), Moving>,
    Query<'static, 'static, &'static Casting>,
    Query<'static, 'static, (), With<SpellArea>>,
    Query<'static, 'static, (), With<Psionic>>,
);

/// The check's queries, kept between steps. Behind a lock so that it can be used while
/// the world is only borrowed (taking a resource out of the world and putting it back
/// would cost more than the check).
#[derive(Resource)]
pub(super) struct QuietCheck(Mutex<SystemState<Reads>>);

impl FromWorld for QuietCheck {
    fn from_world(world: &mut World) -> QuietCheck {
        QuietCheck(Mutex::new(SystemState::new(world)))
    }
}

/// Whether the coming segment is quiet: nothing in it can happen, so stepping into it
/// only moves the clock.
pub(super) fn next_is_quiet(world: &World) -> bool {
    let mut next = world.resource::<SegmentClock>().clone();
    next.phase = next.next();
    let Phase::Round { round, segment } = next.phase else {
        return false;
    };
    if next.system != RulesSystem::Book || next.round_starts() || next.round_ends() {
        return false;
    }
    let mut check = world
        .resource::<QuietCheck>()
        .0
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    let Ok((plan, every, moving, casting, areas, psionic)) = check.get(world) else {
        return false;
    };
    let tick = next.tick();
    let busy = every.is_some_and(|e| e.0)
        || (plan.round == round && plan.entries.iter().any(|e| e.segment == segment))
        || !moving.is_empty()
        || casting.iter().any(|c| c.completes == tick)
        || !areas.is_empty()
        || !psionic.is_empty();
    !busy
}
