//! Data tables (weapons, spells, light sources, monsters) loaded from the RON files under `assets/`. The files are
//! built into the binary, so the tables work from any directory; scenes and the calculator
//! refer to entries by name, and a wrong name gets a "did you mean" suggestion.

use crate::rules::attack_rate::AttackRate;
use crate::rules::charge::Body;
use serde::Deserialize;
use std::collections::BTreeMap;
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
    /// The upper limits of short, medium and long range in inches, for a weapon that is
    /// fired or thrown (PHB p.38).
    #[serde(default)]
    pub range_in: Option<(f64, f64, f64)>,
    /// Damage against man-sized foes ("1d8", "1d4+1").
    pub damage: String,
    /// To-hit adjustment by the target's armor type (PHB p.38); types not listed count 0.
    #[serde(default)]
    pub vs_ac_type: BTreeMap<i32, i32>,
    /// A spear or pole arm, which may be set (braced) against a charge.
    #[serde(default)]
    pub set_vs_charge: bool,
    /// Hands or feet: used only under the house rule of weaponless combat, where half its
    /// damage is subdual.
    #[serde(default)]
    pub brawling: bool,
}

impl Weapon {
    /// Whether it can be fired or thrown at all: a missile weapon, or one with a rate of
    /// fire or a throwing range (a dagger, a spear); a long sword cannot.
    pub fn can_fire(&self) -> bool {
        self.missile || self.fire_rate.is_some() || self.range_in.is_some()
    }

    /// The limits of short, medium and long range in feet (1" is 10 ft indoors, 10 yards
    /// outdoors: PHB p.38-39).
    pub fn range_ft(&self, setting: crate::rules::distance::Setting) -> Option<(f64, f64, f64)> {
        let k = setting.feet_per_inch();
        self.range_in.map(|(s, m, l)| (s * k, m * k, l * k))
    }

    /// The to-hit adjustment against an armor type (PHB p.38).
    pub fn vs_armor_type(&self, ac_type: i32) -> i32 {
        self.vs_ac_type.get(&ac_type).copied().unwrap_or(0)
    }
}

/// A light source (PHB p.102; DMG p.62 for encounter limits).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LightSource {
    /// Name, lower case.
    pub name: String,
    /// Radius of light in feet.
    pub radius_ft: f64,
    /// Where the radius is given.
    pub page: String,
}

/// A monster's defaults for a scene figure (Monster Manual): numbers only. THAC0 and typical
/// hit points come from its hit dice by the rules ([`crate::rules::monster`]).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Monster {
    /// Name, lower case.
    pub name: String,
    /// Where it is described ("MM p.76").
    pub page: String,
    /// Movement rate in inches (on the ground).
    pub movement: u32,
    /// Armor class.
    pub ac: i32,
    /// Whole hit dice (0 for a half die), which THAC0, death spell and sleep read.
    pub hit_dice: u32,
    /// Points added to (or taken from) the hit dice ("2+1": 1).
    #[serde(default)]
    pub hd_plus: i32,
    /// Hit points, where the entry fixes them; else the average of the dice.
    #[serde(default)]
    pub hp: Option<i32>,
    /// Attack routines per round.
    #[serde(default = "one_per_round")]
    pub attacks: AttackRate,
    /// Damage of one routine, every attack of it summed ("1d3+1d3+1d6").
    pub damage: String,
    /// A weapon, if it fights with one.
    #[serde(default)]
    pub weapon: Option<String>,
    /// Reach in feet, centre to centre.
    #[serde(default)]
    pub reach_ft: Option<f64>,
    /// Infravision range in feet.
    #[serde(default)]
    pub infravision_ft: Option<f64>,
    /// Biped or quadruped.
    #[serde(default)]
    pub body: Body,
    /// Initiative die other than d6.
    #[serde(default)]
    pub initiative_die: Option<u32>,
    /// Size (MM): S, M or L (H where a rule needs it).
    #[serde(default)]
    pub size: Option<crate::rules::size::Size>,
    /// Spells the engine models that do not affect it.
    #[serde(default)]
    pub immune: Vec<crate::rules::monster::Immunity>,
    /// A person (a demi-human or a humanoid of man size or smaller): hold person works on
    /// it (PHB p.45). Figures without a monster are persons.
    #[serde(default)]
    pub person: bool,
}

impl Monster {
    /// Its hit dice as the rules read them.
    pub fn hd(&self) -> crate::rules::monster::HitDice {
        crate::rules::monster::HitDice {
            dice: self.hit_dice,
            plus: self.hd_plus,
        }
    }

    /// The number it needs to hit AC 0 (DMG p.74, by its hit dice).
    pub fn thac0(&self) -> i32 {
        self.thac0_as(None)
    }

    /// The number it needs to hit AC 0 with `given` hit dice, if a scene gives them.
    pub fn thac0_as(&self, given: Option<u32>) -> i32 {
        crate::rules::monster::thac0(self.hd().as_given(given)).0
    }

    /// Its numbers in a line, for a list's tooltip: "AC 6, 9", 1 HD, THAC0 19, 1d8 (MM p.76)".
    pub fn summary(&self) -> String {
        let hd = match (self.hit_dice, self.hd_plus) {
            (0, _) => "½".to_string(),
            (d, 0) => d.to_string(),
            (d, p) => format!("{d}{p:+}"),
        };
        let weapon = self
            .weapon
            .as_deref()
            .map_or(String::new(), |w| format!(", {w}"));
        format!(
            "AC {}, {}\", {hd} HD, THAC0 {}, {} hp, {}{weapon} ({})",
            self.ac,
            self.movement,
            self.thac0(),
            self.typical_hp(),
            self.damage,
            self.page
        )
    }

    /// Its hit points: the entry's, else the average of its dice.
    pub fn typical_hp(&self) -> i32 {
        self.typical_hp_as(None)
    }

    /// Its hit points with `given` hit dice: the entry's own where it fixes them and the
    /// dice are its own, else the average of the dice.
    pub fn typical_hp_as(&self, given: Option<u32>) -> i32 {
        let hd = self.hd().as_given(given);
        match self.hp {
            Some(hp) if hd == self.hd() => hp,
            _ => crate::rules::monster::average_hp(hd),
        }
    }
}

fn one_per_round() -> AttackRate {
    "1/1".parse().expect("1/1 is a valid rate")
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
    /// The spell's level ("Take Initiative!" adds it to the casting modifier).
    #[serde(default)]
    pub level: Option<u32>,
    /// What it does that changes the fight, if anything the engine models.
    #[serde(default)]
    pub effect: Option<crate::rules::effect::Effect>,
}

const WEAPONS_RON: &str = include_str!("../assets/weapons.ron");
const SPELLS_RON: &str = include_str!("../assets/spells.ron");
const LIGHTS_RON: &str = include_str!("../assets/lights.ron");
const MONSTERS_RON: &str = include_str!("../assets/monsters.ron");
const TAKE_INITIATIVE_RON: &str = include_str!("../assets/take_initiative.ron");
const PSIONICS_RON: &str = include_str!("../assets/psionics.ron");
const CLASSES_RON: &str = include_str!("../assets/classes.ron");
const SPECIALISTS_RON: &str = include_str!("../assets/specialists.ron");

/// Weapon specialization's rates (`assets/specialists.ron`, UA p.18).
pub fn specialists() -> &'static crate::rules::specialist::Table {
    static T: OnceLock<crate::rules::specialist::Table> = OnceLock::new();
    T.get_or_init(|| {
        ron::from_str(SPECIALISTS_RON).expect("assets/specialists.ron is valid (checked by a test)")
    })
}

/// The character classes (`assets/classes.ron`).
pub fn classes() -> &'static [crate::rules::class::Class] {
    static T: OnceLock<Vec<crate::rules::class::Class>> = OnceLock::new();
    T.get_or_init(|| {
        ron::from_str(CLASSES_RON).expect("assets/classes.ron is valid (checked by a test)")
    })
}

/// Looks a character class up by name.
pub fn class(name: &str) -> Result<&'static crate::rules::class::Class, String> {
    lookup("class", name, classes(), |c| c.name.as_str())
}

/// The psionic tables (DMG p.76-78): what the texts give; the rest is the DM's.
pub fn psionics() -> &'static crate::rules::psionics::PsionicTable {
    static T: OnceLock<crate::rules::psionics::PsionicTable> = OnceLock::new();
    T.get_or_init(|| {
        ron::from_str(PSIONICS_RON).expect("assets/psionics.ron is valid (checked by a test)")
    })
}

/// "Take Initiative!" Appendix B: its modifiers and missile speeds.
pub fn take_initiative() -> &'static crate::rules::take_initiative::Table {
    static T: OnceLock<crate::rules::take_initiative::Table> = OnceLock::new();
    T.get_or_init(|| {
        ron::from_str(TAKE_INITIATIVE_RON)
            .expect("assets/take_initiative.ron is valid (checked by a test)")
    })
}

/// The light sources table.
pub fn lights() -> &'static [LightSource] {
    static T: OnceLock<Vec<LightSource>> = OnceLock::new();
    T.get_or_init(|| {
        ron::from_str(LIGHTS_RON).expect("assets/lights.ron is valid (checked by a test)")
    })
}

/// The monsters table.
pub fn monsters() -> &'static [Monster] {
    static T: OnceLock<Vec<Monster>> = OnceLock::new();
    T.get_or_init(|| {
        ron::from_str(MONSTERS_RON).expect("assets/monsters.ron is valid (checked by a test)")
    })
}

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
        .map(|k| (strsim::jaro_winkler(&n, &k.to_lowercase()), k))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

fn not_found<'a>(what: &str, name: &str, known: impl Iterator<Item = &'a str> + Clone) -> String {
    match suggest(name, known.clone()) {
        Some(s) => format!("unknown {what} '{name}' (did you mean '{s}'?)"),
        None => {
            // With nothing near it, the names there are: all of a short table, else those
            // of a long one that start as the name does, and how many there are.
            let all: Vec<&str> = known.collect();
            let first = name.trim().chars().next().map(|c| c.to_ascii_lowercase());
            let like: Vec<&str> = (all.iter().copied())
                .filter(|k| k.chars().next().map(|c| c.to_ascii_lowercase()) == first)
                .collect();
            match (all.len() <= 30, like.is_empty()) {
                (true, _) => format!("unknown {what} '{name}': one of {}", all.join(", ")),
                (false, false) => format!(
                    "unknown {what} '{name}': {} are known; those starting so: {}",
                    all.len(),
                    like.join(", ")
                ),
                (false, true) => format!("unknown {what} '{name}': {} are known", all.len()),
            }
        }
    }
}

/// Finds an entry by name in a table, with a suggestion when the name is unknown.
fn lookup<'a, T>(
    what: &str,
    name: &str,
    table: &'a [T],
    key: impl Fn(&T) -> &str,
) -> Result<&'a T, String> {
    // A name already as the table writes it needs no normalising (the engine looks the
    // same few names up in every trial).
    if let Some(e) = table.iter().find(|e| key(e) == name) {
        return Ok(e);
    }
    let n = normalise(name);
    // An apostrophe left out ("bigbys clenched fist", as a shell argument is easiest
    // typed) is the same name.
    let bare = |s: &str| s.replace('\'', "");
    table
        .iter()
        .find(|e| key(e) == n)
        .or_else(|| table.iter().find(|e| bare(key(e)) == bare(&n)))
        .ok_or_else(|| not_found(what, name, table.iter().map(&key)))
}

/// Whether the weapon named can be set against a charge (a spear or pole arm, DMG p.66;
/// "Take Initiative!" §9a); false for none or a name the table does not know.
pub fn sets_against_charge(name: Option<&str>) -> bool {
    name.and_then(|w| weapon(w).ok())
        .is_some_and(|w| w.set_vs_charge)
}

/// Looks a weapon up by name.
pub fn weapon(name: &str) -> Result<&'static Weapon, String> {
    lookup("weapon", name, weapons(), |w| w.name.as_str())
}

/// A spell by name, if the table has it (no suggestions made: for the engine, which
/// plays spells the table lacks with their declared times).
pub fn find_spell(name: &str) -> Option<&'static Spell> {
    let table = spells();
    table.iter().find(|s| s.name == name).or_else(|| {
        let n = normalise(name);
        table.iter().find(|s| s.name == n)
    })
}

/// The radius in feet of the area a spell (or device) fills, if it has one.
pub fn spell_area_ft(name: &str) -> Option<f64> {
    find_spell(name)?.effect?.radius_ft()
}

/// Looks a spell up by name.
pub fn spell(name: &str) -> Result<&'static Spell, String> {
    lookup("spell", name, spells(), |s| s.name.as_str())
}

/// Looks a light source up by name.
pub fn light(name: &str) -> Result<&'static LightSource, String> {
    lookup("light source", name, lights(), |s| s.name.as_str())
}

/// The monsters whose names hold `typed` (any case), in alphabetical order.
pub fn monsters_matching(typed: &str) -> Vec<&'static Monster> {
    let wanted = normalise(typed);
    let mut found: Vec<&Monster> = monsters()
        .iter()
        .filter(|m| m.name.contains(&wanted))
        .collect();
    found.sort_by(|a, b| a.name.cmp(&b.name));
    found
}

/// Looks a monster up by name.
pub fn monster(name: &str) -> Result<&'static Monster, String> {
    lookup("monster", name, monsters(), |s| s.name.as_str())
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
        assert_eq!(light("torch").unwrap().radius_ft, 15.0);
        assert_eq!(monster("hill giant").unwrap().movement, 12);
        assert_eq!(weapon("long sword").unwrap().vs_armor_type(10), 2);
        for w in weapons() {
            assert!(
                crate::dice::DiceExpr::parse(&w.damage).is_ok(),
                "{}",
                w.name
            );
        }
        for m in monsters() {
            assert!(
                crate::dice::DiceExpr::parse(&m.damage).is_ok(),
                "{}",
                m.name
            );
        }
        for s in spells() {
            assert!(s.segments >= 1 && s.segments <= 10, "{}", s.name);
        }
        // Appendix B: unique ids, and the numbers the text gives.
        let ti = take_initiative();
        let mut ids: Vec<&str> = ti.modifiers.iter().map(|m| m.id.as_str()).collect();
        ids.sort_unstable();
        let n = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), n, "duplicate modifier ids");
        let fixed = |id: &str| match ti.modifiers.iter().find(|m| m.id == id).map(|m| m.value) {
            Some(crate::rules::take_initiative::Value::Fixed(v)) => v,
            other => panic!("{id}: {other:?}"),
        };
        assert_eq!(
            [
                fixed("charge"),
                fixed("move_full"),
                fixed("flee"),
                fixed("change_weapon")
            ],
            [4, 8, -2, 10]
        );
        assert_eq!(ti.missile_speeds.len(), 5);
    }
}
