//! Placing a fight's beats on the segment bar, and interleaving fights for play.
//!
//! A beat that holds an event with a segment the rules fix (casting time, charge arrival,
//! the blow on a caster) sits in that segment. Any other beat gets a *nominal* segment —
//! the earliest its own fight's order allows — so the engine can land damage in order.
//! The nominal segment depends only on its own fight and is never shown as a rule's
//! segment (house rule `timeline.segment`).
//!
//! Fights are not ordered against each other. To play them, their beats are merged
//! greedily: at each step the waiting head beat with the smallest key goes next — its
//! nominal segment, then an item of speed (it strikes first regardless of initiative,
//! DMG p.168), then the side with the better initiative die (DMG p.61), then the fight's
//! number.
//! A greedy merge of heads keeps the relative order of any two fights the same whatever
//! other fights are merged in.

use super::graph::Dag;
use super::{Beat, EventKind};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Whether a beat holds the first blow of an item of speed.
pub(super) fn speed_item_blow(b: &Beat, strikes_first: &dyn Fn(usize) -> bool) -> bool {
    b.events.iter().any(|e| {
        matches!(
            e.kind,
            EventKind::Routine {
                routine: 1,
                blow: 1,
                ..
            }
        ) && strikes_first(e.actor)
    })
}

/// The nominal segment of each group of a fight's order: its fixed segment, else the
/// latest of its predecessors' and its `floor`, but no later than the fixed segment of
/// anything after it.
pub(super) fn nominal(dag: &Dag, fixed: &[Option<u32>], floor: &[u32]) -> Vec<u32> {
    let m = dag.events.len();
    let mut upper = vec![u32::MAX; m];
    for &g in dag.topo.iter().rev() {
        for &s in &dag.succ[g] {
            upper[g] = upper[g].min(fixed[s].unwrap_or(upper[s]));
        }
    }
    let mut nominal = vec![0; m];
    for &g in &dag.topo {
        let lower = dag.pred[g]
            .iter()
            .map(|&p| nominal[p])
            .max()
            .unwrap_or(0)
            .max(floor[g]);
        nominal[g] = fixed[g].unwrap_or_else(|| lower.min(upper[g]));
    }
    nominal
}

/// Each group's step: the length of the longest chain of groups before it.
pub(super) fn steps(dag: &Dag) -> Vec<usize> {
    let mut step = vec![0; dag.events.len()];
    for &g in &dag.topo {
        for &s in &dag.succ[g] {
            step[s] = step[s].max(step[g] + 1);
        }
    }
    step
}

/// Where a beat falls among other fights' beats: its segment, an item of speed's blow
/// first, the better initiative die first, then the fight's number.
fn merge_key(
    b: &Beat,
    rank: &dyn Fn(usize) -> u32,
    strikes_first: &dyn Fn(usize) -> bool,
) -> (u32, bool, u32, usize) {
    let side = b.events.iter().map(|e| rank(e.actor)).min().unwrap_or(0);
    (b.nominal, !speed_item_blow(b, strikes_first), side, b.fight)
}

/// The beats that come first of all the fights, as [`merge`] plays them: the first beat
/// with an act (a charge arriving is none yet) of each fight whose place among fights is
/// level with the very first (simultaneous, on the same die), in play order.
pub fn first_acting(
    beats: &[Beat],
    rank: &dyn Fn(usize) -> u32,
    strikes_first: &dyn Fn(usize) -> bool,
) -> Vec<usize> {
    let acting = |b: &Beat| b.events.iter().any(|e| e.kind != EventKind::Arrive);
    let mut firsts: Vec<usize> = Vec::new();
    for i in merge(beats, rank, strikes_first) {
        if acting(&beats[i]) && !firsts.iter().any(|&f| beats[f].fight == beats[i].fight) {
            firsts.push(i);
        }
    }
    let level = |i: usize| {
        let (n, s, r, _) = merge_key(&beats[i], rank, strikes_first);
        (n, s, r)
    };
    let Some(&lead) = firsts.first() else {
        return Vec::new();
    };
    firsts.retain(|&i| level(i) == level(lead));
    firsts
}

/// The order in which to play the beats of several fights (indices into `beats`, which
/// hold each fight's beats in order). `rank(actor)` is lower for a side with a better
/// initiative die.
pub fn merge(
    beats: &[Beat],
    rank: &dyn Fn(usize) -> u32,
    strikes_first: &dyn Fn(usize) -> bool,
) -> Vec<usize> {
    // Each fight's beats, in order.
    let mut queues: Vec<Vec<usize>> = Vec::new();
    for (i, b) in beats.iter().enumerate() {
        if queues.len() <= b.fight {
            queues.resize(b.fight + 1, Vec::new());
        }
        queues[b.fight].push(i);
    }
    let key = |i: usize| merge_key(&beats[i], rank, strikes_first);
    let mut next = vec![0usize; queues.len()];
    let mut heap = BinaryHeap::new();
    for q in &queues {
        if let Some(&i) = q.first() {
            heap.push(Reverse((key(i), i)));
        }
    }
    let mut out = Vec::with_capacity(beats.len());
    while let Some(Reverse((_, i))) = heap.pop() {
        out.push(i);
        let f = beats[i].fight;
        next[f] += 1;
        if let Some(&j) = queues[f].get(next[f]) {
            heap.push(Reverse((key(j), j)));
        }
    }
    out
}
