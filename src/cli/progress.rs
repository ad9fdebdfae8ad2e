//! A progress bar for long runs on stderr (indicatif's: rate, time left, the terminal's
//! width), and Ctrl+C that stops a run and keeps what it counted. A sweep shows two bars
//! (indicatif's `MultiProgress`): the whole sweep, and the value being played. The bars show
//! only on a terminal and only once a run has gone on for a second; piped or redirected
//! output sees nothing of them.

use crate::calc::odds::Progress;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
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

/// The second bar of a sweep: the trials of the value being played.
pub const VALUE_TEMPLATE: &str = "      [{bar:20}] {pos}/{len} trials at {msg}";

/// The values of a sweep, each played for the same number of trials, in order.
#[derive(Clone, Debug)]
pub struct Values {
    /// Each value in words, e.g. `Hill giant's starting y (ft) = 120`.
    pub labels: Vec<String>,
    /// Trials at each value.
    pub trials: u64,
}

/// The bars of a run: one for all its trials, and for a sweep one for the current value.
pub struct Bars {
    /// Keeps the two bars drawn together.
    _multi: MultiProgress,
    all: ProgressBar,
    value: Option<(ProgressBar, Values)>,
}

impl Bars {
    /// The bars for `total` trials (and the sweep's `values`), drawing to `target`.
    pub fn new(total: u64, values: Option<Values>, target: ProgressDrawTarget) -> Bars {
        let multi = MultiProgress::with_draw_target(target);
        let all = multi.add(bar(total, ProgressDrawTarget::hidden()));
        let value = values.map(|v| {
            let style = ProgressStyle::with_template(VALUE_TEMPLATE)
                .expect("the template is valid")
                .progress_chars("█░");
            let b = ProgressBar::new(v.trials).with_style(style);
            (multi.add(b), v)
        });
        Bars {
            _multi: multi,
            all,
            value,
        }
    }

    /// Shows `done` trials played: the whole run's bar, and the value they have reached.
    pub fn show(&self, done: u64) {
        self.all
            .set_position(done.min(self.all.length().unwrap_or(done)));
        if let Some((b, v)) = &self.value {
            let n = v.labels.len().max(1) as u64;
            let k = (done / v.trials.max(1)).min(n - 1);
            let label = v.labels.get(k as usize).cloned().unwrap_or_default();
            b.set_message(format!("{label} (value {} of {n})", k + 1));
            b.set_position(done.saturating_sub(k * v.trials).min(v.trials));
        }
    }

    fn set_elapsed(&self, elapsed: Duration) {
        self.all.set_elapsed(elapsed);
    }

    fn clear(&self) {
        if let Some((b, _)) = &self.value {
            b.finish_and_clear();
        }
        self.all.finish_and_clear();
    }
}

impl Bar {
    /// Starts drawing `progress` against `total` trials (and a sweep's `values`) on stderr,
    /// if stderr is a terminal, once the run has gone on for a second.
    pub fn start(progress: Arc<Progress>, total: u64, values: Option<Values>) -> Bar {
        let finished = Arc::new(AtomicBool::new(false));
        let drawer = std::io::stderr().is_terminal().then(|| {
            let finished = finished.clone();
            std::thread::spawn(move || {
                let started = Instant::now();
                let mut shown: Option<Bars> = None;
                while !finished.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(100));
                    if started.elapsed() >= Duration::from_secs(1) {
                        let b = shown.get_or_insert_with(|| {
                            let b = Bars::new(total, values.clone(), ProgressDrawTarget::stderr());
                            b.set_elapsed(started.elapsed());
                            b
                        });
                        b.show(progress.done());
                    }
                }
                if let Some(b) = shown {
                    b.clear();
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

    /// A sweep's two bars: the whole sweep, and the value its trials have reached.
    #[test]
    fn a_sweep_shows_the_value_being_played() {
        let term = indicatif::InMemoryTerm::new(4, 100);
        let labels = (1..=4).map(|v| format!("dexterity = {v}")).collect();
        let values = Values {
            labels,
            trials: 100,
        };
        let bars = Bars::new(
            400,
            Some(values),
            ProgressDrawTarget::term_like(Box::new(term.clone())),
        );
        bars.show(250);
        let lines = term.contents();
        let lines: Vec<&str> = lines.lines().collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].contains("250/400 trials"), "{lines:?}");
        assert!(
            lines[1].contains("50/100 trials at dexterity = 3 (value 3 of 4)"),
            "{lines:?}"
        );
        // The last value's trials, all played: the bar stays on the last value.
        bars.show(400);
        let lines = term.contents();
        assert!(
            lines.contains("100/100 trials at dexterity = 4 (value 4 of 4)"),
            "{lines}"
        );
    }
}
