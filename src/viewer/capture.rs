//! Screenshots and frame times.
//!
//! - The screenshot key saves `screenshots/<scene>-<moment>-<n>.png`, never overwriting.
//! - `firststrike view --screenshot PATH` saves one after the first frames, writes beside
//!   it `PATH.json` with where each figure and each cell centre landed in the image (so a
//!   test can check the pixels), and exits.
//! - `firststrike view --frame-times N` prints the median and 90th-percentile frame time of
//!   N frames (after a warm-up) and exits.

use super::ViewerRequest;
use super::camera::{MapCamera, world_of};
use super::playback::Playback;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// A screenshot to take after the first frames, then exit.
#[derive(Resource, Clone, Debug)]
pub struct Capture {
    /// Where to save the PNG.
    pub path: PathBuf,
    /// Frames to wait first (the camera fits and egui lays out).
    pub after_frames: u32,
    /// Frames counted so far.
    pub frames: u32,
    /// Requested already.
    pub requested: bool,
    /// Segments to step forward first.
    pub steps: usize,
}

impl Capture {
    /// A capture to `path` after 30 frames.
    pub fn new(path: PathBuf) -> Self {
        Capture {
            path,
            after_frames: 30,
            frames: 0,
            requested: false,
            steps: 0,
        }
    }
}

/// Where things landed in a screenshot, in image pixels.
#[derive(Serialize)]
struct Layout {
    scene: String,
    moment: String,
    scale_factor: f32,
    figures: Vec<FigurePx>,
    cells: Vec<CellPx>,
}

#[derive(Serialize)]
struct FigurePx {
    name: String,
    side: String,
    px: [f32; 2],
    carries_light: bool,
}

#[derive(Serialize)]
struct CellPx {
    cell: [i32; 2],
    px: [f32; 2],
    lit: bool,
}

fn layout(pb: &Playback, cam: &Camera, tf: &GlobalTransform, scale: f32) -> Layout {
    let snap = pb.current();
    let px = |p: (f64, f64)| {
        cam.world_to_viewport(tf, world_of(p).extend(0.0))
            .map(|v| [v.x * scale, v.y * scale])
            .unwrap_or([-1.0, -1.0])
    };
    let cells = match &pb.grid {
        Some(g) => (0..g.height)
            .flat_map(|y| (0..g.width).map(move |x| (x, y)))
            .map(|(x, y)| CellPx {
                cell: [x as i32, y as i32],
                px: px(((x as f64 + 0.5) * g.cell_ft, (y as f64 + 0.5) * g.cell_ft)),
                lit: snap.lit.get(y * g.width + x).copied().unwrap_or(false),
            })
            .collect(),
        None => Vec::new(),
    };
    Layout {
        scene: pb.scene.name.clone(),
        moment: snap.label(),
        scale_factor: scale,
        figures: snap
            .figures
            .iter()
            .map(|f| FigurePx {
                name: f.name.clone(),
                side: f.side.clone(),
                px: px(f.at),
                carries_light: f.light.is_some(),
            })
            .collect(),
        cells,
    }
}

/// Takes the scheduled screenshot, writes its layout, and exits once it is saved.
pub(super) fn scheduled_capture(
    mut commands: Commands,
    mut capture: ResMut<Capture>,
    playback: Option<Res<Playback>>,
    camera: Query<(&Camera, &GlobalTransform), With<MapCamera>>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut playback_commands: MessageWriter<super::PlaybackCommand>,
    (odds, players): (
        Option<Res<super::odds_panel::OddsPanel>>,
        Option<Res<super::players::Shown>>,
    ),
) {
    capture.frames += 1;
    // Trials in the Odds panel: wait for them, then a few frames to show the result.
    if odds.is_some_and(|o| o.running()) {
        capture.frames = capture.frames.min(capture.after_frames.saturating_sub(5));
    }
    if capture.frames == 1 && capture.steps > 0 {
        playback_commands.write(super::PlaybackCommand::Goto(capture.steps));
    }
    if capture.requested || capture.frames < capture.after_frames {
        return;
    }
    let (Ok((cam, tf)), Ok(window)) = (camera.single(), windows.single()) else {
        return;
    };
    capture.requested = true;
    // Nothing plays (a scene opened broken, to mend in the editor): the window as it is,
    // with no figures in its layout.
    let layout = match &playback {
        Some(pb) => layout(pb, cam, tf, window.scale_factor()),
        None => Layout {
            scene: String::new(),
            moment: "nothing plays".into(),
            scale_factor: window.scale_factor(),
            figures: Vec::new(),
            cells: Vec::new(),
        },
    };
    let json = serde_json::to_string_pretty(&layout).expect("layout serializes");
    let side = sidecar(&capture.path);
    if let Err(e) = crate::scene::save::write_atomic(&side, &json) {
        error!("cannot write {}: {e}", side.display());
    }
    // The DM's window, and the players' beside it (`PATH-players.png`) when open; the
    // viewer exits once every one is saved.
    let mut shots = vec![(Screenshot::primary_window(), capture.path.clone())];
    if let Some(p) = players {
        let path = super::players::beside(&capture.path);
        shots.push((Screenshot::window(p.window), path));
    }
    let left = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(shots.len()));
    for (shot, path) in shots {
        let left = left.clone();
        commands.spawn(shot).observe(save_atomically(path)).observe(
            move |_: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
                if left.fetch_sub(1, std::sync::atomic::Ordering::SeqCst) == 1 {
                    exit.write(AppExit::Success);
                }
            },
        );
    }
}

/// `PATH.json` beside `PATH`.
pub fn sidecar(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".json");
    PathBuf::from(s)
}

/// Saves a screenshot on request, under a name no earlier one has.
pub(super) fn manual_screenshot(
    mut commands: Commands,
    mut requests: MessageReader<ViewerRequest>,
    playback: Option<Res<Playback>>,
    log: Option<Res<crate::sim::EventLog>>,
) {
    let asked: Vec<ViewerRequest> = requests.read().cloned().collect();
    let export = asked.contains(&ViewerRequest::Export);
    if !export && !asked.contains(&ViewerRequest::Screenshot) {
        return;
    }
    let Some(pb) = playback else {
        return;
    };
    let dir = Path::new("screenshots");
    if let Err(e) = std::fs::create_dir_all(dir) {
        error!("cannot create screenshots/: {e}");
        return;
    }
    let stem = pb
        .path
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "scene".into());
    let (r, s) = pb.current().when;
    let path = (1..)
        .map(|n| dir.join(format!("{stem}-r{r}s{s}-{n}.png")))
        .find(|p| !p.exists())
        .expect("some name is free");
    // Export: the summary of the log so far beside the picture of the map.
    if export && let Some(log) = log {
        let unit = pb.scene.rules.system.segment_word();
        let title = pb.scene.title();
        let text = crate::calc::summary::markdown(&title, pb.log_now(&log), unit);
        let md = path.with_extension("md");
        match crate::scene::save::write_atomic(&md, &text) {
            Ok(()) => info!("saved the round summary to {}", md.display()),
            Err(e) => error!("cannot write {}: {e}", md.display()),
        }
    }
    info!("saving screenshot to {}", path.display());
    commands
        .spawn(Screenshot::primary_window())
        .observe(save_atomically(path));
}

/// Saves a captured screenshot as a PNG atomically: to a temporary file beside `path`,
/// then renamed over it, so a half-written picture never stands at `path`.
fn save_atomically(path: PathBuf) -> impl FnMut(On<ScreenshotCaptured>) {
    move |captured| {
        let name = path
            .file_name()
            .map_or("screenshot".into(), |n| n.to_string_lossy().into_owned());
        // The temporary name ends in .png, so the encoder picks PNG from it.
        let tmp = path.with_file_name(format!(".{name}.saving.png"));
        let saved = captured
            .image
            .clone()
            .try_into_dynamic()
            .map_err(|e| e.to_string())
            .and_then(|img| img.to_rgb8().save(&tmp).map_err(|e| e.to_string()))
            .and_then(|()| std::fs::rename(&tmp, &path).map_err(|e| e.to_string()));
        match saved {
            Ok(()) => info!("screenshot saved to {}", path.display()),
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                error!("cannot save the screenshot {}: {e}", path.display());
            }
        }
    }
}

/// Frame times collected for a measurement.
#[derive(Resource, Clone, Debug)]
pub struct FrameTimes {
    /// Frames to skip first.
    pub warm_up: u32,
    /// Frames to measure.
    pub frames: u32,
    /// Seconds per frame measured.
    pub samples: Vec<f32>,
    seen: u32,
}

impl FrameTimes {
    /// Measure `frames` frames after a 30-frame warm-up.
    pub fn new(frames: u32) -> Self {
        FrameTimes {
            warm_up: 30,
            frames,
            samples: Vec::new(),
            seen: 0,
        }
    }
}

/// Collects frame times; prints the summary and exits when done.
pub(super) fn measure_frames(
    time: Res<Time<Real>>,
    mut ft: ResMut<FrameTimes>,
    playback: Option<Res<Playback>>,
    mut exit: MessageWriter<AppExit>,
) {
    ft.seen += 1;
    if ft.seen <= ft.warm_up {
        return;
    }
    ft.samples.push(time.delta_secs());
    if ft.samples.len() as u32 >= ft.frames {
        let mut s = ft.samples.clone();
        s.sort_by(f32::total_cmp);
        let median = s[s.len() / 2] * 1000.0;
        let p90 = s[(s.len() * 9 / 10).min(s.len() - 1)] * 1000.0;
        let figures = playback.map(|p| p.current().figures.len()).unwrap_or(0);
        println!(
            "frame time over {} frames ({figures} figures): median {median:.1} ms, p90 {p90:.1} ms",
            s.len()
        );
        exit.write(AppExit::Success);
    }
}
