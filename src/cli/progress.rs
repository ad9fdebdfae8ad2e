//! A progress bar for long runs on stderr, and Ctrl+C that stops a run and keeps what it
//! counted. The bar shows only on a terminal and only once a run has gone on for a second;
//! piped or redirected output sees nothing of it.

use crate::calc::odds::Progress;
use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Width of the bar in characters.
const WIDTH: usize = 20;

/// A bar drawn from another thread while a run plays; cleared when dropped.
pub struct Bar {
    finished: Arc<AtomicBool>,
    drawer: Option<JoinHandle<()>>,
}

/// One line of the bar, short enough for 80 columns:
/// `  45% [█████████░░░░░░░░░░░] 45000/100000 trials 1.2 s, Ctrl+C: stop`.
pub fn line(done: u64, total: u64, elapsed: Duration) -> String {
    let part = if total == 0 {
        1.0
    } else {
        (done as f64 / total as f64).min(1.0)
    };
    let full = (part * WIDTH as f64).round() as usize;
    format!(
        "{:>4.0}% [{}{}] {done}/{total} trials {:.1} s, Ctrl+C: stop",
        part * 100.0,
        "█".repeat(full),
        "░".repeat(WIDTH - full),
        elapsed.as_secs_f64()
    )
}

impl Bar {
    /// Starts drawing `progress` against `total` trials on stderr, if stderr is a terminal.
    pub fn start(progress: Arc<Progress>, total: u64) -> Bar {
        let finished = Arc::new(AtomicBool::new(false));
        let drawer = std::io::stderr().is_terminal().then(|| {
            let finished = finished.clone();
            std::thread::spawn(move || {
                let started = Instant::now();
                let mut drawn = false;
                while !finished.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(100));
                    if started.elapsed() >= Duration::from_secs(1) {
                        eprint!("\r{}", line(progress.done(), total, started.elapsed()));
                        let _ = std::io::stderr().flush();
                        drawn = true;
                    }
                }
                if drawn {
                    eprint!("\r\x1b[2K");
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

    #[test]
    fn the_bar_fills_with_the_trials() {
        let half = line(50, 100, Duration::from_millis(1500));
        assert!(half.starts_with("  50% ["), "{half}");
        assert_eq!(half.matches('█').count(), WIDTH / 2);
        assert_eq!(half.matches('░').count(), WIDTH / 2);
        assert!(half.contains("50/100 trials 1.5 s"), "{half}");
        assert_eq!(line(7, 7, Duration::ZERO).matches('█').count(), WIDTH);
        assert_eq!(line(0, 7, Duration::ZERO).matches('█').count(), 0);
    }
}
