//! One fight laid out in beats: each figure's events (routines on the rows of the
//! attack-sequence chart, completions, arrivals), the pairwise rules between opponents
//! turned into constraints, and the constraints into beats of simultaneous events.

use super::super::action::{ActionKind, Declared};
use super::super::cite::{self, Rule};
use super::super::first::{Context, Decision, First, who_first};
use super::super::options::{ExtraBlows, LaterRoutines, MissileVolley};
use super::super::speed_factor::Extra;
use super::super::spell::routine_can_disrupt;
use super::graph::{Dag, OrderGraph};
use super::{Beat, Event, EventKind, PairDecision, routine_rows, timeline};
use crate::text::plural;
use std::collections::HashSet;

/// A routine's place in the chart: its row, its blow within the routine, its number.
#[derive(Clone, Copy)]
struct Slot {
    row: i32,
    sub: u32,
    routine: u32,
}

/// Who bears on whom: `None` when the two do not (a blow aimed elsewhere and a spell).
pub type PairContext<'a> = dyn Fn(usize, usize) -> Option<Context> + 'a;

/// A pair of opponents within the fight (local indices) and the rules' decisions.
struct Pair {
    a: usize,
    b: usize,
    full: Decision,
    single: Decision,
    ctx: Context,
}

/// The events of a fight with their chart slots, grouped per figure.
struct Events {
    list: Vec<Event>,
    slots: Vec<Option<Slot>>,
    by: Vec<Vec<usize>>,
}

impl Events {
    fn push(&mut self, k: usize, e: Event, s: Option<Slot>) {
        self.by[k].push(self.list.len());
        self.list.push(e);
        self.slots.push(s);
    }
    /// A figure's first routine (its first blow), if it has one.
    fn first_strike(&self, k: usize) -> Option<usize> {
        self.by[k]
            .iter()
            .copied()
            .find(|&e| matches!(self.list[e].kind, EventKind::Routine { .. }))
    }
}

/// Lays out one fight: `members` are indices into `actors`; `fight` numbers it.
pub(super) fn lay_out_fight(
    actors: &[Declared],
    members: &[usize],
    fight: usize,
    pair_ctx: &PairContext,
    all_aims: &HashSet<(usize, usize)>,
) -> (Vec<Beat>, Vec<PairDecision>) {
    let act = |k: usize| &actors[members[k]];
    let aims = |x: usize, y: usize| all_aims.contains(&(members[x], members[y]));
    let riders = riders(actors, members);
    let (pairs, decisions, extras) =
        decide_pairs(actors, members, (fight, pair_ctx, &aims), &riders);
    let mut ev = Events {
        list: Vec::new(),
        slots: Vec::new(),
        by: vec![Vec::new(); members.len()],
    };
    let options = pairs.first().map(|p| p.ctx.options).unwrap_or_default();
    let lost = shots_lost_at_contact(members.len(), &pairs, &aims, act);
    let block = |a: &Declared| {
        a.kind == ActionKind::Missile && options.missile_volley == MissileVolley::OneBlock
    };
    for k in 0..members.len() {
        if !lost[k] {
            events_of(&mut ev, k, members[k], act(k), extras[k], block(act(k)));
        }
    }
    let mut g = OrderGraph::new(ev.list.len());
    // 1. Each figure's own events in order (a volley in one block all together).
    for (k, list) in ev.by.iter().enumerate() {
        for w in list.windows(2) {
            if block(act(k)) {
                g.together(w[0], w[1]);
            } else {
                g.before(w[0], w[1]);
            }
        }
    }
    // 2. Items of speed strike first whatever the dice (DMG p.168): before anything the
    //    opponent does, multi-routine or not. Given first, so nothing overrides it.
    for p in &pairs {
        speed_item_first(&mut g, &ev, p, act(p.a), act(p.b));
        for (c, o) in [(p.a, p.b), (p.b, p.a)] {
            set_against_charge(&mut g, &ev, act(c), c, act(o), o);
        }
    }
    // 3. A figure that hesitated in declaring strikes that many segments late (DMG p.71).
    for k in 0..members.len() {
        let base = undelayed_segment(&pairs, k, &act, &aims);
        hesitated(&mut ev, k, act(k), base);
    }
    // 3b. A figure that strikes at its charger does so at contact (DMG p.66).
    for p in &pairs {
        for (c, o) in [(p.a, p.b), (p.b, p.a)] {
            strike_back_at_contact(&mut ev, act(c), c, act(o), o, aims(o, c));
        }
    }
    //     The charge arrives before the blows that meet it: whoever is named first.
    for p in &pairs {
        for (c, o) in [(p.a, p.b), (p.b, p.a)] {
            arrival_before_contact(&mut g, &ev, (act(c), c), (act(o), o), aims(o, c));
        }
    }
    // 3c. Hesitating holds back the hesitater's blows, not its opponent's (DMG p.71): the
    //     one who hesitated less strikes first, whatever the dice said.
    for p in &pairs {
        prompt_before_late(&mut g, &ev, p, act(p.a), act(p.b));
    }
    // 4. The pairwise rules.
    let mut annotated = vec![false; members.len()];
    for p in &pairs {
        let (x, y) = (act(p.a), act(p.b));
        match (x.casting().is_some(), y.casting().is_some()) {
            (true, true) => order(&mut g, ev.by[p.a][0], ev.by[p.b][0], p.full.first),
            (true, false) => against_caster(&mut g, &mut ev, p, true, (x, y.delay)),
            (false, true) => against_caster(&mut g, &mut ev, p, false, (y, x.delay)),
            (false, false) => {
                annotate(&mut ev, &mut annotated, p, x, y);
                by_rows(&mut g, &ev, p, x, y);
            }
        }
    }
    // 4a. A side's single routines fall in the middle of its own multi-routine members'
    //     too, not only of the foe's (DMG p.62-63, VII.A.1.b): by the chart's rows, after
    //     what the pairwise rules between opponents decided.
    for k in 0..members.len() {
        for j in 0..members.len() {
            // Two members of one side, not one figure's two actions (a second action).
            if k != j && act(k).side == act(j).side && act(k).name != act(j).name {
                same_side_rows(&mut g, &ev, (k, act(k)), (j, act(j)));
            }
        }
    }
    // 4b. An act used besides a blow goes with the figure's last blow (rules::second_action).
    for (k, blow) in riders.iter().enumerate() {
        let Some(j) = *blow else { continue };
        if let (Some(&last), Some(&own)) = (ev.by[j].last(), ev.by[k].first()) {
            g.together(last, own);
            ev.list[own].rule = cite::MELEE_THEN_DEVICE;
            ev.list[own].why = crate::words!("besides its blow, with it");
        }
    }
    // 5. Segments the rules fixed order what the pairwise rules left open.
    by_fixed_segments(&mut g, &ev.list);
    let strikes_first = |i: usize| actors[i].strikes_first;
    let beats = to_beats(fight, ev.list, &g.dag(), &strikes_first);
    let mut decisions = decisions;
    for (p, d) in pairs.iter().zip(&mut decisions) {
        late_decision(
            d,
            (act(p.a), act(p.b)),
            (members[p.a], members[p.b]),
            &beats,
        );
    }
    (beats, decisions)
}

/// A pair's decision as played when one of the two hesitated longer in declaring (DMG
/// p.71, or a house rule's late start): if the delay changed who acts first, the decision
/// says so, so that the pair's line never contradicts the round.
fn late_decision(
    d: &mut PairDecision,
    (x, y): (&Declared, &Declared),
    (ia, ib): (usize, usize),
    beats: &[Beat],
) {
    if x.delay == y.delay {
        return;
    }
    // What each does (a blow, a completion), not a charge's arrival.
    let first_beat = |i: usize| {
        beats
            .iter()
            .find(|b| {
                b.events
                    .iter()
                    .any(|e| e.actor == i && !matches!(e.kind, EventKind::Arrive))
            })
            .map(|b| b.beat)
    };
    let (Some(ba), Some(bb)) = (first_beat(ia), first_beat(ib)) else {
        return;
    };
    let now = match ba.cmp(&bb) {
        std::cmp::Ordering::Less => First::A,
        std::cmp::Ordering::Greater => First::B,
        std::cmp::Ordering::Equal => First::Together,
    };
    // Only a delay that put the less late one first, or brought the two together,
    // changes the pair's decision.
    let together = now == First::Together;
    if now == d.decision.first || (now != less_late(x, y) && !together) {
        return;
    }
    let prompt = if x.delay > y.delay { y } else { x };
    let Some((rule, late)) = late_words(x, y) else {
        return;
    };
    d.decision.why = if together {
        crate::words!(
            "{late}, so the two come at the same moment; without the delay: {}",
            d.decision.why
        )
    } else {
        crate::words!(
            "{late}, so {} acts first; without the delay: {}",
            prompt.name,
            d.decision.why
        )
    };
    d.decision.first = now;
    d.decision.rule = rule;
}

type Decided = (Vec<Pair>, Vec<PairDecision>, Vec<Option<Extra>>);

/// Under the reading that a charge winning initiative reaches an archer before any shot,
/// the archer's shots are lost when the charger aims at it.
fn shots_lost_at_contact<'a>(
    n: usize,
    pairs: &[Pair],
    aims: &dyn Fn(usize, usize) -> bool,
    act: impl Fn(usize) -> &'a Declared,
) -> Vec<bool> {
    let mut lost = vec![false; n];
    for p in pairs
        .iter()
        .filter(|p| p.full.rule == cite::MISSILE_CHARGE_INITIATIVE)
    {
        let (charger, archer) = if p.full.first == First::A {
            (p.a, p.b)
        } else {
            (p.b, p.a)
        };
        if act(archer).kind == ActionKind::Missile && aims(charger, archer) {
            lost[archer] = true;
        }
    }
    lost
}

/// Every pair of opponents in the fight that bear on each other, decided by the charts;
/// and the speed-factor extra blows each figure earns.
/// For each member, the member whose blow it is used besides: an act that is no blow
/// ([`ActionKind::Other`]) by a figure whose melee comes earlier in the same fight (a
/// device after a blow, [`cite::MELEE_THEN_DEVICE`]). Such an act takes no place of its own.
fn riders(actors: &[Declared], members: &[usize]) -> Vec<Option<usize>> {
    let act = |k: usize| &actors[members[k]];
    (0..members.len())
        .map(|k| {
            (act(k).kind == ActionKind::Other)
                .then(|| {
                    (0..k).find(|&j| act(j).name == act(k).name && act(j).kind == ActionKind::Melee)
                })
                .flatten()
        })
        .collect()
}

fn decide_pairs(
    actors: &[Declared],
    members: &[usize],
    (fight, pair_ctx, aims): (usize, &PairContext, &dyn Fn(usize, usize) -> bool),
    riders: &[Option<usize>],
) -> Decided {
    let mut pairs = Vec::new();
    let mut decisions = Vec::new();
    let mut extras: Vec<Option<Extra>> = vec![None; members.len()];
    for a in 0..members.len() {
        for b in (a + 1)..members.len() {
            let (x, y) = (&actors[members[a]], &actors[members[b]]);
            if x.side == y.side || riders[a].is_some() || riders[b].is_some() {
                continue;
            }
            let Some(ctx) = pair_ctx(members[a], members[b]) else {
                continue;
            };
            let mut single = who_first(&x.single(), &y.single(), &ctx);
            // A non-combat act against several routines is no routine itself: the die
            // places it against the first of them, as a single routine would be placed.
            let mut full = if lone_act_against_routines(x, y) && x.kind == ActionKind::Other
                || lone_act_against_routines(y, x) && y.kind == ActionKind::Other
            {
                single.clone()
            } else {
                who_first(x, y, &ctx)
            };
            let extra_allowed = x.routines == y.routines
                && (x.routines <= 1 || ctx.options.extra_blows == ExtraBlows::FirstRoutine);
            // Earned against the slower weapon only: a figure that strikes someone else
            // (the slower foe strikes it, it strikes a faster one) gets none from this pair.
            let (k, slower) = match single.extra {
                Some((First::A, _)) => (a, b),
                _ => (b, a),
            };
            let not_earned = match (aims(k, slower), extra_allowed) {
                (false, _) => Some(crate::words!("{} strikes another", actors[members[k]].name)),
                (true, false) => Some(match ctx.options.extra_blows {
                    ExtraBlows::SingleRoutinesOnly if x.routines == y.routines => {
                        "reading extra_blows: single routines only".to_string()
                    }
                    _ => "the two make different numbers of routines".to_string(),
                }),
                (true, true) => None,
            };
            if let Some(why) = not_earned.filter(|_| single.extra.is_some()) {
                fn sf(d: &Declared) -> (u32, &str) {
                    (d.speed_factor.unwrap_or(0), d.name.as_str())
                }
                // Struck at another, the pair earns nothing; ruled out by the routines or
                // the reading, the order stays the chart's and only the words change. The
                // faster weapon is named first: it still strikes first.
                let clear = !aims(k, slower);
                let (fast, slow) = if sf(x).0 <= sf(y).0 { (x, y) } else { (y, x) };
                for d in [&mut full, &mut single] {
                    unearned(d, (sf(fast), sf(slow)), &why, clear);
                }
            }
            if let Some((_, e)) = single.extra
                && extra_allowed
            {
                extras[k] = Some(match (extras[k], e) {
                    (Some(Extra::TwoBeforeOneTogether), _) | (_, Extra::TwoBeforeOneTogether) => {
                        Extra::TwoBeforeOneTogether
                    }
                    _ => Extra::TwoBefore,
                });
            }
            decisions.push(PairDecision {
                a: x.name.clone(),
                b: y.name.clone(),
                fight,
                decision: full.clone(),
            });
            pairs.push(Pair {
                a,
                b,
                full,
                single,
                ctx,
            });
        }
    }
    (pairs, decisions, extras)
}

/// A pair's decision when the faster weapon earns no extra blows here (it strikes someone
/// else, or the reading or the routines rule them out): the lower speed factor still
/// strikes first, with no extra blows, and `why` says why not.
fn unearned(
    d: &mut Decision,
    ((a, x), (b, y)): ((u32, &str), (u32, &str)),
    why: &str,
    clear: bool,
) {
    if d.extra.is_none() {
        return;
    }
    if clear {
        d.extra = None;
    }
    d.rule = cite::SPEED_FACTOR;
    d.why = crate::words!(
        "tied: speed factor {a} ({x}) against {b} ({y}), the lower strikes first (no extra blows: {why})"
    );
}

/// A figure's events: a completion, a charge's arrival and blow, or its routines on the
/// rows of the attack-sequence chart with any speed-factor extra blows in the first.
fn events_of(
    ev: &mut Events,
    k: usize,
    actor: usize,
    a: &Declared,
    extra: Option<Extra>,
    block: bool,
) {
    let ev_at = |kind, segment, rule: Rule, why: String| Event {
        actor,
        name: a.name.clone(),
        kind,
        segment,
        rule,
        why,
    };
    match a.kind {
        ActionKind::Cast { segments, device } => {
            // A device's time is its activation time (DMG p.65), a spell's its casting time.
            let time = if device {
                "activation time"
            } else {
                "casting time"
            };
            ev.push(
            k,
            ev_at(
                EventKind::Complete,
                Some(segments),
                cite::DECLARE_SPELLS,
                match a.casting_total {
                    // Started late (hesitation, a house rule's late start): the delay first.
                    Some(t) if t < segments => crate::words!(
                        "completes in {} ({time} {}, begun {} late)",
                        crate::text::segment_words(segments),
                        plural(t, "segment"),
                        plural(segments - t, "segment")
                    ),
                    // Carried over: begun in an earlier round.
                    Some(t) if t > segments => crate::words!(
                        "completes in segment {segments} of this round ({time} {}, begun before the round)",
                        plural(t, "segment")
                    ),
                    _ if segments > super::super::charge::SEGMENTS_PER_ROUND => crate::words!(
                        "{time} {}: completes in {}",
                        plural(segments, "segment"),
                        crate::text::segment_words(segments)
                    ),
                    _ => crate::words!("{time} {}", plural(segments, "segment")),
                },
            ),
            None,
        )
        }
        ActionKind::Charge { arrival_segment } => {
            ev.push(
                k,
                ev_at(
                    EventKind::Arrive,
                    Some(arrival_segment),
                    cite::CHARGE_ARRIVAL,
                    crate::words!("charge arrives in segment {arrival_segment}"),
                ),
                None,
            );
            let blow = EventKind::Routine {
                routine: 1,
                of: 1,
                blow: 1,
            };
            let why = "the charge's blow".to_string();
            let slot = Slot {
                row: 0,
                sub: 0,
                routine: 1,
            };
            let e = ev_at(blow, Some(arrival_segment), cite::CHARGE_REACH, why);
            ev.push(k, e, Some(slot));
        }
        ActionKind::Melee | ActionKind::Missile | ActionKind::Turn | ActionKind::Other => {
            // A volley in one block sits where a single routine would.
            let rows = if block {
                vec![0; a.routines.max(1) as usize]
            } else {
                routine_rows(a.routines.max(1))
            };
            let rule = match (block, a.routines > 1) {
                (true, true) => cite::MISSILE_VOLLEY_BLOCK,
                (false, true) => cite::MULTIPLE_ROUTINES,
                // An item of speed's routine is placed by the item, whatever its side's die.
                _ if a.strikes_first => cite::STRIKES_FIRST,
                _ => cite::INITIATIVE_D6,
            };
            for (r, &row) in rows.iter().enumerate() {
                let blows = match (r, extra) {
                    (0, Some(e)) => e.blows(),
                    _ => 1,
                };
                for b in 0..blows {
                    let (rule, why) = match extra {
                        Some(e) if b > 0 => (
                            e.rule(),
                            crate::words!("extra blow {} from a much faster weapon", b + 1),
                        ),
                        _ if a.kind == ActionKind::Other => (
                            cite::INITIATIVE_D6,
                            crate::words!(
                                "an act of its own, placed by its side's die ({})",
                                a.die
                            ),
                        ),
                        _ => (rule, crate::words!("routine {} of {}", r + 1, rows.len())),
                    };
                    let kind = EventKind::Routine {
                        routine: r as u32 + 1,
                        of: rows.len() as u32,
                        blow: b + 1,
                    };
                    let slot = Slot {
                        row,
                        sub: b,
                        routine: r as u32 + 1,
                    };
                    ev.push(k, ev_at(kind, None, rule, why), Some(slot));
                }
            }
        }
    }
}

fn order(g: &mut OrderGraph, a: usize, b: usize, first: First) {
    match first {
        First::A => g.before(a, b),
        First::B => g.before(b, a),
        First::Together => g.together(a, b),
    };
}

/// Where figure `k`'s first blow falls before any delay: where the pairwise rule puts its
/// blow at a caster it aims at (DMG p.66-67), the earliest if several; at the contact of a
/// charger it aims at (DMG p.66: a blow that waits for the charger, `true`); else segment
/// 1, the start of the round.
fn undelayed_segment<'a>(
    pairs: &[Pair],
    k: usize,
    act: &impl Fn(usize) -> &'a Declared,
    aims: &impl Fn(usize, usize) -> bool,
) -> (u32, bool) {
    let strikes_back = meets_charger_at_contact(act(k));
    pairs
        .iter()
        .filter_map(|p| {
            let (other, seg) = if p.a == k {
                (p.b, p.full.segment_a)
            } else if p.b == k {
                (p.a, p.full.segment_b)
            } else {
                return None;
            };
            if !aims(k, other) {
                return None;
            }
            match act(other).kind {
                ActionKind::Charge { arrival_segment } if strikes_back => {
                    Some((arrival_segment, true))
                }
                _ if act(other).casting().is_some() => seg.map(|s| (s, false)),
                _ => None,
            }
        })
        .min()
        .unwrap_or((1, false))
}

/// A figure that hesitated: its first blow as many segments later than it would have come
/// (`base`, see [`undelayed_segment`]) as it hesitated (DMG p.71: a like delay in its
/// actions; a delay never makes a blow earlier). A blow waiting for a charger's contact
/// comes at contact if the delay is over by then, else when it is.
fn hesitated(ev: &mut Events, k: usize, a: &Declared, (base, contact): (u32, bool)) {
    if a.delay == 0 || a.casting().is_some() || matches!(a.kind, ActionKind::Charge { .. }) {
        return;
    }
    let Some(first) = ev.first_strike(k) else {
        return;
    };
    let e = &mut ev.list[first];
    let at = if contact {
        if a.delay < base {
            // Ready before the charger comes: the blow at contact, as without the delay.
            return;
        }
        1 + a.delay
    } else {
        (base + a.delay).max(1)
    };
    if e.segment.is_none_or(|s| s < at) {
        // Past the round's last segment the blow does not come this round (a played round
        // leaves it out).
        let when = if at > super::super::charge::SEGMENTS_PER_ROUND {
            "past the end of the round: no blow this round".to_string()
        } else {
            crate::words!("in segment {at}")
        };
        let (rule, why) = match a.late_by {
            None => (
                cite::DECLARE_HESITATION,
                crate::words!(
                    "hesitated in declaring: {} late, {when}",
                    plural(a.delay, "segment")
                ),
            ),
            Some(by) => (
                by.rule(),
                crate::words!("{}: {} late, {when}", by.why(), plural(a.delay, "segment")),
            ),
        };
        // The routines after the first come after it: none of them this round either.
        let late: Vec<usize> = if at > super::super::charge::SEGMENTS_PER_ROUND {
            ev.by[k]
                .iter()
                .copied()
                .filter(|&x| matches!(ev.list[x].kind, EventKind::Routine { .. }))
                .collect()
        } else {
            vec![first]
        };
        for x in late {
            let e = &mut ev.list[x];
            e.segment = Some(at.max(e.segment.unwrap_or(0)));
            e.rule = rule;
            e.why.clone_from(&why);
        }
    }
}

/// Between two opponents who hesitated unequally (DMG p.71), the first blow of the one who
/// hesitated less comes before the late one's delayed first blow, unless its own falls in a
/// later segment anyway (a blow at a charge's contact).
fn prompt_before_late(g: &mut OrderGraph, ev: &Events, p: &Pair, x: &Declared, y: &Declared) {
    if x.delay == y.delay || x.casting().is_some() || y.casting().is_some() {
        return;
    }
    let (prompt, late) = if x.delay < y.delay {
        (p.a, p.b)
    } else {
        (p.b, p.a)
    };
    let (Some(a), Some(b)) = (ev.first_strike(prompt), ev.first_strike(late)) else {
        return;
    };
    let Some(late_at) = ev.list[b].segment else {
        return;
    };
    if ev.list[a].segment.is_none_or(|s| s < late_at) {
        g.before(a, b);
    }
}

/// Whether `a`, aimed at a charger, strikes it at contact (DMG p.66): a blow or an act;
/// a shot or a turning keeps its own rule (the missile-against-charge reading), a spell
/// its completion.
fn meets_charger_at_contact(a: &Declared) -> bool {
    !matches!(a.kind, ActionKind::Missile | ActionKind::Turn) && a.casting().is_none()
}

/// Against a charger, a figure's first blow aimed at it falls when the charge makes
/// contact: no initiative at the end of a charge, the longer reach strikes first (DMG p.66).
fn strike_back_at_contact(
    ev: &mut Events,
    charger: &Declared,
    c: usize,
    other: &Declared,
    o: usize,
    aims_at_charger: bool,
) {
    let ActionKind::Charge { arrival_segment } = charger.kind else {
        return;
    };
    // A blow struck back: a shot or a turning at a charger keeps its own rule (the
    // missile-against-charge reading), it does not wait for contact.
    if !aims_at_charger || !meets_charger_at_contact(other) || c == o {
        return;
    }
    let Some(first) = ev.first_strike(o) else {
        return;
    };
    let e = &mut ev.list[first];
    if e.segment.is_none() {
        e.segment = Some(arrival_segment);
        (e.rule, e.why) = if other.set_vs_charge {
            let why = crate::words!(
                "set against {}'s charge: strikes first at contact in segment {arrival_segment}, double damage",
                charger.name
            );
            (cite::CHARGE_SET, why)
        } else {
            let why = crate::words!(
                "strikes back when {}'s charge makes contact in segment {arrival_segment}",
                charger.name
            );
            (cite::CHARGE_REACH, why)
        };
    }
}

/// A charger's arrival comes before the blow struck back at it on contact (both in the
/// arrival segment): the blow meets the charge, so the charge is there first. Without
/// this, the order of the two in the round's list followed the order the figures were
/// named in.
fn arrival_before_contact(
    g: &mut OrderGraph,
    ev: &Events,
    (charger, c): (&Declared, usize),
    (other, o): (&Declared, usize),
    aims_at_charger: bool,
) {
    let ActionKind::Charge { arrival_segment } = charger.kind else {
        return;
    };
    if !aims_at_charger || !meets_charger_at_contact(other) || c == o {
        return;
    }
    let arrive = ev.by[c]
        .iter()
        .copied()
        .find(|&e| matches!(ev.list[e].kind, EventKind::Arrive));
    if let (Some(arrive), Some(blow)) = (arrive, ev.first_strike(o))
        && ev.list[blow].segment == Some(arrival_segment)
    {
        g.before(arrive, blow);
    }
}

/// A weapon set against a charge strikes the charger before its blow ("Take Initiative!"
/// §9), whatever the reach.
fn set_against_charge(
    g: &mut OrderGraph,
    ev: &Events,
    charger: &Declared,
    c: usize,
    other: &Declared,
    o: usize,
) {
    if !other.set_vs_charge || !matches!(charger.kind, ActionKind::Charge { .. }) {
        return;
    }
    if let (Some(set), Some(blow)) = (ev.first_strike(o), ev.first_strike(c)) {
        g.before(set, blow);
    }
}

/// An item of speed's first blow before every event of an opponent without one.
fn speed_item_first(g: &mut OrderGraph, ev: &Events, p: &Pair, x: &Declared, y: &Declared) {
    if x.strikes_first == y.strikes_first || x.casting().is_some() || y.casting().is_some() {
        return;
    }
    let (fast, slow) = if x.strikes_first {
        (p.a, p.b)
    } else {
        (p.b, p.a)
    };
    let Some(first) = ev.first_strike(fast) else {
        return;
    };
    for &e in &ev.by[slow] {
        if !matches!(ev.list[e].kind, EventKind::Arrive) {
            g.before(first, e);
        }
    }
}

/// A caster against an opponent who aims at it: the opponent's first blow is placed by the
/// pairwise rule (and gets its segment); later routines come after the completion (only
/// the first can disrupt), or before it when the spell takes a full round (DMG p.65).
fn against_caster(
    g: &mut OrderGraph,
    ev: &mut Events,
    p: &Pair,
    caster_is_a: bool,
    (caster_action, other_delay): (&Declared, u32),
) {
    let (caster, other) = if caster_is_a { (p.a, p.b) } else { (p.b, p.a) };
    let (d, ctx) = (&p.full, &p.ctx);
    let done = ev.by[caster][0];
    let other_seg = if caster_is_a {
        d.segment_b
    } else {
        d.segment_a
    };
    let caster_first = if caster_is_a { First::A } else { First::B };
    // rel: A = the opponent's blow first, B = the completion first.
    let rel = match d.first {
        First::Together => First::Together,
        f if f == caster_first => First::B,
        _ => First::A,
    };
    let Some(first_strike) = ev.first_strike(other) else {
        return;
    };
    let e = &mut ev.list[first_strike];
    if e.segment.is_none() {
        e.segment = other_seg;
        e.rule = d.rule;
        e.why = d.why.clone();
    }
    // A blow delayed by hesitation (DMG p.71) is placed by its segment against the
    // completion's.
    let rel = match (other_delay > 0, e.segment, ev.list[done].segment) {
        (true, Some(blow), Some(completion)) => match blow.cmp(&completion) {
            std::cmp::Ordering::Less => First::A,
            std::cmp::Ordering::Greater => First::B,
            // In one segment, simultaneous (DMG p.66-67: results may be simultaneous).
            std::cmp::Ordering::Equal => First::Together,
        },
        _ => rel,
    };
    order(g, first_strike, done, rel);
    let whole = caster_action.whole_casting_time().unwrap_or(0);
    let (later_can_disrupt, _) = routine_can_disrupt(2, whole);
    for &e in &ev.by[other] {
        let later = e != first_strike && matches!(ev.list[e].kind, EventKind::Routine { .. });
        if !later {
            continue;
        }
        if later_can_disrupt {
            g.before(e, done);
        } else if ctx.options.later_routines == LaterRoutines::AfterCompletion {
            g.before(done, e);
        }
    }
    // The pair's reason joins the completion's words, unless a delay in declaring put the
    // two in another order than that reason gives (the pair's line says so then): "A won
    // initiative" beside a spell that went off before A's late blow would contradict it.
    let c = &mut ev.list[done];
    if c.rule == cite::DECLARE_SPELLS && other_delay == caster_action.delay {
        c.rule = d.rule;
        c.why = crate::words!("{}; {}", c.why, d.why);
    }
}

/// Says which pairwise rule placed each figure's first blow (once per figure).
fn annotate(ev: &mut Events, annotated: &mut [bool], p: &Pair, x: &Declared, y: &Declared) {
    let same_count = x.routines == y.routines;
    for k in [p.a, p.b] {
        if annotated[k] {
            continue;
        }
        annotated[k] = true;
        let chart = if same_count { &p.single } else { &p.full };
        // The delay is the reason only where the chart alone would not put the less late
        // one first.
        let (rule, why) = match late_words(x, y) {
            Some(late) if chart.first != less_late(x, y) => late,
            _ => (chart.rule, chart.why.clone()),
        };
        for &e in &ev.by[k] {
            let e = &mut ev.list[e];
            if let EventKind::Routine { blow: 1, .. } = e.kind
                && e.segment.is_none()
            {
                e.rule = rule;
                e.why = crate::words!("{} ({})", e.why, why);
            }
        }
    }
}

/// Which of two opponents (A: `x`, B: `y`) hesitated less; B on equal delays.
fn less_late(x: &Declared, y: &Declared) -> First {
    if x.delay < y.delay {
        First::A
    } else {
        First::B
    }
}

/// When one of two opponents is later than the other (hesitation, a house rule's late
/// start), that is what orders them: the rule and the words, else none.
fn late_words(x: &Declared, y: &Declared) -> Option<(Rule, String)> {
    if x.delay == y.delay {
        return None;
    }
    let (late, prompt) = if x.delay > y.delay { (x, y) } else { (y, x) };
    // A charger's delay is in its arrival, which orders it already.
    if matches!(late.kind, ActionKind::Charge { .. }) {
        return None;
    }
    let (rule, how) = match late.late_by {
        None => (cite::DECLARE_HESITATION, "hesitated in declaring"),
        Some(by) => (by.rule(), by.why()),
    };
    let why = crate::words!(
        "{} is {} late: {how}",
        late.name,
        plural(late.delay - prompt.delay, "segment")
    );
    Some((rule, why))
}

/// Whether `act` is a turning or a non-combat act facing `foe`'s several routines: the
/// "first and last" of the charts (Higher #AT) is for attacks against attacks; a turning
/// goes by the die against them (TURN row: High d6, tied Same Time), and so does an act.
fn lone_act_against_routines(act: &Declared, foe: &Declared) -> bool {
    matches!(act.kind, ActionKind::Turn | ActionKind::Other) && foe.routines > 1
}

/// A turning or an act (`k`) against several routines (`j`): placed by the pair's
/// decision against the first routine, and before the later ones.
fn lone_act_by_die(g: &mut OrderGraph, ev: &Events, (k, j): (usize, usize), first: First) {
    for &ek in &ev.by[k] {
        for &ej in &ev.by[j] {
            match ev.list[ej].kind {
                EventKind::Routine { routine: 1, .. } => order(g, ek, ej, first),
                EventKind::Routine { .. } => {
                    g.before(ek, ej);
                }
                _ => {}
            }
        }
    }
}

/// Two non-casters: routines on earlier rows first; on the same row as single routines
/// would be ordered (initiative, then speed factor where it applies), with the faster
/// weapon's extra blows before the slower one (and a third with it).
fn by_rows(g: &mut OrderGraph, ev: &Events, p: &Pair, x: &Declared, y: &Declared) {
    if lone_act_against_routines(x, y) {
        return lone_act_by_die(g, ev, (p.a, p.b), p.full.first);
    }
    if lone_act_against_routines(y, x) {
        return lone_act_by_die(g, ev, (p.b, p.a), p.full.first.swapped());
    }
    for &ea in &ev.by[p.a] {
        for &eb in &ev.by[p.b] {
            let (Some(sa), Some(sb)) = (ev.slots[ea], ev.slots[eb]) else {
                continue;
            };
            if sa.row != sb.row {
                let first = if sa.row < sb.row { First::A } else { First::B };
                order(g, ea, eb, first);
                continue;
            }
            let rel = match p.single.extra {
                Some((w, e)) if sa.routine == 1 && sb.routine == 1 && x.routines == y.routines => {
                    let fast_sub = if w == First::A { sa.sub } else { sb.sub };
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
                _ => p.single.first,
            };
            order(g, ea, eb, rel);
        }
    }
}

/// Two members of one side, `k` and `j`: a routine of `k` on an earlier row of the chart
/// than one of `j` comes before it (a single routine between a comrade's first and last).
/// Casters and their spells are left to the rules that time them.
fn same_side_rows(
    g: &mut OrderGraph,
    ev: &Events,
    (k, x): (usize, &Declared),
    (j, y): (usize, &Declared),
) {
    if x.casting().is_some() || y.casting().is_some() {
        return;
    }
    for &ek in &ev.by[k] {
        for &ej in &ev.by[j] {
            if let (Some(sk), Some(sj)) = (ev.slots[ek], ev.slots[ej])
                && sk.row < sj.row
            {
                g.before(ek, ej);
            }
        }
    }
}

/// Events with earlier fixed segments before those with later ones (consecutive groups of
/// segments only: the graph carries the rest by transitivity).
fn by_fixed_segments(g: &mut OrderGraph, events: &[Event]) {
    let mut fixed: Vec<(u32, usize)> = events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| e.segment.map(|s| (s, i)))
        .collect();
    fixed.sort();
    let groups: Vec<&[(u32, usize)]> = fixed.chunk_by(|a, b| a.0 == b.0).collect();
    for w in groups.windows(2) {
        for &(_, a) in w[0] {
            for &(_, b) in w[1] {
                g.before(a, b);
            }
        }
    }
}

/// The groups of simultaneous events as beats, each with its segment (fixed or nominal),
/// its step and the beats directly before it; in an order that keeps every constraint
/// (nominal segment, then step).
fn to_beats(
    fight: usize,
    events: Vec<Event>,
    dag: &Dag,
    strikes_first: &dyn Fn(usize) -> bool,
) -> Vec<Beat> {
    let mut events: Vec<Option<Event>> = events.into_iter().map(Some).collect();
    let mut groups: Vec<Beat> = dag
        .events
        .iter()
        .map(|es| {
            let evs: Vec<Event> = es.iter().filter_map(|&e| events[e].take()).collect();
            Beat {
                beat: 0,
                fight,
                segment: evs.iter().filter_map(|e| e.segment).min(),
                nominal: 0,
                step: 0,
                after: Vec::new(),
                events: evs,
            }
        })
        .collect();
    let fixed: Vec<Option<u32>> = groups
        .iter()
        .map(|b| {
            let of = |arrive: bool| {
                b.events
                    .iter()
                    .filter(|e| (e.kind == EventKind::Arrive) == arrive)
                    .filter_map(|e| e.segment)
                    .min()
            };
            of(false).or_else(|| of(true))
        })
        .collect();
    // Segment 1 unless something says otherwise; an item of speed's first blow that nothing
    // precedes is at the very beginning of the round (segment 0).
    let floor: Vec<u32> = groups
        .iter()
        .enumerate()
        .map(|(g, b)| {
            let first = dag.pred[g].is_empty() && timeline::speed_item_blow(b, strikes_first);
            u32::from(!first)
        })
        .collect();
    let nominal = timeline::nominal(dag, &fixed, &floor);
    let step = timeline::steps(dag);
    let mut order: Vec<usize> = (0..groups.len()).collect();
    order.sort_by_key(|&g| (nominal[g], step[g], g));
    let mut pos = vec![0; groups.len()];
    for (k, &g) in order.iter().enumerate() {
        pos[g] = k + 1;
    }
    for (g, b) in groups.iter_mut().enumerate() {
        b.beat = pos[g];
        b.nominal = nominal[g];
        b.step = step[g];
        b.after = dag.pred[g].iter().map(|&p| pos[p]).collect();
        b.after.sort();
        b.after.dedup();
    }
    groups.sort_by_key(|b| b.beat);
    groups
}
