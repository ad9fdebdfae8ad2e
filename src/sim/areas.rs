//! Areas that completed spells fill — silence, light, darkness (PHB p.44-45, p.69). Each
//! segment, after movement, an area centred on a figure moves with it, and a caster
//! inside a silence loses the spell it is casting (a device or potion goes on). Lights
//! from spells shine through [`sight::lights_now`](super::sight::lights_now), and darkness
//! hides what is in it ([`super::sight`]).

use super::SegmentClock;
use super::components::{Casting, Combatant, Intent, Position, SpellArea};
use super::disruption::end_casting;
use super::log::{EventKind, LogEvent, Payload};
use crate::rules::effect::{self, Effect};
use bevy::prelude::*;

/// Moves each area with the figure it is centred on.
pub(super) fn follow(mut areas: Query<&mut SpellArea>, figures: Query<&Position>) {
    for mut a in &mut areas {
        if let Some(p) = a.on.and_then(|e| figures.get(e).ok()) {
            a.at = *p;
        }
    }
}

/// A figure casting a spell.
type Caster<'a> = (Entity, &'a Combatant, &'a Position, &'a Casting, &'a Intent);

/// Casters inside a silence lose their spells.
pub(super) fn silenced(
    clock: Res<SegmentClock>,
    areas: Query<&SpellArea>,
    casters: Query<Caster>,
    mut commands: Commands,
    mut log: MessageWriter<LogEvent>,
) {
    let silences: Vec<&SpellArea> = areas
        .iter()
        .filter(|a| matches!(a.effect, Effect::Silence { .. }))
        .collect();
    let mut lost: Vec<Caster> = casters
        .iter()
        .filter(|c| !c.3.device && !c.3.potion)
        .filter(|c| {
            silences
                .iter()
                .any(|s| effect::inside(c.2.distance(&s.at), s.radius_ft))
        })
        .collect();
    lost.sort_by_key(|c| c.1.index);
    for (e, who, _, cast, intent) in lost {
        log.write(
            LogEvent::new(
                clock.round_segment(),
                who.name.clone(),
                EventKind::SpellDisrupted,
                None,
                format!("{} is lost: the caster is silenced", cast.what),
                crate::rules::cite::SPELL_SILENCE,
            )
            .with(Payload::SpellDisrupted {
                spell: cast.what.clone(),
                disrupted_by: None,
            }),
        );
        end_casting(&mut commands, e, cast, intent);
    }
}

/// Run condition: a spell has just filled an area.
pub(super) fn just_made(areas: Query<(), Added<SpellArea>>) -> bool {
    !areas.is_empty()
}

/// Run condition: some spell has filled an area.
pub(super) fn any(areas: Query<(), With<SpellArea>>) -> bool {
    !areas.is_empty()
}
