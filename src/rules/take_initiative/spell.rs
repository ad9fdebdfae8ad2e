//! Spells (Basics, Appendix B): casting begins at the round's start and goes off on the
//! caster's total, d10 + 6 + the spell's level (+8 + level without spell cards, at most
//! 20); a spell longer than a round keeps its own time. A caster damaged before the spell
//! goes off keeps it only if d20 − spell level + caster level − damage reaches its save vs.
//! spells.

use crate::rules::cite::{self, Rule};

/// The casting modifier: 6 (or 8 without spell cards) + the spell's level, at most 20.
pub fn casting_modifier(level: u32, spell_cards: bool) -> (i32, Rule) {
    let base = if spell_cards { 6 } else { 8 };
    ((base + level.min(20) as i32).min(20), cite::TI_SPELL)
}

/// Whether a damaged caster keeps the spell: d20 − spell level + caster level − damage at
/// or above its save vs. spells.
pub fn keeps_spell(
    d20: u32,
    spell_level: u32,
    caster_level: u32,
    damage: u32,
    save: u32,
) -> (bool, Rule) {
    let roll =
        i64::from(d20) - i64::from(spell_level) + i64::from(caster_level) - i64::from(damage);
    (roll >= i64::from(save), cite::TI_SPELL_SAVE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_casting_modifier_and_the_failure_save() {
        assert_eq!(casting_modifier(3, true).0, 9);
        assert_eq!(casting_modifier(3, false).0, 11);
        assert_eq!(casting_modifier(15, false).0, 20);
        // A 5th-level caster of a 3rd-level spell, 4 damage, saving on 12: needs 14+.
        assert!(keeps_spell(14, 3, 5, 4, 12).0);
        assert!(!keeps_spell(13, 3, 5, 4, 12).0);
    }
}
