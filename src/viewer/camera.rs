//! The cameras: the map camera looks at the map (1 world unit = 1 foot, y up, so a point
//! (x, y) in feet is at (x, -y)); it fits the map into the area the panels leave free, and
//! pans and zooms with the keys and the mouse. A token camera with the same view draws
//! the tokens and their names after the map's lines, so no line crosses a token, and then
//! the egui panels.

use super::ViewerRequest;
pub use super::coords::{feet_of, world_of};
use super::input::ViewerAction;
use super::panels::PanelRects;
use super::playback::Playback;
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

/// Feet left beside the map when it is fitted (on either side, and below), so that a name
/// drawn beside a figure at the map's edge is not cut by the panels.
const LABEL_ROOM_FT: f32 = 8.0;

/// The map's width and height in feet: its grid's, or without one the figures' extent.
fn map_size(pb: &Playback) -> (f32, f32) {
    match &pb.grid {
        Some(g) => (g.width_ft() as f32, g.height_ft() as f32),
        None => extent(pb),
    }
}

/// The part of the world the fitted view always shows, in world units (y up): the map and
/// the room kept beside it. A label kept inside it is never cut by the view's edge.
pub fn fitted_view(pb: &Playback) -> Rect {
    let (w, h) = map_size(pb);
    let room = LABEL_ROOM_FT;
    Rect::new(-room, -h - room / 2.0, w + room, room / 2.0)
}

/// The map camera, with the generation of the scene it last fitted.
#[derive(Component, Default)]
pub struct MapCamera {
    fitted: Option<u32>,
    frames_since_fit: u32,
    /// The window's size at the last fit: a resized window fits the map again (a DM who
    /// made the window smaller found the map's top rows cut off).
    window: Option<(u32, u32)>,
}

/// The camera that draws tokens over the map's lines.
#[derive(Component)]
pub struct TokenCamera;

/// The render layer of tokens and their names.
pub const TOKEN_LAYER: usize = 1;

/// Spawns the map, token and egui cameras.
pub(super) fn spawn_camera(
    mut commands: Commands,
    mut egui_settings: ResMut<bevy_egui::EguiGlobalSettings>,
) {
    use bevy::camera::CameraOutputMode;
    use bevy::camera::visibility::RenderLayers;
    egui_settings.auto_create_primary_context = false;
    // No multisampling: flat 2D shapes gain little from it, and software rendering pays
    // for every sample. The two cameras share one picture: the map camera draws into it
    // and does not copy it to the window (`Skip`); the token camera draws the tokens and
    // then the panels (it holds egui's context) over it and copies it once. Each copy,
    // clear or camera more is a full-window pass, which a software renderer pays per pixel.
    commands.spawn((
        Camera2d,
        MapCamera::default(),
        Msaa::Off,
        Camera {
            output_mode: CameraOutputMode::Skip,
            ..default()
        },
    ));
    commands.spawn((
        Camera2d,
        TokenCamera,
        bevy_egui::PrimaryEguiContext,
        Msaa::Off,
        Camera {
            order: 1,
            clear_color: ClearColorConfig::None,
            ..default()
        },
        RenderLayers::layer(TOKEN_LAYER),
    ));
}

/// The map camera's view, read to copy it.
type MapView<'a> = (&'a Transform, &'a Projection);

/// Gives the token camera the map camera's view.
pub(super) fn sync_token_camera(
    map: Single<MapView, (With<MapCamera>, Without<TokenCamera>)>,
    token: Single<(&mut Transform, &mut Projection), With<TokenCamera>>,
) {
    let (tf, proj) = map.into_inner();
    let (mut ttf, mut tproj) = token.into_inner();
    *ttf = *tf;
    *tproj = proj.clone();
}

/// Fits the map on a new scene or on request; pans and zooms.
pub(super) fn camera_controls(
    camera: Single<(&mut Transform, &mut Projection, &mut MapCamera), Without<TokenCamera>>,
    actions: Single<&ActionState<ViewerAction>>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    panels: Res<PanelRects>,
    playback: Option<Res<Playback>>,
    mut requests: MessageReader<ViewerRequest>,
    (time, keys, egui): (
        Res<Time>,
        Res<ButtonInput<KeyCode>>,
        Option<Res<bevy_egui::input::EguiWantsInput>>,
    ),
) {
    let (mut tf, mut projection, mut cam) = camera.into_inner();
    let Projection::Orthographic(ortho) = projection.as_mut() else {
        return;
    };
    let Ok(window) = windows.single() else {
        return;
    };
    let Some(pb) = playback else {
        return;
    };
    let refit = requests.read().any(|r| *r == ViewerRequest::Fit);
    // Fit once the panels have been laid out (a couple of frames after a new scene).
    let size = (
        window.width().round() as u32,
        window.height().round() as u32,
    );
    if cam.fitted != Some(pb.generation) || cam.window.is_some_and(|w| w != size) {
        cam.fitted = Some(pb.generation);
        cam.frames_since_fit = 0;
    }
    cam.window = Some(size);
    cam.frames_since_fit += 1;
    if refit || cam.frames_since_fit <= 3 {
        let (w_ft, h_ft) = map_size(&pb);
        let free = panels.free(window.width(), window.height());
        // Room round the map for the names of figures at its edges, which reach past them.
        let (pad_w, pad_h) = (w_ft + 2.0 * LABEL_ROOM_FT, h_ft + LABEL_ROOM_FT);
        let scale = (pad_w / free.width().max(50.0)).max(pad_h / free.height().max(50.0)) * 1.06;
        ortho.scale = scale.max(0.01);
        let win_centre = Vec2::new(window.width(), window.height()) / 2.0;
        let off = (free.center() - win_centre) * scale;
        tf.translation.x = w_ft / 2.0 - off.x;
        tf.translation.y = -h_ft / 2.0 + off.y;
    }
    let actions = actions.into_inner();
    // With Ctrl held, W A S D, Q and E belong to a shortcut (Ctrl+S, Ctrl+Q), not the map;
    // and letters typed into a text field (a name, a path) are words, not moves.
    let typing = egui.as_ref().is_some_and(|e| e.wants_keyboard_input());
    let chord = typing || keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let pan = if chord {
        Vec2::ZERO
    } else {
        actions.axis_pair(&ViewerAction::Pan)
    };
    tf.translation += (pan * 400.0 * ortho.scale * time.delta_secs()).extend(0.0);
    // The mouse pans and zooms the map only when it is over the map, not a panel or a
    // window of egui's (a dialog, the odds) lying over the map.
    let over_map = !egui.as_ref().is_some_and(|e| e.is_pointer_over_area())
        && window
            .cursor_position()
            .is_some_and(|c| panels.free(window.width(), window.height()).contains(c));
    if over_map && actions.pressed(&ViewerAction::DragPan) {
        let d = actions.axis_pair(&ViewerAction::MouseMotion);
        tf.translation.x -= d.x * ortho.scale;
        tf.translation.y += d.y * ortho.scale;
    }
    let wheel = if over_map {
        actions.value(&ViewerAction::WheelZoom)
    } else {
        0.0
    };
    let keys_zoom = if chord {
        0.0
    } else {
        actions.value(&ViewerAction::Zoom)
    };
    let zoom = keys_zoom * 4.0 * time.delta_secs() + wheel;
    if zoom != 0.0 {
        let before = ortho.scale;
        ortho.scale = (ortho.scale * 1.1f32.powf(-zoom.clamp(-3.0, 3.0))).clamp(0.005, 50.0);
        // The wheel zooms toward the cursor: the point under it stays under it.
        if wheel != 0.0
            && let Some(c) = window.cursor_position()
        {
            let off = c - Vec2::new(window.width(), window.height()) / 2.0;
            let d = Vec2::new(off.x, -off.y) * (before - ortho.scale);
            tf.translation += d.extend(0.0);
        }
    }
}

/// The extent of the figures when there is no map.
fn extent(pb: &Playback) -> (f32, f32) {
    pb.current()
        .figures
        .iter()
        .fold((60.0f32, 60.0f32), |(w, h), f| {
            (w.max(f.at.0 as f32 + 20.0), h.max(f.at.1 as f32 + 20.0))
        })
}
