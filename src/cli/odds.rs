//! `firststrike odds SCENE`: the scene played many times with its dice re-rolled, and how
//! often each outcome happened, with 95% intervals (calc::odds).

use super::progress::Bar;
use crate::calc::odds::{self, Progress, Reroll};
use crate::scene::{self, DieKind, limits};
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::sync::Arc;

/// The most trials one run may ask for.
const MAX_TRIALS: u64 = 10_000_000;

/// Output of `odds`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A line per outcome.
    Text,
    /// JSON with the counts.
    Json,
}

/// Arguments of `odds`.
#[derive(Args, Debug)]
pub struct OddsArgs {
    /// The scene file (RON).
    pub scene: PathBuf,
    /// How many trials.
    #[arg(long, default_value_t = 1000)]
    pub trials: u64,
    /// The seed the trials' seeds are made from (the scene's own by default).
    #[arg(long, allow_negative_numbers = true, value_parser = super::seed)]
    pub seed: Option<u64>,
    /// Threads (the counts are the same for any number).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Which dice to roll afresh: `unfixed` (default), `all`, or a list of kinds
    /// (initiative,surprise,distance,to-hit,damage,d4,save,percent,scatter,into-melee)
    /// whose fixed dice are rolled too.
    #[arg(long, default_value = "unfixed")]
    pub reroll: String,
    /// Rounds to play (the scene's by default).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(crate::scene::limits::ROUNDS)))]
    pub rounds: Option<u32>,
    /// Text or JSON.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// A sweep: the odds at each value of one field, `FIGURE.FIELD=FROM..TO[:STEP]`
    /// (fields: x, y, movement, dexterity, hp, ac, thac0, segments; at most 200 values),
    /// e.g. `--vary "Hill giant.y=55..230:25"`.
    #[arg(long, value_name = "FIGURE.FIELD=FROM..TO[:STEP]")]
    pub vary: Option<String>,
    /// With `--vary`: also draw the sweep as a chart to this file (the outcomes that
    /// change, each with its 95% band): a PNG image if its name ends in .png, else SVG.
    #[arg(long, value_name = "FILE.svg|FILE.png")]
    pub chart: Option<PathBuf>,
}

/// The most threads `--threads` takes: four for each core (more only wait their turn).
fn max_threads() -> usize {
    4 * std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The threads trials run on when `--threads` is not given: `RAYON_NUM_THREADS` if it is a
/// number from 1, held to the same limit as `--threads` (a hundred thousand threads took
/// minutes to start), else one for each core.
pub(super) fn default_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .map_or(cores, |n| n.min(max_threads()))
}

/// The global pool (the viewer's Odds panel) on [`default_threads`], so that the
/// environment cannot start more than `--threads` could. Once, before any parallel work.
#[cfg(feature = "viewer")]
pub(super) fn bound_the_global_pool() {
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(default_threads())
        .build_global();
}

/// The `--reroll` list read.
fn reroll(text: &str) -> Result<Reroll, String> {
    match text {
        "unfixed" => return Ok(Reroll::Unfixed),
        "all" => return Ok(Reroll::All),
        _ => {}
    }
    text.split(',')
        .map(|k| match k.trim() {
            "initiative" => Ok(DieKind::Initiative),
            "surprise" => Ok(DieKind::Surprise),
            "distance" => Ok(DieKind::Distance),
            "to-hit" | "tohit" => Ok(DieKind::ToHit),
            "damage" => Ok(DieKind::Damage),
            "d4" => Ok(DieKind::D4),
            "save" => Ok(DieKind::Save),
            "percent" => Ok(DieKind::Percent),
            // Every kind a scene's `dice` fixes can be rolled afresh.
            "scatter" => Ok(DieKind::Scatter),
            "into-melee" | "intomelee" => Ok(DieKind::IntoMelee),
            other => Err(format!(
                "--reroll: '{other}' is not a kind of die (unfixed, all, or a list of initiative, surprise, distance, to-hit, damage, d4, save, percent, scatter, into-melee)"
            )),
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Reroll::Kinds)
}

/// Whether a chart may be written at `path`: its folder is there, and what is at `path`
/// now is nothing, a chart this program drew (run again, it is redrawn), or no regular
/// file (a pipe, `/dev/stdout`: written through). A file of the user's is never replaced.
fn chart_may_go(path: &std::path::Path) -> Result<(), String> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    if !dir.is_dir() {
        return Err(format!("the folder {} does not exist", dir.display()));
    }
    match std::fs::metadata(path) {
        Err(_) => Ok(()),
        Ok(m) if m.is_dir() => Err("is a folder".into()),
        Ok(m) if !m.is_file() => Ok(()),
        Ok(_) => {
            let old = std::fs::read(path).map_err(|e| e.to_string())?;
            if crate::calc::sweep_chart::is_ours(&old) {
                Ok(())
            } else {
                Err("a file is there that is no chart this program drew: name another file, or move that one away first".into())
            }
        }
    }
}

/// A sweep: the odds at each value, as a table (an outcome a line, a value a column) or
/// JSON, and the chart if asked; 2 on a bad field or value.
fn sweep(
    args: &OddsArgs,
    scene: &crate::scene::Scene,
    vary: &crate::calc::sweep::Vary,
    (seed, reroll): (u64, &Reroll),
    pool: &rayon::ThreadPool,
    (progress, bar): (&Progress, &mut Option<Bar>),
) -> i32 {
    let how = (args.trials, seed, reroll, args.rounds);
    let runs = match pool.install(|| crate::calc::sweep::run(scene, vary, how, progress)) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{}", crate::text::terminal_safe(&format!("error: {e}")));
            return 2;
        }
    };
    let values = &vary.values[..runs.len()];
    // The bar goes before the table comes.
    bar.take();
    // Stopped before every value was played (Ctrl+C): a chart of some of the values would
    // read as the whole sweep, and would replace the last one. Not drawn, and said.
    let stopped = runs.len() < vary.values.len() || runs.iter().any(|r| r.interrupted);
    if let Some(path) = args.chart.as_ref().filter(|_| stopped) {
        eprintln!(
            "{}",
            crate::text::terminal_safe(&format!(
                "--chart {}: not drawn: the trials were stopped before every value was played",
                path.display()
            ))
        );
    }
    if let Some(path) = args.chart.as_ref().filter(|_| !stopped) {
        let title = format!("{}: the odds as {} changes", scene.name, vary.axis());
        let png = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("png"));
        let chart = match png {
            true => crate::calc::sweep_chart::png(&title, &vary.axis(), values, &runs),
            false => Ok(crate::calc::sweep_chart::svg(&title, &vary.axis(), values, &runs).into()),
        };
        let bytes = match chart {
            Ok(b) => b,
            Err(e) => {
                eprintln!(
                    "{}",
                    crate::text::terminal_safe(&format!("error: --chart {}: {e}", path.display()))
                );
                return 2;
            }
        };
        if let Err(e) = crate::scene::save::write_bytes_atomic(path, &bytes) {
            // A full disk is output that could not all be written (exit 1, as the README
            // says); a path that cannot be a file is bad input (2).
            let full = e.kind() == std::io::ErrorKind::StorageFull;
            let note = if full {
                " (the chart is not to be trusted)"
            } else {
                ""
            };
            eprintln!(
                "{}",
                crate::text::terminal_safe(&format!(
                    "error: --chart {}: {e}{note}",
                    path.display()
                ))
            );
            return if full { 1 } else { 2 };
        }
    }
    match args.format {
        Format::Json => {
            let v = serde_json::json!({
                "scene": scene.name,
                "vary": { "figure": vary.figure, "field": vary.field, "values": values },
                "runs": runs,
            });
            super::out(&format!("{v}\n"));
        }
        Format::Text => super::out(&odds::sweep_table(
            &format!("{} — {}.{}", scene.name, vary.figure, vary.field),
            values,
            &runs,
        )),
    }
    0
}

/// Runs `odds`; 0 on success, 2 on bad input.
pub fn run(args: OddsArgs) -> i32 {
    let scene = match scene::library::load_arg(&args.scene) {
        Ok(s) => s,
        Err(e) => {
            eprint!("{}", e.render());
            return 2;
        }
    };
    if args.trials == 0 || args.trials > MAX_TRIALS {
        eprintln!("error: --trials runs from 1 to {MAX_TRIALS}");
        return 2;
    }
    if args.rounds.is_some_and(|r| r == 0 || r > limits::ROUNDS) {
        eprintln!("error: --rounds runs from 1 to {}", limits::ROUNDS);
        return 2;
    }
    let most = max_threads();
    if args.threads.is_some_and(|t| t == 0 || t > most) {
        eprintln!("error: --threads runs from 1 to {most} (four for each of this machine's cores)");
        return 2;
    }
    if args.chart.is_some() && args.vary.is_none() {
        eprintln!("error: --chart draws a sweep: give --vary FIGURE.FIELD=FROM..TO[:STEP] too");
        return 2;
    }
    if let Some(chart) = &args.chart
        && super::same_file(chart, &args.scene)
    {
        eprintln!(
            "error: --chart {} is the scene file itself: name another file for the chart",
            chart.display()
        );
        return 2;
    }
    // Where the chart goes is checked before the trials, not after them: a folder that is
    // not there, or a file of the user's that the chart would replace, is refused now.
    if let Some(chart) = &args.chart
        && let Err(e) = chart_may_go(chart)
    {
        eprintln!(
            "{}",
            crate::text::terminal_safe(&format!("error: --chart {}: {e}", chart.display()))
        );
        return 2;
    }
    let reroll = match reroll(&args.reroll) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{}", crate::text::terminal_safe(&format!("error: {e}")));
            return 2;
        }
    };
    let seed = args.seed.unwrap_or(scene.seed);
    let pool = match rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or_else(default_threads))
        .build()
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: --threads: could not start the threads: {e}");
            return 2;
        }
    };
    // Ctrl+C stops the trials and prints what they counted; a bar shows how far they are
    // on a terminal.
    let progress = Arc::new(Progress::default());
    super::progress::stop_on_ctrl_c(progress.clone());
    let vary = match args
        .vary
        .as_deref()
        .map(crate::calc::sweep::parse)
        .transpose()
    {
        Ok(v) => v,
        Err(e) => {
            eprintln!("{}", crate::text::terminal_safe(&format!("error: {e}")));
            return 2;
        }
    };
    let values = vary.as_ref().map_or(1, |v| v.values.len() as u64);
    // A sweep plays the trials at every value: the whole is held to the same most.
    if values.saturating_mul(args.trials) > MAX_TRIALS {
        eprintln!(
            "error: --vary gives {values} values of {} trials each, {} in all: at most {MAX_TRIALS} trials in all (fewer --trials, or a larger step)",
            args.trials,
            values.saturating_mul(args.trials)
        );
        return 2;
    }
    let labels = vary.as_ref().map(|v| super::progress::Values {
        labels: v
            .values
            .iter()
            .map(|x| format!("{} = {x}", v.axis()))
            .collect(),
        trials: args.trials,
    });
    let mut bar = Some(Bar::start(progress.clone(), args.trials * values, labels));
    let watch = (progress.as_ref(), &mut bar);
    let code = if let Some(v) = &vary {
        sweep(&args, &scene, v, (seed, &reroll), &pool, watch)
    } else {
        single(&args, &scene, seed, &reroll, &pool, watch)
    };
    if code == 0 && progress.stopped() {
        eprintln!("interrupted: printed the trials played so far");
        return 130;
    }
    code
}

/// The odds of one scene, as text or JSON.
fn single(
    args: &OddsArgs,
    scene: &crate::scene::Scene,
    seed: u64,
    reroll: &Reroll,
    pool: &rayon::ThreadPool,
    (progress, bar): (&Progress, &mut Option<Bar>),
) -> i32 {
    let odds =
        pool.install(|| odds::run_watched(scene, args.trials, seed, reroll, args.rounds, progress));
    bar.take();
    match args.format {
        Format::Text => super::out(&odds::to_text(&scene.name, &odds)),
        Format::Json => {
            let v = serde_json::json!({ "scene": scene.name, "odds": odds });
            super::out(&format!("{v}\n"));
        }
    }
    0
}
