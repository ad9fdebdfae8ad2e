//! Ordering a round, and playing one.
//!
//! - `order/N`: the rules core orders a round of N figures (10, 100, 1,000) in fights of
//!   2 to 10 (melee with speed factors and several routines, missiles, spells, charges,
//!   seeded dice): `rules::sequence::round_sequence_with`.
//! - `order/duel_20_attacks`: two figures with 20 attack routines each.
//! - `engine/N`: the headless engine plans and plays one whole round of the same figures
//!   as a scene (initiative, plan, ten segments of movement, blows and completions).
//!
//! Goal (issue "the round as the rules order it"): 1,000 figures in under 100 ms a round,
//! growing no faster than n log n. After criterion, the run prints the growth from 100 to
//! 1,000 figures against n log n (15.0×) from medians it times alternately.
//!
//! Run: `cargo bench --no-default-features --bench round`.

use criterion::{BenchmarkId, Criterion};
use firststrike::rules::action::{ActionKind, Declared};
use firststrike::rules::attack_rate::AttackRate;
use firststrike::rules::first::Context;
use firststrike::rules::sequence::{round_sequence, round_sequence_with};
use firststrike::scene::{Act, CombatantSpec, Scene};
use firststrike::sim::Runner;
use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Instant;

/// A small deterministic generator (the figures must be the same on every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u32) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % u64::from(n)) as u32
    }
}

/// One figure: its kind (0 melee, 1 missile, 2 cast, 3 charge), speed factor, routines.
#[derive(Clone, Copy)]
struct Gen {
    kind: u32,
    sf: u32,
    routines: u32,
    casting: u32,
}

/// `n` figures in fights of 2 to 10: (fight, side) per figure, and their numbers.
fn figures(n: usize) -> Vec<(usize, u32, Gen)> {
    let mut rng = Lcg(42);
    let mut out = Vec::with_capacity(n);
    let mut fight = 0;
    while out.len() < n {
        let size = (2 + rng.next(9) as usize).min(n - out.len()).max(1);
        for k in 0..size {
            let g = Gen {
                kind: rng.next(4),
                sf: 1 + rng.next(12),
                routines: 1 + rng.next(3),
                casting: 1 + rng.next(9),
            };
            out.push((fight, (k % 2) as u32, g));
        }
        fight += 1;
    }
    out
}

/// The figures as the rules core sees them, with who aims at whom (every opponent in the
/// same fight) and each side's die.
fn declared(n: usize) -> (Vec<Declared>, Vec<(usize, usize)>) {
    let figs = figures(n);
    let mut rng = Lcg(7);
    let dice: Vec<u32> = (0..n).map(|_| 1 + rng.next(6)).collect();
    let actors: Vec<Declared> = figs
        .iter()
        .enumerate()
        .map(|(i, &(f, side, g))| {
            let kind = match g.kind {
                0 => ActionKind::Melee,
                1 => ActionKind::Missile,
                2 => ActionKind::Cast {
                    segments: g.casting,
                    device: false,
                },
                _ => ActionKind::Charge {
                    arrival_segment: g.casting,
                },
            };
            let routines = if g.kind < 2 { g.routines } else { 1 };
            Declared::melee(&format!("F{i}"), dice[(2 * f + side as usize) % n.max(1)])
                .side(&format!("S{f}-{side}"))
                .kind(kind)
                .sf(g.sf)
                .routines(routines)
                .reach(f64::from(g.sf))
        })
        .collect();
    let mut aims = Vec::new();
    for i in 0..n {
        for j in 0..n {
            if i != j && figs[i].0 == figs[j].0 && figs[i].1 != figs[j].1 {
                aims.push((i, j));
            }
        }
    }
    (actors, aims)
}

/// The same figures as a scene: each fight 30 ft from the next, its sides 5 ft apart (a
/// charger 60 ft off), one round declared, dice fixed.
fn scene(n: usize) -> Scene {
    let figs = figures(n);
    let name = |i: usize| format!("F{i}");
    let mut combatants = Vec::new();
    let mut declare = BTreeMap::new();
    let mut initiative = BTreeMap::new();
    let mut rng = Lcg(7);
    for (i, &(f, side, g)) in figs.iter().enumerate() {
        let foes: Vec<String> = (0..n)
            .filter(|&j| figs[j].0 == f && figs[j].1 != side)
            .map(name)
            .collect();
        let y = if g.kind == 3 {
            60.0
        } else {
            5.0 * f64::from(side)
        };
        combatants.push(CombatantSpec {
            name: name(i),
            side: format!("S{f}-{side}"),
            at: (30.0 * f as f64, y),
            weapon: Some(
                if g.kind == 1 {
                    "light crossbow"
                } else {
                    "long sword"
                }
                .into(),
            ),
            attacks: Some(AttackRate {
                routines: g.routines,
                per_rounds: 1,
            }),
            hp: Some(60),
            ..CombatantSpec::default()
        });
        let act = match g.kind {
            _ if foes.is_empty() => Act::Hold,
            0 => Act::melee(foes),
            1 => Act::missile(foes),
            2 => Act::Cast {
                spell: "chant".into(),
                target: foes.first().cloned(),
                segments: Some(g.casting),
                device: false,
                at: None,
            },
            _ => Act::charge(foes),
        };
        declare.insert(name(i), act);
        initiative.insert(format!("S{f}-{side}"), 1 + rng.next(6));
    }
    let mut s = Scene::one_round(
        &format!("{n} figures"),
        firststrike::rules::distance::Setting::Indoors,
        Default::default(),
        combatants,
        declare,
        initiative,
    );
    s.seed = 1;
    s
}

fn order(n: usize, actors: &[Declared], aims: &[(usize, usize)]) -> usize {
    let ctx = Context::default();
    let s = round_sequence_with(actors, aims, &|_, _| Some(ctx));
    assert!(s.fights.len() >= n / 10);
    s.beats.len()
}

fn play(scene: &Scene) -> usize {
    let mut run = Runner::new(scene.clone(), None, None);
    run.run_to_end();
    run.log().events.len()
}

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("order");
    for n in [10, 100, 1000] {
        let (actors, aims) = declared(n);
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, &n| {
            b.iter(|| black_box(order(n, &actors, &aims)))
        });
    }
    let a = Declared::melee("A", 3).side("A").sf(5).routines(20);
    let b2 = Declared::melee("B", 3).side("B").sf(7).routines(20);
    g.bench_function("duel_20_attacks", |b| {
        b.iter(|| {
            black_box(round_sequence(
                &[a.clone(), b2.clone()],
                &Context::default(),
            ))
        })
    });
    g.finish();
    let mut g = c.benchmark_group("engine");
    g.sample_size(10);
    for n in [10, 100, 1000] {
        let s = scene(n);
        g.bench_with_input(BenchmarkId::from_parameter(n), &s, |b, s| {
            b.iter(|| black_box(play(s)))
        });
    }
    // The library's 200 figures in a torch-lit hall, one round, as `run` plays it: a new
    // app, the map's sight built, ten segments (the goal: 30 ms).
    let mut lit = firststrike::scene::load("scenes/stress_200.ron").expect("stress_200 loads");
    lit.rounds.truncate(1);
    g.bench_function("stress_200_lit_round", |b| b.iter(|| black_box(play(&lit))));
    g.finish();
}

/// Median of `k` timings of `f`, in seconds.
fn median(k: usize, f: &mut dyn FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..k)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[k / 2]
}

/// Growth from 100 to 1,000 figures, timed alternately so machine drift falls on both.
fn growth() {
    let (a100, m100) = declared(100);
    let (a1000, m1000) = declared(1000);
    let (s100, s1000) = (scene(100), scene(1000));
    let (mut o100, mut o1000, mut e100, mut e1000) = (vec![], vec![], vec![], vec![]);
    for _ in 0..7 {
        o100.push(median(21, &mut || {
            black_box(order(100, &a100, &m100));
        }));
        o1000.push(median(5, &mut || {
            black_box(order(1000, &a1000, &m1000));
        }));
        e100.push(median(3, &mut || {
            black_box(play(&s100));
        }));
        e1000.push(median(3, &mut || {
            black_box(play(&s1000));
        }));
    }
    let med = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (o100, o1000, e100, e1000) = (med(o100), med(o1000), med(e100), med(e1000));
    println!();
    println!("| what | 100 figures | 1,000 figures | growth ×10 figures | n log n |");
    println!("|---|---:|---:|---:|---:|");
    println!(
        "| order a round | {:.2} ms | {:.2} ms | {:.1}× | 15.0× |",
        o100 * 1e3,
        o1000 * 1e3,
        o1000 / o100
    );
    println!(
        "| play a round (engine) | {:.1} ms | {:.1} ms | {:.1}× | 15.0× |",
        e100 * 1e3,
        e1000 * 1e3,
        e1000 / e100
    );
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    benches(&mut c);
    c.final_summary();
    growth();
}
