//! Movement rate from armor and encumbrance (house rules after PHB p.101-102), and feet per
//! segment (PHB p.102).

use super::cite::{self, Rule};
use super::distance::Setting;
use serde::{Deserialize, Serialize};

/// The kind of armor worn, by its effect on movement.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Armor {
    /// No armor.
    #[default]
    None,
    /// Leather or elfin chain: 12".
    Leather,
    /// Padded, studded leather, ring, chain or banded: 9".
    Chain,
    /// Scale, splint or plate: 6".
    Plate,
}

/// Base movement allowed by armor (house rules, PHB p.101-102); magic armor moves one step
/// better (6" → 9" → 12").
pub fn armor_movement(armor: Armor, magic: bool) -> (u32, Rule) {
    let base = match armor {
        Armor::None | Armor::Leather => 12,
        Armor::Chain => 9,
        Armor::Plate => 6,
    };
    let rate = if magic { (base + 3).min(12) } else { base };
    (rate, cite::MOVEMENT_ARMOR)
}

/// Movement allowed by weight carried in pounds, armor included (house rules, PHB
/// p.101-102): up to 35 lb 12", up to 70 lb 9", up to 105 lb 6", more 3". A Strength
/// weight allowance raises every step by that many pounds (with +100 lb, 12" holds to 135 lb).
pub fn encumbrance_movement(weight_lb: u32, strength_allowance_lb: i32) -> (u32, Rule) {
    let w = weight_lb as i64 - i64::from(strength_allowance_lb);
    let rate = match w {
        i64::MIN..=35 => 12,
        36..=70 => 9,
        71..=105 => 6,
        _ => 3,
    };
    (rate, cite::MOVEMENT_ENCUMBRANCE)
}

/// Whether a figure counts as encumbered and so may not charge (DMG p.66): loaded past the
/// 6" step, where the house table allows no running. Armor alone does not encumber: the
/// cavalier and paladin of the Example of Melee charge in plate at 6".
pub fn is_encumbered(weight_lb: u32, strength_allowance_lb: i32) -> bool {
    encumbrance_movement(weight_lb, strength_allowance_lb).0 < 6
}

/// A figure's movement rate: the slower of what its armor and its load allow.
pub fn movement_rate(
    armor: Armor,
    magic_armor: bool,
    weight_lb: Option<u32>,
    strength_allowance_lb: i32,
) -> (u32, Rule) {
    let (a, ar) = armor_movement(armor, magic_armor);
    match weight_lb {
        Some(w) => {
            let (e, er) = encumbrance_movement(w, strength_allowance_lb);
            if e < a { (e, er) } else { (a, ar) }
        }
        None => (a, ar),
    }
}

/// "Light gear": a 12" base movement, which Dexterity bonuses need (PHB p.101).
pub fn is_light_gear(base_movement_inches: u32) -> bool {
    base_movement_inches >= 12
}

/// Feet covered in one segment at a rate in inches (PHB p.102): 1 foot per inch indoors;
/// outdoors the inch is 10 yards, so 3 feet per inch.
pub fn feet_per_segment(rate_inches: f64, setting: Setting) -> f64 {
    rate_inches * setting.feet_per_inch() / 10.0
}

/// Feet covered in a round at a rate in inches: ten segments of movement (PHB p.102), under
/// either rules system (a "Take Initiative!" round is the same minute, cut finer).
pub fn feet_per_round(rate_inches: f64, setting: Setting) -> f64 {
    feet_per_segment(rate_inches, setting) * 10.0
}

/// A movement rate under haste or slow: haste doubles it (PHB p.74); slow halves it, whole
/// inches rounded down (reading `spell.slow`). Scenes and `first` both take it from here.
pub fn under_haste_or_slow(inches: u32, hasted: bool, slowed: bool) -> u32 {
    match (hasted, slowed) {
        (true, false) => inches * 2,
        (false, true) => inches / 2,
        _ => inches,
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        /// For every rate, setting and body: a round is ten segments of movement; the
        /// book's charge covers at least the move; "Take Initiative!"'s charge at least the
        /// move up to its cap, and never more than 24" of ground.
        #[test]
        fn a_round_of_movement_and_of_charge(
            inches in 1u32..=60,
            outdoors in any::<bool>(),
            quadruped in any::<bool>(),
        ) {
            use super::super::charge::Body;
            use super::super::options::RulesSystem;
            let setting = if outdoors { Setting::Outdoors } else { Setting::Indoors };
            let body = if quadruped { Body::Quadruped } else { Body::Biped };
            let walk = feet_per_round(f64::from(inches), setting);
            prop_assert_eq!(walk, feet_per_segment(f64::from(inches), setting) * 10.0);
            let book = super::super::charge::charge_feet_per_round(RulesSystem::Book, inches, setting, body);
            prop_assert!(book >= walk, "book: {} < {}", book, walk);
            let ti = super::super::charge::charge_feet_per_round(RulesSystem::TakeInitiative, inches, setting, body);
            let cap = feet_per_round(24.0, setting);
            prop_assert!(ti >= walk.min(cap), "Take Initiative!: {} < {}", ti, walk.min(cap));
            prop_assert!(ti <= cap, "Take Initiative!: {} over 24\"", ti);
        }
    }

    use super::*;

    #[test]
    fn armor_steps() {
        assert_eq!(armor_movement(Armor::Chain, false).0, 9);
        assert_eq!(armor_movement(Armor::Chain, true).0, 12);
        assert_eq!(armor_movement(Armor::Plate, true).0, 9);
        assert_eq!(armor_movement(Armor::Leather, true).0, 12);
    }

    #[test]
    fn strength_allowance_shifts_steps() {
        assert_eq!(encumbrance_movement(135, 100).0, 12);
        assert_eq!(encumbrance_movement(136, 100).0, 9);
        assert_eq!(encumbrance_movement(170, 100).0, 9);
        assert_eq!(encumbrance_movement(171, 100).0, 6);
        assert_eq!(movement_rate(Armor::None, false, Some(80), 0).0, 6);
    }
}
