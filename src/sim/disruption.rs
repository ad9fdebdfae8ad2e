//! Casters who are down lose what they were casting; a device is lost too once its wielder
//! is incapacitated (DMG p.65).

use super::SegmentClock;
use super::components::*;
use super::log::{EventKind, LogEvent, Payload};
use crate::rules::cite::Rule;
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
        // A total carried into the next round was the spell's ("Take Initiative!"): with
        // the spell ended there is nothing left to finish, and the caster is free to
        // declare anew (an outside tester's ruined flame strike kept the cleric "still
        // finishing 'hold'" through the next round).
        commands
            .entity(e)
            .remove::<crate::sim::components::CarriedInitiative>();
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
        log.write(
            LogEvent::new(
                clock.round_segment(),
                c.name.clone(),
                EventKind::SpellDisrupted,
                None,
                crate::words!("{} is lost: the caster is down", cast.what),
                rule,
            )
            .with(Payload::SpellDisrupted {
                spell: cast.what.clone(),
                disrupted_by: None,
            }),
        );
        end_casting(&mut commands, e, cast, intent);
    }
}

/// What a blow that hits a caster before completion does to the casting (DMG p.65).
pub(super) enum HitOnCaster {
    /// The spell is ruined.
    Ruined(Rule),
    /// A device keeps working: its wielder is still up.
    KeepsWorking(Rule),
    /// A later routine, which cannot disrupt a spell shorter than a round.
    LaterRoutine(Rule),
}

impl HitOnCaster {
    /// The outcome with a note to add to its words.
    pub(super) fn with_note(self, note: String) -> (HitOnCaster, Option<String>) {
        (self, Some(note))
    }
}

/// Decides a hit on a caster by `routine` of its attacker (rules::spell decides both
/// questions: whether the routine can disrupt, whether the hit ruins it).
pub(super) fn hit_on_caster(
    c: &Casting,
    routine: u32,
    caster_up: bool,
    landed: AttackResult,
) -> HitOnCaster {
    let (can, crule) = spell::routine_can_disrupt(routine, c.segments);
    let (ruins, rule) = spell::disrupts(landed, c.device, !caster_up);
    match (can, ruins) {
        (true, true) => HitOnCaster::Ruined(rule),
        (_, false) => HitOnCaster::KeepsWorking(rule),
        (false, true) => HitOnCaster::LaterRoutine(crule),
    }
}
