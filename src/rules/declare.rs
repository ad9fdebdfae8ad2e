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

/// Whether a figure may not begin the act it declares at a round's start, and by which
/// rule: under "Take Initiative!" an action carried over from the last round (a total over
/// 20) is finished first, and a caster may stop its spell but not start another act
/// (§Basics); under the book a spell begun in the surprise segments and still under way is
/// finished first (DMG p.61-62: the Example of Melee's cleric and druid "still occupied").
pub fn new_act_precluded(
    system: super::options::RulesSystem,
    carried_over: bool,
    spell_under_way: bool,
) -> Option<Rule> {
    use super::options::RulesSystem;
    match system {
        RulesSystem::TakeInitiative if carried_over || spell_under_way => {
            Some(cite::TI_CHANGE_PRECLUDED)
        }
        RulesSystem::TakeInitiative => None,
        _ => spell_under_way.then_some(cite::SPELL_UNDER_WAY),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::options::RulesSystem;

    /// Every combination: something under way always precludes a new act under the
    /// variant; under the book only a spell under way does (a total carried over is the
    /// variant's alone); nothing under way never does.
    #[test]
    fn only_what_is_under_way_precludes_a_new_act() {
        for carried in [false, true] {
            for spell in [false, true] {
                let ti = new_act_precluded(RulesSystem::TakeInitiative, carried, spell);
                assert_eq!(ti.is_some(), carried || spell);
                let book = new_act_precluded(RulesSystem::Book, carried, spell);
                assert_eq!(book, spell.then_some(cite::SPELL_UNDER_WAY));
            }
        }
    }
}
