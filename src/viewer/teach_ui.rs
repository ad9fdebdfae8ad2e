//! The teaching windows: the question and its reveal (predict mode) and the tour caption
//! (see [`super::teach`]; the charts are [`super::teach_charts`]).

use super::panels::PanelRects;
use super::playback::Playback;
use super::style::plain;
use super::teach::{Teach, caption};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// The question before the next beat, the last answer's reveal, the score; at the end,
/// the questions missed.
pub(super) fn predict_window(
    mut contexts: EguiContexts,
    mut teach: ResMut<Teach>,
    playback: Option<Res<Playback>>,
    rects: Res<PanelRects>,
) -> Result {
    let Some(pb) = playback else { return Ok(()) };
    if teach.quiz().is_none() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let now = pb.current().when;
    let pending = teach.pending(now);
    let mut chosen = None;
    egui::Window::new("Predict, then see")
        // Starts in the map's top-left corner, narrow, to leave the middle of the map in
        // view; drag it off a token it covers.
        .default_pos(egui::pos2(rects.left + 10.0, 60.0))
        .collapsible(false)
        .resizable(false)
        .default_width(250.0)
        .max_width(250.0)
        .show(&ctx, |ui| {
            if let Some((_, r)) = &teach.last {
                reveal(ui, r);
                ui.separator();
            }
            let quiz = teach.quiz().expect("checked");
            match pending {
                Some(i) => {
                    let q = &quiz.questions[i];
                    ui.label(egui::RichText::new(plain(&q.text)).strong());
                    for (k, c) in q.choices.iter().enumerate() {
                        if ui.button(format!("{}) {c}", k + 1)).clicked() {
                            chosen = Some((i, k));
                        }
                    }
                    ui.small("Answer to play on (K turns predicting off).");
                }
                None => {
                    ui.label("No more questions in this scene.");
                    let missed = quiz.missed();
                    if !missed.is_empty() {
                        ui.label("Missed:");
                        for q in missed {
                            ui.small(format!(
                                "{} — {} ({})",
                                plain(&q.text),
                                q.choices[q.answer],
                                q.page()
                            ));
                        }
                    }
                }
            }
            let (right, answered) = quiz.score();
            ui.small(format!("Score: {right} of {answered}"));
        });
    if let Some((i, k)) = chosen {
        teach.answer(i, k);
    }
    Ok(())
}

/// What an answer revealed.
fn reveal(ui: &mut egui::Ui, r: &crate::teach::Reveal) {
    let head = if r.right {
        egui::RichText::new("Right.").color(egui::Color32::LIGHT_GREEN)
    } else {
        egui::RichText::new(format!("Not quite: the answer is {}.", r.answer))
            .color(egui::Color32::from_rgb(255, 150, 110))
    };
    ui.label(head.strong());
    ui.label(plain(&r.why));
    ui.small(format!("{} ({})", r.rule, r.page));
    if let Some(c) = &r.chart {
        ui.small(format!("Chart: {c}"));
    }
}

/// The tour's caption for the moment shown, above the event log.
pub(super) fn tour_caption(
    mut contexts: EguiContexts,
    playback: Option<Res<Playback>>,
    rects: Res<PanelRects>,
    mut layers: ResMut<super::Layers>,
) -> Result {
    let Some(pb) = playback else { return Ok(()) };
    if !layers.tour {
        return Ok(());
    }
    let Some(stop) = caption(&pb.scene.tour, pb.current().when) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?.clone();
    let screen = ctx.content_rect();
    let width = (screen.width() - rects.left - rects.right - 40.0).clamp(200.0, 620.0);
    let x = rects.left + (screen.width() - rects.left - rects.right - width) / 2.0;
    egui::Area::new("tour".into())
        .fixed_pos(egui::pos2(x, screen.height() - rects.bottom - 12.0))
        .pivot(egui::Align2::LEFT_BOTTOM)
        .show(&ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_max_width(width);
                ui.horizontal(|ui| {
                    ui.label(egui::RichText::new("Tour").small().strong());
                    let hide = ui.small_button("hide").on_hover_text(
                        "hide the tour: the \"tour\" box in the top bar shows it again",
                    );
                    if hide.clicked() {
                        layers.tour = false;
                    }
                });
                ui.label(plain(&stop.text));
            });
        });
    Ok(())
}
