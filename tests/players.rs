//! The players' window shows only what the party sees (`viewer::players::party_view`): the
//! party's own figures, the foes a conscious member sees by the engine's sight rules, and
//! the cells lit in a member's line of sight. Headless: the viewer's core with the
//! playback, no window.
#![cfg(feature = "viewer")]

use bevy::prelude::*;
use firststrike::map::Vision;
use firststrike::viewer::players::{party_side, party_view};
use firststrike::viewer::{Playback, PlaybackCommand, ViewerCorePlugin};

/// Two rooms and a door: the fighter's torch lights the west room; an orc waits in the
/// dark beyond the wall, another just outside the door at the edge of the light.
pub const ROOMS: &str = include_str!("data/two_rooms.ron");

fn app(path: std::path::PathBuf) -> App {
    firststrike::testing::viewer_app(ViewerCorePlugin::at(path))
}

#[test]
fn the_party_sees_its_own_and_the_foes_its_members_see() {
    let dir = std::env::temp_dir().join(format!("firststrike-players-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("rooms.ron");
    std::fs::write(&path, ROOMS).unwrap();
    let mut app = app(path);
    for step in 0..4 {
        let pb = app.world().resource::<Playback>();
        let snap = pb.current();
        let side = party_side(&pb.scene, None).unwrap();
        assert_eq!(side, "Party", "the first character's side");
        let grid = pb.grid.clone().unwrap();
        let mut vision = Vision::new(&grid);
        let view = party_view(snap, Some(&mut vision), &side);
        // The engine's sightings decide who is shown: the party, and whom it sees.
        let seen_by_party = |j: usize| {
            snap.sightings
                .iter()
                .any(|&(by, seen, _)| by <= 1 && seen == j)
        };
        assert!(
            view.figures.contains(&0) && view.figures.contains(&1),
            "step {step}"
        );
        assert!(
            !view.figures.contains(&2),
            "the orc beyond the wall is not drawn (step {step})"
        );
        assert!(!seen_by_party(2));
        assert_eq!(view.figures.contains(&3), seen_by_party(3), "step {step}");
        // The cells: the torch-lit room is in sight, the dark room beyond the wall is not.
        let w = grid.width;
        assert!(view.cells[2 * w + 2], "a lit cell in the west room");
        assert!(
            !view.cells[w + 15],
            "a cell of the dark east room (step {step})"
        );
        // Another side's players see the other way round.
        let theirs = party_view(snap, Some(&mut vision), "Orcs");
        assert!(theirs.figures.contains(&2) && theirs.figures.contains(&3));
        app.world_mut().write_message(PlaybackCommand::Forward);
        app.update();
    }
}

mod common;

/// A side no figure is on is refused before any window opens, with the sides there are.
#[test]
fn players_of_a_side_that_is_not_there_are_refused() {
    let (code, _, err) =
        common::firststrike(&["view", "tests/data/two_rooms.ron", "--players=Elves"]);
    assert_eq!(code, 2);
    assert!(err.contains("--players Elves"), "{err}");
    assert!(err.contains("Party, Orcs"), "{err}");
    // The side is given with '=': a bare --players never takes the scene's path for a side.
    let (code, _, err) = common::firststrike(&[
        "view",
        "--players",
        "tests/data/two_rooms.ron",
        "--screenshot",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        !err.contains("no figure of the scene is on that side"),
        "{err}"
    );
}

/// The third wave's finding: an encounter built monsters first showed the monsters' view
/// as the players'. With no side given, the party is the side of the first character.
#[test]
fn the_party_is_the_characters_side_whoever_was_placed_first() {
    let src = r#"Scene(name: "ford", setting: Outdoors, seed: 1,
      combatants: [
        (name: "Goblin 1", side: "Goblins", at: (0.0, 0.0), monster: "goblin", hp: 4),
        (name: "Goblin 2", side: "Goblins", at: (5.0, 0.0), monster: "goblin", hp: 4),
        (name: "Mirela", side: "Party", at: (0.0, 40.0), weapon: "dagger", class: "thief", level: 3, ac: 7, hp: 12),
      ])"#;
    let scene = firststrike::scene::parse("ford.ron", src).unwrap();
    assert_eq!(party_side(&scene, None).as_deref(), Some("Party"));
    assert_eq!(
        party_side(&scene, Some("Goblins")).as_deref(),
        Some("Goblins"),
        "a side given is kept"
    );
    // Monsters only: the first figure's side.
    let only = src.replace(
        r#"weapon: "dagger", class: "thief", level: 3, ac: 7, hp: 12"#,
        r#"monster: "orc", hp: 5"#,
    );
    let scene = firststrike::scene::parse("ford.ron", &only).unwrap();
    assert_eq!(party_side(&scene, None).as_deref(), Some("Goblins"));
}

/// The third outside round: a goblin put to sleep, then struck to 0 hp, was still labelled
/// "(asleep)" and "doing: melee". A fallen figure is no longer held or asleep, and a figure
/// that cannot act (fallen, held, asleep) is doing nothing, in every frame of the replay.
#[test]
fn a_fallen_sleeper_is_not_called_asleep_nor_doing_anything() {
    use firststrike::rules::effect::Outcome;
    use firststrike::sim::components::Mark;
    let mut app = app("tests/data/goblin_ford.ron".into());
    for _ in 0..40 {
        app.world_mut()
            .write_message(firststrike::viewer::PlaybackCommand::Forward);
        app.update();
    }
    let pb = app.world().resource::<Playback>();
    let mut fell = 0;
    for snap in &pb.frames {
        for f in &snap.figures {
            if f.hp.0 <= 0 {
                fell += 1;
                assert!(
                    !f.marks
                        .iter()
                        .any(|m| matches!(m.1, Mark::Spell(Outcome::Asleep | Outcome::Held))),
                    "{} at {} hp still marked {:?}",
                    f.name,
                    f.hp.0,
                    f.marks
                );
            }
            if !f.up {
                assert_eq!(f.intent, None, "{} is doing something while down", f.name);
            }
            // On the map, one out of the fight is marked so, as a sleeper is.
            let label = firststrike::viewer::label_text(f);
            if f.dead {
                assert!(label.contains("dead") || label.contains("slain"), "{label}");
            } else if f.hp.0 <= 0 {
                assert!(label.contains("(down)"), "{label}");
            } else if f.up {
                assert!(
                    !label.contains("down") && !label.contains("dead"),
                    "{label}"
                );
            }
        }
    }
    assert!(fell > 0, "someone falls in the replay");
}
