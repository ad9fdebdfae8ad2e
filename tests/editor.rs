//! The encounter editor driven without a window, through its commands and keys: a new
//! scene with a pillar, four figures, a charge against a spell, the round played, saved
//! and read back; undo to the empty scene and redo to the same state.
#![cfg(feature = "viewer")]

use bevy::prelude::*;
use firststrike::rules::distance::Setting;
use firststrike::scene::edit::{Edit, new_scene};
use firststrike::scene::{Act, CellKind, CombatantSpec, DieKind, load};
use firststrike::sim::{EventKind, Phase};
use firststrike::viewer::{
    Editor, EditorCommand, Playback, ViewerCorePlugin, ViewerMode, mode::mode as mode_of,
};

/// The viewer's mode now.
fn mode(app: &App) -> ViewerMode {
    mode_of(app.world())
}
use leafwing_input_manager::prelude::*;

fn app() -> App {
    firststrike::testing::viewer_app(ViewerCorePlugin::at("scenes/otis_vs_robilar.ron"))
}

fn send(app: &mut App, c: EditorCommand) {
    app.world_mut().write_message(c);
    app.update();
}

/// "Save as" to a new file in a fresh temporary folder of this process: (folder, file).
fn save_as_new(app: &mut App, tag: &str, file: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(file);
    let _ = std::fs::remove_file(&path);
    send(
        app,
        EditorCommand::SaveAs {
            path: path.clone(),
            replace: false,
        },
    );
    (dir, path)
}

fn edit(app: &mut App, e: Edit) {
    send(app, EditorCommand::Edit(e));
    let problem = app.world().resource::<Editor>().problem.clone();
    // Only an empty scene may not play yet.
    if let Some(p) = problem {
        assert!(p.contains("combatants"), "edit refused: {p}");
    }
}

fn tap(app: &mut App, keys: &[KeyCode]) {
    for k in keys {
        k.press(app.world_mut());
    }
    app.update();
    for k in keys.iter().rev() {
        k.release(app.world_mut());
    }
    app.update();
}

fn figure(name: &str, side: &str, at: (f64, f64)) -> CombatantSpec {
    CombatantSpec {
        name: name.into(),
        side: side.into(),
        at,
        ..CombatantSpec::default()
    }
}

/// The edits of the brief's example, in order.
fn build(app: &mut App) -> usize {
    let fighter = CombatantSpec {
        weapon: Some("long sword".into()),
        movement: Some(12),
        hp: Some(30),
        ac: Some(4),
        thac0: Some(15),
        ..figure("Fighter", "Party", (22.5, 57.5))
    };
    let shaman = CombatantSpec {
        monster: Some("orc".into()),
        hp: Some(8),
        ..figure("Shaman", "Orcs", (22.5, 12.5))
    };
    let orc = CombatantSpec {
        monster: Some("orc".into()),
        ..figure("Orc", "Orcs", (12.5, 12.5))
    };
    let edits = vec![
        Edit::New {
            setting: Setting::Indoors,
            width_ft: 40.0,
            height_ft: 60.0,
            cell_ft: 5.0,
        },
        Edit::Paint {
            col: 6,
            row: 6,
            kind: CellKind::Pillar,
        },
        Edit::AddFigure(Box::new(fighter)),
        Edit::AddFigure(Box::new(shaman)),
        Edit::AddFigure(Box::new(orc)),
        Edit::Duplicate {
            figure: "Orc".into(),
            count: 1,
        },
        Edit::Declare {
            round: 1,
            figure: "Fighter".into(),
            act: Some(Act::charge(vec!["Shaman".into()])),
        },
        Edit::Declare {
            round: 1,
            figure: "Shaman".into(),
            act: Some(Act::Cast {
                spell: "curse of the tusk".into(),
                target: Some("Fighter".into()),
                segments: Some(4),
                device: false,
                at: None,
            }),
        },
        Edit::Dice {
            kind: DieKind::ToHit,
            key: "Fighter".into(),
            values: vec![20],
        },
    ];
    let n = edits.len();
    for e in edits {
        edit(app, e);
    }
    n
}

/// The brief's encounter, built in the editor: the fighter charges the shaman 45 ft off
/// (12" doubled indoors for a charge: 24 ft a segment, 40 ft to cover to his reach, so he
/// arrives in segment 2) and his blow lands (a fixed 20) before the 4-segment spell
/// completes in segment 4: the spell is ruined. Saved and read back, it is the same scene.
#[test]
fn build_play_and_save_an_encounter() {
    let mut app = app();
    tap(&mut app, &[KeyCode::KeyB]);
    assert!(mode(&app) == ViewerMode::Edit, "B turns edit mode on");
    build(&mut app);
    let ed = app.world().resource::<Editor>();
    assert_eq!(ed.problem, None);
    let scene = ed.scene.clone().unwrap();
    // Each edit rebuilds the map (edits counted) without fitting it anew (same generation).
    let pb = app.world().resource::<Playback>();
    assert!(pb.edits >= 5, "{} edits replayed", pb.edits);
    assert_eq!(
        pb.current().figures.len(),
        4,
        "the playback shows the edited figures"
    );
    assert_eq!(scene.combatants.len(), 4);
    assert_eq!(scene.combatants[3].name, "Orc 2");
    assert_eq!(
        scene.map.as_ref().unwrap().rows[6].chars().nth(6),
        Some('O')
    );
    // The round played, in the viewer's own playback of the edited scene.
    for _ in 0..12 {
        app.world_mut()
            .write_message(firststrike::viewer::PlaybackCommand::Forward);
        app.update();
    }
    let pb = app.world().resource::<Playback>();
    assert!(matches!(pb.current().phase, Phase::Round { round: 1, .. }));
    let log = pb.log_now(app.world().resource::<firststrike::sim::EventLog>());
    let arrival = log
        .iter()
        .find(|e| e.actor == "Fighter" && e.kind == EventKind::Arrive)
        .map(|e| e.segment);
    assert_eq!(arrival, Some(2), "the charge arrives in segment 2");
    assert!(
        log.iter()
            .any(|e| e.actor == "Shaman" && e.kind == EventKind::SpellDisrupted),
        "the spell is ruined"
    );
    assert!(
        !log.iter()
            .any(|e| e.actor == "Shaman" && e.kind == EventKind::SpellComplete)
    );
    // Saved (Save as: a new file), read back equal, and it passes the checks.
    let (dir, path) = save_as_new(&mut app, "fs-editor", "orcs.ron");
    let ed = app.world().resource::<Editor>();
    assert_eq!(ed.problem, None);
    assert!(!ed.dirty());
    assert_eq!(load(&path).unwrap(), scene);
    // Another file is not replaced without a confirmation.
    let other = dir.join("other.ron");
    std::fs::write(&other, "keep me").unwrap();
    send(
        &mut app,
        EditorCommand::SaveAs {
            path: other.clone(),
            replace: false,
        },
    );
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "keep me");
    assert!(app.world().resource::<Editor>().confirm.is_some());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl+Z back to the empty scene, Ctrl+Y forward to the same state.
#[test]
fn undo_to_the_empty_scene_and_redo() {
    let mut app = app();
    let n = build(&mut app);
    let built = app.world().resource::<Editor>().scene.clone().unwrap();
    for _ in 1..n {
        tap(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyZ]);
    }
    let empty = new_scene(Setting::Indoors, 40.0, 60.0, 5.0);
    assert_eq!(
        app.world().resource::<Editor>().scene.as_ref(),
        Some(&empty)
    );
    for _ in 1..n {
        tap(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyY]);
    }
    assert_eq!(
        app.world().resource::<Editor>().scene.as_ref(),
        Some(&built)
    );
    // Redo as Ctrl+Shift+Z as well, after one undo.
    tap(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyZ]);
    tap(
        &mut app,
        &[KeyCode::ControlLeft, KeyCode::ShiftLeft, KeyCode::KeyZ],
    );
    assert_eq!(
        app.world().resource::<Editor>().scene.as_ref(),
        Some(&built)
    );
}

/// Table dice: with the mode on (X), the rolls the scene does not fix are asked about in
/// order; a typed answer becomes a fixed die of the scene and the round replays with it;
/// Enter keeps the seed's roll, fixed as well. Each answer settles one roll.
#[test]
fn table_dice_pins_what_the_dice_showed() {
    use firststrike::viewer::table_dice::{TableAnswer, asked};
    let mut app = app();
    tap(&mut app, &[KeyCode::KeyX]);
    for _ in 0..4 {
        app.world_mut()
            .write_message(firststrike::viewer::PlaybackCommand::Forward);
        app.update();
    }
    let question = |app: &App| {
        let pb = app.world().resource::<Playback>();
        let dice = app.world().resource::<firststrike::sim::Dice>();
        (asked(pb, dice), pb.rolled_now(dice).len())
    };
    let (Some((first, before)), pending) = question(&app) else {
        panic!("the scene leaves some roll to the dice");
    };
    let sides = if first.sides == 0 {
        20
    } else {
        first.sides as i32
    };
    let typed = if first.value == 1 { sides } else { 1 };
    app.world_mut().write_message(TableAnswer(Some(typed)));
    app.update();
    app.update();
    let scene = app.world().resource::<Editor>().scene.clone().unwrap();
    let mut want = before.clone();
    want.push(typed);
    assert_eq!(
        scene.dice[&first.kind][&first.who], want,
        "the typed value is fixed"
    );
    let (_, after) = question(&app);
    assert!(
        after < pending,
        "one roll fewer to settle: {pending} -> {after}"
    );
    // Enter keeps the seed's roll, fixed too.
    if let (Some((next, before)), _) = question(&app) {
        app.world_mut().write_message(TableAnswer(None));
        app.update();
        app.update();
        let scene = app.world().resource::<Editor>().scene.clone().unwrap();
        assert_eq!(scene.dice[&next.kind][&next.who].len(), before.len() + 1);
        assert_eq!(scene.dice[&next.kind][&next.who].last(), Some(&next.value));
    }
}

/// The top bar's edit button (a request) turns edit mode on and off, as B does.
#[test]
fn the_edit_button() {
    let mut app = app();
    app.world_mut()
        .write_message(firststrike::viewer::ViewerRequest::ToggleEdit);
    app.update();
    assert_eq!(mode(&app), ViewerMode::Edit);
    assert!(
        app.world().resource::<Editor>().scene.is_some(),
        "it edits the scene on screen"
    );
    app.world_mut()
        .write_message(firststrike::viewer::ViewerRequest::ToggleEdit);
    app.update();
    assert_eq!(mode(&app), ViewerMode::View);
}

/// Table dice refuse what a die cannot show, say the range, and keep asking; nothing
/// typed keeps the seed's roll.
#[test]
fn table_dice_refuse_what_a_die_cannot_show() {
    use firststrike::viewer::table_dice::{TableAnswer, TableDice, allowed, asked, read_typed};
    assert_eq!(read_typed("", 1..=6), Ok(None));
    // A damage total is asked within what its dice and bonus can make: d4 + 1, 2 to 5.
    let dagger = firststrike::sim::Rolled {
        kind: firststrike::scene::DieKind::Damage,
        who: "Mirela".into(),
        sides: 0,
        value: 3,
        within: Some((2, 5)),
    };
    assert_eq!(allowed(&dagger), 2..=5);
    assert_eq!(read_typed(" 4 ", 1..=6), Ok(Some(4)));
    for bad in ["9", "0", "-1", "yZ", "3.5", "1d6", "99999999999"] {
        let why = read_typed(bad, 1..=6).unwrap_err();
        assert!(why.contains("1 to 6"), "{bad}: {why}");
    }
    let mut app = app();
    tap(&mut app, &[KeyCode::KeyX]);
    for _ in 0..4 {
        app.world_mut()
            .write_message(firststrike::viewer::PlaybackCommand::Forward);
        app.update();
    }
    let first = {
        let pb = app.world().resource::<Playback>();
        let dice = app.world().resource::<firststrike::sim::Dice>();
        asked(pb, dice).expect("a roll is asked").0
    };
    // The most the roll can show: a die's sides, a damage total's most (a d4 dagger
    // takes no 999).
    let top = *firststrike::viewer::table_dice::allowed(&first).end();
    if first.sides == 0 {
        assert!(
            first.within.is_some() && top < 100,
            "a damage total knows its range: {first:?}"
        );
    }
    let dice_before = app.world().resource::<Playback>().scene.dice.clone();
    app.world_mut().write_message(TableAnswer(Some(top + 1)));
    app.update();
    app.update();
    assert_eq!(
        app.world().resource::<Playback>().scene.dice,
        dice_before,
        "nothing pinned"
    );
    let refused = app.world().resource::<TableDice>().refused.clone().unwrap();
    assert!(refused.contains(&format!("{}", top + 1)), "{refused}");
    let pb = app.world().resource::<Playback>();
    let dice = app.world().resource::<firststrike::sim::Dice>();
    assert_eq!(
        asked(pb, dice).map(|a| a.0.who),
        Some(first.who),
        "still asking the same roll"
    );
}

/// One mode at a time, and nothing lost between them: predict (K) leaves edit mode with
/// the edits kept, unsaved; B takes them up again; X (table dice) then leaves predict; a
/// key pressed twice goes back to watching. A dice answer outside table-dice mode pins
/// nothing.
#[test]
fn switching_modes_keeps_the_edits_and_one_mode_is_on() {
    let mut app = app();
    tap(&mut app, &[KeyCode::KeyB]);
    assert_eq!(mode(&app), ViewerMode::Edit);
    edit(
        &mut app,
        Edit::AddFigure(Box::new(figure("Guard", "Otis", (5.0, 5.0)))),
    );
    let edited = app.world().resource::<Editor>().scene.clone().unwrap();
    assert!(edited.combatant("Guard").is_some());
    tap(&mut app, &[KeyCode::KeyK]);
    assert_eq!(
        mode(&app),
        ViewerMode::Predict,
        "K leaves edit mode for predict"
    );
    let ed = app.world().resource::<Editor>();
    assert_eq!(ed.scene.as_ref(), Some(&edited), "the edits are kept");
    assert!(ed.dirty(), "and still unsaved");
    tap(&mut app, &[KeyCode::KeyB]);
    assert_eq!(mode(&app), ViewerMode::Edit);
    assert_eq!(
        app.world().resource::<Editor>().scene.as_ref(),
        Some(&edited)
    );
    tap(&mut app, &[KeyCode::KeyX]);
    assert_eq!(mode(&app), ViewerMode::TableDice);
    tap(&mut app, &[KeyCode::KeyX]);
    assert_eq!(
        mode(&app),
        ViewerMode::View,
        "pressed again: back to watching"
    );
    // Not in table-dice mode: an answer is not taken.
    let dice = app.world().resource::<Editor>().scene.clone().unwrap().dice;
    app.world_mut()
        .write_message(firststrike::viewer::table_dice::TableAnswer(Some(1)));
    app.update();
    app.update();
    assert_eq!(
        app.world().resource::<Editor>().scene.clone().unwrap().dice,
        dice
    );
}

/// A figure's form never drops what was typed: choosing another figure, or none, applies
/// the changes not applied yet to their own figure; a figure dragged or undone while its
/// form is open is followed (a drag keeps the pending changes on the new place); and an
/// applied change is not applied again.
#[test]
fn a_forms_changes_are_applied_not_lost_when_another_figure_is_chosen() {
    use firststrike::scene::edit::apply;
    use firststrike::viewer::{EditorUi, follow_form};
    let mut scene =
        firststrike::scene::load(std::path::Path::new("scenes/lizard_man_lair.ron")).unwrap();
    let mut ui = EditorUi::default();
    assert_eq!(follow_form(&scene, Some(0), &mut ui), None, "a new form");
    let robilar = scene.combatants[0].clone();
    ui.form.as_mut().unwrap().name = "Sir Robilar".into();
    // Still on him: nothing yet.
    assert_eq!(follow_form(&scene, Some(0), &mut ui), None);
    // Dragged meanwhile: the form keeps the new name, at his new place.
    scene.combatants[0].at = (60.0, 45.0);
    assert_eq!(follow_form(&scene, Some(0), &mut ui), None);
    assert_eq!(ui.form.as_ref().unwrap().at, (60.0, 45.0));
    assert_eq!(ui.form.as_ref().unwrap().name, "Sir Robilar");
    // Choosing Quij applies the rename to Robilar, where he now stands.
    let edit = follow_form(&scene, Some(1), &mut ui).expect("the rename is applied");
    apply(&mut scene, &edit).unwrap();
    assert_eq!(scene.combatants[0].name, "Sir Robilar");
    assert_eq!(scene.combatants[0].at, (60.0, 45.0));
    assert_eq!(
        ui.form.as_ref().unwrap().name,
        "Quij",
        "the form is Quij's now"
    );
    // Nothing typed: choosing none applies nothing.
    assert_eq!(follow_form(&scene, None, &mut ui), None);
    assert!(ui.form.is_none());
    // A change applied with the button, then undone: the form follows the undo, and
    // choosing another figure does not apply it again.
    assert_eq!(follow_form(&scene, Some(0), &mut ui), None);
    ui.form.as_mut().unwrap().hp = Some(99);
    let applied = firststrike::scene::edit::Edit::Replace {
        figure: "Sir Robilar".into(),
        spec: Box::new(ui.form.clone().unwrap()),
    };
    let before = scene.clone();
    apply(&mut scene, &applied).unwrap();
    assert_eq!(follow_form(&scene, Some(0), &mut ui), None);
    scene = before;
    assert_eq!(follow_form(&scene, Some(0), &mut ui), None);
    assert_eq!(
        ui.form.as_ref().unwrap().hp,
        robilar.hp,
        "the form follows the undo"
    );
    assert_eq!(
        follow_form(&scene, Some(2), &mut ui),
        None,
        "nothing to apply again"
    );
}

/// Saving under a new name keeps the segment on screen — a scene opened from a file, or
/// one built from "new scene" that had no file: the scene saved is the scene shown, so the
/// playback does not go back to the encounter.
#[test]
fn save_as_keeps_the_segment_on_screen() {
    save_as_keeps_the_segment(false);
    save_as_keeps_the_segment(true);
}

fn save_as_keeps_the_segment(new_scene: bool) {
    // Watched, as `view` watches: the file saved is seen and read back.
    let mut app = firststrike::testing::viewer_app(ViewerCorePlugin {
        watch: true,
        ..ViewerCorePlugin::at("scenes/otis_vs_robilar.ron")
    });
    tap(&mut app, &[KeyCode::KeyB]);
    if new_scene {
        build(&mut app);
    }
    for _ in 0..5 {
        app.world_mut()
            .write_message(firststrike::viewer::PlaybackCommand::Forward);
        app.update();
    }
    let at = app.world().resource::<Playback>().cursor;
    assert!(at >= 3, "played on: {at}");
    send(
        &mut app,
        EditorCommand::Edit(firststrike::scene::edit::Edit::Declare {
            round: 1,
            figure: if new_scene { "Orc" } else { "Otis" }.into(),
            act: Some(Act::Hold),
        }),
    );
    let at = app.world().resource::<Playback>().cursor;
    let (dir, path) = save_as_new(&mut app, &format!("fs-keep-{new_scene}"), "kept.ron");
    // The watcher looks twice a second; a slow machine is given three.
    for _ in 0..30 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        app.update();
    }
    assert!(path.exists());
    assert!(!app.world().resource::<Editor>().dirty());
    assert_eq!(
        app.world().resource::<Playback>().cursor,
        at,
        "still where it was (new scene: {new_scene})"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A form belongs to its figure by name, not by its place in the list: after a deletion
/// is undone and another figure takes the place, pending changes still go to their own
/// figure; an outside change to a field the DM did not touch (an undo of the weapon) is
/// taken, the DM's own changes kept; a loaded scene forgets the form.
#[test]
fn a_form_follows_its_figure_not_its_place() {
    use firststrike::scene::edit::{Edit, apply};
    use firststrike::viewer::{EditorUi, follow_form};
    let lair =
        firststrike::scene::load(std::path::Path::new("scenes/lizard_man_lair.ron")).unwrap();
    let mut scene = lair.clone();
    let mut ui = EditorUi::default();
    // Delete Quij (place 1); Lizard man 1 moves to place 1; the DM types in its form.
    apply(
        &mut scene,
        &Edit::Delete {
            figure: "Quij".into(),
        },
    )
    .unwrap();
    follow_form(&scene, Some(1), &mut ui);
    assert_eq!(ui.form.as_ref().unwrap().name, "Lizard man 1");
    ui.form.as_mut().unwrap().hp = Some(77);
    // Undo: Quij is back at place 1, the selection still says 1.
    scene = lair.clone();
    let edit = follow_form(&scene, Some(1), &mut ui).expect("leaving applies");
    match &edit {
        Edit::Replace { figure, spec } => {
            assert_eq!(figure, "Lizard man 1", "to its own figure, not to Quij");
            assert_eq!(spec.hp, Some(77));
            assert_eq!(spec.name, "Lizard man 1");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(ui.form.as_ref().unwrap().name, "Quij");
    // Quij's form: the DM sets hit points; meanwhile his weapon changes outside (an undo).
    ui.form.as_mut().unwrap().hp = Some(31);
    let mut outside = scene.clone();
    outside.combatants[1].weapon = Some("dagger".into());
    assert_eq!(follow_form(&outside, Some(1), &mut ui), None);
    let form = ui.form.clone().unwrap();
    assert_eq!(
        form.weapon.as_deref(),
        Some("dagger"),
        "the outside change is taken"
    );
    assert_eq!(form.hp, Some(31), "the DM's change is kept");
    // Another scene is loaded: the form goes, nothing is applied to the new scene.
    ui.forget_scene();
    let other =
        firststrike::scene::load(std::path::Path::new("scenes/otis_vs_robilar.ron")).unwrap();
    assert_eq!(follow_form(&other, Some(1), &mut ui), None);
    assert_eq!(ui.form.as_ref().unwrap().name, other.combatants[1].name);
}

proptest::proptest! {
    /// A light goes where the map is, whatever the room and the click: a point on it takes
    /// one, a point beside it (the dark around the map in the viewer) is refused and leaves
    /// the scene as it was.
    #[test]
    fn a_light_is_placed_on_the_map_only(
        w in 2u32..40,
        h in 2u32..40,
        x in -60.0f64..260.0,
        y in -60.0f64..260.0,
    ) {
        let mut scene = new_scene(Setting::Indoors, f64::from(w) * 5.0, f64::from(h) * 5.0, 5.0);
        // The map as drawn: the room and the walls round it.
        let (wide, high) = {
            let m = scene.map.as_ref().unwrap();
            (m.rows[0].chars().count() as f64 * m.cell_ft, m.rows.len() as f64 * m.cell_ft)
        };
        let before = scene.clone();
        let on = (0.0..wide).contains(&x) && (0.0..high).contains(&y);
        let light = Edit::AddLight { source: "torch".into(), at: (x, y) };
        let done = firststrike::scene::edit::apply(&mut scene, &light);
        proptest::prop_assert_eq!(done.is_ok(), on, "{:?}", done);
        if on {
            proptest::prop_assert_eq!(scene.map.as_ref().unwrap().lights.len(), 1);
        } else {
            proptest::prop_assert!(done.unwrap_err().contains("outside"));
            proptest::prop_assert_eq!(scene, before);
        }
    }
}

proptest::proptest! {
    /// A token dragged anywhere: onto the floor it moves there; off the map or into a wall
    /// it stays where it stood and the editor says why, the scene as it was (a drag no
    /// longer leaves a scene that fails its checks).
    #[test]
    fn a_token_moves_only_onto_floor(
        x in -40.0f64..120.0,
        y in -40.0f64..100.0,
    ) {
        let mut scene = new_scene(Setting::Indoors, 60.0, 40.0, 5.0);
        scene.combatants.push(figure("Orc", "Orcs", (12.5, 12.5)));
        let before = scene.clone();
        // Floor as the map's rows draw it: '.' inside the ring of walls.
        let rows = &scene.map.as_ref().unwrap().rows;
        let cell = |v: f64| (v >= 0.0).then(|| (v / 5.0).floor() as usize);
        let floor = cell(x)
            .zip(cell(y))
            .and_then(|(c, r)| rows.get(r).and_then(|row| row.chars().nth(c)))
            == Some('.');
        let moved = firststrike::scene::edit::apply(&mut scene, &Edit::Move { figure: "Orc".into(), to: (x, y) });
        proptest::prop_assert_eq!(moved.is_ok(), floor, "{:?}", moved);
        if floor {
            proptest::prop_assert_eq!(scene.combatants[0].at, (x, y));
        } else {
            proptest::prop_assert!(moved.unwrap_err().starts_with("not moved"));
            proptest::prop_assert_eq!(scene, before);
        }
    }
}

proptest::proptest! {
    /// A cell painted anywhere: a wall, a closed door or a pillar over a figure is refused
    /// and said, the scene as it was (outside tester: the scene then failed its checks and
    /// the map kept drawing the last good one); any painting elsewhere, or of floor, is
    /// done, and the scene still passes its checks.
    #[test]
    fn a_wall_is_never_painted_over_a_figure(
        col in 0usize..12,
        row in 0usize..8,
        kind in proptest::sample::select(vec![CellKind::Wall, CellKind::DoorClosed, CellKind::Pillar, CellKind::Floor, CellKind::Water]),
    ) {
        let mut scene = new_scene(Setting::Indoors, 60.0, 40.0, 5.0);
        scene.combatants.push(figure("Orc", "Orcs", (12.5, 12.5)));
        scene.combatants.push(figure("Elf", "Elves", (37.5, 22.5)));
        let before = scene.clone();
        let under = [(2, 2), (7, 4)].contains(&(col, row));
        let blocks = matches!(kind, CellKind::Wall | CellKind::DoorClosed | CellKind::Pillar);
        let done = firststrike::scene::edit::apply(&mut scene, &Edit::Paint { col, row, kind });
        if under && blocks {
            proptest::prop_assert!(done.as_ref().is_err_and(|e| e.starts_with("not painted")), "{:?}", done);
            proptest::prop_assert_eq!(scene, before);
        } else {
            proptest::prop_assert!(done.is_ok(), "{:?}", done);
            let src = firststrike::scene::save::to_ron(&scene);
            proptest::prop_assert!(firststrike::scene::parse("painted.ron", &src).is_ok(), "{}", src);
        }
    }
}
