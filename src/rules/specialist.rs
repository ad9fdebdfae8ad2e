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
