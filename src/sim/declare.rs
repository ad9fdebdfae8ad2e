//! Declarations: at each surprise segment and at the start of each round, figures take up
//! what the scene says they do; a figure not named carries on (DMG p.61).

use super::components::*;
use super::log::{EventKind, LogEvent, Payload};
use super::{SegmentClock, SimScene};
use crate::rules::cite;
use crate::rules::declare::new_act_precluded;
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
        // Something begun before this round and not done is finished before another act
        // is begun (rules::declare::new_act_precluded): said, once, at the round's start.
        let spell = casting.filter(|k| !k.potion && k.completes >= tick);
        let busy = (clock.round_starts() && *act != intent.act)
            .then(|| new_act_precluded(clock.system, carried, spell.is_some()))
            .flatten();
        if let Some(rule) = busy {
            let why = match spell {
                Some(s) if !carried => crate::words!(
                    "cannot {}: still casting {}, begun before this round (it goes off in segment {})",
                    act.verb(),
                    s.what,
                    clock.moment_of(s.completes).1
                ),
                _ => crate::words!(
                    "cannot {}: still finishing \"{}\", carried over from the last round",
                    act.verb(),
                    intent.act.verb()
                ),
            };
            let e = LogEvent::new(
                (round, segment),
                c.name.clone(),
                EventKind::Idle,
                None,
                why,
                rule,
            );
            log.write(e);
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
