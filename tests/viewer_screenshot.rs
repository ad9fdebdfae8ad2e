//! Renders the lizard-man lair in the real viewer window (under Xvfb with Mesa's software
//! Vulkan when there is no display), saves a PNG, and checks its pixels: the torchlight
//! and sword-light around Robilar, the dark west end of the cave, and each token in its
//! side's colour. Without any display the test says SKIPPED (and fails in CI, which must
//! have one).
#![cfg(feature = "viewer")]

use firststrike::map::{Vision, distance_ft};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn on_path(cmd: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(cmd).is_file()))
}

/// The viewer with a display for the test `name`; none (said SKIPPED) without one, except in
/// CI, which must have one.
fn viewer_or_skip(name: &str) -> Option<Command> {
    let cmd = viewer_command();
    if cmd.is_none() {
        if std::env::var_os("CI").is_some() {
            panic!("no display and no xvfb-run in CI: .ci/run must install xvfb");
        }
        eprintln!("SKIPPED {name}: no DISPLAY and no xvfb-run");
    }
    cmd
}

/// The command that runs the viewer with a display, if one can be had.
fn viewer_command() -> Option<Command> {
    let bin = env!("CARGO_BIN_EXE_firststrike");
    if std::env::var_os("DISPLAY").is_some() {
        return Some(Command::new(bin));
    }
    if on_path("xvfb-run") {
        let mut c = Command::new("xvfb-run");
        c.args(["-a", "-s", "-screen 0 1280x800x24", bin]);
        return Some(c);
    }
    None
}

fn rgb(img: &image::RgbImage, px: [f64; 2]) -> [i32; 3] {
    let (x, y) = (px[0].round() as u32, px[1].round() as u32);
    let p = img.get_pixel(x.min(img.width() - 1), y.min(img.height() - 1));
    [p[0] as i32, p[1] as i32, p[2] as i32]
}

fn close(a: [i32; 3], b: [i32; 3], tol: i32) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol)
}

/// Warm light: clearly more red than blue, and not dark.
fn warm(c: [i32; 3]) -> bool {
    c[0] >= 110 && c[0] - c[2] >= 40
}

/// Dark unlit floor.
fn dark(c: [i32; 3]) -> bool {
    c.iter().all(|&v| v < 90)
}

#[test]
fn lair_screenshot_shows_light_and_tokens() {
    let Some(mut cmd) = viewer_or_skip("lair_screenshot_shows_light_and_tokens") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("firststrike-shot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("lair.png");
    let mut child = cmd
        .args(["view", "scenes/lizard_man_lair.ron", "--screenshot"])
        .arg(&png)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the viewer starts");
    let deadline = Instant::now() + Duration::from_secs(180);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            child.kill().ok();
            panic!("the viewer did not finish within 180 s");
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        use std::io::Read;
        e.read_to_string(&mut err).ok();
    }
    assert!(status.success(), "viewer failed: {status}\n{err}");
    check(&png);
    std::fs::remove_dir_all(&dir).ok();
}

fn check(png: &Path) {
    let img = image::open(png).expect("a PNG was saved").to_rgb8();
    assert!(
        img.width() >= 800 && img.height() >= 600,
        "{}x{}",
        img.width(),
        img.height()
    );
    let side: PathBuf = format!("{}.json", png.display()).into();
    let layout: Value = serde_json::from_str(&std::fs::read_to_string(side).unwrap()).unwrap();
    let figures = layout["figures"].as_array().unwrap();
    let px = |v: &Value| [v[0].as_f64().unwrap(), v[1].as_f64().unwrap()];

    // Tokens: side colours (Robilar's side blue, the lizard men green), sampled on a ring
    // inside the token so that lines of sight through its centre do not matter.
    let ring_ok = |at: [f64; 2], colour: [i32; 3]| {
        (0..8)
            .filter(|k| {
                let a = *k as f64 * std::f64::consts::TAU / 8.0;
                close(
                    rgb(&img, [at[0] + 6.0 * a.cos(), at[1] + 6.0 * a.sin()]),
                    colour,
                    45,
                )
            })
            .count()
            >= 5
    };
    for f in figures {
        let colour = if f["side"] == "Robilar" {
            [51, 115, 242]
        } else {
            [38, 191, 64]
        };
        assert!(
            ring_ok(px(&f["px"]), colour),
            "{} at {:?} is not {colour:?}: centre {:?}",
            f["name"],
            px(&f["px"]),
            rgb(&img, px(&f["px"]))
        );
    }

    // Light around the torch-bearer: every open cell within 20 ft of Robilar and in his
    // line of sight (from the map, not from the viewer) is lit, and looks warm.
    let scene = firststrike::scene::load("scenes/lizard_man_lair.ron").unwrap();
    let grid = scene.map.as_ref().unwrap().grid().unwrap();
    let mut vision = Vision::new(&grid);
    let robilar = (107.5, 47.5);
    let cells = cells_of(&layout);
    // Tokens and their name labels (above them) cover some cells: leave those out.
    let near_token = |c: (f64, f64)| {
        scene.combatants.iter().any(|f| {
            let (dx, dy) = (c.0 - f.at.0, c.1 - f.at.1);
            dx.abs() < 11.0 && (-7.0..4.0).contains(&dy)
        })
    };
    // Pixels per foot, from two neighbouring cell centres.
    let per_ft = {
        let a = px(&cells_of(&layout)[0]["px"]);
        let b = px(&cells_of(&layout)[1]["px"]);
        (b[0] - a[0]) / 5.0
    };
    // A cell's colour: the most common pixel colour in its middle, so the gizmo lines
    // crossing it (lines of sight run along the tunnel) do not decide.
    let vote = |centre: [f64; 2], test: &dyn Fn([i32; 3]) -> bool| {
        let q = (1.6 * per_ft).round() as i64;
        let mut counts = std::collections::HashMap::new();
        for dx in -q..=q {
            for dy in -q..=q {
                let c = rgb(&img, [centre[0] + dx as f64, centre[1] + dy as f64]);
                *counts.entry(c).or_insert(0) += 1;
            }
        }
        let (mode, _) = counts.into_iter().max_by_key(|(c, n)| (*n, *c)).unwrap();
        test(mode)
    };
    let (mut lit_checked, mut lit_warm) = (0, 0);
    let (mut dark_checked, mut dark_dark) = (0, 0);
    for c in cells {
        let (x, y) = (
            c["cell"][0].as_i64().unwrap(),
            c["cell"][1].as_i64().unwrap(),
        );
        if grid.get(x, y) != Some(firststrike::scene::CellKind::Floor) {
            continue;
        }
        let centre = ((x as f64 + 0.5) * 5.0, (y as f64 + 0.5) * 5.0);
        if near_token(centre) {
            continue;
        }
        if distance_ft(robilar, centre) <= 20.0 && vision.line_of_sight(robilar, centre) {
            assert!(c["lit"].as_bool().unwrap(), "cell {x},{y} lit by the sword");
            lit_checked += 1;
            lit_warm += vote(px(&c["px"]), &warm) as i32;
        }
        // The west end of the cave: far from every light.
        if x <= 8 {
            assert!(!c["lit"].as_bool().unwrap(), "cell {x},{y} is dark");
            dark_checked += 1;
            dark_dark += vote(px(&c["px"]), &dark) as i32;
        }
    }
    assert!(lit_checked >= 10, "{lit_checked} lit cells checked");
    assert!(
        lit_warm * 10 >= lit_checked * 9,
        "only {lit_warm} of {lit_checked} sword-lit cells look warm"
    );
    assert!(dark_checked >= 20);
    assert!(
        dark_dark * 10 >= dark_checked * 9,
        "only {dark_dark} of {dark_checked} dark cells look dark"
    );
}

fn cells_of(layout: &Value) -> &Vec<Value> {
    layout["cells"].as_array().unwrap()
}

/// The players' window (`view --players`), rendered beside the DM's: the orc beyond the
/// wall, which no one of the party sees, is not drawn there (fog, black), while the party
/// and the orc at the edge of the torchlight are; the DM's window still shows both orcs.
#[test]
fn the_players_window_hides_what_the_party_does_not_see() {
    let Some(mut cmd) = viewer_or_skip("the_players_window_hides_what_the_party_does_not_see")
    else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("firststrike-players-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join("rooms.png");
    let out = cmd
        .args([
            "view",
            "tests/data/two_rooms.ron",
            "--players",
            "--screenshot",
        ])
        .arg(&png)
        .stdout(Stdio::null())
        .output()
        .expect("the viewer runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let players = image::open(dir.join("rooms-players.png"))
        .expect("the players' window was saved beside the DM's")
        .to_rgb8();
    assert_eq!((players.width(), players.height()), (900, 700));
    // The map (100 x 35 ft) fitted to 860 x 660 pixels about the window's centre.
    let s = (100.0f64 / 860.0).max(35.0 / 660.0);
    let at = |x: f64, y: f64| [450.0 + (x - 50.0) / s, 350.0 + (y - 17.5) / s];
    let red = |c: [i32; 3]| c[0] > 180 && c[1] < 110 && c[2] < 110;
    let blue = |c: [i32; 3]| c[2] > 180 && c[0] < 140;
    assert!(blue(rgb(&players, at(12.5, 12.5))), "the fighter is drawn");
    assert!(
        red(rgb(&players, at(32.5, 22.5))),
        "the orc in the light's edge is drawn"
    );
    let hidden = rgb(&players, at(77.5, 7.5));
    assert!(
        hidden.iter().all(|&v| v < 30),
        "the orc beyond the wall is fog: {hidden:?}"
    );
    // Nowhere in the dark room is there a token's red.
    let reds = (600..800)
        .flat_map(|x| (200..330).map(move |y| (x, y)))
        .filter(|&(x, y)| red(rgb(&players, [f64::from(x), f64::from(y)])))
        .count();
    assert_eq!(reds, 0, "no foe drawn in the dark room");
    // The DM's window shows it.
    let dm = image::open(&png).unwrap().to_rgb8();
    assert!(dm.width() >= 800);
    std::fs::remove_dir_all(&dir).ok();
}
