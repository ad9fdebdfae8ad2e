//! The Odds panel (O, or "odds" in the top bar): the scene on screen — as loaded or as
//! edited — played many times in the background with its unfixed dice re-rolled, by the
//! same `calc::odds` as `firststrike odds`. A progress bar while it runs (the window stays
//! live, and "stop" keeps what was counted), then each outcome as a bar with its 95%
//! interval; a sweep (`FIGURE.FIELD=FROM..TO:STEP`) draws its curves with their bands.

use super::playback::Playback;
use crate::calc::odds::{self, Odds, Progress, Reroll};
use crate::calc::{sweep, sweep_chart};
use crate::scene::Scene;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use std::sync::Arc;
use std::thread::JoinHandle;

/// What a finished run found.
#[derive(Clone, Debug)]
pub enum Found {
    /// One run of the scene.
    Odds(Odds),
    /// A sweep: the field in words, its values and a run at each.
    Sweep(String, Vec<f64>, Vec<Odds>),
}

/// Trials playing on other threads.
pub struct Job {
    progress: Arc<Progress>,
    total: u64,
    handle: JoinHandle<Result<Found, String>>,
}

/// The panel's state.
#[derive(Resource)]
pub struct OddsPanel {
    /// Shown.
    pub open: bool,
    /// Trials per run.
    pub trials: u64,
    /// A sweep to run instead, `FIGURE.FIELD=FROM..TO:STEP` (empty: none).
    pub vary: String,
    /// Running now.
    pub job: Option<Job>,
    /// The last result, or why there is none.
    pub found: Option<Result<Found, String>>,
    /// Run as soon as a scene is loaded (`view --odds`).
    pub run_when_loaded: bool,
    /// Roll the dice the scene fixes too (`--reroll all`), not only the others.
    pub all_dice: bool,
}

impl Default for OddsPanel {
    fn default() -> Self {
        OddsPanel {
            open: false,
            trials: 2000,
            vary: String::new(),
            job: None,
            found: None,
            run_when_loaded: false,
            all_dice: false,
        }
    }
}

impl OddsPanel {
    /// The panel as `view --odds` opens it: open, to run these trials (of this sweep) once
    /// the scene is loaded; closed without.
    pub fn at_start(odds: Option<(u64, String, bool)>) -> OddsPanel {
        match odds {
            Some((trials, vary, all_dice)) => OddsPanel {
                open: true,
                trials,
                vary,
                all_dice,
                run_when_loaded: true,
                ..OddsPanel::default()
            },
            None => OddsPanel::default(),
        }
    }

    /// Whether trials are playing, or are about to.
    pub fn running(&self) -> bool {
        self.job.is_some() || self.run_when_loaded
    }

    /// Starts the trials of `scene` in the background.
    pub fn start(&mut self, scene: Scene) {
        let progress = Arc::new(Progress::default());
        let (trials, vary, p) = (self.trials, self.vary.trim().to_string(), progress.clone());
        let values = sweep::read(&vary).map_or(1, |v| v.values.len() as u64);
        let reroll = if self.all_dice {
            Reroll::All
        } else {
            Reroll::Unfixed
        };
        let handle = std::thread::spawn(move || run(&scene, (trials, &reroll), &vary, &p));
        self.job = Some(Job {
            progress,
            total: trials * values,
            handle,
        });
    }
}

/// The trials (on rayon's pool), or why a sweep cannot run: the same runs as `odds`.
fn run(
    scene: &Scene,
    (trials, reroll): (u64, &Reroll),
    vary: &str,
    progress: &Progress,
) -> Result<Found, String> {
    let seed = scene.seed;
    if vary.is_empty() {
        let o = odds::run_watched(scene, trials, seed, reroll, None, progress);
        return Ok(Found::Odds(o));
    }
    // Said beside the panel's own field: the command line's flag is no word of the viewer.
    let v = sweep::read(vary).map_err(|e| format!("sweep {e}"))?;
    let runs = sweep::run(scene, &v, (trials, seed, reroll, None), progress).map_err(|e| {
        e.replacen("--vary: ", "sweep: ", 1)
            .replacen("--vary ", "sweep ", 1)
    })?;
    Ok(Found::Sweep(
        v.axis(),
        v.values[..runs.len()].to_vec(),
        runs,
    ))
}

/// Starts a run asked for at start once the scene is loaded; collects a finished run.
pub(super) fn collect(
    mut panel: ResMut<OddsPanel>,
    playback: Option<Res<Playback>>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    if panel.run_when_loaded
        && let Some(pb) = playback
    {
        panel.run_when_loaded = false;
        panel.start((*pb.scene).clone());
    }
    if panel.job.as_ref().is_some_and(|j| j.handle.is_finished()) {
        // One more frame to show what the trials found.
        redraw.write(bevy::window::RequestRedraw);
        let job = panel.job.take().expect("checked");
        panel.found = Some(
            job.handle
                .join()
                .unwrap_or_else(|_| Err("the trials failed".into())),
        );
    }
}

/// Keeps an idle window drawing while trials play, so the bar moves ([`collect`] asks for
/// the frame that shows the result). Not on every change of the panel: the panels write to
/// it every frame they draw, and an idle window would never sleep.
pub(super) fn keep_awake_while_running(
    panel: Res<OddsPanel>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    if panel.running() {
        redraw.write(bevy::window::RequestRedraw);
    }
}

/// Run condition: the panel is open.
pub(super) fn open(panel: Res<OddsPanel>) -> bool {
    panel.open
}

/// The panel's window.
pub(super) fn odds_window(
    mut contexts: EguiContexts,
    mut panel: ResMut<OddsPanel>,
    playback: Option<Res<Playback>>,
) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    let mut open = panel.open;
    egui::Window::new("Odds: how likely is it?")
        .open(&mut open)
        .default_pos([330.0, 90.0])
        .default_width(560.0)
        .show(&ctx, |ui| {
            controls(ui, &mut panel, playback.as_deref());
            ui.separator();
            match &panel.found {
                None => {
                    ui.label("Run the trials to see how often each outcome happens.");
                }
                Some(Err(e)) => {
                    ui.colored_label(egui::Color32::LIGHT_RED, e);
                }
                Some(Ok(Found::Odds(o))) => {
                    bars(ui, o);
                    let fixed = playback
                        .as_deref()
                        .is_some_and(|p| !p.scene.dice.is_empty());
                    if let Some(note) = all_alike(o, fixed && !panel.all_dice) {
                        ui.weak(note);
                    }
                }
                Some(Ok(Found::Sweep(field, values, runs))) => curves(ui, field, values, runs),
            }
        });
    panel.open = open;
    Ok(())
}

/// Trials, sweep, run / stop and the progress bar.
fn controls(ui: &mut egui::Ui, panel: &mut OddsPanel, playback: Option<&Playback>) {
    ui.horizontal(|ui| {
        ui.label("trials");
        ui.add(
            egui::DragValue::new(&mut panel.trials)
                .range(10..=100_000)
                .speed(50),
        );
        ui.label("sweep");
        ui.add(
            egui::TextEdit::singleline(&mut panel.vary)
                .hint_text("e.g. Hill giant.y=55..230:25")
                .desired_width(200.0),
        );
        ui.checkbox(&mut panel.all_dice, "the scene's fixed dice too")
            .on_hover_text("roll afresh also the dice the scene fixes (--reroll all)");
    });
    ui.horizontal(|ui| match &panel.job {
        Some(job) => {
            let done = job.progress.done();
            let part = done as f32 / job.total.max(1) as f32;
            ui.add(
                egui::ProgressBar::new(part)
                    .desired_width(380.0)
                    .text(format!("{done} of {} trials", job.total)),
            );
            if ui.button("stop").clicked() {
                job.progress.stop();
            }
        }
        None => {
            let scene = playback.map(|p| (*p.scene).clone());
            if ui
                .add_enabled(scene.is_some(), egui::Button::new("run the trials"))
                .on_hover_text("the scene as it is now, its unfixed dice rolled afresh each trial")
                .clicked()
                && let Some(s) = scene
            {
                panel.start(s);
            }
        }
    });
}

/// Each outcome: its share as a bar, its 95% interval as a whisker (egui_plot: hover a bar
/// for its value, drag and scroll to look closer), then the outcomes in words.
/// Every trial came out the same, and the scene fixes dice the trials keep: said, with the
/// switch that rolls them (a DM saw every outcome at 100% and no reason).
fn all_alike(o: &Odds, kept_fixed: bool) -> Option<&'static str> {
    let certain = o.outcomes.iter().all(|x| x.p == 0.0 || x.p == 1.0);
    (certain && kept_fixed).then_some(
        "Every trial came out the same: the scene fixes dice, and the trials keep them. Tick \"the scene's fixed dice too\" to roll them afresh.",
    )
}

fn bars(ui: &mut egui::Ui, o: &Odds) {
    use egui_plot::{Bar, BarChart, Line, Plot, PlotPoints};
    let note = if o.interrupted {
        " (stopped early)"
    } else {
        ""
    };
    ui.label(format!(
        "{} trials{note}; bars: share of trials, whiskers: 95% interval (hover for values)",
        o.trials
    ));
    let blue = egui::Color32::from_rgb(0, 114, 178);
    let n = o.outcomes.len();
    // The first outcome at the top.
    let row = |k: usize| (n - 1 - k) as f64;
    let bars: Vec<Bar> = o
        .outcomes
        .iter()
        .enumerate()
        .map(|(k, x)| Bar::new(row(k), x.p).name(&x.label).width(0.7).fill(blue))
        .collect();
    Plot::new("odds bars")
        .height((22.0 * n as f32).clamp(80.0, 300.0))
        .include_x(0.0)
        .include_x(1.0)
        .show_y(false)
        .y_axis_formatter(|_, _| String::new())
        .x_axis_formatter(|m, _| format!("{:.0}%", m.value * 100.0))
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.bar_chart(BarChart::new("share", bars).horizontal());
            for (k, x) in o.outcomes.iter().enumerate() {
                let y = row(k);
                let whisker = PlotPoints::new(vec![[x.low, y], [x.high, y]]);
                plot.line(Line::new("95% interval", whisker).color(egui::Color32::WHITE));
            }
        });
    egui::ScrollArea::vertical()
        .max_height(200.0)
        .show(ui, |ui| {
            for x in &o.outcomes {
                ui.horizontal(|ui| {
                    ui.monospace(format!("{:>5.1}%", x.p * 100.0));
                    ui.label(&x.label);
                });
            }
        });
}

/// A sweep: each outcome that changes as a line with its 95% band (egui_plot: hover for
/// values, drag and zoom), and the legend below the plot, where it covers no line.
fn curves(ui: &mut egui::Ui, field: &str, values: &[f64], runs: &[Odds]) {
    use egui_plot::{FilledArea, Line, Plot, PlotPoints, Points};
    let lines = sweep_chart::series(values, runs);
    let trials = runs.first().map_or(0, |r| r.trials);
    ui.label(format!(
        "{trials} trials at each value; bands: 95% intervals"
    ));
    if lines.is_empty() {
        ui.label("No outcome changes across the sweep.");
        return;
    }
    Plot::new("odds sweep")
        .height(240.0)
        .include_y(0.0)
        .include_y(1.0)
        .x_axis_label(field)
        .y_axis_formatter(|m, _| format!("{:.0}%", m.value * 100.0))
        .allow_scroll(false)
        .show(ui, |plot| {
            for (i, s) in lines.iter().enumerate() {
                let (r, g, b) = sweep_chart::COLOURS[i % sweep_chart::MOST];
                let colour = egui::Color32::from_rgb(r, g, b);
                let xs: Vec<f64> = s.points.iter().map(|p| p.0).collect();
                let lows: Vec<f64> = s.points.iter().map(|p| p.2).collect();
                let highs: Vec<f64> = s.points.iter().map(|p| p.3).collect();
                plot.add(
                    FilledArea::new(&s.label, &xs, &lows, &highs)
                        .fill_color(colour.gamma_multiply(0.18)),
                );
                let pts: Vec<[f64; 2]> = s.points.iter().map(|p| [p.0, p.1]).collect();
                plot.line(
                    Line::new(&s.label, PlotPoints::new(pts.clone()))
                        .color(colour)
                        .width(2.0),
                );
                plot.points(
                    Points::new(&s.label, PlotPoints::new(pts))
                        .color(colour)
                        .radius(3.0),
                );
            }
        });
    for (i, s) in lines.iter().enumerate() {
        let (r, g, b) = sweep_chart::COLOURS[i % sweep_chart::MOST];
        ui.colored_label(egui::Color32::from_rgb(r, g, b), format!("— {}", s.label));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calc::odds::Outcome;

    fn odds(shares: &[f64]) -> Odds {
        let outcomes = shares
            .iter()
            .enumerate()
            .map(|(k, &p)| Outcome {
                key: format!("o{k}"),
                label: format!("outcome {k}"),
                count: (p * 100.0) as u64,
                trials: 100,
                p,
                low: p,
                high: p,
            })
            .collect();
        Odds {
            trials: 100,
            seed: 1,
            outcomes,
            interrupted: false,
        }
    }

    /// Every trial alike while the scene's fixed dice are kept: the panel says why and
    /// names the switch; a spread of outcomes, or the dice rolled afresh, says nothing.
    #[test]
    fn every_trial_alike_with_fixed_dice_is_explained() {
        assert!(
            all_alike(&odds(&[1.0, 0.0, 1.0]), true).is_some_and(|n| n.contains("fixed dice too"))
        );
        assert!(all_alike(&odds(&[1.0, 0.0]), false).is_none());
        assert!(all_alike(&odds(&[0.6, 0.4]), true).is_none());
    }
}
