//! The questions that keep work from being lost, on screen: the window's close button
//! and the quit key go through the editor's guard; a request held back by unsaved edits
//! asks save / discard / cancel; recovery files left by an earlier run are offered back;
//! the window's title names the file shown and says when edits are unsaved.

use super::ViewerRequest;
use super::editor::{Answer, Editor, EditorCommand, UNSAVED};
use super::editor_ui::EditorUi;
use super::recovery::Recovery;
use super::source::SceneSource;
use bevy::prelude::*;
use bevy::window::{PrimaryWindow, WindowCloseRequested};
use bevy_egui::{EguiContexts, egui};

/// The close button asks the editor's guard instead of closing at once. Changes typed in
/// a figure's form and not applied yet are applied before the guard reads the request
/// (`editor_ui::flush_form`), so it asks about them instead of the window closing over
/// them.
pub(super) fn close_requested(
    mut closing: MessageReader<WindowCloseRequested>,
    primary: Query<(), With<PrimaryWindow>>,
    mut out: MessageWriter<ViewerRequest>,
) {
    // The players' window closes on its own (viewer/players.rs); the DM's asks first.
    if closing.read().any(|c| primary.contains(c.window)) {
        out.write(ViewerRequest::Quit);
    }
}

/// The window's title: the file shown (or that the scene has none yet), and a mark
/// while edits are unsaved.
pub(super) fn window_title(
    editor: Res<Editor>,
    source: Res<SceneSource>,
    mut window: Query<&mut Window, With<PrimaryWindow>>,
) {
    // Words are made only when what they say may have changed, not every frame.
    if !editor.is_changed() && !source.is_changed() {
        return;
    }
    let Ok(mut w) = window.single_mut() else {
        return;
    };
    let file = if editor.scene.is_some() {
        editor
            .path
            .as_ref()
            .map_or(UNSAVED.to_string(), |p| p.display().to_string())
    } else {
        source.path.display().to_string()
    };
    let mark = if editor.dirty() {
        " — unsaved edits"
    } else {
        ""
    };
    let title = format!("First Strike — {file}{mark}");
    if w.title != title {
        w.title = title;
    }
}

/// Save, discard or cancel, for a request that would drop unsaved edits.
pub(super) fn unsaved_dialog(
    mut contexts: EguiContexts,
    editor: Res<Editor>,
    mut ui: ResMut<EditorUi>,
    mut out: MessageWriter<EditorCommand>,
) -> Result {
    let Some(p) = editor.pending.clone() else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?.clone();
    let file = editor
        .path
        .as_ref()
        .map_or(UNSAVED.to_string(), |p| p.display().to_string());
    // A modal: its backdrop takes every click meant for what lies behind (the map, where a
    // stray click painted a wall that "save" then wrote; the top bar's edit and table-dice
    // buttons), as the keys are held back while it asks.
    // A new scene has no file; a built-in scene's is kept as shipped: either is saved
    // under a name the DM gives.
    let needs_name = editor
        .path
        .as_ref()
        .is_none_or(|p| super::editor::is_built_in(p));
    egui::Modal::new(egui::Id::new("unsaved edits")).show(&ctx, |w| {
        w.heading("Unsaved edits");
        w.label(format!("{file} has edits that are not saved."));
        w.label(format!("Save them before you {}?", p.words()));
        let mut answer = None;
        if needs_name {
            w.horizontal(|h| {
                h.label("save as");
                h.add(egui::TextEdit::singleline(&mut ui.save_as).desired_width(220.0));
            });
        }
        // Asked whether to replace a file, "save" would only ask again: the question's
        // own answer stands in its place (an outside tester clicked a "save" that did
        // nothing beside "replace").
        let replace = super::editor::replace_offered(&editor, ui.asked_as.as_deref());
        // A new name may still be typed (needs_name): "save" stays for it.
        let save_asks_again = replace.is_some() && !needs_name;
        w.horizontal(|h| {
            if !save_asks_again && h.button("save").clicked() {
                let to = needs_name.then(|| ui.save_as.clone().into());
                if to.is_some() {
                    ui.asked_as = Some(ui.save_as.clone());
                }
                answer = Some(Answer::Save(to));
            }
            // Asked whether to replace a file: answered here, for that file.
            if let Some(there) = replace.clone()
                && h.button(format!("replace {}", there.display())).clicked()
            {
                answer = Some(Answer::Replace(there));
            }
            if h.button("discard the edits").clicked() {
                answer = Some(Answer::Discard);
            }
            if h.button("cancel").clicked() || h.input(|i| i.key_pressed(egui::Key::Escape)) {
                answer = Some(Answer::Cancel);
            }
        });
        if let Some(why) = &editor.problem {
            w.colored_label(egui::Color32::from_rgb(240, 140, 120), why);
        }
        if let Some(a) = answer {
            out.write(EditorCommand::Answer(a));
        }
    });
    Ok(())
}

/// Recovery files left by an earlier run: open, delete, or later.
pub(super) fn recovery_offer(
    mut contexts: EguiContexts,
    recovery: Res<Recovery>,
    mut later: Local<bool>,
    mut out: MessageWriter<EditorCommand>,
) -> Result {
    if *later || recovery.found.is_empty() {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?.clone();
    egui::Window::new("Unsaved edits from an earlier session")
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 80.0))
        .collapsible(false)
        .resizable(false)
        .show(&ctx, |w| {
            w.label("The viewer closed with edits that were never saved. They were kept:");
            for f in &recovery.found {
                let of =
                    f.of.as_ref()
                        .map_or("a new scene".to_string(), |p| p.display().to_string());
                // The age to the second and the recovery's own file: two recoveries of
                // one scene can be told apart.
                let age = f
                    .when
                    .and_then(|t| t.elapsed().ok())
                    .map_or(String::new(), |d| {
                        let s = d.as_secs();
                        format!(", {} min {:02} s ago", s / 60, s % 60)
                    });
                let kept = f
                    .file
                    .file_name()
                    .map_or(String::new(), |n| format!(" ({})", n.to_string_lossy()));
                let age = format!("{age}{kept}");
                w.horizontal(|h| {
                    h.label(format!("edits of {of}{age}"));
                    if h.button("open them").clicked() {
                        out.write(EditorCommand::Recover(f.file.clone()));
                    }
                    if h.button("delete").clicked() {
                        out.write(EditorCommand::ForgetRecovery(f.file.clone()));
                    }
                });
                if f.saved_since() {
                    w.colored_label(
                        egui::Color32::from_rgb(240, 180, 90),
                        format!(
                            "  {of} was saved after these edits: they are older than the file, \
                             and a save over it will ask first"
                        ),
                    );
                }
            }
            // Escape is "later": nothing is opened or deleted.
            if w.button("later (ask at the next start; Esc)").clicked()
                || w.input(|i| i.key_pressed(egui::Key::Escape))
            {
                *later = true;
            }
        });
    Ok(())
}
