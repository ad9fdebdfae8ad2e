//! Weapon specialization's rates (UA p.18): a fighter or ranger specialized in a weapon
//! attacks with it more often than its class table says, by level — one rate for any
//! weapon swung in melee, another for each weapon shot or thrown. The Example of Melee's
//! 8th-level ranger, a light-crossbow specialist, shoots 3/2 where anyone else shoots 1/1.
//! The table is data (`assets/specialists.ron`, loaded by `crate::tables::specialists`);
//! these functions read the one they are given.

use super::attack_rate::AttackRate;
use super::cite::{self, Rule};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The rates of `assets/specialists.ron`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    /// The first level of each band.
    pub from_levels: [u32; 3],
    /// The classes that may specialize.
    pub classes: Vec<String>,
    /// Any melee weapon in melee, by band.
    pub melee: [AttackRate; 3],
    /// A weapon shot or thrown, by its name, by band.
    pub fire: BTreeMap<String, [AttackRate; 3]>,
    /// Any other weapon shot or thrown, by band.
    pub other_fire: [AttackRate; 3],
}

/// How the weapon is used: swung in melee, or shot or thrown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// Swung in melee.
    Melee,
    /// Shot or thrown.
    Fire,
}

/// Whether a figure of class `class` may specialize (UA p.18: fighters and rangers, as
/// `t` lists them). A figure with no class given may: it is read as a specialist of the
/// lowest band.
pub fn may_specialize(t: &Table, class: Option<&str>) -> Result<(), String> {
    match class {
        Some(c) if !t.classes.iter().any(|k| k.eq_ignore_ascii_case(c)) => Err(format!(
            "a {c} cannot specialize in a weapon: only {} do (UA p.18)",
            t.classes.join(" and ")
        )),
        _ => Ok(()),
    }
}

/// The rate a specialist of `level` (none given: the lowest band) attacks at with the
/// weapon named `weapon`, used as `how` (UA p.18), by the table `t`.
pub fn rate(t: &Table, weapon: &str, level: Option<u32>, how: Use) -> (AttackRate, Rule) {
    let level = level.unwrap_or(1);
    let band = t.from_levels.iter().filter(|&&from| from <= level).count();
    let band = band.saturating_sub(1).min(2);
    let row = match how {
        Use::Melee => &t.melee,
        Use::Fire => t.fire.get(weapon).unwrap_or(&t.other_fire),
    };
    (row[band], cite::SPECIALIST_RATE)
}

/// What a specialist's shot at point blank range adds (UA p.18): to hit, to the damage
/// rolled, and then how many times that damage is dealt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointBlank {
    /// Added to the d20.
    pub to_hit: i32,
    /// Added to the damage die, before it is multiplied.
    pub damage: i32,
    /// The damage, bonus included, is multiplied by this.
    pub times: i32,
}

/// A specialist's shot with the bow or crossbow named `weapon` at `distance_ft`: at
/// point blank range (6-30 ft for a bow, 6-60 ft for a crossbow) +2 to hit, +2 damage
/// and double damage (UA p.18; the Example of Melee's ranger: a bolt at 39 ft, +2 to hit
/// and 2(d4+2) damage). None for a figure that is no specialist, another weapon, or a
/// shot nearer than 6 ft or beyond the band.
pub fn point_blank(weapon: &str, specialist: bool, distance_ft: f64) -> Option<(PointBlank, Rule)> {
    let farthest = if weapon.contains("crossbow") {
        60.0
    } else if weapon.contains("bow") {
        30.0
    } else {
        return None;
    };
    let within = (6.0 - 1e-6..=farthest + 1e-6).contains(&distance_ft);
    (specialist && within).then_some((
        PointBlank {
            to_hit: 2,
            damage: 2,
            times: 2,
        },
        cite::SPECIALIST_POINT_BLANK,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(name: &str) -> &'static crate::tables::Weapon {
        crate::tables::weapon(name).unwrap()
    }

    fn t() -> &'static Table {
        crate::tables::specialists()
    }

    /// A sample against UA p.18, and the Example of Melee's ranger (8th level, 3/2).
    #[test]
    fn a_sample_against_the_book() {
        let r = |name, level, how| rate(t(), name, Some(level), how).0.to_string();
        assert_eq!(r("light crossbow", 8, Use::Fire), "3/2");
        assert_eq!(r("light crossbow", 6, Use::Fire), "1/1");
        assert_eq!(r("heavy crossbow", 1, Use::Fire), "1/2");
        assert_eq!(r("heavy crossbow", 13, Use::Fire), "3/2");
        assert_eq!(r("long bow", 7, Use::Fire), "3/1");
        assert_eq!(r("dagger", 12, Use::Fire), "4/1");
        assert_eq!(r("dart", 20, Use::Fire), "6/1");
        assert_eq!(r("sling", 1, Use::Fire), "3/2");
        assert_eq!(r("long sword", 1, Use::Melee), "3/2");
        assert_eq!(r("long sword", 7, Use::Melee), "2/1");
        assert_eq!(r("long sword", 13, Use::Melee), "5/2");
        assert_eq!(
            rate(t(), "long sword", None, Use::Melee).0.to_string(),
            "3/2"
        );
    }

    /// The Example of Melee's ranger at 39 ft: +2 to hit and 2(d4+2) damage; the bands'
    /// edges for a bow and a crossbow; no one else, no other weapon.
    #[test]
    fn point_blank_as_the_example_shoots_it() {
        let (pb, rule) = point_blank("light crossbow", true, 39.0).unwrap();
        assert_eq!((pb.to_hit, pb.damage, pb.times), (2, 2, 2));
        assert_eq!(rule.page_ref(), "UA p.18");
        // A d4 of 4: 2 x (4 + 2) = 12, the text's 14 with the bolt's +2 for magic after.
        assert_eq!((4 + pb.damage) * pb.times + 2, 14);
        for (weapon, d, yes) in [
            ("long bow", 6.0, true),
            ("long bow", 30.0, true),
            ("long bow", 31.0, false),
            ("short bow", 5.0, false),
            ("heavy crossbow", 60.0, true),
            ("heavy crossbow", 61.0, false),
            ("dagger", 10.0, false),
            ("sling", 10.0, false),
        ] {
            assert_eq!(
                point_blank(weapon, true, d).is_some(),
                yes,
                "{weapon} at {d}"
            );
        }
        assert!(point_blank("long bow", false, 20.0).is_none());
    }

    /// Fighters and rangers specialize; a paladin or a magic-user does not.
    #[test]
    fn only_fighters_and_rangers_specialize() {
        assert!(may_specialize(t(), Some("fighter")).is_ok());
        assert!(may_specialize(t(), Some("ranger")).is_ok());
        assert!(may_specialize(t(), None).is_ok());
        let e = may_specialize(t(), Some("paladin")).unwrap_err();
        assert!(e.contains("UA p.18") && e.contains("paladin"), "{e}");
        assert!(may_specialize(t(), Some("magic-user")).is_err());
    }

    /// Every weapon named in the table is a weapon that can be shot or thrown, and each
    /// band is at least the weapon's own rate of fire (specializing never slows).
    #[test]
    fn the_table_names_weapons_that_fire() {
        for (name, rates) in &t().fire {
            let weapon = w(name);
            assert!(weapon.can_fire(), "{name}");
            let own = weapon.fire_rate.unwrap();
            for r in rates {
                assert!(
                    r.routines * own.per_rounds >= own.routines * r.per_rounds,
                    "{name}: {r} below {own}"
                );
            }
        }
    }
}
