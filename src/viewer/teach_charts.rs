//! The charts window: both who-goes-first charts (DMG p.61-67) with the cell that decided
//! the beat in view lit and the cell the other die result would have read faded, the
//! attack-sequence chart for several routines (DMG p.62-63) with the two fighters' columns
//! lit, and the speed-factor thresholds (DMG p.66) with the row that applied lit.

use super::Selection;
use super::playback::Playback;
use super::style::plain;
use super::teach::Teach;
use crate::rules::chart::{Category, Cell, Chart};
use crate::rules::cite;
use crate::rules::first::Decision;
use crate::rules::options::RulesSystem;
use crate::rules::sequence::chart_rows;
use crate::rules::speed_factor::Extra;
use crate::teach::LitCell;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// The lit cell's colour, and the other die result's (faded).
const LIT: egui::Color32 = egui::Color32::from_rgb(210, 165, 30);
const FADED: egui::Color32 = egui::Color32::from_rgb(70, 60, 30);

/// The charts: both who-goes-first charts with the deciding cell lit and the other die
/// result's faded, the attack sequence for several routines and the speed-factor rules,
/// each with the row that decided lit.
pub(super) fn charts_window(
    mut contexts: EguiContexts,
    teach: Res<Teach>,
    playback: Option<Res<Playback>>,
    selection: Res<Selection>,
    mode: Res<State<super::ViewerMode>>,
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
    let predicting = *mode.get() == super::ViewerMode::Predict;
    let pair = teach.decision_now(snap.when.0, selected, predicting);
    let routines = pair.map(|(round, p)| {
        let n = |name: &str| teach.routines(round, name).unwrap_or(1);
        (n(&p.a), n(&p.b))
    });
    egui::Window::new("Charts (C)")
        .anchor(egui::Align2::RIGHT_TOP, egui::vec2(-8.0, 60.0))
        .default_width(380.0)
        .default_height(ctx.content_rect().height() - 80.0)
        .resizable(false)
        .show(&ctx, |ui| {
            let Some((_, p)) = pair else {
                ui.label(if pb.scene.rules.system == RulesSystem::TakeInitiative {
                    "Under Take Initiative! no chart decides: each figure acts on its d10 \
                     total, the lower first, equal totals together (Take Initiative! §Basics)."
                } else {
                    "No two foes were compared in this stretch of play."
                });
                return;
            };
            let d = &p.decision;
            ui.label(egui::RichText::new(format!("{} and {}", p.a, p.b)).strong());
            ui.label(plain(&d.why));
            ui.small(format!("{} ({})", d.rule.id, d.rule.page_ref()));
            let lit = LitCell::of(d);
            match lit {
                Some(l) => ui.small(format!("Read: {}", l.describe())),
                None => ui.small("Decided outside the charts."),
            };
            // The charts are taller than a small window: they scroll below the decision.
            egui::ScrollArea::vertical()
                .max_height(ctx.content_rect().height() - 210.0)
                .show(ui, |ui| charts(ui, d, lit, routines));
        });
    Ok(())
}

/// Both charts with the decision's cell lit and the other die result's faded, the attack
/// sequence with the fighters' columns lit when it decided, and the speed factors.
fn charts(ui: &mut egui::Ui, d: &Decision, lit: Option<LitCell>, routines: Option<(u32, u32)>) {
    let other = lit.map(|l| l.other());
    chart(ui, Chart::Tied, lit, other);
    chart(ui, Chart::HighLow, lit, other);
    let multiple = d.rule == cite::MULTIPLE_ROUTINES || d.rule == cite::MULTIPLE_ROUTINES_DICE;
    attack_sequence(ui, routines.filter(|_| multiple));
    sequence_rows(ui, d);
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
                    // The wording is made only while the pointer is over the cell.
                    ui.label(text).on_hover_ui(|ui| {
                        ui.label(format!(
                            "{} against {}: {}",
                            r.heading(),
                            c.heading(),
                            here.cell.label()
                        ));
                    });
                }
                ui.end_row();
            }
        });
}

/// The attack-sequence chart (DMG p.62-63): a column for each number of routines, 1 to
/// 6, a row for each place in the round; the columns of the two fighters lit when the
/// chart decided.
fn attack_sequence(ui: &mut egui::Ui, lit: Option<(u32, u32)>) {
    ui.label(
        egui::RichText::new("Attack sequence, several routines (DMG p.62-63)")
            .small()
            .strong(),
    );
    let on = |n: u32| lit.is_some_and(|(a, b)| a == n || b == n);
    egui::Grid::new("attack sequence")
        .spacing(egui::vec2(2.0, 0.0))
        .show(ui, |ui| {
            for n in 1..=6u32 {
                ui.small(format!("{n} AT"));
            }
            ui.end_row();
            let columns: Vec<Vec<i32>> = (1..=6).map(chart_rows).collect();
            for row in 1..=11 {
                for (n, rows) in (1..=6u32).zip(&columns) {
                    let text = match rows.iter().position(|&r| r == row) {
                        Some(_) if n == 1 => "only".to_string(),
                        Some(k) => ordinal(k as u32 + 1),
                        None => String::new(),
                    };
                    let t = egui::RichText::new(text).small();
                    ui.label(if on(n) {
                        t.background_color(LIT).color(egui::Color32::BLACK)
                    } else {
                        t
                    });
                }
                ui.end_row();
            }
        });
}

/// 1st, 2nd, 3rd, 4th …
fn ordinal(k: u32) -> String {
    let suffix = match k {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    };
    format!("{k}{suffix}")
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
