//! The round's order from the rules core, turned into plan entries: who aims at whom splits
//! the figures into fights; each pair's circumstances (just closed or continuing) come from
//! the figures; the fights' beats are merged for play.

use super::build::RoundBuild;
use super::{PlanEntry, Planned};
use crate::rules::action::{ActionKind, Declared};
use crate::rules::charge::SEGMENTS_PER_ROUND;
use crate::rules::first::Context;
use crate::rules::sequence::{Beat, EventKind as SeqKind, Sequence, round_sequence_with};
use crate::rules::speed_factor::MeleeRound;
use std::collections::HashMap;

/// The entries of the round in play order, and the order behind them.
pub(super) fn entries(b: &RoundBuild) -> (Vec<PlanEntry>, Sequence) {
    let acts = &b.actions;
    let declared: Vec<_> = acts.iter().map(|a| a.declared.clone()).collect();
    let name_of = |k: usize| b.figs[acts[k].owner].name();
    // Casters are timed only against those who attack them; each pair's melee round is its
    // own (just closed or continuing).
    let is_cast = |k: usize| matches!(declared[k].kind, ActionKind::Cast { .. });
    let aims_at = |x: usize, y: usize| acts[x].targets.iter().any(|t| t == name_of(y));
    let pair = |x: usize, y: usize| -> Option<Context> {
        let relevant = match (is_cast(x), is_cast(y)) {
            (true, true) | (false, false) => true,
            (true, false) => aims_at(y, x),
            (false, true) => aims_at(x, y),
        };
        let closed =
            b.figs[acts[x].owner].closed_last_round() || b.figs[acts[y].owner].closed_last_round();
        relevant.then_some(Context {
            melee_round: if closed {
                MeleeRound::FirstAfterClosing
            } else {
                MeleeRound::Continuing
            },
            options: b.options,
        })
    };
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    for y in 0..acts.len() {
        by_name.entry(name_of(y)).or_default().push(y);
    }
    let mut aims = Vec::new();
    for (x, a) in acts.iter().enumerate() {
        for t in &a.targets {
            let ys = by_name.get(t.as_str()).into_iter().flatten();
            aims.extend(ys.map(|&y| (x, y)));
        }
    }
    let seq = round_sequence_with(&declared, &aims, &pair);
    // Between fights a higher die goes first (DMG p.61).
    let play = seq.play_order(&declared);
    let what_of: Vec<String> = acts.iter().map(|a| a.what.clone()).collect();
    let mut entries = Vec::new();
    for (order, &bi) in play.iter().enumerate() {
        let beat = &seq.beats[bi];
        // Within a beat, completions first: a blow at the same moment does not stop them.
        let mut evs: Vec<_> = beat.events.iter().collect();
        evs.sort_by_key(|e| !matches!(e.kind, SeqKind::Complete));
        for ev in evs {
            let what = match ev.kind {
                SeqKind::Routine { .. } if declared[ev.actor].kind == ActionKind::Turn => {
                    Planned::Turn
                }
                SeqKind::Routine { .. } if declared[ev.actor].kind == ActionKind::Other => {
                    Planned::Act {
                        what: what_of[ev.actor].clone(),
                    }
                }
                SeqKind::Routine { routine, of, blow } => Planned::Strike {
                    routine,
                    of,
                    blow,
                    charge: acts[ev.actor].charge,
                    set: declared[ev.actor].set_vs_charge && routine == 1,
                    second: acts[ev.actor].second,
                    free: None,
                    adjust: acts[ev.actor].adjust.clone(),
                },
                SeqKind::Complete => Planned::Complete {
                    what: what_of[ev.actor].clone(),
                },
                SeqKind::Arrive => continue,
            };
            let segment = ev.segment.unwrap_or(beat.nominal);
            if segment > SEGMENTS_PER_ROUND {
                continue;
            }
            let f = &b.figs[acts[ev.actor].owner];
            entries.push(PlanEntry {
                segment,
                beat: order,
                fight: beat.fight,
                fixed: ev.segment.is_some(),
                after: after_of(&seq, beat, (&what_of, &declared)),
                actor: Some(f.e),
                figure: f.id(),
                name: f.name().into(),
                what,
                rule: ev.rule,
                why: ev.why.clone(),
            });
        }
    }
    (entries, seq)
}

/// Words for the beats directly before `beat` in its fight.
fn after_of(
    seq: &Sequence,
    beat: &Beat,
    (what_of, declared): (&[String], &[Declared]),
) -> Vec<String> {
    seq.fight_beats(beat.fight)
        .filter(|b| beat.after.contains(&b.beat))
        .flat_map(|b| &b.events)
        .filter_map(|e| match e.kind {
            // An act that strikes no one is named by what it does.
            SeqKind::Routine { .. } if declared[e.actor].kind == ActionKind::Other => {
                Some(format!("{} {}", e.name, what_of[e.actor]))
            }
            SeqKind::Routine { routine, of, blow } if blow > 1 => Some(format!(
                "{}'s blow {blow} of routine {routine}/{of}",
                e.name
            )),
            SeqKind::Routine { routine, of, .. } if of > 1 => {
                Some(format!("{}'s routine {routine}", e.name))
            }
            SeqKind::Routine { .. } => Some(format!("{}'s blow", e.name)),
            SeqKind::Complete => Some(crate::text::owned(&e.name, &what_of[e.actor])),
            SeqKind::Arrive => None,
        })
        .collect()
}
