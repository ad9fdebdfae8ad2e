//! The map layer: cells as one image (walls, doors, terrain; lit cells tinted), figures as
//! tokens in side colours with their names, and gizmo overlays: grid lines with 10-ft
//! major lines, light radii and encounter rings, infravision rings, lines of sight, paths
//! with this segment's foot-by-foot progress, the selected figure and the ruler.

use super::camera::{TOKEN_LAYER, feet_of, world_of};
use super::input::ViewerAction;
use super::panels::PanelRects;
use super::playback::Playback;
pub use super::ruler::Ruler;
use super::style::{self, side_color, sides};
use super::{Layers, Selection};
use crate::map::{Grid, distance_ft};
use crate::scene::CellKind;
use bevy::camera::visibility::RenderLayers;
use bevy::ecs::system::SystemParam;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

/// Everything spawned for one scene (despawned on reload).
#[derive(Component)]
pub struct MapRoot;

/// The map's cells: one sprite whose image has a pixel per cell (drawn with nearest
/// sampling), so a large map is one quad to draw, not a sprite per cell (a 130×130 map
/// was 17,000 sprites, each extracted, sorted and rasterised every frame).
#[derive(Component)]
pub struct Cells {
    /// The image the sprite shows.
    image: Handle<Image>,
    /// Each cell's colour unlit, row-major.
    base: Vec<Color>,
    /// Whether each cell blocks sight (a lit wall is tinted less).
    solid: Vec<bool>,
}

/// A figure's token.
#[derive(Component)]
pub struct Token(pub usize);

/// A token's name label (a child of the token).
#[derive(Component)]
pub struct Label;

/// Beyond this many sightings, lines are drawn for the selected figure only.
pub const MAX_SIGHT_LINES: usize = 400;

/// Beyond this many figures with rings, rings are drawn for the selected figure only.
pub const MAX_RINGED: usize = 12;

/// Height of a label's letters in feet.
const LABEL_FT: f32 = 2.2;
/// A token's label: its name, what spells have made of it ("Riggby (slain)"), and whether
/// it is out of the fight ("Goblin 3 (down)", "Orc (dead)"): a figure felled by a blow
/// looked as fit as any on the map, beside its sleeping neighbours marked "(asleep)".
pub fn label_text(f: &super::FigureView) -> String {
    let mut words: Vec<&str> = f.marks.iter().map(|m| m.1.word()).collect();
    if f.dead && !words.contains(&"slain") {
        words.push("dead");
    } else if !f.up && !f.dead && words.is_empty() {
        words.push("down");
    }
    if words.is_empty() {
        f.name.clone()
    } else {
        format!("{} ({})", f.name, words.join(", "))
    }
}

/// The smallest a label may be on screen, in pixels: zoomed out, labels keep this size.
const MIN_LABEL_PX: f32 = 12.0;

/// Where the tokens and labels were last laid out: drawn centres (pushed apart in a
/// crowd), labels placed or hidden, and the label size, in world units.
#[derive(Resource, Clone, Debug, Default)]
pub struct LabelLayout {
    /// Each figure's drawn centre, by snapshot order.
    pub drawn: Vec<Vec2>,
    /// Each figure's label, or none when hidden (shown on hover).
    pub labels: Vec<Option<super::labels::Placed>>,
    /// The label size (world units to the em).
    pub size: f32,
    /// Each token's radius (by the figure's size).
    pub radii: Vec<f32>,
}

/// Lays out tokens and labels for these figures at this label size, keeping labels
/// `within` the fitted view where there is room ([`super::labels::place`]).
pub fn layout(figures: &[super::FigureView], size: f32, within: Option<Rect>) -> LabelLayout {
    use super::labels;
    let at: Vec<Vec2> = figures.iter().map(|f| world_of(f.at)).collect();
    let radii: Vec<f32> = figures.iter().map(token_radius).collect();
    let drawn = labels::spread(&at, &radii);
    let tokens: Vec<(Vec2, String, String, f32)> = figures
        .iter()
        .zip(&drawn)
        .zip(&radii)
        .map(|((f, &d), &r)| {
            let mark = if f.marks.is_empty() { "" } else { "*" };
            (
                d,
                label_text(f),
                format!("{}{mark}", labels::short(&f.name)),
                r,
            )
        })
        .collect();
    LabelLayout {
        labels: labels::place(&tokens, size, within),
        drawn,
        radii,
        size,
    }
}

/// The figure (its place in `figures`) whose token is drawn under a point, in world
/// units: where it stands at the segment on screen, pushed apart in a crowd as drawn —
/// never where it started. The nearest drawn centre wins.
pub fn token_under(
    placed: &LabelLayout,
    figures: &[super::FigureView],
    world: Vec2,
) -> Option<usize> {
    placed
        .drawn
        .iter()
        .zip(&placed.radii)
        .enumerate()
        .take(figures.len())
        .filter(|(_, (d, r))| d.distance(world) <= **r + 0.5)
        .min_by(|a, b| a.1.0.distance(world).total_cmp(&b.1.0.distance(world)))
        .map(|(i, _)| i)
}

/// The full label of the token under the pointer, as a tooltip (hidden labels in a crowd
/// are read this way).
pub(super) fn hover_label(
    mut contexts: bevy_egui::EguiContexts,
    playback: Option<Res<Playback>>,
    placed: Res<LabelLayout>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform), With<super::camera::MapCamera>>,
    capture: Option<Res<super::Capture>>,
) -> Result {
    let (Some(pb), Ok(window), Ok((cam, cam_tf))) = (playback, windows.single(), camera.single())
    else {
        return Ok(());
    };
    // A screenshot shows the map, not wherever the pointer happens to rest.
    if capture.is_some() {
        return Ok(());
    }
    let Some(cursor) = window.cursor_position() else {
        return Ok(());
    };
    let Ok(world) = cam.viewport_to_world_2d(cam_tf, cursor) else {
        return Ok(());
    };
    let snap = pb.current();
    let Some(i) = token_under(&placed, &snap.figures, world) else {
        return Ok(());
    };
    let Some(f) = snap.figures.get(i) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?.clone();
    let text = format!("{} — {}", label_text(f), f.side);
    bevy_egui::egui::Area::new(bevy_egui::egui::Id::new("token hover"))
        .fixed_pos(bevy_egui::egui::pos2(cursor.x + 14.0, cursor.y + 10.0))
        .order(bevy_egui::egui::Order::Tooltip)
        .show(&ctx, |ui| {
            bevy_egui::egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.label(text);
            });
        });
    Ok(())
}

/// A figure's token radius on the map, by its size.
pub fn token_radius(f: &super::FigureView) -> f32 {
    style::TOKEN_FT * f.size.token_scale()
}

/// The label size for a zoom (world units per pixel): the map's own, or bigger zoomed out.
pub fn label_size(scale: f32) -> f32 {
    LABEL_FT.max(MIN_LABEL_PX * scale)
}

fn cell_color(kind: CellKind) -> Color {
    match kind {
        CellKind::Floor => style::FLOOR,
        CellKind::Wall => style::WALL,
        CellKind::DoorClosed => style::DOOR_CLOSED,
        CellKind::DoorOpen => style::DOOR_OPEN,
        CellKind::Pillar => style::PILLAR,
        CellKind::Water => style::WATER,
        CellKind::Scrub => style::SCRUB,
        CellKind::Forest => style::FOREST,
        CellKind::Marsh => style::MARSH,
    }
}

/// One material per colour, shared by every token of that colour, so that the renderer
/// draws a side's tokens together (a material of its own for each token kept them apart:
/// 500 figures, 500 materials).
#[derive(Resource, Default)]
pub(super) struct TokenMaterials(HashMap<[u8; 4], Handle<ColorMaterial>>);

/// The tokens' shared materials with the store they are made in.
#[derive(SystemParam)]
pub(super) struct TokenPaint<'w> {
    materials: ResMut<'w, Assets<ColorMaterial>>,
    shared: ResMut<'w, TokenMaterials>,
}

impl TokenPaint<'_> {
    /// The material of colour `c`, made the first time it is asked for.
    fn of(&mut self, c: Color) -> Handle<ColorMaterial> {
        let materials = &mut self.materials;
        self.shared
            .0
            .entry(c.to_srgba().to_u8_array())
            .or_insert_with(|| materials.add(ColorMaterial::from_color(c)))
            .clone()
    }
}

/// Spawns cells and tokens when a scene is (re)loaded.
pub(super) fn rebuild_map(
    mut commands: Commands,
    playback: Option<Res<Playback>>,
    roots: Query<Entity, With<MapRoot>>,
    mut built: Local<Option<(u32, u32)>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut paint: TokenPaint,
    mut images: ResMut<Assets<Image>>,
) {
    let Some(pb) = playback else {
        return;
    };
    if *built == Some((pb.generation, pb.edits)) {
        return;
    }
    *built = Some((pb.generation, pb.edits));
    for e in &roots {
        commands.entity(e).despawn();
    }
    if let Some(g) = &pb.grid {
        spawn_cells(&mut commands, &mut images, g);
    }
    let snap = pb.current();
    let sides = sides(&snap.figures);
    let circle = meshes.add(Circle::new(style::TOKEN_FT));
    for f in &snap.figures {
        let p = world_of(f.at);
        let material = paint.of(side_color(&sides, &f.side));
        commands
            .spawn((
                MapRoot,
                Token(f.index),
                RenderLayers::layer(TOKEN_LAYER),
                Mesh2d(circle.clone()),
                MeshMaterial2d(material),
                Transform::from_translation(p.extend(5.0)),
            ))
            .with_children(|c| {
                c.spawn((
                    Label,
                    RenderLayers::layer(TOKEN_LAYER),
                    Text2d::new(f.name.clone()),
                    TextFont {
                        font_size: FontSize::Px(40.0),
                        ..default()
                    },
                    TextColor(Color::WHITE),
                    Transform::from_xyz(0.0, LABEL_FT * 2.0, 1.0)
                        .with_scale(Vec3::splat(LABEL_FT / 40.0)),
                ));
            });
    }
}

fn spawn_cells(commands: &mut Commands, images: &mut Assets<Image>, g: &Grid) {
    use bevy::asset::RenderAssetUsages;
    use bevy::image::ImageSampler;
    use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
    let base: Vec<Color> = g.cells.iter().map(|&k| cell_color(k)).collect();
    let solid = g.cells.iter().map(|k| k.blocks_sight()).collect();
    let size = Extent3d {
        width: g.width as u32,
        height: g.height as u32,
        depth_or_array_layers: 1,
    };
    let mut image = Image::new_fill(
        size,
        TextureDimension::D2,
        &[0, 0, 0, 255],
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    image.sampler = ImageSampler::nearest();
    paint(&mut image, &base, |_| None);
    let image = images.add(image);
    let cell = g.cell_ft as f32;
    let (w, h) = (g.width as f32 * cell, g.height as f32 * cell);
    commands.spawn((
        MapRoot,
        Sprite {
            image: image.clone(),
            custom_size: Some(Vec2::new(w, h)),
            ..default()
        },
        // The image's top-left corner at the map's origin (y runs down the map).
        Transform::from_translation(Vec3::new(w / 2.0, -h / 2.0, 0.0)),
        Cells { image, base, solid },
    ));
}

/// Writes each cell's colour into the map's image: its base colour, or `tint(i)` where
/// that gives one.
fn paint(image: &mut Image, base: &[Color], tint: impl Fn(usize) -> Option<Color>) {
    let Some(data) = image.data.as_mut() else {
        return;
    };
    for (i, px) in data.chunks_exact_mut(4).enumerate().take(base.len()) {
        let c = tint(i).unwrap_or(base[i]);
        px.copy_from_slice(&c.to_srgba().to_u8_array());
    }
}

/// Tints lit cells for the segment shown: only when the map, its lit cells or the light
/// layer changed since the image was last painted (a new image wakes the renderer's
/// upload of it).
pub(super) fn update_cells(
    playback: Option<Res<Playback>>,
    layers: Res<Layers>,
    cells: Query<(Entity, &Cells)>,
    mut images: ResMut<Assets<Image>>,
    mut painted: Local<Option<(Entity, bool, Vec<bool>)>>,
) {
    let Some(pb) = playback else {
        return;
    };
    let Ok((entity, cells)) = cells.single() else {
        return;
    };
    let lit = &pb.current().lit;
    if painted
        .as_ref()
        .is_some_and(|(e, light, l)| *e == entity && *light == layers.light && l == lit)
    {
        return;
    }
    *painted = Some((entity, layers.light, lit.clone()));
    let Some(mut image) = images.get_mut(&cells.image) else {
        return;
    };
    paint(&mut image, &cells.base, |i| {
        let on = layers.light && lit.get(i).copied().unwrap_or(false);
        on.then(|| {
            let mix = if cells.solid[i] {
                style::LIT_WALL_MIX
            } else {
                style::LIT_MIX
            };
            cells.base[i].mix(&style::LIT, mix)
        })
    });
}

/// Moves tokens to the segment shown and places their labels; fallen figures are dimmed.
pub(super) fn update_tokens(
    playback: Option<Res<Playback>>,
    mut tokens: Query<
        (
            &Token,
            &mut Transform,
            &mut MeshMaterial2d<ColorMaterial>,
            &Children,
        ),
        Without<Label>,
    >,
    mut labels: Query<(&mut Transform, &mut Text2d), With<Label>>,
    mut paint: TokenPaint,
    camera: Query<&Projection, With<super::camera::MapCamera>>,
    mut placed: ResMut<LabelLayout>,
    mut shown: Local<Option<(u32, u32, usize, u32)>>,
) {
    let Some(pb) = playback else {
        return;
    };
    let scale = match camera.single() {
        Ok(Projection::Orthographic(o)) => o.scale,
        _ => 0.0,
    };
    let size = label_size(scale);
    // Only when another segment (or scene) is shown, or the zoom changes the label size.
    let key = (pb.generation, pb.edits, pb.cursor, (size * 100.0) as u32);
    if *shown == Some(key) {
        return;
    }
    *shown = Some(key);
    let snap = pb.current();
    let sides = sides(&snap.figures);
    *placed = layout(&snap.figures, size, Some(super::camera::fitted_view(&pb)));
    for (t, mut tf, mut mat, children) in &mut tokens {
        let Some(i) = snap.figures.iter().position(|f| f.index == t.0) else {
            continue;
        };
        let f = &snap.figures[i];
        for c in children.iter() {
            if let Ok((mut l, mut text)) = labels.get_mut(c) {
                let (offset, want) = placed.labels[i]
                    .as_ref()
                    .map_or((Vec2::ZERO, String::new()), |p| (p.offset, p.text.clone()));
                // The label is the token's child: undo the token's size scale.
                let k = f.size.token_scale();
                l.translation.x = offset.x / k;
                l.translation.y = offset.y / k;
                l.scale = Vec3::splat(size / 40.0 / k);
                if text.0 != want {
                    text.0 = want;
                }
            }
        }
        let p = placed.drawn[i];
        tf.translation.x = p.x;
        tf.translation.y = p.y;
        tf.scale = Vec3::splat(f.size.token_scale());
        let c = side_color(&sides, &f.side);
        let c = if f.dead {
            Color::srgb(0.25, 0.25, 0.25)
        } else if !f.up {
            c.mix(&Color::BLACK, 0.6)
        } else {
            c
        };
        let want = paint.of(c);
        if mat.0 != want {
            mat.0 = want;
        }
    }
}

/// Grid lines, rings, sight lines, paths, selection and ruler.
pub(super) fn draw_overlays(
    mut gizmos: Gizmos,
    playback: Option<Res<Playback>>,
    layers: Res<Layers>,
    selection: Res<Selection>,
    ruler: Res<Ruler>,
    placed: Res<LabelLayout>,
) {
    let Some(pb) = playback else {
        return;
    };
    let snap = pb.current();
    // A token pushed out of a crowd: a leader line to where it really stands.
    for (f, d) in snap.figures.iter().zip(&placed.drawn) {
        let at = world_of(f.at);
        if at.distance(*d) > 0.3 {
            gizmos.line_2d(at, *d, style::LEADER);
            gizmos.circle_2d(at, 0.4, style::LEADER);
        }
    }
    // A label placed away from its token: a thin line from the token to it.
    for (i, (l, d)) in placed.labels.iter().zip(&placed.drawn).enumerate() {
        let Some(l) = l else { continue };
        let r = super::labels::rect(*d + l.offset, &l.text, placed.size);
        let edge = super::labels::nearest_edge(r, *d);
        let radius = placed.radii.get(i).copied().unwrap_or(style::TOKEN_FT);
        if edge.distance(*d) > radius + placed.size * 0.6 {
            let from = *d + (edge - *d).normalize_or_zero() * radius;
            gizmos.line_2d(from, edge, style::LEADER);
        }
    }
    if layers.grid
        && let Some(g) = &pb.grid
    {
        draw_grid(&mut gizmos, g);
    }
    if layers.light {
        for l in &snap.lights {
            gizmos.circle_2d(world_of(l.at), l.radius_ft as f32, style::LIGHT_RING);
        }
    }
    for a in &snap.areas {
        let color = match a.kind {
            "silence" => style::SILENCE_RING,
            "darkness" => style::DARKNESS_RING,
            _ => style::LIGHT_RING,
        };
        gizmos
            .circle_2d(world_of(a.at), a.radius_ft as f32, color)
            .resolution(64);
    }
    // An area spell under way (sleep, fireball, silence…): the area it will fill, at its
    // point or round its target as the target stands now, dashed until it completes.
    for f in &snap.figures {
        let Some((what, ..)) = &f.casting else {
            continue;
        };
        let radius = crate::tables::spell_area_ft(what);
        let target = || {
            let on = f.casting_at.as_ref()?;
            snap.figures.iter().find(|t| &t.name == on).map(|t| t.at)
        };
        let (Some(r), Some(at)) = (radius, f.casting_point.or_else(target)) else {
            continue;
        };
        dashed_area(&mut gizmos, at, r);
    }
    // A weapon a fumble threw: a cross where it lies, a faint line back to its owner.
    for d in &snap.dropped {
        let at = world_of(d.at);
        let k = style::TOKEN_FT * 0.7;
        gizmos.line_2d(at - Vec2::splat(k), at + Vec2::splat(k), style::DROPPED);
        gizmos.line_2d(at + Vec2::new(-k, k), at + Vec2::new(k, -k), style::DROPPED);
        gizmos.circle_2d(at, k * 1.3, style::DROPPED);
        if let Some(o) = snap.figure(d.owner) {
            gizmos.line_2d(world_of(o.at), at, style::LEADER);
        }
    }
    for f in snap.figures.iter().filter(|f| !f.marks.is_empty()) {
        gizmos
            .circle_2d(world_of(f.at), style::TOKEN_FT * 1.6, style::EFFECT_RING)
            .resolution(32);
    }
    if layers.rings {
        // In a crowd the rings would cover the map: only the selected figure's are drawn.
        let ringed = snap
            .figures
            .iter()
            .filter(|f| f.up && (f.light.is_some() || f.infravision.is_some()))
            .count();
        let crowd = ringed > MAX_RINGED;
        for f in snap
            .figures
            .iter()
            .filter(|f| f.up && (!crowd || selection.0 == Some(f.index)))
        {
            let p = world_of(f.at);
            if let Some((_, r)) = &f.light {
                let limit = crate::rules::distance::light_limit_ft(*r) as f32;
                gizmos
                    .circle_2d(p, limit, style::ENCOUNTER_RING)
                    .resolution(64);
            }
            if let Some(r) = f.infravision {
                gizmos
                    .circle_2d(p, r as f32, style::INFRA_RING)
                    .resolution(64);
            }
        }
    }
    if layers.sight {
        // The pairs are in (viewer, seen) order: the way back is found by a binary search
        // (a crowd's tens of thousands of pairs are not hashed every frame).
        let sees = |a: usize, b: usize| {
            snap.sightings
                .binary_search_by_key(&(a, b), |s| (s.0, s.1))
                .is_ok()
        };
        // A crowd's lines would hide the map: past a few hundred, only the selected
        // figure's are drawn.
        let crowd = snap.sightings.len() > MAX_SIGHT_LINES;
        for &(a, b, _) in &snap.sightings {
            if crowd && selection.0 != Some(a) && selection.0 != Some(b) {
                continue;
            }
            let mutual = sees(b, a);
            if mutual && b < a {
                continue;
            }
            let (Some(fa), Some(fb)) = (snap.figure(a), snap.figure(b)) else {
                continue;
            };
            let (pa, pb_) = (world_of(fa.at), world_of(fb.at));
            if mutual {
                gizmos.line_2d(pa, pb_, style::SIGHT);
            } else {
                // One way: an arrow from the one who sees.
                gizmos.arrow_2d(pa, pb_.lerp(pa, 0.1), style::SIGHT);
            }
        }
    }
    if layers.paths {
        draw_paths(&mut gizmos, &pb);
    }
    if let Some(f) = selection.0.and_then(|i| snap.figures.get(i)) {
        gizmos.circle_2d(world_of(f.at), token_radius(f) + 0.8, style::SELECTED);
        gizmos.circle_2d(
            world_of(f.at),
            f.reach_ft as f32,
            style::SELECTED.with_alpha(0.3),
        );
    }
    if let Some((a, b)) = ruler.line {
        let (pa, pb_) = (world_of(a), world_of(b));
        gizmos.line_2d(pa, pb_, style::RULER);
        // A tick every 10 feet.
        let len = (pb_ - pa).length();
        if len > 0.0 {
            let dir = (pb_ - pa) / len;
            let side = dir.perp() * 1.0;
            let mut d = 10.0;
            while d < len {
                let p = pa + dir * d;
                gizmos.line_2d(p - side, p + side, style::RULER);
                d += 10.0;
            }
        }
    }
}

fn draw_grid(gizmos: &mut Gizmos, g: &Grid) {
    let cell = g.cell_ft as f32;
    let (w, h) = (g.width_ft() as f32, g.height_ft() as f32);
    let major_every = (10.0 / cell).round().max(1.0) as usize;
    for x in 0..=g.width {
        let c = if x % major_every == 0 {
            style::GRID_MAJOR
        } else {
            style::GRID_MINOR
        };
        let fx = x as f32 * cell;
        gizmos.line_2d(Vec2::new(fx, 0.0), Vec2::new(fx, -h), c);
    }
    for y in 0..=g.height {
        let c = if y % major_every == 0 {
            style::GRID_MAJOR
        } else {
            style::GRID_MINOR
        };
        let fy = -(y as f32) * cell;
        gizmos.line_2d(Vec2::new(0.0, fy), Vec2::new(w, fy), c);
    }
}

/// Each figure's path so far, this segment's part dotted foot by foot, and the line still
/// to cover to a closing target.
fn draw_paths(gizmos: &mut Gizmos, pb: &Playback) {
    let snap = pb.current();
    for f in &snap.figures {
        let trail: Vec<Vec2> = pb.frames[..=pb.cursor]
            .iter()
            .filter_map(|s| s.figure(f.index).map(|g| world_of(g.at)))
            .collect();
        let moved = trail.windows(2).any(|w| w[0] != w[1]);
        if moved {
            gizmos.linestrip_2d(trail.iter().copied(), style::PATH);
        }
        if let Some(prev) = pb.previous().and_then(|s| s.figure(f.index)) {
            let (a, b) = (world_of(prev.at), world_of(f.at));
            let feet = (b - a).length();
            if feet > 0.01 {
                gizmos.line_2d(a, b, style::PATH_NOW);
                let n = feet.floor() as usize;
                for k in 1..=n {
                    gizmos.circle_2d(a.lerp(b, k as f32 / feet), 0.25, style::PATH_NOW);
                }
            }
        }
        if let Some((target, _, _, _)) = &f.closing
            && let Some(t) = snap.figures.iter().find(|g| &g.name == target)
        {
            let (a, b) = (world_of(f.at), world_of(t.at));
            let remaining = ((b - a).length() - f.reach_ft as f32).max(0.0);
            if remaining > 0.0 {
                let end = a + (b - a).normalize_or_zero() * remaining;
                let mut d = 0.0;
                while d < remaining {
                    let s = a + (end - a).normalize_or_zero() * d;
                    let e = a + (end - a).normalize_or_zero() * (d + 1.5).min(remaining);
                    gizmos.line_2d(s, e, style::PATH);
                    d += 3.0;
                }
            }
        }
    }
}

/// The ruler: drag with the measure button over the map; a click on a token selects it.
pub(super) fn measure(
    actions: Single<&ActionState<ViewerAction>>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform), With<super::camera::MapCamera>>,
    (panels, egui): (
        Res<PanelRects>,
        Option<Res<bevy_egui::input::EguiWantsInput>>,
    ),
    (playback, placed): (Option<Res<Playback>>, Res<LabelLayout>),
    (mut ruler, mouse): (ResMut<Ruler>, Res<ButtonInput<MouseButton>>),
    mut selection: ResMut<Selection>,
) {
    let actions = actions.into_inner();
    // A click pressed and released between two frames (a quick tap) is never "pressed"
    // for the action map, which reads the button as it is at the frame: taken here.
    let tap = mouse.just_pressed(MouseButton::Left) && !mouse.pressed(MouseButton::Left);
    let (Ok(window), Ok((cam, cam_tf))) = (windows.single(), camera.single()) else {
        return;
    };
    let Some(cursor) = window.cursor_position() else {
        return;
    };
    // A press on a window or bar lying over the map (the editor's tools, a dialog) is
    // that window's, not the start of a measure.
    let over_map = !egui.is_some_and(|e| e.is_pointer_over_area())
        && panels
            .free(window.width(), window.height())
            .contains(cursor);
    let Ok(world) = cam.viewport_to_world_2d(cam_tf, cursor) else {
        return;
    };
    let here = feet_of(world);
    if tap && over_map && ruler.line.is_none() {
        if let Some(pb) = playback {
            selection.0 = token_under(&placed, &pb.current().figures, world_of(here));
        }
    } else if actions.just_pressed(&ViewerAction::Measure) && over_map {
        ruler.line = Some((here, here));
        ruler.label_px = Some(cursor);
    } else if actions.pressed(&ViewerAction::Measure) {
        if let Some((a, _)) = ruler.line {
            ruler.line = Some((a, here));
            ruler.label_px = Some(cursor);
        }
    } else if actions.just_released(&ViewerAction::Measure)
        && let Some((a, b)) = ruler.line
        && distance_ft(a, b) < 1.0
    {
        // A click: select the token drawn under it, if any.
        ruler.line = None;
        if let Some(pb) = playback {
            selection.0 = token_under(&placed, &pb.current().figures, world_of(a));
        }
    }
}

/// The area a spell will fill, centred `at` (feet) with radius `r_ft`: a dashed circle.
pub(super) fn dashed_area(gizmos: &mut Gizmos, at: (f64, f64), r_ft: f64) {
    let centre = world_of(at);
    let steps = 48;
    for k in (0..steps).step_by(2) {
        let a = |k: i32| std::f32::consts::TAU * k as f32 / steps as f32;
        let p = |k: i32| centre + Vec2::new(a(k).cos(), a(k).sin()) * r_ft as f32;
        gizmos.line_2d(p(k), p(k + 1), style::SPELL_AREA);
    }
}
