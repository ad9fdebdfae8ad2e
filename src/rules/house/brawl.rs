//! Weaponless combat (house rules, "Weaponless Combat"): hands (1d4) and feet (1d6) are
//! scored like any weapon, every figure proficient with them; half the damage is subdual
//! and half real. A monk's is all real, or all subdual if it chooses. Subdual damage is
//! kept apart from hit points; our reading: when it reaches the hit points left, the figure
//! is knocked out — unconscious, but not dying.

use crate::rules::cite::{self, Rule};

/// A brawling blow's damage, split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrawlSplit {
    /// Off the hit points.
    pub real: i32,
    /// Kept as subdual damage.
    pub subdual: i32,
}

/// How a brawling blow of `damage` splits: half real and half subdual (an odd point goes
/// to the subdual half, our reading); a monk's all real, or all subdual by choice.
pub fn split_brawl(damage: i32, monk: bool, all_subdual: bool) -> (BrawlSplit, Rule) {
    let damage = damage.max(0);
    let split = match (monk, all_subdual) {
        (true, false) => BrawlSplit {
            real: damage,
            subdual: 0,
        },
        (true, true) => BrawlSplit {
            real: 0,
            subdual: damage,
        },
        (false, _) => BrawlSplit {
            real: damage / 2,
            subdual: damage - damage / 2,
        },
    };
    (split, cite::HOUSE_BRAWL)
}

/// Whether `subdual` damage knocks out a figure with `hp` hit points left.
pub fn knocked_out(hp: i32, subdual: i32) -> (bool, Rule) {
    (hp > 0 && subdual >= hp, cite::HOUSE_SUBDUED)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_halves_add_up_and_a_monk_chooses() {
        for d in 0..=12 {
            let (s, _) = split_brawl(d, false, false);
            assert_eq!(s.real + s.subdual, d);
            assert!(s.subdual - s.real <= 1 && s.subdual >= s.real);
            assert_eq!(split_brawl(d, false, true).0, s, "only a monk chooses");
            assert_eq!(split_brawl(d, true, false).0.real, d);
            assert_eq!(split_brawl(d, true, true).0.subdual, d);
        }
        assert!(knocked_out(5, 5).0 && !knocked_out(5, 4).0 && !knocked_out(0, 9).0);
    }
}
