//! Data tables (weapons, spells) loaded from the RON files under `assets/`. The files are
//! built into the binary, so the tables work from any directory; scenes and the calculator
//! refer to entries by name, and a wrong name gets a "did you mean" suggestion.

use crate::rules::attack_rate::AttackRate;
use serde::Deserialize;
use std::sync::OnceLock;

/// One weapon (PHB p.38).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// Name, lower case.
    pub name: String,
    /// Speed factor.
    pub speed_factor: u32,
    /// Length in feet (0 for bows and crossbows).
    pub length_ft: f64,
    /// Rate of fire when fired or thrown.
    #[serde(default)]
    pub fire_rate: Option<AttackRate>,
    /// A missile weapon only (bows, crossbows, slings, darts).
    #[serde(default)]
    pub missile: bool,
}

/// One spell or device function with its casting time.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spell {
    /// Name, lower case.
    pub name: String,
    /// Casting or activation time in segments.
    pub segments: u32,
    /// Where the casting time is given.
    pub page: String,
    /// A device (not ruined by a hit unless the wielder falls).
    #[serde(default)]
    pub device: bool,
}

const WEAPONS_RON: &str = include_str!("../assets/weapons.ron");
const SPELLS_RON: &str = include_str!("../assets/spells.ron");

/// The weapons table.
pub fn weapons() -> &'static [Weapon] {
    static T: OnceLock<Vec<Weapon>> = OnceLock::new();
    T.get_or_init(|| {
        ron::from_str(WEAPONS_RON).expect("assets/weapons.ron is valid (checked by a test)")
    })
}

/// The spells table.
pub fn spells() -> &'static [Spell] {
    static T: OnceLock<Vec<Spell>> = OnceLock::new();
    T.get_or_init(|| {
        ron::from_str(SPELLS_RON).expect("assets/spells.ron is valid (checked by a test)")
    })
}

/// Normalises a name as typed: case, underscores and hyphens-for-spaces.
pub fn normalise(name: &str) -> String {
    name.trim().to_lowercase().replace('_', " ")
}

/// The closest known name to `name`, if any is close enough to suggest.
pub fn suggest<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let n = normalise(name);
    known
        .map(|k| (strsim::jaro_winkler(&n, k), k))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

fn not_found<'a>(what: &str, name: &str, known: impl Iterator<Item = &'a str>) -> String {
    match suggest(name, known) {
        Some(s) => format!("unknown {what} '{name}' (did you mean '{s}'?)"),
        None => format!("unknown {what} '{name}'"),
    }
}

/// Finds an entry by name in a table, with a suggestion when the name is unknown.
fn lookup<'a, T>(
    what: &str,
    name: &str,
    table: &'a [T],
    key: impl Fn(&T) -> &str,
) -> Result<&'a T, String> {
    let n = normalise(name);
    table
        .iter()
        .find(|e| key(e) == n)
        .ok_or_else(|| not_found(what, name, table.iter().map(&key)))
}

/// Looks a weapon up by name.
pub fn weapon(name: &str) -> Result<&'static Weapon, String> {
    lookup("weapon", name, weapons(), |w| w.name.as_str())
}

/// Looks a spell up by name.
pub fn spell(name: &str) -> Result<&'static Spell, String> {
    lookup("spell", name, spells(), |s| s.name.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_load_and_answer() {
        assert!(weapons().len() > 20);
        assert_eq!(weapon("Long_Sword").unwrap().speed_factor, 5);
        assert_eq!(weapon("awl pike").unwrap().length_ft, 18.0);
        assert_eq!(spell("bigby's grasping hand").unwrap().segments, 7);
        assert!(spell("wand of frost (cone of cold)").unwrap().device);
        let e = weapon("long swrod").unwrap_err();
        assert!(e.contains("did you mean 'long sword'"), "{e}");
        for s in spells() {
            assert!(s.segments >= 1 && s.segments <= 10, "{}", s.name);
        }
    }
}
