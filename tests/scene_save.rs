//! Saving scenes: every scene in `scenes/` reads back from its saved text to the same
//! scene, the saved text passes the loader's checks, and it is laid out for people.

use firststrike::scene::{load, parse, save};

#[test]
fn every_library_scene_reads_back_the_same() {
    for path in firststrike::testing::library_scenes() {
        let scene = load(&path).unwrap_or_else(|e| panic!("{e}"));
        let text = save::to_ron(&scene);
        let again = parse(&path.display().to_string(), &text).unwrap_or_else(|e| {
            panic!("{}: saved text does not load:\n{e}\n{text}", path.display())
        });
        assert_eq!(again, scene, "{}:\n{text}", path.display());
    }
}

/// The saved text of the lizard-man lair: one line per figure, map rows as rows, no
/// default fields.
#[test]
fn saved_text_is_laid_out_for_people() {
    let scene = load(std::path::Path::new("scenes/lizard_man_lair.ron")).unwrap();
    let text = save::to_ron(&scene);
    if std::env::var("SHOW").is_ok() {
        println!("{text}");
    }
    let figures = text
        .lines()
        .filter(|l| l.trim_start().starts_with("(name:"))
        .count();
    assert_eq!(
        figures,
        scene.combatants.len(),
        "one line per figure:\n{text}"
    );
    let rows = &scene.map.as_ref().unwrap().rows;
    for r in rows {
        assert!(
            text.lines().any(|l| l.trim() == format!("\"{r}\",")),
            "row {r} on its own line:\n{text}"
        );
    }
    assert!(
        !text.contains("just_closed: false"),
        "defaults left out:\n{text}"
    );
    assert!(
        !text.contains("Some("),
        "implicit Some, as the scenes are written:\n{text}"
    );
}
