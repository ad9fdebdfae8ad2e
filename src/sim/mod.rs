//! The headless simulation: a Bevy plugin that plays a scene segment by segment.
//!
//! Each run of the [`SimStep`] schedule advances the [`SegmentClock`] by one segment (the
//! first run is the encounter: surprise and distance). The systems run in the order of
//! [`SimSet`], chained in one place ([`SimCorePlugin`]); each stage is a plugin of
//! [`SimPlugins`]. Rule events are [`LogEvent`]
//! messages carrying the rule that placed them; [`SimSet::Record`] numbers them into the
//! [`EventLog`]. The plugin needs only `MinimalPlugins` and is deterministic for a given
//! scene and seed. [`step`] plays one segment: a segment in which nothing can happen
//! ([`quiet`]) only moves the clock. Words for people (an event's `detail`) are made only
//! outside [`crate::narrate::quietly`], which the odds' trials play within.

mod areas;
mod clock;
pub mod components;
mod declare;
mod dice;
mod disruption;
mod encounter;
mod log;
mod movement;
mod plan;
mod plugins;
mod psionics;
mod quiet;
mod resolve;
mod round_end;
mod runner;
mod sight;
mod sight_look;
mod sight_scan;
mod spawn;

pub use clock::{Phase, SegmentClock};
pub use dice::{Dice, Rolled};
pub use log::{
    EventGroup, EventKind, EventLog, LogEvent, Payload, write_json_lines, write_text_in,
};
pub use plan::{Plan, PlanEntry, Planned};
pub use plugins::{
    EncounterPlugin, MovementPlugin, PlanningPlugin, PsionicsPlugin, ResolutionPlugin, SightPlugin,
    SimCorePlugin, SimPlugins, load,
};
pub use quiet::PlayEverySegment;
pub use runner::Runner;
pub use sight::{MapVision, SightEvents, Sightings, lights_now};
pub use spawn::combatant_bundle;

use crate::map::Grid;
use crate::scene::{FigureId, Scene};
use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;
use std::sync::Arc;

/// The schedule that advances the simulation by one segment.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SimStep;

/// The schedule that sets a scene up before its first segment: the figures and the map's
/// vision. `Startup` runs it once; [`Runner::restart`] runs it again for a new trial.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SimStart;

/// The order of work within one segment.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SimSet {
    /// Advance the segment clock.
    Clock,
    /// The encounter step: surprise and encounter distance.
    Encounter,
    /// Figures take up this segment's (or round's) declarations.
    Declare,
    /// Initiative and the plan: who acts in which segment, in the order of the rules core.
    Initiative,
    /// Shots and blows in segment 1 before anyone moves: a specialist's shot before
    /// initiative (UA p.18), under the house rule of parting shots the shots at figures
    /// leaving a melee, and the winning side's blows at foes in reach who move off (DMG
    /// p.61).
    BeforeMovement,
    /// Closing and charging figures move foot by foot.
    Movement,
    /// Spell areas follow the figures they are centred on; casters inside a silence lose
    /// their spells.
    Areas,
    /// Who sees whom after the move, by light and infravision; changes are logged.
    Sight,
    /// Blows, missiles, spell completions and device activations, in planned order.
    Resolve,
    /// Psionic combat's segment: modes paid for, attacks against defenses all at once,
    /// saves in a blast's area; a mundane hit on a psionic this segment ends it.
    Psionics,
    /// Under "Take Initiative!", a figure whose action this segment made impossible changes
    /// it, if the scene gives it a change and its base initiative allows (§1).
    Change,
    /// Sight again when a spell has just filled an area, so its light or darkness counts
    /// in the segment it appears.
    Resight,
    /// Casters who fell lose their spells.
    Disruption,
    /// Bleeding and the end of the round.
    EndOfRound,
    /// Messages are numbered into the event log.
    Record,
}

/// The scene being played.
#[derive(Resource, Clone, Debug)]
pub struct SimScene(pub Arc<Scene>);

/// Each figure's id by name: names become ids once, where the log records an event.
#[derive(Resource, Clone, Debug, Default)]
pub struct Roster(bevy::platform::collections::HashMap<String, FigureId>);

impl Roster {
    /// The roster of a scene.
    pub fn of(scene: &Scene) -> Roster {
        Roster(
            scene
                .combatants
                .iter()
                .enumerate()
                .map(|(i, c)| (c.name.clone(), FigureId(i as u32)))
                .collect(),
        )
    }

    /// The id of the figure with this name, if there is one.
    pub fn id(&self, name: &str) -> Option<FigureId> {
        self.0.get(name).copied()
    }
}

/// The map grid, if the scene has one.
#[derive(Resource, Clone, Debug, Default)]
pub struct MapGrid(pub Option<Grid>);

/// The state a play starts from: the clock before the encounter, the seeded dice, an
/// empty log, plan and sightings (the scene and its grid stay).
fn fresh_state(world: &mut World, seed: u64, rounds: u32) {
    let scene = world.resource::<SimScene>().0.clone();
    reset(
        world,
        SegmentClock::new(rounds).for_system(scene.rules.system),
    );
    reset(world, Dice::new(seed, &scene.dice));
    match world.get_resource_mut::<EventLog>() {
        // Cleared in place: a trial's log grows to the size of the last one's.
        Some(mut log) => log.events.clear(),
        None => world.insert_resource(EventLog::default()),
    }
    reset(world, Plan::default());
    reset(world, psionics::PsionicState::default());
    reset(world, Sightings::default());
    reset(world, sight::SightInputs::default());
    world.resource_mut::<Messages<LogEvent>>().clear();
}

/// Sets a resource to `value`, in place when it is already there.
fn reset<R: Resource + Component<Mutability = bevy::ecs::component::Mutable>>(
    world: &mut World,
    value: R,
) {
    match world.get_resource_mut::<R>() {
        Some(mut r) => *r = value,
        None => world.insert_resource(value),
    }
}

/// Plays the loaded scene again from the start with another seed, in the same world: the
/// state is made afresh and [`SimStart`] runs again (the figures and spell areas of the
/// last play go, the scene's are spawned). A play after a restart is the same as one in a new app with
/// that seed (a test holds every scene to it), only cheaper: the odds play thousands.
pub fn restart(world: &mut World, seed: u64) {
    let rounds = world.resource::<SegmentClock>().rounds;
    fresh_state(world, seed, rounds);
    world.run_schedule(SimStart);
    // Each despawn notes every component removed, in buffers an app's update lets go of;
    // trials never update the app, so without this they grew for as long as the odds
    // played (a reallocation of an ever-larger buffer every few trials).
    world.clear_trackers();
}

/// Run condition: the clock has not run out.
fn playing(clock: Res<SegmentClock>) -> bool {
    !clock.is_over()
}

/// Runs one segment. Returns false when the scene is over. A quiet segment (nothing in it
/// can happen, see [`quiet`]) only moves the clock.
pub fn step(world: &mut World) -> bool {
    if world.resource::<SegmentClock>().is_over() {
        return false;
    }
    if quiet::next_is_quiet(world) {
        let mut clock = world.resource_mut::<SegmentClock>();
        clock.phase = clock.next();
    } else {
        world.run_schedule(SimStep);
    }
    !world.resource::<SegmentClock>().is_over()
}
