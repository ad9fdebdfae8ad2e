//! How likely is it: a scene played many times with its dice re-rolled, counting the
//! outcomes a DM asks about — found from the scene's own declarations and log, never
//! written per scene: each spell completes or is ruined (and by whom), each charge arrives
//! and lands its blow, each pair of opponents — who strikes the other first, each figure
//! down by the end of each round, each side still standing. Trial `i` draws from its own
//! seed, made from (seed, i), so the counts are the same for any number of threads.

use crate::scene::{DieKind, Scene, SurpriseSpec};
use crate::sim::{EventKind as K, LogEvent, Payload, Runner};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Which dice a trial rolls afresh.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reroll {
    /// Every die the scene did not fix (the default).
    Unfixed,
    /// Every die, the scene's fixed ones as well.
    All,
    /// The scene's fixed dice of these kinds too (and its fixed initiative for
    /// `Initiative`).
    Kinds(Vec<DieKind>),
}

/// The seed of trial `i`: SplitMix64 of the run's seed and the trial's number.
pub fn trial_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The scene as a trial plays it: the dice to re-roll unfixed.
pub fn for_trial(scene: &Scene, reroll: &Reroll) -> Scene {
    let mut s = scene.clone();
    let kinds: Vec<DieKind> = match reroll {
        Reroll::Unfixed => Vec::new(),
        Reroll::All => vec![
            DieKind::Surprise,
            DieKind::Distance,
            DieKind::Initiative,
            DieKind::ToHit,
            DieKind::Damage,
            DieKind::D4,
            DieKind::Save,
            DieKind::Percent,
        ],
        Reroll::Kinds(k) => k.clone(),
    };
    for k in &kinds {
        s.dice.remove(k);
    }
    if kinds.contains(&DieKind::Initiative) {
        for r in &mut s.rounds {
            r.initiative.clear();
        }
    }
    // A side's surprise roll the scene fixed is rolled afresh at the usual chance, 2 in 6
    // (DMG p.61); a side the scene says is never surprised stays so, and a chance the scene
    // gives is kept.
    if kinds.contains(&DieKind::Surprise) {
        for spec in s.surprise.values_mut() {
            if matches!(spec, SurpriseSpec::D6(_) | SurpriseSpec::Percent(_)) {
                *spec = SurpriseSpec::ChanceIn6(2);
            }
        }
    }
    s
}

/// 95% Wilson score interval of `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (z, n, p) = (1.959_964, n as f64, k as f64 / n as f64);
    let d = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / d;
    let half = z * ((p * (1.0 - p) / n) + z * z / (4.0 * n * n)).sqrt() / d;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// One outcome's count over the trials.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    /// A stable key: `spell:Bigby:bigby's grasping hand:completes`.
    pub key: String,
    /// In words.
    pub label: String,
    /// Trials where it happened.
    pub count: u64,
    /// Trials.
    pub trials: u64,
    /// count / trials.
    pub p: f64,
    /// The 95% Wilson interval.
    pub low: f64,
    /// The 95% Wilson interval.
    pub high: f64,
}

/// The outcomes of one trial's log, as keys with their words (each key counts once).
pub fn outcomes_of(scene: &Scene, events: &[LogEvent]) -> BTreeMap<String, String> {
    let mut o = BTreeMap::new();
    surprise(events, &mut o);
    spells(events, &mut o);
    charges(events, &mut o);
    pairs(events, &mut o);
    downs(scene, events, &mut o);
    o
}

fn spells(events: &[LogEvent], o: &mut BTreeMap<String, String>) {
    for e in events {
        match &e.payload {
            Payload::SpellStart { spell, .. } => {
                let key = format!("spell:{}:{spell}", e.actor);
                o.entry(format!("{key}:cast"))
                    .or_insert_with(|| crate::words!("{} casts {spell}", e.actor));
            }
            Payload::SpellComplete { spell, beat, .. } => {
                o.insert(
                    format!("spell:{}:{spell}:completes", e.actor),
                    crate::words!("{} completes", crate::text::owned(&e.actor, spell)),
                );
                if blow_as_it_completes(events, e, *beat) {
                    o.insert(
                        format!("spell:{}:{spell}:blow_as_it_completes", e.actor),
                        crate::words!(
                            "a blow is struck at {} (hit or miss) in the same beat as {} completes",
                            e.actor,
                            crate::text::owned(&e.actor, spell)
                        ),
                    );
                }
            }
            Payload::SpellDisrupted {
                spell,
                disrupted_by,
            } => {
                o.insert(
                    format!("spell:{}:{spell}:ruined", e.actor),
                    crate::words!("{} is ruined", crate::text::owned(&e.actor, spell)),
                );
                if let Some(by) = disrupted_by {
                    o.insert(
                        format!("spell:{}:{spell}:ruined_by:{by}", e.actor),
                        crate::words!("{} is ruined by {by}", crate::text::owned(&e.actor, spell)),
                    );
                }
            }
            _ => {}
        }
    }
}

/// Whether a blow is struck at the caster of completion `done` in the same beat of the
/// round's order as the spell completes: simultaneous, neither before the other.
fn blow_as_it_completes(events: &[LogEvent], done: &LogEvent, beat: Option<usize>) -> bool {
    let (Some(caster), Some(beat)) = (done.who, beat) else {
        return false;
    };
    events.iter().any(|x| {
        matches!(x.kind, K::Hit | K::Miss)
            && x.whom == Some(caster)
            && (x.round, x.segment) == (done.round, done.segment)
            && matches!(x.payload, Payload::Attack { beat: b, .. } if b == beat)
    })
}

/// Each side's surprise: whether it is surprised, and for how many segments it loses —
/// after netting, when both sides were surprised (DMG p.61).
fn surprise(events: &[LogEvent], o: &mut BTreeMap<String, String>) {
    let netted: BTreeMap<&str, u32> = events
        .iter()
        .filter_map(|e| match &e.payload {
            Payload::SurpriseNet { lost } => Some(lost),
            _ => None,
        })
        .flatten()
        .map(|(s, n)| (s.as_str(), *n))
        .collect();
    for e in events {
        let Payload::Surprise { segments } = e.payload else {
            continue;
        };
        let segments = netted.get(e.actor.as_str()).copied().unwrap_or(segments);
        let side = &e.actor;
        if segments == 0 && netted.contains_key(side.as_str()) {
            o.insert(
                format!("surprise:{side}:surprised"),
                crate::words!("{side}: surprised"),
            );
            o.insert(
                format!("surprise:{side}:segments:0"),
                crate::words!("{side}: no segment lost to surprise (netted)"),
            );
        } else if segments == 0 {
            o.insert(
                format!("surprise:{side}:none"),
                crate::words!("{side}: not surprised"),
            );
        } else {
            o.insert(
                format!("surprise:{side}:surprised"),
                crate::words!("{side}: surprised"),
            );
            o.insert(
                format!("surprise:{side}:segments:{segments}"),
                crate::words!(
                    "{side}: {} lost to surprise",
                    crate::text::plural(segments, "segment")
                ),
            );
        }
    }
}

fn charges(events: &[LogEvent], o: &mut BTreeMap<String, String>) {
    for e in events {
        let Some(t) = &e.target else { continue };
        if let Payload::Declare { action, .. } = &e.payload
            && action == "charge"
        {
            o.entry(format!("charge:{}:{t}:declared", e.actor))
                .or_insert_with(|| crate::words!("{} charges {t}", e.actor));
        }
        if let Payload::Arrive { charge: true, .. } = e.payload {
            o.entry(format!("charge:{}:{t}:arrives", e.actor))
                .or_insert_with(|| crate::words!("{}'s charge reaches {t}", e.actor));
            // Before the target's spell, as plain timing read from the log: its completion
            // comes in a later segment, or not at all. (Whether the spell then goes off is
            // the engine's decision, counted from its own completion and ruin events.)
            let target_done_before = events.iter().any(|x| {
                e.whom.is_some_and(|w| x.by(w))
                    && x.kind == K::SpellComplete
                    && (x.round, x.segment) <= (e.round, e.segment)
            });
            let target_casting = events
                .iter()
                .any(|x| e.whom.is_some_and(|w| x.by(w)) && x.kind == K::SpellStart);
            if target_casting && !target_done_before {
                o.entry(format!("charge:{}:{t}:before_spell", e.actor))
                    .or_insert_with(|| {
                        crate::words!("{}'s charge reaches {t} before {t}'s spell", e.actor)
                    });
            }
            if target_casting && target_done_before {
                o.entry(format!("charge:{}:{t}:after_spell", e.actor))
                    .or_insert_with(|| {
                        crate::words!(
                            "{t}'s spell completes before (or as) {}'s charge reaches {t}",
                            e.actor
                        )
                    });
            }
        }
        // Its own charge's blow: not a blow struck back at a charger, nor a set spear's.
        if e.kind == K::Hit
            && e.rule.id.starts_with("charge")
            && declared(events, &e.actor, t, &["charge"])
        {
            o.entry(format!("charge:{}:{t}:hits", e.actor))
                .or_insert_with(|| crate::words!("{}'s charge hits {t}", e.actor));
        }
    }
}

/// The declarations that mean to strike a blow.
const BLOWS: &[&str] = &[
    "melee",
    "missile fire",
    "charge",
    "close",
    "set against a charge",
];

/// Whether `who` declared one of `actions` at `at`.
fn declared(events: &[LogEvent], who: &str, at: &str, actions: &[&str]) -> bool {
    events.iter().any(|e| match &e.payload {
        Payload::Declare { action, targets } => {
            e.actor.as_str() == who
                && actions.contains(&action.as_str())
                && targets.iter().any(|t| t == at)
        }
        _ => false,
    })
}

/// Each pair of opponents: who struck the other first, or together (in the same beat of
/// the round's order, not merely the same segment: blows ordered by the charts share a
/// nominal segment). A blow at a foe who aimed at the striker and never struck back — it
/// fell first, or never came in reach — is a first strike too: the one that drops the foe
/// is the most decisive of all.
fn pairs(events: &[LogEvent], o: &mut BTreeMap<String, String>) {
    let mut first: BTreeMap<(crate::name::Name, crate::name::Name), (u32, u32, usize)> =
        BTreeMap::new();
    for e in events.iter().filter(|e| matches!(e.kind, K::Hit | K::Miss)) {
        if let (Some(t), Payload::Attack { beat, .. }) = (&e.target, &e.payload) {
            first
                .entry((e.actor.clone(), t.clone()))
                .or_insert((e.round, e.segment, *beat));
        }
    }
    // A foe that meant to strike it: a spell aimed at it is no blow, and has its own
    // outcomes (completes, ruined).
    let aims = |who: &str, at: &str| declared(events, who, at, BLOWS);
    for ((a, b), wa) in &first {
        let order = match first.get(&(b.clone(), a.clone())) {
            Some(_) if a > b => continue,
            Some(wb) => wa.cmp(wb),
            // Only a foe who aimed at it: a blow at a bystander is no race.
            None if aims(b, a) => std::cmp::Ordering::Less,
            None => continue,
        };
        // Keyed by the pair in name order, as when both strike.
        let (x, y, order) = if a < b {
            (a, b, order)
        } else {
            (b, a, order.reverse())
        };
        let (key, label) = match order {
            std::cmp::Ordering::Less => (
                "first",
                crate::words!("{x} strikes {y} before {y} strikes {x}"),
            ),
            std::cmp::Ordering::Equal => (
                "together",
                crate::words!("{x} and {y} first strike each other at the same moment"),
            ),
            std::cmp::Ordering::Greater => (
                "second",
                crate::words!("{y} strikes {x} before {x} strikes {y}"),
            ),
        };
        o.insert(format!("pair:{x}:{y}:{key}"), label);
    }
}

/// Each figure down by the end of each round, and each side still standing at the end.
fn downs(scene: &Scene, events: &[LogEvent], o: &mut BTreeMap<String, String>) {
    let rounds = events.iter().map(|e| e.round).max().unwrap_or(0);
    let mut down: BTreeMap<&str, u32> = BTreeMap::new();
    for e in events.iter().filter(|e| e.kind == K::Down) {
        down.entry(e.actor.as_str()).or_insert(e.round);
    }
    for (name, &r) in &down {
        for k in r.max(1)..=rounds.max(1) {
            o.insert(
                format!("down:{name}:round{k}"),
                crate::words!("{name} is down by the end of round {k}"),
            );
        }
    }
    let mut sides: BTreeMap<&str, bool> = BTreeMap::new();
    for c in &scene.combatants {
        let up = !down.contains_key(c.name.as_str());
        *sides.entry(c.side.as_str()).or_insert(false) |= up;
    }
    for (side, up) in sides {
        if up {
            o.insert(
                format!("side:{side}:standing"),
                crate::words!("{side} still standing at the end"),
            );
        }
    }
}

/// What a run of trials found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Odds {
    /// Trials played.
    pub trials: u64,
    /// The seed the trials' seeds are made from.
    pub seed: u64,
    /// Each outcome seen at least once, by key.
    pub outcomes: Vec<Outcome>,
    /// Stopped (Ctrl+C) before all the trials asked for were played: `trials` says how
    /// many were.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
}

/// How far a run has got, and the way to stop it: shared with a progress bar, a Ctrl+C
/// handler or the viewer's panel while the trials play on other threads.
#[derive(Debug, Default)]
pub struct Progress {
    /// Trials played so far.
    pub done: AtomicU64,
    /// Set to stop: trials not yet begun are not played, and the run reports those that
    /// were.
    pub stop: AtomicBool,
}

impl Progress {
    /// Trials played so far.
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }

    /// Asks the run to stop.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether it was asked to stop.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Counts per outcome key: its words and how many trials had it.
type Counts = BTreeMap<String, (String, u64)>;

/// Adds `n` trials of an outcome, keeping its words from whichever count has them (a quiet
/// trial's outcomes come without words).
fn count(counts: &mut Counts, key: String, label: String, n: u64) {
    let c = counts.entry(key).or_insert((String::new(), 0));
    if c.0.is_empty() {
        c.0 = label;
    }
    c.1 += n;
}

/// Plays `trials` trials of the scene on the current rayon pool and counts the outcomes.
pub fn run(scene: &Scene, trials: u64, seed: u64, reroll: &Reroll, rounds: Option<u32>) -> Odds {
    run_watched(scene, trials, seed, reroll, rounds, &Progress::default())
}

/// [`run`], counting each trial played in `progress` and stopping when it is told to. A
/// stopped run reports the trials it played (marked `interrupted`); one not stopped gives
/// the same counts as [`run`].
pub fn run_watched(
    scene: &Scene,
    trials: u64,
    seed: u64,
    reroll: &Reroll,
    rounds: Option<u32>,
    progress: &Progress,
) -> Odds {
    let base = for_trial(scene, reroll);
    let (played, counted): (u64, Counts) = (0..trials)
        .into_par_iter()
        // One app per worker, restarted for each trial: building an app costs more than
        // playing a round.
        .map_init(
            || {
                (
                    Runner::new(base.clone(), Some(seed), rounds).without_sight_events(),
                    BTreeSet::new(),
                )
            },
            |(r, worded), i| {
                if progress.stopped() {
                    return None;
                }
                // A trial's log is read for its data only: no words are made for it, and
                // an outcome's words only the first time this worker meets it.
                let found = crate::narrate::quietly(|| {
                    r.restart(trial_seed(seed, i)).run_to_end();
                    outcomes_of(&base, &r.log().events)
                });
                progress.done.fetch_add(1, Ordering::Relaxed);
                if found.keys().all(|k| worded.contains(k)) {
                    return Some(found);
                }
                worded.extend(found.into_keys());
                Some(outcomes_of(&base, &r.log().events))
            },
        )
        .flatten()
        .fold(
            || (0, Counts::new()),
            |(n, mut acc), o| {
                for (k, label) in o {
                    count(&mut acc, k, label, 1);
                }
                (n + 1, acc)
            },
        )
        .reduce(
            || (0, Counts::new()),
            |(na, mut a), (nb, b)| {
                for (k, (label, n)) in b {
                    count(&mut a, k, label, n);
                }
                (na + nb, a)
            },
        );
    let interrupted = played < trials;
    let trials = played;
    let outcomes = counted
        .into_iter()
        .map(|(key, (label, count))| {
            let (low, high) = wilson(count, trials);
            Outcome {
                key,
                label,
                count,
                trials,
                p: count as f64 / trials.max(1) as f64,
                low,
                high,
            }
        })
        .collect();
    Odds {
        trials,
        seed,
        outcomes,
        interrupted,
    }
}

/// The odds as text, one outcome a line.
pub fn to_text(title: &str, odds: &Odds) -> String {
    let mut out = format!(
        "{title}\n{} trials{}, seed {}; 95% intervals (Wilson)\n\n",
        odds.trials,
        if odds.interrupted {
            " (interrupted: the trials played so far)"
        } else {
            ""
        },
        odds.seed
    );
    for o in &odds.outcomes {
        out.push_str(&format!(
            "  {:>5.1}%  [{:>5.1}%, {:>5.1}%]  {}  ({} of {})\n",
            o.p * 100.0,
            o.low * 100.0,
            o.high * 100.0,
            o.label,
            o.count,
            o.trials
        ));
    }
    out
}

/// A sweep as a table: an outcome a line, its percentage at each value a column.
pub fn sweep_table(title: &str, values: &[f64], runs: &[Odds]) -> String {
    let mut keys: BTreeMap<&str, &str> = BTreeMap::new();
    for r in runs {
        for o in &r.outcomes {
            keys.insert(&o.key, &o.label);
        }
    }
    let trials = runs.first().map_or(0, |r| r.trials);
    let mut out = format!("{title}\n{trials} trials at each value; percent of trials\n\n");
    out.push_str(&format!("{:>8}", "value"));
    for v in values {
        out.push_str(&format!("{v:>8}"));
    }
    out.push('\n');
    for (key, label) in keys {
        out.push_str(&format!("{:>8}", ""));
        for r in runs {
            let p = r
                .outcomes
                .iter()
                .find(|o| o.key == key)
                .map_or(0.0, |o| o.p);
            out.push_str(&format!("{:>8.1}", p * 100.0));
        }
        out.push_str(&format!("  {label}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals() {
        // 50 of 100: about 40.4% to 59.6%.
        let (l, h) = wilson(50, 100);
        assert!(
            (l - 0.4038).abs() < 1e-3 && (h - 0.5962).abs() < 1e-3,
            "{l} {h}"
        );
        // None and all: the interval still has width, inside [0, 1].
        let (l, h) = wilson(0, 20);
        assert_eq!(l, 0.0);
        assert!(h > 0.1 && h < 0.2);
        let (l, h) = wilson(20, 20);
        assert!(l > 0.8 && h == 1.0);
    }

    #[test]
    fn trial_seeds_differ() {
        let s: std::collections::BTreeSet<u64> = (0..1000).map(|i| trial_seed(7, i)).collect();
        assert_eq!(s.len(), 1000);
    }
}
