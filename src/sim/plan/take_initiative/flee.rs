//! Fleeing and pursuit (§4, §5). Turning to flee from a foe in melee (−2): on the fleer's
//! total each opponent in melee with it — standing within its reach at the round's start —
//! gets a free attack at +4 (from behind and as if stunned), then the fleer runs for its
//! point, covering its move by the end of the round. An opponent that acts first strikes
//! on its own total as well (4a); one that acts later finds the fleer gone (4b). Running on
//! with no foe in reach is a move (5a). A fleer whose total beats every pursuer's gains
//! 1" × its total, once a turn. A pursuer moving after a fleer ends the round at its reach
//! from where the fleer stops, if its move allows (5a); its blows at a fleer already
//! running are from behind (5b).

use super::{Build, allowance, push_rule};
use crate::rules::cite;
use crate::rules::movement::feet_per_round;
use crate::rules::take_initiative::flee::{burst_ready, extra_inches, in_melee};
use crate::scene::Act;
use crate::sim::components::Position;
use crate::sim::log::{EventKind, LogEvent};
use crate::sim::plan::{MoveTo, Planned, first_standing, gap, idle};

/// The opponents in melee with figure `i` at the round's start: within 1" of it, the
/// distance that forbids a charge too ([`in_melee`]).
pub(super) fn engaged(b: &Build, i: usize) -> Vec<usize> {
    let f = &b.figs[i];
    (0..b.figs.len())
        .filter(|&o| {
            let of = &b.figs[o];
            let aims = of.act.targets().iter().any(|t| *t == f.name());
            let near = in_melee(of.pos.distance(f.pos), gap(of, f) <= 0.0, aims).0;
            of.up() && of.side() != f.side() && !of.weapon.missile && near
        })
        .collect()
}

/// Whether figure `o` is at a spell this round: one declared, or one under way that is
/// no device's or potion's.
fn casting(b: &Build, o: usize) -> bool {
    let of = &b.figs[o];
    let planned = b.changes.casting.get(&o).and_then(Option::as_ref);
    let spell = |c: &crate::sim::components::Casting| !c.device && !c.potion;
    matches!(
        of.act,
        Act::Cast { device: false, .. } | Act::Cantrips { .. }
    ) || planned.is_some_and(spell)
        || (planned.is_none() && of.casting.is_some_and(spell))
}

/// The opponents after figure `i`: those in melee with it and those moving at it.
fn pursuers(b: &Build, i: usize) -> Vec<usize> {
    let near = engaged(b, i);
    let after = (0..b.figs.len()).filter(|&o| {
        let of = &b.figs[o];
        of.up()
            && of.side() != b.figs[i].side()
            && first_standing(b.figs, of.act) == Some(i)
            && !near.contains(&o)
    });
    let after: Vec<usize> = after.collect();
    near.into_iter().chain(after).collect()
}

/// Where fleer `i` stops this round, and the extra feet it gains by winning initiative
/// (none when it does not, or has gained already this turn).
pub(super) fn run_to(b: &Build, i: usize) -> (Position, f64) {
    let f = &b.figs[i];
    let Act::Flee { to } = f.act else {
        return (*f.pos, 0.0);
    };
    let s = b.acts.get(&i).copied().unwrap_or(u32::MAX);
    let won = pursuers(b, i)
        .iter()
        .all(|p| b.acts.get(p).is_none_or(|&tp| s < tp));
    let won = won && burst_ready(f.burst(), b.round);
    // Its total, not the segment it acts on: a total of 0 or less acts on segment 1 yet
    // gains nothing (1" x a total below 1).
    let total = b
        .early
        .get(&i)
        .map_or(i64::from(s.min(20)), |below| below + 1);
    let (inches, _) = extra_inches(total, won);
    let extra = feet_per_round(inches as f64, b.setting);
    let goal = Position { x: to.0, y: to.1 };
    let d = f.pos.distance(&goal);
    let covered = d.min(allowance(b, i, false) + extra);
    let at = f.pos.toward(&goal, covered);
    // The extra counts only if the run uses it.
    let used = (covered - allowance(b, i, false)).max(0.0);
    (at, used)
}

/// Figure `i` flees on segment `s`.
pub(super) fn flee(b: &mut Build, i: usize, s: u32) {
    let f = &b.figs[i];
    let name = f.name().to_string();
    let foes = engaged(b, i);
    for &o in &foes {
        // A caster at its spell starts no other action (Basics): no free swing.
        if casting(b, o) {
            let why = format!(
                "casts this round: no free attack at {name} as it turns to flee (a caster may stop, not start another action)"
            );
            let e = idle(
                b.when,
                &b.figs[o],
                Some(name.clone()),
                why,
                cite::TI_CHANGE_PRECLUDED,
            );
            b.events.push(e);
            continue;
        }
        // No weapon in hand yet (drawing, changing, picking one up, until its total), or
        // getting up off the floor all round: nothing to swing (§9c, App. B), as at a
        // charger's contact.
        if let Some((busy, rule)) = super::no_weapon_in_hand(b, o, s) {
            let why = format!("{busy}: no free attack at {name} as it turns to flee");
            let e = idle(b.when, &b.figs[o], Some(name.clone()), why, rule);
            b.events.push(e);
            continue;
        }
        let what = Planned::Strike {
            routine: 1,
            of: 1,
            blow: 1,
            charge: false,
            set: false,
            second: false,
            free: Some(name.clone()),
            adjust: Vec::new(),
        };
        let why = format!("a free attack at +4 as {name} turns to flee");
        // Before anything else in the segment: it comes as the fleer turns.
        push_rule(b, o, s, i64::MIN + 1, what, why, cite::TI_FLEE);
    }
    let (at, extra) = run_to(b, i);
    if extra > 0.0 {
        let why = format!(
            "wins initiative over its pursuers: gains {extra:.0} ft (1\" x its total), once a turn"
        );
        b.events.push(LogEvent::new(
            b.when,
            name,
            EventKind::Act,
            None,
            why,
            cite::TI_PURSUIT,
        ));
        b.bursts.push(i);
    }
    let covered = f.pos.distance(&at);
    let run = if foes.is_empty() {
        // No foe in reach: running on is a move (5a), there by its total.
        let before = s.saturating_sub(b.when.1).max(1);
        MoveTo(at, covered / f64::from(before), 0)
    } else {
        // Turned from its foes on its total, it runs for the rest of the round.
        let left = crate::rules::take_initiative::SEGMENTS
            .saturating_sub(s)
            .max(1);
        MoveTo(at, covered / f64::from(left), s)
    };
    b.changes.moving_to.insert(i, run);
    b.fleeing.push(i);
}

/// Where a figure moving at fleer `t` heads (5a): to its reach from where the fleer stops.
pub(super) fn chase_point(b: &Build, i: usize, t: usize) -> Option<Position> {
    if !matches!(b.figs[t].act, Act::Flee { .. }) {
        return None;
    }
    let end = if b.acts.contains_key(&t) {
        run_to(b, t).0
    } else {
        // A pursuer that changes its action mid-round (§4b): the fleer is already running
        // for where it stops (an outside tester's pursuer "reached" a fleer still beside it
        // and never moved).
        b.figs[t].moving_to.filter(|_| b.when.1 > 0)?.0
    };
    let f = &b.figs[i];
    Some(f.pos.short_of(&end, f.reach()))
}
