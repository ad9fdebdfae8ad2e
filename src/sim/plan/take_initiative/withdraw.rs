//! Withdrawing (§6) and blocking a pursuit (§7). On its total a withdrawing figure backs
//! off toward its point at half its move, drawing no free attack. An opponent in melee
//! with it that attacks it follows (up to its full move) and the two are still in melee:
//! if the opponent acted first it has struck already and follows at once, and the figure
//! strikes it; if the figure won, the opponent follows on its own total and the figure
//! strikes first. A friend of the figure in melee with the pursuer blocks: acting before
//! the pursuer it shuts the way (the pursuer strikes it instead), otherwise it strikes the
//! pursuer from behind as it turns to follow.

use super::{Build, allowance, push_rule};
use crate::rules::movement::feet_per_round;
use crate::rules::take_initiative::flee::{
    Follow, blocker_blow, follow, in_melee, withdraw_inches,
};
use crate::scene::Act;
use crate::sim::components::Position;
use crate::sim::log::{EventKind, LogEvent};
use crate::sim::plan::{Adjust, MoveTo, Planned, first_standing, gap};

/// Every withdrawal this round, after all figures have their slots.
pub(super) fn withdrawals(b: &mut Build) {
    for (i, s) in b.acting(|a| matches!(a, Act::Withdraw { .. })) {
        withdraw(b, i, s);
    }
}

/// Where figure `i` backs off to: toward its point, at most half its move, and never into
/// a space an opponent holds (§6 note a): it stops at the edge of the first one in its way,
/// which is named.
fn back_to(b: &Build, i: usize) -> (Position, Option<usize>) {
    let f = &b.figs[i];
    let Act::Withdraw { to } = f.act else {
        return (*f.pos, None);
    };
    let half = feet_per_round(withdraw_inches(f.movement.inches).0, b.setting);
    let goal = Position { x: to.0, y: to.1 };
    let length = f.pos.distance(&goal).min(half);
    let blocked = (0..b.figs.len())
        .filter(|&o| b.figs[o].up() && b.figs[o].side() != f.side())
        .filter_map(|o| Some((entry_along(*f.pos, goal, *b.figs[o].pos)?, o)))
        .filter(|&(t, _)| t < length)
        .min_by(|a, b| a.0.total_cmp(&b.0));
    match blocked {
        Some((t, o)) => (f.pos.toward(&goal, t), Some(o)),
        None => (f.pos.toward(&goal, half), None),
    }
}

/// Half the side of the 5-ft space a figure holds.
const SPACE_FT: f64 = 2.5;

/// How far along the line from `from` toward `to` it first enters the space of a figure
/// standing at `at`, if it does (not counting a space it starts in).
fn entry_along(from: Position, to: Position, at: Position) -> Option<f64> {
    let len = from.distance(&to);
    if len <= 0.0 {
        return None;
    }
    let (dx, dy) = ((to.x - from.x) / len, (to.y - from.y) / len);
    let (cx, cy) = (at.x - from.x, at.y - from.y);
    let along = cx * dx + cy * dy;
    let off = (cx * dy - cy * dx).abs();
    if off >= SPACE_FT {
        return None;
    }
    let entry = along - (SPACE_FT * SPACE_FT - off * off).sqrt();
    (entry > 0.0).then_some(entry)
}

/// Figure `i` withdraws on segment `s`; its pursuers follow, its friends block.
fn withdraw(b: &mut Build, i: usize, s: u32) {
    let (dest, stopped_by) = back_to(b, i);
    let f = &b.figs[i];
    if let Some(o) = stopped_by {
        let why = format!(
            "stops at the edge of {}'s space: a withdrawal cannot go into a space an opponent holds",
            b.figs[o].name()
        );
        b.events.push(LogEvent::new(
            b.when,
            f.name(),
            EventKind::Act,
            Some(b.figs[o].name().clone()),
            why,
            crate::rules::cite::TI_WITHDRAW,
        ));
    }
    b.changes
        .moving_to
        .insert(i, MoveTo(dest, f.pos.distance(&dest), s.saturating_sub(1)));
    let mut pursuers: Vec<usize> = (0..b.figs.len())
        .filter(|&p| {
            let pf = &b.figs[p];
            pf.up()
                && pf.side() != f.side()
                && matches!(pf.act, Act::Melee { .. })
                && first_standing(b.figs, pf.act) == Some(i)
                // In melee with it: within reach, or within 1" with its blows aimed at
                // it (an outside tester's second attacker, a step away, never followed).
                && in_melee(pf.pos.distance(f.pos), gap(pf, f) <= 0.0, true).0
                && b.acts.contains_key(&p)
        })
        .collect();
    // The first to follow is the one it strikes: one blow a round (App. A).
    pursuers.sort_by_key(|p| (b.acts[p], *p));
    let mut strikes_back = !super::parry::parries_too(b, i);
    for p in pursuers {
        strikes_back &= !pursue(b, i, s, p, dest, strikes_back);
    }
}

/// Pursuer `p` after figure `i`, withdrawing to `dest` on segment `s`; whether it
/// follows. The figure strikes it if `strikes_back` (no follower before it was struck).
fn pursue(b: &mut Build, i: usize, s: u32, p: usize, dest: Position, strikes_back: bool) -> bool {
    let tp = b.acts[&p];
    let blocker = blocker(b, i, p);
    let tb = blocker.map(|k| i64::from(b.acts[&k]));
    let (how, rule) = follow(i64::from(s), i64::from(tp), tb, b.rules.blocked_pursuer);
    let (wname, pname) = (b.figs[i].name().to_string(), b.figs[p].name().to_string());
    if how == Follow::Blocked {
        let k = blocker.expect("a blocked pursuit has a blocker");
        let kname = b.figs[k].name().to_string();
        b.changes.intent.insert(p, Act::melee_at(&kname));
        let why = if tb.is_some_and(|t| t < i64::from(tp)) {
            format!("{kname} shuts the way after {wname}: {pname} strikes {kname} instead")
        } else {
            format!(
                "turns its attack from {wname} to {kname}, who blocks its way (the blocked_pursuer reading)"
            )
        };
        b.events.push(LogEvent::new(
            b.when,
            pname,
            EventKind::Idle,
            Some(kname.into()),
            why,
            rule,
        ));
        return false;
    }
    // Follows to stay in reach of the figure where it stops, up to its full move.
    let pf = &b.figs[p];
    let d = pf.pos.distance(&dest);
    let need = (d - pf.reach()).max(0.0);
    if need > allowance(b, p, false) {
        return false;
    }
    let at = pf.pos.toward(&dest, need);
    let follows = if how == Follow::AtOnce { s } else { tp };
    b.changes
        .moving_to
        .insert(p, MoveTo(at, need.max(1e-9), follows.saturating_sub(1)));
    // Its step toward where the figure stood goes with it: it follows instead.
    b.changes.closing.insert(p, None);
    // The figure's blow at its first follower; on the pursuer's own total, the figure
    // first. A figure that parries as it withdraws strikes no blow: the parry is its
    // attack (§3).
    if strikes_back {
        b.changes.intent.insert(i, Act::melee_at(&pname));
        let why = format!("{pname} follows it, still in melee: it strikes");
        push_rule(
            b,
            i,
            follows,
            1,
            Planned::single_blow(Vec::new()),
            why,
            rule,
        );
    }
    if how == Follow::OnItsTotal {
        b.slots.retain(|(_, _, e)| !e.is_blow_by(b.figs[p].e));
        let why = format!("follows {wname} on its total and strikes, after it");
        push_rule(b, p, tp, 2, Planned::single_blow(Vec::new()), why, rule);
    }
    if let Some(k) = blocker {
        block(b, k, p, follows);
    }
    true
}

/// The blocker `k`'s one blow at pursuer `p` as it follows in segment `follows`.
fn block(b: &mut Build, k: usize, p: usize, follows: u32) {
    let tk = b.acts[&k];
    let (bonus, rule) = blocker_blow(i64::from(tk), i64::from(follows));
    let Some(bonus) = bonus else { return };
    let ke = b.figs[k].e;
    b.slots.retain(|(_, _, e)| !e.is_blow_by(ke));
    let adjust = vec![Adjust {
        value: bonus,
        why: "from behind, as it follows".into(),
        rule,
    }];
    let why = format!("strikes {} as it turns to follow", b.figs[p].name());
    push_rule(b, k, follows, 0, Planned::single_blow(adjust), why, rule);
}

/// A friend of figure `i` in melee with pursuer `p`, attacking it.
fn blocker(b: &Build, i: usize, p: usize) -> Option<usize> {
    let pf = &b.figs[p];
    (0..b.figs.len()).find(|&k| {
        let kf = &b.figs[k];
        k != i
            && kf.up()
            && kf.side() == b.figs[i].side()
            && matches!(kf.act, Act::Melee { .. })
            && first_standing(b.figs, kf.act) == Some(p)
            && gap(kf, pf) <= 0.0
            && b.acts.contains_key(&k)
    })
}
