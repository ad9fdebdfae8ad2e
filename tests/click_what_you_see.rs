//! Click what you see: a token is found where it is drawn at the segment on screen
//! (moved, or pushed apart in a crowd), never where its figure started; and a figure
//! dragged while the map shows a later segment has its start moved, with the map
//! rewound to the start so the DM sees where it now stands.
#![cfg(feature = "viewer")]

use bevy::prelude::*;
use firststrike::viewer::{
    Editor, EditorCommand, Playback, PlaybackCommand, ViewerCorePlugin, label_size, layout,
    token_under, world_of,
};

fn app(path: &str) -> App {
    firststrike::testing::viewer_app(ViewerCorePlugin::at(path))
}

fn forward(app: &mut App, n: usize) {
    for _ in 0..n {
        app.world_mut().write_message(PlaybackCommand::Forward);
        app.update();
    }
}

/// The name of the token under a point in feet, at the segment on screen.
fn under(app: &App, at: (f64, f64)) -> Option<String> {
    let pb = app.world().resource::<Playback>();
    let figures = &pb.current().figures;
    let placed = layout(figures, label_size(0.0), None);
    token_under(&placed, figures, world_of(at)).map(|i| figures[i].name.clone())
}

#[test]
fn a_token_is_found_where_it_is_drawn_not_where_it_started() {
    let mut app = app("scenes/lizard_man_lair.ron");
    let start = (107.5, 47.5);
    assert_eq!(under(&app, start).as_deref(), Some("Robilar"));
    // Robilar charges up the tunnel in the surprise segment.
    forward(&mut app, 1);
    let now = {
        let pb = app.world().resource::<Playback>();
        pb.current()
            .figures
            .iter()
            .find(|f| f.name == "Robilar")
            .unwrap()
            .at
    };
    assert_ne!(now, start);
    assert_eq!(under(&app, now).as_deref(), Some("Robilar"));
    assert_ne!(
        under(&app, start).as_deref(),
        Some("Robilar"),
        "his empty starting cell is not him"
    );
}

/// Every figure of every library scene, at every segment of its first round: a click on
/// its drawn centre finds it, whatever the crowd.
#[test]
fn every_drawn_token_is_found_at_its_drawn_centre() {
    for path in [
        "scenes/lizard_man_lair.ron",
        "scenes/example_of_melee.ron",
        "scenes/stress_200.ron",
    ] {
        let mut app = app(path);
        for _ in 0..12 {
            let pb = app.world().resource::<Playback>();
            let figures = &pb.current().figures;
            let placed = layout(figures, label_size(0.0), None);
            for (i, f) in figures.iter().enumerate() {
                assert_eq!(
                    token_under(&placed, figures, placed.drawn[i]),
                    Some(i),
                    "{path} {:?}: {}",
                    pb.current().when,
                    f.name
                );
            }
            forward(&mut app, 1);
        }
    }
}

#[test]
fn dragging_a_figure_mid_round_moves_its_start_and_rewinds() {
    let mut app = app("scenes/lizard_man_lair.ron");
    app.world_mut().write_message(EditorCommand::Toggle);
    app.update();
    forward(&mut app, 3);
    assert!(app.world().resource::<Playback>().cursor > 0);
    app.world_mut().write_message(EditorCommand::MoveStart {
        figure: "Robilar".into(),
        to: (102.5, 52.5),
    });
    app.update();
    let ed = app.world().resource::<Editor>();
    let robilar = ed
        .scene
        .as_ref()
        .unwrap()
        .combatants
        .iter()
        .find(|c| c.name == "Robilar")
        .unwrap();
    assert_eq!(robilar.at, (102.5, 52.5));
    assert!(
        ed.note.as_deref().unwrap().contains("Robilar"),
        "{:?}",
        ed.note
    );
    let pb = app.world().resource::<Playback>();
    assert_eq!(
        pb.cursor, 0,
        "the map shows the start, where the move is seen"
    );
    assert_eq!(under(&app, (102.5, 52.5)).as_deref(), Some("Robilar"));
    // At the start already, a move keeps the segment and says nothing.
    app.world_mut().write_message(EditorCommand::MoveStart {
        figure: "Robilar".into(),
        to: (107.5, 47.5),
    });
    app.update();
    assert_eq!(app.world().resource::<Editor>().note, None);
}

/// The note that a move rewound the map goes with the edits it was about: discarded (a
/// reload answered "discard the edits"), it is gone, and so it is after a save.
#[test]
fn a_note_about_edits_goes_with_them() {
    use firststrike::viewer::{Answer, ViewerRequest};
    let mut app = app("scenes/lizard_man_lair.ron");
    app.world_mut().write_message(EditorCommand::Toggle);
    app.update();
    forward(&mut app, 3);
    app.world_mut().write_message(EditorCommand::MoveStart {
        figure: "Robilar".into(),
        to: (102.5, 52.5),
    });
    app.update();
    assert!(app.world().resource::<Editor>().note.is_some());
    app.world_mut().write_message(ViewerRequest::Reload);
    app.update();
    app.world_mut()
        .write_message(EditorCommand::Answer(Answer::Discard));
    app.update();
    app.update();
    assert_eq!(
        app.world().resource::<Editor>().note,
        None,
        "the edits were discarded"
    );
}
