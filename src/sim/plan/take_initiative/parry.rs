//! Parrying (§3): a figure that parries in place of attacking takes half its level
//! (rounded up, +1 for a single-classed fighter) off the rolls to hit of the attackers it
//! names whose totals come after its base initiative — all on the first of them, or, for a
//! fighter, spread over them. Missiles are parried by monks alone, and nothing from
//! behind: our reading faces the parrier toward the first attacker it names
//! (rules::take_initiative::parry::from_behind).

use super::Build;
use crate::rules::take_initiative::parry;
use crate::scene::Act;

/// Whether figure `i` adds the parry row to its action this round (§6 note b: beside a
/// withdrawal).
pub(super) fn parries_too(b: &Build, i: usize) -> bool {
    b.extra
        .get(&i)
        .is_some_and(|ids| ids.iter().any(|id| id == "parry"))
}

/// Whom figure `p` parries this round: those it names in a parry; withdrawing with the
/// parry row (§6 note b: the two go together), every opponent that comes at it.
fn parried_foes(b: &Build, p: usize) -> Option<Vec<String>> {
    let f = &b.figs[p];
    match f.act {
        Act::Parry { against } => Some(against.clone()),
        Act::Withdraw { .. } if parries_too(b, p) => {
            let foes = b.figs.iter().filter(|g| {
                g.up() && g.side() != f.side() && g.act.targets().contains(&f.name().as_str())
            });
            Some(foes.map(|g| g.name().to_string()).collect())
        }
        _ => None,
    }
}

/// Each parry this round, attack by attack: ((attacker, its routine, the attack within
/// it), parrier, penalty to hit). A parry meets one attack — one claw of a claw/claw/bite,
/// one of two weapons; a single-classed fighter spreads it over every attack coming at it
/// in time (§3: "divided across attacks").
pub(super) fn parries(b: &Build) -> Vec<((String, u32, u32), String, i32)> {
    let mut out = Vec::new();
    for (p, f) in b.figs.iter().enumerate() {
        let (Some(against), Some(&base)) = (parried_foes(b, p), b.bases.get(&p)) else {
            continue;
        };
        // It faces the first attacker it names that stands (our reading of the rear).
        let facing = against
            .iter()
            .find_map(|a| b.figs.iter().find(|g| g.name() == a && g.up()))
            .map(|g| (g.pos.x - f.pos.x, g.pos.y - f.pos.y));
        // The attackers it names that come at it after its base initiative, not from
        // behind, and not with missiles unless it is a monk.
        let in_time: Vec<&str> = against
            .iter()
            .filter_map(|a| {
                let k = b.figs.iter().position(|g| g.name() == a)?;
                let g = &b.figs[k];
                let total = i64::from(*b.acts.get(&k)?);
                let at_it = g.act.targets().contains(&f.name().as_str());
                let to_it = (g.pos.x - f.pos.x, g.pos.y - f.pos.y);
                let behind = facing.is_some_and(|d| parry::from_behind(d, to_it).0);
                let meets = parry::applies(g.weapon.missile, f.monk(), behind);
                (at_it && meets && parry::in_time(base, total).0).then_some(g.name().as_str())
            })
            .collect();
        // Each attack of each attacker in time, in the order they are named.
        let attacks: Vec<(&str, u32, u32)> = in_time
            .iter()
            .flat_map(|&a| {
                let g = b.figs.iter().find(|g| g.name() == a);
                let routines = g.map_or(1, |g| g.routines_this_round(b.alternating));
                let each = g.map_or(1, |g| match g.weapon.missile {
                    true => 1,
                    false => g.attacks_per_routine(),
                });
                (1..=routines).flat_map(move |r| (1..=each).map(move |k| (a, r, k)))
            })
            .collect();
        let whole = parry::penalty(f.level().unwrap_or(1), f.fighter());
        let shares = parry::spread(whole, attacks.len(), f.fighter());
        for ((a, r, k), pen) in attacks.into_iter().zip(shares) {
            if pen > 0 {
                out.push(((a.to_string(), r, k), f.name().to_string(), pen));
            }
        }
    }
    out
}
