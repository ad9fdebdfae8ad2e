//! The encounter editor's core, without a window: the scene being edited, its undo and
//! redo history, and the commands that change it. Every edit is a [`scene::edit::Edit`]
//! made on a copy; the result is checked with the loader's own checks (through its saved
//! text, so what is shown is what a save would write) and, when it passes, replayed to
//! the segment on screen. A scene that does not pass yet (no figures) is kept and the
//! located reason shown. Saving is explicit and atomic, and never replaces a file other
//! than the one being edited without a confirmation.

use super::playback::Playback;
use super::reload::SceneSource;
use crate::scene::edit::{self, Edit};
use crate::scene::{self, Scene, save};
use bevy::ecs::message::MessageCursor;
use bevy::prelude::*;
use std::path::PathBuf;

/// The most edits kept for undo.
const HISTORY: usize = 500;

/// What the editor is doing.
#[derive(Resource, Clone, Debug, Default)]
pub struct Editor {
    /// Edit mode is on.
    pub active: bool,
    /// The scene being edited (valid or not yet).
    pub scene: Option<Scene>,
    /// Where it is saved (none for a new scene not yet saved).
    pub path: Option<PathBuf>,
    /// Scenes before each edit, latest last.
    undo: Vec<Scene>,
    /// Scenes undone, latest last.
    redo: Vec<Scene>,
    /// Edited since the last save.
    pub dirty: bool,
    /// Why the last edit was refused, or why the scene does not play yet.
    pub problem: Option<String>,
    /// The last save, said.
    pub saved: Option<String>,
    /// A file Save As would replace, waiting for a confirmation.
    pub confirm: Option<PathBuf>,
}

impl Editor {
    /// Whether there is an edit to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// Whether there is an edit to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
}

/// A request to the editor (from its keys, its panel or the map).
#[derive(Message, Clone, Debug, PartialEq)]
pub enum EditorCommand {
    /// Turn edit mode on or off.
    Toggle,
    /// Make an edit.
    Edit(Edit),
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Save to the scene's own file.
    Save,
    /// Save to another file; `replace` confirms replacing one that exists.
    SaveAs {
        /// The file.
        path: PathBuf,
        /// Replace it if it exists.
        replace: bool,
    },
}

/// Plays the editor's commands (and the top bar's edit button).
pub(super) fn run_editor(
    world: &mut World,
    mut cursor: Local<MessageCursor<EditorCommand>>,
    mut requests: Local<MessageCursor<super::ViewerRequest>>,
) {
    let mut commands: Vec<EditorCommand> = cursor
        .read(world.resource::<Messages<EditorCommand>>())
        .cloned()
        .collect();
    let toggles = requests
        .read(world.resource::<Messages<super::ViewerRequest>>())
        .filter(|r| **r == super::ViewerRequest::ToggleEdit)
        .count();
    commands.extend((0..toggles).map(|_| EditorCommand::Toggle));
    for c in commands {
        command(world, c);
    }
}

fn command(world: &mut World, c: EditorCommand) {
    match c {
        EditorCommand::Toggle => toggle(world),
        EditorCommand::Edit(e) => {
            start_if_needed(world);
            let mut ed = world.resource_mut::<Editor>();
            let Some(before) = ed.scene.clone() else {
                return;
            };
            let mut next = before.clone();
            if let Err(why) = edit::apply(&mut next, &e) {
                ed.problem = Some(why);
                return;
            }
            ed.undo.push(before);
            if ed.undo.len() > HISTORY {
                ed.undo.remove(0);
            }
            ed.redo.clear();
            ed.scene = Some(next);
            ed.dirty = true;
            ed.saved = None;
            replay(world);
        }
        EditorCommand::Undo | EditorCommand::Redo => {
            let mut ed = world.resource_mut::<Editor>();
            let (from, to) = if c == EditorCommand::Undo {
                (&mut ed.undo, false)
            } else {
                (&mut ed.redo, true)
            };
            let Some(s) = from.pop() else { return };
            let now = ed.scene.replace(s);
            if let Some(now) = now {
                if to {
                    ed.undo.push(now);
                } else {
                    ed.redo.push(now);
                }
            }
            ed.dirty = true;
            replay(world);
        }
        EditorCommand::Save => {
            let path = world.resource::<Editor>().path.clone();
            match path {
                Some(p) => write(world, p, true),
                None => {
                    world.resource_mut::<Editor>().problem =
                        Some("a new scene has no file yet: use Save as".into())
                }
            }
        }
        EditorCommand::SaveAs { path, replace } => {
            let own = world.resource::<Editor>().path.as_ref() == Some(&path);
            write(world, path, replace || own);
        }
    }
}

/// Turns edit mode on (taking the scene on screen) or off.
fn toggle(world: &mut World) {
    let active = !world.resource::<Editor>().active;
    if active {
        start_if_needed(world);
    }
    world.resource_mut::<Editor>().active = active;
}

/// Takes the scene on screen to edit, if nothing is being edited yet.
fn start_if_needed(world: &mut World) {
    if world.resource::<Editor>().scene.is_some() {
        return;
    }
    let Some((scene, path)) = world
        .get_resource::<Playback>()
        .map(|p| ((*p.scene).clone(), p.path.clone()))
    else {
        return;
    };
    let mut ed = world.resource_mut::<Editor>();
    ed.scene = Some(scene);
    ed.path = Some(path);
    ed.active = true;
}

/// The edited scene checked as a saved file would be; Ok with the scene as it loads.
fn check(scene: &Scene, path: &std::path::Path) -> Result<Scene, String> {
    scene::parse(&path.display().to_string(), &save::to_ron(scene)).map_err(|e| e.to_string())
}

/// Replays the edited scene to the segment on screen, if it passes the checks.
fn replay(world: &mut World) {
    let (scene, path) = {
        let ed = world.resource::<Editor>();
        let Some(s) = ed.scene.clone() else { return };
        (s, ed.path.clone().unwrap_or_else(|| "new scene.ron".into()))
    };
    match check(&scene, &path) {
        Ok(scene) => {
            world.resource_mut::<Editor>().problem = None;
            let (keep, seed, generation, edits) = world
                .get_resource::<Playback>()
                .map_or((0, None, 0, 0), |p| {
                    (p.cursor, p.seed, p.generation, p.edits)
                });
            let (mut pb, mut live) = Playback::start(path, scene, seed, generation);
            // The same scene, edited: the map is rebuilt, the view is not fitted anew.
            pb.edits = edits + 1;
            pb.goto(&mut live, keep);
            world.insert_resource(pb);
            world.insert_non_send(live);
        }
        Err(why) => world.resource_mut::<Editor>().problem = Some(why),
    }
}

/// Saves the edited scene to `path`: only a scene that passes the checks, atomically,
/// replacing a file only when allowed.
fn write(world: &mut World, path: PathBuf, replace: bool) {
    let Some(scene) = world.resource::<Editor>().scene.clone() else {
        return;
    };
    if let Err(why) = check(&scene, &path) {
        world.resource_mut::<Editor>().problem = Some(format!("not saved: {why}"));
        return;
    }
    let mut ed = world.resource_mut::<Editor>();
    match save::save(&scene, &path, replace) {
        Ok(()) => {
            ed.dirty = false;
            ed.confirm = None;
            ed.problem = None;
            ed.saved = Some(format!("saved {}", path.display()));
            ed.path = Some(path.clone());
            let mut source = world.resource_mut::<SceneSource>();
            source.path = path;
        }
        Err(save::SaveError::Exists(p)) => {
            ed.confirm = Some(p.clone());
            ed.problem = Some(format!(
                "{} exists: Save as again to replace it",
                p.display()
            ));
        }
        Err(e) => ed.problem = Some(e.to_string()),
    }
}
