//! Every log line, export and question reads as a DM would say it (issue "the DM's own
//! encounter", point 8): over every library scene, no raw lists ("[1, 4]", "[]"), no
//! doubled possessive ("Bigby's bigby's"), no bare "-2 needed", and a fall never reads as
//! if the striker fell.

use firststrike::sim::{EventKind, LogEvent};
use firststrike::testing::{SceneRun, library_scenes};

/// What is wrong with one line of words, if anything.
fn fault(words: &str) -> Option<&'static str> {
    let lower = words.to_lowercase();
    // A list printed as the program holds it: "[" before a number, a sign or "]".
    let raw = words
        .split('[')
        .skip(1)
        .any(|after| after.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == ']'));
    if raw {
        return Some("a raw list");
    }
    for w in lower.split_whitespace() {
        if let Some(name) = w.strip_suffix("'s")
            && lower.contains(&format!("{name}'s {name}'s"))
        {
            return Some("a doubled possessive");
        }
    }
    if lower.contains(" needed")
        && lower.split(" needed").next().is_some_and(|h| {
            h.trim_end().ends_with(|c: char| c.is_ascii_digit())
                && h.trim_end()
                    .rsplit(' ')
                    .next()
                    .is_some_and(|n| n.starts_with('-'))
        })
    {
        return Some("a bare negative number needed");
    }
    None
}

#[test]
fn every_library_scene_reads_as_a_dm_would_say_it() {
    let mut faults = Vec::new();
    for path in library_scenes() {
        if path.to_string_lossy().contains("stress") {
            continue;
        }
        let mut run = SceneRun::load(&path.to_string_lossy());
        run.run_to_end();
        let events: Vec<LogEvent> = run.log().events.clone();
        let md = firststrike::calc::summary::markdown("t", &events, "segment");
        for e in &events {
            let line = e.narrate_in("segment");
            if let Some(f) = fault(&e.detail) {
                faults.push(format!("{}: {f}: {line}", path.display()));
            }
            if e.kind == EventKind::Down
                && let Some(t) = &e.target
            {
                assert!(
                    !line.contains(&format!("{} → {t}:", e.actor)),
                    "a fall reads as the striker's: {line}"
                );
            }
        }
        for l in md.lines() {
            if let Some(f) = fault(l) {
                faults.push(format!("{} (markdown): {f}: {l}", path.display()));
            }
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn the_checks_catch_what_they_look_for() {
    assert_eq!(
        fault("lights [20.0] ft, infravision [] ft"),
        Some("a raw list")
    );
    assert_eq!(fault("6d4 [1, 1, 4] → [1, 1, 3]"), Some("a raw list"));
    assert_eq!(
        fault("completes Bigby's bigby's grasping hand"),
        Some("a doubled possessive")
    );
    assert_eq!(
        fault("d20 15 +3 = 18 vs -2 needed for AC 5"),
        Some("a bare negative number needed")
    );
    assert_eq!(fault("d20 15 +3 = 18 against AC 5 (needs 17): hit"), None);
    assert_eq!(fault("Bigby's grasping hand stands between"), None);
}
