//! An edit in the editor replayed to the segment on screen, as the viewer does it: the
//! edited scene loaded into the viewer's own world (`Playback::start`, `sim::load`) and
//! played forward to where the DM was looking (`Playback::goto`). `stress_200` (200
//! figures) in round 1, segment 5 and round 2, segment 5; the goal is 100 ms. Each replay
//! is of a scene not played before (see below), as after a real edit.
//!
//! `cargo bench --bench edit_replay`

use criterion::{Criterion, criterion_group, criterion_main};
use firststrike::scene::edit::{Edit, apply};
use firststrike::sim::Runner;
use firststrike::viewer::Playback;
use std::hint::black_box;
use std::path::PathBuf;

fn replay(c: &mut Criterion) {
    let path = PathBuf::from("scenes/stress_200.ron");
    let scene = firststrike::scene::load(&path).expect("stress_200 loads");
    let mut host = Runner::host();
    let world = host.app.world_mut();
    // Where the DM looks: the snapshot of (round, segment 5).
    let mut pb = Playback::start(world, path.clone(), scene.clone(), None, 0);
    pb.goto(world, usize::MAX);
    let at = |r: u32| {
        pb.frames
            .iter()
            .position(|f| f.when == (r, 5))
            .expect("the scene plays that segment")
    };
    let (r1, r2) = (at(1), at(2));
    let first = scene.combatants[0].name.clone();
    let mut edited = scene.clone();
    let hold = Edit::Declare {
        round: 1,
        figure: first,
        act: Some(firststrike::scene::Act::Hold),
    };
    apply(&mut edited, &hold).expect("the edit applies");
    let mut g = c.benchmark_group("edit_replay");
    g.sample_size(20);
    // Every replay a scene not played before: the first figure a hair's breadth elsewhere
    // each time, so no arrangement of figures was met before (the sightings remembered
    // never answer) — only the map's fields of view are kept, as after a real edit.
    let mut k = 0u32;
    let mut next = || {
        k += 1;
        let mut s = edited.clone();
        s.combatants[0].at.0 += f64::from(k % 4096) * 1e-6;
        s
    };
    for (name, keep) in [
        ("stress_200_round1_segment5", r1),
        ("stress_200_round2_segment5", r2),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut pb = Playback::start(world, path.clone(), next(), None, 0);
                pb.goto(world, keep);
                black_box(pb.cursor)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, replay);
criterion_main!(benches);
