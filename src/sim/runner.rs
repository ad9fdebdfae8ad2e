//! The headless runner: an app with `MinimalPlugins` and the simulation, built from a
//! scene and stepped segment by segment. `run`, `first`, the viewer and the tests all play
//! scenes through it.

use crate::scene::{self, Scene};
use crate::sim::{self, EventKind, EventLog, LogEvent, SegmentClock, SimPlugins};
use bevy::prelude::*;

/// Events [`Runner::stream_to_end`] keeps room for between steps (more than most steps
/// log).
const STREAM_ROOM: usize = 16 * 1024;

/// A headless app playing a scene.
pub struct Runner {
    /// The app (MinimalPlugins + the simulation).
    pub app: App,
}

impl Runner {
    /// Builds the app for a scene with optional seed and round overrides.
    pub fn new(scene: Scene, seed: Option<u64>, rounds: Option<u32>) -> Runner {
        let mut app = App::new();
        let mut plugins = SimPlugins::new(scene);
        plugins.seed = seed;
        plugins.rounds = rounds;
        app.add_plugins(MinimalPlugins).add_plugins(plugins);
        app.finish();
        app.cleanup();
        // Runs Startup, which spawns the figures.
        app.update();
        Runner { app }
    }

    /// An app hosting the simulation with no scene yet: scenes come with [`sim::load`].
    pub fn host() -> Runner {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins)
            .add_plugins(SimPlugins::host());
        app.finish();
        app.cleanup();
        app.update();
        Runner { app }
    }

    /// Loads a scene file and builds the app; panics with the located error if the scene
    /// is invalid (for tests).
    pub fn load(path: &str) -> Runner {
        let scene = scene::load(path).unwrap_or_else(|e| panic!("{e}"));
        Runner::new(scene, None, None)
    }

    /// The same runner, logging no gains or losses of sight (who sees whom is still worked
    /// out): for `odds`, `compare` and `quiz`, which read none of them.
    pub fn without_sight_events(mut self) -> Self {
        self.app
            .world_mut()
            .insert_resource(super::SightEvents::Off);
        self
    }

    /// The same runner, counting the gains and losses of sight it does not make: for
    /// `run --hide sight`, whose other events keep the numbers (`seq`) they have beside
    /// the sight events, at a fraction of the time and memory in a crowd.
    pub fn counting_sight_events(mut self) -> Self {
        self.app
            .world_mut()
            .insert_resource(super::SightEvents::Counted);
        self
    }

    /// Plays the scene again from the start with another seed, reusing this app (see
    /// [`sim::restart`]).
    pub fn restart(&mut self, seed: u64) -> &mut Self {
        sim::restart(self.app.world_mut(), seed);
        self
    }

    /// Steps `n` segments (fewer if the scene ends).
    pub fn step(&mut self, n: usize) -> &mut Self {
        for _ in 0..n {
            if !sim::step(self.app.world_mut()) {
                break;
            }
        }
        self
    }

    /// Steps until the scene is over.
    pub fn run_to_end(&mut self) -> &mut Self {
        while sim::step(self.app.world_mut()) {}
        self
    }

    /// Plays to the end, handing each step's new events to `out` as soon as they are
    /// recorded and then letting them go: the log never holds more than one step (a
    /// crowd's whole log runs to hundreds of megabytes; `run` writes it out this way).
    /// Stops at the first error `out` returns (a closed pipe). The log keeps its last
    /// event, which numbers the next ones.
    pub fn stream_to_end(
        &mut self,
        mut out: impl FnMut(&[LogEvent]) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let world = self.app.world_mut();
        let mut written = world.resource::<EventLog>().events.len();
        out(&world.resource::<EventLog>().events)?;
        loop {
            let more = sim::step(world);
            let mut log = world.resource_mut::<EventLog>();
            out(&log.events[written.min(log.events.len())..])?;
            let keep = log.events.len().saturating_sub(1);
            log.events.drain(..keep);
            // A step that logged far more than most (a crowd's encounter: hundreds of
            // thousands of sightings, 60 MB of events) gives its room back, for the
            // allocator to return to the kernel (cli/memory.rs) instead of keeping it
            // for the rest of the run.
            if log.events.capacity() > STREAM_ROOM {
                log.events.shrink_to(STREAM_ROOM);
            }
            written = log.events.len();
            if !more {
                return Ok(());
            }
        }
    }

    /// The clock.
    pub fn clock(&self) -> &SegmentClock {
        self.app.world().resource::<SegmentClock>()
    }

    /// The log.
    pub fn log(&self) -> &EventLog {
        self.app.world().resource::<EventLog>()
    }

    /// Events of a kind, optionally by an actor: a figure or a side, by name.
    pub fn events(&self, kind: EventKind, actor: Option<&str>) -> Vec<LogEvent> {
        let roster = self.app.world().resource::<super::Roster>();
        // A figure is matched by its id; a side (its initiative) by its name.
        let by = |e: &LogEvent, name: &str| match roster.id(name) {
            Some(id) => e.by(id),
            None => e.who.is_none() && e.actor == name,
        };
        self.log()
            .of_kind(kind)
            .filter(|e| actor.is_none_or(|a| by(e, a)))
            .cloned()
            .collect()
    }

    /// (round, segment) of each event of a kind by an actor.
    pub fn when(&self, kind: EventKind, actor: &str) -> Vec<(u32, u32)> {
        self.events(kind, Some(actor))
            .iter()
            .map(|e| (e.round, e.segment))
            .collect()
    }
}
