//! Input: every key and mouse binding is a leafwing [`ViewerAction`]; one system turns the
//! actions of a frame into playback commands, layer toggles, selection, camera moves,
//! reloads and screenshots. The help window lists the bindings from the same input map.

use super::playback::{Playback, PlaybackCommand};
use super::{Layers, Selection, ViewerRequest};
use bevy::prelude::*;
use leafwing_input_manager::prelude::*;

/// What the user can ask of the viewer.
#[derive(Actionlike, Clone, Copy, Debug, PartialEq, Eq, Hash, Reflect)]
pub enum ViewerAction {
    /// One segment forward.
    StepForward,
    /// One segment back.
    StepBack,
    /// To the next round.
    NextRound,
    /// To the start of this round (again: the round before).
    PrevRound,
    /// Play or pause.
    PlayPause,
    /// Play faster.
    Faster,
    /// Play slower.
    Slower,
    /// Show or hide the grid lines.
    ToggleGrid,
    /// Show or hide light (lit cells and radii).
    ToggleLight,
    /// Show or hide lines of sight.
    ToggleSight,
    /// Show or hide move and charge paths.
    TogglePaths,
    /// Show or hide infravision and encounter-distance rings.
    ToggleRings,
    /// Select the next figure.
    NextFigure,
    /// Select the previous figure.
    PrevFigure,
    /// Pan the map (keys).
    #[actionlike(DualAxis)]
    Pan,
    /// Pan the map while the button is held (with mouse motion).
    DragPan,
    /// Mouse motion for dragging.
    #[actionlike(DualAxis)]
    MouseMotion,
    /// Zoom in and out (keys).
    #[actionlike(Axis)]
    Zoom,
    /// Zoom in and out (mouse wheel, over the map).
    #[actionlike(Axis)]
    WheelZoom,
    /// Fit the map to the window.
    Fit,
    /// Measure: drag with the button held.
    Measure,
    /// Reload the scene file.
    Reload,
    /// Replay the scene under the other rules system.
    SwitchSystem,
    /// Turn the encounter editor on or off.
    ToggleEdit,
    /// Table dice: ask for each roll the scene does not fix.
    TableDice,
    /// The Odds panel: how likely is each outcome.
    Odds,
    /// Predict, then reveal: questions before each beat.
    Predict,
    /// The charts window: the cell that decided the beat in view.
    Charts,
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Save the edited scene.
    Save,
    /// Save a screenshot.
    Screenshot,
    /// Show or hide the help.
    Help,
    /// Close the viewer (asks first when edits are unsaved).
    Quit,
}

impl ViewerAction {
    /// Every action, in the help window's order (kept beside the enum it lists).
    pub const ALL: [ViewerAction; 34] = {
        use ViewerAction::*;
        [
            StepForward,
            StepBack,
            NextRound,
            PrevRound,
            PlayPause,
            Faster,
            Slower,
            ToggleGrid,
            ToggleLight,
            ToggleSight,
            TogglePaths,
            ToggleRings,
            NextFigure,
            PrevFigure,
            Pan,
            DragPan,
            MouseMotion,
            Zoom,
            WheelZoom,
            Fit,
            Measure,
            Reload,
            SwitchSystem,
            ToggleEdit,
            TableDice,
            Odds,
            Predict,
            Charts,
            Undo,
            Redo,
            Save,
            Screenshot,
            Help,
            Quit,
        ]
    };

    /// A line of help.
    pub fn describe(self) -> &'static str {
        match self {
            ViewerAction::StepForward => "one segment forward",
            ViewerAction::StepBack => "one segment back (restores the exact earlier state)",
            ViewerAction::NextRound => "next round",
            ViewerAction::PrevRound => "start of this round / previous round",
            ViewerAction::PlayPause => "play / pause",
            ViewerAction::Faster => "play faster",
            ViewerAction::Slower => "play slower",
            ViewerAction::ToggleGrid => "grid lines on/off",
            ViewerAction::ToggleLight => "light (lit cells, radii) on/off",
            ViewerAction::ToggleSight => "lines of sight on/off",
            ViewerAction::TogglePaths => "move and charge paths on/off",
            ViewerAction::ToggleRings => "infravision and encounter rings on/off",
            ViewerAction::NextFigure => "select the next figure",
            ViewerAction::PrevFigure => "select the previous figure",
            ViewerAction::Pan => "pan the map",
            ViewerAction::DragPan => "drag to pan",
            ViewerAction::MouseMotion => "(mouse motion for dragging)",
            ViewerAction::Zoom => "zoom",
            ViewerAction::WheelZoom => "zoom (over the map)",
            ViewerAction::Fit => "fit the map to the window",
            ViewerAction::Measure => "drag to measure (feet and inches)",
            ViewerAction::Reload => "reload the scene file",
            ViewerAction::ToggleEdit => "edit mode: build your own encounter",
            ViewerAction::TableDice => {
                "table dice: type what your dice showed for each roll (Enter keeps the seed's)"
            }
            ViewerAction::Odds => "odds: play the scene many times, how often each outcome happens",
            ViewerAction::Predict => {
                "predict, then reveal: answer before each beat is played, see the rule and page"
            }
            ViewerAction::Charts => "charts: the chart cell that decided the beat in view",
            ViewerAction::Undo => "undo the last edit",
            ViewerAction::Redo => "redo the last undone edit",
            ViewerAction::Save => "save the edited scene (Save as in the editor panel)",
            ViewerAction::SwitchSystem => {
                "replay under the other rules system (the book's / Take Initiative!)"
            }
            ViewerAction::Screenshot => "save a screenshot in screenshots/",
            ViewerAction::Help => "this help",
            ViewerAction::Quit => "quit (asks first when edits are unsaved)",
        }
    }

    /// The default bindings: [`KEY_BINDINGS`] plus the mouse and the axes.
    pub fn default_input_map() -> InputMap<ViewerAction> {
        use ViewerAction::*;
        let mut map = InputMap::new(KEY_BINDINGS);
        let ctrl = |k: KeyCode| ButtonlikeChord::modified(ModifierKey::Control, k);
        map.insert(Undo, ctrl(KeyCode::KeyZ))
            // The longer chord wins over Ctrl+Z (leafwing's clash strategy).
            .insert(Redo, ctrl(KeyCode::KeyZ).with(ModifierKey::Shift))
            .insert(Redo, ctrl(KeyCode::KeyY))
            .insert(Save, ctrl(KeyCode::KeyS))
            .insert(Quit, ctrl(KeyCode::KeyQ));
        map.insert(DragPan, MouseButton::Right)
            .insert(DragPan, MouseButton::Middle)
            .insert(Measure, MouseButton::Left)
            .insert_dual_axis(Pan, VirtualDPad::wasd())
            .insert_dual_axis(MouseMotion, MouseMove::default())
            .insert_axis(WheelZoom, MouseScrollAxis::Y)
            .insert_axis(Zoom, VirtualAxis::new(KeyCode::KeyQ, KeyCode::KeyE));
        map
    }
}

/// The keyboard bindings of the button actions.
pub const KEY_BINDINGS: [(ViewerAction, KeyCode); 30] = {
    use ViewerAction::*;
    [
        (StepForward, KeyCode::ArrowRight),
        (StepBack, KeyCode::ArrowLeft),
        (NextRound, KeyCode::PageDown),
        (NextRound, KeyCode::ArrowDown),
        (PrevRound, KeyCode::PageUp),
        (PrevRound, KeyCode::ArrowUp),
        (PlayPause, KeyCode::Space),
        (Faster, KeyCode::Equal),
        (Faster, KeyCode::NumpadAdd),
        (Slower, KeyCode::Minus),
        (Slower, KeyCode::NumpadSubtract),
        (ToggleGrid, KeyCode::KeyG),
        (ToggleLight, KeyCode::KeyL),
        (ToggleSight, KeyCode::KeyV),
        (TogglePaths, KeyCode::KeyP),
        (ToggleRings, KeyCode::KeyI),
        (NextFigure, KeyCode::Tab),
        (PrevFigure, KeyCode::Backquote),
        (Fit, KeyCode::KeyF),
        (Reload, KeyCode::F5),
        (Reload, KeyCode::KeyR),
        (SwitchSystem, KeyCode::KeyT),
        (ToggleEdit, KeyCode::KeyB),
        (TableDice, KeyCode::KeyX),
        (Odds, KeyCode::KeyO),
        (Predict, KeyCode::KeyK),
        (Charts, KeyCode::KeyC),
        (Screenshot, KeyCode::F12),
        (Help, KeyCode::KeyH),
        (Help, KeyCode::F1),
    ]
};

/// A binding as a person reads it, from its debug form: `KeyG` → `G`, `ArrowRight` →
/// `Right`, `ButtonlikeChord([Control, KeyZ])` → `Ctrl+Z`, the mouse's `Left` → `left
/// mouse button`.
pub fn readable(debug: &str) -> String {
    if let Some(inner) = debug
        .strip_prefix("ButtonlikeChord([")
        .and_then(|r| r.strip_suffix("])"))
    {
        let parts: Vec<String> = inner.split(", ").map(key).collect();
        let (mods, keys): (Vec<String>, Vec<String>) = parts
            .into_iter()
            .partition(|p| matches!(p.as_str(), "Ctrl" | "Shift" | "Alt"));
        let mut mods = mods;
        mods.sort_by_key(|m| ["Ctrl", "Alt", "Shift"].iter().position(|x| x == m));
        return mods.into_iter().chain(keys).collect::<Vec<_>>().join("+");
    }
    match debug {
        "Left" => "left mouse button".into(),
        "Right" => "right mouse button".into(),
        "Middle" => "middle mouse button".into(),
        other => key(other),
    }
}

/// One key's name.
fn key(k: &str) -> String {
    let named = match k {
        "Control" | "ControlLeft" | "ControlRight" => "Ctrl",
        "Shift" | "ShiftLeft" | "ShiftRight" => "Shift",
        "Alt" | "AltLeft" | "AltRight" => "Alt",
        "Equal" => "=",
        "Minus" => "-",
        "NumpadAdd" => "Num +",
        "NumpadSubtract" => "Num -",
        "Backquote" => "`",
        other => {
            return other
                .strip_prefix("Key")
                .or_else(|| other.strip_prefix("Digit"))
                .or_else(|| other.strip_prefix("Arrow"))
                .unwrap_or(other)
                .to_string();
        }
    };
    named.to_string()
}

/// Whether a button action was pressed this frame. A key pressed and released within one
/// frame (a quick tap while frames are slow, as under software rendering) never shows as
/// held, so leafwing does not see it; the key's own just-pressed state still does.
fn tapped(
    action: ViewerAction,
    state: &ActionState<ViewerAction>,
    keys: &ButtonInput<KeyCode>,
) -> bool {
    state.just_pressed(&action)
        || KEY_BINDINGS
            .iter()
            .any(|&(a, k)| a == action && keys.just_pressed(k) && !keys.pressed(k))
        || chord_tapped(action, keys)
}

/// The Ctrl chords of [`ViewerAction::default_input_map`]: the action, its key, and
/// whether Shift is part of it.
const CTRL_CHORDS: [(ViewerAction, KeyCode, bool); 5] = [
    (ViewerAction::Save, KeyCode::KeyS, false),
    (ViewerAction::Quit, KeyCode::KeyQ, false),
    (ViewerAction::Undo, KeyCode::KeyZ, false),
    (ViewerAction::Redo, KeyCode::KeyZ, true),
    (ViewerAction::Redo, KeyCode::KeyY, false),
];

/// Whether a Ctrl chord was pressed and let go within one frame (Ctrl+S tapped while the
/// viewer sleeps between frames): its key tapped while Ctrl was down at some time in the
/// frame. Leafwing reads the keys as they stand at the frame and never sees it.
fn chord_tapped(action: ViewerAction, keys: &ButtonInput<KeyCode>) -> bool {
    let down = |pair: [KeyCode; 2]| {
        pair.iter()
            .any(|&k| keys.pressed(k) || keys.just_pressed(k) || keys.just_released(k))
    };
    let ctrl = down([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let shift = down([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    ctrl && CTRL_CHORDS.iter().any(|&(a, k, with_shift)| {
        a == action && with_shift == shift && keys.just_pressed(k) && !keys.pressed(k)
    })
}

/// Where actions go: playback commands, viewer requests and editor commands; the toggles
/// they flip.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct Outlets<'w> {
    layers: ResMut<'w, Layers>,
    selection: ResMut<'w, Selection>,
    mode: Res<'w, State<super::ViewerMode>>,
    next_mode: ResMut<'w, NextState<super::ViewerMode>>,
    odds: ResMut<'w, super::odds_panel::OddsPanel>,
    teach: ResMut<'w, super::teach::Teach>,
    commands: MessageWriter<'w, PlaybackCommand>,
    requests: MessageWriter<'w, ViewerRequest>,
    edits: MessageWriter<'w, super::editor::EditorCommand>,
}

/// Turns this frame's actions into commands and toggles.
pub(super) fn read_actions(
    actions: Single<&ActionState<ViewerAction>>,
    keys: Res<ButtonInput<KeyCode>>,
    playback: Option<Res<Playback>>,
    typing: Option<Res<bevy_egui::input::EguiWantsInput>>,
    editor: Option<Res<super::editor::Editor>>,
    mut out: Outlets,
) {
    use ViewerAction as A;
    let a = actions.into_inner();
    // None act behind the question about unsaved edits: it is answered first.
    if editor.is_some_and(|e| e.pending.is_some()) {
        return;
    }
    // Keys typed into a text field (a name, the dice shown) are not commands — but Ctrl+S
    // and Ctrl+Q, which no field takes, still save and quit (a DM who typed a name and
    // pressed Ctrl+S saw nothing happen, and the earlier "saved" still showing).
    if typing.is_some_and(|t| t.wants_any_keyboard_input()) {
        if a.just_pressed(&A::Save) || chord_tapped(A::Save, &keys) {
            out.edits.write(super::editor::EditorCommand::Save);
        }
        if a.just_pressed(&A::Quit) || chord_tapped(A::Quit, &keys) {
            out.requests.write(ViewerRequest::Quit);
        }
        return;
    }
    // With Ctrl, Alt or Super held a key is part of a chord (Ctrl+C, Ctrl+V, Alt+F4): the
    // plain key's action does not fire, only the chord's own (Ctrl+S, Ctrl+Z).
    let chord = keys.any_pressed([
        KeyCode::ControlLeft,
        KeyCode::ControlRight,
        KeyCode::AltLeft,
        KeyCode::AltRight,
        KeyCode::SuperLeft,
        KeyCode::SuperRight,
    ]);
    let plain = |x: A| KEY_BINDINGS.iter().any(|&(b, _)| b == x);
    let pressed = |x: A| !(chord && plain(x)) && tapped(x, a, &keys);
    for (action, command) in [
        (A::StepForward, PlaybackCommand::Forward),
        (A::StepBack, PlaybackCommand::Back),
        (A::NextRound, PlaybackCommand::NextRound),
        (A::PrevRound, PlaybackCommand::PrevRound),
        (A::PlayPause, PlaybackCommand::TogglePlay),
        (A::Faster, PlaybackCommand::Faster),
        (A::Slower, PlaybackCommand::Slower),
    ] {
        if pressed(action) {
            out.commands.write(command);
        }
    }
    let before = out.layers.clone();
    let l = out.layers.bypass_change_detection();
    for (action, flag) in [
        (A::ToggleGrid, &mut l.grid),
        (A::ToggleLight, &mut l.light),
        (A::ToggleSight, &mut l.sight),
        (A::TogglePaths, &mut l.paths),
        (A::ToggleRings, &mut l.rings),
        (A::Help, &mut l.help),
    ] {
        if pressed(action) {
            *flag = !*flag;
        }
    }
    if *out.layers != before {
        out.layers.set_changed();
    }
    if pressed(A::TableDice) {
        super::mode::switch(&out.mode, &mut out.next_mode, super::ViewerMode::TableDice);
    }
    if pressed(A::Odds) {
        out.odds.open = !out.odds.open;
    }
    if pressed(A::Predict) {
        super::mode::switch(&out.mode, &mut out.next_mode, super::ViewerMode::Predict);
    }
    if pressed(A::Charts) {
        out.teach.charts = !out.teach.charts;
    }
    use super::editor::EditorCommand as E;
    for (action, command) in [
        (A::ToggleEdit, E::Toggle),
        (A::Undo, E::Undo),
        (A::Redo, E::Redo),
        (A::Save, E::Save),
    ] {
        if pressed(action) {
            out.edits.write(command);
        }
    }
    for (action, request) in [
        (A::Reload, ViewerRequest::Reload),
        (A::SwitchSystem, ViewerRequest::SwitchSystem),
        (A::Screenshot, ViewerRequest::Screenshot),
        (A::Fit, ViewerRequest::Fit),
        (A::Quit, ViewerRequest::Quit),
    ] {
        if pressed(action) {
            out.requests.write(request);
        }
    }
    let n = playback.map(|p| p.current().figures.len()).unwrap_or(0);
    if n > 0 {
        if pressed(A::NextFigure) {
            out.selection.0 = Some(out.selection.0.map_or(0, |i| (i + 1) % n));
        }
        if pressed(A::PrevFigure) {
            out.selection.0 = Some(out.selection.0.map_or(n - 1, |i| (i + n - 1) % n));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key binding reads as a person would write it: no debug names.
    #[test]
    fn bindings_read_as_people_write_them() {
        assert_eq!(readable("KeyG"), "G");
        assert_eq!(readable("ArrowRight"), "Right");
        assert_eq!(readable("Left"), "left mouse button");
        assert_eq!(readable("ButtonlikeChord([Control, KeyZ])"), "Ctrl+Z");
        assert_eq!(
            readable("ButtonlikeChord([Control, KeyZ, Shift])"),
            "Ctrl+Shift+Z"
        );
        let map = ViewerAction::default_input_map();
        for a in ViewerAction::ALL {
            for b in map.get_buttonlike(&a).into_iter().flatten() {
                let name = readable(&format!("{b:?}"));
                assert!(
                    !name.contains('(') && !name.contains("Key") && !name.contains("Control"),
                    "{a:?}: {name}"
                );
            }
        }
    }
}
