//! Trials for the odds: how many rounds a second one core plays.
//!
//! - `engine/duel`: one round of `otis_vs_robilar` (two figures, two routines each, every
//!   die re-rolled) as `odds` plays a trial: restart the app with the trial's seed, play
//!   to the end, read the outcomes from the log.
//! - `engine/example_of_melee`: the four rounds of the Example of Melee, the same way.
//! - `bare/…`: the same rounds computed by calling the rules functions directly in a
//!   hand-written loop, with no ECS, no log, no outcomes and no words (played quietly, as
//!   the trials are): each side's d6, the rules
//!   core's order of the round (`round_sequence_with`, from the figures as the engine
//!   declared them), then a d20 against the number needed and a damage die for each blow,
//!   in that order. It is the floor an engine could reach, not a second engine: it leaves
//!   out movement, charges' arrival, spells and everything the log says.
//!
//! Goals (issue "odds"): ≥ 100,000 duel rounds and ≥ 10,000 Example of Melee rounds a
//! second per core, the engine within 5× of the bare loop. After criterion the run prints
//! the table from medians it times itself.
//!
//! Run: `cargo bench --no-default-features --bench odds`.

use criterion::Criterion;
use firststrike::calc::odds::{Reroll, for_trial, outcomes_of, trial_seed};
use firststrike::rules::action::{ActionKind, Declared};
use firststrike::rules::combat::{Modifiers, hits, needed_to_hit};
use firststrike::rules::first::Context;
use firststrike::rules::sequence::{EventKind, round_sequence_with};
use firststrike::scene::{Scene, load};
use firststrike::sim::{Plan, Runner};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

/// A scene as the odds play it: every die re-rolled.
fn scene(path: &str) -> Scene {
    let s = load(Path::new(path)).unwrap_or_else(|e| panic!("{e}"));
    for_trial(&s, &Reroll::All)
}

/// The engine playing trials of a scene, as `odds` does on one worker.
struct Engine {
    runner: Runner,
    scene: Scene,
    next: u64,
}

impl Engine {
    fn new(scene: Scene, rounds: u32) -> Engine {
        Engine {
            runner: Runner::new(scene.clone(), Some(1), Some(rounds)),
            scene,
            next: 0,
        }
    }

    /// One trial; the number of outcomes it found.
    fn trial(&mut self) -> usize {
        self.next += 1;
        let seed = trial_seed(1, self.next);
        // As `odds` plays a trial: quietly, making no words.
        firststrike::narrate::quietly(|| {
            self.runner.restart(seed).run_to_end();
            outcomes_of(&self.scene, &self.runner.log().events).len()
        })
    }
}

/// One round as the bare loop sees it: the figures as the engine declared them, who aims
/// at whom (every opponent in the same fight), and the side of each figure.
#[derive(Clone)]
struct BareRound {
    declared: Vec<Declared>,
    aims: Vec<(usize, usize)>,
    sides: Vec<String>,
}

/// The rounds of a scene as its first play declared them (taken outside the timing).
fn bare_rounds(scene: &Scene, rounds: u32) -> Vec<BareRound> {
    let mut run = Runner::new(scene.clone(), Some(1), Some(rounds));
    let mut out: Vec<BareRound> = Vec::new();
    let mut seen = 0;
    while firststrike::sim::step(run.app.world_mut()) {
        let plan = run.app.world().resource::<Plan>();
        if plan.round > seen && !plan.declared.is_empty() {
            seen = plan.round;
            let declared = plan.declared.clone();
            let index = |n: &str| declared.iter().position(|d| d.name == n);
            let mut aims = Vec::new();
            for f in &plan.sequence.fights {
                let members: Vec<usize> = f.members.iter().filter_map(|m| index(m)).collect();
                for &i in &members {
                    for &j in &members {
                        if declared[i].side != declared[j].side {
                            aims.push((i, j));
                        }
                    }
                }
            }
            let mut sides: Vec<String> = declared.iter().map(|d| d.side.clone()).collect();
            sides.sort();
            sides.dedup();
            out.push(BareRound {
                declared,
                aims,
                sides,
            });
        }
    }
    assert_eq!(out.len() as u32, rounds, "a plan for every round");
    out
}

/// The bare loop: the scene's rounds with fresh dice; hit points left in total.
fn bare_trial(rounds: &[BareRound], rng: &mut ChaCha8Rng) -> i64 {
    let mut d = |sides: u32| 1 + (rng.next_u32() % sides) as i32;
    let most = rounds.iter().map(|r| r.declared.len()).max().unwrap_or(0);
    let mut hp: Vec<i64> = vec![60; most];
    for r in rounds {
        let dice: Vec<u32> = r.sides.iter().map(|_| d(6) as u32).collect();
        let mut actors = r.declared.clone();
        for a in &mut actors {
            let s = r.sides.iter().position(|s| *s == a.side).unwrap_or(0);
            a.die = dice[s];
        }
        // No words: the bare loop, like a trial, reads only the order's data.
        let seq = firststrike::narrate::quietly(|| {
            round_sequence_with(&actors, &r.aims, &|_, _| Some(Context::default()))
        });
        for beat in &seq.beats {
            for e in &beat.events {
                if !matches!(e.kind, EventKind::Routine { .. }) || hp[e.actor] <= 0 {
                    continue;
                }
                let Some(&(_, target)) = r.aims.iter().find(|&&(i, j)| i == e.actor && hp[j] > 0)
                else {
                    continue;
                };
                let (need, _) = needed_to_hit(14, 4);
                if hits(d(20), &Modifiers::default(), need) {
                    hp[target] -= i64::from(d(8));
                }
            }
        }
    }
    hp.iter().sum()
}

/// Whether every declared action is one the bare loop orders (nothing is left out of it
/// silently: moves and holds are still ordered by the rules core).
fn kinds(rounds: &[BareRound]) -> usize {
    rounds
        .iter()
        .flat_map(|r| &r.declared)
        .filter(|d| !matches!(d.kind, ActionKind::Other))
        .count()
}

fn benches(c: &mut Criterion) {
    let duel = scene("scenes/otis_vs_robilar.ron");
    let melee = scene("scenes/example_of_melee.ron");
    let mut g = c.benchmark_group("engine");
    let mut e = Engine::new(duel.clone(), 1);
    g.bench_function("duel", |b| b.iter(|| black_box(e.trial())));
    let mut e = Engine::new(melee.clone(), 4);
    g.bench_function("example_of_melee", |b| b.iter(|| black_box(e.trial())));
    g.finish();
    let mut g = c.benchmark_group("bare");
    let (rd, rm) = (bare_rounds(&duel, 1), bare_rounds(&melee, 4));
    assert!(kinds(&rm) > 0);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    g.bench_function("duel", |b| b.iter(|| black_box(bare_trial(&rd, &mut rng))));
    g.bench_function("example_of_melee", |b| {
        b.iter(|| black_box(bare_trial(&rm, &mut rng)))
    });
    g.finish();
}

/// Median seconds per call of `f` over `k` batches of `n` calls.
fn per_call(k: usize, n: usize, f: &mut dyn FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..k)
        .map(|_| {
            let s = Instant::now();
            for _ in 0..n {
                f();
            }
            s.elapsed().as_secs_f64() / n as f64
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[k / 2]
}

/// The table for the README: rounds a second per core, engine and bare loop.
fn table() {
    let duel = scene("scenes/otis_vs_robilar.ron");
    let melee = scene("scenes/example_of_melee.ron");
    let (rd, rm) = (bare_rounds(&duel, 1), bare_rounds(&melee, 4));
    let mut ed = Engine::new(duel, 1);
    let mut em = Engine::new(melee, 4);
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let engine_duel = per_call(9, 2000, &mut || {
        black_box(ed.trial());
    });
    let engine_melee = per_call(9, 200, &mut || {
        black_box(em.trial());
    });
    let bare_duel = per_call(9, 2000, &mut || {
        black_box(bare_trial(&rd, &mut rng));
    });
    let bare_melee = per_call(9, 200, &mut || {
        black_box(bare_trial(&rm, &mut rng));
    });
    let row = |what: &str, rounds: f64, engine: f64, bare: f64, goal: &str| {
        println!(
            "| {what} | {:.0} | {:.0} | {:.1}× | {goal} |",
            rounds / engine,
            rounds / bare,
            engine / bare
        );
    };
    println!();
    println!("| rounds a second, one core | engine | bare rules loop | engine ÷ bare | goal |");
    println!("|---|---:|---:|---:|---|");
    row(
        "duel, one round",
        1.0,
        engine_duel,
        bare_duel,
        "≥ 100,000; ≤ 5×",
    );
    row(
        "Example of Melee, four rounds",
        4.0,
        engine_melee,
        bare_melee,
        "≥ 10,000; ≤ 5×",
    );
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    benches(&mut c);
    c.final_summary();
    table();
}
