//! Declarations and pre-initiative actions (DMG p.65, p.71; UA p.18).

use super::cite::{self, Rule};
use super::options::HesitationRounding;

/// Segments of delay for a player's hesitation in declaring (DMG p.71): one segment per six
/// seconds.
pub fn hesitation_delay(seconds: u32, rounding: HesitationRounding) -> (u32, Rule) {
    let n = match rounding {
        HesitationRounding::WholeSegments => seconds / 6,
        HesitationRounding::PartSegmentsCount => seconds.div_ceil(6),
    };
    (n, cite::DECLARE_HESITATION)
}

/// A weapon specialist's readiness at the start of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Readied {
    /// A bow specialist with an arrow nocked and drawn.
    BowNocked,
    /// A crossbow specialist with the crossbow cocked and aimed.
    CrossbowCocked,
}

/// Whether a specialist gets a shot before initiative is rolled (UA p.18): the weapon must
/// be readied at the start of the round and the target in sight (bow) or in range (crossbow).
pub fn pre_initiative_shot(readied: Option<Readied>, target_in_sight: bool) -> Option<Rule> {
    match readied {
        Some(Readied::BowNocked) if target_in_sight => Some(cite::PRE_INITIATIVE_BOW),
        Some(Readied::CrossbowCocked) if target_in_sight => Some(cite::PRE_INITIATIVE_CROSSBOW),
        _ => None,
    }
}
