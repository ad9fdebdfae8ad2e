//! The simulation as a group of plugins, one per stage of a segment (as Avian's
//! `PhysicsPlugins`): [`SimPlugins`]. [`SimCorePlugin`] makes the scene's resources, the
//! two schedules and the one chain of [`SimSet`]s; each stage's plugin then adds its
//! systems to its sets. Every set between the clock and the log runs only while the
//! scene is playing. Ambiguity detection is on, at error level, in debug builds (the
//! tests): two systems that touch the same data must be ordered.

use super::{
    MapGrid, MapVision, SimScene, SimSet, SimStart, SimStep, areas, clock, declare, disruption,
    encounter, fresh_state, log, movement, plan, playing, psionics, quiet, resolve, round_end,
    sight, spawn,
};
use crate::scene::Scene;
use bevy::app::PluginGroupBuilder;
use bevy::ecs::schedule::{LogLevel, ScheduleBuildSettings, SingleThreadedExecutor};
use bevy::prelude::*;
use std::sync::Arc;

/// Plays a scene: add the group with the scene, then run [`SimStep`] once per segment. Or
/// host scenes loaded later, one at a time, with [`load`] (the viewer does: the simulation
/// lives in the viewer's own world, as Avian's physics lives in the game's).
pub struct SimPlugins {
    /// The scene, spawned at `Startup`; none when hosting.
    pub scene: Option<Arc<Scene>>,
    /// Seed override (the scene's own seed otherwise).
    pub seed: Option<u64>,
    /// Rounds to play (the scene's declared rounds, at least one, otherwise).
    pub rounds: Option<u32>,
}

impl SimPlugins {
    /// The group for this scene with its own seed and rounds.
    pub fn new(scene: Scene) -> SimPlugins {
        SimPlugins {
            scene: Some(Arc::new(scene)),
            seed: None,
            rounds: None,
        }
    }

    /// The group with no scene yet: the schedules and systems, for scenes [`load`]ed later.
    pub fn host() -> SimPlugins {
        SimPlugins {
            scene: None,
            seed: None,
            rounds: None,
        }
    }
}

impl PluginGroup for SimPlugins {
    fn build(self) -> PluginGroupBuilder {
        PluginGroupBuilder::start::<Self>()
            .add(SimCorePlugin {
                scene: self.scene,
                seed: self.seed,
                rounds: self.rounds,
            })
            .add(EncounterPlugin)
            .add(PlanningPlugin)
            .add(MovementPlugin)
            .add(SightPlugin)
            .add(ResolutionPlugin)
            .add(PsionicsPlugin)
    }
}

/// The scene, its map and dice, the clock, the log; the schedules and the chain of sets.
pub struct SimCorePlugin {
    scene: Option<Arc<Scene>>,
    seed: Option<u64>,
    rounds: Option<u32>,
}

/// The order of a segment's stages, in one place.
fn chain() -> impl IntoScheduleConfigs<bevy::ecs::schedule::InternedSystemSet, ()> {
    (
        SimSet::Clock,
        SimSet::Encounter,
        SimSet::Declare,
        SimSet::Initiative,
        SimSet::BeforeMovement,
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
        .chain()
}

/// The stages between the clock and the log, which run only while the scene is playing.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
struct Playing;

/// A schedule of the simulation: one chain of systems, so the single-threaded executor
/// (another thread per system would only add cost), with ambiguity detection at error
/// level in debug builds.
fn schedule(label: impl bevy::ecs::schedule::ScheduleLabel) -> Schedule {
    let mut s = Schedule::new(label);
    s.set_executor(SingleThreadedExecutor::new());
    s.set_build_settings(ScheduleBuildSettings {
        ambiguity_detection: if cfg!(debug_assertions) {
            LogLevel::Error
        } else {
            LogLevel::Ignore
        },
        ..default()
    });
    s
}

impl Plugin for SimCorePlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<super::LogEvent>()
            .init_resource::<quiet::QuietCheck>();
        if let Some(scene) = &self.scene {
            insert_scene(app.world_mut(), scene.clone(), self.seed, self.rounds);
            app.add_systems(Startup, |world: &mut World| world.run_schedule(SimStart));
        }
        let mut start = schedule(SimStart);
        start.add_systems((spawn::clear_scene, spawn::spawn_scene, sight::init_vision).chain());
        app.add_schedule(start);
        let mut step = schedule(SimStep);
        step.configure_sets(chain());
        // Nothing happens once the last round has ended (the clock moves on first): one
        // condition on the sets between the clock and the log, asked once a step (one on
        // each set was asked twelve times, in every one of the odds' thousands of steps).
        step.configure_sets(
            (
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
            )
                .in_set(Playing),
        );
        step.configure_sets(Playing.run_if(playing));
        step.add_systems((
            clock::advance_clock.in_set(SimSet::Clock),
            log::record.in_set(SimSet::Record),
        ));
        app.add_schedule(step);
    }
}

/// Loads a scene into a world that hosts the simulation ([`SimPlugins::host`], or any
/// world with the group): its resources replace the last scene's, the play starts afresh
/// with the seed (the scene's own otherwise) and [`SimStart`] spawns its figures in place
/// of the last scene's. Playing it after this is the same as in a new app (a test holds
/// the viewer to it).
pub fn load(world: &mut World, scene: Arc<Scene>, seed: Option<u64>, rounds: Option<u32>) {
    insert_scene(world, scene, seed, rounds);
    world.run_schedule(SimStart);
}

/// The scene's resources (its roster, grid, figures, fresh sight and psionic state) and
/// the state a play starts from.
fn insert_scene(world: &mut World, scene: Arc<Scene>, seed: Option<u64>, rounds: Option<u32>) {
    let seed = seed.unwrap_or(scene.seed);
    let rounds = rounds.unwrap_or_else(|| (scene.rounds.len() as u32).max(1));
    let grid = scene
        .map
        .as_ref()
        .map(|m| m.grid().expect("scene was validated on load"));
    // The same map (walls, fixed lights, daylight) as the scene before — an edit replayed,
    // a scene loaded again — keeps the fields of view and the sightings met: they depend
    // on the map and on what the memo's keys hold alone. Another map starts them afresh.
    let same_map = world
        .get_resource::<SimScene>()
        .is_some_and(|s| s.0.map == scene.map);
    world.insert_resource(super::Roster::of(&scene));
    world.insert_resource(MapGrid(grid));
    world.insert_resource(spawn::FigureTable::of(&scene));
    world.insert_resource(SimScene(scene));
    if !same_map {
        world.insert_resource(MapVision::default());
        world.insert_resource(sight::SightMemo::default());
    }
    fresh_state(world, seed, rounds);
}

/// The encounter and surprise (distance, who is surprised), and figures taking up their
/// declarations.
pub struct EncounterPlugin;

impl Plugin for EncounterPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            SimStep,
            (
                encounter::encounter.in_set(SimSet::Encounter),
                declare::declare.in_set(SimSet::Declare),
            ),
        );
    }
}

/// Planning per rules system: the book's round, "Take Initiative!"'s round, surprise
/// segments; and, under "Take Initiative!", changes of action.
pub struct PlanningPlugin;

impl Plugin for PlanningPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            SimStep,
            (
                (
                    plan::plan_round.run_if(plan::round_starts.and_then(plan::under_the_book)),
                    plan::take_initiative_round
                        .run_if(plan::round_starts.and_then(plan::under_take_initiative)),
                    plan::plan_surprise_segment.run_if(plan::in_surprise),
                )
                    .chain()
                    .in_set(SimSet::Initiative),
                plan::change_actions
                    .in_set(SimSet::Change)
                    .run_if(plan::in_a_round.and_then(plan::under_take_initiative)),
            ),
        );
    }
}

/// Closing and charging figures moving foot by foot; spell areas following them.
pub struct MovementPlugin;

impl Plugin for MovementPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            SimStep,
            (
                movement::movement.in_set(SimSet::Movement),
                (areas::follow, areas::silenced)
                    .chain()
                    .in_set(SimSet::Areas)
                    .run_if(areas::any),
            ),
        );
    }
}

/// Who sees whom after the move, and again when a spell has just filled an area.
pub struct SightPlugin;

impl Plugin for SightPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<sight::SightEvents>();
        let sight = || {
            (
                sight::note_sight_inputs,
                sight::update_sight.run_if(sight::sight_inputs_changed),
            )
                .chain()
        };
        app.add_systems(
            SimStep,
            (
                sight().in_set(SimSet::Sight),
                sight().in_set(SimSet::Resight).run_if(areas::just_made),
            ),
        );
    }
}

/// Blows, missiles, spells and devices in planned order; casters who fell losing their
/// spells; bleeding and the end of the round.
pub struct ResolutionPlugin;

impl Plugin for ResolutionPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            SimStep,
            (
                resolve::before_movement
                    .in_set(SimSet::BeforeMovement)
                    .run_if(resolve::shots_before_movement_due),
                resolve::resolve
                    .in_set(SimSet::Resolve)
                    .run_if(resolve::in_a_segment),
                disruption::disruption.in_set(SimSet::Disruption),
                round_end::end_of_round.in_set(SimSet::EndOfRound),
            ),
        );
    }
}

/// Psionic combat, segment by segment beside the round.
pub struct PsionicsPlugin;

impl Plugin for PsionicsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            SimStep,
            psionics::psionic_segment
                .in_set(SimSet::Psionics)
                .run_if(plan::in_a_round.and_then(psionics::any_psionic)),
        );
    }
}
