//! Scene loading and hot reload: the scene file is polled for changes; a good edit
//! replaces the playback (at the same segment, as far as the new scene goes), a broken one
//! keeps the last good scene and shows the located error. The scene picker lists
//! `scenes/`.

use super::ViewerRequest;
use super::editor::{Editor, Pending};
use super::playback::Playback;
use super::source::SceneSource;
use crate::rules::options::RulesSystem;
use crate::scene;
use bevy::ecs::message::MessageCursor;
use bevy::prelude::*;

/// How often the file is checked, in seconds.
const POLL_SECONDS: f32 = 0.5;

/// Plain text of a scene's errors: file:line:column: field: message, and help.
fn describe(errors: scene::SceneErrors) -> String {
    errors
        .0
        .iter()
        .map(|e| match &e.help {
            Some(h) => format!("{e}\n  help: {h}"),
            None => e.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Opens the scene file `path` now, as the picker does (no question: the caller has made
/// sure no unsaved edits are dropped); false when it does not load.
pub(super) fn open_now(world: &mut World, path: &std::path::Path) -> bool {
    let mut s = world.resource_mut::<SceneSource>();
    s.path = path.to_path_buf();
    s.system = None;
    load(world);
    let s = world.resource::<SceneSource>();
    s.error.is_none() && s.on_disk.as_ref().is_some_and(|(_, p)| p == path)
}

/// Loads `source.path`; on success replaces the playback, keeping the shown segment.
fn load(world: &mut World) {
    let (path, seed, generation, system) = {
        let mut s = world.resource_mut::<SceneSource>();
        s.modified = super::source::modified(&s.path);
        s.generation += 1;
        (s.path.clone(), s.seed, s.generation, s.system)
    };
    match scene::load(&path) {
        Ok(mut scene) => {
            let file_scene = scene.clone();
            // Switched back to the file's own system: no longer switched.
            if system == Some(scene.rules.system) {
                world.resource_mut::<SceneSource>().system = None;
            }
            if let Some(system) = system {
                // The book's timing switches have no place under the variant (`check`
                // refuses them there): switched, the scene plays without them, and the
                // rules panel lists only what is in force. Its fixed initiative dice are
                // its own system's: the other rolls from the seed.
                scene.switch_system(system);
            }
            // The same scene under the same system keeps its place — the same file, or the
            // scene on screen just saved under a new name; another starts over.
            let keep = world
                .get_resource::<Playback>()
                .filter(|p| p.scene.rules.system == scene.rules.system)
                .filter(|p| p.path == path || *p.scene == scene)
                .map(|p| p.cursor)
                .unwrap_or(0);
            let other_file = world
                .get_resource::<Playback>()
                .is_none_or(|p| p.path != path);
            let mut pb = Playback::start(world, path.clone(), scene, seed, generation);
            pb.goto(world, keep);
            world.insert_resource(pb);
            let mut source = world.resource_mut::<SceneSource>();
            source.library =
                super::source::library(path.parent().unwrap_or(std::path::Path::new(".")));
            source.error = None;
            source.unchecked = None;
            source.changed_under_edits = false;
            source.on_disk = Some((file_scene.clone(), path.clone()));
            // The editor follows the file, unless this is its own save coming back.
            let editing = super::mode::mode(world) == super::mode::ViewerMode::Edit;
            let mut ed = world.resource_mut::<Editor>();
            let own_save = ed.holds_saved(&file_scene, &path);
            if (editing || ed.scene.is_some()) && !own_save {
                ed.take(file_scene, path);
                // What belonged to the scene before (a form, a box's group) goes with it.
                if let Some(mut ui) = world.get_resource_mut::<super::editor_ui::EditorUi>() {
                    ui.forget_scene();
                }
            }
            // Another file: the name typed to save the last one as, and the word that it
            // was saved, were that file's (a quit question offered its name for this one).
            if other_file && !own_save {
                world.resource_mut::<Editor>().saved = None;
                if let Some(mut ui) = world.get_resource_mut::<super::editor_ui::EditorUi>() {
                    ui.save_as.clear();
                    ui.asked_as = None;
                }
            }
        }
        Err(e) => {
            let text = describe(e);
            warn!("scene not reloaded:\n{text}");
            // Nothing shown yet (opened broken): the file as written is kept for the
            // editor to mend. A file that breaks under a scene shown keeps that scene.
            let unchecked = if world.contains_resource::<Playback>() {
                None
            } else {
                scene::load_unchecked(&path)
            };
            let mut source = world.resource_mut::<SceneSource>();
            source.error = Some(text);
            source.unchecked = unchecked;
        }
    }
}

/// Opens the first scene at startup.
pub(super) fn open_first(world: &mut World) {
    load(world);
}

/// Reloads on request, on a changed file, or opens another scene.
pub(super) fn reload(world: &mut World, mut cursor: Local<MessageCursor<ViewerRequest>>) {
    let mut again = false;
    let mut open = None;
    let mut switch = None;
    let requests: Vec<ViewerRequest> = cursor
        .read(world.resource::<Messages<ViewerRequest>>())
        .cloned()
        .collect();
    let dirty = world.resource::<Editor>().dirty();
    for r in &requests {
        // Anything that would drop unsaved edits waits for the DM's answer (quitting is
        // the editor's to hold).
        if dirty
            && *r != ViewerRequest::Quit
            && let Some(p) = Pending::of(r)
        {
            world.resource_mut::<Editor>().pending = Some(p);
            continue;
        }
        match r {
            ViewerRequest::Reload => again = true,
            ViewerRequest::Open(p) => open = Some(p.clone()),
            ViewerRequest::SwitchSystem => {
                let now = world
                    .get_resource::<Playback>()
                    .map(|p| p.scene.rules.system);
                switch = now.map(|s| match s {
                    RulesSystem::Book => RulesSystem::TakeInitiative,
                    RulesSystem::TakeInitiative => RulesSystem::Book,
                });
            }
            _ => {}
        }
    }
    if let Some(p) = open {
        super::source::ensure_copy(&p);
        let mut s = world.resource_mut::<SceneSource>();
        s.path = p;
        s.system = None;
        again = true;
    }
    if let Some(system) = switch {
        world.resource_mut::<SceneSource>().system = Some(system);
        again = true;
    }
    let dt = world.resource::<Time<Real>>().delta_secs();
    let mut s = world.resource_mut::<SceneSource>();
    let mut looked = None;
    if s.watch {
        s.since_poll += dt;
        if s.since_poll >= POLL_SECONDS {
            s.since_poll = 0.0;
            let now = super::source::modified(&s.path);
            if now.is_some() && now != s.modified {
                looked = Some((s.path.clone(), now));
            }
        }
    }
    if let Some((path, now)) = looked {
        // The editor's own save coming back is no change made under its edits.
        let own = world
            .resource::<Editor>()
            .written
            .as_ref()
            .is_some_and(|(p, t)| *p == path && Some(*t) == now);
        let mut s = world.resource_mut::<SceneSource>();
        // Never under unsaved edits: the DM is told, and R asks.
        let from_outside = !own && !dirty;
        match (dirty, own) {
            (true, true) => s.modified = now,
            (true, false) => s.changed_under_edits = true,
            (false, _) => again = true,
        }
        if again {
            load(world);
            // Changed by something else and taken up: said, and the last "saved …" (of
            // the version now replaced) goes (a DM saw the scene change under an old
            // "saved" line, with nothing to say why).
            let loaded = world.resource::<SceneSource>().error.is_none();
            if from_outside && loaded {
                let mut ed = world.resource_mut::<Editor>();
                ed.saved = None;
                ed.note = Some(format!(
                    "reloaded {}: the file changed on disk (no edits of yours were unsaved)",
                    path.display()
                ));
            }
            return;
        }
    }
    if again {
        load(world);
    }
}
