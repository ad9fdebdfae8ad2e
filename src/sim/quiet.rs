//! Quiet segments: a segment of a book round in which nothing can happen is not played
//! system by system — only the clock moves. A duel whose blows all fall in segment 1 has
//! eight such segments a round, and the odds play thousands of rounds.
//!
//! A segment can hold something when it starts or ends a round (declarations, initiative,
//! bleeding), when the plan has an entry for it, when a figure is closing, charging or
//! moving, when a spell, device or potion completes in it, or while a spell's area is on
//! the map. Surprise segments, the encounter step and "Take Initiative!" rounds are always
//! played in full. [`PlayEverySegment`] turns the skip off; a test holds every library
//! scene to the same log either way.

use super::components::{Casting, Closing, SpellArea};
use super::plan::{MoveTo, Plan};
use super::{Phase, SegmentClock};
use crate::rules::options::RulesSystem;
use bevy::prelude::*;

/// Plays every segment in full, quiet or not (for checking the skip; off by default).
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct PlayEverySegment(pub bool);

/// A figure closing, charging or moving to a point.
type Moving = Or<(With<Closing>, With<MoveTo>)>;

/// Run condition: something can happen in this segment.
pub(super) fn something_can_happen(
    clock: Res<SegmentClock>,
    plan: Res<Plan>,
    every: Option<Res<PlayEverySegment>>,
    moving: Query<(), Moving>,
    casting: Query<&Casting>,
    areas: Query<(), With<SpellArea>>,
) -> bool {
    let Phase::Round { round, segment } = clock.phase else {
        return true;
    };
    let tick = clock.tick();
    every.is_some_and(|e| e.0)
        || clock.system != RulesSystem::Book
        || clock.round_starts()
        || clock.round_ends()
        || (plan.round == round && plan.entries.iter().any(|e| e.segment == segment))
        || !moving.is_empty()
        || casting.iter().any(|c| c.completes == tick)
        || !areas.is_empty()
}
