//! Critical hits and misses (house rules, "Critical Hits" and "Critical Misses"), and the
//! confirmation of a critical from "Take Initiative!" §3.

use super::HouseRules;
use crate::rules::cite::{self, Rule};
use serde::Serialize;

/// How many times its damage a blow does, for the natural d20 it rolled: twice on a
/// natural 20 under the house rule of critical hits, else once (and no rule to cite).
pub fn critical_multiplier(natural: i32, house: HouseRules) -> (i32, Option<Rule>) {
    if house.critical_hits && natural == 20 {
        (2, Some(cite::HOUSE_CRITICAL_HIT))
    } else {
        (1, None)
    }
}

/// Confirming a critical ("Take Initiative!" §3): the second d20, less the parry against
/// the blow and with none of the attacker's to-hit bonuses, against the number the blow
/// needed. Whether the natural 20 stands as a critical.
pub fn confirms_critical(second_d20: i32, parry: i32, needed: i32) -> (bool, Rule) {
    (second_d20 - parry >= needed, cite::HOUSE_CONFIRM_CRITICAL)
}

/// What a fumble does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fumble {
    /// A plain miss.
    Miss,
    /// The weapon flies from the hand, d3 squares in a d8 direction.
    Thrown,
    /// The weapon breaks.
    Broken,
}

/// A fumble (house rules, "Critical Misses"): after a natural 1 to hit, a second d20 plus
/// the weapon's magic bonus. Over 10 the blow simply misses; under 10 the weapon is thrown;
/// 3 or less it breaks instead. The text says nothing of exactly 10: our reading makes it
/// a plain miss, since only a result *under* 10 costs the weapon. Returns the outcome and
/// the modified roll.
pub fn fumble(second_d20: i32, magic: i32) -> (Fumble, i32, Rule) {
    let total = second_d20.saturating_add(magic);
    let outcome = if total <= 3 {
        Fumble::Broken
    } else if total < 10 {
        Fumble::Thrown
    } else {
        Fumble::Miss
    };
    (outcome, total, cite::HOUSE_FUMBLE)
}

/// The eight directions of the d8, clockwise from north (1 = north, up the map: x runs
/// east, y south), as unit steps of one square.
pub const DIRECTIONS: [(&str, (f64, f64)); 8] = [
    ("north", (0.0, -1.0)),
    ("north-east", (1.0, -1.0)),
    ("east", (1.0, 0.0)),
    ("south-east", (1.0, 1.0)),
    ("south", (0.0, 1.0)),
    ("south-west", (-1.0, 1.0)),
    ("west", (-1.0, 0.0)),
    ("north-west", (-1.0, -1.0)),
];

/// Where a thrown weapon lands: `d3` squares of [`super::SQUARE_FT`] from `from` in the
/// direction of the `d8` ([`DIRECTIONS`]; a diagonal square counts as one square, as on
/// the grid). Returns the point in feet and the direction's name.
pub fn fumble_lands(from: (f64, f64), d3: u32, d8: u32) -> ((f64, f64), &'static str) {
    let (name, (dx, dy)) = DIRECTIONS[(d8.clamp(1, 8) - 1) as usize];
    let feet = f64::from(d3.clamp(1, 3)) * super::SQUARE_FT;
    ((from.0 + dx * feet, from.1 + dy * feet), name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_second_roll_and_magic_gives_one_outcome_by_the_thresholds() {
        for d in 1..=20 {
            for magic in 0..=5 {
                let (out, total, rule) = fumble(d, magic);
                assert_eq!(total, d + magic);
                let expected = match d + magic {
                    t if t <= 3 => Fumble::Broken,
                    t if t < 10 => Fumble::Thrown,
                    _ => Fumble::Miss,
                };
                assert_eq!(out, expected, "d20 {d} + {magic}");
                assert_eq!(rule.id, "house.fumble");
            }
        }
        // The named case: exactly 10 is a plain miss.
        assert_eq!(fumble(10, 0).0, Fumble::Miss);
        assert_eq!(fumble(9, 0).0, Fumble::Thrown);
        assert_eq!(fumble(3, 0).0, Fumble::Broken);
        assert_eq!(fumble(3, 1).0, Fumble::Thrown, "magic saves the weapon");
    }

    #[test]
    fn a_thrown_weapon_lands_one_to_three_squares_away() {
        for d3 in 1..=3 {
            for d8 in 1..=8 {
                let (at, _) = fumble_lands((50.0, 50.0), d3, d8);
                // Squares on the grid: the larger of the two offsets, in squares.
                let squares = (at.0 - 50.0).abs().max((at.1 - 50.0).abs()) / 5.0;
                assert_eq!(squares, f64::from(d3), "d3 {d3}, d8 {d8}");
            }
        }
        assert_eq!(fumble_lands((0.0, 0.0), 2, 1), ((0.0, -10.0), "north"));
        assert_eq!(fumble_lands((0.0, 0.0), 1, 4), ((5.0, 5.0), "south-east"));
    }
}
