//! Hiding in shadows (§10; PHB p.27-28, DMG p.19): +8 initiative; on its total a figure
//! that no foe observes rolls d% under its chance and, if it succeeds, is hidden. A hidden
//! figure that attacks strikes a foe unaware of it — which may then change its action
//! (10a, 10c) — and is hidden no longer. A hidden charger meets a foe that has not yet
//! acted at contact by weapon length; one that has acted gets no blow back (10b).

use crate::rules::cite::{self, Rule};

/// Why a try to hide fails, or that it succeeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hiding {
    /// Hidden.
    Hidden,
    /// A foe is watching: no hiding under direct observation.
    Observed,
    /// The roll was over the chance.
    Failed,
    /// The figure has no chance to hide given.
    NoChance,
}

/// A try to hide: observed or not, the d% roll and the chance (percent).
pub fn hide(observed: bool, d100: u32, chance: Option<u32>) -> (Hiding, Rule) {
    let h = match chance {
        _ if observed => Hiding::Observed,
        None => Hiding::NoChance,
        Some(c) if d100 <= c => Hiding::Hidden,
        Some(_) => Hiding::Failed,
    };
    (h, cite::TI_HIDE)
}

/// Whether a foe charged by a hidden figure strikes back at contact (10b): only if it has
/// not yet acted when the charge arrives.
pub fn strikes_back_unaware(own_total: i64, contact: i64) -> (bool, Rule) {
    (own_total >= contact, cite::TI_HIDE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hiding() {
        assert_eq!(hide(false, 30, Some(30)).0, Hiding::Hidden);
        assert_eq!(hide(false, 31, Some(30)).0, Hiding::Failed);
        assert_eq!(hide(true, 1, Some(99)).0, Hiding::Observed);
        assert_eq!(hide(false, 1, None).0, Hiding::NoChance);
        assert!(strikes_back_unaware(9, 9).0);
        assert!(!strikes_back_unaware(8, 9).0);
    }
}
