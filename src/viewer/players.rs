//! The players' window (`view --players`): a second window for a screen the players see.
//! It shows only what the party's figures see at the segment on the DM's screen — the
//! cells in a party member's line of sight that are lit or within its infravision, the
//! foes a party member sees, fog elsewhere, and the cells seen earlier in the scene dimmed
//! — with none of the DM's marks: no unseen foe, no declarations, no dice, no log. It
//! follows the DM's window segment by segment; closing it leaves the DM's window open.

use super::camera::world_of;
use super::playback::Playback;
use super::snapshot::Snapshot;
use crate::map::vision::Vision;
use bevy::asset::RenderAssetUsages;
use bevy::camera::RenderTarget;
use bevy::camera::visibility::RenderLayers;
use bevy::ecs::system::SystemParam;
use bevy::image::ImageSampler;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::window::{Monitor, PrimaryMonitor, WindowPosition, WindowRef};

/// The render layer of the players' window: nothing of the DM's is drawn on it.
pub const PLAYERS_LAYER: usize = 2;

/// The players' window is wanted, for this side's figures (none: the first character's side).
#[derive(Resource, Clone, Debug, Default)]
pub struct Players {
    /// The party's side.
    pub side: Option<String>,
}

/// What the party sees of one segment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PartyView {
    /// The cells in sight, row-major (empty without a map: then every cell is open).
    pub cells: Vec<bool>,
    /// The figures shown (indices): the party's, and the foes a party member sees.
    pub figures: Vec<usize>,
}

/// The side whose figures are the party: `side`, else the side of the first character
/// (a figure with a class, or none from the bestiary), else the first figure's. An
/// encounter built monsters first still shows the party's view, not the monsters'.
pub fn party_side(scene: &crate::scene::Scene, side: Option<&str>) -> Option<String> {
    let character = |c: &&crate::scene::CombatantSpec| c.class.is_some() || c.monster.is_none();
    side.map(str::to_string).or_else(|| {
        let figures = &scene.combatants;
        figures
            .iter()
            .find(character)
            .or(figures.first())
            .map(|c| c.side.clone())
    })
}

/// The players' window (its title names whose view it shows).
#[derive(Component)]
pub struct PlayersWindow;

/// What the party of `side` sees in `snap`: the cells lit (or within a member's
/// infravision) in a conscious member's line of sight, and the foes a conscious member
/// sees (the engine's sightings, with the rule that decided each).
pub fn party_view(snap: &Snapshot, vision: Option<&mut Vision>, side: &str) -> PartyView {
    let eyes: Vec<usize> = snap
        .figures
        .iter()
        .filter(|f| f.side == side && f.up && !f.dead)
        .map(|f| f.index)
        .collect();
    let mut figures: Vec<usize> = snap
        .figures
        .iter()
        .filter(|f| f.side == side)
        .map(|f| f.index)
        .collect();
    for &(by, seen, _) in &snap.sightings {
        if eyes.contains(&by) && !figures.contains(&seen) {
            figures.push(seen);
        }
    }
    figures.sort_unstable();
    let Some(v) = vision else {
        return PartyView {
            cells: Vec::new(),
            figures,
        };
    };
    let (w, h) = (v.sight_map().width(), v.sight_map().height());
    let mut cells = vec![false; (w * h).max(0) as usize];
    for &i in &eyes {
        let Some(f) = snap.figure(i) else { continue };
        let infra = f.infravision.unwrap_or(0.0);
        let from = v.cell(f.at);
        let fov: Vec<(i32, i32)> = v.fov(from, w.max(h)).iter().collect();
        for (x, y) in fov {
            if x < 0 || y < 0 || x >= w || y >= h {
                continue;
            }
            let k = (y * w + x) as usize;
            let c = v.centre((x, y));
            let near = ((c.0 - f.at.0).powi(2) + (c.1 - f.at.1).powi(2)).sqrt() <= infra;
            if snap.lit.get(k).copied().unwrap_or(false) || near {
                cells[k] = true;
            }
        }
    }
    // A figure the party sees stands in a cell it sees (seen by its own light, say, or
    // at the edge of the torch's reach).
    for &i in &figures {
        if let Some(f) = snap.figure(i) {
            let (x, y) = v.cell(f.at);
            if x >= 0 && y >= 0 && x < w && y < h {
                cells[(y * w + x) as usize] = true;
            }
        }
    }
    PartyView { cells, figures }
}

/// The window, its camera, and what it shows now.
#[derive(Resource)]
pub(super) struct Shown {
    /// The players' window.
    pub(super) window: Entity,
    /// The fog image (one pixel a cell).
    image: Handle<Image>,
    /// The playback, frame and window size the view was made for: (generation, edits,
    /// cursor, window width and height in logical pixels).
    key: Option<(u32, u32, usize, (u32, u32))>,
    /// Cells seen at any frame up to the one shown.
    ever: Vec<bool>,
    /// The frames `ever` covers (0..upto), for the same generation and edits.
    upto: (u32, u32, usize),
}

/// A figure's token in the players' window.
#[derive(Component)]
struct PlayersToken;

/// A figure's name in the players' window.
#[derive(Component)]
struct PlayersLabel;

/// The players' camera.
#[derive(Component)]
struct PlayersCamera;

/// The fog sprite.
#[derive(Component)]
struct Fog;

/// The words the table sees while the DM edits, on a dark band, in the middle of its window.
#[derive(Component)]
struct PlayersNotice;

/// What the table is told while the DM edits (the window otherwise stays black from the
/// start, or frozen: an outside tester's projector showed a black screen, and a title
/// no projector shows).
const NOTICE: &str = "The DM is preparing the encounter.";

/// The end of the window's title while the DM edits.
const WAITING: &str = "(waiting while the DM edits)";

/// A screen the windows can go on, in physical pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Screen {
    /// Its top-left corner.
    pub at: IVec2,
    /// Its width and height.
    pub size: UVec2,
    /// The screen the DM's window opens on.
    pub primary: bool,
}

/// Where the players' window opens: centred on a second screen when there is one (the
/// table's television or projector); else in the bottom-right corner of the one screen,
/// so that it covers as little as it can of the DM's window, which opens top-left (with
/// no window manager both would open at the same corner, one hiding the other).
pub fn placement(screens: &[Screen], window: UVec2) -> WindowPosition {
    let dm = screens.iter().position(|s| s.primary).unwrap_or(0);
    let other = (0..screens.len()).find(|&i| i != dm);
    match (other, screens.get(dm)) {
        (Some(i), _) => {
            let s = screens[i];
            WindowPosition::At(s.at + (s.size.saturating_sub(window) / 2).as_ivec2())
        }
        (None, Some(s)) => WindowPosition::At(s.at + s.size.saturating_sub(window).as_ivec2()),
        (None, None) => WindowPosition::Automatic,
    }
}

/// The second window and what draws on it.
pub struct PlayersPlugin;

impl Plugin for PlayersPlugin {
    fn build(&self, app: &mut App) {
        // Only when asked for (`view --players`): the resource says which side.
        app.add_systems(Startup, open.run_if(resource_exists::<Players>))
            .add_systems(
                Update,
                (follow, close)
                    .chain()
                    .run_if(resource_exists::<Shown>)
                    .in_set(super::ViewerSet::Draw),
            );
    }
}

/// Opens the players' window, placed by [`placement`], with its camera and fog sprite.
fn open(
    mut commands: Commands,
    mut images: ResMut<Assets<Image>>,
    monitors: Query<(&Monitor, Has<PrimaryMonitor>)>,
) {
    let screens: Vec<Screen> = monitors
        .iter()
        .map(|(m, primary)| Screen {
            at: m.physical_position,
            size: UVec2::new(m.physical_width, m.physical_height),
            primary,
        })
        .collect();
    let window = commands
        .spawn((
            PlayersWindow,
            Window {
                title: "First Strike — the players' view".into(),
                resolution: bevy::window::WindowResolution::new(
                    DEFAULT_PX.x as u32,
                    DEFAULT_PX.y as u32,
                ),
                position: placement(&screens, DEFAULT_PX.as_uvec2()),
                ..default()
            },
        ))
        .id();
    commands.spawn((
        Camera2d,
        PlayersCamera,
        Msaa::Off,
        RenderTarget::Window(WindowRef::Entity(window)),
        RenderLayers::layer(PLAYERS_LAYER),
        Camera {
            clear_color: ClearColorConfig::Custom(Color::BLACK),
            ..default()
        },
    ));
    let mut image = Image::new_fill(
        Extent3d {
            width: 1,
            height: 1,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        &[0, 0, 0, 255],
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::all(),
    );
    image.sampler = ImageSampler::nearest();
    let image = images.add(image);
    commands.spawn((
        Sprite::from_image(image.clone()),
        Fog,
        RenderLayers::layer(PLAYERS_LAYER),
    ));
    // On a dark band of its own, readable over the tokens and names the window keeps
    // (an outside tester could hardly read it over them).
    commands.spawn((
        Sprite::from_color(Color::srgba(0.0, 0.0, 0.0, 0.85), Vec2::new(620.0, 64.0)),
        Transform::from_xyz(0.0, 0.0, 4.5),
        Visibility::Hidden,
        RenderLayers::layer(PLAYERS_LAYER),
        PlayersNotice,
    ));
    commands.spawn((
        Text2d::new(NOTICE),
        TextFont {
            font_size: FontSize::Px(28.0),
            ..default()
        },
        Transform::from_xyz(0.0, 0.0, 5.0),
        Visibility::Hidden,
        RenderLayers::layer(PLAYERS_LAYER),
        PlayersNotice,
    ));
    commands.insert_resource(Shown {
        window,
        image,
        key: None,
        ever: Vec::new(),
        upto: (0, 0, 0),
    });
}

/// Colours of the fog image: a cell in sight (floor, wall), seen before (floor, wall),
/// never seen.
const IN_SIGHT: [[u8; 4]; 2] = [[196, 176, 132, 255], [92, 84, 72, 255]];
const REMEMBERED: [[u8; 4]; 2] = [[70, 64, 54, 255], [40, 37, 33, 255]];
const UNSEEN: [u8; 4] = [0, 0, 0, 255];

/// A token's or name's entity, redrawn when the frame changes.
type Drawn = Or<(With<PlayersToken>, With<PlayersLabel>)>;
/// Everything of the players' window besides the window: its camera, fog and tokens.
type Everything = Or<(Drawn, With<PlayersCamera>, With<Fog>, With<PlayersNotice>)>;
/// The notice's visibility and place.
type NoticeView<'a> = (&'a mut Visibility, &'a mut Transform);
/// The notice alone (its place is no camera's or fog's).
type NoticeOnly = (With<PlayersNotice>, Without<PlayersCamera>, Without<Fog>);
/// The fog sprite's size and place.
type FogView<'a> = (&'a mut Sprite, &'a mut Transform);
/// The players' camera's place and zoom.
type CameraView<'a> = (&'a mut Transform, &'a mut Projection);

/// What the players' window is drawn with.
#[derive(SystemParam)]
struct Canvas<'w, 's> {
    commands: Commands<'w, 's>,
    images: ResMut<'w, Assets<Image>>,
    meshes: ResMut<'w, Assets<Mesh>>,
    materials: ResMut<'w, Assets<ColorMaterial>>,
    fog: Query<'w, 's, FogView<'static>, With<Fog>>,
    camera: Query<'w, 's, CameraView<'static>, (With<PlayersCamera>, Without<Fog>)>,
    drawn: Query<'w, 's, Entity, Drawn>,
    notice: Query<'w, 's, NoticeView<'static>, NoticeOnly>,
}

impl Canvas<'_, '_> {
    /// Shows the notice in the middle of the players' view, at the view's zoom, or hides it.
    fn notice(&mut self, shown: bool) {
        let cam = self.camera.single().ok().map(|(t, p)| {
            let scale = match p {
                Projection::Orthographic(o) => o.scale,
                _ => 1.0,
            };
            (t.translation, scale)
        });
        for (mut vis, mut at) in &mut self.notice {
            let want = if shown {
                Visibility::Visible
            } else {
                Visibility::Hidden
            };
            vis.set_if_neq(want);
            if shown && let Some((c, scale)) = cam {
                let z = at.translation.z;
                let to = Transform::from_xyz(c.x, c.y, z).with_scale(Vec3::splat(scale));
                at.set_if_neq(to);
            }
        }
    }
}

/// Follows the DM's frame: the fog, the tokens and names of the figures the party sees.
fn follow(
    (players, playback): (Res<Players>, Option<Res<Playback>>),
    shown: Option<ResMut<Shown>>,
    map_vision: Option<ResMut<crate::sim::MapVision>>,
    mut canvas: Canvas,
    mut window: Query<&mut Window, With<PlayersWindow>>,
    mode: Option<Res<State<super::mode::ViewerMode>>>,
) {
    let (Some(pb), Some(mut shown)) = (playback, shown) else {
        return;
    };
    // While the DM edits, the table is not shown the experiments: the players' window
    // keeps what it showed, and says it waits.
    if mode.is_some_and(|m| *m.get() == super::mode::ViewerMode::Edit) {
        // Whose view it is, named here too (as the docs say the title does): made when the
        // window starts waiting or an edit may have renamed the side, not every frame.
        if let Ok(mut w) = window.single_mut()
            && (pb.is_changed() || !w.title.ends_with(WAITING))
        {
            let side = party_side(&pb.scene, players.side.as_deref())
                .map_or(String::new(), |s| format!(": {s}"));
            let title = format!("First Strike — the players' view{side} {WAITING}");
            if w.title != title {
                w.title = title;
            }
        }
        // Drawn afresh, title and all, once the DM is done.
        if shown.key.is_some() {
            shown.key = None;
        }
        canvas.notice(true);
        return;
    }
    canvas.notice(false);
    // A window made larger or smaller (a table's screen) is fitted again.
    let px = window
        .single()
        .map_or(DEFAULT_PX, |w| Vec2::new(w.width(), w.height()));
    let key = (
        pb.generation,
        pb.edits,
        pb.cursor,
        (px.x as u32, px.y as u32),
    );
    if shown.key == Some(key) {
        return;
    }
    shown.key = Some(key);
    let snap = pb.current();
    let Some(side) = party_side(&pb.scene, players.side.as_deref()) else {
        return;
    };
    // Whose view it is, in the title; and said when the scene has no such side.
    let present = snap.figures.iter().any(|f| f.side == side);
    let title = if present {
        format!("First Strike — the players' view: {side}")
    } else {
        format!("First Strike — the players' view: no figure of {side} in this scene")
    };
    if let Ok(mut w) = window.single_mut()
        && w.title != title
    {
        w.title = title;
    }
    // The map's sight is the simulation's own, in this world (the scene on screen is the
    // one loaded there), with the fields of view it has cached.
    let mut map_vision = map_vision;
    let mut vision = map_vision.as_mut().and_then(|m| m.0.as_mut());
    let now = party_view(snap, vision.as_deref_mut(), &side);
    remember(&pb, &mut shown, vision, (&side, now.cells.len()));
    // What the window shows, in world units: names are kept inside it.
    let view = draw_fog(&pb, &now, &shown, &mut canvas).map(|(centre, size)| {
        fit(&mut canvas, centre, size, px);
        Rect::from_center_half_size(centre, px * fit_scale(size, px) / 2.0)
    });
    for e in &canvas.drawn {
        canvas.commands.entity(e).despawn();
    }
    // Tokens pushed apart in a crowd and names placed clear of each other, as on the DM's
    // map (viewer/labels.rs), for the figures shown here only.
    let shown_figures: Vec<super::FigureView> = now
        .figures
        .iter()
        .filter_map(|&i| snap.figure(i).cloned())
        .collect();
    let scale = canvas
        .camera
        .single()
        .ok()
        .and_then(|(_, p)| match p {
            Projection::Orthographic(o) => Some(o.scale),
            _ => None,
        })
        .unwrap_or(0.1);
    let size = super::label_size(scale);
    let placed = super::layout(&shown_figures, size, view);
    for (k, f) in shown_figures.iter().enumerate() {
        let label = placed.labels[k]
            .as_ref()
            .map(|l| (l.offset, l.text.clone()));
        let at = (placed.drawn[k], placed.radii[k]);
        token(&mut canvas, f, (f.side == side, at, size), label);
    }
}

/// Adds to what the party has seen every frame up to the one shown (again from the start
/// when the playback was replaced, edited or stepped back).
fn remember(
    pb: &Playback,
    shown: &mut Shown,
    mut vision: Option<&mut Vision>,
    (side, n): (&str, usize),
) {
    let fresh =
        shown.upto.0 != pb.generation || shown.upto.1 != pb.edits || shown.upto.2 > pb.cursor;
    if fresh {
        shown.ever = vec![false; n];
        shown.upto = (pb.generation, pb.edits, 0);
    }
    for k in shown.upto.2..=pb.cursor {
        if let Some(frame) = pb.frames.get(k) {
            let seen = party_view(frame, vision.as_deref_mut(), side).cells;
            for (e, s) in shown.ever.iter_mut().zip(seen) {
                *e |= s;
            }
        }
    }
    shown.upto.2 = pb.cursor + 1;
}

/// A figure's token and name in the players' window: the party's in blue, a foe seen in
/// red, one down in grey.
fn token(
    canvas: &mut Canvas,
    f: &super::FigureView,
    (ours, (at, radius), size): (bool, (Vec2, f32), f32),
    label: Option<(Vec2, String)>,
) {
    let colour = match (ours, f.up) {
        (true, true) => Color::srgb(0.30, 0.55, 0.95),
        (false, true) => Color::srgb(0.90, 0.25, 0.20),
        (_, false) => Color::srgb(0.45, 0.45, 0.45),
    };
    let mesh = canvas.meshes.add(Circle::new(radius));
    let material = canvas.materials.add(colour);
    canvas.commands.spawn((
        Mesh2d(mesh),
        MeshMaterial2d(material),
        Transform::from_translation(at.extend(1.0)),
        RenderLayers::layer(PLAYERS_LAYER),
        PlayersToken,
    ));
    // A name with no room beside its token is left out (the DM's map shows it on hover).
    let Some((offset, text)) = label else { return };
    canvas.commands.spawn((
        Text2d::new(text),
        TextFont {
            font_size: FontSize::Px(40.0),
            ..default()
        },
        Transform::from_translation((at + offset).extend(2.0)).with_scale(Vec3::splat(size / 40.0)),
        RenderLayers::layer(PLAYERS_LAYER),
        PlayersLabel,
    ));
}

/// Paints the fog image (in sight, remembered, never seen); the part of the world to fit
/// the window to (centre and size): the map, or without one the figures shown.
fn draw_fog(
    pb: &Playback,
    now: &PartyView,
    shown: &Shown,
    canvas: &mut Canvas,
) -> Option<(Vec2, Vec2)> {
    let Some(grid) = pb.grid.as_ref() else {
        let snap = pb.current();
        let at: Vec<(f64, f64)> = now
            .figures
            .iter()
            .filter_map(|&i| snap.figure(i).map(|f| f.at))
            .collect();
        if at.is_empty() {
            return None;
        }
        let lo = at
            .iter()
            .fold((f64::MAX, f64::MAX), |a, p| (a.0.min(p.0), a.1.min(p.1)));
        let hi = at
            .iter()
            .fold((f64::MIN, f64::MIN), |a, p| (a.0.max(p.0), a.1.max(p.1)));
        let size = Vec2::new((hi.0 - lo.0) as f32 + 20.0, (hi.1 - lo.1) as f32 + 20.0);
        let centre = world_of(((lo.0 + hi.0) / 2.0, (lo.1 + hi.1) / 2.0));
        return Some((centre, size));
    };
    let (w, h) = (grid.width, grid.height);
    let mut data = Vec::with_capacity(w * h * 4);
    for y in 0..h {
        for x in 0..w {
            let k = y * w + x;
            let wall = usize::from(grid.opaque(x as i64, y as i64));
            let px = if now.cells.get(k).copied().unwrap_or(false) {
                IN_SIGHT[wall]
            } else if shown.ever.get(k).copied().unwrap_or(false) {
                REMEMBERED[wall]
            } else {
                UNSEEN
            };
            data.extend_from_slice(&px);
        }
    }
    let mut image = Image::new(
        Extent3d {
            width: w as u32,
            height: h as u32,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::all(),
    );
    image.sampler = ImageSampler::nearest();
    let _ = canvas.images.insert(&shown.image, image);
    let size = Vec2::new(grid.width_ft() as f32, grid.height_ft() as f32);
    let centre = world_of((grid.width_ft() / 2.0, grid.height_ft() / 2.0));
    if let Ok((mut sprite, mut tf)) = canvas.fog.single_mut() {
        sprite.custom_size = Some(size);
        tf.translation = centre.extend(0.0);
    }
    Some((centre, size))
}

/// The players' window's size when it opens, in logical pixels.
const DEFAULT_PX: Vec2 = Vec2::new(900.0, 700.0);

/// Centres the players' camera on `centre` with `size` (world units) in view.
fn fit(canvas: &mut Canvas, centre: Vec2, size: Vec2, window_px: Vec2) {
    if let Ok((mut tf, mut projection)) = canvas.camera.single_mut()
        && let Projection::Orthographic(ortho) = projection.as_mut()
    {
        tf.translation = centre.extend(tf.translation.z);
        ortho.scale = fit_scale(size, window_px);
    }
}

/// World units a pixel so that `size` is all in a window of `window_px`, with a margin of
/// 20 pixels a side (a window shrunk to nothing still gets a finite scale).
pub fn fit_scale(size: Vec2, window_px: Vec2) -> f32 {
    let room = (window_px - Vec2::splat(40.0)).max(Vec2::splat(40.0));
    (size.x / room.x).max(size.y / room.y)
}

/// `PATH`'s players' window beside it: `shot.png` → `shot-players.png`.
pub fn beside(path: &std::path::Path) -> std::path::PathBuf {
    let stem = path
        .file_stem()
        .map_or("shot".into(), |s| s.to_string_lossy().to_string());
    let ext = path
        .extension()
        .map_or("png".into(), |e| e.to_string_lossy().to_string());
    path.with_file_name(format!("{stem}-players.{ext}"))
}

/// The players' window closed: it goes, and the DM's window stays.
fn close(
    mut commands: Commands,
    shown: Option<Res<Shown>>,
    mut closing: MessageReader<bevy::window::WindowCloseRequested>,
    drawn: Query<Entity, Everything>,
) {
    let Some(shown) = shown else { return };
    if closing.read().any(|c| c.window == shown.window) {
        commands.entity(shown.window).despawn();
        // Its camera, fog and tokens go with it.
        for e in &drawn {
            commands.entity(e).despawn();
        }
        commands.remove_resource::<Shown>();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever the map and however the table's window is sized, the map is all in
        /// the window within its margin, and fills it one way (not left at the size the
        /// window opened with).
        #[test]
        fn the_view_fits_the_window_it_is_in(
            w in 5.0f32..5000.0,
            h in 5.0f32..5000.0,
            px in 100.0f32..4000.0,
            py in 100.0f32..3000.0,
        ) {
            let scale = fit_scale(Vec2::new(w, h), Vec2::new(px, py));
            let (on_x, on_y) = (w / scale, h / scale);
            prop_assert!(on_x <= px - 40.0 + 0.01 && on_y <= py - 40.0 + 0.01);
            prop_assert!((on_x - (px - 40.0)).abs() < 0.01 || (on_y - (py - 40.0)).abs() < 0.01);
        }
    }

    #[test]
    fn the_opening_size_keeps_its_old_scale() {
        let size = Vec2::new(430.0, 200.0);
        assert_eq!(fit_scale(size, DEFAULT_PX), 0.5);
    }

    fn screen(x: i32, w: u32, h: u32, primary: bool) -> Screen {
        Screen {
            at: IVec2::new(x, 0),
            size: UVec2::new(w, h),
            primary,
        }
    }

    /// One screen: the players' window goes to its bottom-right corner, away from the
    /// DM's window at the top-left, and never off the screen when it is larger.
    #[test]
    fn on_one_screen_the_table_window_takes_the_far_corner() {
        let window = UVec2::new(900, 700);
        assert_eq!(
            placement(&[screen(0, 1920, 1080, true)], window),
            WindowPosition::At(IVec2::new(1020, 380))
        );
        assert_eq!(
            placement(&[screen(0, 800, 600, true)], window),
            WindowPosition::At(IVec2::ZERO)
        );
    }

    /// Two screens: centred on the one the DM's window is not on, wherever it lies.
    #[test]
    fn a_second_screen_takes_the_table_window() {
        let window = UVec2::new(900, 700);
        let screens = [screen(1920, 1280, 1024, false), screen(0, 1920, 1080, true)];
        assert_eq!(
            placement(&screens, window),
            WindowPosition::At(IVec2::new(1920 + 190, 162))
        );
        assert_eq!(placement(&[], window), WindowPosition::Automatic);
    }
}
