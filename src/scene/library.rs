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

/// Loads a scene named on the command line: the file if there is one at `arg`, else the
/// library scene of that name; the file's own error (with a hint) when neither.
pub fn load_arg(arg: &Path) -> Result<Scene, SceneErrors> {
    if arg.exists() {
        return load::load(arg);
    }
    if let Some((path, text)) = arg.to_str().and_then(find) {
        return load::parse(&format!("{path} (built in)"), text);
    }
    load::load(arg).map_err(|mut e| {
        if let Some(first) = e.0.first_mut() {
            *first = SceneError::file(
                &arg.display().to_string(),
                format!(
                    "no such file, nor a library scene of that name ('firststrike scenes' lists them): {}",
                    first.message
                ),
            );
        }
        e
    })
}

/// As [`load_arg`], with the scene's warnings (figures on defaults) for `check`.
pub fn load_arg_with_warnings(arg: &Path) -> Result<(Scene, Vec<SceneError>), SceneErrors> {
    if !arg.exists()
        && let Some((path, text)) = arg.to_str().and_then(find)
    {
        let label = format!("{path} (built in)");
        let scene = load::parse(&label, text)?;
        let warnings = load::warnings(&label, text, &scene);
        return Ok((scene, warnings));
    }
    if !arg.exists() {
        return load_arg(arg).map(|s| (s, Vec::new()));
    }
    load::load_with_warnings(arg)
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

/// Writes the library into `dir` for the viewer, one file per scene; a file already there
/// is left as it is (it may hold the user's edits). Returns the folder.
pub fn write_copies(dir: &Path) -> std::io::Result<PathBuf> {
    for (path, text) in SCENES {
        let to = dir.join(path);
        if to.exists() {
            continue;
        }
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)?;
        }
        super::save::write_atomic(&to, text)?;
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
