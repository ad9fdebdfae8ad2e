//! The ranges every number in a scene (and in `firststrike first`) must lie in. Anything
//! outside is refused with its location before the engine sees it, so no value from input
//! can overflow, panic, hang the engine or make it run for hours. Where the books give a
//! range (Dexterity 3-25, AC -10 to 10, a d6) it is the books'; elsewhere it is far past
//! anything the books print, and says so.

use std::ops::RangeInclusive;

/// Movement rate in inches (the fastest creatures in the books move 36"; PHB p.101-102).
pub const MOVEMENT_IN: RangeInclusive<u32> = 0..=60;
/// A d10 ("Take Initiative!" initiative, and its reroll on a change of action).
pub const D10: RangeInclusive<u32> = 1..=10;
/// A spell's level (PHB: 1st to 9th; 0 a cantrip, UA p.43, cast at +6 + 0 under "Take
/// Initiative!" as a scene's `Cantrips` are).
pub const SPELL_LEVEL: RangeInclusive<u32> = 0..=9;
/// Melee targets of one figure in a round (as many as routines can reach).
pub const TARGETS: RangeInclusive<u32> = 1..=12;
/// Dexterity (PHB p.11; to 25 for the gods).
pub const DEXTERITY: RangeInclusive<u32> = 3..=25;
/// Weapon speed factor (PHB p.38: 1 to 15 in the table).
pub const SPEED_FACTOR: RangeInclusive<u32> = 0..=20;
/// Weapon length in feet (the awl pike's 18 ft is the longest in PHB p.38).
pub const LENGTH_FT: RangeInclusive<f64> = 0.0..=30.0;
/// Reach, centre to centre, in feet (more than 0).
pub const REACH_FT: RangeInclusive<f64> = 0.1..=100.0;
/// Attack routines in one round (the attack-sequence chart shows six, DMG p.63; hasted
/// multi-routine monsters run past it by extrapolation).
pub const ROUTINES: RangeInclusive<u32> = 1..=12;
/// The rounds an attack rate counts over ("3/2": 3 routines per 2 rounds).
pub const RATE_ROUNDS: RangeInclusive<u32> = 1..=2;
/// THAC0, the d20 needed to hit AC 0 (DMG p.74).
pub const THAC0: RangeInclusive<i32> = -10..=30;
/// A standing to-hit bonus or a situational modifier.
pub const TO_HIT_BONUS: RangeInclusive<i32> = -20..=20;
/// A weapon's magic: +5 at best, a cursed one down to -5.
pub const WEAPON_MAGIC: RangeInclusive<i32> = -5..=5;
/// A standing damage bonus.
pub const DAMAGE_BONUS: RangeInclusive<i32> = -20..=50;
/// Armor class and armor type (DMG p.74).
pub const AC: RangeInclusive<i32> = -10..=10;
/// Hit points at the start.
pub const HP: RangeInclusive<i32> = 1..=1000;
/// Hit dice or level (the death spell's and sleep's limits read them).
pub const HIT_DICE: RangeInclusive<u32> = 0..=50;
/// A saving throw: the d20 roll needed.
pub const SAVE: RangeInclusive<u32> = 2..=20;
/// Infravision and light radii in feet.
pub const VISION_FT: RangeInclusive<f64> = 0.0..=1000.0;
/// Load carried, in pounds, and the Strength allowance.
pub const LOAD_LB: RangeInclusive<u32> = 0..=10_000;
/// See [`LOAD_LB`].
pub const ALLOWANCE_LB: RangeInclusive<i32> = -1000..=1000;
/// Where a figure or a point may be, in feet from the map's corner (either way).
pub const COORDINATE_FT: f64 = 100_000.0;
/// Casting or activation time in segments (0: instant; up to ten rounds).
pub const CASTING_SEGMENTS: RangeInclusive<u32> = 0..=100;
/// Segments spent getting a potion out before drinking it.
pub const POTION_PREPARE: RangeInclusive<u32> = 0..=10;
/// Seconds of hesitation in declaring (DMG p.71: a round is 60).
pub const HESITATION_S: RangeInclusive<u32> = 0..=60;
/// Figures in a scene.
pub const FIGURES: usize = 2000;
/// Rounds a scene declares, or `run --rounds` plays.
pub const ROUNDS: u32 = 1000;
/// Map cells across and down, and the cell's size in feet.
pub const MAP_CELLS: usize = 1000;
/// See [`MAP_CELLS`].
pub const CELL_FT: RangeInclusive<f64> = 0.5..=100.0;
/// A scene file's size in bytes.
pub const FILE_BYTES: usize = 4 << 20;

/// "must be within 1..=6" for a message.
pub fn range_text<T: std::fmt::Display>(r: &RangeInclusive<T>) -> String {
    format!("{} to {}", r.start(), r.end())
}

/// A whole number outside its range, said as a message.
pub fn check<T: PartialOrd + std::fmt::Display + Copy>(
    what: &str,
    v: T,
    r: &RangeInclusive<T>,
) -> Result<(), String> {
    if r.contains(&v) {
        Ok(())
    } else {
        Err(format!("{what} {v} is outside {}", range_text(r)))
    }
}

/// A number of feet that must be finite and within its range.
pub fn check_ft(what: &str, v: f64, r: &RangeInclusive<f64>) -> Result<(), String> {
    if v.is_finite() && r.contains(&v) {
        Ok(())
    } else {
        Err(format!(
            "{what} {} ft is outside {} ft",
            feet(v),
            range_text(r)
        ))
    }
}

/// A range in feet: finite, above 0, within the coordinate bound.
pub fn check_range_ft(r: f64) -> Result<(), String> {
    if r.is_finite() && r > 0.0 && r <= COORDINATE_FT {
        Ok(())
    } else {
        Err(format!(
            "a range of {} ft must be finite, above 0 and at most {COORDINATE_FT}",
            feet(r)
        ))
    }
}

/// A number of feet as a person reads it in an error: `-1e300`, not three hundred digits.
fn feet(x: f64) -> String {
    if x.is_finite() && x.abs() >= 1e9 {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

/// A point that must be finite and within [`COORDINATE_FT`] of the corner.
pub fn check_point(what: &str, p: (f64, f64)) -> Result<(), String> {
    let ok = |x: f64| x.is_finite() && x.abs() <= COORDINATE_FT;
    if ok(p.0) && ok(p.1) {
        Ok(())
    } else {
        Err(format!(
            "{what} ({}, {}) must be finite feet within ±{COORDINATE_FT}",
            feet(p.0),
            feet(p.1)
        ))
    }
}

/// Figures a squad adds at once in the editor.
pub const SQUAD: u32 = 50;

/// A psionic attack or defense strength (the books' strongest psionics have a few hundred
/// points, DMG p.76-78; this is far past that).
pub const PSIONIC_STRENGTH: RangeInclusive<u32> = 0..=1000;

/// The values a scene field holds, in words, for a number out of its type's bounds (a
/// negative count): the field's limits where it has some, else "a whole number, 0 or more".
pub fn allowed_for(field: &str) -> String {
    let range = |r: &RangeInclusive<u32>| format!("allowed: {} to {}", r.start(), r.end());
    let signed = |r: &RangeInclusive<i32>| format!("allowed: {} to {}", r.start(), r.end());
    match field {
        "hp" => signed(&HP),
        "ac" | "ac_type" => signed(&AC),
        "thac0" => signed(&THAC0),
        "to_hit_bonus" | "modifier" => signed(&TO_HIT_BONUS),
        "damage_bonus" => signed(&DAMAGE_BONUS),
        "weapon_magic" => signed(&WEAPON_MAGIC),
        "strength_allowance_lb" => signed(&ALLOWANCE_LB),
        "seed" => "allowed: a whole number from 0 to 18446744073709551615".to_string(),
        "dexterity" => range(&DEXTERITY),
        "movement" => range(&MOVEMENT_IN),
        "speed_factor" => range(&SPEED_FACTOR),
        "hit_dice" => range(&HIT_DICE),
        "save" | "save_vs_spell" | "save_vs_spells" => range(&SAVE),
        "segments" => range(&CASTING_SEGMENTS),
        "prepare" => range(&POTION_PREPARE),
        "level" => range(&crate::rules::class::LEVELS),
        "initiative" => {
            "allowed: 1 to 6 on a side's d6 (1 to 8 on a d8), 1 to 10 on a figure's d10".to_string()
        }
        "surprise" => {
            "allowed: D6(1 to 6), Percent(1 to 100), ChanceIn6(0 to 6), Chance(N, SIDES) (SIDES 4, 6, 8, 10, 12, 20 or 100; N 0 to SIDES) or None".to_string()
        }
        "load_lb" | "load" => range(&LOAD_LB),
        "rounds_attacking" => range(&RATE_ROUNDS),
        _ if field.contains("hesitation") => range(&HESITATION_S),
        _ => "allowed: a whole number, 0 or more".to_string(),
    }
}
