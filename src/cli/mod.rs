//! The command line: the same rules and engine as the viewer, without a window.
//!
//! Exit codes: 0 on success, 2 on bad input (with a message naming the bad part), 1 when
//! the output could not all be written (a full disk), 130 when interrupted (Ctrl+C;
//! `odds` still prints what it counted). Colour follows the
//! terminal and `NO_COLOR`.

pub mod first;
mod memory;
mod odds;
mod progress;
mod quiz;
mod scene_cmds;
#[cfg(feature = "viewer")]
mod view;

use clap::{Parser, Subcommand};

/// AD&D 1st-edition combat timing, segment by segment.
#[derive(Parser, Debug)]
#[command(
    name = "firststrike",
    version,
    about,
    long_about = None,
    after_help = "Exit codes: 0 success, 2 bad input (a located message), 1 the output could not all be written (a full disk), 130 interrupted (Ctrl+C). NO_COLOR turns colour off."
)]
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
    /// List the scenes built into the program: give a name to run, check, compare, odds,
    /// quiz or view from any folder (`firststrike run lizard_man_lair`).
    Scenes,
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) on stdout:
    /// `firststrike completions bash > ~/.local/share/bash-completion/completions/firststrike`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) on stdout: `firststrike man | man -l -`.
    Man,
}

/// Writes to standard output. A reader that stops early (`run … | head -1`) closes the pipe:
/// the rest is dropped quietly rather than panicking. Any other failure (a full disk, a
/// file size limit) is kept and makes the command fail ([`output_failed`]).
pub(crate) fn out(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    // Scene strings are checked when loaded; what comes from elsewhere (a path, an
    // argument) is made safe here.
    let text = crate::text::terminal_safe(text);
    note(
        stdout
            .write_all(text.as_bytes())
            .and_then(|_| stdout.flush()),
    );
}

/// Writes to standard output through a buffer, as `write` produces it; a reader that stops
/// early closes the pipe and the rest is dropped quietly, as with [`out`].
pub(crate) fn out_with(write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) {
    use std::io::Write;
    let mut w = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    note(write(&mut w).and_then(|()| w.flush()));
}

/// The first failure to write standard output other than a closed pipe.
static OUTPUT_ERROR: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// A `--seed`: a whole number from 0 to 18446744073709551615 — said so for `-1` or `x`
/// (a negative seed is read as the flag's value, not as another flag, whose advice to
/// write `-- -1` would make it a scene's name).
fn seed(text: &str) -> Result<u64, String> {
    text.parse().map_err(|_| {
        format!(
            "'{}' is not a seed: {}",
            crate::scene::error::shown(text, 40),
            crate::scene::limits::allowed_for("seed")
        )
    })
}

/// Keeps a write's failure, unless the reader just stopped reading.
fn note(result: std::io::Result<()>) {
    if let Err(e) = result
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        let _ = OUTPUT_ERROR.set(e.to_string());
    }
}

/// Why standard output could not be written, if it could not: the output is incomplete.
pub(crate) fn output_failed() -> Option<&'static str> {
    OUTPUT_ERROR.get().map(String::as_str)
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

/// Lists the built-in scenes: name and title.
fn scenes() -> i32 {
    let list = crate::scene::library::summaries();
    let width = list.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let mut text = String::from(
        "Scenes built in (give the name to run, check, compare, odds, quiz or view):\n",
    );
    for (name, title) in list {
        text.push_str(&format!("  {name:width$}  {title}\n"));
    }
    text.push_str("A file path works as well; a file of that name in the folder comes first.\n");
    out(&text);
    0
}

/// Runs the command line; returns the process exit code.
pub fn run() -> i32 {
    // First, before the allocator's arenas are in use: mimalloc reads the purge delay
    // when it sets an arena up (set after parsing the arguments, it did nothing: 205 MB).
    memory::lean();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // Help and the version go to standard output: one that could not all be
            // written (a full disk) is a failure, exit 1, as for any command's output.
            // clap's own printing keeps its colours on a terminal (and none with NO_COLOR).
            let printed = e.print().and_then(|()| {
                use std::io::Write;
                std::io::stdout().flush()
            });
            if !e.use_stderr() {
                return match printed {
                    // A reader that stops early (`--help | head -1`) is no error, as for
                    // every command's output.
                    Err(why) if why.kind() == std::io::ErrorKind::BrokenPipe => 0,
                    Err(why) => {
                        eprintln!(
                            "error: the output could not be written, and is incomplete: {why}"
                        );
                        1
                    }
                    Ok(()) => 0,
                };
            }
            return 2;
        }
    };
    let code = command(cli);
    // A command whose output did not all reach its file (a full disk) has failed: its
    // reader must not take a cut-off log for a whole one.
    match output_failed() {
        Some(why) => {
            eprintln!("error: the output could not be written, and is incomplete: {why}");
            if code == 0 { 1 } else { code }
        }
        None => code,
    }
}

/// Runs one parsed command; returns its exit code.
fn command(cli: Cli) -> i32 {
    match cli.command {
        Some(Command::First(args)) => first::run(args),
        Some(Command::Run(args)) => scene_cmds::run(args),
        Some(Command::Check(args)) => scene_cmds::check(args),
        Some(Command::Compare(args)) => scene_cmds::compare(args),
        Some(Command::Odds(args)) => odds::run(args),
        Some(Command::Quiz(args)) => quiz::run(args),
        Some(Command::Scenes) => scenes(),
        Some(Command::Completions { shell }) => {
            use clap::CommandFactory;
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "firststrike", &mut out);
            self::out(&String::from_utf8_lossy(&out));
            0
        }
        Some(Command::Man) => {
            use clap::CommandFactory;
            let mut out = Vec::new();
            match clap_mangen::Man::new(Cli::command()).render(&mut out) {
                Ok(()) => {
                    self::out(&String::from_utf8_lossy(&out));
                    0
                }
                Err(e) => {
                    eprintln!("error: cannot write the manual page: {e}");
                    1
                }
            }
        }
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
