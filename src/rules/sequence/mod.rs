//! The order of everything in a round (DMG p.62-67): several attack routines placed by the
//! attack-sequence chart, speed-factor extra blows, spells, devices and charges with the
//! segments the rules give them.
//!
//! How it works. Each figure's routines sit on the rows of the attack-sequence chart
//! ([`routine_rows`]): one routine in the middle, two at first and last, three at first,
//! middle and last, and so on. Between two opponents, a routine on an earlier row comes
//! first; routines on the same row are ordered as single routines would be (initiative,
//! then speed factor where it applies; [`super::first::who_first`]). Spells, charges and
//! blows against casters are ordered by the same pairwise rule, which also fixes their
//! segments. These orderings become constraints, and the round is laid out in beats: each
//! beat holds what happens at the same moment.
//!
//! The round is a partial order. The rules order the actions of opponents who engage each
//! other, so the figures are first split into *fights* (joined by who aims at whom,
//! [`fights`]) and each fight is ordered on its own ([`layout`], with the constraint graph
//! in [`graph`]); a blow gets a segment only where a rule fixes one ([`timeline`]).

mod fights;
mod graph;
mod layout;
pub mod timeline;

pub use fights::{all_opposed, fights};
pub use layout::PairContext;

use super::action::Declared;
use super::cite::{self, Rule};
use super::first::Context;
use serde::Serialize;
use std::collections::HashSet;

/// The rows of the attack-sequence chart for `n` routines, centred on row 0 (the single
/// routine's row): 1 → [0]; 2 → [-1, 1]; 3 → [-2, 0, 2]; … 6 → [-5 … 5]; beyond six the
/// same spacing is extrapolated (DMG p.63).
pub fn routine_rows(n: u32) -> Vec<i32> {
    (1..=n as i32).map(|k| 2 * k - (n as i32 + 1)).collect()
}

/// The chart's own row numbers (1 at the top, 11 at the bottom) for `n` ≤ 6 routines, as
/// printed in the initiative and combat table.
pub fn chart_rows(n: u32) -> Vec<i32> {
    routine_rows(n).into_iter().map(|r| r + 6).collect()
}

/// What an event in the sequence is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventKind {
    /// A blow, volley or other attack routine: routine `routine` of `of`, with `blow` > 1
    /// for the speed-factor extra blows within a routine.
    Routine {
        /// 1-based routine number.
        routine: u32,
        /// Routines this round.
        of: u32,
        /// 1-based blow within the routine (extra blows from speed factor).
        blow: u32,
    },
    /// A charger reaches striking distance.
    Arrive,
    /// A spell, potion or device completes.
    Complete,
}

/// One event of the round.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Event {
    /// Index of the figure in the input.
    pub actor: usize,
    /// The figure's name.
    pub name: String,
    /// What happens.
    #[serde(flatten)]
    pub kind: EventKind,
    /// The segment, where the rules fix one.
    pub segment: Option<u32>,
    /// The rule that placed it.
    #[serde(serialize_with = "ser_rule")]
    pub rule: Rule,
    /// Why it is here.
    pub why: String,
}

fn ser_rule<S: serde::Serializer>(r: &Rule, s: S) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(r, s)
}

/// Events that happen at the same moment.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Beat {
    /// 1-based position in its fight.
    pub beat: usize,
    /// The fight it belongs to (0-based, see [`Sequence::fights`]).
    pub fight: usize,
    /// The segment, where the rules fix one for something in the beat.
    pub segment: Option<u32>,
    /// The segment the engine plays it in: the fixed one, else the earliest its fight's
    /// order allows (never shown as a rule's segment; see [`timeline`]).
    pub nominal: u32,
    /// Its step in the fight: the longest chain of beats before it. Beats of one step are
    /// not ordered against each other (shown side by side).
    pub step: usize,
    /// The beats of its fight directly before it (1-based [`Beat::beat`] numbers).
    pub after: Vec<usize>,
    /// What happens.
    pub events: Vec<Event>,
}

impl Beat {
    /// The names of the figures acting in this beat.
    pub fn names(&self) -> Vec<&str> {
        self.events.iter().map(|e| e.name.as_str()).collect()
    }
}

/// The whole round: a partial order. Each fight's beats are in order; fights are not
/// ordered against each other.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Sequence {
    /// The beats, fight by fight, each fight's in order.
    pub beats: Vec<Beat>,
    /// Pairwise decisions between opponents, in input order, with who went first.
    pub decisions: Vec<PairDecision>,
    /// The fights: figures joined by who aims at whom.
    pub fights: Vec<Fight>,
}

/// One fight: the figures joined by who aims at whom.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fight {
    /// Its figures, in input order.
    pub members: Vec<String>,
}

/// A pairwise decision between two opponents: the relation the rules give them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairDecision {
    /// First figure.
    pub a: String,
    /// Second figure.
    pub b: String,
    /// The fight both belong to.
    pub fight: usize,
    /// The decision.
    pub decision: super::first::Decision,
}

/// How beats of different fights are placed against each other (DMG p.61): a rank, lower
/// for a higher die — a side's own number, so a side added elsewhere never reorders two
/// fights already there — and whether an actor's item of speed strikes first. The one
/// place the engine's play order and `first`'s "who acts first" take it from.
fn between_fights(
    actors: &[Declared],
) -> (impl Fn(usize) -> u32 + '_, impl Fn(usize) -> bool + '_) {
    (
        move |k: usize| u32::MAX - actors.get(k).map_or(0, |a| a.die),
        move |k: usize| actors.get(k).is_some_and(|a| a.strikes_first),
    )
}

impl Sequence {
    /// The order to play the beats of all the fights in (indices into `beats`), as
    /// [`timeline::merge`] lays them with [`between_fights`]'s ranks.
    pub fn play_order(&self, actors: &[Declared]) -> Vec<usize> {
        let (rank, speed) = between_fights(actors);
        timeline::merge(&self.beats, &rank, &speed)
    }

    /// Who acts first of all the fights, as the engine merges them (`actors` are those the
    /// sequence was made of): a higher die first between fights (DMG p.61), so two figures
    /// acting apart are not "first" by the order they were named in (an outside tester's
    /// two `other` acts named the first listed whatever the dice). Figures of fights level
    /// with the first (the same segment and die) are named too.
    pub fn first_acting_of(&self, actors: &[Declared]) -> Vec<&str> {
        let (rank, speed) = between_fights(actors);
        let mut out: Vec<&str> = Vec::new();
        for i in timeline::first_acting(&self.beats, &rank, &speed) {
            for e in &self.beats[i].events {
                if e.kind != EventKind::Arrive && !out.contains(&e.name.as_str()) {
                    out.push(e.name.as_str());
                }
            }
        }
        out
    }

    /// Who acts first within the first fight: the figures of its first beat with a blow,
    /// a spell or an act, each once (a blow and the device used with it are one figure's,
    /// a volley's shots one archer's). A charge arriving is not yet an act. See
    /// [`Sequence::first_acting_of`] for all the fights.
    pub fn first_acting(&self) -> Vec<&str> {
        let acting = self
            .beats
            .iter()
            .find(|b| b.events.iter().any(|e| e.kind != EventKind::Arrive));
        let mut out: Vec<&str> = Vec::new();
        for e in acting.iter().flat_map(|b| &b.events) {
            if e.kind != EventKind::Arrive && !out.contains(&e.name.as_str()) {
                out.push(e.name.as_str());
            }
        }
        out
    }

    /// The acting names beat by beat, each beat's names joined by `+` (simultaneous).
    pub fn outline(&self) -> Vec<String> {
        self.beats.iter().map(|b| b.names().join("+")).collect()
    }

    /// The segment of each beat on a timeline: the fixed one, else the nominal one
    /// (house rule `timeline.segment`).
    pub fn beat_segments(&self) -> (Vec<u32>, Rule) {
        (
            self.beats.iter().map(|b| b.nominal).collect(),
            cite::TIMELINE_SEGMENT,
        )
    }

    /// The beats of one fight.
    pub fn fight_beats(&self, fight: usize) -> impl Iterator<Item = &Beat> {
        self.beats.iter().filter(move |b| b.fight == fight)
    }
}

/// Lays out the round for these figures as the calculator sees them: every pair of
/// opponents engages (one fight). Figures on the same side are not compared.
pub fn round_sequence(actors: &[Declared], ctx: &Context) -> Sequence {
    let aims = fights::all_opposed(actors);
    round_sequence_with(actors, &aims, &|_, _| Some(*ctx))
}

/// Lays out the round: `aims` says who aims at whom (`(i, j)`: `i` strikes, shoots,
/// charges or casts at `j`), which splits the figures into fights; within a fight
/// `pair(i, j)` gives the circumstances of each pair of opponents (`None`: the two do not
/// bear on each other, e.g. a blow aimed elsewhere and a spell). Each fight is ordered on
/// its own: nothing in one fight changes another's order or segments.
pub fn round_sequence_with(
    actors: &[Declared],
    aims: &[(usize, usize)],
    pair: &PairContext,
) -> Sequence {
    let aim_set: HashSet<(usize, usize)> = aims.iter().copied().collect();
    let mut beats = Vec::new();
    let mut decisions = Vec::new();
    let mut fights_out = Vec::new();
    for (f, members) in fights::fights(actors, aims).into_iter().enumerate() {
        let (fb, fd) = layout::lay_out_fight(actors, &members, f, pair, &aim_set);
        beats.extend(fb);
        decisions.extend(fd);
        fights_out.push(Fight {
            members: members.iter().map(|&i| actors[i].name.clone()).collect(),
        });
    }
    Sequence {
        beats,
        decisions,
        fights: fights_out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::action::ActionKind;

    #[test]
    fn beat_segments_fill_the_gaps() {
        // Bigby wins 6-4 casting power word kill (1 segment); Riggby's staff strikes at
        // |4 - 4| = 0, before the spell in segment 1.
        let a = Declared::melee("Riggby", 4).side("R").sf(4);
        let b = Declared::melee("Bigby", 6)
            .side("B")
            .kind(ActionKind::Cast {
                segments: 1,
                device: false,
            });
        let seq = round_sequence(&[a, b], &Context::default());
        let (segs, rule) = seq.beat_segments();
        assert_eq!(segs, vec![0, 1]);
        assert_eq!(rule, cite::TIMELINE_SEGMENT);
        // Plain melee has no fixed segment: segment 1.
        let melee = round_sequence(
            &[
                Declared::melee("A", 3).side("A"),
                Declared::melee("B", 5).side("B"),
            ],
            &Context::default(),
        );
        assert_eq!(melee.beat_segments().0, vec![1, 1]);
    }
}
