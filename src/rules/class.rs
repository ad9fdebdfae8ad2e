//! Character classes and levels: what a level gives a figure the scene does not give
//! itself — the number needed to hit AC 0 from the attack matrices (DMG p.74), the save
//! vs. spells (DMG p.79), the melee attack rate (fighters, paladins and rangers: 3/2 from
//! 7th level, 2/1 from 13th; DMG p.25) and the average hit points. The classes themselves
//! are data (`assets/classes.ron`); the groups' numbers are here.

use super::attack_rate::AttackRate;
use super::cite::{self, Rule};
use serde::Deserialize;

/// Classes that cast no spells at any level (the fighter's and thief's kinds, the monk);
/// paladins and rangers cast from high levels and are not among them.
const NO_SPELLS: [&str; 6] = [
    "fighter",
    "thief",
    "assassin",
    "monk",
    "barbarian",
    "cavalier",
];

/// Whether a figure of the class named casts spells at all.
pub fn casts_spells(class: &str) -> bool {
    !NO_SPELLS
        .iter()
        .any(|c| c.eq_ignore_ascii_case(class.trim()))
}

/// The least level at which a magic-user casts a spell of `spell_level` (PHB p.25's table:
/// 1st-level spells at 1, 2nd at 3, 3rd at 5, 4th at 7, 5th at 9, then 6th to 9th at 12,
/// 14, 16 and 18), with that rule.
pub fn magic_user_level_for(spell_level: u32) -> (u32, Rule) {
    let l = spell_level.max(1);
    let level = if l <= 5 { 2 * l - 1 } else { 2 * l };
    (level, cite::CASTER_LEVEL_LEAST)
}

/// The attack matrix and saving-throw table a class uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Group {
    /// Fighters, paladins, rangers (and bards, as fighters).
    Fighter,
    /// Clerics, druids, monks.
    Cleric,
    /// Magic-users and illusionists.
    MagicUser,
    /// Thieves and assassins.
    Thief,
}

/// One class as the table gives it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Class {
    /// Its name, as scenes give it.
    pub name: String,
    /// Its matrix and saving throws.
    pub group: Group,
    /// The hit die rolled each level up to `dice_levels`.
    pub hit_die: u32,
    /// Levels that roll the hit die.
    pub dice_levels: u32,
    /// Hit points a level after those.
    pub after: u32,
    /// Melee attack rate from each level on.
    pub rates: Vec<(u32, AttackRate)>,
    /// What a new character of the class carries and wears.
    pub kit: Kit,
    /// Where the class is described.
    pub page: String,
}

/// A class's usual weapon, armor and armor class, for a character made in the editor.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Kit {
    /// Its weapon (`assets/weapons.ron`).
    pub weapon: String,
    /// Its armor, for movement.
    pub armor: super::movement::Armor,
    /// Its armor class with that armor (and a shield where the class carries one).
    pub ac: i32,
}

/// Levels a scene may give.
pub const LEVELS: std::ops::RangeInclusive<u32> = 1..=20;

/// (first level, number) steps of one table row.
type Steps = &'static [(u32, i32)];

/// The number needed to hit AC 0, by group (DMG p.74's matrices, read at AC 0).
const TO_HIT_AC0: [(Group, Steps); 4] = [
    (
        Group::Fighter,
        &[
            (1, 20),
            (3, 18),
            (5, 16),
            (7, 14),
            (9, 12),
            (11, 10),
            (13, 8),
            (15, 6),
            (17, 4),
        ],
    ),
    (
        Group::Cleric,
        &[
            (1, 20),
            (4, 18),
            (7, 16),
            (10, 14),
            (13, 12),
            (16, 10),
            (19, 9),
        ],
    ),
    (
        Group::Thief,
        &[(1, 21), (5, 19), (9, 16), (13, 14), (17, 12)],
    ),
    (Group::MagicUser, &[(1, 21), (6, 19), (11, 16), (16, 13)]),
];

/// The save vs. spells, by group (DMG p.79).
const SAVE_VS_SPELL: [(Group, Steps); 4] = [
    (
        Group::Fighter,
        &[
            (0, 19),
            (1, 17),
            (3, 16),
            (5, 14),
            (7, 13),
            (9, 11),
            (11, 10),
            (13, 8),
            (15, 7),
            (17, 6),
        ],
    ),
    (
        Group::Cleric,
        &[
            (1, 15),
            (4, 14),
            (7, 12),
            (10, 11),
            (13, 10),
            (16, 9),
            (19, 7),
        ],
    ),
    (Group::Thief, &[(1, 15), (5, 13), (9, 11), (13, 9), (17, 7)]),
    (Group::MagicUser, &[(1, 12), (6, 10), (11, 8), (16, 6)]),
];

/// The number of the step a level falls in.
fn step(rows: &[(Group, Steps)], group: Group, level: u32) -> i32 {
    let steps = rows
        .iter()
        .find(|(g, _)| *g == group)
        .map_or(&[][..], |(_, s)| *s);
    steps
        .iter()
        .take_while(|(from, _)| *from <= level)
        .last()
        .map_or(20, |&(_, n)| n)
}

/// The number a figure of this class and level needs to hit AC 0.
pub fn thac0(class: &Class, level: u32) -> (i32, Rule) {
    (step(&TO_HIT_AC0, class.group, level), cite::CLASS_MATRIX)
}

/// Its save vs. spells.
pub fn save_vs_spell(class: &Class, level: u32) -> (u32, Rule) {
    (group_save_vs_spell(class.group, level), cite::SAVING_THROW)
}

/// The save vs. spells of a group at a level (0 for a 0-level man-at-arms).
pub fn group_save_vs_spell(group: Group, level: u32) -> u32 {
    step(&SAVE_VS_SPELL, group, level) as u32
}

/// Its melee attack rate.
pub fn attack_rate(class: &Class, level: u32) -> (AttackRate, Rule) {
    let rate = class
        .rates
        .iter()
        .take_while(|(from, _)| *from <= level)
        .last()
        .map(|&(_, r)| r)
        .unwrap_or_else(|| "1/1".parse().expect("valid"));
    (rate, cite::CLASS_ATTACKS)
}

/// Its average hit points: half the die plus a half, each level that rolls it, then the
/// fixed points a level (our reading of "hit points as an average"; a Constitution bonus
/// is the scene's to add).
pub fn average_hp(class: &Class, level: u32) -> i32 {
    let rolled = level.min(class.dice_levels);
    let per = f64::from(class.hit_die + 1) / 2.0;
    let fixed = level.saturating_sub(class.dice_levels) * class.after;
    (f64::from(rolled) * per).floor() as i32 + fixed as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(name: &str) -> &'static Class {
        crate::tables::class(name).unwrap()
    }

    /// A sample against the books: the matrices at AC 0, the saves, the fighter's rates.
    #[test]
    fn a_sample_against_the_books() {
        let f = class("fighter");
        assert_eq!(thac0(f, 1).0, 20);
        assert_eq!(thac0(f, 7).0, 14);
        assert_eq!(thac0(f, 13).0, 8);
        assert_eq!(attack_rate(f, 6).0.to_string(), "1/1");
        assert_eq!(attack_rate(f, 7).0.to_string(), "3/2");
        assert_eq!(attack_rate(f, 13).0.to_string(), "2/1");
        assert_eq!(save_vs_spell(f, 1).0, 17);
        let mu = class("magic-user");
        assert_eq!(thac0(mu, 1).0, 21);
        assert_eq!(thac0(mu, 6).0, 19);
        assert_eq!(save_vs_spell(mu, 6).0, 10);
        assert_eq!(attack_rate(mu, 20).0.to_string(), "1/1");
        assert_eq!(thac0(class("cleric"), 4).0, 18);
        assert_eq!(thac0(class("thief"), 9).0, 16);
        assert_eq!(save_vs_spell(class("thief"), 1).0, 15);
        // 7th-level fighter: 7 × 5.5 = 38; 12th: 9 × 5.5 + 3 × 3 = 58.
        assert_eq!(average_hp(f, 7), 38);
        assert_eq!(average_hp(f, 12), 58);
    }

    /// Every class at every level gives numbers `check` accepts, and never a worse one
    /// at a higher level.
    #[test]
    fn every_class_and_level_is_in_range_and_improves() {
        use crate::scene::limits;
        for c in crate::tables::classes() {
            for level in LEVELS {
                let (t, s, r) = (
                    thac0(c, level).0,
                    save_vs_spell(c, level).0,
                    attack_rate(c, level).0,
                );
                assert!(limits::THAC0.contains(&t), "{} {level}", c.name);
                assert!(limits::SAVE.contains(&s), "{} {level}", c.name);
                assert!(limits::ROUTINES.contains(&r.routines), "{} {level}", c.name);
                assert!(
                    limits::HP.contains(&average_hp(c, level)),
                    "{} {level}",
                    c.name
                );
                if level > 1 {
                    assert!(t <= thac0(c, level - 1).0 && s <= save_vs_spell(c, level - 1).0);
                    assert!(average_hp(c, level) >= average_hp(c, level - 1));
                }
            }
        }
    }
}
