//! The egui panels: the top bar (scene picker, playback, layers), the clock and the
//! selected figure on the left, the round's timeline on the right, the event log with its
//! citations at the bottom, the error window of a broken scene edit, and the help window
//! listing every binding from the input map.

use super::input::ViewerAction;
use super::playback::{Playback, PlaybackCommand, SPEEDS};
use super::ruler::Ruler;
use super::snapshot::{FigureView, Snapshot};
use super::source::SceneSource;
use super::style::plain;
use super::{Layers, Selection, ViewerRequest};
use crate::map::measure;
use crate::rules::options::RulesSystem;
use crate::sim::{EventLog, Phase};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use leafwing_input_manager::prelude::*;

/// The window area (logical pixels) the panels leave to the map.
#[derive(Resource, Clone, Debug, Default)]
pub struct PanelRects {
    /// Left, right, top and bottom panel sizes.
    pub left: f32,
    /// Right panel width.
    pub right: f32,
    /// Top bar height.
    pub top: f32,
    /// Bottom panel height.
    pub bottom: f32,
    /// In the editor: the part of the left panel under the clock where the editor is
    /// docked (it never covers the clock, and the map keeps the rest of the window).
    pub dock: Option<egui::Rect>,
}

impl PanelRects {
    /// The free rectangle in a window of this size.
    pub fn free(&self, width: f32, height: f32) -> Rect {
        Rect::new(
            self.left,
            self.top,
            (width - self.right).max(self.left + 1.0),
            (height - self.bottom).max(self.top + 1.0),
        )
    }
}

/// The left panel's width while editing: the clock above, the editor docked below.
pub const EDIT_LEFT: f32 = 340.0;

/// The side panels' widths in a window `width` points wide: as designed (the left
/// `left`, the right 360) while the map keeps at least [`MAP_MIN`] between them; in a
/// narrower window both give way in proportion, down to [`SIDE_MIN`] each (at 640 points
/// the two filled the window and the map was gone, a first-time DM found).
pub fn side_widths(width: f32, left: f32) -> (f32, f32) {
    const RIGHT: f32 = 360.0;
    let room = (width - MAP_MIN).max(0.0);
    if room >= left + RIGHT {
        return (left, RIGHT);
    }
    let k = room / (left + RIGHT);
    ((left * k).max(SIDE_MIN), (RIGHT * k).max(SIDE_MIN))
}

/// The least width the map keeps between the side panels, while they can give way.
pub const MAP_MIN: f32 = 320.0;

/// The least width of a side panel.
pub const SIDE_MIN: f32 = 170.0;

/// The bindings of an action as text, from the input map.
fn bindings(map: &InputMap<ViewerAction>, action: ViewerAction) -> String {
    use leafwing_input_manager::user_input::UserInputWrapper as W;
    let list = map.get(&action).unwrap_or_default();
    let names: Vec<String> = list
        .iter()
        .map(|w| match w {
            W::Button(b) => super::input::readable(&format!("{b:?}")),
            W::Axis(_) if action == ViewerAction::Zoom => "Q, E".into(),
            W::Axis(_) if action == ViewerAction::WheelZoom => "mouse wheel".into(),
            W::DualAxis(_) if action == ViewerAction::Pan => "W A S D".into(),
            W::DualAxis(_) => "mouse".into(),
            other => format!("{other:?}"),
        })
        .collect();
    let mut names = names;
    names.dedup();
    names.join(", ")
}

/// What the panels' switches and lists change: the layers, the selection, the panel
/// sizes, table dice, the odds panel and teaching.
#[derive(SystemParam)]
pub(super) struct PanelSwitches<'w> {
    layers: ResMut<'w, Layers>,
    selection: ResMut<'w, Selection>,
    rects: ResMut<'w, PanelRects>,
    mode: Res<'w, State<super::ViewerMode>>,
    next_mode: ResMut<'w, NextState<super::ViewerMode>>,
    odds: ResMut<'w, super::odds_panel::OddsPanel>,
    teach: ResMut<'w, super::teach::Teach>,
}

/// What the panels show besides the playback: the scene file's state, the ruler and the
/// key bindings (for help).
#[derive(SystemParam)]
pub(super) struct PanelReads<'w, 's> {
    source: Res<'w, SceneSource>,
    ruler: Res<'w, Ruler>,
    input_map: Query<'w, 's, &'static InputMap<ViewerAction>>,
    preview: Option<Res<'w, super::ahead::Preview>>,
    /// The editor: what a save (Ctrl+S) out of edit mode came to is said in the top bar.
    editor: Option<Res<'w, super::editor::Editor>>,
}

/// What the panels ask of the playback and of the viewer.
#[derive(SystemParam)]
pub(super) struct PanelMessages<'w> {
    commands: MessageWriter<'w, PlaybackCommand>,
    requests: MessageWriter<'w, ViewerRequest>,
}

/// The window while no scene plays: a file opened broken, or none. In the editor its
/// panel is docked on the left, to mend the file; the reasons it does not play fill the
/// rest.
fn nothing_plays(
    root: &mut egui::Ui,
    source: &super::SceneSource,
    rects: &mut PanelRects,
    mode: super::ViewerMode,
) {
    rects.dock = None;
    if mode == super::ViewerMode::Edit {
        rects.left = egui::Panel::left("left")
            .exact_size(EDIT_LEFT)
            .resizable(false)
            .show(root, |ui| {
                let r = ui.available_rect_before_wrap();
                ui.allocate_rect(r, egui::Sense::hover());
                rects.dock = Some(r);
            })
            .response
            .rect
            .width();
    }
    egui::CentralPanel::default().show(root, |ui| {
        ui.heading(if rects.dock.is_some() {
            "Nothing plays until the scene passes its checks: mend it in the editor"
        } else {
            "No scene"
        });
        if let Some(e) = &source.error {
            ui.monospace(e);
        }
    });
}

pub(super) fn panels(
    mut contexts: EguiContexts,
    playback: Option<Res<Playback>>,
    events: Option<Res<EventLog>>,
    read: PanelReads,
    switches: PanelSwitches,
    out: PanelMessages,
) -> Result {
    let PanelReads {
        source,
        ruler,
        input_map,
        preview,
        editor,
    } = read;
    let PanelMessages {
        mut commands,
        mut requests,
    } = out;
    let PanelSwitches {
        mut layers,
        mut selection,
        mut rects,
        mode,
        mut next_mode,
        mut odds,
        mut teach,
    } = switches;
    let ctx = contexts.ctx_mut()?.clone();
    let ctx = &ctx;
    // Panels are laid out inside one background Ui covering the window (egui 0.36).
    let mut root = egui::Ui::new(
        ctx.clone(),
        "viewport".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    let Some(pb) = playback else {
        nothing_plays(&mut root, &source, &mut rects, *mode.get());
        return Ok(());
    };
    let snap = pb.current();

    rects.top = egui::Panel::top("top")
        .show(&mut root, |ui| {
            ui.horizontal_wrapped(|ui| {
                // A new scene the editor holds is no file yet: the picker does not name the
                // file it came from as if it were open.
                let unsaved_new = editor
                    .as_deref()
                    .is_some_and(|ed| ed.scene.is_some() && ed.path.is_none());
                let current = if unsaved_new {
                    "(new, not saved)".to_string()
                } else {
                    source
                        .path
                        .file_stem()
                        .map(|s| s.to_string_lossy().to_string())
                        .unwrap_or_default()
                };
                egui::ComboBox::from_id_salt("scene")
                    .selected_text(&current)
                    .width(170.0)
                    .show_ui(ui, |ui| {
                        for p in &source.library {
                            let stem = p.file_stem().unwrap_or_default().to_string_lossy();
                            let name = if super::source::is_library_copy(p) {
                                format!("{stem} (built in)")
                            } else {
                                stem.to_string()
                            };
                            if ui.selectable_label(*p == source.path, name).clicked() {
                                requests.write(ViewerRequest::Open(p.clone()));
                            }
                        }
                    });
                ui.separator();
                for (label, c) in [
                    ("⏮", PlaybackCommand::PrevRound),
                    ("◀", PlaybackCommand::Back),
                    (
                        if pb.playing { "⏸" } else { "▶" },
                        PlaybackCommand::TogglePlay,
                    ),
                    ("▶|", PlaybackCommand::Forward),
                    ("⏭", PlaybackCommand::NextRound),
                ] {
                    if ui.button(label).clicked() {
                        commands.write(c);
                    }
                }
                egui::ComboBox::from_id_salt("speed")
                    .selected_text(format!("{} seg/s", pb.speed))
                    .width(80.0)
                    .show_ui(ui, |ui| {
                        for s in SPEEDS {
                            if ui
                                .selectable_label(s == pb.speed, format!("{s} seg/s"))
                                .clicked()
                            {
                                let c = if s > pb.speed {
                                    PlaybackCommand::Faster
                                } else {
                                    PlaybackCommand::Slower
                                };
                                let steps = SPEEDS
                                    .iter()
                                    .filter(|&&x| (x > pb.speed.min(s)) && (x <= pb.speed.max(s)))
                                    .count();
                                for _ in 0..steps {
                                    commands.write(c.clone());
                                }
                            }
                        }
                    });
                ui.separator();
                ui.checkbox(&mut layers.grid, "grid");
                ui.checkbox(&mut layers.light, "light");
                ui.checkbox(&mut layers.sight, "sight");
                ui.checkbox(&mut layers.paths, "paths");
                ui.checkbox(&mut layers.rings, "rings");
                if !pb.scene.tour.is_empty() {
                    ui.checkbox(&mut layers.tour, "tour")
                        .on_hover_text("the scene's tour captions above the log");
                }
                ui.separator();
                if ui.button("fit").clicked() {
                    requests.write(ViewerRequest::Fit);
                }
                if ui.button("reload").clicked() {
                    requests.write(ViewerRequest::Reload);
                }
                if ui
                    .button("edit (B)")
                    .on_hover_text("build your own encounter: paint, place, declare, save")
                    .clicked()
                {
                    requests.write(ViewerRequest::ToggleEdit);
                }
                ui.checkbox(&mut odds.open, "odds (O)").on_hover_text(
                    "how likely is it: the scene played many times, its dice rolled afresh",
                );
                // One mode at a time: ticking one leaves the mode before.
                use super::ViewerMode as M;
                for (m, label, tip) in [
                    (
                        M::TableDice,
                        "table dice (X)",
                        "type what your dice showed for each roll the scene does not fix",
                    ),
                    (
                        M::Predict,
                        "predict (K)",
                        "predict, then see: answer before each beat is played, then read its rule",
                    ),
                ] {
                    let mut on = *mode.get() == m;
                    if ui.checkbox(&mut on, label).on_hover_text(tip).changed() {
                        super::mode::switch(&mode, &mut next_mode, m);
                    }
                }
                ui.checkbox(&mut teach.charts, "charts (C)").on_hover_text(
                    "the who-goes-first charts with the cell that decided the beat in view lit",
                );
                if ui
                    .button("export")
                    .on_hover_text(
                        "the rounds so far as Markdown, beside a PNG of the map, in screenshots/",
                    )
                    .clicked()
                {
                    requests.write(ViewerRequest::Export);
                }
                let other = match pb.scene.rules.system {
                    RulesSystem::Book => "Take Initiative!",
                    RulesSystem::TakeInitiative => "the book's rules",
                };
                if ui
                    .button(format!("play under {other} (T)"))
                    .on_hover_text("replay this scene under the other rules system, same seed")
                    .clicked()
                {
                    requests.write(ViewerRequest::SwitchSystem);
                }
                if ui.button("help (H)").clicked() {
                    layers.help = !layers.help;
                }
                // Out of edit mode the editor panel is hidden: what Ctrl+S came to (saved,
                // or why not) is said here, not nowhere.
                if *mode.get() != super::ViewerMode::Edit
                    && let Some(ed) = editor.as_deref()
                {
                    if let Some(why) = &ed.problem {
                        ui.colored_label(egui::Color32::from_rgb(240, 140, 120), why);
                    } else if let Some(done) = &ed.saved {
                        ui.label(done);
                    }
                }
            });
        })
        .response
        .rect
        .height();

    let editing = *mode.get() == super::ViewerMode::Edit;
    rects.dock = None;
    let (left_w, right_w) = side_widths(
        ctx.viewport_rect().width(),
        if editing { EDIT_LEFT } else { 290.0 },
    );
    rects.left = egui::Panel::left("left")
        .exact_size(left_w)
        .resizable(false)
        .show(&mut root, |ui| {
            if editing {
                // The clock stays in view; the editor (drawn by its own system) takes the
                // rest of the panel, figures included.
                clock(ui, snap, pb.over && pb.cursor + 1 == pb.frames.len(), false);
                ui.separator();
                let r = ui.available_rect_before_wrap();
                ui.allocate_rect(r, egui::Sense::hover());
                rects.dock = Some(r);
                return;
            }
            egui::ScrollArea::vertical().show(ui, |ui| {
                let hide =
                    teach.hides_surprise(snap.when, *mode.get() == super::ViewerMode::Predict);
                clock(ui, snap, pb.over && pb.cursor + 1 == pb.frames.len(), hide);
                ui.separator();
                initiative(ui, snap);
                ui.separator();
                figures(ui, snap, &mut selection, preview.as_deref());
                ui.separator();
                options(ui, &pb, source.system.is_some());
            });
        })
        .response
        .rect
        .width();

    rects.right = egui::Panel::right("right")
        .exact_size(right_w)
        .resizable(false)
        .show(&mut root, |ui| {
            // The legend takes at most half the panel's height, and scrolls within it:
            // in a short window it was drawn over the order above it.
            let half = ui.available_height() / 2.0;
            egui::Panel::bottom("legend")
                .min_size(half.min(320.0))
                .max_size(half)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, legend);
                });
            // Who struck or finished something in the segment on screen: its lines happened.
            let acted: std::collections::HashSet<&str> = events
                .as_deref()
                .map(|e| pb.log_now(e))
                .unwrap_or_default()
                .iter()
                .rev()
                .take_while(|e| (e.round, e.segment) == snap.when)
                .filter(|e| e.kind.is_an_act())
                .map(|e| &*e.actor)
                .collect();
            timeline(ui, snap, &acted)
        })
        .response
        .rect
        .width();

    rects.bottom = egui::Panel::bottom("log")
        .exact_size(170.0)
        .show(&mut root, |ui| {
            if let Some(events) = &events {
                log(ui, &pb, events, &mut layers.log)
            }
        })
        .response
        .rect
        .height();

    if let Some(e) = &source.error {
        // Opened broken and mended in the editor: the edits play, the file is still as it was.
        let (title, what) = if source.unchecked.is_some() {
            (
                "The file fails its checks",
                "the edits are shown: save them (Ctrl+S) to mend the file",
            )
        } else {
            ("Scene not reloaded", "the last good version is shown")
        };
        egui::Window::new(title)
            .id(egui::Id::new("scene not reloaded"))
            .default_pos([420.0, 120.0])
            .show(ctx, |ui| {
                ui.label(what);
                ui.monospace(e);
            });
    }
    if layers.help
        && let Ok(map) = input_map.single()
    {
        // Opened below the top bar in the middle of the window, scrolling when the window
        // is short: it never covers the toolbar the keys it lists belong to.
        let screen = ctx.content_rect();
        egui::Window::new("Keys and mouse")
            .pivot(egui::Align2::CENTER_TOP)
            .default_pos([screen.center().x, screen.top() + 70.0])
            .max_height((screen.height() - 140.0).max(120.0))
            .vscroll(true)
            .show(ctx, |ui| {
                egui::Grid::new("help").striped(true).show(ui, |ui| {
                    for a in ViewerAction::ALL {
                        ui.monospace(bindings(map, a));
                        ui.label(a.describe());
                        ui.end_row();
                    }
                });
            });
    }
    if let (Some((a, b)), Some(px)) = (ruler.line, ruler.label_px) {
        let m = measure::measure(a, b, pb.scene.setting);
        egui::Area::new(egui::Id::new("ruler"))
            .fixed_pos([px.x + 14.0, px.y + 10.0])
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.label(m.to_string());
                });
            });
    }
    Ok(())
}

/// The clock: surprise segments (hidden as "?" while a question asks how many), the
/// round's segments, the tick.
fn clock(ui: &mut egui::Ui, snap: &Snapshot, over: bool, hide_surprise: bool) {
    ui.heading(snap.label());
    if over {
        ui.label("(the scene has played out)");
    }
    let (round, segment) = snap.when;
    ui.horizontal(|ui| {
        ui.label("Surprise");
        if hide_surprise {
            ui.weak("? (predict first)");
        } else if snap.surprise_segments == 0 {
            ui.weak("none");
        }
        for k in (1..=snap.surprise_segments).filter(|_| !hide_surprise) {
            let on = round == 0 && segment >= k;
            pip(
                ui,
                on,
                egui::Color32::from_rgb(220, 120, 40),
                &k.to_string(),
            );
        }
    });
    ui.label(format!("Round {} of {}", round.max(1), snap.rounds));
    ui.horizontal_wrapped(|ui| {
        for s in 1..=snap.per_round {
            let on = round > 0 && segment >= s;
            pip(
                ui,
                on,
                egui::Color32::from_rgb(80, 160, 240),
                &s.to_string(),
            );
        }
    });
    ui.small(if snap.ordering {
        format!(
            "tick {} · 20 ordering segments: they order events, not equal spans of time (Take Initiative! Basics)",
            snap.tick
        )
    } else {
        format!("tick {} · a segment is 6 seconds (DMG p.62)", snap.tick)
    });
}

fn pip(ui: &mut egui::Ui, on: bool, color: egui::Color32, text: &str) {
    let fill = if on {
        color
    } else {
        egui::Color32::from_gray(50)
    };
    let (rect, hover) = ui.allocate_exact_size(egui::vec2(18.0, 18.0), egui::Sense::hover());
    hover.on_hover_text("where the round stands (step with → or the ▶| button)");
    ui.painter().rect_filled(rect, 3.0, fill);
    ui.painter().text(
        rect.center(),
        egui::Align2::CENTER_CENTER,
        text,
        egui::FontId::proportional(11.0),
        egui::Color32::WHITE,
    );
}

fn initiative(ui: &mut egui::Ui, snap: &Snapshot) {
    ui.strong("Initiative");
    if snap.ordering && !snap.plan.totals.is_empty() {
        // Each figure's own d10 and the rows of its action; the lower total first.
        for (name, how) in &snap.plan.totals {
            ui.label(format!("{name}: {}", plain(how)));
        }
        return;
    }
    if snap.plan.initiative.is_empty() {
        ui.weak(match snap.phase {
            Phase::Surprise(_) => "surprise segment: no initiative (DMG p.61-62)",
            _ => "not rolled yet",
        });
        return;
    }
    let best = snap.plan.initiative.iter().map(|x| x.1).max().unwrap_or(0);
    let winners: Vec<&str> = snap
        .plan
        .initiative
        .iter()
        .filter(|x| x.1 == best)
        .map(|x| x.0.as_str())
        .collect();
    for (side, die) in &snap.plan.initiative {
        ui.label(format!("{side}: {die}"));
    }
    if winners.len() > 1 {
        ui.label(format!("tied at {best} (DMG p.63)"));
    } else {
        ui.label(format!("initiative to {} (DMG p.62)", winners[0]));
    }
}

fn figures(
    ui: &mut egui::Ui,
    snap: &Snapshot,
    selection: &mut Selection,
    preview: Option<&super::ahead::Preview>,
) {
    ui.strong("Figures (Tab / ` to cycle)");
    for f in &snap.figures {
        let state = if !f.marks.is_empty() {
            format!(" ({})", f.marks_text())
        } else if f.dead {
            " (dead)".into()
        } else if !f.up {
            " (down)".into()
        } else {
            String::new()
        };
        let sel = selection.0 == Some(f.index);
        if ui
            .selectable_label(sel, format!("{}{state}", figure_title(f)))
            .clicked()
        {
            selection.0 = Some(f.index);
        }
    }
    if let Some(f) = selection.0.and_then(|i| snap.figure(i)) {
        ui.separator();
        figure(ui, snap, f, preview);
    }
}

fn figure(
    ui: &mut egui::Ui,
    snap: &Snapshot,
    f: &FigureView,
    preview: Option<&super::ahead::Preview>,
) {
    ui.heading(&f.name);
    ui.label(format!("hit points {} / {} · AC {}", f.hp.0, f.hp.1, f.ac));
    let (mv, enc) = f.movement;
    ui.label(format!(
        "movement {mv}\"{} (PHB p.101-102)",
        if enc { ", encumbered" } else { "" }
    ));
    match &f.weapon {
        Some((w, sf, len, missile)) => {
            let sf = sf.map(|s| s.to_string()).unwrap_or("—".into());
            let kind = if *missile { "missile" } else { "melee" };
            ui.label(format!("{w} ({kind}): speed factor {sf}, length {len} ft"));
        }
        None => {
            ui.label("no weapon");
        }
    }
    ui.label(format!(
        "reach {} ft · attacks {} (round {} of attacking)",
        f.reach_ft, f.rate.0, f.rate.1
    ));
    let (score, reaction, used) = f.dexterity;
    ui.label(format!(
        "Dexterity {score}: reaction {reaction:+}, in force {used:+} (DMG p.62)"
    ));
    if f.surprised > 0 {
        ui.label(format!("surprised for {} segment(s)", f.surprised));
    }
    if let Some(i) = &f.intent {
        ui.label(format!("doing: {i}"));
    }
    if let Some((target, charge, fps, arrival)) = &f.closing {
        let verb = if *charge { "charging" } else { "closing on" };
        // The engine's own arrival when the round was played ahead for this figure (its
        // target may close too, or wait, or fall); else the plan's, said as a plan.
        let ahead = preview.filter(|p| {
            p.key
                .is_some_and(|(i, round, _)| i == f.index && round == snap.when.0)
        });
        let when = match (ahead, arrival) {
            (Some(p), _) => p
                .arrival
                .map_or(", does not arrive this round".into(), |a| {
                    format!(", arrives in segment {a}")
                }),
            (None, Some(a)) => format!(", planned to arrive in segment {a}"),
            (None, None) => String::new(),
        };
        ui.label(format!("{verb} {target} at {fps} ft/segment{when}"));
    }
    if let Some((what, started, completes, segments)) = &f.casting {
        // A snapshot shows a segment played: the casting's segments up to this one's end.
        let done = (snap.tick + 1).saturating_sub(*started).min(*segments);
        ui.label(format!(
            "casting {what}: {done} of {segments} segments (completes at tick {completes})"
        ));
        ui.add(egui::ProgressBar::new(done as f32 / (*segments).max(1) as f32).show_percentage());
    }
    if let Some((source, r)) = &f.light {
        ui.label(format!(
            "light: {source}, {r} ft radius; encounters within {} ft (DMG p.62)",
            crate::rules::distance::light_limit_ft(*r)
        ));
    }
    if let Some(r) = f.infravision {
        ui.label(format!("infravision {r} ft (DMG p.62)"));
    }
    let sees: Vec<String> = snap
        .sightings
        .iter()
        .filter(|s| s.0 == f.index)
        .filter_map(|s| {
            snap.figure(s.1)
                .map(|g| format!("{} ({})", g.name, s.2.describe()))
        })
        .collect();
    if !sees.is_empty() {
        ui.label(format!("sees: {}", sees.join("; ")));
    }
}

fn options(ui: &mut egui::Ui, pb: &Playback, switched: bool) {
    ui.strong("Rules in force");
    if switched {
        ui.small("(the system switched with T; the scene file's own is the other)");
    }
    for (what, reading) in pb.scene.rules.plain() {
        let page = crate::rules::options::RulesOptions::page(what);
        ui.small(format!("{what}: {reading} ({page})"));
    }
    ui.small(format!(
        "{} · seed {}",
        match pb.scene.setting {
            crate::rules::distance::Setting::Indoors => "indoors (1\" = 10 ft)",
            crate::rules::distance::Setting::Outdoors => "outdoors (1\" = 10 yd)",
        },
        pb.seed.unwrap_or(pb.scene.seed)
    ));
}

fn timeline(ui: &mut egui::Ui, snap: &Snapshot, acted: &std::collections::HashSet<&str>) {
    let title = match snap.phase {
        Phase::Ready | Phase::Encounter => "The encounter".to_string(),
        Phase::Surprise(k) => format!("Surprise segment {k}"),
        _ => format!("Round {}: the order", snap.plan.round),
    };
    ui.heading(title);
    ui.small("fight by fight: who strikes first, and why (hover a line for the rule)");
    if snap.plan.beats.is_empty() {
        ui.weak(match snap.phase {
            Phase::Ready | Phase::Encounter => {
                "Surprise and encounter distance are settled first (DMG p.61-62); see the log. Step forward (Right arrow) to play the first segment."
            }
            _ => "Nothing is timed in this stretch: figures move, close or wait.",
        });
        return;
    }
    let rows = timeline_rows(&snap.plan);
    // Who can no longer act at the segment on screen (asked of each line still to come).
    let down: std::collections::HashSet<&str> = snap
        .figures
        .iter()
        .filter(|f| !f.up)
        .map(|f| f.name.as_str())
        .collect();
    if rows.len() <= LONG_LIST {
        egui::ScrollArea::vertical().show(ui, |ui| {
            for row in &rows {
                timeline_row(ui, snap, row, (&down, acted), true);
            }
        });
    } else {
        // A crowd's plan: one line per row, the reason on hover, only visible rows laid out.
        let h = ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y;
        egui::ScrollArea::vertical().show_rows(ui, h, rows.len(), |ui, range| {
            for row in &rows[range] {
                timeline_row(ui, snap, row, (&down, acted), false);
            }
        });
    }
}

/// One line of the timeline: a fight's heading, or a beat (its simultaneous entries).
enum Row<'a> {
    Fight(usize, &'a [String]),
    Beat(Vec<&'a super::snapshot::BeatView>),
}

/// The plan's beats grouped by fight, simultaneous entries on one line.
fn timeline_rows(plan: &super::snapshot::PlanView) -> Vec<Row<'_>> {
    let mut rows = Vec::new();
    let fights = plan.fights.len().max(1);
    for f in 0..fights {
        let mine: Vec<_> = plan.beats.iter().filter(|b| b.fight == f).collect();
        if mine.is_empty() {
            continue;
        }
        if plan.fights.len() > 1 {
            rows.push(Row::Fight(f, &plan.fights[f]));
        }
        for group in mine.chunk_by(|a, b| a.beat == b.beat) {
            rows.push(Row::Beat(group.to_vec()));
        }
    }
    rows
}

/// Whether a line of the order will not happen: still to come, by a figure that can no
/// longer act (put to sleep, held or felled since the round was laid out). A line of the
/// segment on screen has been played: it did not happen only if its figure did nothing in
/// that segment (one felled in the same beat still struck, and its blow stands).
fn will_not_happen(
    b: &super::snapshot::BeatView,
    (plan_round, (round, now)): (u32, (u32, u32)),
    (down, acted): (
        &std::collections::HashSet<&str>,
        &std::collections::HashSet<&str>,
    ),
) -> bool {
    let later = plan_round > round || (plan_round == round && b.segment > now);
    let this_segment = plan_round == round && b.segment == now;
    down.contains(b.name.as_str()) && (later || (this_segment && !acted.contains(b.name.as_str())))
}

fn timeline_row(
    ui: &mut egui::Ui,
    snap: &Snapshot,
    row: &Row,
    (down, acted): (
        &std::collections::HashSet<&str>,
        &std::collections::HashSet<&str>,
    ),
    wrap: bool,
) {
    // A short order wraps its lines (none is cut off); a crowd's keeps one line a row, the
    // rest on hover, so that only the visible rows are laid out.
    let line = |text: egui::RichText| match wrap {
        true => egui::Label::new(text).wrap(),
        false => egui::Label::new(text).truncate(),
    };
    let beat = match row {
        Row::Fight(f, members) => {
            ui.add_space(4.0);
            ui.add(line(
                egui::RichText::new(format!("Fight {}: {}", f + 1, members.join(", "))).strong(),
            ));
            return;
        }
        Row::Beat(b) => b,
    };
    let first = beat[0];
    let now = snap.when.1;
    // A segment only where a rule fixes one; otherwise what it comes after.
    let when = if beat.iter().any(|b| b.fixed) {
        match first.segment {
            0 => "at the start".to_string(),
            s => format!("segment {s}"),
        }
    } else if first.after.is_empty() {
        "first".to_string()
    } else {
        format!("after {}", first.after.join(", "))
    };
    let who: Vec<String> = beat
        .iter()
        .map(|b| format!("{}: {}", b.name, b.what))
        .collect();
    let at = (snap.plan.round, snap.when);
    let cannot = |b: &&super::snapshot::BeatView| will_not_happen(b, at, (down, acted));
    let text = format!("{} · {}", who.join("  +  "), when);
    let text = if beat.iter().all(cannot) {
        format!("{text} — cannot act now")
    } else {
        text
    };
    let mut rich = egui::RichText::new(text);
    if beat.iter().all(|b| b.ruined) || beat.iter().all(cannot) {
        rich = rich.strikethrough().weak();
    } else if first.segment == now && snap.plan.round == snap.when.0 {
        rich = rich.strong().color(egui::Color32::YELLOW);
    } else if first.segment > now || snap.plan.round > snap.when.0 {
        rich = rich.weak();
    }
    let why: Vec<String> = beat
        .iter()
        .map(|b| {
            let ruined = if b.ruined {
                " — ruined, it never completes"
            } else {
                ""
            };
            format!("{}: {}{ruined}", b.name, plain(&b.why))
        })
        .collect();
    ui.add(line(rich)).on_hover_text(why.join("\n"));
}

/// Past this many lines, lists show one truncated line per item and lay out only the
/// visible rows (a 200-figure scene logs tens of thousands of events).
const LONG_LIST: usize = 120;

/// One log line: the engine's narration, in characters egui's fonts have ("ordering
/// segment" under "Take Initiative!").
fn log_line(e: &crate::sim::LogEvent, ordering: bool) -> String {
    plain(&e.narrate_in(if ordering {
        "ordering segment"
    } else {
        "segment"
    }))
}

fn log(ui: &mut egui::Ui, pb: &Playback, events: &EventLog, filter: &mut super::LogFilter) {
    let all = pb.log_now(events);
    let ordering = pb.current().ordering;
    let events: Vec<&crate::sim::LogEvent> = all.iter().filter(|e| filter.shows(e)).collect();
    // Wrapped: in the editor the log is narrower, and a row that would not fit widened the
    // panel under the order's (its lines and its figure filter were cut off).
    let width = (ui.available_width() - ui.spacing().scroll.bar_width - 4.0).max(0.0);
    ui.set_max_width(width);
    ui.horizontal_wrapped(|h| {
        h.strong(format!(
            "Event log ({} of {} events so far)",
            events.len(),
            all.len()
        ));
        h.checkbox(&mut filter.blows, "blows");
        h.checkbox(&mut filter.spells, "spells");
        h.checkbox(&mut filter.moves, "moves");
        h.checkbox(&mut filter.sight, "sight");
        h.checkbox(&mut filter.other, "other");
        egui::ComboBox::from_id_salt("log figure")
            .selected_text(
                filter
                    .figure
                    .and_then(|id| pb.current().figure(id.0 as usize))
                    .map_or("every figure", |f| f.name.as_str()),
            )
            .show_ui(h, |c| {
                c.selectable_value(&mut filter.figure, None, "every figure");
                for f in &pb.current().figures {
                    let id = crate::scene::FigureId(f.index as u32);
                    c.selectable_value(&mut filter.figure, Some(id), &f.name);
                }
            });
    });
    let area = egui::ScrollArea::vertical()
        .stick_to_bottom(true)
        .auto_shrink([false, false]);
    // Lines wrap to the panel as it is now (the editor's wider left panel narrows it), the
    // scroll bar's room kept: a line never runs on under the panel beside.
    if events.len() <= LONG_LIST {
        area.show(ui, |ui| {
            ui.set_max_width(width);
            for e in events {
                ui.label(log_line(e, ordering));
            }
        });
    } else {
        let h = ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y;
        area.show_rows(ui, h, events.len(), |ui, rows| {
            ui.set_max_width(width);
            for e in &events[rows] {
                let text = log_line(e, ordering);
                ui.add(egui::Label::new(&text).truncate())
                    .on_hover_text(text);
            }
        });
    }
}

/// What the map's colours and lines mean.
fn legend(ui: &mut egui::Ui) {
    use super::style;
    let c = |c: Color| {
        let s = c.to_srgba();
        egui::Color32::from_rgba_unmultiplied(
            (s.red * 255.0) as u8,
            (s.green * 255.0) as u8,
            (s.blue * 255.0) as u8,
            255,
        )
    };
    ui.strong("Map");
    for (colour, text) in [
        (
            style::LIT,
            "lit cells (a light reaches them on a clear line)",
        ),
        (style::LIGHT_RING, "a light's radius"),
        (
            style::ENCOUNTER_RING,
            "twice a carried light's radius: encounter limit (DMG p.62)",
        ),
        (
            style::INFRA_RING,
            "infravision range (DMG p.62); in a crowd, rings for the selected figure only",
        ),
        (
            style::SIGHT,
            "line of sight: who sees whom (arrow: one way)",
        ),
        (style::PATH_NOW, "this segment's move, a dot per foot"),
        (
            style::EFFECT_RING,
            "a figure a spell has changed (held, slain, hasted...)",
        ),
        (
            style::SILENCE_RING,
            "silence: no spell is cast inside (PHB p.45)",
        ),
        (
            style::DARKNESS_RING,
            "magical darkness: no sight in or out (PHB p.69)",
        ),
        (
            style::SPELL_AREA,
            "dashed: the area a spell being cast will fill (sleep, fireball…)",
        ),
        (style::RULER, "ruler (drag with the left button)"),
        (
            style::CHARGE_DECLARED,
            "editing: a charge declared (arrow to its target)",
        ),
        (
            style::SPELL_DECLARED,
            "editing: a spell declared; any other: light grey",
        ),
        (
            style::DROPPED,
            "a weapon a fumble threw, where it lies (house rules)",
        ),
    ] {
        ui.horizontal(|ui| {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(14.0, 10.0), egui::Sense::hover());
            ui.painter().rect_filled(rect, 2.0, c(colour));
            ui.small(text);
        });
    }
}

/// A figure's name with its side, unless the side is named after it ("Robilar", not
/// "Robilar — Robilar").
fn figure_title(f: &super::FigureView) -> String {
    let psionic = f
        .psionic
        .map(|(a, d)| format!(" · psionic {a}/{d}"))
        .unwrap_or_default();
    if f.side == f.name {
        format!("{}{psionic}", f.name)
    } else {
        format!("{} — {}{psionic}", f.name, f.side)
    }
}

#[cfg(test)]
mod order_tests {
    use super::*;
    use std::collections::HashSet;

    /// A figure felled in the segment on screen: its line of that segment stands if it
    /// struck in it (outside tester: a lizard man's three blows, struck before he fell in
    /// the same beat, were crossed out as "cannot act now"), and is crossed out if it did
    /// nothing; its lines of later segments are crossed out either way.
    #[test]
    fn a_blow_struck_before_the_fall_is_not_crossed_out() {
        let at = (1, (1, 1));
        let line = |segment| super::super::snapshot::BeatView {
            segment,
            fixed: false,
            beat: 0,
            fight: 0,
            after: Vec::new(),
            ruined: false,
            name: "Lizard man 2".into(),
            what: "blow".into(),
            why: String::new(),
        };
        let down: HashSet<&str> = ["Lizard man 2"].into();
        let struck: HashSet<&str> = ["Lizard man 2"].into();
        let idle: HashSet<&str> = HashSet::new();
        assert!(!will_not_happen(&line(1), at, (&down, &struck)));
        assert!(will_not_happen(&line(1), at, (&down, &idle)));
        assert!(will_not_happen(&line(3), at, (&down, &struck)));
        let up: HashSet<&str> = HashSet::new();
        assert!(!will_not_happen(&line(3), at, (&up, &idle)));
    }
}
