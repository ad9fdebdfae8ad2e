//! The side with initiative acts first (DMG p.61), and a tie is simultaneous (DMG p.63):
//! a blow of the winning or tied side at a foe already within reach, when that foe moves
//! off this round (a move, or a melee, close or charge at someone else more than 1"
//! beyond its reach), is struck in segment 1 before anyone moves — not after the foe has
//! walked out of reach. Under the book's system only; under the house rule of parting shots the
//! leaver draws its parting shot instead ([`super::house::parting_shots`]).

use super::build::RoundBuild;
use super::{PlanEntry, Planned, first_standing, gap};
use crate::rules::options::RulesSystem;
use crate::scene::Act;

/// Marks the blows of the winning or tied side at foes within reach who move off this
/// round: each is placed in segment 1, before movement, by the rule that puts it there —
/// every routine, for all of them would find the foe gone.
pub(super) fn winners_strike_before_losers_move(b: &RoundBuild, entries: &mut [PlanEntry]) {
    if b.clock.system != RulesSystem::Book || b.options.house.parting_shots {
        return;
    }
    // Wherever the fight's order put them (a blow at a charger on someone else waits for
    // that charge's contact): the foe is gone after segment 1.
    for e in entries.iter_mut().filter(|e| plain_blow(e)) {
        let Some(a) = b.figs.iter().position(|f| Some(f.e) == e.actor) else {
            continue;
        };
        let striker = &b.figs[a];
        // One foe named: with more, a blow whose foe falls turns on the next, who may not
        // be in reach yet. A striker late in the round (hesitating, a short round) or
        // slowed (acting as the loser) has its own segment, which this does not overrule.
        let one_foe = matches!(striker.act, Act::Melee { targets, .. } if targets.len() == 1);
        if !one_foe || b.delay_of(a) > 0 || striker.slowed {
            continue;
        }
        let Some(t) = first_standing(b.figs, striker.act) else {
            continue;
        };
        let foe = &b.figs[t];
        let in_reach = gap(striker, foe) == 0.0;
        if foe.side() == striker.side() || !foe.up() || !in_reach || !moves_off(b, t, a) {
            continue;
        }
        let Some(rule) =
            crate::rules::initiative::strikes_before_the_move(b.die_of(a), b.die_of(t))
        else {
            continue;
        };
        e.segment = 1;
        e.fixed = true;
        e.rule = rule;
        // Struck before anyone moves, it comes after nothing of its fight.
        e.after.clear();
        e.why = crate::words!("{}: struck before {} moves off", e.why, foe.name());
    }
}

/// Whether figure `t` moves off from figure `a` this round: a move (not toward `a`), or a
/// melee, close or charge on someone else more than 1" beyond its reach, which it must
/// spend the round closing on (DMG p.66). A foe within 1" of its own target steps up to it
/// at the round's very beginning, in none of the round's time: that step is part of the
/// round's fighting, not moving off, and the blow falls where the order puts it.
fn moves_off(b: &RoundBuild, t: usize, a: usize) -> bool {
    let f = &b.figs[t];
    let striker = b.figs[a].name().as_str();
    match f.act {
        Act::Move { toward, .. } => toward.as_deref() != Some(striker),
        Act::Melee { .. } | Act::Close { .. } | Act::Charge { .. } => first_standing(b.figs, f.act)
            .is_some_and(|o| {
                o != a && !crate::rules::charge::melee_possible(gap(f, &b.figs[o]), b.setting).0
            }),
        _ => false,
    }
}

/// A blow of a plain melee: not a charge's, a set weapon's, a free attack's or a second
/// action's, each of which has rules of its own.
fn plain_blow(e: &PlanEntry) -> bool {
    matches!(
        e.what,
        Planned::Strike {
            charge: false,
            set: false,
            free: None,
            second: false,
            ..
        }
    )
}
