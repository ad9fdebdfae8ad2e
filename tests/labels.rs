//! Labels on a crowded map: in the Example of Melee, round 1, at the viewer's default zoom
//! and zoomed out, no two labels overlap, no label covers a token, and no two tokens are
//! drawn on top of each other.
#![cfg(feature = "viewer")]

use bevy::math::{Rect, Vec2};
use firststrike::scene::load;
use firststrike::sim::Phase;
use firststrike::viewer::{Playback, label_size, labels, layout};

/// The zoom the viewer fits the map at in its 1280 × 800 window (panels: 290 left, 360
/// right, about 24 above and 170 below), in world units per pixel.
fn fit_scale(w_ft: f32, h_ft: f32) -> f32 {
    let (free_w, free_h) = (1280.0 - 290.0 - 360.0, 800.0 - 24.0 - 170.0);
    (w_ft / free_w).max(h_ft / free_h) * 1.06
}

#[test]
fn example_of_melee_labels_never_overlap() {
    let path = std::path::PathBuf::from("scenes/example_of_melee.ron");
    let scene = load(&path).unwrap();
    let mut host = firststrike::sim::Runner::host();
    let world = host.app.world_mut();
    let mut pb = Playback::start(world, path, scene, None, 0);
    while !matches!(pb.current().phase, Phase::Round { round: 1, .. }) {
        let at = pb.cursor;
        pb.goto(world, at + 1);
        assert!(pb.cursor > at, "reaches round 1");
    }
    let grid = pb.grid.clone().unwrap();
    let default = fit_scale(grid.width_ft() as f32, grid.height_ft() as f32);
    let figures = pb.current().figures.clone();
    for scale in [0.01, default, default * 2.0] {
        let size = label_size(scale);
        let l = layout(&figures, size, None);
        let tokens: Vec<Rect> = l
            .drawn
            .iter()
            .map(|d| Rect::from_center_half_size(*d, Vec2::splat(2.0)))
            .collect();
        let rects: Vec<Rect> = l
            .labels
            .iter()
            .zip(&l.drawn)
            .filter_map(|(p, d)| {
                p.as_ref()
                    .map(|p| labels::rect(*d + p.offset, &p.text, size))
            })
            .collect();
        for (i, a) in rects.iter().enumerate() {
            for b in &rects[i + 1..] {
                assert!(
                    a.intersect(*b).is_empty(),
                    "labels overlap at zoom {scale}: {a:?} {b:?}"
                );
            }
            for t in &tokens {
                assert!(
                    a.intersect(*t).is_empty(),
                    "a label covers a token at zoom {scale}"
                );
            }
        }
        for (i, a) in l.drawn.iter().enumerate() {
            for b in &l.drawn[i + 1..] {
                assert!(
                    a.distance(*b) >= 4.0 - 1e-3,
                    "tokens drawn on top of each other"
                );
            }
        }
        // At the default zoom every figure has its label, full or short.
        if scale == default {
            let hidden = l.labels.iter().filter(|p| p.is_none()).count();
            assert_eq!(hidden, 0, "every label shown at the default zoom");
        }
    }
}

/// The preview of the giant's charge at Bigby: a mark every segment from 1 to 9, 24 ft
/// apart (12" doubled indoors), rings of 120 ft (his move) and 240 ft (his charge), and
/// Bigby's reach drawn where they meet.
#[test]
fn the_giants_charge_previewed() {
    use firststrike::viewer::preview::round_ahead;
    let scene = load(std::path::Path::new("scenes/bigby_vs_giant.ron")).unwrap();
    // The viewer's simulation played ahead through round 1, the cursor where it was.
    let mut host = firststrike::sim::Runner::host();
    let world = host.app.world_mut();
    let path = std::path::PathBuf::from("scenes/bigby_vs_giant.ron");
    let mut pb = Playback::start(world, path, scene.clone(), None, 0);
    pb.play_through(world, 1);
    assert_eq!(pb.cursor, 0, "the cursor stays");
    let log = world.resource::<firststrike::sim::EventLog>();
    assert_eq!(
        pb.log_now(log).len(),
        pb.frames[0].log_len,
        "nothing more shown"
    );
    let giant = scene.figure_id("Hill giant").unwrap();
    let p = round_ahead(&scene, &log.events, giant, 1);
    let segments: Vec<u32> = p.ticks.iter().map(|t| t.0).collect();
    assert_eq!(segments, (1..=9).collect::<Vec<_>>());
    let mut last = p.from;
    for (s, at) in &p.ticks {
        let d = ((at.0 - last.0).powi(2) + (at.1 - last.1).powi(2)).sqrt();
        assert!(
            d <= 24.0 + 1e-6 && (*s == 9 || (d - 24.0).abs() < 1e-6),
            "segment {s}: {d} ft"
        );
        last = *at;
    }
    assert_eq!(p.reach_ft, (120.0, 240.0));
    let (at, _) = p.contact.expect("they meet");
    let bigby = scene
        .combatants
        .iter()
        .find(|c| c.name == "Bigby")
        .unwrap()
        .at;
    assert_eq!(at, bigby);
}

/// Under "Take Initiative!" a round has 20 ordering segments: the preview plays the round
/// on screen to its twentieth, not to the book's tenth.
#[test]
fn the_preview_plays_a_take_initiative_round_to_its_end() {
    use firststrike::rules::options::RulesSystem;
    let mut scene = load(std::path::Path::new("scenes/bigby_vs_giant.ron")).unwrap();
    scene.rules.system = RulesSystem::TakeInitiative;
    let mut host = firststrike::sim::Runner::host();
    let world = host.app.world_mut();
    let path = std::path::PathBuf::from("scenes/bigby_vs_giant.ron");
    let mut pb = Playback::start(world, path, scene, None, 0);
    pb.play_through(world, 1);
    let last = pb.frames.last().unwrap();
    assert_eq!(last.per_round, 20);
    assert!(
        last.when >= (1, 20) || pb.over,
        "played to {:?} of a 20-segment round",
        last.when
    );
    assert_eq!(pb.cursor, 0);
}

/// A name by the map's edge stays inside what the fitted view shows (the map and the room
/// beside it): at every segment of the Example of Melee and of the lizard men's lair, at
/// the viewer's default zoom, every label shown lies within it — the Assassin's "(down)"
/// by the left wall was once cut by the view's edge.
#[test]
fn labels_by_the_wall_stay_inside_the_fitted_view() {
    use firststrike::viewer::fitted_view;
    for file in ["scenes/example_of_melee.ron", "scenes/lizard_man_lair.ron"] {
        let path = std::path::PathBuf::from(file);
        let scene = load(&path).unwrap();
        let mut host = firststrike::sim::Runner::host();
        let world = host.app.world_mut();
        let mut pb = Playback::start(world, path, scene, None, 0);
        let grid = pb.grid.clone().unwrap();
        let size = label_size(fit_scale(grid.width_ft() as f32, grid.height_ft() as f32));
        let within = fitted_view(&pb);
        loop {
            let l = layout(&pb.current().figures, size, Some(within));
            for (p, d) in l.labels.iter().zip(&l.drawn) {
                let Some(p) = p else { continue };
                let r = labels::rect(*d + p.offset, &p.text, size);
                assert!(
                    within.contains(r.min) && within.contains(r.max),
                    "{file} at step {}: '{}' at {r:?} outside {within:?}",
                    pb.cursor,
                    p.text
                );
            }
            let at = pb.cursor;
            pb.goto(world, at + 1);
            if pb.cursor == at {
                break;
            }
        }
    }
}
