//! Missiles (§8, note 1): a missile's speed in place of a speed factor (nocked and ready 1,
//! arrows 7, quarrels 10, darts 2, other thrown objects 4), less the Dexterity attacking
//! bonus; −2 to hit at medium range and −5 at long, measured on the initiative (or after
//! movement for one who moved); half the rate of fire when moving; of two moving to fire at
//! declared ranges, the one that chose the farther fires first (8c).

use crate::rules::cite::{self, Rule};

/// A missile's range band.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Band {
    /// Short range.
    Short,
    /// Medium range.
    Medium,
    /// Long range.
    Long,
}

/// The penalty to hit at a range band.
pub fn range_penalty(band: Band) -> (i32, Rule) {
    let p = match band {
        Band::Short => 0,
        Band::Medium => -2,
        Band::Long => -5,
    };
    (p, cite::TI_RANGED)
}

/// The rate of fire: halved (rounded down, at least one shot every other round is left to
/// the attack rate) when the archer moves.
pub fn rate_when_moving(shots: u32, moving: bool) -> (u32, Rule) {
    (if moving { shots / 2 } else { shots }, cite::TI_RANGED)
}

/// Which of two figures moving to fire at declared ranges fires first (8c): the farther
/// range; `None` when they chose the same.
pub fn farther_first(a_range_ft: f64, b_range_ft: f64) -> (Option<bool>, Rule) {
    let first = if a_range_ft > b_range_ft {
        Some(true)
    } else if b_range_ft > a_range_ft {
        Some(false)
    } else {
        None
    };
    (first, cite::TI_FARTHEST_FIRST)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_rates_and_the_farther_first() {
        assert_eq!(range_penalty(Band::Medium).0, -2);
        assert_eq!(range_penalty(Band::Long).0, -5);
        assert_eq!(rate_when_moving(2, true).0, 1);
        assert_eq!(rate_when_moving(2, false).0, 2);
        assert_eq!(farther_first(120.0, 60.0).0, Some(true));
        assert_eq!(farther_first(60.0, 60.0).0, None);
    }
}
