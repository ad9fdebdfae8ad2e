//! The editor on screen: its panel (new scene, paint tools, figures and their form,
//! declarations, dice, undo, save), the token's context menu for declaring, and the map
//! under the pointer — drag a token to move it, paint cells, click a target or a point
//! for a declaration. What is declared for the round is drawn on the map before it is
//! played. Everything is sent as [`EditorCommand`]s, the same the keys and tests send.

use super::camera::{feet_of, world_of};
use super::editor::{Editor, EditorCommand};
use super::map_view::{LabelLayout, token_under};
use super::panels::PanelRects;
use super::playback::Playback;
use super::{Selection, style};
use crate::map::distance_ft;
use crate::rules::attack_rate::AttackRate;
use crate::rules::distance::Setting;
use crate::rules::movement::Armor;
use crate::rules::size::Size;
use crate::scene::edit::Edit;
use crate::scene::{Act, CellKind, CombatantSpec, Scene};
use crate::tables;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// What a left click on the map does in edit mode.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Tool {
    /// Select a token, drag it to move it.
    #[default]
    Select,
    /// Paint cells of this kind.
    Paint(CellKind),
    /// Place this light.
    Light(String),
    /// Remove the light under the pointer.
    EraseLight,
}

/// A declaration waiting for its target (a click on a token) or point (a click on the map).
#[derive(Clone, Debug, PartialEq)]
pub struct Pick {
    /// Who declares.
    pub figure: String,
    /// What: "melee", "charge", "close", "missile", "turn", "move", "cast".
    pub kind: &'static str,
    /// For a spell: its name and casting time.
    pub spell: Option<(String, Option<u32>)>,
}

/// The editor panel's own state.
#[derive(Resource, Clone, Debug)]
pub struct EditorUi {
    /// The map tool.
    pub tool: Tool,
    /// Snap moved tokens to cell centres.
    pub snap: bool,
    /// The round being declared (from 1).
    pub round: usize,
    /// New scene: indoors, width, height, cell.
    pub new: (bool, f64, f64, f64),
    /// The monster to add.
    pub monster: String,
    /// How many of it to add at once (a squad, named Orc 1 to Orc N, spread in a block).
    pub squad: u32,
    /// The form of the selected figure, being edited.
    pub form: Option<CombatantSpec>,
    /// The file for Save as.
    pub save_as: String,
    /// The Save as name a "replace the file?" question was asked for: once the name is
    /// changed, the question is about a file the DM moved away from, and is withdrawn.
    pub asked_as: Option<String>,
    /// Where "save as" writes, said under its field, for the scene's file and the name
    /// typed it was worked out for: asked again only when either changes, not each frame
    /// (it reads the scene's file to know a shipped one).
    said_as: Option<((Option<std::path::PathBuf>, String), String)>,
    /// A declaration waiting for a click.
    pub pick: Option<Pick>,
    /// The token whose context menu is open, and where.
    pub menu: Option<(String, egui::Pos2)>,
    /// A token being dragged: its name, and whether it moved.
    pub drag: Option<(String, (f64, f64))>,
    /// Copies to add with Duplicate.
    pub copies: u32,
    /// A custom casting time for the menu's spells.
    pub custom_segments: u32,
    /// Where the pointer is over the map, in feet (an area spell's template follows it).
    pub hover: Option<(f64, f64)>,
    /// Whose the form is: its figure as the form last found it (by its name; changes not
    /// applied are applied when another figure is chosen).
    pub form_base: Option<CombatantSpec>,
    /// What is typed to find a spell in the token menu's list.
    pub spell_filter: String,
    /// What is typed to find a monster in the "add monster" list.
    pub monster_filter: String,
    /// The scene's name as it is being typed (the scene's own while the field is idle).
    pub scene_name: String,
    /// The figure the list last showed as chosen (one chosen on the map is scrolled to).
    pub listed: Option<usize>,
    /// A box being dragged on open ground with the select tool: where it started, in feet.
    pub boxing: Option<(f64, f64)>,
    /// The figures the last box took in: a group the token menu declares for at once.
    pub group: Vec<String>,
}

impl EditorUi {
    /// Forgets what belonged to the scene on screen — the form, the box's group, a box or
    /// a pick under way, the menu — when another scene (or the file again) is loaded.
    pub fn forget_scene(&mut self) {
        self.form = None;
        self.form_base = None;
        self.group.clear();
        self.boxing = None;
        self.pick = None;
        self.menu = None;
        self.drag = None;
    }
}

impl Default for EditorUi {
    fn default() -> Self {
        EditorUi {
            tool: Tool::Select,
            snap: true,
            round: 1,
            new: (true, 40.0, 60.0, 5.0),
            monster: "orc".into(),
            squad: 1,
            form: None,
            // The folder the viewer was started in, not the shipped library's.
            save_as: "my_encounter.ron".into(),
            asked_as: None,
            said_as: None,
            pick: None,
            menu: None,
            drag: None,
            copies: 1,
            custom_segments: 4,
            hover: None,
            boxing: None,
            group: Vec::new(),
            spell_filter: String::new(),
            monster_filter: String::new(),
            scene_name: String::new(),
            listed: None,
            form_base: None,
        }
    }
}

/// A startup system opening the editor (and a figure's context menu), as `view --edit`
/// asks.
pub(super) fn start_editing(
    edit: Option<Option<String>>,
) -> impl FnMut(MessageWriter<EditorCommand>, ResMut<EditorUi>) {
    move |mut out, mut ui| {
        if let Some(menu) = &edit {
            out.write(EditorCommand::Toggle);
            ui.menu = menu.clone().map(|m| (m, egui::pos2(520.0, 220.0)));
        }
    }
}

/// The map cell (column, row) under a point in feet.
fn cell_at(scene: &Scene, at: (f64, f64)) -> Option<(usize, usize)> {
    let map = scene.map.as_ref()?;
    let (c, r) = (at.0 / map.cell_ft, at.1 / map.cell_ft);
    (c >= 0.0 && r >= 0.0).then_some((c as usize, r as usize))
}

/// A point snapped to the centre of its cell.
fn snapped(scene: &Scene, at: (f64, f64)) -> (f64, f64) {
    let cell = scene.map.as_ref().map_or(5.0, |m| m.cell_ft);
    let centre = |v: f64| (v / cell).floor() * cell + cell / 2.0;
    (centre(at.0), centre(at.1))
}

/// The figure drawn under a point (in feet) at the segment on screen, by name. While the
/// edited scene does not play (a refused edit), the map shows the last good replay, so
/// the start positions of the edited scene are used.
fn drawn_token(
    placed: &LabelLayout,
    shown: Option<&Playback>,
    editor: &Editor,
    at: (f64, f64),
) -> Option<String> {
    let scene = editor.scene.as_ref()?;
    match shown.filter(|_| editor.problem.is_none()) {
        Some(pb) => {
            let figures = &pb.current().figures;
            token_under(placed, figures, world_of(at)).map(|i| figures[i].name.clone())
        }
        None => scene
            .combatants
            .iter()
            .filter(|c| distance_ft(c.at, at) <= f64::from(style::TOKEN_FT) + 0.5)
            .min_by(|a, b| distance_ft(a.at, at).total_cmp(&distance_ft(b.at, at)))
            .map(|c| c.name.clone()),
    }
}

/// Where the pointer is over the map, and its buttons.
#[derive(SystemParam)]
pub(super) struct MapPointer<'w, 's> {
    mouse: Res<'w, ButtonInput<MouseButton>>,
    windows: Query<'w, 's, &'static Window, With<bevy::window::PrimaryWindow>>,
    camera:
        Query<'w, 's, (&'static Camera, &'static GlobalTransform), With<super::camera::MapCamera>>,
    panels: Res<'w, PanelRects>,
    placed: Res<'w, LabelLayout>,
    playback: Option<Res<'w, Playback>>,
    egui: Option<Res<'w, bevy_egui::input::EguiWantsInput>>,
}

impl MapPointer<'_, '_> {
    /// The pointer over the map (not a panel): window pixels and feet.
    fn over_map(&self) -> Option<(Vec2, (f64, f64))> {
        let (Ok(window), Ok((cam, cam_tf))) = (self.windows.single(), self.camera.single()) else {
            return None;
        };
        let cursor = window.cursor_position()?;
        // A click on a dialog lying over the map (cancel, save) is the dialog's alone.
        if self.egui.as_ref().is_some_and(|e| e.is_pointer_over_area()) {
            return None;
        }
        if !self
            .panels
            .free(window.width(), window.height())
            .contains(cursor)
        {
            return None;
        }
        let world = cam.viewport_to_world_2d(cam_tf, cursor).ok()?;
        Some((cursor, feet_of(world)))
    }
}

/// Wakes one more frame when the pointer passes between the panels (or a dialog) and the
/// map. What egui holds is known only after the frame that moved the pointer, and the
/// viewer sleeps between inputs: without this, the map would answer (an area spell's
/// template following the pointer, a hover) one pointer event late.
pub(super) fn wake_on_pointer_crossing(
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut over_egui: Local<bool>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    let now = egui.is_some_and(|e| e.is_pointer_over_area());
    if now != *over_egui {
        *over_egui = now;
        redraw.write(bevy::window::RequestRedraw);
    }
}

/// The pointer over the map in edit mode: drag tokens, paint, place lights, pick targets,
/// open a token's context menu.
pub(super) fn editor_pointer(
    pointer: MapPointer,
    editor: Res<Editor>,
    mut ui: ResMut<EditorUi>,
    mut selection: ResMut<Selection>,
    mut out: MessageWriter<EditorCommand>,
) {
    let mouse = &pointer.mouse;
    // While a question about unsaved edits is up, the map is not edited behind it.
    if editor.pending.is_some() {
        return;
    }
    let Some(scene) = editor.scene.as_ref() else {
        return;
    };
    // A box or a drag ends when the button is up, wherever it was let go (over a panel,
    // or a press and release within one frame): one never follows a pointer with no
    // button held.
    if !mouse.pressed(MouseButton::Left)
        && !mouse.just_released(MouseButton::Left)
        && (ui.boxing.is_some() || ui.drag.is_some())
    {
        ui.boxing = None;
        ui.drag = None;
    }
    let Some((cursor, here)) = pointer.over_map().filter(|_| ui.menu.is_none()) else {
        // Only a real change marks the editor's state changed (this runs every frame).
        if ui.hover.is_some() {
            ui.hover = None;
        }
        return;
    };
    if ui.hover != Some(here) {
        ui.hover = Some(here);
    }
    let under = drawn_token(&pointer.placed, pointer.playback.as_deref(), &editor, here);
    if mouse.just_pressed(MouseButton::Right)
        && let Some(name) = &under
    {
        ui.menu = Some((name.clone(), egui::pos2(cursor.x, cursor.y)));
        // Each menu's spell list starts whole (what was typed for the last one is gone).
        ui.spell_filter.clear();
        return;
    }
    if let Some(pick) = ui.pick.clone()
        && mouse.just_pressed(MouseButton::Left)
    {
        // A click that picks nothing (open floor for a blow) leaves the pick waiting, as
        // its prompt says: another click, or Esc.
        if let Some(act) = picked(&pick, under.as_deref(), here) {
            out.write(EditorCommand::Edit(Edit::Declare {
                round: ui.round,
                figure: pick.figure,
                act: Some(act),
            }));
            ui.pick = None;
        }
        return;
    }
    match ui.tool.clone() {
        Tool::Select => {
            if mouse.just_pressed(MouseButton::Left) {
                // On open ground a drag draws a box round a group; on a token, moves it.
                ui.boxing = under.is_none().then_some(here);
                ui.drag = under.clone().map(|n| (n, here));
                selection.0 = under
                    .as_ref()
                    .and_then(|n| scene.combatants.iter().position(|c| &c.name == n));
            }
            // Not `else`: a quick click presses and releases in the same frame.
            if mouse.just_released(MouseButton::Left)
                && let Some(from) = ui.boxing.take()
            {
                ui.group = match pointer.playback.as_deref() {
                    Some(pb) => boxed(&pb.current().figures, &pointer.placed, (from, here)),
                    None => Vec::new(),
                };
            } else if mouse.just_released(MouseButton::Left)
                && let Some((name, from)) = ui.drag.take()
                && distance_ft(from, here) >= 0.5
            {
                let to = if ui.snap { snapped(scene, here) } else { here };
                out.write(EditorCommand::MoveStart { figure: name, to });
            }
        }
        Tool::Paint(kind) => {
            if mouse.pressed(MouseButton::Left)
                && let Some((col, row)) = cell_at(scene, here)
                && scene
                    .map
                    .as_ref()
                    .and_then(|m| m.rows.get(row))
                    .and_then(|r| r.chars().nth(col))
                    .is_some_and(|c| c != crate::scene::edit::cell_char(kind))
            {
                out.write(EditorCommand::Edit(Edit::Paint { col, row, kind }));
            }
        }
        Tool::Light(source) => {
            if mouse.just_pressed(MouseButton::Left) {
                let at = snapped(scene, here);
                out.write(EditorCommand::Edit(Edit::AddLight { source, at }));
            }
        }
        Tool::EraseLight => {
            if mouse.just_pressed(MouseButton::Left) {
                out.write(EditorCommand::Edit(Edit::RemoveLight { at: here }));
            }
        }
    }
}

/// The figures whose tokens, as drawn at the segment on screen, lie inside the box between
/// two corners (feet), in the scene's order. A box under a token's width takes no one (a
/// click on open ground clears the group).
pub fn boxed(
    figures: &[super::FigureView],
    placed: &LabelLayout,
    (a, b): ((f64, f64), (f64, f64)),
) -> Vec<String> {
    if (a.0 - b.0).abs().max((a.1 - b.1).abs()) < f64::from(style::TOKEN_FT) {
        return Vec::new();
    }
    let rect = Rect::from_corners(world_of(a), world_of(b));
    let mut inside: Vec<&super::FigureView> = figures
        .iter()
        .enumerate()
        .filter(|(i, f)| rect.contains(placed.drawn.get(*i).copied().unwrap_or(world_of(f.at))))
        .map(|(_, f)| f)
        .collect();
    inside.sort_by_key(|f| f.index);
    inside.into_iter().map(|f| f.name.clone()).collect()
}

/// The declaration a click completes: at the token under it, or at the point (a charge, a
/// move, a spell with an area).
pub fn picked(pick: &Pick, token: Option<&str>, at: (f64, f64)) -> Option<Act> {
    // A point to a tenth of a foot: the file and the log say (102.4, 52.3), not the
    // pointer's every digit.
    let tenth = |v: f64| (v * 10.0).round() / 10.0;
    let at = (tenth(at.0), tenth(at.1));
    let at_token = token
        .filter(|t| *t != pick.figure)
        .map(|t| vec![t.to_string()]);
    Some(match (pick.kind, at_token) {
        ("melee", Some(t)) => Act::melee(t),
        ("missile", Some(t)) => Act::missile(t),
        ("charge", Some(t)) => Act::charge(t),
        ("charge", None) => Act::Charge {
            targets: Vec::new(),
            to: Some(at),
            modifier: 0,
            hurl: false,
        },
        ("close", Some(targets)) => Act::Close { targets },
        ("turn", Some(targets)) => Act::Turn { targets },
        ("move", Some(t)) => Act::Move {
            toward: t.into_iter().next(),
            to: None,
        },
        ("move", None) => Act::Move {
            toward: None,
            to: Some(at),
        },
        ("cast", t) => {
            let (spell, segments) = pick.spell.clone()?;
            // A spell with an area goes where it is clicked: at a token, round that figure;
            // on open ground, at the point. One without an area needs a figure (or none:
            // the caster).
            let at = (token.is_none() && tables::spell_area_ft(&spell).is_some()).then_some(at);
            Act::Cast {
                spell,
                target: t.and_then(|t| t.into_iter().next()),
                segments,
                device: false,
                at,
            }
        }
        _ => return None,
    })
}

/// Run condition: a token's menu is open in the editor (the hover name then stays away, so
/// it never covers the menu).
pub(super) fn menu_open(ui: Option<Res<EditorUi>>, mode: Res<State<super::ViewerMode>>) -> bool {
    *mode.get() == super::ViewerMode::Edit && ui.is_some_and(|u| u.menu.is_some())
}

/// The editor's panel and the token's context menu.
/// Whether a pending "replace the file?" question was asked for a Save as name that is no
/// longer the one in the field (`asked`: the name when it was asked; none for a question
/// Save as did not raise, such as a file changed on disk under Ctrl+S).
pub fn stale_question(pending: bool, asked: Option<&str>, field: &str) -> bool {
    pending && asked.is_some_and(|a| a != field)
}

pub(super) fn editor_panel(
    mut contexts: EguiContexts,
    rects: Res<PanelRects>,
    editor: Res<Editor>,
    source: Option<Res<super::SceneSource>>,
    mut ui: ResMut<EditorUi>,
    mut selection: ResMut<Selection>,
    mut out: MessageWriter<EditorCommand>,
) -> Result {
    let changed = source.is_some_and(|s| s.changed_under_edits);
    let ctx = contexts.ctx_mut()?.clone();
    // Escape takes back what is half done, the newest first: a pick waiting for its click,
    // then a token's menu, then a question about replacing a file (nothing is written).
    if ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
        if ui.pick.is_some() {
            ui.pick = None;
        } else if ui.menu.is_some() {
            ui.menu = None;
        } else if editor.confirm.is_some() {
            out.write(EditorCommand::CancelReplace);
        }
    }
    // A question whether to replace a file, asked for a Save as name the DM has since
    // changed, is withdrawn: its "replace it" would write over the old name, not the one
    // in the field.
    if stale_question(
        editor.confirm.is_some(),
        ui.asked_as.as_deref(),
        &ui.save_as,
    ) {
        ui.asked_as = None;
        out.write(EditorCommand::CancelReplace);
    }
    // Choosing a target or a point: said over the map, where the DM is looking.
    if let (Some(p), Some(dock)) = (&ui.pick, rects.dock) {
        let what = p.spell.as_ref().map_or(p.kind.to_string(), |s| s.0.clone());
        let area = p
            .spell
            .as_ref()
            .is_some_and(|s| tables::spell_area_ft(&s.0).is_some());
        let how = if area {
            "click a figure, or open ground for its area"
        } else {
            "click its target on the map"
        };
        egui::Area::new(egui::Id::new("pick prompt"))
            .fixed_pos(egui::pos2(dock.max.x + 12.0, rects.top + 8.0))
            .order(egui::Order::Foreground)
            .show(&ctx, |a| {
                egui::Frame::popup(a.style()).show(a, |f| {
                    f.colored_label(
                        egui::Color32::YELLOW,
                        format!("{}: {what} — {how} (Esc: cancel)", p.figure),
                    );
                });
            });
    }
    // Docked in the left panel under the clock (laid out by `panels`, earlier in this
    // pass): it never covers the clock or the map, and keeps its size.
    if let Some(dock) = rects.dock {
        let mut root = egui::Ui::new(
            ctx.clone(),
            "editor dock".into(),
            egui::UiBuilder::new()
                .layer_id(egui::LayerId::background())
                .max_rect(dock),
        );
        // The file, its save buttons and what the editor says stay at the top, out of the
        // scrolling: a figure chosen scrolls its form into view without hiding them.
        root.heading("Editor");
        header(&mut root, (&editor, changed), &mut ui, &mut out);
        root.separator();
        egui::ScrollArea::vertical()
            .id_salt("editor")
            .auto_shrink([false, false])
            .show(&mut root, |w| {
                new_scene(w, &mut ui, &mut out);
                w.separator();
                tools(w, &mut ui);
                w.separator();
                figures(w, &editor, &mut ui, &mut selection, &mut out);
            });
    }
    if let Some((name, pos)) = ui.menu.clone() {
        let mut close = false;
        egui::Area::new(egui::Id::new("token menu"))
            .fixed_pos(pos)
            .order(egui::Order::Foreground)
            .show(&ctx, |a| {
                egui::Frame::popup(a.style()).show(a, |f| {
                    close = declare_menu(f, (&name, editor.scene.as_ref()), &mut ui, &mut out);
                });
            });
        if close {
            ui.menu = None;
        }
    }
    Ok(())
}

/// File, undo and redo, save, and what is wrong.
fn header(
    w: &mut egui::Ui,
    (ed, changed_on_disk): (&Editor, bool),
    ui: &mut EditorUi,
    out: &mut MessageWriter<EditorCommand>,
) {
    let file = ed
        .path
        .as_ref()
        .map_or("a new scene (not saved yet)".into(), |p| {
            p.display().to_string()
        });
    w.label(format!(
        "{file}{}",
        if ed.dirty() { " — unsaved edits" } else { "" }
    ));
    if let Some(scene) = &ed.scene {
        w.horizontal(|h| {
            h.label("name");
            let field = h.add(egui::TextEdit::singleline(&mut ui.scene_name).desired_width(220.0));
            // Taken when the field is left (Enter, or a click elsewhere); an empty name is
            // refused by the edit, and the field shows the scene's again.
            if field.lost_focus() && ui.scene_name.trim() != scene.name {
                out.write(EditorCommand::Edit(Edit::Rename(ui.scene_name.clone())));
            } else if !field.has_focus() {
                ui.scene_name.clone_from(&scene.name);
            }
        });
    }
    w.horizontal(|h| {
        if h.add_enabled(ed.can_undo(), egui::Button::new("undo"))
            .clicked()
        {
            out.write(EditorCommand::Undo);
        }
        if h.add_enabled(ed.can_redo(), egui::Button::new("redo"))
            .clicked()
        {
            out.write(EditorCommand::Redo);
        }
        if h.button("save (Ctrl+S)").clicked() {
            out.write(EditorCommand::Save);
        }
    });
    w.horizontal(|h| {
        let field = h.add(egui::TextEdit::singleline(&mut ui.save_as).desired_width(170.0));
        // A new name: what was said of the last attempt to save goes (a first-time DM
        // read "type a file name first" under the name being typed).
        if field.changed() {
            out.write(EditorCommand::NameTyped);
        }
        // Enter in the field saves as its button does.
        let entered = field.lost_focus() && h.input(|i| i.key_pressed(egui::Key::Enter));
        // "save as" never replaces: a file already there is asked about on a row of its
        // own, so a double click cannot answer the question it raises.
        if h.button("save as").clicked() || entered {
            ui.asked_as = Some(ui.save_as.clone());
            out.write(EditorCommand::SaveAs {
                path: ui.save_as.clone().into(),
                replace: false,
            });
        }
    });
    // Where "save as" writes, always on its line: a bare name goes beside the scene open.
    let key = (ed.path.clone(), ui.save_as.clone());
    if ui.said_as.as_ref().is_none_or(|(k, _)| *k != key) {
        let said = if ui.save_as.trim().is_empty() {
            "save as: type a file name (a bare name goes beside the scene open)".to_string()
        } else {
            let target = super::editor::save_as_target(ed, ui.save_as.clone().into());
            let whole = std::path::absolute(&target).unwrap_or(target);
            format!("save as writes {}", whole.display())
        };
        ui.said_as = Some((key, said));
    }
    let said = ui
        .said_as
        .as_ref()
        .map(|(_, s)| s.clone())
        .unwrap_or_default();
    w.add(egui::Label::new(egui::RichText::new(&said).weak().small()).truncate())
        .on_hover_text(said);
    if let Some(p) = ed.confirm.clone() {
        // The name on a line of its own, wrapped: a long one never pushes the buttons out
        // of the panel.
        w.add(egui::Label::new(format!("replace {}?", p.display())).wrap());
        w.horizontal(|h| {
            if h.button("cancel").clicked() {
                out.write(EditorCommand::CancelReplace);
            }
            h.add_space(24.0);
            if h.button("replace it").clicked() {
                out.write(EditorCommand::SaveAs {
                    path: p.clone(),
                    replace: true,
                });
            }
        });
    }
    // What the editor has to say goes below its buttons, in room kept for three lines:
    // a line coming or going never moves a button under the pointer.
    let line = w.text_style_height(&egui::TextStyle::Body) + w.spacing().item_spacing.y;
    w.vertical(|m| {
        m.set_min_height(3.0 * line);
        status_lines(m, (ed, changed_on_disk));
    });
    if ui.group.len() > 1 {
        w.colored_label(
            egui::Color32::from_rgb(115, 240, 240),
            format!(
                "{} in the box: right-click one of them to declare for all",
                ui.group.len()
            ),
        );
    }
    if let Some(p) = &ui.pick {
        w.colored_label(
            egui::Color32::YELLOW,
            format!("{}: click the target (or a point) on the map", p.figure),
        );
    }
}

/// The editor's messages: the file changed on disk, a note, a problem, what was saved.
fn status_lines(m: &mut egui::Ui, (ed, changed_on_disk): (&Editor, bool)) {
    if changed_on_disk {
        m.colored_label(
            egui::Color32::from_rgb(240, 140, 120),
            "the file changed on disk while you edit: save asks before replacing it; \
             reload (R) shows the file's version and asks about your edits first",
        );
    }
    if let Some(n) = &ed.note {
        m.colored_label(egui::Color32::from_rgb(250, 210, 120), n);
    }
    if let Some(p) = &ed.problem {
        m.colored_label(egui::Color32::from_rgb(240, 140, 120), p);
    }
    if let Some(s) = &ed.saved {
        m.small(s);
    }
}

/// The new-scene dialog.
fn new_scene(w: &mut egui::Ui, ui: &mut EditorUi, out: &mut MessageWriter<EditorCommand>) {
    w.collapsing("New scene", |c| {
        c.horizontal(|h| {
            h.radio_value(&mut ui.new.0, true, "indoors");
            h.radio_value(&mut ui.new.0, false, "outdoors");
        });
        c.horizontal(|h| {
            h.label("wide");
            h.add(
                egui::DragValue::new(&mut ui.new.1)
                    .range(5.0..=2000.0)
                    .suffix(" ft"),
            );
            h.label("deep");
            h.add(
                egui::DragValue::new(&mut ui.new.2)
                    .range(5.0..=2000.0)
                    .suffix(" ft"),
            );
            h.label("cell");
            h.add(
                egui::DragValue::new(&mut ui.new.3)
                    .range(1.0..=100.0)
                    .suffix(" ft"),
            );
        });
        if c.button("new, empty").clicked() {
            let setting = if ui.new.0 {
                Setting::Indoors
            } else {
                Setting::Outdoors
            };
            out.write(EditorCommand::Edit(Edit::New {
                setting,
                width_ft: ui.new.1,
                height_ft: ui.new.2,
                cell_ft: ui.new.3,
            }));
        }
    });
}

/// The map tools.
fn tools(w: &mut egui::Ui, ui: &mut EditorUi) {
    w.label("Map (left click on the map)");
    w.horizontal_wrapped(|h| {
        h.selectable_value(&mut ui.tool, Tool::Select, "select / drag");
        for (kind, name) in [
            (CellKind::Wall, "wall"),
            (CellKind::Floor, "floor"),
            (CellKind::DoorClosed, "door (closed)"),
            (CellKind::DoorOpen, "door (open)"),
            (CellKind::Pillar, "pillar"),
            (CellKind::Water, "water"),
            (CellKind::Scrub, "scrub"),
            (CellKind::Forest, "forest"),
            (CellKind::Marsh, "marsh"),
        ] {
            h.selectable_value(&mut ui.tool, Tool::Paint(kind), name);
        }
    });
    w.horizontal_wrapped(|h| {
        for l in tables::lights() {
            h.selectable_value(
                &mut ui.tool,
                Tool::Light(l.name.clone()),
                format!("+{}", l.name),
            );
        }
        h.selectable_value(&mut ui.tool, Tool::EraseLight, "remove light");
    });
    w.checkbox(&mut ui.snap, "snap moved tokens to cell centres");
}

/// Adding figures, and the selected figure's form.
fn figures(
    w: &mut egui::Ui,
    ed: &Editor,
    ui: &mut EditorUi,
    selection: &mut Selection,
    out: &mut MessageWriter<EditorCommand>,
) {
    let Some(scene) = ed.scene.as_ref() else {
        return;
    };
    // New figures go to open ground near a point of the map: characters a quarter of the
    // way across, monsters three quarters, so the two sides do not land among each other.
    let across = |part: f64| {
        scene.map.as_ref().map_or((20.0 + 40.0 * part, 20.0), |m| {
            let h = m.rows.len() as f64 * m.cell_ft;
            let wdt = m.rows.first().map_or(0, |r| r.chars().count()) as f64 * m.cell_ft;
            (wdt * part, h / 2.0)
        })
    };
    let (party_at, monsters_at) = (across(0.25), across(0.75));
    // Every figure, to select (the panel's own list gives way to the editor while editing).
    // A short list of its own, so the chosen figure's form stays near, in view.
    w.label(format!("Figures ({})", scene.combatants.len()));
    let newly_chosen = selection.0 != ui.listed;
    // Of a fixed height: a figure added never moves the buttons below under the pointer.
    egui::ScrollArea::vertical()
        .id_salt("figure list")
        .auto_shrink([false, false])
        .max_height(140.0)
        .show(w, |l| {
            for (i, c) in scene.combatants.iter().enumerate() {
                let picked = selection.0 == Some(i);
                let row = l.selectable_label(picked, format!("{} — {}", c.name, c.side));
                if picked && newly_chosen {
                    row.scroll_to_me(None);
                }
                if row.clicked() {
                    selection.0 = if picked { None } else { Some(i) };
                }
            }
        });
    ui.listed = selection.0;
    w.horizontal_wrapped(|h| {
        h.add(
            egui::TextEdit::singleline(&mut ui.monster_filter)
                .hint_text("find a monster")
                .desired_width(110.0),
        );
        let found = tables::monsters_matching(&ui.monster_filter);
        let choice = monster_choice(&ui.monster_filter, &ui.monster);
        if let Some(m) = choice {
            ui.monster.clone_from(&m.name);
        }
        let can_add = choice.is_some();
        egui::ComboBox::from_id_salt("monster")
            .selected_text(ui.monster.clone())
            .height(320.0)
            .show_ui(h, |c| {
                if found.is_empty() {
                    c.weak("no monster of that name");
                }
                for m in found {
                    c.selectable_value(&mut ui.monster, m.name.clone(), &m.name)
                        .on_hover_text(m.summary());
                }
            })
            .response
            .on_hover_text(tables::monster(&ui.monster).map_or_else(|e| e, |m| m.summary()));
        h.add(
            egui::DragValue::new(&mut ui.squad)
                .range(1..=crate::scene::limits::SQUAD)
                // A figure per 20 pixels dragged (a click types a number).
                .speed(0.05)
                .prefix("× "),
        )
        .on_hover_text(format!(
            "how many: a squad is named Orc 1 to Orc N and spread in a block \
             (at most {} at once: add another squad for more)",
            crate::scene::limits::SQUAD
        ));
        if ui.squad >= crate::scene::limits::SQUAD {
            h.weak(format!("(at most {})", crate::scene::limits::SQUAD));
        }
        if h.add_enabled(can_add, egui::Button::new("add monster"))
            .on_disabled_hover_text("no monster of that name: change what is typed")
            .clicked()
        {
            let spec = Box::new(CombatantSpec {
                name: title(&ui.monster),
                side: "Monsters".into(),
                at: snapped(scene, monsters_at),
                monster: Some(ui.monster.clone()),
                ..CombatantSpec::default()
            });
            let edit = if ui.squad > 1 {
                Edit::AddSquad {
                    spec,
                    count: ui.squad,
                }
            } else {
                Edit::AddFigure(spec)
            };
            out.write(EditorCommand::Edit(edit));
        }
        if h.button("add character").clicked() {
            let mut spec = CombatantSpec {
                name: "Fighter".into(),
                side: "Party".into(),
                at: snapped(scene, party_at),
                // The class and level give THAC0, attacks, saves and hit points.
                level: Some(1),
                ..CombatantSpec::default()
            };
            redress(&mut spec, Some("fighter"));
            out.write(EditorCommand::Edit(Edit::AddFigure(Box::new(spec))));
        }
    });
    let selected = selection.0.filter(|&i| i < scene.combatants.len());
    if let Some(edit) = follow_form(scene, selected, ui) {
        out.write(EditorCommand::Edit(edit));
    }
    let Some(i) = selected else {
        w.small("Click a token to select it; right-click it to declare.");
        return;
    };
    let name = scene.combatants[i].name.clone();
    let Some(form) = ui.form.as_mut() else { return };
    // A figure just chosen: the panel scrolls its form to the top, in view.
    if newly_chosen {
        w.scroll_to_cursor(Some(egui::Align::TOP));
    }
    // The form says whose it is (scrolled, the list's last row above it read as its
    // title to an outside tester).
    w.separator();
    w.heading(format!("{name} ({})", scene.combatants[i].side));
    // Changes not applied yet are said at the top, where they are seen.
    let changed = ui.form_base.as_ref().is_some_and(|base| form != base);
    w.horizontal(|h| {
        if changed {
            h.colored_label(
                egui::Color32::from_rgb(250, 210, 120),
                "changes not applied:",
            );
        }
        if h.add_enabled(changed, egui::Button::new("apply"))
            .on_hover_text("choosing another figure applies them too")
            .clicked()
        {
            out.write(EditorCommand::Edit(Edit::Replace {
                figure: name.clone(),
                spec: Box::new(form.clone()),
            }));
        }
        if h.add_enabled(changed, egui::Button::new("revert"))
            .clicked()
        {
            *form = scene.combatants[i].clone();
        }
    });
    form_fields(w, form);
    w.horizontal(|h| {
        h.add(egui::DragValue::new(&mut ui.copies).range(1..=50));
        if h.button("more like it").clicked() {
            out.write(EditorCommand::Edit(Edit::Duplicate {
                figure: name.clone(),
                count: ui.copies,
            }));
        }
        if h.button("delete").clicked() {
            out.write(EditorCommand::Edit(Edit::Delete {
                figure: name.clone(),
            }));
            selection.0 = None;
        }
    });
    w.horizontal(|h| {
        h.label("round");
        h.add(egui::DragValue::new(&mut ui.round).range(1..=1000));
        let declared = scene
            .rounds
            .get(ui.round - 1)
            .and_then(|r| r.declare.get(&name))
            .map_or("nothing declared".into(), |a| a.verb());
        h.label(format!("{name}: {declared}"));
    });
}

/// Applies what is typed in the open figure form and not applied yet, as an edit of its
/// own (undo takes it back), before anything this frame that saves or drops the scene on
/// screen (save, opening another, reloading, switching the rules, quitting): the guard
/// then asks about it, and a save writes it, instead of it vanishing with the form.
/// Runs before the editor and the reload read those requests.
pub(super) fn flush_form(
    world: &mut World,
    mut commands: Local<bevy::ecs::message::MessageCursor<EditorCommand>>,
    mut requests: Local<bevy::ecs::message::MessageCursor<super::ViewerRequest>>,
) {
    let saving = commands
        .read(world.resource::<Messages<EditorCommand>>())
        .any(|c| *c == EditorCommand::Save);
    let leaving = requests
        .read(world.resource::<Messages<super::ViewerRequest>>())
        .any(|r| super::editor::Pending::of(r).is_some());
    if !(saving || leaving) || !world.contains_resource::<EditorUi>() {
        return;
    }
    let edit = world.resource_scope(|world, mut ui: Mut<EditorUi>| {
        let scene = world.resource::<Editor>().scene.as_ref()?;
        follow_form(scene, None, &mut ui)
    });
    if let Some(e) = edit {
        super::editor::make_edit(world, e);
    }
}

/// Keeps the form on the selected figure (`selected`), and says the edit, if any, that
/// applies the last form's changes not applied yet to its own figure: choosing another
/// figure, or none, applies them (undo takes them back) — what was typed is never dropped
/// without a word. A form is its figure's by name (names are unique in a scene; a loaded
/// scene clears the form, see [`EditorUi::forget_scene`]). The figure changed outside the
/// form (applied, dragged, undone, reloaded): the form takes each changed field the DM has
/// not changed in it, and keeps the DM's.
pub fn follow_form(scene: &Scene, selected: Option<usize>, ui: &mut EditorUi) -> Option<Edit> {
    let now = selected.and_then(|i| scene.combatants.get(i));
    if let (Some(now), Some(base), Some(form)) = (now, ui.form_base.as_mut(), ui.form.as_mut())
        && (now.name == base.name || now == form)
    {
        if base != now {
            *form = rebase(form, base, now);
            *base = now.clone();
        }
        return None;
    }
    // Leaving the form: its changes go to its own figure, if that is still as it was.
    let leave = match (ui.form_base.take(), ui.form.take()) {
        (Some(base), Some(form))
            if form != base && scene.combatant(&base.name).is_some_and(|c| *c == base) =>
        {
            Some(Edit::Replace {
                figure: base.name.clone(),
                spec: Box::new(form),
            })
        }
        _ => None,
    };
    if let Some(now) = now {
        ui.form = Some(now.clone());
        ui.form_base = Some(now.clone());
    }
    leave
}

/// The form after its figure changed from `base` to `now` outside it: each field the DM
/// left as it was takes the figure's new value; each field the DM changed stays.
fn rebase(form: &CombatantSpec, base: &CombatantSpec, now: &CombatantSpec) -> CombatantSpec {
    use serde_json::{Map, Value, to_value};
    let object = |c: &CombatantSpec| match to_value(c) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    let (f, b, n) = (object(form), object(base), object(now));
    let keys: std::collections::BTreeSet<&String> =
        f.keys().chain(b.keys()).chain(n.keys()).collect();
    let mut merged = Map::new();
    for k in keys {
        let pick = if f.get(k) == b.get(k) {
            n.get(k)
        } else {
            f.get(k)
        };
        if let Some(v) = pick {
            merged.insert(k.clone(), v.clone());
        }
    }
    serde_json::from_value(Value::Object(merged)).unwrap_or_else(|_| now.clone())
}

/// The form's fields, with the tables as drop-downs and the rules' ranges.
fn form_fields(w: &mut egui::Ui, f: &mut CombatantSpec) {
    egui::Grid::new("figure form").num_columns(2).show(w, |g| {
        g.label("name");
        g.text_edit_singleline(&mut f.name);
        g.end_row();
        g.label("side");
        g.text_edit_singleline(&mut f.side);
        g.end_row();
        g.label("class, level");
        g.horizontal(|h| {
            let was = f.class.clone();
            egui::ComboBox::from_id_salt("class")
                .selected_text(f.class.clone().unwrap_or_else(|| "(none)".into()))
                .show_ui(h, |c| {
                    c.selectable_value(&mut f.class, None, "(none)");
                    for k in tables::classes() {
                        c.selectable_value(&mut f.class, Some(k.name.clone()), &k.name);
                    }
                });
            if f.class != was {
                let new = f.class.clone();
                f.class = was;
                redress(f, new.as_deref());
            }
            if f.class.is_some() {
                let mut level = f.level.unwrap_or(1);
                h.add(egui::DragValue::new(&mut level).range(crate::rules::class::LEVELS))
                    .on_hover_text("the level gives THAC0, attacks, saves and hit points (DMG p.74, p.79, p.25) unless the form gives them");
                f.level = Some(level);
            } else {
                f.level = None;
            }
        });
        g.end_row();
        g.label("weapon");
        // A monster's own weapon shows as what the table gives it, until overridden.
        let table_weapon = f
            .monster
            .as_deref()
            .and_then(|m| tables::monster(m).ok())
            .and_then(|m| m.weapon.clone());
        let unset = match &table_weapon {
            Some(w) => format!("(the table's: {w})"),
            None => "(none)".into(),
        };
        egui::ComboBox::from_id_salt("weapon")
            .selected_text(f.weapon.clone().unwrap_or_else(|| unset.clone()))
            .show_ui(g, |c| {
                c.selectable_value(&mut f.weapon, None, unset.as_str());
                for wpn in tables::weapons() {
                    c.selectable_value(&mut f.weapon, Some(wpn.name.clone()), &wpn.name);
                }
            });
        g.end_row();
        g.label("armor");
        egui::ComboBox::from_id_salt("armor")
            .selected_text(f.armor.map_or("(as given)".into(), |a| format!("{a:?}")))
            .show_ui(g, |c| {
                c.selectable_value(&mut f.armor, None, "(as given)");
                for a in [Armor::None, Armor::Leather, Armor::Chain, Armor::Plate] {
                    c.selectable_value(&mut f.armor, Some(a), format!("{a:?}"));
                }
            });
        g.end_row();
        g.label("size");
        g.horizontal(|h| {
            h.selectable_value(&mut f.size, None, "(as given)");
            for s in [Size::S, Size::M, Size::L, Size::H] {
                h.selectable_value(&mut f.size, Some(s), s.letter().to_string());
            }
        });
        g.end_row();
        // What the tables give (its monster, class and level, armor) shows where the form
        // gives nothing, and is where an override starts.
        let given = crate::scene::figure::FigureStats::resolve(f).ok();
        let by = |pick: &dyn Fn(&crate::scene::figure::FigureStats) -> f64| given.as_ref().map(pick);
        number(g, "load (lb)", &mut f.load_lb, 0..=5000, None);
        number(g, "hp", &mut f.hp, 1..=1000, by(&|s| f64::from(s.hp)));
        number(g, "AC", &mut f.ac, -10..=10, by(&|s| f64::from(s.ac)));
        number(g, "THAC0", &mut f.thac0, -10..=30, by(&|s| f64::from(s.thac0)));
        let hd = by(&|s| f64::from(s.hit_dice.unwrap_or(0)));
        number(g, "hit dice", &mut f.hit_dice, 0..=50, hd);
        number(g, "Dexterity", &mut f.dexterity, 3..=25, by(&|s| f64::from(s.dexterity)));
        let moves = by(&|s| f64::from(s.movement.0));
        number(g, "movement (\")", &mut f.movement, 0..=60, moves);
        g.label("attacks");
        g.horizontal(|h| {
            let mut on = f.attacks.is_some();
            if h.checkbox(&mut on, "").changed() {
                f.attacks = on.then_some(AttackRate {
                    routines: 1,
                    per_rounds: 1,
                });
            }
            if let Some(a) = f.attacks.as_mut() {
                h.add(egui::DragValue::new(&mut a.routines).range(1..=12));
                h.label("per");
                h.add(egui::DragValue::new(&mut a.per_rounds).range(1..=2));
                h.label("rounds");
            } else {
                h.weak("default");
            }
        });
        g.end_row();
        let infra = by(&|s| s.infravision_ft.unwrap_or(0.0));
        number(g, "infravision (ft)", &mut f.infravision_ft, 0.0..=1000.0, infra);
        g.label("light");
        egui::ComboBox::from_id_salt("light")
            .selected_text(f.light.clone().unwrap_or_else(|| "(none)".into()))
            .show_ui(g, |c| {
                c.selectable_value(&mut f.light, None, "(none)");
                for l in tables::lights() {
                    c.selectable_value(&mut f.light, Some(l.name.clone()), &l.name);
                }
            });
        g.end_row();
    });
}

/// An optional number: a checkbox to give it, a drag value within its range. Not given, it
/// shows `given` (what the tables make of the figure), where ticking it starts.
fn number<T>(
    g: &mut egui::Ui,
    label: &str,
    v: &mut Option<T>,
    range: std::ops::RangeInclusive<T>,
    given: Option<f64>,
) where
    T: egui::emath::Numeric + Copy,
{
    g.label(label);
    g.horizontal(|h| {
        let mut on = v.is_some();
        if h.checkbox(&mut on, "")
            .on_hover_text("tick to give your own number")
            .changed()
        {
            let start = given.map_or(*range.start(), |n| {
                T::from_f64(n.clamp(range.start().to_f64(), range.end().to_f64()))
            });
            *v = on.then_some(start);
        }
        if let Some(x) = v.as_mut() {
            h.add(egui::DragValue::new(x).range(range));
        } else {
            match given {
                Some(n) => h.weak(format!("{} (the tables')", T::from_f64(n).to_f64())),
                None => h.weak("default"),
            };
        }
    });
    g.end_row();
}

/// Gives a figure the class `class` (or none): its weapon, armor and armor class become the
/// new class's kit where they were the old class's (or not given, for a character), and
/// stay where the DM chose them — a magic-user made from a fighter drops the long sword and
/// the chain, a fighter given a magic sword keeps it, and a monster keeps its own.
pub fn redress(f: &mut CombatantSpec, class: Option<&str>) {
    let kit = |name: Option<&str>| name.and_then(|n| tables::class(n).ok()).map(|c| &c.kit);
    let (old, new) = (kit(f.class.as_deref()), kit(class));
    // A field not given is the old class's kit to change, unless the figure is a monster:
    // then it is the monster's own (an orc keeps its AC 6 and long sword as a shaman).
    let monster = f.monster.is_some();
    let was_kit = |given: bool, same: &dyn Fn(&crate::rules::class::Kit) -> bool| {
        (!given && !monster) || old.is_some_and(same)
    };
    if was_kit(f.weapon.is_some(), &|k| {
        f.weapon.as_deref() == Some(&k.weapon)
    }) {
        f.weapon = new.map(|k| k.weapon.clone());
    }
    if was_kit(f.armor.is_some(), &|k| f.armor == Some(k.armor)) {
        f.armor = new.map(|k| k.armor);
    }
    if was_kit(f.ac.is_some(), &|k| f.ac == Some(k.ac)) {
        f.ac = new.map(|k| k.ac);
    }
    f.class = class.map(str::to_string);
    if f.class.is_some() {
        f.level = f.level.or(Some(1));
    }
}

/// The monster "add monster" adds: the one chosen in the list while it matches what is
/// typed in the find field, else the first that does; none when nothing does (the button
/// is then off, rather than adding the monster chosen before the search).
pub fn monster_choice(typed: &str, chosen: &str) -> Option<&'static tables::Monster> {
    let found = tables::monsters_matching(typed);
    found
        .iter()
        .find(|m| m.name == chosen)
        .or(found.first())
        .copied()
}

/// A monster's name as a figure's: "orc" → "Orc".
fn title(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

/// The token's context menu, for a group at once: the figures boxed on the map when this
/// one is among them, else its whole side — each figure's own declaration made from one
/// order (`Edit::DeclareGroup`). True when it should close.
fn group_menu(
    m: &mut egui::Ui,
    (scene, boxed): (&Scene, &[String]),
    name: &str,
    round: usize,
    out: &mut MessageWriter<EditorCommand>,
) -> bool {
    use crate::scene::edit::GroupOrder as G;
    let Some(side) = scene.combatant(name).map(|c| c.side.clone()) else {
        return false;
    };
    // Only those still in the scene (a box outlives deletions and renames).
    let boxed: Vec<String> = boxed
        .iter()
        .filter(|b| scene.combatant(b).is_some())
        .cloned()
        .collect();
    let (figures, whom) = if boxed.len() > 1 && boxed.iter().any(|b| b == name) {
        let whom = format!("the {} in the box", boxed.len());
        (boxed, whom)
    } else {
        let side_figures: Vec<String> = scene
            .combatants
            .iter()
            .filter(|c| c.side == side)
            .map(|c| c.name.clone())
            .collect();
        let whom = format!("all {} of side {side}", side_figures.len());
        (side_figures, whom)
    };
    if figures.len() < 2 {
        return false;
    }
    m.separator();
    m.strong(format!("{whom}, round {round}"));
    // Nearest by where each stands when the scene starts (said after round 1, when the
    // figures may have moved).
    let from = if round > 1 { " (where they start)" } else { "" };
    let mut close = false;
    for (order, label) in [
        (G::MeleeNearest, "melee the nearest foe"),
        (G::MissileNearest, "missile at the nearest foe"),
        (G::ChargeNearest, "charge the nearest foe"),
        (G::Hold, "hold"),
        (G::Clear, "clear"),
    ] {
        let nearest = matches!(
            order,
            G::MeleeNearest | G::MissileNearest | G::ChargeNearest
        );
        let label = format!("{label}{}", if nearest { from } else { "" });
        if m.button(label).clicked() {
            out.write(EditorCommand::Edit(Edit::DeclareGroup {
                round,
                figures: figures.clone(),
                order,
            }));
            close = true;
        }
    }
    close
}

/// The token's context menu: what it does this round. True when it should close.
fn declare_menu(
    m: &mut egui::Ui,
    (name, scene): (&str, Option<&Scene>),
    ui: &mut EditorUi,
    out: &mut MessageWriter<EditorCommand>,
) -> bool {
    m.strong(format!("{name}, round {}", ui.round));
    let mut close = false;
    let pick = |kind: &'static str, spell: Option<(String, Option<u32>)>, ui: &mut EditorUi| {
        ui.pick = Some(Pick {
            figure: name.to_string(),
            kind,
            spell,
        });
    };
    for (kind, label) in [
        ("charge", "charge : click the target or a point"),
        ("melee", "melee : click the target"),
        ("close", "close : click the target"),
        ("missile", "missile : click the target"),
        ("move", "move : click a point or a figure"),
        ("turn", "turn undead : click the undead"),
    ] {
        if m.button(label).clicked() {
            pick(kind, None, ui);
            close = true;
        }
    }
    // Opened in place (not a pop-up sub-menu, which a click in its find field closed).
    egui::CollapsingHeader::new("cast or use a device : pick it, then its target")
        .id_salt("cast list")
        .show(m, |s| {
            s.horizontal(|h| {
                h.label("find");
                h.add(egui::TextEdit::singleline(&mut ui.spell_filter).hint_text("part of a name"));
            });
            // In alphabetical order, narrowed to the names holding what is typed.
            let wanted = ui.spell_filter.trim().to_lowercase();
            let mut spells: Vec<&tables::Spell> = tables::spells()
                .iter()
                .filter(|sp| sp.name.to_lowercase().contains(&wanted))
                .collect();
            spells.sort_by_key(|sp| sp.name.to_lowercase());
            egui::ScrollArea::vertical().max_height(240.0).show(s, |s| {
                if spells.is_empty() {
                    s.weak("no spell or device of that name");
                }
                for sp in spells {
                    let device = if sp.device { ", a device" } else { "" };
                    if s.button(format!("{} ({} seg{device})", sp.name, sp.segments))
                        .clicked()
                    {
                        pick("cast", Some((sp.name.clone(), None)), ui);
                        close = true;
                    }
                }
            });
            s.horizontal(|h| {
                h.add(egui::DragValue::new(&mut ui.custom_segments).range(0..=100));
                if h.button("a spell of this many segments").clicked() {
                    pick("cast", Some(("spell".into(), Some(ui.custom_segments))), ui);
                    close = true;
                }
            });
        });
    let mut now = |act: Option<Act>| {
        out.write(EditorCommand::Edit(Edit::Declare {
            round: ui.round,
            figure: name.to_string(),
            act,
        }));
    };
    if m.button("set vs charge").clicked() {
        now(Some(Act::Set {
            against: Vec::new(),
        }));
        close = true;
    }
    if m.button("potion").clicked() {
        now(Some(Act::Potion {
            name: "potion of healing".into(),
            prepare: 1,
        }));
        close = true;
    }
    if m.button("hold").clicked() {
        now(Some(Act::Hold));
        close = true;
    }
    if m.button("other (a non-combat act)").clicked() {
        now(Some(Act::Other("other".into())));
        close = true;
    }
    if m.button("clear").clicked() {
        now(None);
        close = true;
    }
    if let Some(scene) = scene {
        close |= group_menu(m, (scene, &ui.group), name, ui.round, out);
    }
    m.separator();
    if m.button("cancel").clicked() {
        close = true;
    }
    close
}

/// The round's declarations drawn on the map before it is played: a line from each figure
/// to its target or point, with an arrowhead — from where the figures stand on screen.
pub(super) fn draw_declarations(
    mut gizmos: Gizmos,
    editor: Res<Editor>,
    ui: Res<EditorUi>,
    playback: Option<Res<super::playback::Playback>>,
) {
    let Some(scene) = editor.scene.as_ref() else {
        return;
    };
    let Some(round) = scene.rounds.get(ui.round - 1) else {
        return;
    };
    let shown = playback.as_ref().map(|p| p.current());
    let at = |n: &str| {
        shown
            .and_then(|s| s.figures.iter().find(|f| f.name == n).map(|f| f.at))
            .or_else(|| scene.combatants.iter().find(|c| c.name == n).map(|c| c.at))
    };
    // A box being dragged round a group, and the group the last box took in.
    if let (Some(a), Some(b)) = (ui.boxing, ui.hover) {
        let (a, b) = (super::camera::world_of(a), super::camera::world_of(b));
        gizmos.rect_2d((a + b) / 2.0, (b - a).abs(), style::GROUP);
    }
    for name in &ui.group {
        if let Some(p) = at(name) {
            let ring = style::TOKEN_FT * 2.0;
            gizmos.circle_2d(super::camera::world_of(p), ring, style::GROUP);
        }
    }
    // Choosing where an area spell goes: its template follows the pointer.
    if let (Some(pick), Some(here)) = (&ui.pick, ui.hover)
        && let Some((spell, _)) = &pick.spell
        && let Some(r) = tables::spell_area_ft(spell)
    {
        super::map_view::dashed_area(&mut gizmos, here, r);
    }
    for (who, act) in &round.declare {
        let Some(from) = at(who) else { continue };
        let to = act.targets().first().and_then(|t| at(t)).or(match act {
            Act::Charge { to, .. } | Act::Move { to, .. } => *to,
            Act::Cast { at, .. } => *at,
            _ => None,
        });
        // An area spell declared at a point or a figure: its area, where it will fall (an
        // outside tester's sleep at a goblin showed none, and took in the caster's own).
        if let Act::Cast {
            spell, at: point, ..
        } = act
            && let Some(r) = tables::spell_area_ft(spell)
            && let Some(p) = (*point).or(to)
        {
            super::map_view::dashed_area(&mut gizmos, p, r);
        }
        let Some(to) = to else { continue };
        let color = match act {
            Act::Charge { .. } => style::CHARGE_DECLARED,
            Act::Cast { .. } => style::SPELL_DECLARED,
            _ => style::ACT_DECLARED,
        };
        let (a, b) = (super::camera::world_of(from), super::camera::world_of(to));
        gizmos.arrow_2d(a, b, color).with_tip_length(2.5);
    }
}
