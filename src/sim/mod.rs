//! The headless simulation: a Bevy plugin that plays a scene segment by segment.
//!
//! Each run of the [`SimStep`] schedule advances the [`SegmentClock`] by one segment (the
//! first run is the encounter: surprise and distance). The systems run in the order of
//! [`SimSet`], chained in one place ([`SimPlugin::build`]). Rule events are [`LogEvent`]
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
mod psionics;
mod quiet;
mod resolve;
mod round_end;
mod runner;
mod sight;
mod spawn;

pub use clock::{Phase, SegmentClock};
pub use dice::{Dice, Rolled};
pub use log::{EventKind, EventLog, LogEvent, Payload};
pub use plan::{Plan, PlanEntry, Planned};
pub use quiet::PlayEverySegment;
pub use runner::Runner;
pub use sight::{MapVision, Sightings, lights_now};
pub use spawn::combatant_bundle;

use crate::map::Grid;
use crate::scene::Scene;
use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
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

/// The map grid, if the scene has one.
#[derive(Resource, Clone, Debug, Default)]
pub struct MapGrid(pub Option<Grid>);

/// Plays a scene: add it with the scene, then run [`SimStep`] once per segment.
pub struct SimPlugin {
    /// The scene.
    pub scene: Arc<Scene>,
    /// Seed override (the scene's own seed otherwise).
    pub seed: Option<u64>,
    /// Rounds to play (the scene's declared rounds, at least one, otherwise).
    pub rounds: Option<u32>,
}

impl SimPlugin {
    /// A plugin for this scene with its own seed and rounds.
    pub fn new(scene: Scene) -> SimPlugin {
        SimPlugin {
            scene: Arc::new(scene),
            seed: None,
            rounds: None,
        }
    }
}

impl Plugin for SimPlugin {
    fn build(&self, app: &mut App) {
        let scene = self.scene.clone();
        let seed = self.seed.unwrap_or(scene.seed);
        let rounds = self
            .rounds
            .unwrap_or_else(|| (scene.rounds.len() as u32).max(1));
        let grid = scene
            .map
            .as_ref()
            .map(|m| Grid::from_spec(m).expect("scene was validated on load"));
        app.add_message::<LogEvent>()
            .insert_resource(SimScene(scene.clone()))
            .insert_resource(MapGrid(grid))
            .insert_resource(spawn::FigureTable::of(&scene))
            .init_resource::<MapVision>()
            .init_resource::<sight::SightMemo>()
            .init_resource::<quiet::QuietCheck>()
            .init_resource::<psionics::PsionicState>();
        fresh_state(app.world_mut(), seed, rounds);
        app.add_systems(Startup, |world: &mut World| world.run_schedule(SimStart));
        // The simulation is one chain of systems: the multi-threaded executor would only
        // add the cost of handing each system to another thread.
        let mut start = Schedule::new(SimStart);
        start.set_executor(SingleThreadedExecutor::new());
        start.add_systems((spawn::clear_scene, spawn::spawn_scene, sight::init_vision).chain());
        app.add_schedule(start);
        let mut step = Schedule::new(SimStep);
        step.set_executor(SingleThreadedExecutor::new());
        step.configure_sets(
            (
                SimSet::Clock,
                SimSet::Encounter,
                SimSet::Declare,
                SimSet::Initiative,
                SimSet::Movement,
                SimSet::Areas,
                SimSet::Sight,
                SimSet::Resolve,
                SimSet::Psionics,
                SimSet::Change,
                SimSet::Resight,
                SimSet::Disruption,
                SimSet::EndOfRound,
                SimSet::Record,
            )
                .chain(),
        );
        step.add_systems((
            clock::advance_clock.in_set(SimSet::Clock),
            // Nothing happens once the last round has ended.
            (
                encounter::encounter.in_set(SimSet::Encounter),
                declare::declare.in_set(SimSet::Declare),
                (
                    plan::plan_round.run_if(plan::round_starts.and_then(plan::under_the_book)),
                    plan::take_initiative_round
                        .run_if(plan::round_starts.and_then(plan::under_take_initiative)),
                    plan::plan_surprise_segment.run_if(plan::in_surprise),
                )
                    .chain()
                    .in_set(SimSet::Initiative),
                movement::movement.in_set(SimSet::Movement),
                (areas::follow, areas::silenced)
                    .chain()
                    .in_set(SimSet::Areas)
                    .run_if(areas::any),
                (
                    sight::note_sight_inputs,
                    sight::update_sight.run_if(sight::sight_inputs_changed),
                )
                    .chain()
                    .in_set(SimSet::Sight),
                resolve::resolve
                    .in_set(SimSet::Resolve)
                    .run_if(resolve::in_a_segment),
                psionics::psionic_segment
                    .in_set(SimSet::Psionics)
                    .run_if(plan::in_a_round.and_then(psionics::any_psionic)),
                plan::change_actions
                    .in_set(SimSet::Change)
                    .run_if(plan::in_a_round.and_then(plan::under_take_initiative)),
                (
                    sight::note_sight_inputs,
                    sight::update_sight.run_if(sight::sight_inputs_changed),
                )
                    .chain()
                    .in_set(SimSet::Resight)
                    .run_if(areas::just_made),
                disruption::disruption.in_set(SimSet::Disruption),
                round_end::end_of_round.in_set(SimSet::EndOfRound),
            )
                .run_if(playing),
            log::record.in_set(SimSet::Record),
        ));
        app.add_schedule(step);
    }
}

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
