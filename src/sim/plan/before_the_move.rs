//! The side with initiative acts first (DMG p.61), and a tie is simultaneous (DMG p.63):
//! a blow of the winning or tied side at a foe already within reach, when that foe moves
//! off this round (a move, or a melee, close or charge at someone else more than 1"
//! beyond its reach), is struck in segment 1 before anyone moves — not after the foe has
//! walked out of reach. Likewise a first shot of the winning or tied side at a foe that
//! moves this round is loosed before it moves, at the range and in the light it stands in
//! (later shots keep their places). Under the book's system only; under the house rule of
//! parting shots the leaver draws its parting shot instead ([`super::house::parting_shots`]).

use super::build::RoundBuild;
use super::{PlanEntry, Planned, first_standing, gap};
use crate::rules::options::RulesSystem;
use crate::scene::Act;

/// Marks the blows of the winning or tied side at foes within reach who move off this
/// round: each is placed in segment 1, before movement, by the rule that puts it there —
/// every routine, for all of them would find the foe gone.
pub(super) fn winners_strike_before_losers_move(
    b: &RoundBuild,
    entries: &mut [PlanEntry],
    sight: Option<&crate::sim::Sightings>,
) {
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
        let one_foe = |targets: &Vec<String>| targets.len() == 1;
        let (melee, shot) = match striker.act {
            Act::Melee { targets, .. } => (one_foe(targets), false),
            Act::Missile { targets, .. } => (false, one_foe(targets)),
            _ => (false, false),
        };
        if !(melee || shot) || b.delay_of(a) > 0 || striker.slowed {
            continue;
        }
        let Some(t) = first_standing(b.figs, striker.act) else {
            continue;
        };
        let foe = &b.figs[t];
        if foe.side() == striker.side() || !foe.up() {
            continue;
        }
        let first_shot = matches!(e.what, Planned::Strike { routine: 1, .. });
        let early = if shot {
            // Its first shot only, and not one a rule of its own already places first (a
            // shot before initiative, the initial fire at a charger).
            first_shot && !before_anyone_moves(e) && moves_at_all(b, t) && aimable(b, a, t, sight)
        } else {
            gap(striker, foe) == 0.0 && moves_off(b, t, a)
        };
        if !early {
            continue;
        }
        // A shot's place is its side's die adjusted for Dexterity (DMG p.64), as the
        // round's order has it; a blow's, the die.
        let dex = if shot { striker.dex.adjustment() } else { 0 };
        let score = b.die_of(a) as i32 + dex;
        let Some(rule) =
            crate::rules::initiative::strikes_before_the_move(score, b.die_of(t) as i32)
        else {
            continue;
        };
        e.segment = 1;
        e.fixed = true;
        e.rule = rule;
        // Struck before anyone moves, it comes after nothing of its fight.
        e.after.clear();
        e.why = match e.what {
            Planned::Strike { routine, of, .. } if shot => crate::words!(
                "routine {routine} of {of}: loosed before {} moves",
                foe.name()
            ),
            Planned::Strike { routine, of, .. } => crate::words!(
                "routine {routine} of {of}: struck before {} moves off",
                foe.name()
            ),
            _ => e.why.clone(),
        };
    }
}

/// Whether figure `a` could shoot at figure `t` where both stand at the round's start: in
/// sight (on a map) and within long range. One that could not waits for its place in the
/// order, when the foe may have come into range or light.
fn aimable(b: &RoundBuild, a: usize, t: usize, sight: Option<&crate::sim::Sightings>) -> bool {
    let (f, foe) = (&b.figs[a], &b.figs[t]);
    let seen = sight.is_none_or(|s| s.sees(f.index(), foe.index()));
    let near = f
        .weapon
        .range_ft(b.setting)
        .is_none_or(|(_, _, long)| f.pos.distance(foe.pos) <= long);
    seen && near
}

/// Whether a rule of its own already plays the entry before anyone moves.
fn before_anyone_moves(e: &PlanEntry) -> bool {
    use crate::rules::cite::{MISSILE_BEATS_CHARGE, PRE_INITIATIVE_BOW, PRE_INITIATIVE_CROSSBOW};
    [
        MISSILE_BEATS_CHARGE,
        PRE_INITIATIVE_BOW,
        PRE_INITIATIVE_CROSSBOW,
    ]
    .contains(&e.rule)
}

/// Whether figure `t` moves this round: a move, flight or withdrawal, or a melee, close or
/// charge at a foe it is not yet in reach of.
fn moves_at_all(b: &RoundBuild, t: usize) -> bool {
    let f = &b.figs[t];
    match f.act {
        Act::Move { .. } | Act::Flee { .. } | Act::Withdraw { .. } => true,
        Act::Melee { .. } | Act::Close { .. } | Act::Charge { .. } => {
            first_standing(b.figs, f.act).is_some_and(|o| gap(f, &b.figs[o]) > 0.0)
        }
        _ => false,
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
