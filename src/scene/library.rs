//! The library of scenes built into the binary (every `.ron` under the project's
//! `scenes/`, put in by `build.rs`), so the program works from any folder: a scene argument
//! that is not a file is looked up here by name — `lizard_man_lair`,
//! `lizard_man_lair.ron`, `scenes/lizard_man_lair.ron` or `take_initiative/charge_9a` —
//! and the viewer opens its own copy of one when started outside the project.

use super::error::{SceneError, SceneErrors};
use super::{Scene, load};
use std::path::{Path, PathBuf};

/// Every library scene: its path inside `scenes/` and its text.
pub const SCENES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/library.rs"));

/// The library scene a name means, if any: (its path inside `scenes/`, its text).
pub fn find(name: &str) -> Option<(&'static str, &'static str)> {
    let name = name.replace('\\', "/");
    let name = name.strip_prefix("./").unwrap_or(&name);
    let name = name.strip_prefix("scenes/").unwrap_or(name);
    let name = name.strip_suffix(".ron").unwrap_or(name);
    SCENES
        .iter()
        .find(|(path, _)| path.strip_suffix(".ron") == Some(name))
        .copied()
}

/// The text of the scene a command-line argument means, with the name its errors give
/// it: the file's, else the library scene's (as [`load_arg`] finds them).
pub fn source_of(arg: &Path) -> Option<(String, String)> {
    let arg = &user_file(arg);
    if is_there(arg) {
        return Some((arg.display().to_string(), load::read(arg).ok()?));
    }
    let (path, text) = library_name(arg).and_then(find)?;
    Some((format!("{path} (built in)"), text.to_string()))
}

/// Loads a scene named on the command line: the file if there is one at `arg`, else the
/// library scene of that name; the file's own error (with a hint) when neither.
pub fn load_arg(arg: &Path) -> Result<Scene, SceneErrors> {
    let arg = &user_file(arg);
    if is_there(arg) {
        return load::load(arg);
    }
    if let Some((path, text)) = library_name(arg).and_then(find) {
        return load::parse(&format!("{path} (built in)"), text);
    }
    // A path spelled out as one (`./x`, `/x`) is never looked up in the library: its
    // error says only that the file is not there.
    let words = match library_name(arg) {
        Some(_) => {
            "no such file, nor a library scene of that name ('firststrike scenes' lists them)"
        }
        None => "no such file",
    };
    load::load(arg).map_err(|mut e| {
        if let Some(first) = e.0.first_mut() {
            *first = SceneError::file(
                &arg.display().to_string(),
                format!("{words}: {}", first.message),
            );
        }
        e
    })
}

/// As [`load_arg`], with the scene's warnings (figures on defaults) for `check`.
pub fn load_arg_with_warnings(arg: &Path) -> Result<(Scene, Vec<SceneError>), SceneErrors> {
    let arg = &user_file(arg);
    if !is_there(arg)
        && let Some((path, text)) = library_name(arg).and_then(find)
    {
        let label = format!("{path} (built in)");
        let scene = load::parse(&label, text)?;
        let warnings = load::warnings(&label, text, &scene);
        return Ok((scene, warnings));
    }
    if !is_there(arg) {
        return load_arg(arg).map(|s| (s, Vec::new()));
    }
    load::load_with_warnings(arg)
}

/// Something is at `path`, even what cannot be followed (a link in a loop, a link to
/// nothing): that is the file meant, and its own error says what is wrong with it.
pub fn is_there(path: &Path) -> bool {
    path.symlink_metadata().is_ok()
}

/// The user's own file a scene argument means, before the library: the file itself, or
/// for a bare name (`lizard_man_lair`) a file `NAME.ron` in the folder.
pub fn user_file(arg: &Path) -> PathBuf {
    let with_ron = arg.with_extension("ron");
    if !is_there(arg) && arg.extension().is_none() && with_ron.is_file() {
        with_ron
    } else {
        arg.to_path_buf()
    }
}

/// The name to look up in the library, if `arg` may mean a library scene: not a path the
/// user spelled out as one (`./x`, `../x`, `/x`), which means that file alone.
fn library_name(arg: &Path) -> Option<&str> {
    let s = arg.to_str()?;
    let explicit = arg.is_absolute() || s.starts_with("./") || s.starts_with("../");
    (!explicit).then_some(s)
}

/// Where the viewer keeps its copies of library scenes: the user's data folder
/// (`$XDG_DATA_HOME`, else `~/.local/share`), under `firststrike/library-VERSION`.
pub fn copies_dir() -> PathBuf {
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("firststrike")
        .join(format!("library-{}", env!("CARGO_PKG_VERSION")))
}

/// The list in a copies folder of what was written there: `path<TAB>hash` a line.
const WRITTEN: &str = ".written";

/// A stable hash of a text (FNV-1a, 64 bits), to know a copy is still as it was written.
fn fingerprint(text: &str) -> String {
    let h = text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{h:016x}")
}

/// Writes the library into `dir` for the viewer, one file per scene. A file already there
/// is kept if the user changed it; one still exactly as an earlier build wrote it (the
/// folder's `.written` list says so) is brought up to this build's scene. Returns the
/// folder.
pub fn write_copies(dir: &Path) -> std::io::Result<PathBuf> {
    let list = dir.join(WRITTEN);
    let before: std::collections::BTreeMap<String, String> = std::fs::read_to_string(&list)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(p, h)| (p.to_string(), h.to_string()))
        .collect();
    let mut written = before.clone();
    for (path, text) in SCENES {
        let to = dir.join(path);
        let ours = fingerprint(text);
        match std::fs::read_to_string(&to) {
            Ok(now) if now == *text => {
                written.insert(path.to_string(), ours);
                continue;
            }
            // Changed since an earlier build wrote it, or with no record: the user's.
            Ok(now) if before.get(*path) != Some(&fingerprint(&now)) => continue,
            // Missing, or as an earlier build wrote it: this build's.
            _ => {}
        }
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)?;
        }
        super::save::write_atomic(&to, text)?;
        written.insert(path.to_string(), ours);
    }
    if written != before {
        let text: String = written.iter().map(|(p, h)| format!("{p}\t{h}\n")).collect();
        super::save::write_atomic(&list, &text)?;
    }
    Ok(dir.to_path_buf())
}

/// A one-line summary of each library scene: its name to give on the command line, and
/// its title.
pub fn summaries() -> Vec<(String, String)> {
    SCENES
        .iter()
        .map(|(path, text)| {
            let name = path.strip_suffix(".ron").unwrap_or(path).to_string();
            let title = load::parse(path, text)
                .map(|s| s.name)
                .unwrap_or_else(|e| format!("(invalid: {e})"));
            (name, title)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A copy as an earlier build wrote it is refreshed; one the user changed is kept; a
    /// copy with no record (written before the list existed) is kept too.
    #[test]
    fn copies_are_refreshed_only_when_no_one_changed_them() {
        let dir = std::env::temp_dir().join(format!("fs-copies-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        write_copies(&dir).unwrap();
        let (a, text_a) = SCENES[0];
        let (b, _) = SCENES[1];
        let (c, _) = SCENES[2];
        assert_eq!(std::fs::read_to_string(dir.join(a)).unwrap(), text_a);
        // An earlier build's copy of a: recorded as written, so not the user's.
        let old = "// an earlier build's scene\n";
        std::fs::write(dir.join(a), old).unwrap();
        let list = std::fs::read_to_string(dir.join(WRITTEN)).unwrap();
        let list = list.replace(
            &format!("{a}\t{}", fingerprint(text_a)),
            &format!("{a}\t{}", fingerprint(old)),
        );
        std::fs::write(dir.join(WRITTEN), list).unwrap();
        // The user's edit of b.
        std::fs::write(dir.join(b), "// the DM's own\n").unwrap();
        // c written before any list: no record.
        let list = std::fs::read_to_string(dir.join(WRITTEN)).unwrap();
        let list: String = list
            .lines()
            .filter(|l| !l.starts_with(&format!("{c}\t")))
            .map(|l| format!("{l}\n"))
            .collect();
        std::fs::write(dir.join(WRITTEN), list).unwrap();
        std::fs::write(dir.join(c), "// an old copy with no record\n").unwrap();
        write_copies(&dir).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join(a)).unwrap(),
            text_a,
            "refreshed"
        );
        assert_eq!(
            std::fs::read_to_string(dir.join(b)).unwrap(),
            "// the DM's own\n",
            "kept"
        );
        assert_eq!(
            std::fs::read_to_string(dir.join(c)).unwrap(),
            "// an old copy with no record\n",
            "kept"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn every_library_scene_is_built_in_and_valid() {
        assert!(SCENES.len() >= 20, "{} scenes", SCENES.len());
        for (path, text) in SCENES {
            load::parse(path, text).unwrap_or_else(|e| panic!("{path}: {e}"));
        }
    }

    #[test]
    fn names_find_their_scene() {
        for name in [
            "lizard_man_lair",
            "lizard_man_lair.ron",
            "scenes/lizard_man_lair.ron",
            "./scenes/lizard_man_lair.ron",
        ] {
            assert_eq!(
                find(name).map(|f| f.0),
                Some("lizard_man_lair.ron"),
                "{name}"
            );
        }
        assert_eq!(
            find("take_initiative/charge_9a").map(|f| f.0),
            Some("take_initiative/charge_9a.ron")
        );
        assert!(find("no_such_scene").is_none());
        assert!(find("lizard").is_none(), "a whole name, not a part");
    }
}
