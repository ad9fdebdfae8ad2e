//! Resolving a blow: the number needed to hit, the modifiers the texts use, and what hit
//! points mean (DMG p.74, p.82; PHB p.38).

use super::cite::{self, Rule};
use serde::Serialize;

/// The d20 roll needed to hit an armor class, from the figure's roll to hit AC 0: the
/// attack matrices of DMG p.74 step by one per armor class, except that 20 stands for six
/// classes in a row before 21 (a roll to hit AC 0 of 20 needs 20 from AC 0 to AC -5, and
/// 21 at AC -6), so a natural 20 hits five classes beyond the plain count.
pub fn needed_to_hit(thac0: i32, ac: i32) -> (i32, Rule) {
    let n = thac0 - ac;
    let need = match n {
        ..=20 => n,
        21..=25 => 20,
        _ => n - 5,
    };
    (need, cite::TO_HIT)
}

/// The to-hit modifiers of one strike, each with its source.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Modifiers {
    /// Magic, Strength, specialisation: the figure's standing bonus.
    pub standing: i32,
    /// Weapon against the target's armor type (PHB p.38).
    pub vs_armor_type: i32,
    /// +2 for a charger that survived the first blows (DMG p.66).
    pub charge: i32,
    /// Range, rear attacks and other situations the scene gives.
    pub situational: i32,
}

impl Modifiers {
    /// The sum.
    pub fn total(&self) -> i32 {
        self.standing + self.vs_armor_type + self.charge + self.situational
    }
}

/// Whether a d20 roll with these modifiers hits.
pub fn hits(d20: i32, modifiers: &Modifiers, needed: i32) -> bool {
    d20 + modifiers.total() >= needed
}

/// A figure's state by its hit points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    /// Above 0.
    Up,
    /// 0 to -9: unconscious, bleeding 1 a round.
    Unconscious,
    /// -10 or lower.
    Dead,
    /// Held rigid by a spell (PHB p.45): no actions, struck without a roll.
    Held,
    /// Asleep by a spell (PHB p.68): no actions, struck without a roll.
    Asleep,
}

impl Condition {
    /// Able to act (and to finish a spell).
    pub fn is_up(self) -> bool {
        self == Condition::Up
    }

    /// Held or asleep: alive and conscious of nothing it can act on.
    pub fn is_helpless(self) -> bool {
        matches!(self, Condition::Held | Condition::Asleep)
    }
}

/// The condition after a wound leaves `hp` hit points: the dead stay dead, a held or
/// sleeping figure stays so while it has hit points left, and otherwise as [`condition`]
/// (DMG p.82).
pub fn after_wound(before: Condition, hp: i32) -> (Condition, Rule) {
    let (by_hp, rule) = condition(hp);
    let c = match (before, by_hp) {
        (Condition::Dead, _) => Condition::Dead,
        (b, Condition::Up) if b.is_helpless() => b,
        (_, c) => c,
    };
    (c, rule)
}

/// The condition at `hp` hit points (DMG p.82): unconscious at 0, dead at -10.
pub fn condition(hp: i32) -> (Condition, Rule) {
    let c = if hp > 0 {
        Condition::Up
    } else if hp > -10 {
        Condition::Unconscious
    } else {
        Condition::Dead
    };
    (c, cite::HIT_POINTS)
}

/// Hit points lost to bleeding at the end of a round (DMG p.82): 1 for a figure below 1 hp
/// that is not dead, starting with the round after the one in which it fell.
pub fn bleeding(hp: i32, fell_this_round: bool) -> (i32, Rule) {
    let loss = i32::from(condition(hp).0 == Condition::Unconscious && !fell_this_round);
    (loss, cite::HIT_POINTS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hit_point_thresholds() {
        assert_eq!(condition(1).0, Condition::Up);
        assert_eq!(condition(0).0, Condition::Unconscious);
        assert_eq!(condition(-9).0, Condition::Unconscious);
        assert_eq!(condition(-10).0, Condition::Dead);
        assert_eq!(bleeding(-3, false).0, 1);
        assert_eq!(bleeding(-3, true).0, 0);
        assert_eq!(bleeding(-10, false).0, 0);
    }

    #[test]
    fn to_hit_adds_up() {
        // The ranger's first bolt in the Example of Melee: 11 + 2 + 2 + 3 = 18.
        let m = Modifiers {
            standing: 4,
            vs_armor_type: 3,
            ..Default::default()
        };
        assert_eq!(needed_to_hit(14, 8).0, 6);
        assert!(hits(11, &m, 6));
        assert!(!hits(1, &Modifiers::default(), 6));
    }
}

#[cfg(test)]
mod matrix_tests {
    use super::needed_to_hit;
    use proptest::prelude::*;

    proptest! {
        /// DMG p.74: the matrix is the plain count up to 20, holds 20 for six armor
        /// classes, and goes on by one from 21: never lower as the AC gets better, and
        /// a natural 20 hits exactly five classes past the count.
        #[test]
        fn the_matrix_repeats_20_six_times(thac0 in -5i32..=25, ac in -15i32..=10) {
            let (need, _) = needed_to_hit(thac0, ac);
            let (worse_ac, _) = needed_to_hit(thac0, ac - 1);
            prop_assert!(worse_ac >= need);
            prop_assert!(worse_ac - need <= 1);
            let plain = thac0 - ac;
            prop_assert_eq!(need <= 20, plain <= 25);
            if plain <= 20 { prop_assert_eq!(need, plain); }
            let twenties = (-30..=30).filter(|&a| needed_to_hit(thac0, a).0 == 20).count();
            prop_assert_eq!(twenties, 6);
        }
    }
}
