//! Table dice: the DM rolls real dice and the viewer uses them. With the mode on, every
//! roll the scene does not fix — surprise, distance, initiative, to-hit, damage, saves —
//! is asked about in order: type what the dice showed, or press Enter to keep the roll
//! from the seed. Each answer is written into the scene's fixed dice (an edit, undoable,
//! saved with the scene), and the scene replays to the segment on screen, so the round
//! shown is the table's.

use super::editor::EditorCommand;
use super::playback::Playback;
use crate::scene::DieKind;
use crate::scene::edit::Edit;
use crate::sim::{Dice, Rolled};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// The table-dice mode's answer in progress (the mode itself is
/// [`ViewerMode::TableDice`](super::ViewerMode::TableDice); its systems run only in it).
#[derive(Resource, Clone, Debug, Default)]
pub struct TableDice {
    /// What is typed for the roll asked about.
    pub typed: String,
    /// Why the last answer was refused (a value the die cannot show); asked again.
    pub refused: Option<String>,
}

/// An answer to the roll asked about: the value the dice showed, or none to keep the
/// seed's roll.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableAnswer(pub Option<i32>);

/// The first roll not yet fixed up to the segment shown, with the values already fixed for
/// its die and owner.
pub fn asked(pb: &Playback, dice: &Dice) -> Option<(Rolled, Vec<i32>)> {
    let r = pb.rolled_now(dice).first()?.clone();
    let before = pb
        .scene
        .dice
        .get(&r.kind)
        .and_then(|by| by.get(&r.who))
        .cloned()
        .unwrap_or_default();
    Some((r, before))
}

/// What a die may show when the DM types it.
pub fn allowed(r: &Rolled) -> std::ops::RangeInclusive<i32> {
    if let (0, Some((lo, hi))) = (r.sides, r.within) {
        lo..=hi
    } else if r.sides == 0 {
        r.kind.range()
    } else {
        1..=r.sides as i32
    }
}

/// What the DM typed for a roll: nothing keeps the seed's roll; a whole number the die
/// can show is the answer; anything else is refused with the range, and asked again.
pub fn read_typed(
    typed: &str,
    range: std::ops::RangeInclusive<i32>,
) -> Result<Option<i32>, String> {
    let t = typed.trim();
    if t.is_empty() {
        return Ok(None);
    }
    let (lo, hi) = (*range.start(), *range.end());
    match t.parse::<i32>() {
        Ok(v) if range.contains(&v) => Ok(Some(v)),
        Ok(v) => Err(format!(
            "{v} cannot be rolled here: type {lo} to {hi}, or nothing to keep the seed's roll"
        )),
        Err(_) => Err(format!(
            "'{t}' is not a number: type {lo} to {hi}, or nothing to keep the seed's roll"
        )),
    }
}

/// Pins answers into the scene's dice as edits (the editor replays the scene).
pub(super) fn answer(
    mut table: ResMut<TableDice>,
    mut answers: MessageReader<TableAnswer>,
    dice: Option<Res<Dice>>,
    playback: Option<Res<Playback>>,
    mut out: MessageWriter<EditorCommand>,
) {
    let Some(a) = answers.read().last().copied() else {
        return;
    };
    let (Some(dice), Some(pb)) = (dice, playback) else {
        return;
    };
    let Some((r, mut values)) = asked(&pb, &dice) else {
        return;
    };
    // A value the die cannot show is refused, never taken for "keep the roll".
    let v = match a.0 {
        Some(v) if !allowed(&r).contains(&v) => {
            let (lo, hi) = (*allowed(&r).start(), *allowed(&r).end());
            table.refused = Some(format!("{v} cannot be rolled here: type {lo} to {hi}"));
            return;
        }
        Some(v) => v,
        None => r.value,
    };
    table.refused = None;
    values.push(v);
    out.write(EditorCommand::Edit(Edit::Dice {
        kind: r.kind,
        key: r.who,
        values,
    }));
}

/// The question window.
pub(super) fn ask(
    mut contexts: EguiContexts,
    mut table: ResMut<TableDice>,
    dice: Option<Res<Dice>>,
    playback: Option<Res<Playback>>,
    mut out: MessageWriter<TableAnswer>,
) -> Result {
    let (Some(dice), Some(pb)) = (dice, playback) else {
        return Ok(());
    };
    let Some((r, _)) = asked(&pb, &dice) else {
        return Ok(());
    };
    let pending = pb.rolled_now(&dice).len();
    let ctx = contexts.ctx_mut()?.clone();
    let die = if let (0, Some((lo, hi))) = (r.sides, r.within) {
        format!("the damage, in all ({lo} to {hi})")
    } else if r.sides == 0 {
        "the damage, in all".to_string()
    } else {
        format!("a d{}", r.sides)
    };
    let what = match r.kind {
        DieKind::Surprise => "surprise",
        DieKind::Distance => "encounter distance",
        DieKind::Initiative => "initiative",
        DieKind::ToHit => "to hit",
        DieKind::Damage => "damage",
        DieKind::D4 => "a d4 (potion, cantrip)",
        DieKind::Save => "a saving throw",
        DieKind::Percent => "d%",
        DieKind::Scatter => "a fumbled weapon's flight (d3 squares, then d8 direction)",
        DieKind::IntoMelee => "which combatant a shot into a melee strikes",
    };
    egui::Window::new("Table dice")
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 60.0))
        .collapsible(false)
        .resizable(false)
        .show(&ctx, |w| {
            w.label(format!("{what} for {}: {die}", r.who));
            w.small(format!(
                "{pending} roll{} to settle; the seed rolled {}",
                if pending == 1 { "" } else { "s" },
                r.value
            ));
            let edit = w.add(
                egui::TextEdit::singleline(&mut table.typed)
                    .hint_text("what your dice showed")
                    .desired_width(120.0),
            );
            edit.request_focus();
            let (lo, hi) = (*allowed(&r).start(), *allowed(&r).end());
            w.small(format!("{lo} to {hi}; nothing typed keeps the seed's roll"));
            let enter = w.input(|i| i.key_pressed(egui::Key::Enter));
            let keep = w.button("Enter: use it").clicked();
            if enter || keep {
                match read_typed(&table.typed, allowed(&r)) {
                    Ok(v) => {
                        out.write(TableAnswer(v));
                        table.typed.clear();
                        table.refused = None;
                    }
                    Err(why) => table.refused = Some(why),
                }
            }
            if let Some(why) = &table.refused {
                w.colored_label(egui::Color32::from_rgb(240, 140, 120), why);
            }
        });
    Ok(())
}
