//! The engine is a group of plugins, one per stage, each adding its systems to the one
//! chain of sets; the schedules refuse ambiguous systems (two systems touching the same
//! data with no order between them) in debug builds, which the tests are.

use bevy::ecs::schedule::{LogLevel, ScheduleLabel};
use bevy::prelude::*;
use firststrike::sim::{
    EncounterPlugin, MovementPlugin, PlanningPlugin, PsionicsPlugin, ResolutionPlugin, Runner,
    SightPlugin, SimCorePlugin, SimStart, SimStep,
};

#[test]
fn every_stage_is_a_plugin_and_ambiguity_is_an_error() {
    let run = Runner::load("scenes/lizard_man_lair.ron");
    let app = &run.app;
    assert!(app.is_plugin_added::<SimCorePlugin>());
    assert!(app.is_plugin_added::<EncounterPlugin>());
    assert!(app.is_plugin_added::<PlanningPlugin>());
    assert!(app.is_plugin_added::<MovementPlugin>());
    assert!(app.is_plugin_added::<SightPlugin>());
    assert!(app.is_plugin_added::<ResolutionPlugin>());
    assert!(app.is_plugin_added::<PsionicsPlugin>());
    let schedules = app.world().resource::<Schedules>();
    for label in [SimStep.intern(), SimStart.intern()] {
        let s = schedules.get(label).expect("the simulation's schedules");
        assert_eq!(
            s.get_build_settings().ambiguity_detection,
            LogLevel::Error,
            "{label:?}"
        );
    }
}

/// Every library scene plays to its end under the group (the schedules are built, so an
/// ambiguity would fail here), the same as before: `golden_logs` holds every event.
#[test]
fn every_library_scene_builds_and_plays() {
    for path in firststrike::testing::library_scenes() {
        if path.to_string_lossy().contains("stress") {
            continue;
        }
        let mut run = Runner::load(path.to_str().unwrap());
        run.run_to_end();
        assert!(run.clock().is_over(), "{}", path.display());
    }
}

/// One world hosts scene after scene (as the viewer's does): each library scene loaded in
/// place of the one before plays exactly as in an app of its own — nothing of the last
/// scene (figures, sightings, memo, dice, log) is left to change it.
#[test]
fn a_hosting_world_plays_each_scene_as_a_new_app_does() {
    let mut host = Runner::host();
    let mut paths = firststrike::testing::library_scenes();
    paths.retain(|p| !p.to_string_lossy().contains("stress"));
    // Each scene after a different one, and one after itself.
    let mut order = paths.clone();
    order.reverse();
    order.push(order[0].clone());
    for path in order.iter().chain(&paths) {
        let scene = firststrike::scene::load(path).unwrap();
        let mut alone = Runner::new(scene.clone(), None, None);
        alone.run_to_end();
        firststrike::sim::load(host.app.world_mut(), std::sync::Arc::new(scene), None, None);
        host.run_to_end();
        let json = |r: &Runner| serde_json::to_string(&r.log().events).unwrap();
        assert_eq!(
            json(&host),
            json(&alone),
            "{} in a hosting world",
            path.display()
        );
        assert!(!host.log().events.is_empty(), "{}", path.display());
    }
}

/// `run` writes the log step by step and lets it go: what it hands out, step after step,
/// is the whole log a play to the end keeps, event for event and byte for byte.
#[test]
fn the_streamed_log_is_the_whole_log() {
    for path in firststrike::testing::library_scenes() {
        let scene = firststrike::scene::load(&path).unwrap();
        let mut whole = Runner::new(scene.clone(), None, None);
        whole.run_to_end();
        let mut want = Vec::new();
        firststrike::sim::write_json_lines(&whole.log().events, &mut want).unwrap();
        let mut streamed = Runner::new(scene, None, None);
        let (mut got, mut steps) = (Vec::new(), 0);
        streamed
            .stream_to_end(|events| {
                steps += 1;
                firststrike::sim::write_json_lines(events, &mut got)
            })
            .unwrap();
        assert!(steps > 1, "{}", path.display());
        assert_eq!(
            String::from_utf8(got).unwrap(),
            String::from_utf8(want).unwrap(),
            "{}",
            path.display()
        );
        assert!(
            streamed.log().events.len() <= 1,
            "the log let go of what it handed out"
        );
    }
}

/// Scenes on the same map as the one before keep its fields of view and remembered
/// sightings: a scene changed where sight depends on it (a figure elsewhere, infravision,
/// a light carried) still plays exactly as in an app of its own.
#[test]
fn a_scene_on_the_same_map_plays_as_a_new_app_does() {
    let lair =
        firststrike::scene::load(std::path::Path::new("scenes/lizard_man_lair.ron")).unwrap();
    let mut moved = lair.clone();
    moved.combatants[0].at.0 -= 5.0;
    let mut infra = lair.clone();
    infra.combatants[1].infravision_ft = Some(10.0);
    let mut lit = lair.clone();
    lit.combatants[1].light = Some("torch".into());
    let mut host = Runner::host();
    let json = |r: &Runner| serde_json::to_string(&r.log().events).unwrap();
    for scene in [lair.clone(), moved, infra, lit, lair] {
        let mut alone = Runner::new(scene.clone(), None, None);
        alone.run_to_end();
        firststrike::sim::load(host.app.world_mut(), std::sync::Arc::new(scene), None, None);
        host.run_to_end();
        assert_eq!(json(&host), json(&alone));
    }
}
