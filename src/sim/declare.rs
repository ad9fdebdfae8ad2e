//! Declarations: at each surprise segment and at the start of each round, figures take up
//! what the scene says they do; a figure not named carries on (DMG p.61).

use super::components::*;
use super::log::{EventKind, LogEvent, Payload};
use super::{SegmentClock, SimScene};
use crate::rules::cite;
use crate::scene::Act;
use bevy::prelude::*;

/// A figure as declaring sees it: who it is, what it means to do, whether it can, whether
/// an action is carried over from the last round, and a spell under way.
type Declaring<'a> = (
    &'a Combatant,
    &'a mut Intent,
    &'a HitPoints,
    Has<CarriedInitiative>,
    Option<&'a Casting>,
);

/// Applies this step's declarations.
pub(super) fn declare(
    scene: Res<SimScene>,
    clock: Res<SegmentClock>,
    mut figures: Query<Declaring>,
    mut log: MessageWriter<LogEvent>,
) {
    let (round, segment) = clock.round_segment();
    // A round's declarations come before its first segment: at its very beginning.
    let segment = if clock.round_starts() { 0 } else { segment };
    let decl = if let Some(k) = clock.surprise_segment() {
        scene.0.surprise_segments.get(k as usize - 1)
    } else if clock.round_starts() {
        scene.0.rounds.get(round as usize - 1).map(|r| &r.declare)
    } else {
        None
    };
    let Some(decl) = decl else {
        return;
    };
    let mut all: Vec<_> = figures.iter_mut().collect();
    all.sort_by_key(|(c, ..)| c.index);
    let tick = clock.tick();
    for (c, mut intent, hp, carried, casting) in all {
        let Some(act) = decl.get(c.name.as_str()) else {
            continue;
        };
        if !hp.condition.is_up() {
            continue;
        }
        // Under "Take Initiative!" an action carried over from the last round (a total
        // over 20: a spell under way, a long move) is finished before any other is begun.
        if carried && clock.round_starts() && *act != intent.act {
            log.write(LogEvent::new(
                (round, segment),
                c.name.clone(),
                EventKind::Idle,
                None,
                crate::words!(
                    "cannot {}: still finishing \"{}\", carried over from the last round",
                    act.verb(),
                    intent.act.verb()
                ),
                cite::TI_CHANGE_PRECLUDED,
            ));
            continue;
        }
        // A spell begun in the surprise segments and still under way when the round
        // begins (DMG p.61-62; "Take Initiative!" §Basics: a caster may stop, not start
        // another act): the other act declared is not begun. A potion working is no act.
        if let Some(spell) = casting.filter(|k| !k.potion && k.completes >= tick)
            && clock.round_starts()
            && *act != intent.act
        {
            let rule = match clock.system {
                crate::rules::options::RulesSystem::TakeInitiative => cite::TI_CHANGE_PRECLUDED,
                _ => cite::SPELL_UNDER_WAY,
            };
            log.write(LogEvent::new(
                (round, segment),
                c.name.clone(),
                EventKind::Idle,
                None,
                crate::words!(
                    "cannot {}: still casting {}, begun before this round (it goes off in segment {})",
                    act.verb(),
                    spell.what,
                    clock.moment_of(spell.completes).1
                ),
                rule,
            ));
            continue;
        }
        intent.act = act.clone();
        intent.since = clock.tick();
        let rule = match act {
            Act::Cast { .. } => cite::DECLARE_SPELLS,
            _ => cite::DECLARE_ACTIONS,
        };
        let targets = act.targets();
        log.write(
            LogEvent::new(
                (round, segment),
                c.name.clone(),
                EventKind::Declare,
                (!targets.is_empty()).then(|| targets.join(", ").into()),
                act.verb(),
                rule,
            )
            .with(Payload::Declare {
                action: act.verb(),
                targets: targets.iter().map(|t| t.to_string()).collect(),
            }),
        );
    }
}
