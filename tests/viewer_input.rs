//! The viewer's input, driven through its leafwing actions without a window: stepping
//! forward and back (back restores the exact earlier state), rounds, play, layers,
//! selection, and hot reload of the scene file (a broken edit keeps the last good scene).
#![cfg(feature = "viewer")]

use bevy::prelude::*;
use firststrike::sim::Phase;
use firststrike::testing::SceneRun;
use firststrike::viewer::mode::{mode, set_now};
use firststrike::viewer::{
    Layers, Playback, SceneSource, Selection, Snapshot, ViewerCorePlugin, ViewerMode,
};
use leafwing_input_manager::prelude::*;
use std::path::PathBuf;
use std::time::Duration;

fn app(path: PathBuf, watch: bool) -> App {
    firststrike::testing::viewer_app(ViewerCorePlugin {
        watch,
        ..ViewerCorePlugin::at(path)
    })
}

/// Presses and releases a key, one frame each.
fn tap(app: &mut App, key: KeyCode) {
    key.press(app.world_mut());
    app.update();
    key.release(app.world_mut());
    app.update();
}

fn pb(app: &App) -> &Playback {
    app.world().resource::<Playback>()
}

fn robilar(s: &Snapshot) -> (f64, f64) {
    s.figures.iter().find(|f| f.name == "Robilar").unwrap().at
}

#[test]
fn step_forward_and_back_restores_the_exact_state() {
    let mut app = app("scenes/lizard_man_lair.ron".into(), false);
    assert_eq!(pb(&app).current().phase, Phase::Encounter);
    let start = pb(&app).current().clone();
    assert_eq!(robilar(&start), (107.5, 47.5));

    tap(&mut app, KeyCode::ArrowRight);
    assert_eq!(pb(&app).current().phase, Phase::Surprise(1));
    // Robilar's charge: 18 ft up the tunnel in the surprise segment.
    assert_eq!(robilar(pb(&app).current()), (107.5, 29.5));
    tap(&mut app, KeyCode::ArrowRight);
    let r1s1 = pb(&app).current().clone();
    assert_eq!(
        r1s1.phase,
        Phase::Round {
            round: 1,
            segment: 1
        }
    );
    assert!(!r1s1.plan.initiative.is_empty(), "initiative rolled");

    let log_len = |app: &App| {
        pb(app)
            .log_now(app.world().resource::<firststrike::sim::EventLog>())
            .len()
    };
    let r1s1_log = log_len(&app);
    assert_eq!(r1s1_log, r1s1.log_len);
    tap(&mut app, KeyCode::ArrowLeft);
    tap(&mut app, KeyCode::ArrowLeft);
    assert_eq!(pb(&app).current(), &start, "back to the encounter exactly");
    assert!(log_len(&app) < r1s1_log, "the log shown goes back too");
    assert_eq!(log_len(&app), start.log_len);
    tap(&mut app, KeyCode::ArrowLeft);
    assert_eq!(pb(&app).cursor, 0, "no step before the encounter");
    tap(&mut app, KeyCode::ArrowRight);
    tap(&mut app, KeyCode::ArrowRight);
    assert_eq!(pb(&app).current(), &r1s1, "forward again: the same segment");

    // The same as a fresh headless replay to that segment.
    let mut fresh = SceneRun::load("scenes/lizard_man_lair.ron");
    fresh.step(3);
    assert_eq!(&Snapshot::capture(fresh.app.world_mut()), &r1s1);
}

#[test]
fn a_tap_within_one_frame_still_counts() {
    // At a few frames a second (software rendering) a key can go down and up between two
    // frames; it must still step once, and only once.
    let mut app = app("scenes/lizard_man_lair.ron".into(), false);
    KeyCode::ArrowRight.press(app.world_mut());
    KeyCode::ArrowRight.release(app.world_mut());
    app.update();
    assert_eq!(pb(&app).cursor, 1);
    app.update();
    assert_eq!(pb(&app).cursor, 1);
    KeyCode::KeyL.press(app.world_mut());
    KeyCode::KeyL.release(app.world_mut());
    app.update();
    assert!(!app.world().resource::<Layers>().light);
}

#[test]
fn rounds_play_and_layers() {
    let mut app = app("scenes/lizard_man_lair.ron".into(), false);
    tap(&mut app, KeyCode::PageDown);
    assert_eq!(pb(&app).current().when, (0, 1), "to the surprise segment");
    tap(&mut app, KeyCode::PageDown);
    assert_eq!(pb(&app).current().when, (1, 1));
    tap(&mut app, KeyCode::PageDown);
    assert_eq!(pb(&app).current().when, (2, 1));
    tap(&mut app, KeyCode::ArrowRight);
    tap(&mut app, KeyCode::PageUp);
    assert_eq!(pb(&app).current().when, (2, 1), "start of this round");
    tap(&mut app, KeyCode::PageUp);
    assert_eq!(pb(&app).current().when, (1, 1), "then the round before");

    assert_eq!(*app.world().resource::<Layers>(), Layers::default());
    tap(&mut app, KeyCode::KeyL);
    tap(&mut app, KeyCode::KeyG);
    let l = app.world().resource::<Layers>().clone();
    assert!(!l.light && !l.grid && l.sight && l.paths && l.rings);
    tap(&mut app, KeyCode::KeyV);
    tap(&mut app, KeyCode::KeyL);
    let l = app.world().resource::<Layers>().clone();
    assert!(l.light && !l.sight);

    tap(&mut app, KeyCode::Tab);
    assert_eq!(app.world().resource::<Selection>().0, Some(0));
    tap(&mut app, KeyCode::Tab);
    assert_eq!(app.world().resource::<Selection>().0, Some(1));
    tap(&mut app, KeyCode::Backquote);
    tap(&mut app, KeyCode::Backquote);
    let n = pb(&app).current().figures.len();
    assert_eq!(
        app.world().resource::<Selection>().0,
        Some(n - 1),
        "wraps around"
    );

    tap(&mut app, KeyCode::Equal);
    assert_eq!(pb(&app).speed, 4.0);
    tap(&mut app, KeyCode::Space);
    assert!(pb(&app).playing);
    tap(&mut app, KeyCode::Space);
    assert!(!pb(&app).playing);
}

#[test]
fn hot_reload_keeps_the_last_good_scene() {
    let dir = std::env::temp_dir().join(format!("firststrike-reload-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("lair.ron");
    let original = std::fs::read_to_string("scenes/lizard_man_lair.ron").unwrap();
    std::fs::write(&path, &original).unwrap();
    let mut app = app(path.clone(), true);
    tap(&mut app, KeyCode::ArrowRight);
    let generation = pb(&app).generation;
    assert_eq!(pb(&app).cursor, 1);

    // A broken edit: the old scene stays, with the located error.
    let broken = original.replace("weapon: \"battle axe\"", "weapon: \"batle axe\"");
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(&path, broken).unwrap();
    std::thread::sleep(Duration::from_millis(600));
    app.update();
    let err = app
        .world()
        .resource::<SceneSource>()
        .error
        .clone()
        .expect("the error is shown");
    assert!(err.contains("lair.ron:"), "{err}");
    assert!(
        err.contains("batle axe") && err.contains("battle axe"),
        "{err}"
    );
    assert_eq!(pb(&app).generation, generation, "last good scene kept");
    assert_eq!(pb(&app).cursor, 1);

    // A good edit: reloaded at the same segment, error gone.
    let renamed = original.replace("The lizard-man lair", "The lair, edited");
    std::thread::sleep(Duration::from_millis(20));
    std::fs::write(&path, renamed).unwrap();
    std::thread::sleep(Duration::from_millis(600));
    app.update();
    assert!(app.world().resource::<SceneSource>().error.is_none());
    assert_eq!(pb(&app).scene.name, "The lair, edited");
    assert!(pb(&app).generation > generation);
    assert_eq!(pb(&app).cursor, 1, "same segment after the reload");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn every_action_is_bound_and_described() {
    use firststrike::viewer::ViewerAction;
    let map = ViewerAction::default_input_map();
    for a in ViewerAction::ALL {
        assert!(
            map.get(&a).is_some_and(|b| !b.is_empty()),
            "{a:?} has no binding"
        );
        assert!(!a.describe().is_empty());
    }
    let distinct: std::collections::HashSet<_> = ViewerAction::ALL.iter().collect();
    assert_eq!(distinct.len(), ViewerAction::ALL.len());
}

/// T replays the loaded scene under the other rules system, from the start, with 20
/// ordering segments a round; T again goes back to the scene's own system.
#[test]
fn t_switches_the_rules_system() {
    use firststrike::rules::options::RulesSystem;
    let mut app = app("scenes/otis_vs_robilar.ron".into(), false);
    assert_eq!(pb(&app).scene.rules.system, RulesSystem::Book);
    tap(&mut app, KeyCode::ArrowRight);
    tap(&mut app, KeyCode::KeyT);
    assert_eq!(pb(&app).scene.rules.system, RulesSystem::TakeInitiative);
    assert_eq!(pb(&app).cursor, 0, "the other system starts over");
    assert_eq!(
        app.world().resource::<SceneSource>().system,
        Some(RulesSystem::TakeInitiative)
    );
    // Play the whole first round: its last segment is the 20th.
    let mut last = 0;
    for _ in 0..30 {
        tap(&mut app, KeyCode::ArrowRight);
        if let Phase::Round { round: 1, segment } = pb(&app).current().phase {
            last = last.max(segment);
        }
    }
    assert_eq!(last, 20);
    let log = pb(&app).log_now(app.world().resource::<firststrike::sim::EventLog>());
    assert!(
        log.iter().any(|e| e.rule.id == "ti.total"),
        "each figure's total under Take Initiative!"
    );
    tap(&mut app, KeyCode::KeyT);
    assert_eq!(pb(&app).scene.rules.system, RulesSystem::Book);
    assert_eq!(
        app.world().resource::<SceneSource>().system,
        None,
        "the file's own again"
    );
}

/// The log's filter: sight events hidden by default (a lit crowd floods the log with them),
/// one figure's events as actor or target.
#[test]
fn the_log_filter() {
    use firststrike::viewer::LogFilter;
    let path = PathBuf::from("scenes/lizard_man_lair.ron");
    let scene = firststrike::scene::load(&path).unwrap();
    let quij_id = scene.figure_id("Quij").expect("the lair has Quij");
    let mut run = SceneRun::new(scene, None, None);
    run.run_to_end();
    let events = run.log().events.clone();
    let f = LogFilter::default();
    assert!(
        events
            .iter()
            .any(|e| e.kind == firststrike::sim::EventKind::Sight)
    );
    assert!(
        !events
            .iter()
            .filter(|e| f.shows(e))
            .any(|e| e.kind == firststrike::sim::EventKind::Sight)
    );
    assert!(
        events
            .iter()
            .filter(|e| f.shows(e))
            .any(|e| e.kind == firststrike::sim::EventKind::Hit)
    );
    let quij = LogFilter {
        figure: Some(quij_id),
        ..LogFilter::default()
    };
    let shown: Vec<_> = events.iter().filter(|e| quij.shows(e)).collect();
    assert!(!shown.is_empty());
    assert!(
        shown
            .iter()
            .all(|e| e.actor == "Quij" || e.target.as_deref() == Some("Quij"))
    );
}

/// O opens the Odds panel; its trials play in the background on the scene on screen and
/// come back as the same counts `odds` gives for that scene and seed; O closes it.
#[test]
fn the_odds_panel_runs_in_the_background() {
    use firststrike::calc::odds::{Reroll, run};
    use firststrike::viewer::odds_panel::{Found, OddsPanel};
    let mut app = app(PathBuf::from("scenes/bigby_vs_giant.ron"), false);
    tap(&mut app, KeyCode::KeyO);
    assert!(app.world().resource::<OddsPanel>().open);
    let scene = (*pb(&app).scene).clone();
    {
        let mut panel = app.world_mut().resource_mut::<OddsPanel>();
        panel.trials = 40;
        panel.all_dice = true;
        panel.start(scene.clone());
    }
    let mut frames = 0;
    while app.world().resource::<OddsPanel>().running() {
        app.update();
        std::thread::sleep(Duration::from_millis(20));
        frames += 1;
        assert!(frames < 3000, "the trials finish");
    }
    let panel = app.world().resource::<OddsPanel>();
    let Some(Ok(Found::Odds(o))) = &panel.found else {
        panic!("odds found: {:?}", panel.found.is_some());
    };
    assert_eq!(*o, run(&scene, 40, scene.seed, &Reroll::All, None));
    assert!(
        o.outcomes
            .iter()
            .any(|x| x.key == "spell:Bigby:bigby's grasping hand:cast")
    );
    tap(&mut app, KeyCode::KeyO);
    assert!(!app.world().resource::<OddsPanel>().open);
}

/// Predict, then reveal: with predict on, stepping forward holds before the stretch of
/// play that answers a question; answering every question asked there lifts the hold, and
/// the answer's reveal names the rule and its page.
#[test]
fn predict_holds_until_the_question_is_answered() {
    use firststrike::viewer::teach::Teach;
    let mut app = app("scenes/bigby_vs_giant.ron".into(), false);
    set_now(app.world_mut(), ViewerMode::Predict);
    app.update();
    assert_eq!(pb(&app).current().when, (0, 0));
    assert_eq!(pb(&app).hold, Some((1, 1)));
    tap(&mut app, KeyCode::ArrowRight);
    tap(&mut app, KeyCode::ArrowRight);
    assert_eq!(pb(&app).current().when, (0, 0), "held before round 1");
    // Answer the three questions asked before round 1, the first wrongly.
    for k in 0..3 {
        let mut t = app.world_mut().resource_mut::<Teach>();
        let i = t.pending((0, 0)).expect("a question is pending");
        assert_eq!(i, k);
        let q = t.quiz().unwrap().questions[i].clone();
        let choice = if k == 0 {
            (q.answer + 1) % q.choices.len()
        } else {
            q.answer
        };
        t.answer(i, choice);
        let (_, r) = t.last.clone().unwrap();
        assert_eq!(r.right, k != 0);
        assert_eq!(r.page, q.rule.page_ref());
    }
    app.update();
    assert_eq!(pb(&app).hold, None);
    tap(&mut app, KeyCode::ArrowRight);
    assert_eq!(
        pb(&app).current().when,
        (1, 1),
        "played on after the answers"
    );
    assert_eq!(
        app.world().resource::<Teach>().quiz().unwrap().score(),
        (2, 3)
    );
    // K turns predicting off (and the hold with it).
    tap(&mut app, KeyCode::KeyK);
    assert_eq!(mode(app.world()), ViewerMode::View);
}

/// The tour caption shown is the latest of the round at or before the moment in view.
#[test]
fn the_tour_caption_follows_the_replay() {
    use firststrike::viewer::teach::caption;
    let scene = firststrike::scene::load("scenes/bigby_vs_giant.ron").unwrap();
    let at = |r, s| caption(&scene.tour, (r, s)).map(|t| t.at);
    assert_eq!(at(0, 0), Some((0, 0)));
    assert_eq!(at(1, 1), Some((1, 0)));
    assert_eq!(at(1, 5), Some((1, 3)));
    assert_eq!(at(1, 8), Some((1, 7)));
    assert_eq!(at(1, 10), Some((1, 9)));
}

/// The charts light the attack-sequence columns of the two fighters: in round 2 of Otis
/// against Robilar, Otis (3/2) has one routine and Robilar (2/1) two, and the attack
/// sequence for several routines decided (DMG p.62-63).
#[test]
fn the_charts_know_each_fighters_routines() {
    use firststrike::rules::cite;
    use firststrike::viewer::teach::Teach;
    let mut app = app("scenes/otis_vs_robilar.ron".into(), false);
    app.world_mut().resource_mut::<Teach>().charts = true;
    app.update();
    let teach = app.world().resource::<Teach>();
    let (round, p) = teach
        .decision_now(2, None, false)
        .expect("a decision in round 2");
    assert_eq!(round, 2);
    assert_eq!(p.decision.rule, cite::MULTIPLE_ROUTINES);
    assert_eq!(teach.routines(2, "Otis"), Some(1));
    assert_eq!(teach.routines(2, "Robilar"), Some(2));
    assert_eq!(teach.routines(1, "Otis"), Some(2), "3/2: two in odd rounds");
}

/// While the surprise question is pending the clock hides the surprise segments (they
/// would give the answer away); answered, they show, and the playback steps into the one
/// surprise segment of the lair (DMG p.61).
#[test]
fn the_surprise_question_hides_the_surprise_pips() {
    use firststrike::teach::QuestionKind;
    use firststrike::viewer::teach::Teach;
    let mut app = app("scenes/lizard_man_lair.ron".into(), false);
    set_now(app.world_mut(), ViewerMode::Predict);
    app.update();
    assert_eq!(pb(&app).hold, Some((0, 1)));
    let mut t = app.world_mut().resource_mut::<Teach>();
    assert!(t.hides_surprise((0, 0), true));
    let i = t.pending((0, 0)).unwrap();
    let q = t.quiz().unwrap().questions[i].clone();
    assert_eq!(q.kind, QuestionKind::SurpriseSegments);
    t.answer(i, q.answer);
    assert!(!t.hides_surprise((0, 0), true));
    app.update();
    tap(&mut app, KeyCode::ArrowRight);
    assert_eq!(pb(&app).current().phase, Phase::Surprise(1));
}

/// Predict mode never holds for good: for every scene in `scenes/`, answering each
/// question as it comes, the playback reaches the end of the scene with every question
/// asked and answered, and it only ever stops at a hold while a question is pending.
#[test]
fn predict_plays_every_scene_to_its_end() {
    use firststrike::viewer::teach::Teach;
    for path in firststrike::testing::library_scenes() {
        let mut app = app(path.clone(), false);
        set_now(app.world_mut(), ViewerMode::Predict);
        let mut steps = 0;
        loop {
            app.update();
            let now = pb(&app).current().when;
            let mut teach = app.world_mut().resource_mut::<Teach>();
            while let Some(i) = teach.pending(now) {
                let right = teach.quiz().unwrap().questions[i].answer;
                teach.answer(i, right);
            }
            app.update();
            assert_eq!(
                pb(&app).hold,
                None,
                "{}: held with nothing to ask",
                path.display()
            );
            let moved = app
                .world_mut()
                .resource_scope(|w, mut pb: Mut<Playback>| pb.forward(w));
            if !moved {
                break;
            }
            steps += 1;
            assert!(steps < 2000, "{}: no end", path.display());
        }
        assert!(pb(&app).over, "{}: stopped before the end", path.display());
        let teach = app.world().resource::<Teach>();
        let quiz = teach.quiz().unwrap();
        assert!(
            quiz.answers.iter().all(Option::is_some),
            "{}: a question never asked",
            path.display()
        );
        assert_eq!(quiz.score(), (quiz.questions.len(), quiz.questions.len()));
    }
}

/// With Ctrl (or Alt) held a key is part of a chord: Ctrl+V, Ctrl+C and Ctrl+X do not turn
/// sight off, open the charts or the table dice, and Ctrl+R does not reload.
#[test]
fn a_chord_is_not_its_plain_key() {
    let mut app = app("scenes/lizard_man_lair.ron".into(), false);
    let before = app.world().resource::<Layers>().clone();
    for key in [KeyCode::KeyV, KeyCode::KeyG, KeyCode::KeyL] {
        KeyCode::ControlLeft.press(app.world_mut());
        tap(&mut app, key);
        KeyCode::ControlLeft.release(app.world_mut());
        app.update();
    }
    assert_eq!(
        *app.world().resource::<Layers>(),
        before,
        "a chord flipped a layer"
    );
    // The plain key still works.
    tap(&mut app, KeyCode::KeyV);
    assert_ne!(*app.world().resource::<Layers>(), before);
}

/// Ctrl+S (or Ctrl+Z) pressed and let go between two frames, Ctrl with it, as a quick
/// hand or `xdotool key ctrl+s` does while the viewer sleeps: the action map reads the
/// keys as they stand at the frame and saw nothing (an outside tester's Ctrl+S did nothing
/// and said nothing). It saves, once; the same tap with Shift and Z redoes, not undoes.
#[test]
fn a_ctrl_chord_tapped_within_one_frame_still_counts() {
    use firststrike::viewer::{Editor, EditorCommand};
    let mut app = app("scenes/lizard_man_lair.ron".into(), false);
    app.world_mut().write_message(EditorCommand::Toggle);
    app.update();
    let chord = |app: &mut App, keys: &[KeyCode]| {
        for k in keys {
            k.press(app.world_mut());
        }
        for k in keys.iter().rev() {
            k.release(app.world_mut());
        }
        app.update();
    };
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyS]);
    let said = app
        .world()
        .resource::<Editor>()
        .saved
        .clone()
        .unwrap_or_default();
    assert!(
        said.contains("nothing to save"),
        "Ctrl+S not seen: {said:?}"
    );
    app.update();
    // An edit, undone by a tapped Ctrl+Z and redone by a tapped Ctrl+Shift+Z.
    app.world_mut()
        .write_message(EditorCommand::Edit(firststrike::scene::edit::Edit::Rename(
            "Tapped".into(),
        )));
    app.update();
    let name = |app: &App| {
        app.world()
            .resource::<Editor>()
            .scene
            .as_ref()
            .unwrap()
            .name
            .clone()
    };
    assert_eq!(name(&app), "Tapped");
    chord(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyZ]);
    assert_ne!(name(&app), "Tapped", "Ctrl+Z not seen");
    chord(
        &mut app,
        &[KeyCode::ControlLeft, KeyCode::ShiftLeft, KeyCode::KeyZ],
    );
    assert_eq!(name(&app), "Tapped", "Ctrl+Shift+Z not seen as redo");
}
