//! The scene file shown: its path, seed and rules-system switch, what became of its last
//! load, and the library of scenes beside it for the picker. [`super::reload`] loads it;
//! the editor saves to it.

use crate::rules::options::RulesSystem;
use crate::scene;
use bevy::prelude::*;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The scene file being shown, and what became of the last load.
#[derive(Resource, Clone, Debug)]
pub struct SceneSource {
    /// The file.
    pub path: PathBuf,
    /// Seed override.
    pub seed: Option<u64>,
    /// Poll the file for changes.
    pub watch: bool,
    /// Its modification time at the last load.
    pub modified: Option<SystemTime>,
    /// The located error of the last failed load (the last good scene stays shown).
    pub error: Option<String>,
    /// Scenes offered by the picker.
    pub library: Vec<PathBuf>,
    /// The rules system to play under instead of the scene's own (the switch).
    pub system: Option<RulesSystem>,
    /// Seconds since the last poll.
    pub(super) since_poll: f32,
    /// Loads so far.
    pub(super) generation: u32,
    /// The scene as its file holds it at the last good load (before any switch of the
    /// rules system): what the editor starts from.
    pub on_disk: Option<(scene::Scene, PathBuf)>,
    /// The file changed on disk while the editor held unsaved edits: not reloaded.
    pub changed_under_edits: bool,
    /// The file as written, when it fails its checks and no scene was shown before it
    /// (opened broken): what the editor starts from, to mend it.
    pub unchecked: Option<scene::Scene>,
}

impl SceneSource {
    /// A source for a scene file.
    pub fn new(path: PathBuf, seed: Option<u64>, watch: bool) -> Self {
        SceneSource {
            library: library(path.parent().unwrap_or(Path::new("scenes"))),
            path,
            seed,
            watch,
            modified: None,
            error: None,
            system: None,
            since_poll: 0.0,
            generation: 0,
            on_disk: None,
            changed_under_edits: false,
            unchecked: None,
        }
    }
}

impl SceneSource {
    /// The same source, played under `system` instead of the scene's own.
    pub fn under(mut self, system: Option<RulesSystem>) -> Self {
        self.system = system;
        self
    }
}

/// The `.ron` files beside a scene and in the folder the viewer was started from (where
/// Save as writes a bare name), sorted — the user's own, first — then the built-in
/// library's scenes not among them (by name), as the viewer's own copies
/// ([`scene::library::copies_dir`]: written when one is opened, never over the user's
/// files), in the library's order. The copies' folder is never read as the user's: with a
/// built-in scene open, the user's files were sorted in among the copies, out of sight of
/// both ends of the list. Read again at each load, so a scene just saved is listed.
pub(super) fn library(dir: &Path) -> Vec<PathBuf> {
    let ron_in = |d: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(d)
            .map(|d| {
                d.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "ron") && p.is_file())
                    .collect()
            })
            .unwrap_or_default()
    };
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    };
    let copies = scene::library::copies_dir();
    let mut list = if is_library_copy(dir) || same(dir, &copies) {
        Vec::new()
    } else {
        ron_in(dir)
    };
    let here = Path::new(".");
    if !same(dir, here) && !same(here, &copies) {
        list.extend(ron_in(here));
    }
    // By file name, then path: a folder's files and the starting folder's mix as one list.
    list.sort_by(|a, b| (a.file_name(), a).cmp(&(b.file_name(), b)));
    list.dedup();
    let here: Vec<_> = list.iter().filter_map(|p| p.file_name()).collect();
    let builtin: Vec<PathBuf> = scene::library::SCENES
        .iter()
        .map(|(name, _)| copies.join(name))
        .filter(|p| !here.contains(&p.file_name().unwrap_or_default()))
        .collect();
    list.extend(builtin);
    list
}

/// Whether `path` is one of the viewer's copies of the library.
pub fn is_library_copy(path: &Path) -> bool {
    path.starts_with(scene::library::copies_dir())
}

/// Makes sure the library's copies exist before one is opened (files already there are
/// kept: they may hold the user's edits).
pub fn ensure_copy(path: &Path) {
    if is_library_copy(path) && !path.exists() {
        let dir = scene::library::copies_dir();
        if let Err(e) = scene::library::write_copies(&dir) {
            warn!(
                "cannot write the library's copies to {}: {e}",
                dir.display()
            );
        }
    }
}

/// A file's modification time, if it can be read.
pub(super) fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With a built-in scene open, the list is the user's files first and then every
    /// built-in scene, none of the copies' folder counted as the user's (a DM who opened a
    /// built-in scene found their own encounter nowhere near either end of the picker).
    #[test]
    fn the_users_files_come_first_whatever_is_open() {
        let dir = std::env::temp_dir().join(format!("fs-picker-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("zz_my_encounter.ron"), "Scene()").unwrap();
        let mine = library(&dir);
        assert_eq!(mine[0], dir.join("zz_my_encounter.ron"), "{mine:?}");
        let copies = scene::library::copies_dir();
        for list in [mine, library(&copies)] {
            let first_builtin = list.iter().position(|p| is_library_copy(p));
            let last_own = list.iter().rposition(|p| !is_library_copy(p));
            assert!(
                last_own.is_none_or(|o| first_builtin.is_some_and(|b| o < b)),
                "{list:?}"
            );
            let builtins = list.iter().filter(|p| is_library_copy(p)).count();
            assert_eq!(builtins, scene::library::SCENES.len(), "{list:?}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
