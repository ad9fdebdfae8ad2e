//! Casters who are down lose what they were casting; a device is lost too once its wielder
//! is incapacitated (DMG p.65).

use super::SegmentClock;
use super::components::*;
use super::log::{EventKind, LogEvent};
use crate::rules::spell::{self, AttackResult};
use crate::scene::Act;
use bevy::prelude::*;

/// Ends a casting, completed or lost: the figure is free again and does not carry on
/// casting what is gone (a ruined spell is lost, DMG p.65), unless it has already
/// declared something else.
pub(super) fn end_casting(commands: &mut Commands, e: Entity, c: &Casting, intent: &Intent) {
    commands.entity(e).remove::<Casting>();
    let same = match &intent.act {
        Act::Cast { spell, .. } => *spell == c.what,
        Act::Potion { name, .. } => *name == c.what,
        _ => false,
    };
    if same {
        commands.entity(e).insert(Intent {
            act: Act::Hold,
            since: intent.since,
        });
    }
}

/// Ends the castings of fallen figures.
pub(super) fn disruption(
    clock: Res<SegmentClock>,
    q: Query<(Entity, &Combatant, &HitPoints, &Casting, &Intent)>,
    mut commands: Commands,
    mut log: MessageWriter<LogEvent>,
) {
    let mut fallen: Vec<_> = q.iter().filter(|f| !f.2.condition.is_up()).collect();
    fallen.sort_by_key(|f| f.1.index);
    for (e, c, _, cast, intent) in fallen {
        let (_, rule) = spell::disrupts(AttackResult::Hit, cast.device, true);
        log.write(LogEvent::new(
            clock.round_segment(),
            c.name.clone(),
            EventKind::SpellDisrupted,
            None,
            format!("{} is lost: the caster is down", cast.what),
            rule,
        ));
        end_casting(&mut commands, e, cast, intent);
    }
}
