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

/// Saved text is written as a person writes RON: no raw identifiers (`r#None`) and no raw
/// strings (`r#"..."#`) — quotes in a text are escaped — in any library scene, and it reads
/// back the same (outside tester: "Robilar": r#None and text: r#"…"# in a saved lair).
#[test]
fn saved_text_has_no_raw_identifiers_or_strings() {
    for path in firststrike::testing::library_scenes() {
        let scene = load(&path).unwrap_or_else(|e| panic!("{e}"));
        let text = save::to_ron(&scene);
        assert!(!text.contains("r#"), "{}:\n{text}", path.display());
    }
    let mut scene = load(std::path::Path::new("scenes/lizard_man_lair.ron")).unwrap();
    scene.about = r#"the "lair" of r#None and a \ back"#.into();
    let text = save::to_ron(&scene);
    assert!(text.contains(r#"\"lair\""#), "{text}");
    assert_eq!(parse("lair.ron", &text).unwrap(), scene, "{text}");
}

/// An atomic save never turns a special file into a plain one: a symbolic link is followed
/// (the file it names is replaced, the link stays), a device is written through (so a full
/// one is an error, not a file put in its place), a folder is refused, and a replaced
/// file keeps its permissions.
#[cfg(unix)]
#[test]
fn an_atomic_save_follows_links_and_writes_through_devices() {
    use firststrike::scene::save::write_atomic;
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("fs-save-links-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let target = dir.join("target.svg");
    std::fs::write(&target, "old").unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.join("link.svg");
    std::os::unix::fs::symlink("target.svg", &link).unwrap();
    write_atomic(&link, "new").unwrap();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link was replaced by a file"
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
    assert_eq!(
        std::fs::metadata(&target).unwrap().permissions().mode() & 0o777,
        0o640,
        "the permissions were lost"
    );
    // A link to nowhere makes the file it names.
    let dangling = dir.join("dangling.svg");
    std::os::unix::fs::symlink("made.svg", &dangling).unwrap();
    write_atomic(&dangling, "made").unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.join("made.svg")).unwrap(),
        "made"
    );
    assert!(
        std::fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    // A folder is refused, and stays a folder.
    assert!(write_atomic(&dir, "x").is_err());
    assert!(dir.is_dir());
    // A full device is an error, and stays a device.
    if std::path::Path::new("/dev/full").exists() {
        assert!(write_atomic(std::path::Path::new("/dev/full"), "x").is_err());
        assert!(!std::fs::metadata("/dev/full").unwrap().is_file());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The third wave's loss: saving from the editor dropped every comment of the file (a DM's
/// notes, a scene's explanations). A save over a file keeps them all: the head as it
/// stood, those from within the scene under a note; the scene reads back the same, and a
/// second save adds nothing.
#[test]
fn a_save_keeps_the_comments_of_the_file_it_replaces() {
    let dir = std::env::temp_dir().join(format!("fs-comments-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for lib in ["scenes/lizard_man_lair.ron", "scenes/example_of_melee.ron"] {
        let src = std::fs::read_to_string(lib).unwrap();
        let noted = src.replacen(
            "seed:",
            "// the goblins flee at half hp (DM's note)\n    seed:",
            1,
        );
        let path = dir.join("s.ron");
        std::fs::write(&path, &noted).unwrap();
        let scene = parse(lib, &noted).unwrap();
        save::save(&scene, &path, true).unwrap();
        let once = std::fs::read_to_string(&path).unwrap();
        for line in noted.lines().filter(|l| l.trim_start().starts_with("//")) {
            assert!(once.contains(line.trim()), "{lib}: lost {line:?}");
        }
        assert_eq!(parse("s.ron", &once).unwrap(), scene, "{lib}: reads back");
        save::save(&scene, &path, true).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            once,
            "{lib}: a second save adds nothing"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A save "into" a file as if it were a folder (`myfight.ron/x`) is refused, and said as
/// such: the file is a file, not a folder that does not exist (a first-time DM read that
/// the scene just saved was gone). The file is untouched.
#[test]
fn a_save_under_a_file_says_it_is_a_file() {
    let dir = std::env::temp_dir().join(format!("fs-save-under-file-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("myfight.ron");
    std::fs::write(&file, "kept").unwrap();
    let scene = load(std::path::Path::new("scenes/otis_vs_robilar.ron")).unwrap();
    let err = save::save(&scene, &file.join("x.ron"), false)
        .unwrap_err()
        .to_string();
    assert!(err.contains("is a file, not a folder"), "{err}");
    assert!(!err.contains("does not exist"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept");
    let err = save::save(&scene, &dir.join("nope").join("x.ron"), false)
        .unwrap_err()
        .to_string();
    assert!(err.contains("does not exist"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
