//! Spells (Basics, Appendix B): casting begins at the round's start and goes off on the
//! caster's total, d10 + 6 + the spell's level (+8 + level without spell cards, at most
//! 20); a spell longer than a round keeps its own time. A caster damaged before the spell
//! goes off keeps it only if d20 − spell level + caster level − damage reaches its save vs.
//! spells. A caster has no Dexterity bonus to its AC in the round it casts (§9d).

use crate::rules::cite::{self, Rule};

/// Whether the table plays with spell cards (App. B note 6): without them casting costs
/// +8 + the spell's level instead of +6 + level. A table's choice: a named option.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum SpellCards {
    /// With spell cards: +6 + level.
    #[default]
    With,
    /// Without: +8 + level, at most 20.
    Without,
}

/// The casting modifier: 6 (or 8 without spell cards) + the spell's level, at most 20.
pub fn casting_modifier(level: u32, spell_cards: bool) -> (i32, Rule) {
    let base = if spell_cards { 6 } else { 8 };
    ((base + level.min(20) as i32).min(20), cite::TI_SPELL)
}

/// The total of a spell whose casting time is over a round (more than the book's 10
/// segments): App. B costs it "as normal", not +6 + level, so it keeps its own time
/// whatever the d10. Our reading of the book's segments on the ordering segments: each is
/// two, so a 2-round spell goes off at the end of its second round (total 40: the next
/// round, segment 20) and a 15-segment one halfway through it. None within a round.
pub fn long_spell_total(book_segments: u32) -> Option<(i64, Rule)> {
    // The book's round: ten segments (DMG p.62).
    const BOOK_ROUND: u32 = 10;
    (book_segments > BOOK_ROUND).then(|| {
        let per_round = i64::from(super::SEGMENTS);
        let later = i64::from((book_segments - 1) / 10);
        let within = i64::from((book_segments - 1) % 10 + 1);
        (per_round * later + 2 * within, cite::TI_LONG_SPELL)
    })
}

/// The total of a spell begun in the surprise segments and still being cast when the
/// first round starts, with `book_segments_left` of its casting time to go: the surprise
/// is played by the book (§2), so the spell keeps its own time, each book segment two
/// ordering segments as for a long spell ([`long_spell_total`]) — whatever its length, so
/// a short spell and a long one are timed alike — and the d10 is not counted.
pub fn from_surprise_total(book_segments_left: u32) -> (i64, Rule) {
    (
        2 * i64::from(book_segments_left.max(1)),
        cite::TI_SURPRISE_SPELL,
    )
}

/// A caster's armour class in the round it casts (§9d): no Dexterity bonus to AC, "due to
/// spell casting". Our reading: for the whole round it casts in — the scenario strikes the
/// caster without it even after the spell went off — and no worse than its AC without one
/// (the extra class worse of the Glossary's charge-adjusted AC is the charger's alone), nor
/// worse than AC 10.
/// `dex_ac_bonus` is the classes the Dexterity takes off (2 for a −2 adjustment).
pub fn casting_ac(ac: i32, dex_ac_bonus: i32) -> (i32, Rule) {
    (
        (ac + dex_ac_bonus.max(0)).min(ac.max(10)),
        cite::TI_CASTING_AC,
    )
}

/// The action's rows for a table without spell cards: the casting row becomes +8 + the
/// spell's level, at most 20 (App. B note 6); with cards, nothing changes.
pub fn without_cards(
    mods: &mut [super::Modifier],
    action: super::action::Action,
    cards: SpellCards,
) {
    let super::action::Action::Cast { level } = action else {
        return;
    };
    if cards == SpellCards::With {
        return;
    }
    for m in mods.iter_mut().filter(|m| m.id == "spell") {
        m.value = casting_modifier(level, false).0;
        m.words = format!("{} (no spell cards)", m.words);
    }
}

/// A spell read from a scroll (App. B, Magic, "Scroll: as spell +6"): the scroll's row
/// stands in for the casting row, the same number under its own name; without spell cards
/// too, a scroll being read, not recalled.
pub fn from_scroll(mods: &mut Vec<super::Modifier>) {
    if mods.iter().any(|m| m.id == "scroll") {
        mods.retain(|m| m.id != "spell");
    }
}

/// A spell's level: the table's, else — for a name not in the table — its declared
/// casting time (a magic-user's spells take about their level in segments), else 1; at
/// most 9.
pub fn level_of(table: Option<u32>, declared_segments: Option<u32>) -> u32 {
    table.or(declared_segments).unwrap_or(1).min(9)
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
    fn a_spell_over_a_round_keeps_its_own_time() {
        assert_eq!(
            long_spell_total(10),
            None,
            "a round's spell is costed +6 + level"
        );
        assert_eq!(long_spell_total(20).map(|t| t.0), Some(40));
        assert_eq!(long_spell_total(15).map(|t| t.0), Some(30));
        assert_eq!(long_spell_total(11).map(|t| t.0), Some(22));
        assert_eq!(long_spell_total(100).map(|t| t.0), Some(200));
    }

    #[test]
    fn the_casting_modifier_and_the_failure_save() {
        assert_eq!(casting_modifier(3, true).0, 9);
        assert_eq!(casting_modifier(3, false).0, 11);
        assert_eq!(casting_modifier(15, false).0, 20);
        assert_eq!(level_of(Some(3), Some(7)), 3);
        assert_eq!(level_of(None, Some(4)), 4);
        assert_eq!(level_of(None, None), 1);
        assert_eq!(level_of(None, Some(30)), 9);
        // A 5th-level caster of a 3rd-level spell, 4 damage, saving on 12: needs 14+.
        assert!(keeps_spell(14, 3, 5, 4, 12).0);
        assert!(!keeps_spell(13, 3, 5, 4, 12).0);
    }
}
