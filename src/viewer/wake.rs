//! Waking a sleeping viewer when its scene file changes. The window sleeps when nothing
//! plays (winit's reactive mode); a thread of its own looks at the scene file's time of
//! change every half second — a `stat`, no frame drawn — and wakes the event loop only
//! when it changed, so the reload ([`super::reload`]) follows an edit made in another
//! editor within half a second while an idle window draws nothing.

use super::source::SceneSource;
use bevy::prelude::*;
use bevy::winit::{EventLoopProxyWrapper, WinitUserEvent};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

/// How often the thread looks at the file.
pub const LOOK_EVERY: Duration = Duration::from_millis(500);

/// The file the thread watches, and its stop flag (set when the viewer closes).
#[derive(Resource)]
pub(super) struct FileWake {
    path: Arc<Mutex<PathBuf>>,
    stop: Arc<AtomicBool>,
}

impl Drop for FileWake {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Starts the watching thread, in a window (with winit's event loop) only.
pub(super) fn start(
    mut commands: Commands,
    proxy: Option<Res<EventLoopProxyWrapper>>,
    source: Res<SceneSource>,
) {
    let Some(proxy) = proxy else { return };
    let proxy = (**proxy).clone();
    let path = Arc::new(Mutex::new(source.path.clone()));
    let stop = Arc::new(AtomicBool::new(false));
    let (watched, stopped) = (path.clone(), stop.clone());
    let spawned = std::thread::Builder::new()
        .name("scene file watch".into())
        .spawn(move || {
            let mut last: Option<(PathBuf, Option<SystemTime>)> = None;
            while !stopped.load(Ordering::Relaxed) {
                std::thread::sleep(LOOK_EVERY);
                let p = watched.lock().map(|p| p.clone()).unwrap_or_default();
                let now = super::source::modified(&p);
                let changed = last.as_ref().is_some_and(|(lp, lm)| *lp == p && *lm != now);
                last = Some((p, now));
                if changed && proxy.send_event(WinitUserEvent::WakeUp).is_err() {
                    return; // the event loop is gone
                }
            }
        });
    if spawned.is_ok() {
        commands.insert_resource(FileWake { path, stop });
    }
}

/// Keeps the thread on the scene the viewer shows.
pub(super) fn follow(source: Res<SceneSource>, wake: Option<Res<FileWake>>) {
    let Some(wake) = wake else { return };
    if let Ok(mut p) = wake.path.lock()
        && *p != source.path
    {
        *p = source.path.clone();
    }
}
