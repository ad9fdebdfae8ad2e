//! The teaching windows: the question and its reveal (predict mode), the tour caption,
//! and the charts with the deciding cell lit (see [`super::teach`]).

use super::Selection;
use super::panels::PanelRects;
use super::playback::Playback;
use super::teach::{Teach, caption};
use crate::rules::chart::{Category, Cell, Chart};
use crate::rules::cite;
use crate::rules::first::Decision;
use crate::rules::speed_factor::Extra;
use crate::teach::LitCell;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// The lit cell's colour, and the other die result's (faded).
const LIT: egui::Color32 = egui::Color32::from_rgb(210, 165, 30);
const FADED: egui::Color32 = egui::Color32::from_rgb(70, 60, 30);

/// The question before the next beat, the last answer's reveal, the score; at the end,
/// the questions missed.
pub(super) fn predict_window(
    mut contexts: EguiContexts,
    mut teach: ResMut<Teach>,
    playback: Option<Res<Playback>>,
    rects: Res<PanelRects>,
) -> Result {
    let Some(pb) = playback else { return Ok(()) };
    if !teach.predict || teach.quiz().is_none() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let now = pb.current().when;
    let pending = teach.pending(now);
    let mut chosen = None;
    egui::Window::new("Predict, then see")
        // In the map's top-left corner, narrow, to leave the middle of the map in view.
        .fixed_pos(egui::pos2(rects.left + 10.0, 60.0))
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
                    ui.label(egui::RichText::new(&q.text).strong());
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
                                q.text,
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
    ui.label(&r.why);
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
) -> Result {
    let Some(pb) = playback else { return Ok(()) };
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
                ui.label(egui::RichText::new("Tour").small().strong());
                ui.label(&stop.text);
            });
        });
    Ok(())
}

/// The charts: both who-goes-first charts with the deciding cell lit and the other die
/// result's faded, the attack sequence for several routines and the speed-factor rules,
/// each with the row that decided lit.
pub(super) fn charts_window(
    mut contexts: EguiContexts,
    teach: Res<Teach>,
    playback: Option<Res<Playback>>,
    selection: Res<Selection>,
) -> Result {
    let Some(pb) = playback else { return Ok(()) };
    if !teach.charts {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    let snap = pb.current();
    let selected = selection
        .0
        .and_then(|i| snap.figure(i))
        .map(|f| f.name.as_str());
    let pair = teach.decision_now(snap.when.0, selected);
    egui::Window::new("Charts (C)")
        .anchor(egui::Align2::RIGHT_TOP, egui::vec2(-8.0, 60.0))
        .default_width(380.0)
        .show(&ctx, |ui| {
            let Some(p) = pair else {
                ui.label("No two foes were compared in this stretch of play.");
                return;
            };
            let d = &p.decision;
            ui.label(egui::RichText::new(format!("{} and {}", p.a, p.b)).strong());
            ui.label(&d.why);
            ui.small(format!("{} ({})", d.rule.id, d.rule.page_ref()));
            let lit = LitCell::of(d);
            match lit {
                Some(l) => ui.small(format!("Read: {}", l.describe())),
                None => ui.small("Decided outside the charts."),
            };
            let other = lit.map(|l| l.other());
            chart(ui, Chart::Tied, lit, other);
            chart(ui, Chart::HighLow, lit, other);
            sequence_rows(ui, d);
        });
    Ok(())
}

/// One chart as a grid, its lit cell and faded cell marked.
fn chart(ui: &mut egui::Ui, which: Chart, lit: Option<LitCell>, other: Option<LitCell>) {
    ui.label(
        egui::RichText::new(match which {
            Chart::Tied => "Tied d6 (DMG p.61-67)",
            Chart::HighLow => "High d6 (row) vs. low d6",
        })
        .small()
        .strong(),
    );
    egui::Grid::new(format!("{which:?}"))
        .spacing(egui::vec2(2.0, 1.0))
        .show(ui, |ui| {
            ui.small("");
            for c in Category::ALL {
                ui.small(short(c));
            }
            ui.end_row();
            for r in Category::ALL {
                ui.small(short(r));
                for c in Category::ALL {
                    let here = LitCell::at(which, r, c);
                    let mut text = egui::RichText::new(cell_word(here.cell)).small();
                    if Some(here) == lit {
                        text = text
                            .background_color(LIT)
                            .color(egui::Color32::BLACK)
                            .strong();
                    } else if Some(here) == other {
                        text = text.background_color(FADED);
                    }
                    ui.label(text).on_hover_text(format!(
                        "{} against {}: {}",
                        r.heading(),
                        c.heading(),
                        here.cell.label()
                    ));
                }
                ui.end_row();
            }
        });
}

/// The attack sequence for several routines (DMG p.62-63) and the speed-factor rules
/// (DMG p.66), the row that decided lit.
fn sequence_rows(ui: &mut egui::Ui, d: &Decision) {
    let rows = [
        (
            "Attack sequence (DMG p.62-63): more routines strike first and last; single routines fall between",
            d.rule == cite::MULTIPLE_ROUTINES,
        ),
        (
            "Routines in the same place of the sequence go by initiative (DMG p.63)",
            d.rule == cite::MULTIPLE_ROUTINES_DICE,
        ),
        (
            "Speed factor (DMG p.66): on tied dice, weapons with speed factors, routines both odd or both even, not after closing: the lower strikes first",
            d.rule == cite::SPEED_FACTOR,
        ),
        (
            "Difference of 5 or more, or at least twice the lower: two blows before the slower weapon's first",
            matches!(d.extra, Some((_, Extra::TwoBefore))),
        ),
        (
            "Difference of 10 or more: two blows before and a third together",
            matches!(d.extra, Some((_, Extra::TwoBeforeOneTogether))),
        ),
    ];
    ui.separator();
    for (text, on) in rows {
        let t = egui::RichText::new(text).small();
        ui.label(if on {
            t.background_color(LIT).color(egui::Color32::BLACK)
        } else {
            t
        });
    }
}

/// A chart heading in a few letters.
fn short(c: Category) -> &'static str {
    match c {
        Category::Melee => "MEL",
        Category::MeleeSf => "SF",
        Category::MeleeMulti => "MULTI",
        Category::Charge => "CHG",
        Category::Missile => "MIS",
        Category::MissileMulti => "MIS×",
        Category::Spell => "SPELL",
        Category::Turn => "TURN",
    }
}

/// A cell in a word or two (the whole wording on hover).
fn cell_word(c: Cell) -> &'static str {
    match c {
        Cell::SameTime => "same",
        Cell::HighD6 => "hi d6",
        Cell::HighD6Dex => "d6+DEX",
        Cell::LongerReach => "reach",
        Cell::LowSpeedFactor => "low SF",
        Cell::HigherAttacks(_) => "#AT",
        Cell::CasterDie => "c.d6",
        Cell::SpeedFactorVsCasting => "SF/cast",
        Cell::SpeedFactorMinusLowDie => "SF-d6",
        Cell::AsSingleVsSpell => "single",
        Cell::MoveVsCasting => "move",
        Cell::Missile => "missile",
        Cell::Turn => "turn",
        Cell::ShorterCasting(_) => "short",
    }
}
