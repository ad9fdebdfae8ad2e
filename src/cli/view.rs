//! `firststrike view [SCENE]`: the viewer window (also what `firststrike` alone opens).

use crate::viewer::{self, Capture, ViewOptions};
use clap::Args;
use std::path::PathBuf;

/// The scene opened when none is named.
pub const DEFAULT_SCENE: &str = "scenes/lizard_man_lair.ron";

/// Arguments of `view`.
#[derive(Args, Debug, Default)]
pub struct ViewArgs {
    /// Scene file (RON); the lizard-man lair when left out.
    pub scene: Option<PathBuf>,
    /// Seed for the dice the scene does not fix.
    #[arg(long, allow_negative_numbers = true, value_parser = super::seed)]
    pub seed: Option<u64>,
    /// Save a screenshot (PNG) after the first frames, with PATH.json giving where each
    /// figure and cell landed, then exit.
    #[arg(long, value_name = "PATH")]
    pub screenshot: Option<PathBuf>,
    /// Step this many segments forward before the screenshot.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "screenshot")]
    pub step: usize,
    /// Measure N frames, print the median frame time, then exit.
    #[arg(long, value_name = "N")]
    pub frame_times: Option<u32>,
    /// Play under this rules system instead of the scene's own (T switches in the window).
    #[arg(long, value_enum)]
    pub system: Option<super::scene_cmds::System>,
    /// Select this figure at the start (its round ahead is drawn: path, marks, rings).
    #[arg(long, value_name = "FIGURE")]
    pub select: Option<String>,
    /// Table dice from the start: type what your dice showed for each roll (X switches).
    /// One mode at a time: not with --predict or --edit.
    #[arg(long, conflicts_with_all = ["predict", "edit"])]
    pub table_dice: bool,
    /// Predict, then see: the viewer asks before each beat (K in the window). Not with
    /// --edit.
    #[arg(long, conflicts_with = "edit")]
    pub predict: bool,
    /// Open the charts window (C in the window).
    #[arg(long)]
    pub charts: bool,
    /// With --predict: answers given in advance, 1-based and comma-separated, used as the
    /// questions come (for screenshots and demonstrations).
    #[arg(long, value_delimiter = ',', requires = "predict", value_parser = super::quiz::answer)]
    pub answers: Option<Vec<usize>>,
    /// Open a second window for the players: only what the party (`--players=SIDE`, or
    /// the first character's side) sees at the segment on the DM's screen, fog elsewhere.
    #[arg(
        long,
        value_name = "SIDE",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = ""
    )]
    pub players: Option<String>,
    /// Open in edit mode (B switches in the window).
    #[arg(long)]
    pub edit: bool,
    /// Open the Odds panel and run its trials at once.
    #[arg(long)]
    pub odds: bool,
    /// With --odds: trials per run (10 to 100000).
    #[arg(long, value_name = "N", requires = "odds", default_value_t = 2000,
          value_parser = clap::value_parser!(u64).range(10..=100_000))]
    pub odds_trials: u64,
    /// With --odds: a sweep instead, FIGURE.FIELD=FROM..TO[:STEP].
    #[arg(long, value_name = "FIGURE.FIELD=FROM..TO[:STEP]", requires = "odds")]
    pub odds_vary: Option<String>,
    /// With --odds: roll the scene's fixed dice too.
    #[arg(long, requires = "odds")]
    pub odds_all_dice: bool,
    /// With --edit: open this figure's context menu (for screenshots of the editor).
    #[arg(long, value_name = "FIGURE", requires = "edit", hide = true)]
    pub menu: Option<String>,
}

/// How to work without a window, said when there is no display.
const HEADLESS: &str = "the viewer needs a display. Without one: `firststrike run SCENE` prints the \
log, `firststrike quiz SCENE` teaches on the terminal, `firststrike odds SCENE` counts; or start a \
virtual display: xvfb-run -a firststrike view SCENE";

/// Whether a window can be opened: on Linux and the BSDs, an X or Wayland display must
/// be named and, for a local X display, its socket must be there.
fn display() -> Result<(), String> {
    if !cfg!(all(unix, not(target_os = "macos"))) {
        return Ok(());
    }
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    if var("WAYLAND_DISPLAY").is_some() {
        return Ok(());
    }
    let Some(x) = var("DISPLAY") else {
        return Err(format!("no DISPLAY or WAYLAND_DISPLAY is set: {HEADLESS}"));
    };
    // ":1" or ":1.0" is a local display with a socket; "host:1" goes over the network.
    if let Some(n) = x.strip_prefix(':') {
        let n = n.split('.').next().unwrap_or(n);
        let socket = std::path::Path::new("/tmp/.X11-unix").join(format!("X{n}"));
        if !socket.exists() {
            return Err(format!(
                "DISPLAY is {x}, but no X server listens there ({} is missing): {HEADLESS}",
                socket.display()
            ));
        }
    }
    Ok(())
}

/// The scene file to open: the one named (a bare NAME is the folder's NAME.ron when there
/// is one, as `run` reads it), else the project's lair; a library scene's name
/// (or no name, outside the project) opens the viewer's own copy of it, written to the
/// user's data folder if not there yet. None, after saying why, when there is no such
/// file or library scene.
fn scene_path(arg: Option<PathBuf>, edit: bool) -> Option<PathBuf> {
    let path = arg.unwrap_or_else(|| PathBuf::from(DEFAULT_SCENE));
    // A bare name means the folder's NAME.ron before the library's, as for `run`.
    let path = crate::scene::library::user_file(&path);
    if crate::scene::library::is_there(&path) {
        return Some(path);
    }
    let Some((name, _)) = path.to_str().and_then(crate::scene::library::find) else {
        eprintln!(
            "error: scene file {} not found, nor a library scene of that name ('firststrike scenes' lists them)",
            path.display()
        );
        // A DM starting an encounter of their own names the file it should become.
        if edit {
            eprintln!(
                "to build a new encounter: 'firststrike view --edit', then \"New scene\" in the editor, then \"save as\" {} (nothing is written until then)",
                path.display()
            );
        }
        return None;
    };
    let dir = crate::scene::library::copies_dir();
    if let Err(e) = crate::scene::library::write_copies(&dir) {
        eprintln!(
            "error: cannot write the library's scenes to {}: {e}",
            dir.display()
        );
        return None;
    }
    Some(dir.join(name))
}

/// Opens the viewer; exit code 2 when the scene cannot be loaded (with --edit, when it
/// cannot be read at all).
pub fn run(args: ViewArgs) -> i32 {
    // The Odds panel's trials run on the global pool: held to the limit `--threads` has.
    super::odds::bound_the_global_pool();
    let Some(path) = scene_path(args.scene, args.edit) else {
        return 2;
    };
    if let Some(p) = &args.screenshot
        && p.extension().is_none_or(|e| e != "png")
    {
        eprintln!("error: --screenshot needs a .png path, not {}", p.display());
        return 2;
    }
    if let Some(p) = &args.screenshot
        && super::same_file(p, &path)
    {
        eprintln!(
            "error: --screenshot {} is the scene file itself",
            p.display()
        );
        return 2;
    }
    // The scene's own errors come first; then whether a window can open at all. With
    // --edit, a file that reads but fails its checks opens in the editor to be mended.
    let scene = match crate::scene::load(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{}", e.render());
            match args
                .edit
                .then(|| crate::scene::load_unchecked(&path))
                .flatten()
            {
                Some(s) => {
                    eprintln!(
                        "opening {} in the editor as it is: mend it there (it plays once it passes)",
                        path.display()
                    );
                    s
                }
                None => return 2,
            }
        }
    };
    if let Some(side) = args.players.as_deref().filter(|s| !s.is_empty())
        && !scene.combatants.iter().any(|c| c.side == side)
    {
        let mut sides: Vec<&str> = scene.combatants.iter().map(|c| c.side.as_str()).collect();
        sides.dedup();
        eprintln!(
            "error: --players {side}: no figure of the scene is on that side (sides: {})",
            sides.join(", ")
        );
        return 2;
    }
    if let Err(why) = display() {
        eprintln!("error: {why}");
        return 2;
    }
    viewer::run(
        path,
        ViewOptions {
            seed: args.seed,
            capture: args.screenshot.map(|p| Capture {
                steps: args.step,
                ..Capture::new(p)
            }),
            frame_times: args.frame_times,
            system: args.system.map(|s| s.rules()),
            edit: args.edit.then(|| args.menu.clone()),
            select: args.select.clone(),
            table_dice: args.table_dice,
            odds: args.odds.then(|| {
                let vary = args.odds_vary.clone().unwrap_or_default();
                (args.odds_trials, vary, args.odds_all_dice)
            }),
            teach: (
                args.predict,
                args.charts,
                args.answers.clone().unwrap_or_default(),
            ),
            players: args
                .players
                .clone()
                .map(|s| Some(s).filter(|s| !s.is_empty())),
        },
    )
}
