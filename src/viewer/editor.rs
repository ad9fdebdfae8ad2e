//! The encounter editor's core, without a window: the scene being edited, its undo and
//! redo history, and the commands that change it. Every edit is a [`scene::edit::Edit`]
//! made on a copy; the result is checked with the loader's own checks (through its saved
//! text, so what is shown is what a save would write) and, when it passes, replayed to
//! the segment on screen. A scene that does not pass yet (no figures) is kept and the
//! located reason shown.
//!
//! Nothing the DM made is lost: a new scene has no file until "save as", which never
//! replaces a file without a second, explicit click; closing, quitting, reloading,
//! opening another scene or switching the rules system with unsaved edits waits for an
//! answer ([`Pending`]: save, discard or cancel); and [`super::recovery`] keeps a copy
//! of unsaved edits on disk.

use super::mode::{ViewerMode, mode, set_now};
use super::playback::{Playback, PlaybackCommand};
use super::source::SceneSource;
use super::{ViewerRequest, recovery};
use crate::scene::edit::{self, Edit};
use crate::scene::{self, Scene, save};
use bevy::ecs::message::MessageCursor;
use bevy::prelude::*;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The most edits kept for undo.
const HISTORY: usize = 500;

/// A scene and the file it belongs to (none: not saved yet), as the history keeps them.
type Version = (Scene, Option<PathBuf>);

/// What the editor is doing.
#[derive(Resource, Clone, Debug, Default)]
pub struct Editor {
    /// The scene being edited (valid or not yet).
    pub scene: Option<Scene>,
    /// Where it is saved (none for a new scene not yet saved).
    pub path: Option<PathBuf>,
    /// Versions before each edit, latest last.
    undo: Vec<Version>,
    /// Versions undone, latest last.
    redo: Vec<Version>,
    /// The scene as its file holds it (last loaded or saved); none for a scene that has
    /// never been saved (new, or recovered).
    on_disk: Option<(Scene, PathBuf)>,
    /// Why the last edit was refused, or why the scene does not play yet.
    pub problem: Option<String>,
    /// The last save, said.
    pub saved: Option<String>,
    /// A file Save As would replace, waiting for a confirmation.
    pub confirm: Option<PathBuf>,
    /// Something that would drop unsaved edits, waiting for the DM's answer.
    pub pending: Option<Pending>,
    /// A note for the DM about what the editor just did on its own (a rewind).
    pub note: Option<String>,
    /// The file this editor last wrote and its modification time just after: its own save
    /// coming back through the file watch is not "changed on disk".
    pub(super) written: Option<(PathBuf, SystemTime)>,
    /// Edits opened from a recovery file: the file they were of, and when they were last
    /// kept. A save over that file made after them asks first (it holds later work).
    pub(super) recovered: Option<(PathBuf, SystemTime)>,
}

/// A request held back because it would drop unsaved edits.
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    /// Close the window, or quit.
    Quit,
    /// Reload the scene file.
    Reload,
    /// Open another scene file.
    Open(PathBuf),
    /// Replay under the other rules system (reloads the file).
    SwitchSystem,
    /// Start a new, empty scene (the edit that makes it).
    New(Edit),
}

impl Pending {
    /// What it would do, in words ("close the window").
    pub fn words(&self) -> String {
        match self {
            Pending::Quit => "quit".into(),
            Pending::Reload => "reload the file".into(),
            Pending::Open(p) => format!("open {}", p.display()),
            Pending::SwitchSystem => "switch the rules system (replays the file)".into(),
            Pending::New(_) => "start a new scene".into(),
        }
    }

    /// The request it holds back (quitting exits and a new scene is an edit: neither is
    /// a request).
    fn request(&self) -> Option<ViewerRequest> {
        match self {
            Pending::Quit | Pending::New(_) => None,
            Pending::Reload => Some(ViewerRequest::Reload),
            Pending::Open(p) => Some(ViewerRequest::Open(p.clone())),
            Pending::SwitchSystem => Some(ViewerRequest::SwitchSystem),
        }
    }

    /// The request held back, if it is one that drops the scene on screen.
    pub fn of(request: &ViewerRequest) -> Option<Pending> {
        match request {
            ViewerRequest::Reload => Some(Pending::Reload),
            ViewerRequest::Open(p) => Some(Pending::Open(p.clone())),
            ViewerRequest::SwitchSystem => Some(Pending::SwitchSystem),
            ViewerRequest::Quit => Some(Pending::Quit),
            _ => None,
        }
    }
}

/// The DM's answer to a [`Pending`] request.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// Save first (to the scene's file, or to this new file, never replacing one), then
    /// go on.
    Save(Option<PathBuf>),
    /// Save to this file, replacing it: the answer to the question whether to replace it,
    /// asked for this very file (anything else asks again), then go on.
    Replace(PathBuf),
    /// Drop the edits and go on.
    Discard,
    /// Keep editing; do nothing.
    Cancel,
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

    /// Whether the scene differs from its file (or has none): derived, so undoing back
    /// to the saved state is not "changed".
    pub fn dirty(&self) -> bool {
        match (&self.scene, &self.on_disk) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(s), Some((disk, p))) => s != disk || self.path.as_ref() != Some(p),
        }
    }

    /// Starts over on a scene as its file holds it: no history, nothing unsaved.
    pub fn take(&mut self, scene: Scene, path: PathBuf) {
        self.note = None;
        self.on_disk = Some((scene.clone(), path.clone()));
        self.scene = Some(scene);
        self.path = Some(path);
        self.undo.clear();
        self.redo.clear();
        self.problem = None;
        self.confirm = None;
    }

    /// Takes a scene that is on no disk yet (recovered edits): unsaved, for `path`.
    pub fn take_unsaved(&mut self, scene: Scene, path: Option<PathBuf>) {
        self.recovered = None;
        self.note = None;
        self.scene = Some(scene);
        self.path = path;
        self.on_disk = None;
        self.undo.clear();
        self.redo.clear();
    }

    /// Takes recovered edits of the file `path`: over the file's own version when that is
    /// the one held (so undo goes back to it), else unsaved as [`Self::take_unsaved`].
    pub fn take_recovered(&mut self, scene: Scene, path: Option<PathBuf>) {
        let file = self
            .on_disk
            .clone()
            .filter(|(_, p)| path.as_ref() == Some(p));
        let Some((file, p)) = file else {
            self.take_unsaved(scene, path);
            return;
        };
        self.take(file.clone(), p.clone());
        self.recovered = None;
        if scene != file {
            self.undo.push((file, Some(p)));
            self.scene = Some(scene);
        }
    }

    /// Drops the scene and its history (the DM chose to discard).
    fn discard(&mut self) {
        self.recovered = None;
        // A note about the edits (a rewind made for them) goes with them.
        self.note = None;
        self.scene = None;
        self.path = None;
        self.on_disk = None;
        self.undo.clear();
        self.redo.clear();
        self.problem = None;
        self.confirm = None;
    }

    /// Whether `scene` at `path` is what the editor already holds as saved (its own save
    /// coming back through the file watch): the same scene, or the file just as this editor
    /// last wrote it (a scene whose text reads back a little otherwise — a number's form,
    /// a default written out — is still its own save, and its history stays; a DM lost
    /// every undo of a room built from nothing on its first save as).
    pub fn holds_saved(&self, scene: &Scene, path: &std::path::Path) -> bool {
        let same = self
            .on_disk
            .as_ref()
            .is_some_and(|(s, p)| p == path && s == scene);
        let written = self.written.as_ref().is_some_and(|(p, t)| {
            p == path
                && self.on_disk.as_ref().is_some_and(|(_, d)| d == path)
                && super::source::modified(path) == Some(*t)
        });
        same || written
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
    /// Withdraw the question whether to replace a file that exists (nothing is saved).
    CancelReplace,
    /// The name typed to save as was changed: what was said of the last attempt to save
    /// ("not saved: type a file name first") no longer stands under the new name.
    NameTyped,
    /// The answer to the request waiting on unsaved edits.
    Answer(Answer),
    /// Open the edits kept in a recovery file (unsaved, for the file they were of).
    Recover(PathBuf),
    /// Delete a recovery file without opening it.
    ForgetRecovery(PathBuf),
    /// Move a figure's start to where it was dropped on the map; when the map shows a
    /// later segment, the playback rewinds to the start so the move is seen.
    MoveStart {
        /// The figure.
        figure: String,
        /// Its new start, in feet.
        to: (f64, f64),
    },
}

/// Plays the editor's commands (and the top bar's edit button, and quitting).
pub(super) fn run_editor(
    world: &mut World,
    mut cursor: Local<MessageCursor<EditorCommand>>,
    mut requests: Local<MessageCursor<ViewerRequest>>,
) {
    let mut commands: Vec<EditorCommand> = cursor
        .read(world.resource::<Messages<EditorCommand>>())
        .cloned()
        .collect();
    let mut quit = false;
    for r in requests.read(world.resource::<Messages<ViewerRequest>>()) {
        match r {
            ViewerRequest::ToggleEdit => commands.push(EditorCommand::Toggle),
            ViewerRequest::Quit => quit = true,
            _ => {}
        }
    }
    for c in commands {
        command(world, c);
    }
    if quit {
        guarded(world, Pending::Quit);
    }
}

/// Carries out `p` now when nothing is unsaved; else holds it for the DM's answer.
pub(super) fn guarded(world: &mut World, p: Pending) {
    if world.resource::<Editor>().dirty() {
        world.resource_mut::<Editor>().pending = Some(p);
    } else {
        carry_out(world, p);
    }
}

/// Makes an edit now (the form's changes applied before something drops the scene).
pub(super) fn make_edit(world: &mut World, e: Edit) {
    make(world, e);
}

/// Does what was held back.
fn carry_out(world: &mut World, p: Pending) {
    if let Pending::New(e) = p {
        make(world, e);
    } else if let Some(r) = p.request() {
        world.write_message(r);
    } else {
        world.write_message(AppExit::Success);
    }
}

fn command(world: &mut World, c: EditorCommand) {
    // A replace waits for its own answer: anything else done first withdraws the question
    // (a double click on "save as" must not answer it).
    if !matches!(
        c,
        EditorCommand::SaveAs { replace: true, .. } | EditorCommand::Answer(Answer::Replace(_))
    ) {
        let mut ed = world.resource_mut::<Editor>();
        if ed.confirm.take().is_some() {
            ed.problem = None;
        }
    }
    match c {
        EditorCommand::Toggle => toggle(world),
        // A new scene drops the one on screen: over unsaved edits it asks first.
        EditorCommand::Edit(e @ Edit::New { .. }) => {
            start_if_needed(world);
            guarded(world, Pending::New(e));
        }
        EditorCommand::Edit(e) => make(world, e),
        EditorCommand::MoveStart { figure, to } => {
            let at_start = world
                .get_resource::<Playback>()
                .is_none_or(|p| p.cursor == 0);
            make(
                world,
                Edit::Move {
                    figure: figure.clone(),
                    to,
                },
            );
            if !at_start && world.resource::<Editor>().problem.is_none() {
                world.write_message(PlaybackCommand::Goto(0));
                world.resource_mut::<Editor>().note = Some(format!(
                    "{figure} was moved where it stands before round 1: the map went back \
                     to the start to show it"
                ));
            }
        }
        EditorCommand::Undo | EditorCommand::Redo => {
            let mut ed = world.resource_mut::<Editor>();
            let ed = &mut *ed;
            let (from, to) = if c == EditorCommand::Undo {
                (&mut ed.undo, &mut ed.redo)
            } else {
                (&mut ed.redo, &mut ed.undo)
            };
            let Some((scene, path)) = from.pop() else {
                return;
            };
            // Undoing a new room (or redoing it) brings another map: fitted to the window
            // as the new room was (an outside tester's scene came back framed for the
            // narrow room, cut off under the right panel).
            let refit = ed
                .scene
                .as_ref()
                .is_none_or(|now| room(now) != room(&scene));
            if let Some(now) = ed.scene.replace(scene) {
                to.push((now, std::mem::replace(&mut ed.path, path)));
            } else {
                ed.path = path;
            }
            ed.saved = None;
            replay(world);
            if refit {
                world.write_message(ViewerRequest::Fit);
            }
        }
        EditorCommand::Save => {
            // Nothing edited yet: nothing to save, said as such.
            if world.resource::<Editor>().scene.is_none() {
                world.resource_mut::<Editor>().saved =
                    Some("nothing to save: no edits made (B opens the editor)".into());
                return;
            }
            // No edits since the file was opened or saved: the file is left as it is
            // (rewriting it would lay it out anew and move its comments).
            let ed = world.resource::<Editor>();
            if let Some(p) = ed.path.clone().filter(|p| !ed.dirty() && p.is_file()) {
                let mut ed = world.resource_mut::<Editor>();
                ed.problem = None;
                ed.saved = Some(format!(
                    "nothing to save: no edits since {} was opened or saved",
                    shown(&p)
                ));
                return;
            }
            let path = world.resource::<Editor>().path.clone();
            match path {
                Some(p) if is_built_in(&p) => {
                    world.resource_mut::<Editor>().problem = Some(built_in(&p))
                }
                Some(p) => write(world, p, Overwrite::Own),
                None => {
                    world.resource_mut::<Editor>().problem =
                        Some("a new scene has no file yet: use Save as".into())
                }
            }
        }
        EditorCommand::SaveAs { path, replace } => {
            let path = save_as_target(world.resource::<Editor>(), path);
            // "Replace it" answers the question pending for that very file, and nothing
            // else: without one, the file is asked about again.
            let replace = replace && world.resource::<Editor>().confirm.as_ref() == Some(&path);
            let own = world.resource::<Editor>().path.as_ref() == Some(&path);
            let how = match (replace, own) {
                (true, _) => Overwrite::Confirmed,
                (false, true) => Overwrite::Own,
                (false, false) => Overwrite::Never,
            };
            write(world, path, how);
        }
        // The question was withdrawn above.
        EditorCommand::CancelReplace => {}
        EditorCommand::NameTyped => {
            let mut ed = world.resource_mut::<Editor>();
            let of_a_save = ed
                .problem
                .as_deref()
                .is_some_and(|p| p.starts_with("not saved") || p.starts_with("could not write"));
            if of_a_save {
                ed.problem = None;
            }
        }
        EditorCommand::Answer(a) => answer(world, a),
        EditorCommand::Recover(file) => recovery::recover(world, &file),
        EditorCommand::ForgetRecovery(file) => recovery::forget(world, &file),
    }
}

/// Makes an edit on a copy, keeping the version before for undo.
fn make(world: &mut World, e: Edit) {
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
    let path = ed.path.clone();
    ed.undo.push((before, path));
    if ed.undo.len() > HISTORY {
        ed.undo.remove(0);
    }
    ed.redo.clear();
    ed.scene = Some(next);
    // A new scene belongs to no file until "save as" (undo gives the old file back).
    if matches!(e, Edit::New { .. }) {
        ed.path = None;
        ed.confirm = None;
    }
    ed.saved = None;
    ed.note = None;
    // A figure's dice not fixed in the scene are drawn from a stream named for it: a new
    // name draws new ones, and the replay may go otherwise (an outside tester's renamed
    // caster put twice as many to sleep, and nothing said why).
    if let Edit::Replace { figure, spec } = &e
        && spec.name != *figure
    {
        ed.note = Some(format!(
            "renamed {figure} to {}: its dice not fixed in the scene are rolled afresh (each \
             figure's rolls follow its name), so the replay may go otherwise",
            spec.name
        ));
    }
    let new_room = matches!(e, Edit::New { .. });
    // A new room starts at its beginning with no one selected: nothing of the scene
    // before (its clock, a figure's ring) is shown over it.
    if new_room {
        if let Some(mut pb) = world.get_resource_mut::<Playback>() {
            pb.cursor = 0;
        }
        if let Some(mut sel) = world.get_resource_mut::<super::Selection>() {
            sel.0 = None;
        }
    }
    replay(world);
    // A new room is a new map: fit it to the window, as a scene opened is.
    if new_room {
        world.write_message(ViewerRequest::Fit);
    }
}

/// A scene's room, as the window frames it: the map's cell size and its rows' lengths.
fn room(scene: &crate::scene::Scene) -> Option<(u64, Vec<usize>)> {
    let m = scene.map.as_ref()?;
    Some((
        m.cell_ft.to_bits(),
        m.rows.iter().map(|r| r.chars().count()).collect(),
    ))
}

/// The answer to a held request.
fn answer(world: &mut World, a: Answer) {
    let Some(p) = world.resource_mut::<Editor>().pending.take() else {
        return;
    };
    match a {
        Answer::Cancel => {}
        Answer::Discard => {
            world.resource_mut::<Editor>().discard();
            recovery::clear_own(world);
            carry_out(world, p);
        }
        Answer::Replace(path) => {
            if world.resource::<Editor>().confirm.as_ref() == Some(&path) {
                write(world, path, Overwrite::Confirmed);
            }
            if world.resource::<Editor>().dirty() {
                world.resource_mut::<Editor>().pending = Some(p);
            } else {
                carry_out(world, p);
            }
        }
        Answer::Save(new_file) => {
            // A built-in scene is kept as shipped: edits to it go to a file of the DM's.
            let own = (world.resource::<Editor>().path.clone()).filter(|p| !is_built_in(p));
            let typed = new_file.map(|f| save_as_target(world.resource::<Editor>(), f));
            match own.or(typed) {
                Some(path) => {
                    let own = world.resource::<Editor>().path.as_ref() == Some(&path);
                    write(
                        world,
                        path,
                        if own {
                            Overwrite::Own
                        } else {
                            Overwrite::Never
                        },
                    );
                }
                None => {
                    world.resource_mut::<Editor>().problem =
                        Some("a new scene has no file yet: give it a name to save it".into())
                }
            }
            if world.resource::<Editor>().dirty() {
                // Not saved (a bad scene, a file in the way): still waiting.
                world.resource_mut::<Editor>().pending = Some(p);
            } else {
                carry_out(world, p);
            }
        }
    }
}

/// Turns edit mode on (taking the scene on screen) or off.
fn toggle(world: &mut World) {
    let to = mode(world).switched(ViewerMode::Edit);
    if to == ViewerMode::Edit {
        start_if_needed(world);
    }
    set_now(world, to);
}

/// Takes the scene on screen to edit, if nothing is being edited yet.
fn start_if_needed(world: &mut World) {
    if world.resource::<Editor>().scene.is_some() {
        return;
    }
    let Some((scene, path)) = world
        .get_resource::<SceneSource>()
        .and_then(|s| s.on_disk.clone())
        .or_else(|| {
            world
                .get_resource::<Playback>()
                .map(|p| ((*p.scene).clone(), p.path.clone()))
        })
    else {
        return mend_unchecked(world);
    };
    world.resource_mut::<Editor>().take(scene, path);
}

/// Takes a scene file that was opened broken (it fails its checks, and nothing was shown
/// before it) to mend it: as the file holds it, nothing unsaved, the reasons shown, and
/// played as soon as it passes. A save over that very file, unchanged since, is not
/// asked about; one changed since by another program still is.
fn mend_unchecked(world: &mut World) {
    let Some((scene, path, modified)) = world.get_resource::<SceneSource>().and_then(|s| {
        let scene = s.unchecked.clone()?;
        Some((scene, s.path.clone(), s.modified))
    }) else {
        return;
    };
    let mut ed = world.resource_mut::<Editor>();
    ed.take(scene, path.clone());
    ed.written = modified.map(|m| (path, m));
    replay(world);
}

/// The edited scene checked as the loader checks a file; Ok with the scene to play.
fn check(scene: &Scene, path: &std::path::Path) -> Result<Scene, String> {
    scene::check(scene)
        .map(|()| scene.clone())
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The name a scene without a file goes by on screen and in errors.
pub const UNSAVED: &str = "new scene (not saved)";

/// Replays the edited scene to the segment on screen, if it passes the checks.
pub(super) fn replay(world: &mut World) {
    let (scene, path) = {
        let ed = world.resource::<Editor>();
        let Some(s) = ed.scene.clone() else { return };
        (s, ed.path.clone().unwrap_or_else(|| UNSAVED.into()))
    };
    // A new room with no figure yet is shown (its map, no one in it) while the panel says
    // a figure is wanted: the map on screen is never the last scene's.
    let (shown, problem) = match check(&scene, &path) {
        Ok(scene) => (Some(scene), None),
        Err(why) if scene::check_but_figures(&scene).is_ok() => (Some(scene), Some(why)),
        Err(why) => (None, Some(why)),
    };
    world.resource_mut::<Editor>().problem = problem;
    let Some(scene) = shown else { return };
    let (keep, seed, generation, edits) = world
        .get_resource::<Playback>()
        .map_or((0, None, 0, 0), |p| {
            (p.cursor, p.seed, p.generation, p.edits)
        });
    let mut pb = Playback::start(world, path, scene, seed, generation);
    // The same scene, edited: the map is rebuilt, the view is not fitted anew.
    pb.edits = edits + 1;
    pb.goto(world, keep);
    world.insert_resource(pb);
}

/// Whether a save may replace a file already at its path.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Overwrite {
    /// Never: a file there is asked about first ("save as" to another file).
    Never,
    /// The scene's own file: replaced, unless something else changed it on disk since the
    /// viewer last loaded or saved it (then asked about first).
    Own,
    /// The DM answered "replace it".
    Confirmed,
}

/// Whether the file at `path` was changed on disk by something other than this viewer
/// since it last loaded or saved it (another editor, another window, a `git checkout`).
/// A file gone, or one the viewer never knew, is not "changed".
fn changed_on_disk(world: &World, path: &Path) -> bool {
    let Some(now) = super::source::modified(path) else {
        return false;
    };
    let source = world.resource::<SceneSource>();
    let written = world
        .resource::<Editor>()
        .written
        .as_ref()
        .filter(|(p, _)| p == path)
        .map(|w| w.1);
    // Just as this editor last wrote it (or took it, broken, to mend): not changed.
    if written == Some(now) {
        return false;
    }
    // Its last load failed (another editor left it half written, or broken): what is on
    // disk is not what the viewer holds.
    if source.path == path && source.error.is_some() {
        return true;
    }
    let loaded = (source.path == path).then_some(source.modified).flatten();
    (loaded.is_some() || written.is_some()) && loaded != Some(now)
}

/// Whether the edits on screen came from a recovery file of `path`, and `path` was saved
/// after they were last kept: the file holds work the recovery never saw.
fn saved_after_recovered(world: &World, path: &Path) -> bool {
    let ed = world.resource::<Editor>();
    let Some((of, kept)) = ed.recovered.as_ref().filter(|(p, _)| p == path) else {
        return false;
    };
    // Saved by this editor since (its own save clears `recovered`): not later work.
    super::source::modified(of).is_some_and(|now| now > *kept)
}

/// Where Save as writes the name typed: a bare name (no folder) beside the scene open when
/// that is a file of the DM's — not into whatever folder the viewer was started from — else
/// in the starting folder; a name with a folder where it says. `NAME` is `NAME.ron`.
pub(super) fn save_as_target(ed: &Editor, typed: PathBuf) -> PathBuf {
    let bare = typed.is_relative() && typed.components().count() == 1;
    let beside = ed
        .path
        .as_ref()
        .filter(|p| !is_built_in(p))
        .and_then(|p| p.parent())
        .filter(|d| !d.as_os_str().is_empty());
    // Joined first: whether the name is a folder is asked where it will be written.
    save::scene_file(match beside {
        Some(dir) if bare => dir.join(typed),
        _ => typed,
    })
}

/// A path as the DM is told it: whole, so a file saved under a bare name can be found.
fn shown(path: &Path) -> String {
    std::path::absolute(path)
        .unwrap_or_else(|_| path.to_path_buf())
        .display()
        .to_string()
}

/// Whether `path` holds a library scene exactly as shipped, in a `scenes/` folder (the
/// project's or a release's, opened by its path): kept as shipped like the viewer's own
/// copies. A DM's copy elsewhere, or under another name, is the DM's.
fn is_shipped(path: &Path) -> bool {
    crate::scene::library::SCENES.iter().any(|(name, text)| {
        path.ends_with(Path::new("scenes").join(name))
            && std::fs::read_to_string(path).is_ok_and(|t| t == *text)
    })
}

/// Whether `path` is (or leads to) one of the viewer's copies of the built-in scenes,
/// however it is written (relative, with `..`, through a link), or a library scene's file
/// as shipped.
pub(super) fn is_built_in(path: &Path) -> bool {
    let whole = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let dir = whole(&crate::scene::library::copies_dir());
    let file = match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(parent) => whole(parent).join(path.file_name().unwrap_or_default()),
        None => whole(Path::new(".")).join(path),
    };
    file.starts_with(&dir) || super::source::is_library_copy(path) || is_shipped(path)
}

/// Why Save does not write over a built-in scene's copy: it is kept as shipped (the
/// scene picker offers it as the built-in one), so the DM's version needs a file of its own.
fn built_in(path: &Path) -> String {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    format!(
        "{stem} is a built-in scene, kept as shipped: use Save as to keep your version in a \
         file of your own (my_{stem}.ron, say)"
    )
}

/// The file the question on unsaved edits offers to replace, if it asks about one: the
/// file named by the name typed there (`asked_as`), or the scene's own file when it
/// changed on disk since it was opened (an outside tester's "save" on quitting led
/// nowhere: the question named a "replace" the dialog did not offer).
pub fn replace_offered(editor: &Editor, asked_as: Option<&str>) -> Option<PathBuf> {
    let there = editor.confirm.clone()?;
    let needs_name = editor.path.as_ref().is_none_or(|p| is_built_in(p));
    let asked = match needs_name {
        true => asked_as.is_some_and(|a| save_as_target(editor, a.into()) == there),
        false => editor.path.as_ref() == Some(&there),
    };
    asked.then_some(there)
}

/// Saves the edited scene to `path`: only a scene that passes the checks, atomically,
/// replacing a file only when allowed; a file changed on disk under the edits is asked
/// about first, never silently replaced.
fn write(world: &mut World, path: PathBuf, how: Overwrite) {
    let Some(scene) = world.resource::<Editor>().scene.clone() else {
        return;
    };
    // An earlier "saved …" is not left under this attempt's problem, where it read as
    // success (an outside tester's failed save as still showed the last file saved).
    world.resource_mut::<Editor>().saved = None;
    if path.as_os_str().is_empty() || path.file_name().is_none() {
        world.resource_mut::<Editor>().problem =
            Some("not saved: type a file name first (my_encounter.ron, say)".into());
        return;
    }
    // Whichever way it is asked (Save, Save as the copy's own path, the question on
    // quitting, a replace), a built-in scene's copy is not written over.
    if is_built_in(&path) {
        world.resource_mut::<Editor>().problem = Some(built_in(&path));
        return;
    }
    if path.is_dir() {
        world.resource_mut::<Editor>().problem = Some(format!(
            "not saved: {} is a folder: give a file name (name.ron)",
            path.display()
        ));
        return;
    }
    if let Err(why) = check(&scene, &path) {
        world.resource_mut::<Editor>().problem = Some(format!("not saved: {why}"));
        return;
    }
    if how == Overwrite::Own && saved_after_recovered(world, &path) {
        let mut ed = world.resource_mut::<Editor>();
        ed.problem = Some(format!(
            "{} was saved after these recovered edits were made: replacing it with them \
             loses that later save — replace it, or cancel (and save as another file)",
            path.display()
        ));
        ed.confirm = Some(path);
        return;
    }
    if how == Overwrite::Own && changed_on_disk(world, &path) {
        let mut ed = world.resource_mut::<Editor>();
        ed.problem = Some(format!(
            "{} changed on disk since it was opened: replace it with your edits, or cancel \
             (then reload to see the file's version; your edits are asked about first)",
            path.display()
        ));
        ed.confirm = Some(path);
        return;
    }
    let replace = how != Overwrite::Never;
    let mut ed = world.resource_mut::<Editor>();
    match save::save(&scene, &path, replace) {
        Ok(()) => {
            ed.on_disk = Some((scene.clone(), path.clone()));
            ed.confirm = None;
            ed.problem = None;
            ed.saved = Some(format!("saved {}", shown(&path)));
            ed.path = Some(path.clone());
            ed.written = super::source::modified(&path).map(|t| (path.clone(), t));
            ed.recovered = None;
            ed.note = None;
            recovery::clear_own(world);
            let mut source = world.resource_mut::<SceneSource>();
            source.path = path;
            source.changed_under_edits = false;
            source.on_disk = Some((scene, source.path.clone()));
        }
        Err(save::SaveError::Exists(p)) => {
            ed.confirm = Some(p.clone());
            ed.problem = Some(format!("{} exists: replace it, or cancel", p.display()));
        }
        Err(e) => ed.problem = Some(e.to_string()),
    }
}
