//! The viewer: watch a scene segment by segment on a 2D grid map, with egui panels and
//! keyboard and mouse control, on top of the headless engine.
//!
//! - [`ViewerCorePlugin`]: playback (snapshots, stepping back and forth, play/pause),
//!   leafwing input, layers, selection and scene (re)loading. No window needed, so tests
//!   drive it under `MinimalPlugins`.
//! - [`ViewerRenderPlugin`]: the map (cells, light, tokens, paths, rings, sight lines,
//!   ruler), the camera, the egui panels, screenshots and frame-time measurement.
//!
//! [`run`] opens a window with both.

mod ahead;
mod camera;
mod capture;
mod coords;
mod editor;
mod editor_ui;
pub use editor_ui::{
    EditorUi, Pick, boxed, follow_form, monster_choice, picked, redress, stale_question,
};
mod idle;
mod input;
pub mod labels;
mod map_view;
pub mod mode;
pub mod odds_panel;
mod panels;
mod playback;
pub mod players;
pub mod preview;
mod recovery;
mod reload;
mod renderer_memory;
mod ruler;
mod snapshot;
mod source;
mod style;
pub mod table_dice;
pub mod teach;
mod teach_charts;
mod teach_ui;
mod unsaved_ui;
mod wake;

pub use camera::{fitted_view, world_of};
pub use capture::{Capture, FrameTimes};
pub use editor::{Answer, Editor, EditorCommand, Pending, replace_offered};
pub use input::ViewerAction;
pub use map_view::{LabelLayout, label_size, label_text, layout, token_under};
pub use mode::ViewerMode;
pub use playback::{Playback, PlaybackCommand, SPEEDS};
pub use recovery::{Found, Recovery};
pub use snapshot::{FigureView, Snapshot};
pub use source::SceneSource;

use bevy::prelude::*;
use leafwing_input_manager::prelude::*;
use std::path::PathBuf;

/// The order of the viewer's work in a frame, chained in [`ViewerCorePlugin::build`].
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ViewerSet {
    /// Actions become commands and toggles.
    Input,
    /// The editor makes its edits, undoes, redoes and saves, and replays the result.
    Edit,
    /// The scene file is checked for changes and reloaded.
    Reload,
    /// Commands move the playback; the play timer steps it.
    Playback,
    /// The camera follows pan and zoom.
    Camera,
    /// The map is drawn from the current snapshot.
    Draw,
}

/// Which layers of the map are shown.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct Layers {
    /// Grid lines (5-ft cells, 10-ft major lines).
    pub grid: bool,
    /// Lit cells and light radii.
    pub light: bool,
    /// Lines of sight between figures.
    pub sight: bool,
    /// Move and charge paths.
    pub paths: bool,
    /// Infravision and encounter-distance rings.
    pub rings: bool,
    /// The help window.
    pub help: bool,
    /// The scene's tour captions (a scene may have none).
    pub tour: bool,
    /// What the event log shows.
    pub log: LogFilter,
}

impl Default for Layers {
    fn default() -> Self {
        Layers {
            grid: true,
            light: true,
            sight: true,
            paths: true,
            rings: true,
            help: false,
            tour: true,
            log: LogFilter::default(),
        }
    }
}

/// What the event log shows: kinds of event, and one figure's (as actor or target).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogFilter {
    /// Sight events (who starts or stops seeing whom): many in a lit crowd.
    pub sight: bool,
    /// Movement and arrivals.
    pub moves: bool,
    /// Blows, damage and falls.
    pub blows: bool,
    /// Spells, devices, potions and their effects.
    pub spells: bool,
    /// Everything else (initiative, declarations, surprise, distance...).
    pub other: bool,
    /// Only the events of this figure (acting or aimed at).
    pub figure: Option<crate::scene::FigureId>,
}

impl Default for LogFilter {
    fn default() -> Self {
        LogFilter {
            sight: false,
            moves: true,
            blows: true,
            spells: true,
            other: true,
            figure: None,
        }
    }
}

impl LogFilter {
    /// Whether an event is shown.
    pub fn shows(&self, e: &crate::sim::LogEvent) -> bool {
        use crate::sim::EventGroup as G;
        let kind = match e.kind.group() {
            G::Sight => self.sight,
            G::Moves => self.moves,
            G::Blows => self.blows,
            G::Spells => self.spells,
            G::Other => self.other,
        };
        kind && self.figure.as_ref().is_none_or(|&f| e.involves(f))
    }
}

/// The selected figure, by index.
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection(pub Option<usize>);

/// Requests that are not playback commands.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum ViewerRequest {
    /// Reload the scene file now.
    Reload,
    /// Replay the scene under the other rules system.
    SwitchSystem,
    /// Open another scene file.
    Open(PathBuf),
    /// Save a screenshot.
    Screenshot,
    /// Save the round summary (Markdown) beside a screenshot of the map.
    Export,
    /// Turn the editor on or off (the top bar's button).
    ToggleEdit,
    /// Fit the map to the window.
    Fit,
    /// Close the window, or quit (asks first when edits are unsaved).
    Quit,
}

/// Playback, input, layers, selection and scene loading; no rendering.
pub struct ViewerCorePlugin {
    /// The scene file to open.
    pub path: PathBuf,
    /// Seed override.
    pub seed: Option<u64>,
    /// Watch the file and reload it when it changes.
    pub watch: bool,
    /// Play under this rules system instead of the scene's own.
    pub system: Option<crate::rules::options::RulesSystem>,
    /// Where unsaved edits are copied as they are made (none: no autosave); see
    /// [`Recovery::default_dir`].
    pub recovery: Option<PathBuf>,
}

impl ViewerCorePlugin {
    /// The scene at `path`, its own seed and rules, not watched, no autosave.
    pub fn at(path: impl Into<PathBuf>) -> ViewerCorePlugin {
        ViewerCorePlugin {
            path: path.into(),
            seed: None,
            watch: false,
            system: None,
            recovery: None,
        }
    }
}

impl Plugin for ViewerCorePlugin {
    fn build(&self, app: &mut App) {
        if !app.is_plugin_added::<bevy::state::app::StatesPlugin>() {
            app.add_plugins(bevy::state::app::StatesPlugin);
        }
        // The simulation lives in this world: scenes are loaded into it as they are opened,
        // edited or reloaded, and stepped as the playback asks (`playback`).
        app.add_plugins(crate::sim::SimPlugins::host())
            .add_plugins(InputManagerPlugin::<ViewerAction>::default())
            .init_state::<ViewerMode>()
            .add_message::<PlaybackCommand>()
            .add_message::<ViewerRequest>()
            .add_message::<editor::EditorCommand>()
            .add_message::<table_dice::TableAnswer>()
            .init_resource::<table_dice::TableDice>()
            .init_resource::<odds_panel::OddsPanel>()
            // Asked for by the odds panel when trials end; a window's winit reads it (a
            // headless viewer has none, and the message is registered here for it).
            .add_message::<bevy::window::RequestRedraw>()
            .add_systems(Update, odds_panel::collect)
            .init_resource::<editor::Editor>()
            .insert_resource(recovery::Recovery::new(self.recovery.clone()))
            .init_resource::<Layers>()
            .init_resource::<Selection>()
            .init_resource::<teach::Teach>()
            .insert_resource(
                SceneSource::new(self.path.clone(), self.seed, self.watch).under(self.system),
            )
            .configure_sets(
                Update,
                (
                    ViewerSet::Input,
                    ViewerSet::Edit,
                    ViewerSet::Reload,
                    ViewerSet::Playback,
                    ViewerSet::Camera,
                    ViewerSet::Draw,
                )
                    .chain(),
            )
            .add_systems(Startup, (spawn_controls, reload::open_first).chain())
            .add_systems(
                Update,
                (
                    (
                        input::read_actions,
                        table_dice::answer.run_if(in_state(ViewerMode::TableDice)),
                    )
                        .chain()
                        .in_set(ViewerSet::Input),
                    (
                        editor_ui::flush_form,
                        editor::run_editor,
                        recovery::autosave,
                    )
                        .chain()
                        .in_set(ViewerSet::Edit),
                    reload::reload.in_set(ViewerSet::Reload),
                    (teach::follow, playback::run_playback)
                        .chain()
                        .in_set(ViewerSet::Playback),
                ),
            );
    }
}

/// Selects the named figure once the scene is on screen (`view --select`).
fn select_at_start(
    name: Option<String>,
) -> impl FnMut(Option<Res<playback::Playback>>, ResMut<Selection>) {
    let mut done = false;
    move |pb, mut selection| {
        if done {
            return;
        }
        if let (Some(pb), Some(n)) = (pb, &name) {
            selection.0 = pb
                .current()
                .figures
                .iter()
                .find(|f| &f.name == n)
                .map(|f| f.index);
        }
        done = true;
    }
}

/// Starts in table-dice or predict mode (`view --table-dice`, `view --predict`).
fn start_in(table_dice: bool, predict: bool) -> impl FnMut(ResMut<NextState<ViewerMode>>) {
    move |mut next| {
        if table_dice {
            next.set(ViewerMode::TableDice);
        } else if predict {
            next.set(ViewerMode::Predict);
        }
    }
}

/// The entity holding the input map and action state.
fn spawn_controls(mut commands: Commands) {
    commands.spawn((Name::new("Controls"), ViewerAction::default_input_map()));
}

/// How long an idle viewer sleeps between updates: it wakes at once on input and on a
/// change of the scene file (viewer/wake.rs); this long only for the autosave of edits.
pub const IDLE_WAKE: std::time::Duration = std::time::Duration::from_secs(5);

/// The map, camera, panels, screenshots and frame times.
pub struct ViewerRenderPlugin {
    /// Take a screenshot after the first frames and exit.
    pub capture: Option<Capture>,
    /// Measure frame times for this many frames, print them and exit.
    pub frame_times: Option<u32>,
}

impl Plugin for ViewerRenderPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((bevy_egui::EguiPlugin::default(), idle::IdlePlugin))
            .insert_resource(ClearColor(style::BACKGROUND))
            .init_resource::<panels::PanelRects>()
            .init_resource::<ruler::Ruler>()
            .init_resource::<map_view::LabelLayout>()
            .init_resource::<map_view::TokenMaterials>()
            .init_resource::<preview::Preview>()
            .init_resource::<editor_ui::EditorUi>()
            .add_systems(Startup, camera::spawn_camera)
            .add_systems(
                Update,
                (
                    (camera::camera_controls, camera::sync_token_camera)
                        .chain()
                        .in_set(ViewerSet::Camera),
                    (
                        map_view::rebuild_map,
                        map_view::update_cells,
                        map_view::update_tokens,
                        map_view::draw_overlays,
                        map_view::measure.run_if(mode::not_in(ViewerMode::Edit)),
                        (editor_ui::editor_pointer, editor_ui::draw_declarations)
                            .run_if(in_state(ViewerMode::Edit)),
                        (preview::update_preview, preview::draw_preview).chain(),
                    )
                        .chain()
                        .in_set(ViewerSet::Draw),
                    capture::manual_screenshot.in_set(ViewerSet::Draw),
                    unsaved_ui::close_requested.in_set(ViewerSet::Input),
                    unsaved_ui::window_title.in_set(ViewerSet::Draw),
                ),
            )
            .add_systems(
                bevy_egui::EguiPrimaryContextPass,
                (
                    panels::panels,
                    editor_ui::editor_panel.run_if(in_state(ViewerMode::Edit)),
                    map_view::hover_label.run_if(not(editor_ui::menu_open)),
                    preview::label_ticks,
                    table_dice::ask.run_if(in_state(ViewerMode::TableDice)),
                    odds_panel::odds_window.run_if(odds_panel::open),
                    teach_ui::tour_caption,
                    teach_ui::predict_window.run_if(in_state(ViewerMode::Predict)),
                    teach_charts::charts_window,
                    unsaved_ui::unsaved_dialog,
                    unsaved_ui::recovery_offer,
                )
                    .chain(),
            );
        if let Some(c) = &self.capture {
            app.insert_resource(c.clone())
                .add_systems(Update, capture::scheduled_capture);
        }
        // A desktop tool beside a game: it wakes on input, when the scene file changes (a
        // thread looks twice a second, drawing nothing), every 5 s (the autosave itself is written as each edit is made), and
        // every frame only while a round plays or trials run.
        if self.capture.is_none() && self.frame_times.is_none() {
            app.insert_resource(bevy::winit::WinitSettings {
                focused_mode: bevy::winit::UpdateMode::reactive(IDLE_WAKE),
                unfocused_mode: bevy::winit::UpdateMode::reactive_low_power(IDLE_WAKE),
            })
            .add_systems(Startup, wake::start)
            .add_systems(
                Update,
                (
                    playback::keep_awake_while_playing,
                    odds_panel::keep_awake_while_running,
                    wake::follow,
                ),
            );
        }
        if let Some(n) = self.frame_times {
            app.insert_resource(FrameTimes::new(n))
                .add_systems(Update, capture::measure_frames);
        }
    }
}

/// Options for [`run`].
#[derive(Clone, Debug, Default)]
pub struct ViewOptions {
    /// Seed override.
    pub seed: Option<u64>,
    /// Screenshot then exit.
    pub capture: Option<Capture>,
    /// Measure frame times then exit.
    pub frame_times: Option<u32>,
    /// Play under this rules system instead of the scene's own.
    pub system: Option<crate::rules::options::RulesSystem>,
    /// Open in edit mode, with this figure's context menu open if named.
    pub edit: Option<Option<String>>,
    /// Select this figure at the start.
    pub select: Option<String>,
    /// Table dice from the start.
    pub table_dice: bool,
    /// The Odds panel open from the start, running this many trials (of this sweep, and
    /// with the scene's fixed dice rolled too).
    pub odds: Option<(u64, String, bool)>,
    /// Teaching from the start: predict mode, the charts, and answers given in advance
    /// (1-based), used as the questions come.
    pub teach: (bool, bool, Vec<usize>),
    /// The players' window, for this side (none: the first character's side).
    pub players: Option<Option<String>>,
}

/// Opens the viewer window on a scene file. Returns the process exit code.
pub fn run(path: PathBuf, options: ViewOptions) -> i32 {
    if let Err(e) = crate::scene::load(&path)
        && (options.edit.is_none() || crate::scene::load_unchecked(&path).is_none())
    {
        eprintln!("{}", e.render());
        return 2;
    }
    let title = format!("First Strike — {}", path.display());
    renderer_memory::keep_frame_memory();
    let mut app = App::new();
    if let Some(side) = &options.players {
        app.insert_resource(players::Players { side: side.clone() });
    }
    let exit = app
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title,
                resolution: bevy::window::WindowResolution::new(1280, 800),
                ..default()
            }),
            // The close button asks first when edits are unsaved (unsaved_ui::close_requested).
            close_when_requested: false,
            ..default()
        }))
        .add_plugins(ViewerCorePlugin {
            path,
            seed: options.seed,
            watch: true,
            system: options.system,
            // A screenshot or a timing run edits nothing and leaves no recovery file.
            recovery: (options.capture.is_none() && options.frame_times.is_none())
                .then(Recovery::default_dir)
                .flatten(),
        })
        .add_plugins(ViewerRenderPlugin {
            capture: options.capture,
            frame_times: options.frame_times,
        })
        .add_plugins(players::PlayersPlugin)
        .add_systems(Startup, editor_ui::start_editing(options.edit))
        .add_systems(Last, editor_ui::wake_on_pointer_crossing)
        .add_systems(Update, select_at_start(options.select))
        .add_systems(Startup, start_in(options.table_dice, options.teach.0))
        .insert_resource(odds_panel::OddsPanel::at_start(options.odds))
        .insert_resource(teach::Teach {
            charts: options.teach.1,
            scripted: options.teach.2,
            ..Default::default()
        })
        .run();
    match exit {
        AppExit::Success => 0,
        AppExit::Error(code) => i32::from(code.get()),
    }
}
