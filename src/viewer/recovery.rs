//! Recovery: unsaved edits are copied to a recovery file as soon as they are made (the
//! window may sleep right after an edit: a timer alone left the last edit unsaved), so a
//! crash, a killed process or a power cut loses none of them. The file lives in the
//! user's state folder (`$FIRSTSTRIKE_RECOVERY_DIR`, else `$XDG_STATE_HOME/firststrike/
//! recovery`, else `~/.local/state/firststrike/recovery`), one per running viewer, and is
//! removed once the edits are saved or discarded. Files left by an earlier run are
//! offered back at the next start: open (the edits come back unsaved, for the file they
//! were of), delete, or leave for later.

use super::SceneSource;
use super::editor::Editor;
use crate::scene::{self, save};
use bevy::prelude::*;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The least seconds between two autosaves (0: each change is written at once).
pub const AUTOSAVE_SECONDS: f32 = 0.0;

/// The first line of a recovery file names the file the edits were of.
const HEADER: &str = "// First Strike recovery of: ";

/// Where recovery files go, and what was found there at the start.
#[derive(Resource, Clone, Debug)]
pub struct Recovery {
    /// The folder (none: no autosave).
    pub dir: Option<PathBuf>,
    /// This viewer's own recovery file, once written.
    pub own: Option<PathBuf>,
    /// Seconds between autosaves.
    pub every: f32,
    /// Seconds since the last autosave.
    since: f32,
    /// The scene last written, so an unchanged scene is not written again.
    written: Option<crate::scene::Scene>,
    /// Files left by earlier runs, offered back.
    pub found: Vec<Found>,
}

impl Found {
    /// Whether the file the edits were of was saved after they were last kept: opening them
    /// goes back to before that save. Looked at when the list is made, not each frame the
    /// offer is drawn.
    pub fn saved_since(&self) -> bool {
        self.newer_file
    }

    /// Whether `of` was changed after `when`.
    fn file_newer(of: Option<&Path>, when: Option<SystemTime>) -> bool {
        let file_time = of.and_then(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
        matches!((file_time, when), (Some(f), Some(w)) if f > w)
    }
}

/// A recovery file left by an earlier run.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The recovery file.
    pub file: PathBuf,
    /// The scene file the edits were of (none: a new scene).
    pub of: Option<PathBuf>,
    /// When it was written.
    pub when: Option<SystemTime>,
    /// The file the edits were of was saved after them ([`Found::saved_since`]).
    newer_file: bool,
}

impl Recovery {
    /// Recovery in `dir` (none: off), listing what earlier runs left there.
    pub fn new(dir: Option<PathBuf>) -> Self {
        let found = dir.as_deref().map(found_in).unwrap_or_default();
        Recovery {
            dir,
            own: None,
            every: AUTOSAVE_SECONDS,
            since: 0.0,
            written: None,
            found,
        }
    }

    /// The default folder, from the environment.
    pub fn default_dir() -> Option<PathBuf> {
        let env = |k: &str| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        env("FIRSTSTRIKE_RECOVERY_DIR")
            .or_else(|| env("XDG_STATE_HOME").map(|d| d.join("firststrike/recovery")))
            .or_else(|| env("HOME").map(|d| d.join(".local/state/firststrike/recovery")))
    }
}

/// The recovery files in a folder, newest first.
fn found_in(dir: &Path) -> Vec<Found> {
    let mut list: Vec<Found> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "ron"))
                .filter(|p| !kept_by_a_running_viewer(p))
                .map(|file| {
                    let (of, when) = (
                        of(&file),
                        std::fs::metadata(&file).and_then(|m| m.modified()).ok(),
                    );
                    let newer_file = Found::file_newer(of.as_deref(), when);
                    Found {
                        of,
                        when,
                        file,
                        newer_file,
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    list.sort_by_key(|f| std::cmp::Reverse(f.when));
    list
}

/// Whether a recovery file is another viewer's, still running: its edits are not left
/// over, and offering them (to open, or to delete) would take them from under it. The file
/// is named `unsaved-PID-TIME.ron`; the process must be alive and a First Strike.
fn kept_by_a_running_viewer(file: &Path) -> bool {
    let pid = file
        .file_stem()
        .and_then(|s| s.to_str())
        .and_then(|s| s.strip_prefix("unsaved-"))
        .and_then(|s| s.split('-').next())
        .and_then(|p| p.parse::<u32>().ok());
    pid.is_some_and(|pid| {
        pid != std::process::id()
            && std::fs::read_to_string(format!("/proc/{pid}/comm"))
                .is_ok_and(|c| c.trim() == "firststrike")
            && std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| alive(&s))
    })
}

/// Whether a process whose `/proc/PID/stat` reads `stat` still runs: a viewer killed but
/// not yet reaped by its parent (a zombie, `Z`, or dead, `X`) keeps its name there, and
/// its edits must still be offered (an outside tester's `kill -9`).
fn alive(stat: &str) -> bool {
    // The state follows the name, which is in brackets and may itself hold one.
    let state = stat
        .rsplit_once(')')
        .and_then(|(_, rest)| rest.trim_start().chars().next());
    !matches!(state, Some('Z' | 'X' | 'x') | None)
}

/// The scene file a recovery file's edits were of, from its first line.
fn of(file: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(file).ok()?;
    let name = text.lines().next()?.strip_prefix(HEADER)?.trim();
    (!name.is_empty() && name != "a new scene").then(|| PathBuf::from(name))
}

/// Writes unsaved edits to this viewer's recovery file as they change, and removes it once
/// nothing is unsaved.
pub(super) fn autosave(world: &mut World) {
    let dt = world.resource::<Time<Real>>().delta_secs();
    if !world.resource::<Editor>().dirty() {
        clear_own(world);
        return;
    }
    // Each frame while edits are unsaved: compared in place, copied only when written.
    let unchanged =
        world.resource::<Recovery>().written.as_ref() == world.resource::<Editor>().scene.as_ref();
    let mut r = world.resource_mut::<Recovery>();
    let Some(dir) = r.dir.clone() else { return };
    r.since += dt;
    if r.since < r.every || unchanged {
        return;
    }
    let (scene, path) = {
        let ed = world.resource::<Editor>();
        (ed.scene.clone(), ed.path.clone())
    };
    let mut r = world.resource_mut::<Recovery>();
    r.since = 0.0;
    let Some(scene) = scene else { return };
    let file = r.own.clone().unwrap_or_else(|| {
        dir.join(format!(
            "unsaved-{}-{}.ron",
            std::process::id(),
            SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        ))
    });
    // The file named whole: a viewer started later from another folder opens and saves
    // these edits to that same file, not to one of its name beside itself.
    let of = path.map_or("a new scene".into(), |p| {
        std::path::absolute(&p).unwrap_or(p).display().to_string()
    });
    let text = format!("{HEADER}{of}\n{}", save::to_ron(&scene));
    let written = std::fs::create_dir_all(&dir).and_then(|()| save::write_atomic(&file, &text));
    match written {
        Ok(()) => {
            r.own = Some(file);
            r.written = Some(scene);
        }
        Err(e) => warn!("could not write the recovery file {}: {e}", file.display()),
    }
}

/// Removes this viewer's recovery file (its edits were saved or discarded).
pub(super) fn clear_own(world: &mut World) {
    let Some(mut r) = world.get_resource_mut::<Recovery>() else {
        return;
    };
    r.written = None;
    if let Some(f) = r.own.take() {
        let _ = std::fs::remove_file(f);
    }
}

/// Opens a recovery file's edits, unsaved, for the file they were of; the recovery file
/// becomes this viewer's own until they are saved or discarded.
pub(super) fn recover(world: &mut World, file: &Path) {
    // Edits on screen not saved yet (another recovery opened just before, say) are never
    // replaced: they are saved or discarded first, and nothing is deleted meanwhile.
    if world.resource::<Editor>().dirty() {
        world.resource_mut::<Editor>().problem = Some(
            "not opened: the edits on screen are not saved — save them (Ctrl+S or Save as)              or undo them first; the recovery stays listed"
                .into(),
        );
        return;
    }
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            world.resource_mut::<Editor>().problem =
                Some(format!("could not read {}: {e}", file.display()));
            return;
        }
    };
    // The edits as they were kept, valid or not yet (a room with no figure, a name too
    // long): the editor takes them and says what still stands in the way.
    let scene = match scene::parse_unchecked(&file.display().to_string(), &text) {
        Ok(s) => s,
        Err(e) => {
            world.resource_mut::<Editor>().problem = Some(format!("not recovered: {e}"));
            return;
        }
    };
    let of = of(file);
    let kept = std::fs::metadata(file).and_then(|m| m.modified()).ok();
    // Edits of another file than the one on screen open that file first, as the picker
    // would: the picker, the file watch, reload and the map's fit all follow it, and undo
    // goes back to the file's own version.
    if let Some(p) = of.as_ref().filter(|p| p.is_file()) {
        let shown = world.resource::<SceneSource>().path.clone();
        if shown != *p && super::reload::open_now(world, p) {
            world.write_message(super::ViewerRequest::Fit);
        }
        let source = world.resource::<SceneSource>().on_disk.clone();
        if let Some((file, at)) = source.filter(|(_, at)| at == p) {
            world.resource_mut::<Editor>().take(file, at);
        }
    }
    let mut ed = world.resource_mut::<Editor>();
    ed.take_recovered(scene, of.clone());
    ed.recovered = of.zip(kept);
    // The edits taken back are shown in the editor.
    super::mode::set_now(world, super::mode::ViewerMode::Edit);
    let mut r = world.resource_mut::<Recovery>();
    r.found.retain(|f| f.file != file);
    if let Some(old) = r.own.replace(file.to_path_buf()) {
        let _ = std::fs::remove_file(old);
    }
    super::editor::replay(world);
}

/// Deletes a recovery file the DM does not want.
pub(super) fn forget(world: &mut World, file: &Path) {
    let mut r = world.resource_mut::<Recovery>();
    if r.found.iter().any(|f| f.file == file) {
        let _ = std::fs::remove_file(file);
        r.found.retain(|f| f.file != file);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The state is read after the name, however the name is written.
    #[test]
    fn a_zombie_or_dead_process_is_not_running() {
        assert!(alive("4242 (firststrike) S 1 4242"));
        assert!(alive("4242 (firststrike) R 1 4242"));
        assert!(!alive("4242 (firststrike) Z 1 4242"));
        assert!(!alive("4242 (first) strike) X 1 4242"));
        assert!(!alive("garbage"));
    }

    /// A viewer killed and not yet reaped (a zombie with the viewer's name) leaves edits
    /// that the next start offers back; a running one keeps its own.
    #[test]
    fn edits_of_a_killed_unreaped_viewer_are_offered() {
        let dir = std::env::temp_dir().join(format!("fs-recovery-zombie-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // A process whose name is the viewer's: a copy of `sleep` called firststrike.
        let exe = dir.join("firststrike");
        std::fs::copy("/bin/sleep", &exe).unwrap();
        let mut running = std::process::Command::new(&exe).arg("30").spawn().unwrap();
        let mut zombie = std::process::Command::new(&exe).arg("0").spawn().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(300));
        let file_of = |pid: u32| dir.join(format!("unsaved-{pid}-1.ron"));
        for pid in [running.id(), zombie.id()] {
            std::fs::write(file_of(pid), format!("{HEADER}a new scene\nScene()\n")).unwrap();
        }
        let found: Vec<PathBuf> = found_in(&dir).into_iter().map(|f| f.file).collect();
        let _ = running.kill();
        let _ = running.wait();
        let _ = zombie.wait();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(found.contains(&file_of(zombie.id())), "{found:?}");
        assert!(!found.contains(&file_of(running.id())), "{found:?}");
    }
}
