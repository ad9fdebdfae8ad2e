//! The command line: the same rules and engine as the viewer, without a window.
//!
//! Exit codes: 0 on success, 2 on bad input (with a message naming the bad part).

mod first;
mod odds;
mod progress;
mod quiz;
mod scene_cmds;
#[cfg(feature = "viewer")]
mod view;

use clap::{Parser, Subcommand};

/// AD&D 1st-edition combat timing, segment by segment.
#[derive(Parser, Debug)]
#[command(name = "firststrike", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Who strikes first? Lay out a round between declared actions, citing the rules.
    First(first::FirstArgs),
    /// Play a scene headless and print its event log (text or JSON lines).
    Run(scene_cmds::RunArgs),
    /// Validate scene files: exit 0 when all are valid, 2 with located errors otherwise.
    Check(scene_cmds::CheckArgs),
    /// Play a scene under the book's rules and under "Take Initiative!", side by side.
    Compare(scene_cmds::CompareArgs),
    /// How likely is it: play a scene many times with its dice re-rolled and count each
    /// outcome (spells completed or ruined, charges, who strikes first, who falls).
    Odds(odds::OddsArgs),
    /// Predict, then see: the scene's questions (who goes first, when a charge arrives,
    /// whether a spell is ruined), each answered with its rule and page, and a score.
    Quiz(quiz::QuizArgs),
    /// Watch a scene segment by segment on a map (the default: the lizard-man lair).
    #[cfg(feature = "viewer")]
    View(view::ViewArgs),
}

/// Writes to standard output. A reader that stops early (`run … | head -1`) closes the pipe:
/// the rest is dropped quietly rather than panicking.
pub(crate) fn out(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(text.as_bytes())
        .and_then(|_| stdout.flush());
}

/// Whether two paths name the same file: an output that would replace one of the
/// command's inputs. A file that does not exist yet is no input.
pub(crate) fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

/// Runs the command line; returns the process exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        Some(Command::First(args)) => first::run(args),
        Some(Command::Run(args)) => scene_cmds::run(args),
        Some(Command::Check(args)) => scene_cmds::check(args),
        Some(Command::Compare(args)) => scene_cmds::compare(args),
        Some(Command::Odds(args)) => odds::run(args),
        Some(Command::Quiz(args)) => quiz::run(args),
        #[cfg(feature = "viewer")]
        Some(Command::View(args)) => view::run(args),
        #[cfg(feature = "viewer")]
        None => view::run(view::ViewArgs::default()),
        #[cfg(not(feature = "viewer"))]
        None => {
            use clap::CommandFactory;
            let _ = Cli::command().print_help();
            0
        }
    }
}
