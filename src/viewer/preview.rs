//! Seeing a charge before it happens: for the selected figure, where it will be at each
//! segment of the round on screen — from the viewer's simulation played ahead to that
//! round's end (the cursor stays), so the marks are the engine's own — with rings for how far it could move and charge this
//! round, and its target's reach where they meet.

use super::coords::world_of;
use super::playback::Playback;
use super::{Layers, Selection, style};
use crate::rules::charge::charge_feet_per_round;
use crate::rules::movement::feet_per_round;
use crate::scene::{FigureId, Scene};
use crate::sim::{EventKind, EventLog, LogEvent, Payload};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

pub use super::ahead::Preview;

/// The figure's round `round` of `scene`, from the log of a play of it through that round:
/// its moves, segment by segment, and its contact.
pub fn round_ahead(scene: &Scene, events: &[LogEvent], figure: FigureId, round: u32) -> Preview {
    let spec_of = |id: FigureId| scene.combatants.get(id.0 as usize);
    let start = spec_of(figure).map_or((0.0, 0.0), |c| c.at);
    let position_before = |who: FigureId, r: u32, s: u32| {
        events
            .iter()
            .filter(|e| e.by(who) && (e.round, e.segment) < (r, s))
            .filter_map(|e| match &e.payload {
                Payload::Move { to, .. } => Some(*to),
                _ => None,
            })
            .next_back()
            .or_else(|| spec_of(who).map(|c| c.at))
            .unwrap_or(start)
    };
    let ticks: Vec<(u32, (f64, f64))> = events
        .iter()
        .filter(|e| e.by(figure) && e.round == round)
        .filter_map(|e| match &e.payload {
            Payload::Move { to, .. } => Some((e.segment, *to)),
            _ => None,
        })
        .collect();
    let arrive = events
        .iter()
        .find(|e| e.by(figure) && e.round == round && e.kind == EventKind::Arrive);
    let contact = arrive.and_then(|e| {
        let t = e.whom?;
        let spec = spec_of(t)?;
        let reach = crate::scene::figure::FigureStats::resolve(spec)
            .ok()?
            .reach_ft;
        Some((position_before(t, e.round, e.segment + 1), reach))
    });
    let (inches, body) = spec_of(figure)
        .and_then(|c| crate::scene::figure::FigureStats::resolve(c).ok())
        .map_or((12, Default::default()), |s| (s.movement.0, s.body));
    let move_ft = feet_per_round(f64::from(inches), scene.setting);
    let charge_ft = charge_feet_per_round(scene.rules.system, inches, scene.setting, body);
    Preview {
        key: None,
        from: position_before(figure, round, 0),
        ticks,
        reach_ft: (move_ft, charge_ft),
        contact,
        arrival: arrive.map(|e| e.segment),
    }
}

/// Makes the preview of the selected figure when the selection, the round or the scene
/// changes. Exclusive: it plays the simulation ahead to the round's end in this world.
pub(super) fn update_preview(world: &mut World) {
    let selected = world.resource::<Selection>().0;
    let paths = world.resource::<Layers>().paths;
    let Some((i, pb)) = selected.zip(world.get_resource::<Playback>()) else {
        if world.resource::<Preview>().key.is_some() {
            *world.resource_mut::<Preview>() = Preview::default();
        }
        return;
    };
    if !paths {
        return;
    }
    let snap = pb.current();
    let round = snap.when.0.max(1);
    let key = Some((i, round, pb.generation * 100_000 + pb.edits));
    if world.resource::<Preview>().key == key {
        return;
    }
    if !snap.figures.iter().any(|f| f.index == i) {
        return;
    }
    world.resource_scope(|world, mut pb: Mut<Playback>| pb.play_through(world, round));
    let pb = world.resource::<Playback>();
    let events = &world.resource::<EventLog>().events;
    let mut p = round_ahead(&pb.scene, events, FigureId(i as u32), round);
    p.key = key;
    *world.resource_mut::<Preview>() = p;
}

/// The path with its segment marks, the move and charge rings, and the reach at contact.
pub(super) fn draw_preview(mut gizmos: Gizmos, preview: Res<Preview>, layers: Res<Layers>) {
    if preview.key.is_none() || !layers.paths {
        return;
    }
    let from = world_of(preview.from);
    gizmos
        .circle_2d(from, preview.reach_ft.0 as f32, style::PREVIEW_MOVE)
        .resolution(64);
    gizmos
        .circle_2d(from, preview.reach_ft.1 as f32, style::PREVIEW_CHARGE)
        .resolution(64);
    let mut last = from;
    for (_, p) in &preview.ticks {
        let p = world_of(*p);
        gizmos.line_2d(last, p, style::PREVIEW_PATH);
        gizmos.circle_2d(p, 0.6, style::PREVIEW_PATH);
        last = p;
    }
    if let Some((at, reach)) = preview.contact {
        gizmos
            .circle_2d(world_of(at), reach as f32, style::PREVIEW_CONTACT)
            .resolution(48);
    }
}

/// The segment numbers beside the marks.
pub(super) fn label_ticks(
    mut contexts: EguiContexts,
    preview: Res<Preview>,
    layers: Res<Layers>,
    camera: Query<(&Camera, &GlobalTransform), With<super::camera::MapCamera>>,
    panels: Res<super::panels::PanelRects>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
) -> Result {
    if preview.key.is_none() || !layers.paths || preview.ticks.is_empty() {
        return Ok(());
    }
    let (Ok((cam, cam_tf)), Ok(window)) = (camera.single(), windows.single()) else {
        return Ok(());
    };
    let free = panels.free(window.width(), window.height());
    let ctx = contexts.ctx_mut()?.clone();
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Middle,
        egui::Id::new("ticks"),
    ));
    let painter = painter.with_clip_rect(egui::Rect::from_min_max(
        egui::pos2(free.min.x, free.min.y),
        egui::pos2(free.max.x, free.max.y),
    ));
    for (s, p) in &preview.ticks {
        if let Ok(v) = cam.world_to_viewport(cam_tf, world_of(*p).extend(0.0)) {
            painter.text(
                egui::pos2(v.x + 6.0, v.y - 6.0),
                egui::Align2::LEFT_BOTTOM,
                s.to_string(),
                egui::FontId::proportional(13.0),
                egui::Color32::from_rgb(255, 235, 120),
            );
        }
    }
    Ok(())
}
