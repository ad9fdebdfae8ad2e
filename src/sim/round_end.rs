//! The end of a round: the unconscious bleed (DMG p.82), closing figures become engaged, and
//! the round is closed in the log.

use super::SegmentClock;
use super::components::*;
use super::log::{EventKind, LogEvent, Payload};
use super::plan::MoveTo;
use crate::rules::cite;
use crate::rules::combat::{self, Condition};
use bevy::prelude::*;

/// Runs at the last segment of each round.
pub(super) fn end_of_round(
    clock: Res<SegmentClock>,
    mut q: Query<(Entity, &Combatant, &mut HitPoints, &mut JustClosed)>,
    mut moves: Query<(Option<&mut Closing>, Option<&mut MoveTo>)>,
    mut commands: Commands,
    mut log: MessageWriter<LogEvent>,
) {
    if !clock.round_ends() {
        return;
    }
    // A wait to set off counts in its own round only: a move still under way goes on from
    // the next round's first segment.
    for (closing, move_to) in &mut moves {
        if let Some(mut c) = closing {
            c.wait = 0;
        }
        if let Some(mut m) = move_to {
            m.2 = 0;
        }
    }
    let when = clock.round_segment();
    let mut all: Vec<_> = q.iter_mut().collect();
    all.sort_by_key(|f| f.1.index);
    for (e, c, mut hp, mut jc) in all {
        // A charge lasts its round.
        commands.entity(e).remove::<Charging>();
        *jc = JustClosed {
            last_round: jc.this_round,
            this_round: false,
        };
        let fell_now = hp.fell_in_round == Some(when.0);
        let (loss, rule) = combat::bleeding(hp.current, fell_now);
        if loss > 0 {
            hp.current -= loss;
            let (cond, _) = combat::condition(hp.current);
            hp.condition = cond;
            log.write(
                LogEvent::new(
                    when,
                    c.name.clone(),
                    EventKind::Bleed,
                    None,
                    crate::words!("bleeds {loss} hp, now {}", hp.current),
                    rule,
                )
                .with(Payload::Bleed {
                    loss,
                    hp: hp.current,
                }),
            );
            if cond == Condition::Dead {
                log.write(
                    LogEvent::new(
                        when,
                        c.name.clone(),
                        EventKind::Down,
                        None,
                        crate::words!("dies at {} hp", hp.current),
                        rule,
                    )
                    .with(Payload::Down {
                        hp: hp.current,
                        dead: true,
                    }),
                );
            }
        }
    }
    log.write(
        LogEvent::new(
            when,
            "clock",
            EventKind::RoundEnd,
            None,
            crate::words!("end of round {}", when.0),
            cite::SEGMENTS_ROUND,
        )
        .with(Payload::RoundEnd { round: when.0 }),
    );
}
