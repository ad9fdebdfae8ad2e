//! The segment clock: encounter, then the surprise segments, then rounds of ten segments.
//! One step of the simulation advances it by one segment.

use crate::rules::charge::SEGMENTS_PER_ROUND;
use crate::rules::options::RulesSystem;
use bevy::prelude::*;
use serde::Serialize;

/// Where the encounter stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Phase {
    /// Nothing has happened yet.
    Ready,
    /// The encounter: surprise and distance are determined.
    Encounter,
    /// A surprise segment (1-based).
    Surprise(u32),
    /// A segment of a full round.
    Round {
        /// 1-based round.
        round: u32,
        /// 1-based segment.
        segment: u32,
    },
    /// The scene has played out.
    Over,
}

/// The clock.
#[derive(Resource, Clone, Debug)]
pub struct SegmentClock {
    /// Where it stands.
    pub phase: Phase,
    /// Surprise segments in this encounter (known after the encounter step).
    pub surprise_segments: u32,
    /// Rounds to play.
    pub rounds: u32,
    /// Segments in a round: ten 6-second segments under the book, 20 ordering segments
    /// under "Take Initiative!".
    pub per_round: u32,
    /// The rules system the rounds are played under.
    pub system: RulesSystem,
}

impl SegmentClock {
    /// A clock that will play `rounds` rounds.
    pub fn new(rounds: u32) -> SegmentClock {
        SegmentClock {
            phase: Phase::Ready,
            surprise_segments: 0,
            rounds,
            per_round: SEGMENTS_PER_ROUND,
            system: RulesSystem::Book,
        }
    }

    /// The same clock for rounds under `system`: ten segments (the book's) or 20 ordering
    /// segments ("Take Initiative!").
    pub fn for_system(mut self, system: RulesSystem) -> SegmentClock {
        self.system = system;
        self.per_round = match system {
            RulesSystem::Book => SEGMENTS_PER_ROUND,
            RulesSystem::TakeInitiative => crate::rules::take_initiative::SEGMENTS,
        };
        self
    }

    /// Round (0 for the encounter and surprise) and segment (0 for the encounter).
    pub fn round_segment(&self) -> (u32, u32) {
        match self.phase {
            Phase::Ready | Phase::Encounter => (0, 0),
            Phase::Surprise(k) => (0, k),
            Phase::Round { round, segment } => (round, segment),
            Phase::Over => (self.rounds, self.per_round),
        }
    }

    /// A running count of segments: surprise segment k is k; round r segment s follows
    /// the surprise segments. Timed actions that span surprise and rounds use it.
    pub fn tick(&self) -> u32 {
        let (r, s) = self.round_segment();
        self.tick_of(r, s)
    }

    /// The tick of a round and segment.
    pub fn tick_of(&self, round: u32, segment: u32) -> u32 {
        if round == 0 {
            segment
        } else {
            self.surprise_segments + (round - 1) * self.per_round + segment
        }
    }

    /// The round and segment of a tick.
    pub fn moment_of(&self, tick: u32) -> (u32, u32) {
        if tick <= self.surprise_segments {
            (0, tick)
        } else {
            let t = tick - self.surprise_segments - 1;
            (t / self.per_round + 1, t % self.per_round + 1)
        }
    }

    /// Whether this step is the first segment of a round.
    pub fn round_starts(&self) -> bool {
        matches!(self.phase, Phase::Round { segment: 1, .. })
    }

    /// Whether this step is the last segment of a round.
    pub fn round_ends(&self) -> bool {
        matches!(self.phase, Phase::Round { segment, .. } if segment == self.per_round)
    }

    /// The current surprise segment, if in surprise.
    pub fn surprise_segment(&self) -> Option<u32> {
        match self.phase {
            Phase::Surprise(k) => Some(k),
            _ => None,
        }
    }

    /// Whether the scene has played out.
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// The next phase.
    pub fn next(&self) -> Phase {
        match self.phase {
            Phase::Ready => Phase::Encounter,
            Phase::Encounter if self.surprise_segments > 0 => Phase::Surprise(1),
            Phase::Surprise(k) if k < self.surprise_segments => Phase::Surprise(k + 1),
            Phase::Encounter | Phase::Surprise(_) if self.rounds == 0 => Phase::Over,
            Phase::Encounter | Phase::Surprise(_) => Phase::Round {
                round: 1,
                segment: 1,
            },
            Phase::Round { round, segment } if segment < self.per_round => Phase::Round {
                round,
                segment: segment + 1,
            },
            Phase::Round { round, .. } if round < self.rounds => Phase::Round {
                round: round + 1,
                segment: 1,
            },
            Phase::Round { .. } | Phase::Over => Phase::Over,
        }
    }
}

/// Advances the clock by one segment.
pub(super) fn advance_clock(mut clock: ResMut<SegmentClock>) {
    clock.phase = clock.next();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_span_surprise_and_rounds() {
        let mut c = SegmentClock::new(2);
        c.surprise_segments = 3;
        assert_eq!(c.tick_of(1, 2), 5);
        assert_eq!(c.moment_of(5), (1, 2));
        assert_eq!(c.moment_of(3), (0, 3));
        assert_eq!(c.moment_of(14), (2, 1));
        let mut phases = Vec::new();
        while !c.is_over() {
            c.phase = c.next();
            phases.push(c.phase);
        }
        assert_eq!(phases.len(), 1 + 3 + 20 + 1);
        assert_eq!(phases[1], Phase::Surprise(1));
        assert_eq!(
            phases[4],
            Phase::Round {
                round: 1,
                segment: 1
            }
        );
    }
}
