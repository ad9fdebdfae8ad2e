//! A missile's range (PHB p.38): a weapon's short, medium and long range; -2 to hit at
//! medium range, -5 at long, and no shot past long range. The same bands and numbers
//! under either system ("Take Initiative!" §8 repeats them, measured at its own moment):
//! only the rule cited differs. So does Dexterity's adjustment to hit with a missile
//! (PHB p.11; §8), the other number a shot adds for what it is.

use crate::rules::cite::{self, Rule};
use crate::rules::options::RulesSystem;
use crate::rules::take_initiative::ranged;

/// The to-hit adjustment of a shot at `distance_ft` with a weapon's limits of short,
/// medium and long range in feet, its words ("medium range at 90 ft") and the rule of
/// `system`; an error, in words, past long range (no shot).
pub fn penalty_at(
    system: RulesSystem,
    distance_ft: f64,
    limits: (f64, f64, f64),
) -> Result<(i32, String, Rule), String> {
    let (value, words, _) = ranged::penalty_at(distance_ft, limits)?;
    Ok((value, words, rule_of(system)))
}

/// The rule that puts a range penalty under `system`.
pub fn rule_of(system: RulesSystem) -> Rule {
    match system {
        RulesSystem::TakeInitiative => cite::TI_RANGED,
        _ => cite::MISSILE_RANGE,
    }
}

/// A missile's to-hit adjustment for Dexterity (PHB p.11: the reaction/attacking
/// adjustment counts to hit with missiles, a penalty as well as a bonus), under the book's
/// rules; "Take Initiative!" §8 says the same under its own rule.
pub fn missile_to_hit(
    reaction: i32,
    system: crate::rules::options::RulesSystem,
) -> (i32, crate::rules::cite::Rule) {
    match system {
        crate::rules::options::RulesSystem::TakeInitiative => {
            crate::rules::take_initiative::ranged::dexterity_to_hit(reaction)
        }
        crate::rules::options::RulesSystem::Book => {
            (reaction, crate::rules::cite::MISSILE_DEX_TO_HIT)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same numbers under both systems, each citing its own rule: 0 up to short
    /// range, -2 to medium, -5 to long, no shot past it.
    #[test]
    fn both_systems_share_the_bands() {
        let limits = (60.0, 120.0, 180.0);
        for system in [RulesSystem::Book, RulesSystem::TakeInitiative] {
            for (d, want) in [
                (10.0, Some(0)),
                (60.0, Some(0)),
                (61.0, Some(-2)),
                (120.0, Some(-2)),
                (150.0, Some(-5)),
                (180.0, Some(-5)),
                (181.0, None),
            ] {
                let got = penalty_at(system, d, limits);
                assert_eq!(got.as_ref().ok().map(|g| g.0), want, "{system:?} at {d}");
                if let Ok((_, _, rule)) = got {
                    assert_eq!(rule, rule_of(system));
                }
            }
        }
        assert_eq!(rule_of(RulesSystem::Book).page, "38");
    }
}
