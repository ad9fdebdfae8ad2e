//! Scenes: the RON files under `scenes/` that script an encounter — setting, map, figures,
//! encounter checks, surprise segments, per-round declarations and fixed dice.
//!
//! [`load`] parses and validates a file; every error names the file, line, column and
//! field, with a suggestion where one exists. The types here are plain data; the
//! simulation ([`crate::sim`]) turns them into entities.

pub mod edit;
pub(crate) mod error;
pub mod figure;
pub mod library;
pub mod limits;
mod load;
pub mod place;
pub mod save;
pub mod surprise_chance;
mod unique;
pub(crate) mod validate;

pub use error::{SceneError, SceneErrors};
pub use load::{
    check, check_but_figures, load, load_unchecked, load_with_warnings, parse, parse_unchecked,
    refuse_book_timing, refuse_variant_declarations, warnings,
};
pub(crate) use validate::fit_name;

use crate::rules::attack_rate::AttackRate;
use crate::rules::charge::Body;
use crate::rules::distance::{Setting, Terrain};
use crate::rules::movement::Armor;
use crate::rules::options::RulesOptions;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A whole scene as written in RON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    /// Title.
    pub name: String,
    /// What the scene shows, with its pages.
    #[serde(default, skip_serializing_if = "is_default")]
    pub about: String,
    /// Indoors (1" = 10 ft) or outdoors (1" = 10 yards).
    pub setting: Setting,
    /// Seed for every die the scene does not fix.
    #[serde(default, skip_serializing_if = "is_default")]
    pub seed: u64,
    /// The readings in force (see [`RulesOptions`]).
    #[serde(default, skip_serializing_if = "is_default")]
    pub rules: RulesOptions,
    /// The map; without one the figures stand on open ground.
    #[serde(default, skip_serializing_if = "is_default")]
    pub map: Option<MapSpec>,
    /// The figures.
    pub combatants: Vec<CombatantSpec>,
    /// Encounter-distance checks made before the fight (each logs a `distance` event).
    #[serde(default, skip_serializing_if = "is_default")]
    pub encounter: Vec<EncounterCheck>,
    /// Surprise: each side's roll or segments lost.
    #[serde(
        default,
        deserialize_with = "unique::map",
        skip_serializing_if = "is_default"
    )]
    pub surprise: BTreeMap<String, SurpriseSpec>,
    /// Declarations for each surprise segment, in order.
    #[serde(
        default,
        deserialize_with = "unique::maps",
        skip_serializing_if = "is_default"
    )]
    pub surprise_segments: Vec<Declarations>,
    /// Declarations and dice for each full round, in order.
    #[serde(default, skip_serializing_if = "is_default")]
    pub rounds: Vec<RoundSpec>,
    /// Fixed dice, per kind, per figure (or side), consumed in order.
    #[serde(
        default,
        skip_serializing_if = "is_default",
        deserialize_with = "unique::nested"
    )]
    pub dice: BTreeMap<DieKind, BTreeMap<String, Vec<i32>>>,
    /// The DM's own entries of the psionic tables, over `assets/psionics.ron`: mode costs,
    /// areas and matrix cells the texts do not give.
    #[serde(default, skip_serializing_if = "is_default")]
    pub psionics: crate::rules::psionics::PsionicTable,
    /// A guided tour: short captions shown as the replay reaches (round, segment); round 0
    /// is the encounter (segment 0) and the surprise segments.
    #[serde(default, skip_serializing_if = "is_default")]
    pub tour: Vec<TourStop>,
}

/// One caption of a scene's guided tour.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TourStop {
    /// (round, segment) it is shown at.
    pub at: (u32, u32),
    /// The caption, in a sentence or three.
    pub text: String,
}

/// The grid map: ASCII rows, one character per cell, and what each character means.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapSpec {
    /// Cell size in feet (default 5).
    #[serde(default = "default_cell", skip_serializing_if = "is_default_cell")]
    pub cell_ft: f64,
    /// Rows from the top (north, y = 0) down; x grows to the east.
    pub rows: Vec<String>,
    /// Extra or changed meanings of characters; the defaults are `#` wall, `.` floor,
    /// `+` closed door, `/` open door, `O` pillar, `~` water, `"` scrub, `T` forest,
    /// `%` marsh.
    #[serde(default, skip_serializing_if = "is_default")]
    pub legend: BTreeMap<char, CellKind>,
    /// Light sources fixed on the map.
    #[serde(default, skip_serializing_if = "is_default")]
    pub lights: Vec<FixedLight>,
    /// The whole map is lit (daylight, or a hall lit throughout): everyone in a clear line
    /// of sight is seen. Off by default: a dungeon is dark but for its lights.
    #[serde(default, skip_serializing_if = "is_default")]
    pub daylight: bool,
}

impl MapSpec {
    /// The map's grid of cells.
    pub fn grid(&self) -> Result<crate::map::Grid, crate::map::GridError> {
        crate::map::Grid::from_rows(self.cell_ft, &self.rows, &self.legend)
    }
}

/// What a map cell is (the map's own type, named here too where scenes speak of cells).
pub use crate::map::CellKind;

impl Default for MapSpec {
    fn default() -> Self {
        MapSpec {
            cell_ft: default_cell(),
            rows: Vec::new(),
            legend: BTreeMap::new(),
            lights: Vec::new(),
            daylight: false,
        }
    }
}

fn default_cell() -> f64 {
    5.0
}

fn is_default_cell(c: &f64) -> bool {
    *c == default_cell()
}

pub use crate::text::is_default;

/// A light fixed on the map (a torch in a bracket, a lit brazier).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FixedLight {
    /// The light source's name in `assets/lights.ron`.
    pub source: String,
    /// Where it is, in feet.
    pub at: (f64, f64),
    /// Radius in feet, overriding the table.
    #[serde(default, skip_serializing_if = "is_default")]
    pub radius_ft: Option<f64>,
}

impl FixedLight {
    /// Its radius: the scene's override, else the table's (0 for an unknown source, which
    /// validation reports).
    pub fn radius(&self) -> f64 {
        self.radius_ft
            .or_else(|| crate::tables::light(&self.source).ok().map(|l| l.radius_ft))
            .unwrap_or(0.0)
    }
}

/// One figure.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatantSpec {
    /// Unique name.
    pub name: String,
    /// Side; figures on one side share surprise and the initiative die.
    pub side: String,
    /// Position in feet (x east, y south).
    pub at: (f64, f64),
    /// A monster in `assets/monsters.ron` giving defaults for the fields below.
    #[serde(default, skip_serializing_if = "is_default")]
    pub monster: Option<String>,
    /// Movement rate in inches; otherwise from armor and load, otherwise 12".
    #[serde(default, skip_serializing_if = "is_default")]
    pub movement: Option<u32>,
    /// Armor worn, for movement (PHB p.101-102).
    #[serde(default, skip_serializing_if = "is_default")]
    pub armor: Option<Armor>,
    /// Magic armor moves one step better.
    #[serde(default, skip_serializing_if = "is_default")]
    pub magic_armor: bool,
    /// Weight carried in pounds, for movement and encumbrance.
    #[serde(default, skip_serializing_if = "is_default")]
    pub load_lb: Option<u32>,
    /// Strength weight allowance in pounds.
    #[serde(default, skip_serializing_if = "is_default")]
    pub strength_allowance_lb: i32,
    /// Loaded past the point where charging is allowed (DMG p.66).
    #[serde(default, skip_serializing_if = "is_default")]
    pub encumbered: bool,
    /// Biped or quadruped (outdoor charge bonus).
    #[serde(default, skip_serializing_if = "is_default")]
    pub body: Option<Body>,
    /// Dexterity score (default 10).
    #[serde(default, skip_serializing_if = "is_default")]
    pub dexterity: Option<u32>,
    /// Main weapon by name in `assets/weapons.ron`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub weapon: Option<String>,
    /// Off-hand weapon: a second strike in each routine.
    #[serde(default, skip_serializing_if = "is_default")]
    pub off_hand: Option<String>,
    /// Speed factor, overriding the weapon's.
    #[serde(default, skip_serializing_if = "is_default")]
    pub speed_factor: Option<u32>,
    /// Weapon length in feet, overriding the weapon's.
    #[serde(default, skip_serializing_if = "is_default")]
    pub length_ft: Option<f64>,
    /// Melee reach in feet, centre to centre (default 5: adjacent squares).
    #[serde(default, skip_serializing_if = "is_default")]
    pub reach_ft: Option<f64>,
    /// Attack routines per round ("1/1", "3/2", "2/1"…).
    #[serde(default, skip_serializing_if = "is_default")]
    pub attacks: Option<AttackRate>,
    /// The d20 roll needed to hit AC 0.
    #[serde(default, skip_serializing_if = "is_default")]
    pub thac0: Option<i32>,
    /// Standing to-hit bonus (magic, Strength, specialisation).
    #[serde(default, skip_serializing_if = "is_default")]
    pub to_hit_bonus: i32,
    /// Standing damage bonus.
    #[serde(default, skip_serializing_if = "is_default")]
    pub damage_bonus: i32,
    /// Damage dice of an attack routine, overriding the weapon's ("1d8", "2d4+2").
    #[serde(default, skip_serializing_if = "is_default")]
    pub damage: Option<String>,
    /// Armor class.
    #[serde(default, skip_serializing_if = "is_default")]
    pub ac: Option<i32>,
    /// Armor type for weapon-vs-armor adjustments (PHB p.38); default: the AC.
    #[serde(default, skip_serializing_if = "is_default")]
    pub ac_type: Option<i32>,
    /// Hit points.
    #[serde(default, skip_serializing_if = "is_default")]
    pub hp: Option<i32>,
    /// A light carried, by name in `assets/lights.ron`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub light: Option<String>,
    /// Infravision range in feet.
    #[serde(default, skip_serializing_if = "is_default")]
    pub infravision_ft: Option<f64>,
    /// Weapon specialist (UA p.18): missile rate and point-blank shots.
    #[serde(default, skip_serializing_if = "is_default")]
    pub specialist: bool,
    /// Armed with an item of speed (strikes first, DMG p.168).
    #[serde(default, skip_serializing_if = "is_default")]
    pub of_speed: bool,
    /// Missile weapon ready (nocked or cocked) at the start: three volleys in a surprise
    /// segment (DMG p.61-62).
    #[serde(default, skip_serializing_if = "is_default")]
    pub ready: bool,
    /// Initiative die other than d6 (spectators roll d8, DMG p.62).
    #[serde(default, skip_serializing_if = "is_default")]
    pub initiative_die: Option<u32>,
    /// Hasted (PHB p.74): attacks and movement doubled.
    #[serde(default, skip_serializing_if = "is_default")]
    pub hasted: bool,
    /// Slowed: attacks and movement halved, and it acts as if it lost initiative.
    #[serde(default, skip_serializing_if = "is_default")]
    pub slowed: bool,
    /// Makes its whole party surprised less often, in sixes (a ranger: 1; DMG p.61).
    #[serde(default, skip_serializing_if = "is_default")]
    pub surprised_less_often: u32,
    /// Surprises others more often, in sixes, when it acts alone (a ranger: 1; PHB p.24).
    #[serde(default, skip_serializing_if = "is_default")]
    pub surprises_more_often: u32,
    /// Closed to melee in the round before the scene starts: in its first round of blows
    /// speed factors do not apply (DMG p.66).
    #[serde(default, skip_serializing_if = "is_default")]
    pub just_closed: bool,
    /// Hit dice, or level for a character: what a death spell or sleep can affect
    /// (PHB p.83, p.68). A monster takes its table's.
    #[serde(default, skip_serializing_if = "is_default")]
    pub hit_dice: Option<u32>,
    /// The saving throw vs. spells: the d20 roll needed (DMG p.79). Without it, a spell
    /// that allows a save is not saved against.
    #[serde(default, skip_serializing_if = "is_default")]
    pub save_vs_spell: Option<u32>,
    /// A single-classed fighter: under "Take Initiative!" its parry is one better and may be
    /// spread over several attackers (§3).
    #[serde(default, skip_serializing_if = "is_default")]
    pub fighter: bool,
    /// "Take Initiative!" §5: it was already running from its foes in the round before the
    /// scene: fleeing on, it does not turn again (a move, not the -2 of turning to flee),
    /// and a pursuer's blow at it is from behind (+2).
    #[serde(default, skip_serializing_if = "is_default")]
    pub fleeing: bool,
    /// "Take Initiative!" §10: hidden in shadows at the start; its foes are unaware of it
    /// until it acts.
    #[serde(default, skip_serializing_if = "is_default")]
    pub hidden: bool,
    /// Size (S, M or L; a monster takes its table's): how big its token is drawn.
    #[serde(default, skip_serializing_if = "is_default")]
    pub size: Option<crate::rules::size::Size>,
    /// A thief's chance to hide in shadows, in percent (PHB p.28), for `Hide`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub hide_in_shadows: Option<u32>,
    /// The main weapon's magic bonus, which a fumble's second roll adds (house rules,
    /// "Critical Misses"); part of `to_hit_bonus` too, where the scene counts it.
    #[serde(default, skip_serializing_if = "is_default")]
    pub weapon_magic: i32,
    /// A character's class (`assets/classes.ron`: fighter, paladin, ranger, cleric, druid,
    /// monk, magic-user, illusionist, thief, assassin, bard); with `level` it gives the
    /// THAC0, attack rate, save vs. spells, hit dice and average hit points the scene does
    /// not give itself.
    #[serde(default, skip_serializing_if = "is_default")]
    pub class: Option<String>,
    /// Its level, 1 to 20 (with `class`).
    #[serde(default, skip_serializing_if = "is_default")]
    pub level: Option<u32>,
    /// Iaijutsu, the quick draw ("Take Initiative!" App. B notes 2, 3, 5): `One` (the
    /// weapon it uses) or `Both` (both weapons it changes between).
    #[serde(default, skip_serializing_if = "is_default")]
    pub iaijutsu: crate::rules::take_initiative::Iaijutsu,
    /// A monk: its hands and feet do real damage (house rules, "Weaponless Combat").
    #[serde(default, skip_serializing_if = "is_default")]
    pub monk: bool,
    /// Spells it ignores (`[Sleep, Hold]`), besides its monster's (MM: the undead).
    #[serde(default, skip_serializing_if = "is_default")]
    pub immune: Vec<crate::rules::monster::Immunity>,
    /// A monk that chooses to do all its weaponless damage as subdual.
    #[serde(default, skip_serializing_if = "is_default")]
    pub subdual: bool,
    /// Psionic: its attack and defense strengths (DMG p.76-78).
    #[serde(default, skip_serializing_if = "is_default")]
    pub psionic: Option<PsionicStrength>,
    /// A non-psionic's saving throw (d20 roll needed) when a psionic blast's area takes it
    /// in, as the DM's table gives it (DMG p.78).
    #[serde(default, skip_serializing_if = "is_default")]
    pub save_vs_psionics: Option<u32>,
}

impl CombatantSpec {
    /// Its fields of "Take Initiative!" alone (`fleeing`, `hidden`), which the book has no
    /// rule for: `check` refuses them in a book scene, `run --system book` too.
    pub fn variant_fields(&self) -> impl Iterator<Item = &'static str> + '_ {
        [("fleeing", self.fleeing), ("hidden", self.hidden)]
            .into_iter()
            .filter_map(|(field, set)| set.then_some(field))
    }

    /// A monk, by its flag or by its class: its hands under weaponless combat, its parry
    /// against missiles under "Take Initiative!" §3 (the engine and the checks ask here).
    pub fn is_monk(&self) -> bool {
        self.monk
            || self
                .class
                .as_deref()
                .is_some_and(|c| c.trim().eq_ignore_ascii_case("monk"))
    }
}

/// Encounter-distance checks (DMG p.49, p.62): each logs a `distance` event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum EncounterCheck {
    /// Outdoors: 6d4", less the larger surprise, less terrain.
    Outdoors {
        /// Terrain.
        #[serde(default, skip_serializing_if = "is_default")]
        terrain: Option<Terrain>,
        /// The larger side's segments of surprise; by default the surprise actually rolled.
        #[serde(default, skip_serializing_if = "is_default")]
        surprise: Option<u32>,
        /// What the check is about.
        #[serde(default, skip_serializing_if = "is_default")]
        note: String,
    },
    /// Indoors: d6+4".
    Indoors {
        /// What the check is about.
        #[serde(default, skip_serializing_if = "is_default")]
        note: String,
    },
    /// A noisy party found by hidden foes at d4".
    Noise {
        /// What the check is about.
        #[serde(default, skip_serializing_if = "is_default")]
        note: String,
    },
    /// A small area caps the distance.
    Area {
        /// The area's size across, in feet.
        across_ft: u32,
        /// What the check is about.
        #[serde(default, skip_serializing_if = "is_default")]
        note: String,
    },
    /// With surprise: 1"-3" or the area, whichever is less.
    Surprise {
        /// The area's size across, in feet, if it is small.
        #[serde(default, skip_serializing_if = "is_default")]
        across_ft: Option<u32>,
        /// What the check is about.
        #[serde(default, skip_serializing_if = "is_default")]
        note: String,
    },
    /// The limit set by the lights and infravision of these figures.
    Vision {
        /// The figures whose light and eyes count.
        figures: Vec<String>,
        /// What the check is about.
        #[serde(default, skip_serializing_if = "is_default")]
        note: String,
    },
}

impl EncounterCheck {
    /// The die this check rolls for a distance (none: it rolls no die): 6d4 outdoors and
    /// a d4 for noise (DMG p.49, p.62), a d6 indoors, the area's die for a small area.
    pub fn distance_die(&self) -> Option<u32> {
        match self {
            EncounterCheck::Outdoors { .. } | EncounterCheck::Noise { .. } => Some(4),
            EncounterCheck::Indoors { .. } => Some(6),
            EncounterCheck::Area { across_ft, .. } => {
                Some(crate::rules::distance::area_die(*across_ft))
            }
            EncounterCheck::Surprise { .. } | EncounterCheck::Vision { .. } => None,
        }
    }
}

/// A side's surprise.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum SurpriseSpec {
    /// Not surprised.
    None,
    /// Surprised on this d6 roll (each pip one segment).
    D6(u32),
    /// Surprised on this d% roll (divide by 16 2/3, round up).
    Percent(u32),
    /// Surprised on this chance in 6: the d6 is rolled (or taken from the fixed dice).
    ChanceIn6(u32),
    /// Surprised on a chance of so many on another die — `Chance(1, 10)`, the duergar's 1 in
    /// 10 — turned into a percentage (DMG p.61): the sides' edges in sixths are added as
    /// 16⅔% each, the d% is rolled against it (or taken from the fixed dice, 1 to 100), and
    /// the segments lost are the roll ÷ 16⅔, rounded up. On a d6 it is `ChanceIn6`.
    Chance(u32, u32),
}

/// The dice a surprise chance may be given on: those whose chances stay exact in 600ths
/// (rules::surprise::Chance).
pub const SURPRISE_DICE: [u32; 7] = [4, 6, 8, 10, 12, 20, 100];

/// The declarations for one surprise segment or round: figure → action. A figure not
/// named carries on with what it was doing.
pub type Declarations = BTreeMap<String, Act>;

/// One full round.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundSpec {
    /// Declarations.
    #[serde(
        default,
        deserialize_with = "unique::map",
        skip_serializing_if = "is_default"
    )]
    pub declare: Declarations,
    /// Each side's initiative die, if fixed.
    #[serde(
        default,
        deserialize_with = "unique::map",
        skip_serializing_if = "is_default"
    )]
    pub initiative: BTreeMap<String, u32>,
    /// Seconds each figure hesitated in declaring (DMG p.71).
    #[serde(
        default,
        deserialize_with = "unique::map",
        skip_serializing_if = "is_default"
    )]
    pub hesitation_s: BTreeMap<String, u32>,
    /// A second action this round after the one declared, where the rules allow one
    /// ([`crate::rules::second_action`]): a move after a potion, a normal attack after an
    /// item of speed's shot.
    #[serde(
        default,
        deserialize_with = "unique::map",
        skip_serializing_if = "is_default"
    )]
    pub then: Declarations,
    /// Under "Take Initiative!": what a figure changes to if its action becomes impossible
    /// (its targets all down) by its base initiative (§1). It then acts on base + 2 + a new
    /// d10 (the figure's next `Initiative` die) + the new action's modifiers.
    #[serde(
        default,
        deserialize_with = "unique::map",
        skip_serializing_if = "is_default"
    )]
    pub change: Declarations,
    /// Under "Take Initiative!": more Appendix B rows a figure adds this round, by id
    /// (`draw_weapon`, `change_weapon`, `higher_ground`, `open_door`...).
    #[serde(
        default,
        deserialize_with = "unique::map",
        skip_serializing_if = "is_default"
    )]
    pub modifiers: BTreeMap<String, Vec<String>>,
    /// House rule `await_enemy`: a figure that waits on another's action this round, by
    /// name, acting when that action is done ("Delay Action").
    #[serde(
        default,
        deserialize_with = "unique::map",
        skip_serializing_if = "is_default"
    )]
    pub awaits: BTreeMap<String, String>,
    /// Psionic combat this round (DMG p.76-78): each psionic's attack and defense modes,
    /// one entry a segment from segment 1; past the last entry it keeps its last choice.
    #[serde(
        default,
        deserialize_with = "unique::map",
        skip_serializing_if = "is_default"
    )]
    pub psionics: BTreeMap<String, Vec<PsiChoice>>,
}

/// One psionic's modes in one segment of psionic combat.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PsiChoice {
    /// The attack mode, by name in the psionic table (none: no attack this segment).
    #[serde(default, skip_serializing_if = "is_default")]
    pub attack: Option<String>,
    /// Whom it attacks (a psionic in the fight).
    #[serde(default, skip_serializing_if = "is_default")]
    pub at: Option<String>,
    /// The defense mode, by name in the psionic table (none: undefended).
    #[serde(default, skip_serializing_if = "is_default")]
    pub defense: Option<String>,
}

/// A psionic's strengths (DMG p.76-78): attack and defense points at the start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PsionicStrength {
    /// Attack strength.
    pub attack: u32,
    /// Defense strength.
    pub defense: u32,
}

/// A declared action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Act {
    /// Melee against the first target still standing.
    Melee {
        /// Targets in order of preference.
        targets: Vec<String>,
        /// A situational to-hit modifier (rear +4, …).
        #[serde(default, skip_serializing_if = "is_default")]
        modifier: i32,
        /// Stop after this many routines this round (the rest are held).
        #[serde(default, skip_serializing_if = "is_default")]
        hold_after: Option<u32>,
    },
    /// Missile fire at the first target still standing — or, with `per_shot`, shot k at the
    /// k-th target (the first still standing if that one is down).
    Missile {
        /// Targets in order of preference (or one per shot).
        targets: Vec<String>,
        /// One target per shot, in order.
        #[serde(default, skip_serializing_if = "is_default")]
        per_shot: bool,
        /// Range and other modifiers.
        #[serde(default, skip_serializing_if = "is_default")]
        modifier: i32,
        /// Stop after this many routines this round.
        #[serde(default, skip_serializing_if = "is_default")]
        hold_after: Option<u32>,
        /// "Take Initiative!" only: move to this point first, arriving on the total, then
        /// fire from there at half the rate (§8b).
        #[serde(default, skip_serializing_if = "is_default")]
        move_to: Option<(f64, f64)>,
        /// "Take Initiative!" only: move toward the first target and fire at this range
        /// in feet, at half the rate; of two doing so at each other, the farther range
        /// fires first (§8c).
        #[serde(default, skip_serializing_if = "is_default")]
        at_range: Option<f64>,
    },
    /// Charge (DMG p.66); with no target, or to a point, it is movement at the charge rate
    /// with no blow — but under "Take Initiative!" a charge to a point strikes the foe it
    /// meets there (§11a).
    Charge {
        /// Targets in order of preference.
        #[serde(default, skip_serializing_if = "is_default")]
        targets: Vec<String>,
        /// A point to charge to, in feet (when there is no target).
        #[serde(default, skip_serializing_if = "is_default")]
        to: Option<(f64, f64)>,
        /// A situational to-hit modifier.
        #[serde(default, skip_serializing_if = "is_default")]
        modifier: i32,
        /// "Take Initiative!" only: hurl the (thrown) weapon on the total, at the range of
        /// the half-way point, before coming to blows (§9, §9h).
        #[serde(default, skip_serializing_if = "is_default")]
        hurl: bool,
    },
    /// Cast a spell (or use a device) from `assets/spells.ron`.
    Cast {
        /// The spell's name.
        spell: String,
        /// Its target, if any.
        #[serde(default, skip_serializing_if = "is_default")]
        target: Option<String>,
        /// Casting time, overriding the table; with it any name may be cast, in the table
        /// or not.
        #[serde(default, skip_serializing_if = "is_default")]
        segments: Option<u32>,
        /// A rod, staff or wand: keeps working when its wielder is hit, unless the wielder
        /// falls (DMG p.65). Devices in the table are marked there.
        #[serde(default, skip_serializing_if = "is_default")]
        device: bool,
        /// A spell with an area (sleep, fireball, silence, light, darkness) cast at a point,
        /// in feet, instead of round a target: its area is centred there and stays there.
        #[serde(default, skip_serializing_if = "is_default")]
        at: Option<(f64, f64)>,
    },
    /// Close: move to engage the first target still standing, with no blows this round
    /// (DMG p.66: a round spent closing). "Melee" instead stands and strikes whoever comes
    /// within reach. Charged by its target, a closing figure still strikes back at contact.
    Close {
        /// Targets in order of preference.
        targets: Vec<String>,
    },
    /// Set a spear or pole arm against a charge ("Take Initiative!" §9): against a charger
    /// (one of `against`, or any when empty) it strikes first and does double damage; a set
    /// no charge meets does nothing.
    Set {
        /// The chargers it is set against (any when empty).
        #[serde(default, skip_serializing_if = "is_default")]
        against: Vec<String>,
    },
    /// Turn undead: follows initiative, beats a charge, and is not spoiled by a hit unless
    /// the cleric is slain or incapacitated (DMG p.65-67). Its outcome is not modelled.
    Turn {
        /// The undead it is aimed at, in order of preference.
        targets: Vec<String>,
    },
    /// Two cantrips in one round (UA p.45): the first in segment 1, the second d4 segments
    /// later.
    Cantrips {
        /// The first cantrip.
        first: String,
        /// The second.
        second: String,
        /// Their target, if any.
        #[serde(default, skip_serializing_if = "is_default")]
        target: Option<String>,
    },
    /// Drink a potion: it works d4+1 segments after it is drunk (DMG p.119), after
    /// `prepare` segments spent getting it out.
    Potion {
        /// The potion's name.
        name: String,
        /// Segments spent before drinking (taking it from a pouch: 1).
        #[serde(default, skip_serializing_if = "is_default")]
        prepare: u32,
    },
    /// Move toward a point or a figure at the normal rate.
    Move {
        /// Figure to approach (stopping at reach).
        #[serde(default, skip_serializing_if = "is_default")]
        toward: Option<String>,
        /// Point to reach, in feet.
        #[serde(default, skip_serializing_if = "is_default")]
        to: Option<(f64, f64)>,
    },
    /// Turn and flee ("Take Initiative!" §4; that system only): −2 initiative; on its total
    /// each opponent in melee with it gets a free attack at +4, then it runs for the point.
    Flee {
        /// Where it runs, in feet.
        to: (f64, f64),
    },
    /// Withdraw ("Take Initiative!" §6; that system only): +4 initiative; on its total it
    /// backs off toward the point at half its move, drawing no free attack, and is still
    /// in melee with a foe that follows.
    Withdraw {
        /// Where it backs off to, in feet.
        to: (f64, f64),
    },
    /// Expect an opponent ("Take Initiative!" §2; that system only): +5 initiative; when
    /// that opponent acts, the figure answers with its weapon at the later of its own
    /// total and that segment, - 3 + a new d10 + the weapon's speed.
    Expect {
        /// The opponent it waits for.
        target: String,
    },
    /// Hide in shadows ("Take Initiative!" §10; that system only): +8 initiative; on its
    /// total, unobserved, it rolls under its `hide_in_shadows` chance.
    Hide,
    /// Block an opponent's way ("Take Initiative!" §9b; that system only): an opponent
    /// charging past within reach stops to trade blows, unless its shove succeeds.
    Block {
        /// The opponents it blocks.
        against: Vec<String>,
    },
    /// Parry in place of an attack ("Take Initiative!" §3; that system only): if its base
    /// initiative comes before an attacker's total, that attacker's blows on it are at
    /// minus half its level (rounded up, +1 for a single-classed fighter, who may spread
    /// it over several attackers).
    Parry {
        /// The attackers it parries, in order.
        against: Vec<String>,
    },
    /// Any other 6-second act (hide in shadows, draw a weapon, take off armor).
    Other(String),
    /// Do nothing.
    Hold,
}

/// A point of the map in words: "the point (102.4, 52.3) ft".
pub fn point_words((x, y): (f64, f64)) -> String {
    format!("the point ({x}, {y}) ft")
}

impl Act {
    /// Every point of the map the declaration names, with its field: where it moves,
    /// charges, flees or withdraws to, or casts at.
    pub fn points(&self) -> Vec<(&'static str, (f64, f64))> {
        match self {
            Act::Move { to: Some(p), .. } | Act::Charge { to: Some(p), .. } => vec![("to", *p)],
            Act::Flee { to } | Act::Withdraw { to } => vec![("to", *to)],
            Act::Cast { at: Some(p), .. } => vec![("at", *p)],
            Act::Missile {
                move_to: Some(p), ..
            } => vec![("move_to", *p)],
            _ => Vec::new(),
        }
    }

    /// The point an area spell is cast at, if it is cast at one.
    pub fn point(&self) -> Option<(f64, f64)> {
        match self {
            Act::Cast { at, .. } => *at,
            _ => None,
        }
    }

    /// Melee at these targets, with no modifier and nothing held.
    pub fn melee(targets: Vec<String>) -> Act {
        Act::Melee {
            targets,
            modifier: 0,
            hold_after: None,
        }
    }

    /// Melee at one figure.
    pub fn melee_at(name: &str) -> Act {
        Act::melee(vec![name.to_string()])
    }

    /// Missile fire at these targets, standing, with no modifier.
    pub fn missile(targets: Vec<String>) -> Act {
        Act::Missile {
            targets,
            per_shot: false,
            modifier: 0,
            hold_after: None,
            move_to: None,
            at_range: None,
        }
    }

    /// A charge at these targets, with no modifier.
    pub fn charge(targets: Vec<String>) -> Act {
        Act::Charge {
            targets,
            to: None,
            modifier: 0,
            hurl: false,
        }
    }

    /// The names it aims at, mutable (for renaming and forgetting figures).
    fn target_names_mut(&mut self) -> Vec<&mut String> {
        match self {
            Act::Melee { targets, .. }
            | Act::Missile { targets, .. }
            | Act::Charge { targets, .. }
            | Act::Turn { targets }
            | Act::Close { targets }
            | Act::Set { against: targets }
            | Act::Parry { against: targets }
            | Act::Block { against: targets } => targets.iter_mut().collect(),
            Act::Cast { target, .. } | Act::Cantrips { target, .. } => target.iter_mut().collect(),
            Act::Move { toward, .. } => toward.iter_mut().collect(),
            Act::Expect { target } => vec![target],
            _ => Vec::new(),
        }
    }

    /// Renames a figure it aims at.
    pub fn rename_target(&mut self, from: &str, to: &str) {
        for n in self.target_names_mut() {
            if n == from {
                *n = to.to_string();
            }
        }
    }

    /// Forgets a figure it aimed at (one deleted); false when nothing it needs is left.
    pub fn forget_target(&mut self, name: &str) -> bool {
        match self {
            Act::Melee { targets, .. }
            | Act::Missile { targets, .. }
            | Act::Close { targets }
            | Act::Turn { targets } => {
                targets.retain(|t| t != name);
                !targets.is_empty()
            }
            Act::Charge { targets, to, .. } => {
                targets.retain(|t| t != name);
                !targets.is_empty() || to.is_some()
            }
            Act::Set { against: targets } => {
                targets.retain(|t| t != name);
                true
            }
            // A parry or a block of no one left goes with its last opponent.
            Act::Parry { against: targets } | Act::Block { against: targets } => {
                targets.retain(|t| t != name);
                !targets.is_empty()
            }
            Act::Cast { target, .. } | Act::Cantrips { target, .. } => {
                if target.as_deref() == Some(name) {
                    *target = None;
                }
                true
            }
            Act::Move { toward, to } => {
                if toward.as_deref() == Some(name) {
                    *toward = None;
                }
                toward.is_some() || to.is_some()
            }
            Act::Expect { target } => target != name,
            _ => true,
        }
    }

    /// The figures this action is aimed at.
    pub fn targets(&self) -> Vec<&str> {
        match self {
            Act::Melee { targets, .. }
            | Act::Missile { targets, .. }
            | Act::Charge { targets, .. }
            | Act::Turn { targets }
            | Act::Close { targets }
            | Act::Set { against: targets }
            | Act::Parry { against: targets }
            | Act::Block { against: targets } => targets.iter().map(String::as_str).collect(),
            Act::Expect { target } => vec![target.as_str()],
            Act::Cast { target, .. } | Act::Cantrips { target, .. } => {
                target.iter().map(String::as_str).collect()
            }
            Act::Move { toward, .. } => toward.iter().map(String::as_str).collect(),
            _ => Vec::new(),
        }
    }

    /// The situational to-hit modifier and the routine after which the rest are held, of a
    /// melee, missile or charge declaration (0 and none for anything else).
    pub fn modifier_and_hold(&self) -> (i32, Option<u32>) {
        match self {
            Act::Melee {
                modifier,
                hold_after,
                ..
            }
            | Act::Missile {
                modifier,
                hold_after,
                ..
            } => (*modifier, *hold_after),
            Act::Charge { modifier, .. } => (*modifier, None),
            _ => (0, None),
        }
    }

    /// Whether this is a device with no activation time: `device: true`, no `segments`,
    /// and none in the spell table ([`rules::spell::instant_device`](crate::rules::spell::instant_device)):
    /// used when its side's initiative comes, not timed as a spell.
    pub fn is_instant_device(&self) -> bool {
        match self {
            Act::Cast {
                spell,
                segments,
                device: true,
                ..
            } => {
                let known = crate::tables::find_spell(spell).map(|s| s.segments);
                crate::rules::spell::instant_device(true, *segments, known).is_some()
            }
            _ => false,
        }
    }

    /// A short verb for the log.
    /// Whether it is a declaration of "Take Initiative!" alone, which the book has no
    /// action for: flee, parry, withdraw (but the house rules' fighting withdrawal, with
    /// `parting_shots`), expect, hide, block, a shot on the move or at a range, a hurl.
    pub fn is_variant_only(&self, parting_shots: bool) -> bool {
        match self {
            Act::Withdraw { .. } => !parting_shots,
            Act::Flee { .. }
            | Act::Parry { .. }
            | Act::Expect { .. }
            | Act::Hide
            | Act::Block { .. } => true,
            Act::Missile {
                move_to, at_range, ..
            } => move_to.is_some() || at_range.is_some(),
            Act::Charge { hurl, .. } => *hurl,
            _ => false,
        }
    }

    pub fn verb(&self) -> String {
        match self {
            Act::Melee { .. } => "melee".into(),
            Act::Missile { .. } => "missile fire".into(),
            Act::Charge { .. } => "charge".into(),
            Act::Turn { .. } => "turn undead".into(),
            Act::Set { .. } => "set against a charge".into(),
            Act::Close { .. } => "close".into(),
            Act::Cast {
                spell,
                device: true,
                ..
            } => format!("use {spell}"),
            Act::Cast {
                spell, at: Some(p), ..
            } => format!("cast {spell} at {}", point_words(*p)),
            Act::Cast { spell, .. } => format!("cast {spell}"),
            Act::Cantrips { first, second, .. } => format!("cantrips {first} and {second}"),
            Act::Potion { name, .. } => format!("drink {name}"),
            Act::Move { .. } => "move".into(),
            Act::Flee { .. } => "flee".into(),
            Act::Parry { .. } => "parry".into(),
            Act::Withdraw { .. } => "withdraw".into(),
            Act::Expect { .. } => "expect".into(),
            Act::Hide => "hide in shadows".into(),
            Act::Block { .. } => "block".into(),
            Act::Other(what) => what.clone(),
            Act::Hold => "hold".into(),
        }
    }
}

/// Kinds of dice a scene can fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum DieKind {
    /// Surprise d6 (keyed by side).
    Surprise,
    /// Encounter distance dice (key "any").
    Distance,
    /// Initiative d6 (keyed by side); rounds can also give them inline.
    Initiative,
    /// d20 to hit (keyed by attacker).
    ToHit,
    /// Damage dealt by one strike, as the text totals it (keyed by attacker).
    Damage,
    /// d4 for potions and cantrips (keyed by figure).
    D4,
    /// d20 saving throws (keyed by the figure that saves).
    Save,
    /// d% rolls: hiding in shadows, a psionic outcome's chance (keyed by the figure that
    /// rolls: the hider, the psionic attacker).
    Percent,
    /// A fumbled weapon's flight (house rules, "Critical Misses"): the d3 squares, then the
    /// d8 direction (keyed by the fumbler).
    Scatter,
    /// Which combatant a missile loosed into a melee strikes (DMG p.63): 1 the target, then
    /// the shooter's comrades in the melee in the scene's order (keyed by the shooter).
    IntoMelee,
}

impl std::fmt::Display for DieKind {
    /// As the scene writes it (`ToHit`).
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl DieKind {
    /// What a fixed die of this kind may show (a fixed `Damage` is the damage as the text
    /// totals it).
    pub fn range(self) -> std::ops::RangeInclusive<i32> {
        match self {
            DieKind::Surprise => 1..=6,
            // d4, d6, or the die of a small area (up to 1000 ft across: d101).
            DieKind::Distance => 1..=101,
            DieKind::Initiative => 1..=8,
            DieKind::ToHit => 1..=20,
            DieKind::Damage => 0..=1000,
            DieKind::D4 => 1..=4,
            DieKind::Save => 1..=20,
            DieKind::Percent => 1..=100,
            DieKind::Scatter => 1..=8,
            DieKind::IntoMelee => 1..=8,
        }
    }
}

/// A figure's identity inside the engine: its place in the scene's list of combatants.
/// Names are for words; the engine, the log's consumers and the viewer match figures by
/// this.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FigureId(pub u32);

impl Scene {
    /// Its title: the name, and what it is about where it says ("Orc den", not "Orc den — ").
    pub fn title(&self) -> String {
        match self.about.trim() {
            "" => self.name.clone(),
            about => format!("{} — {about}", self.name),
        }
    }

    /// The same scene played under `system` instead of its own. Its fixed initiative dice
    /// were written for its own system (d6 by side, or d10 by figure) and mean nothing
    /// under the other, even where a side and a figure share a name: they are dropped, and
    /// the other system rolls from the seed. The book's timing house rules have no place
    /// under the variant and are dropped too (callers that refuse them check first).
    pub fn switch_system(&mut self, system: crate::rules::options::RulesSystem) {
        if system == self.rules.system {
            return;
        }
        self.rules.system = system;
        for r in &mut self.rounds {
            r.initiative.clear();
        }
        if system == crate::rules::options::RulesSystem::TakeInitiative {
            self.rules.house = self.rules.house.without_timing();
            // Hesitation is the book's (DMG p.71): the variant has no such delay.
            for r in &mut self.rounds {
                r.hesitation_s.clear();
            }
        }
    }

    /// What of the variant's own the scene declares, which the book cannot play.
    pub fn variant_only(&self) -> Vec<VariantOnly> {
        let parting = self.rules.house.parting_shots;
        let acts = |d: &Declarations| -> Vec<(String, String)> {
            d.iter()
                .filter(|(_, a)| a.is_variant_only(parting))
                .map(|(who, a)| {
                    let what = match a {
                        // Only the hurl is the variant's: the book plays the charge.
                        Act::Charge { hurl: true, .. } => {
                            "a weapon hurled on the charge (hurl: true)".to_string()
                        }
                        a => format!("'{}'", a.verb()),
                    };
                    (who.clone(), what)
                })
                .collect()
        };
        let at = |list, item, field, figure, what| VariantOnly {
            list,
            item,
            field,
            figure,
            what,
        };
        let mut out = Vec::new();
        for (k, d) in self.surprise_segments.iter().enumerate() {
            for (who, what) in acts(d) {
                out.push(at("surprise_segments", k, None, who, what));
            }
        }
        for (r, round) in self.rounds.iter().enumerate() {
            for (who, what) in acts(&round.declare) {
                out.push(at("rounds", r, Some("declare"), who, what));
            }
            for who in round.change.keys() {
                let what = "a change of action".to_string();
                out.push(at("rounds", r, Some("change"), who.clone(), what));
            }
            for who in round.modifiers.keys() {
                let what = "Appendix B modifiers".to_string();
                out.push(at("rounds", r, Some("modifiers"), who.clone(), what));
            }
        }
        out
    }

    /// The figures' fields of the variant's own, which the book cannot play: each
    /// figure's index and the field (`fleeing`, `hidden`).
    pub fn variant_fields(&self) -> Vec<(usize, &'static str)> {
        let mut out = Vec::new();
        for (i, f) in self.combatants.iter().enumerate() {
            out.extend(f.variant_fields().map(|field| (i, field)));
        }
        out
    }

    /// The id of the figure with this name, if the scene has one.
    pub fn figure_id(&self, name: &str) -> Option<FigureId> {
        self.combatants
            .iter()
            .position(|c| c.name == name)
            .map(|i| FigureId(i as u32))
    }

    /// A scene of one round, without a map: these figures, these declarations and each
    /// side's initiative die.
    pub fn one_round(
        name: &str,
        setting: Setting,
        rules: RulesOptions,
        combatants: Vec<CombatantSpec>,
        declare: Declarations,
        initiative: BTreeMap<String, u32>,
    ) -> Scene {
        Scene {
            name: name.into(),
            about: String::new(),
            setting,
            seed: 0,
            rules,
            map: None,
            combatants,
            encounter: Vec::new(),
            surprise: BTreeMap::new(),
            surprise_segments: Vec::new(),
            rounds: vec![RoundSpec {
                declare,
                initiative,
                hesitation_s: BTreeMap::new(),
                then: BTreeMap::new(),
                change: BTreeMap::new(),
                modifiers: BTreeMap::new(),
                awaits: BTreeMap::new(),
                psionics: BTreeMap::new(),
            }],
            dice: BTreeMap::new(),
            psionics: Default::default(),
            tour: Vec::new(),
        }
    }

    /// The combatant with this name.
    pub fn combatant(&self, name: &str) -> Option<&CombatantSpec> {
        self.combatants.iter().find(|c| c.name == name)
    }
}

/// A declaration of "Take Initiative!" alone in a scene, which the book cannot play: its
/// place (`rounds[0].declare`: list, item, field), the figure, and what it is in words
/// ("'expect'", "a change of action", "Appendix B modifiers").
#[derive(Clone, Debug, PartialEq)]
pub struct VariantOnly {
    /// The list it is in (`rounds`, `surprise_segments`).
    pub list: &'static str,
    /// Which item of the list.
    pub item: usize,
    /// The item's field (`declare`, `change`, `modifiers`), if any.
    pub field: Option<&'static str>,
    /// The figure.
    pub figure: String,
    /// What it is, in words.
    pub what: String,
}
