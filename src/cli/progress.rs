//! A progress bar for long runs on stderr (indicatif's: rate, time left, the terminal's
//! width), and Ctrl+C that stops a run and keeps what it counted. The bar shows only on a
//! terminal and only once a run has gone on for a second; piped or redirected output sees
//! nothing of it.

use crate::calc::odds::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The bar's line, short enough for 80 columns:
/// `  45% [█████████░░░░░░░░░░░] 45000/100000 trials 38000/s ETA 2s, Ctrl+C: stop`.
pub const TEMPLATE: &str =
    "{percent:>4}% [{bar:20}] {pos}/{len} trials {rate} ETA {eta}, Ctrl+C: stop";

/// A bar (indicatif's) drawn from another thread while a run plays; cleared when dropped.
pub struct Bar {
    finished: Arc<AtomicBool>,
    drawer: Option<JoinHandle<()>>,
}

/// The bar for `total` trials, drawing to `target`.
pub fn bar(total: u64, target: ProgressDrawTarget) -> ProgressBar {
    let style = ProgressStyle::with_template(TEMPLATE)
        .expect("the template is valid")
        .with_key(
            "rate",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}/s", s.per_sec());
            },
        )
        .progress_chars("█░");
    ProgressBar::with_draw_target(Some(total), target).with_style(style)
}

impl Bar {
    /// Starts drawing `progress` against `total` trials on stderr, if stderr is a terminal,
    /// once the run has gone on for a second.
    pub fn start(progress: Arc<Progress>, total: u64) -> Bar {
        let finished = Arc::new(AtomicBool::new(false));
        let drawer = std::io::stderr().is_terminal().then(|| {
            let finished = finished.clone();
            std::thread::spawn(move || {
                let started = Instant::now();
                let mut shown: Option<ProgressBar> = None;
                while !finished.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(100));
                    if started.elapsed() >= Duration::from_secs(1) {
                        let b = shown.get_or_insert_with(|| {
                            let b = bar(total, ProgressDrawTarget::stderr());
                            b.set_elapsed(started.elapsed());
                            b
                        });
                        b.set_position(progress.done().min(total));
                    }
                }
                if let Some(b) = shown {
                    b.finish_and_clear();
                }
            })
        });
        Bar { finished, drawer }
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.finished.store(true, Ordering::Relaxed);
        if let Some(d) = self.drawer.take() {
            let _ = d.join();
        }
    }
}

/// Makes Ctrl+C stop the run watched by `progress` instead of ending the program (the run
/// then reports what it counted). Only the first call in a process installs the handler.
pub fn stop_on_ctrl_c(progress: Arc<Progress>) {
    let _ = ctrlc::set_handler(move || progress.stop());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bar's line as a terminal would show it (indicatif's in-memory target).
    #[test]
    fn the_bar_fills_with_the_trials() {
        let term = indicatif::InMemoryTerm::new(2, 100);
        let b = bar(100, ProgressDrawTarget::term_like(Box::new(term.clone())));
        b.set_position(50);
        b.tick();
        let half = term.contents();
        assert!(half.contains("  50% ["), "{half}");
        assert_eq!(half.matches('█').count(), 10, "{half}");
        assert!(half.contains("50/100 trials"), "{half}");
        assert!(half.contains("Ctrl+C: stop"), "{half}");
        b.set_position(100);
        b.tick();
        assert_eq!(term.contents().matches('█').count(), 20);
    }
}
