//! Field of view: ours against adam_fov_rs 0.5 and bracket-pathfinding 0.8.7 (symmetric
//! shadowcasting), side by side in one run.
//!
//! Maps (seeded): 25% random walls at 100×100 and 1000×1000 (the smaller is the middle of
//! the larger, so they differ only in size), an empty 1000×1000 map, and a
//! 1000×1000 map of 3-wide corridors on a 12-cell lattice. Radii 4, 12, 30 and 60. Each
//! measured iteration computes the fields of view from the same 64 seeded open cells near
//! the map's centre; the table divides by 64. Every implementation writes into storage it
//! keeps between calls where its API allows (ours and adam's into a window around the
//! origin; bracket returns a fresh `HashSet`, which is its API).
//!
//! Before timing, the sets are compared: with bracket cell for cell (the same algorithm,
//! so they should agree), and with adam inside adam's own disc (a different algorithm:
//! on the empty map they should agree; elsewhere the table shows how many cells differ).
//!
//! Run: `cargo bench --bench fov`. The table is printed at the end.

use adam_fov_rs::IVec2;
use bracket_pathfinding::prelude::{Algorithm2D, BaseMap, FieldOfViewAlg, Point};
use criterion::{BenchmarkId, Criterion};
use firststrike::map::{FieldOfView, SightMap};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Duration;

const RADII: [i32; 4] = [4, 12, 30, 60];
const ORIGINS: usize = 64;
const IMPLS: [&str; 3] = ["ours", "adam_fov_rs", "bracket"];

/// A benchmark map: opacity row-major, plus the origins to look from.
struct BenchMap {
    name: &'static str,
    w: usize,
    h: usize,
    walls: Vec<bool>,
    origins: Vec<(i32, i32)>,
    sight: SightMap,
}

impl BaseMap for BenchMap {
    fn is_opaque(&self, idx: usize) -> bool {
        self.walls[idx]
    }
}

impl Algorithm2D for BenchMap {
    fn dimensions(&self) -> Point {
        Point::new(self.w as i32, self.h as i32)
    }
}

impl BenchMap {
    fn new(name: &'static str, w: usize, h: usize, wall: impl Fn(usize, usize) -> bool) -> Self {
        let walls: Vec<bool> = (0..w * h).map(|i| wall(i % w, i / w)).collect();
        let sight = SightMap::from_fn(w, h, |x, y| walls[y * w + x]);
        // Open cells within 20 cells of the centre, picked with a fixed seed.
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut origins = Vec::new();
        while origins.len() < ORIGINS {
            let x = (w / 2) as i32 + rng.random_range(-20..20);
            let y = (h / 2) as i32 + rng.random_range(-20..20);
            if !walls[y as usize * w + x as usize] {
                origins.push((x, y));
            }
        }
        BenchMap {
            name,
            w,
            h,
            walls,
            origins,
            sight,
        }
    }

    /// 25% walls from a seeded hash of the position relative to the centre, so the
    /// 100×100 map is the middle of the 1000×1000 one: the same origins see the same
    /// cells on both, and only the map's size differs.
    fn random(name: &'static str, size: usize) -> Self {
        let c = (size / 2) as i64;
        Self::new(name, size, size, |x, y| {
            let (dx, dy) = (x as i64 - c, y as i64 - c);
            let h =
                splitmix64(0x5eed ^ (dx as u64).wrapping_mul(0x9e37_79b9) ^ ((dy as u64) << 32));
            h.is_multiple_of(4)
        })
    }
}

/// A stateless 64-bit mix (splitmix64's finaliser).
fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn maps() -> Vec<BenchMap> {
    vec![
        BenchMap::random("random25_100", 100),
        BenchMap::random("random25_1000", 1000),
        BenchMap::new("empty_1000", 1000, 1000, |_, _| false),
        BenchMap::new("corridors_1000", 1000, 1000, |x, y| {
            x % 12 >= 3 && y % 12 >= 3
        }),
    ]
}

/// adam_fov_rs marking into a reused window around the origin.
struct AdamWindow {
    side: i32,
    cells: Vec<bool>,
}

impl AdamWindow {
    fn new() -> Self {
        AdamWindow {
            side: 0,
            cells: Vec::new(),
        }
    }

    fn compute(&mut self, m: &BenchMap, o: (i32, i32), r: i32) {
        self.side = 2 * r + 1;
        self.cells.clear();
        self.cells.resize((self.side * self.side) as usize, false);
        let (side, cells) = (self.side, &mut self.cells);
        adam_fov_rs::compute_fov(
            IVec2::new(o.0, o.1),
            r as usize,
            [m.w as u32, m.h as u32],
            |p: IVec2| m.walls[p.y as usize * m.w + p.x as usize],
            |p: IVec2| {
                let (wx, wy) = (p.x - o.0 + r, p.y - o.1 + r);
                if wx >= 0 && wy >= 0 && wx < side && wy < side {
                    cells[(wy * side + wx) as usize] = true;
                }
            },
        );
    }

    fn set(&self, o: (i32, i32), r: i32) -> BTreeSet<(i32, i32)> {
        (0..self.cells.len() as i32)
            .filter(|&i| self.cells[i as usize])
            .map(|i| (o.0 - r + i % self.side, o.1 - r + i / self.side))
            .collect()
    }
}

fn bracket_set(m: &BenchMap, o: (i32, i32), r: i32) -> BTreeSet<(i32, i32)> {
    FieldOfViewAlg::SymmetricShadowcasting
        .field_of_view_set(Point::new(o.0, o.1), r, m)
        .into_iter()
        .map(|p| (p.x, p.y))
        .collect()
}

/// Agreement of our sets with each peer's over all origins at one radius.
struct Agreement {
    bracket_same: usize,
    adam_diff_cells: usize,
    adam_cells: usize,
}

fn agreement(m: &BenchMap, r: i32) -> Agreement {
    let mut ours = FieldOfView::new();
    let mut adam = AdamWindow::new();
    let mut a = Agreement {
        bracket_same: 0,
        adam_diff_cells: 0,
        adam_cells: 0,
    };
    for &o in &m.origins {
        ours.compute(&m.sight, o, r);
        let mine: BTreeSet<_> = ours.iter().collect();
        if mine == bracket_set(m, o, r) {
            a.bracket_same += 1;
        }
        adam.compute(m, o, r);
        let theirs = adam.set(o, r);
        let in_adam_disc: BTreeSet<_> = mine
            .into_iter()
            .filter(|(x, y)| (x - o.0).pow(2) + (y - o.1).pow(2) <= r * r)
            .collect();
        a.adam_diff_cells += in_adam_disc.symmetric_difference(&theirs).count();
        a.adam_cells += theirs.len();
    }
    a
}

fn out_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
        .join("criterion")
}

/// The median time of one benchmark in nanoseconds, from criterion's estimates.
fn mean_ns(group: &str, imp: &str, r: i32) -> Option<f64> {
    let path = out_dir()
        .join(group)
        .join(imp)
        .join(r.to_string())
        .join("new/estimates.json");
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["median"]["point_estimate"].as_f64()
}

fn main() {
    let maps = maps();
    let mut c = Criterion::default()
        .output_directory(&out_dir())
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(2000))
        .sample_size(20)
        .configure_from_args();

    let mut agreements = Vec::new();
    for m in &maps {
        for r in RADII {
            agreements.push(((m.name, r), agreement(m, r)));
        }
    }

    for m in &maps {
        let mut g = c.benchmark_group(format!("fov_{}", m.name));
        for r in RADII {
            let mut ours = FieldOfView::new();
            g.bench_with_input(BenchmarkId::new("ours", r), &r, |b, &r| {
                b.iter(|| {
                    for &o in &m.origins {
                        ours.compute(&m.sight, o, r);
                        black_box(ours.len());
                    }
                })
            });
            let mut adam = AdamWindow::new();
            g.bench_with_input(BenchmarkId::new("adam_fov_rs", r), &r, |b, &r| {
                b.iter(|| {
                    for &o in &m.origins {
                        adam.compute(m, o, r);
                        black_box(&adam.cells);
                    }
                })
            });
            g.bench_with_input(BenchmarkId::new("bracket", r), &r, |b, &r| {
                b.iter(|| {
                    for &o in &m.origins {
                        let s = FieldOfViewAlg::SymmetricShadowcasting.field_of_view_set(
                            Point::new(o.0, o.1),
                            r,
                            m,
                        );
                        black_box(s.len());
                    }
                })
            });
        }
        g.finish();
    }
    c.final_summary();

    println!();
    println!(
        "Field of view, µs per computation (median of samples, each over {ORIGINS} origins), and agreement"
    );
    println!(
        "| map | r | ours | adam_fov_rs | bracket | adam/ours | bracket/ours | same as bracket | cells differing from adam |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for m in &maps {
        for r in RADII {
            let group = format!("fov_{}", m.name);
            let t: Vec<Option<f64>> = IMPLS
                .iter()
                .map(|i| mean_ns(&group, i, r).map(|ns| ns / ORIGINS as f64 / 1000.0))
                .collect();
            let [Some(ours), Some(adam), Some(bracket)] = [t[0], t[1], t[2]] else {
                continue;
            };
            let a = &agreements
                .iter()
                .find(|(k, _)| *k == (m.name, r))
                .expect("every map and radius was compared")
                .1;
            println!(
                "| {} | {r} | {ours:.2} | {adam:.2} | {bracket:.2} | {:.1}× | {:.1}× | {}/{ORIGINS} | {} of {} ({:.2}%) |",
                m.name,
                adam / ours,
                bracket / ours,
                a.bracket_same,
                a.adam_diff_cells,
                a.adam_cells,
                100.0 * a.adam_diff_cells as f64 / a.adam_cells.max(1) as f64,
            );
        }
    }
    // Ours against adam_fov_rs, timed alternately batch by batch so that the machine's
    // drift between criterion's groups cannot decide a close race.
    println!();
    println!("adam_fov_rs / ours, interleaved (ratio of medians over 101 alternations):");
    println!("| map | r=4 | r=12 | r=30 | r=60 |");
    println!("|---|---:|---:|---:|---:|");
    for m in &maps {
        let cells: Vec<String> = RADII
            .iter()
            .map(|&r| format!("{:.2}×", interleaved_vs_adam(m, r)))
            .collect();
        println!("| {} | {} |", m.name, cells.join(" | "));
    }
    println!();

    // The same work on both sizes, timed alternately so that drift in the machine's speed
    // falls on both alike: the ratio of medians over 301 alternations.
    let (small, big) = (&maps[0], &maps[1]);
    for r in RADII {
        println!(
            "ours at r={r}: 1000×1000 / 100×100 = {:.3} (random walls, interleaved)",
            interleaved_ratio(small, big, r)
        );
    }
}

/// Median time of adam_fov_rs over median time of ours on `m`, batches alternating.
fn interleaved_vs_adam(m: &BenchMap, r: i32) -> f64 {
    let mut fov = FieldOfView::new();
    let mut adam = AdamWindow::new();
    let (mut ours_t, mut adam_t) = (Vec::new(), Vec::new());
    for _ in 0..101 {
        let t = std::time::Instant::now();
        for &o in &m.origins {
            fov.compute(&m.sight, o, r);
            black_box(fov.len());
        }
        ours_t.push(t.elapsed().as_secs_f64());
        let t = std::time::Instant::now();
        for &o in &m.origins {
            adam.compute(m, o, r);
            black_box(&adam.cells);
        }
        adam_t.push(t.elapsed().as_secs_f64());
    }
    median(&mut adam_t) / median(&mut ours_t)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Median time on `big` over median time on `small`, batches of all origins alternating.
fn interleaved_ratio(small: &BenchMap, big: &BenchMap, r: i32) -> f64 {
    let mut fov = FieldOfView::new();
    let mut batch = |m: &BenchMap| {
        let t = std::time::Instant::now();
        for &o in &m.origins {
            fov.compute(&m.sight, o, r);
            black_box(fov.len());
        }
        t.elapsed().as_secs_f64()
    };
    let (mut ts, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..301 {
        ts.push(batch(small));
        tb.push(batch(big));
    }
    median(&mut tb) / median(&mut ts)
}
