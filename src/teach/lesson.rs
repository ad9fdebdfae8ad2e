//! One play of a scene kept for teaching: its event log and, for each round the book's
//! charts ordered, the pairwise decisions and the actions as the rules core saw them.

use crate::rules::action::Declared;
use crate::rules::sequence::PairDecision;
use crate::scene::Scene;
use crate::sim::{LogEvent, Plan, Runner};
use std::collections::BTreeMap;

/// A scene played once for its questions.
#[derive(Clone, Debug)]
pub struct Lesson {
    /// The scene.
    pub scene: Scene,
    /// Every event, in order.
    pub log: Vec<LogEvent>,
    /// Each round's pairwise decisions (round 0: none; surprise segments have no chart).
    pub decisions: BTreeMap<u32, Vec<PairDecision>>,
    /// Each round's actions as the rules core ordered them.
    pub declared: BTreeMap<u32, Vec<Declared>>,
    /// The surprise segments played before round 1 (the clock's).
    pub surprise_segments: u32,
    /// Segments in a round (the clock's: 10, or Take Initiative!'s 20 ordering segments).
    pub per_round: u32,
}

impl Lesson {
    /// Plays `scene` with `seed` (its own when none), segment by segment, keeping the plan
    /// of each round as it is made.
    pub fn play(scene: Scene, seed: Option<u64>) -> Lesson {
        Self::play_with(Runner::new(scene.clone(), seed, None), scene)
    }

    /// As [`Lesson::play`], logging no gains or losses of sight: the questions and their
    /// answers read none (the command-line quiz; a crowd's sightings would be millions).
    pub fn play_without_sight(scene: Scene, seed: Option<u64>) -> Lesson {
        let r = Runner::new(scene.clone(), seed, None).without_sight_events();
        Self::play_with(r, scene)
    }

    fn play_with(mut r: Runner, scene: Scene) -> Lesson {
        let mut decisions = BTreeMap::new();
        let mut declared = BTreeMap::new();
        loop {
            let more = crate::sim::step(r.app.world_mut());
            let plan = r.app.world().resource::<Plan>();
            if plan.round > 0 && !decisions.contains_key(&plan.round) {
                decisions.insert(plan.round, plan.sequence.decisions.clone());
                declared.insert(plan.round, plan.declared.clone());
            }
            if !more {
                break;
            }
        }
        let clock = r.clock();
        let (surprise_segments, per_round) = (clock.surprise_segments, clock.per_round);
        Lesson {
            scene,
            log: r.log().events.clone(),
            decisions,
            declared,
            surprise_segments,
            per_round,
        }
    }

    /// The side of a figure.
    pub fn side_of(&self, name: &str) -> Option<&str> {
        self.scene.combatant(name).map(|c| c.side.as_str())
    }
}
