//! Casters who are down lose what they were casting; a device is lost too once its wielder
//! is incapacitated (DMG p.65).

use super::SegmentClock;
use super::components::*;
use super::log::{EventKind, LogEvent};
use crate::rules::spell::{self, AttackResult};
use bevy::prelude::*;

/// Ends the castings of fallen figures.
pub(super) fn disruption(
    clock: Res<SegmentClock>,
    q: Query<(Entity, &Combatant, &HitPoints, &Casting)>,
    mut commands: Commands,
    mut log: MessageWriter<LogEvent>,
) {
    let mut fallen: Vec<_> = q.iter().filter(|f| !f.2.condition.is_up()).collect();
    fallen.sort_by_key(|f| f.1.index);
    for (e, c, _, cast) in fallen {
        let (_, rule) = spell::disrupts(AttackResult::Hit, cast.device, true);
        log.write(LogEvent::new(
            clock.round_segment(),
            c.name.clone(),
            EventKind::SpellDisrupted,
            None,
            format!("{} is lost: the caster is down", cast.what),
            rule,
        ));
        commands.entity(e).remove::<Casting>();
    }
}
