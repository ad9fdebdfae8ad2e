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

use super::action::{ActionKind, Declared};
use super::cite::{self, Rule};
use super::first::{Context, First, who_first};
use super::speed_factor::Extra;
use serde::Serialize;
use std::collections::BTreeSet;

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
    /// 1-based position in the round.
    pub beat: usize,
    /// The segment, where the rules fix one for something in the beat.
    pub segment: Option<u32>,
    /// What happens.
    pub events: Vec<Event>,
}

impl Beat {
    /// The names of the figures acting in this beat.
    pub fn names(&self) -> Vec<&str> {
        self.events.iter().map(|e| e.name.as_str()).collect()
    }
}

/// The whole round.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sequence {
    /// The beats in order.
    pub beats: Vec<Beat>,
    /// Pairwise decisions between opponents, in input order, with who went first.
    pub decisions: Vec<PairDecision>,
}

/// A pairwise decision between two opponents.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairDecision {
    /// First figure.
    pub a: String,
    /// Second figure.
    pub b: String,
    /// The decision.
    pub decision: super::first::Decision,
}

impl Sequence {
    /// The acting names beat by beat, each beat's names joined by `+` (simultaneous).
    pub fn outline(&self) -> Vec<String> {
        self.beats.iter().map(|b| b.names().join("+")).collect()
    }

    /// The segment of each beat on a timeline (house rule `timeline.segment`): a segment
    /// the rules fix is kept (arrivals aside, which only precede their blow); a beat without
    /// one goes in the earliest segment its order allows: not before what came first, not
    /// after the next fixed segment, and segment 1 when nothing says otherwise.
    pub fn beat_segments(&self) -> (Vec<u32>, Rule) {
        let fixed: Vec<Option<u32>> = self
            .beats
            .iter()
            .map(|b| {
                b.events
                    .iter()
                    .filter(|e| e.kind != EventKind::Arrive)
                    .filter_map(|e| e.segment)
                    .min()
            })
            .collect();
        let mut prev = 0;
        let mut out = Vec::with_capacity(fixed.len());
        for (i, f) in fixed.iter().enumerate() {
            let seg = match f {
                Some(s) => *s,
                None => {
                    let next_fixed = fixed[i..].iter().flatten().copied().min();
                    prev.max(1).min(next_fixed.unwrap_or(u32::MAX))
                }
            };
            prev = prev.max(seg);
            out.push(seg);
        }
        (out, cite::TIMELINE_SEGMENT)
    }
}

#[derive(Clone, Copy)]
struct Slot {
    row: i32,
    sub: u32,
    routine: u32,
}

/// Lays out the round for these figures. Figures on the same side are not compared with
/// each other; every pair of opponents is.
pub fn round_sequence(actors: &[Declared], ctx: &Context) -> Sequence {
    round_sequence_with(actors, &|_, _| Some(*ctx))
}

/// Lays out the round, asking `pair(i, j)` for the circumstances of each pair of opponents
/// (`None`: the two do not bear on each other, e.g. a blow aimed elsewhere and a spell).
/// The engine uses this so that each pair's melee round (closing or continuing) is its
/// own, and a caster is timed only against those who attack it.
pub fn round_sequence_with(
    actors: &[Declared],
    pair_ctx: &dyn Fn(usize, usize) -> Option<Context>,
) -> Sequence {
    let n = actors.len();
    // Pairwise decisions: full, and for routines on the same row.
    let mut decisions = Vec::new();
    let mut extras: Vec<Option<Extra>> = vec![None; n];
    let mut pair = vec![vec![None; n]; n];
    let mut single = vec![vec![None; n]; n];
    for i in 0..n {
        for j in (i + 1)..n {
            if actors[i].side == actors[j].side {
                continue;
            }
            let Some(ctx) = pair_ctx(i, j) else {
                continue;
            };
            let d = who_first(&actors[i], &actors[j], &ctx);
            let s = who_first(&actors[i].single(), &actors[j].single(), &ctx);
            if let Some((w, e)) = s.extra
                && actors[i].routines == actors[j].routines
            {
                let k = if w == First::A { i } else { j };
                extras[k] = Some(match (extras[k], e) {
                    (Some(Extra::TwoBeforeOneTogether), _) | (_, Extra::TwoBeforeOneTogether) => {
                        Extra::TwoBeforeOneTogether
                    }
                    _ => Extra::TwoBefore,
                });
            }
            decisions.push(PairDecision {
                a: actors[i].name.clone(),
                b: actors[j].name.clone(),
                decision: d.clone(),
            });
            pair[i][j] = Some(d);
            single[i][j] = Some(s);
        }
    }

    // Events.
    let mut events: Vec<Event> = Vec::new();
    let mut slots: Vec<Option<Slot>> = Vec::new();
    let mut by_actor: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut push =
        |events: &mut Vec<Event>, slots: &mut Vec<Option<Slot>>, e: Event, s: Option<Slot>| {
            by_actor[e.actor].push(events.len());
            events.push(e);
            slots.push(s);
        };
    for (i, a) in actors.iter().enumerate() {
        let ev = |kind, segment, rule: Rule, why: String| Event {
            actor: i,
            name: a.name.clone(),
            kind,
            segment,
            rule,
            why,
        };
        match a.kind {
            ActionKind::Cast { segments, .. } => {
                push(
                    &mut events,
                    &mut slots,
                    ev(
                        EventKind::Complete,
                        Some(segments),
                        cite::DECLARE_SPELLS,
                        format!("casting time {segments} segments"),
                    ),
                    None,
                );
            }
            ActionKind::Charge { arrival_segment } => {
                push(
                    &mut events,
                    &mut slots,
                    ev(
                        EventKind::Arrive,
                        Some(arrival_segment),
                        cite::CHARGE_ARRIVAL,
                        format!("charge arrives in segment {arrival_segment}"),
                    ),
                    None,
                );
                let s = Slot {
                    row: 0,
                    sub: 0,
                    routine: 1,
                };
                push(
                    &mut events,
                    &mut slots,
                    ev(
                        EventKind::Routine {
                            routine: 1,
                            of: 1,
                            blow: 1,
                        },
                        Some(arrival_segment),
                        cite::CHARGE_REACH,
                        "the charge's blow".into(),
                    ),
                    Some(s),
                );
            }
            ActionKind::Melee | ActionKind::Missile | ActionKind::Turn => {
                let rows = routine_rows(a.routines.max(1));
                let rule = if a.routines > 1 {
                    cite::MULTIPLE_ROUTINES
                } else {
                    cite::INITIATIVE_D6
                };
                for (k, &row) in rows.iter().enumerate() {
                    let blows = if k == 0 {
                        extras[i].map(|e| e.blows()).unwrap_or(1)
                    } else {
                        1
                    };
                    for b in 0..blows {
                        let (rule, why) = if b > 0 {
                            let e = extras[i].expect("extra blows");
                            (
                                e.rule(),
                                format!("extra blow {} from a much faster weapon", b + 1),
                            )
                        } else {
                            (rule, format!("routine {} of {}", k + 1, rows.len()))
                        };
                        let kind = EventKind::Routine {
                            routine: k as u32 + 1,
                            of: rows.len() as u32,
                            blow: b + 1,
                        };
                        push(
                            &mut events,
                            &mut slots,
                            ev(kind, None, rule, why),
                            Some(Slot {
                                row,
                                sub: b,
                                routine: k as u32 + 1,
                            }),
                        );
                    }
                }
            }
        }
    }

    let mut annotated = vec![false; n];
    let mut g = Graph::new(events.len());
    // 1. Each figure's own events in order.
    for list in &by_actor {
        for w in list.windows(2) {
            g.before(w[0], w[1]);
        }
    }
    // 2. Opponents.
    for i in 0..n {
        for j in (i + 1)..n {
            let (Some(d), Some(s)) = (&pair[i][j], &single[i][j]) else {
                continue;
            };
            let (ai, aj) = (&actors[i], &actors[j]);
            let casting = |a: &Declared| matches!(a.kind, ActionKind::Cast { .. });
            match (casting(ai), casting(aj)) {
                (true, true) => {
                    order(&mut g, by_actor[i][0], by_actor[j][0], d.first);
                }
                (true, false) | (false, true) => {
                    let (c, o, first_is_caster) = if casting(ai) {
                        (i, j, First::A)
                    } else {
                        (j, i, First::B)
                    };
                    let done = by_actor[c][0];
                    let other_seg = if c == i { d.segment_b } else { d.segment_a };
                    let casting_time = actors[c].casting().unwrap_or(0);
                    let rel = if d.first == First::Together {
                        First::Together
                    } else if d.first == first_is_caster {
                        First::B
                    } else {
                        First::A
                    };
                    // rel: A = the opponent first, B = the caster first.
                    let opp_events = &by_actor[o];
                    let first_strike = opp_events
                        .iter()
                        .copied()
                        .find(|&e| matches!(events[e].kind, EventKind::Routine { .. }))
                        .unwrap_or(opp_events[0]);
                    if events[first_strike].segment.is_none() {
                        events[first_strike].segment = other_seg;
                        events[first_strike].rule = d.rule;
                        events[first_strike].why = d.why.clone();
                    }
                    for &e in opp_events {
                        if e == first_strike || matches!(events[e].kind, EventKind::Arrive) {
                            order(&mut g, e, done, rel);
                        } else if casting_time < 10 {
                            g.before(done, e);
                        }
                    }
                    if events[done].rule == cite::DECLARE_SPELLS {
                        events[done].rule = d.rule;
                        events[done].why =
                            format!("casting time {casting_time} segments; {}", d.why);
                    }
                }
                (false, false) => {
                    // Say which pairwise rule placed each figure's first blow.
                    for (k, other) in [(i, j), (j, i)] {
                        if annotated[k] {
                            continue;
                        }
                        annotated[k] = true;
                        let same_count = actors[k].routines == actors[other].routines;
                        let (rule, why) = if same_count {
                            (s.rule, s.why.clone())
                        } else {
                            (d.rule, d.why.clone())
                        };
                        for &e in &by_actor[k] {
                            if let EventKind::Routine { blow: 1, .. } = events[e].kind
                                && events[e].segment.is_none()
                            {
                                events[e].rule = rule;
                                events[e].why = format!("{} ({})", events[e].why, why);
                            }
                        }
                    }
                    for &ea in &by_actor[i] {
                        for &eb in &by_actor[j] {
                            let (Some(sa), Some(sb)) = (slots[ea], slots[eb]) else {
                                continue;
                            };
                            if sa.row != sb.row {
                                order(
                                    &mut g,
                                    ea,
                                    eb,
                                    if sa.row < sb.row { First::A } else { First::B },
                                );
                                continue;
                            }
                            // The same row: as single routines would be ordered.
                            let rel = match s.extra {
                                Some((w, e))
                                    if sa.routine == 1
                                        && sb.routine == 1
                                        && ai.routines == aj.routines =>
                                {
                                    let (fast_sub, _) = if w == First::A {
                                        (sa.sub, sb.sub)
                                    } else {
                                        (sb.sub, sa.sub)
                                    };
                                    if fast_sub >= 2 && e == Extra::TwoBeforeOneTogether {
                                        First::Together
                                    } else {
                                        w
                                    }
                                }
                                _ if sa.sub != sb.sub => {
                                    if sa.sub < sb.sub {
                                        First::A
                                    } else {
                                        First::B
                                    }
                                }
                                _ => s.first,
                            };
                            order(&mut g, ea, eb, rel);
                        }
                    }
                }
            }
        }
    }
    // 3. Fixed segments order what the pairwise rules left open.
    for a in 0..events.len() {
        for b in 0..events.len() {
            if let (Some(sa), Some(sb)) = (events[a].segment, events[b].segment)
                && sa < sb
            {
                g.before(a, b);
            }
        }
    }

    let levels = g.levels();
    let mut beats: Vec<Beat> = Vec::new();
    let max = levels.iter().copied().max().unwrap_or(0);
    for lvl in 0..=max {
        let evs: Vec<Event> = (0..events.len())
            .filter(|&e| levels[e] == lvl)
            .map(|e| events[e].clone())
            .collect();
        if evs.is_empty() {
            continue;
        }
        let segment = evs.iter().filter_map(|e| e.segment).min();
        beats.push(Beat {
            beat: beats.len() + 1,
            segment,
            events: evs,
        });
    }
    Sequence { beats, decisions }
}

fn order(g: &mut Graph, a: usize, b: usize, first: First) {
    match first {
        First::A => g.before(a, b),
        First::B => g.before(b, a),
        First::Together => g.together(a, b),
    }
}

/// Ordering constraints: "before" edges between groups of simultaneous events. A
/// constraint that would contradict earlier ones is skipped (earlier ones have priority).
struct Graph {
    group: Vec<usize>,
    edges: BTreeSet<(usize, usize)>,
}

impl Graph {
    fn new(n: usize) -> Graph {
        Graph {
            group: (0..n).collect(),
            edges: BTreeSet::new(),
        }
    }
    fn find(&self, mut x: usize) -> usize {
        while self.group[x] != x {
            x = self.group[x];
        }
        x
    }
    fn reaches(&self, from: usize, to: usize) -> bool {
        let mut stack = vec![from];
        let mut seen = BTreeSet::new();
        while let Some(x) = stack.pop() {
            if x == to {
                return true;
            }
            if seen.insert(x) {
                stack.extend(self.edges.iter().filter(|(a, _)| *a == x).map(|(_, b)| *b));
            }
        }
        false
    }
    fn before(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b && !self.reaches(b, a) {
            self.edges.insert((a, b));
        }
    }
    fn together(&mut self, a: usize, b: usize) {
        let (a, b) = (self.find(a), self.find(b));
        if a == b || self.reaches(a, b) || self.reaches(b, a) {
            return;
        }
        let (keep, gone) = (a.min(b), a.max(b));
        self.group[gone] = keep;
        self.edges = self
            .edges
            .iter()
            .map(|&(x, y)| {
                (
                    if x == gone { keep } else { x },
                    if y == gone { keep } else { y },
                )
            })
            .collect();
    }
    /// Longest-path level of every event: 0 for those with nothing before them.
    fn levels(&self) -> Vec<usize> {
        let n = self.group.len();
        let mut level = vec![0usize; n];
        // Relax edges until stable; the graph is acyclic, so at most n passes.
        for _ in 0..n {
            let mut changed = false;
            for &(a, b) in &self.edges {
                if level[b] < level[a] + 1 {
                    level[b] = level[a] + 1;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        (0..n).map(|e| level[self.find(e)]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
