//! Parrying (§3): a figure that parries in place of attacking takes half its level
//! (rounded up, +1 for a single-classed fighter) off the rolls to hit of the attackers it
//! names whose totals come after its base initiative — all on the first of them, or, for a
//! fighter, spread over them. Missiles are not parried (monks aside, not modelled).

use super::Build;
use crate::rules::take_initiative::parry;
use crate::scene::Act;

/// Each parry this round: (attacker, parrier, penalty to hit).
pub(super) fn parries(b: &Build) -> Vec<(String, String, i32)> {
    let mut out = Vec::new();
    for (p, f) in b.figs.iter().enumerate() {
        let (Act::Parry { against }, Some(&base)) = (f.act, b.bases.get(&p)) else {
            continue;
        };
        // The attackers it names that come at it in melee after its base initiative.
        let in_time: Vec<&str> = against
            .iter()
            .filter_map(|a| {
                let k = b.figs.iter().position(|g| g.name() == a)?;
                let g = &b.figs[k];
                let total = i64::from(*b.acts.get(&k)?);
                let at_it = g.act.targets().contains(&f.name());
                // Monks and blows from behind are not modelled: front, no monk.
                let meets = parry::applies(g.weapon.missile, false, false);
                (at_it && meets && parry::in_time(base, total).0).then_some(g.name())
            })
            .collect();
        let whole = parry::penalty(f.level().unwrap_or(1), f.fighter());
        let shares = parry::spread(whole, in_time.len(), f.fighter());
        for (a, pen) in in_time.into_iter().zip(shares) {
            if pen > 0 {
                out.push((a.to_string(), f.name().to_string(), pen));
            }
        }
    }
    out
}
