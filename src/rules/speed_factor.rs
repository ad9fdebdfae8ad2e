//! Weapon speed factor (DMG p.66): when it breaks a tie, and the extra blows a much
//! faster weapon earns.

use super::cite::{self, Rule};
use serde::Serialize;

/// Where the melee stands this round, for the speed-factor conditions (DMG p.66).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
pub enum MeleeRound {
    /// Melee continues from an earlier round, or began without closing: speed factors apply.
    #[default]
    Continuing,
    /// The first round of blows after a round spent closing: no speed factors.
    FirstAfterClosing,
}

/// Extra blows for the faster weapon when speed factor decides (DMG p.66).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Extra {
    /// Two blows before the slower weapon's first.
    TwoBefore,
    /// Two blows before, and a third together with the slower weapon's first.
    TwoBeforeOneTogether,
}

impl Extra {
    /// How many blows the faster weapon makes in that place of the sequence.
    pub fn blows(self) -> u32 {
        match self {
            Extra::TwoBefore => 2,
            Extra::TwoBeforeOneTogether => 3,
        }
    }
    /// The rule.
    pub fn rule(self) -> Rule {
        match self {
            Extra::TwoBefore => cite::SPEED_FACTOR_DOUBLE,
            Extra::TwoBeforeOneTogether => cite::SPEED_FACTOR_TRIPLE,
        }
    }
}

/// The extra blows earned by a weapon of speed factor `lower` against one of `higher`
/// (DMG p.66): a difference of 10 or more gives two before and one together; of 5 or more,
/// or at least twice the lower factor, two before.
pub fn extra_blows(lower: u32, higher: u32) -> Option<Extra> {
    let diff = higher.saturating_sub(lower);
    if diff == 0 {
        None
    } else if diff >= 10 {
        Some(Extra::TwoBeforeOneTogether)
    } else if diff >= 5 || diff >= 2 * lower {
        Some(Extra::TwoBefore)
    } else {
        None
    }
}

/// Whether speed factor may break a tie between two melee figures (DMG p.66): initiative
/// tied, both with weapons that have speed factors, both with an odd or both with an even
/// number of routines, and not a round of closing or charging.
pub fn speed_factor_applies(
    tied: bool,
    a_sf: Option<u32>,
    b_sf: Option<u32>,
    a_routines: u32,
    b_routines: u32,
    round: MeleeRound,
) -> (bool, Rule) {
    if round == MeleeRound::FirstAfterClosing {
        return (false, cite::SPEED_FACTOR_CLOSING);
    }
    let ok = tied && a_sf.is_some() && b_sf.is_some() && a_routines % 2 == b_routines % 2;
    (ok, cite::SPEED_FACTOR)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds() {
        assert_eq!(extra_blows(2, 13), Some(Extra::TwoBeforeOneTogether));
        assert_eq!(extra_blows(4, 13), Some(Extra::TwoBefore));
        assert_eq!(extra_blows(2, 4), None);
        assert_eq!(extra_blows(5, 7), None);
        assert_eq!(extra_blows(1, 3), Some(Extra::TwoBefore));
        assert_eq!(extra_blows(6, 11), Some(Extra::TwoBefore));
        assert_eq!(extra_blows(6, 10), None);
        assert_eq!(extra_blows(3, 13), Some(Extra::TwoBeforeOneTogether));
        assert_eq!(extra_blows(3, 12), Some(Extra::TwoBefore));
    }
}
