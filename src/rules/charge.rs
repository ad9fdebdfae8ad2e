//! The charge (DMG p.66; PHB p.102): who may charge, how fast, when the charger arrives,
//! armor class while charging, and who strikes first at contact.

use super::cite::{self, Rule};
use super::distance::Setting;
use super::movement::feet_per_segment;
use super::options::RulesSystem;
use serde::{Deserialize, Serialize};

/// Segments in a round.
pub const SEGMENTS_PER_ROUND: u32 = 10;

/// How a creature moves, for the outdoor charge bonus.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Body {
    /// Two legs: +1/3 outdoors.
    #[default]
    Biped,
    /// Four legs: +1/2 outdoors.
    Quadruped,
}

/// Whether normal melee is possible this round (DMG p.66): not when the foes start the
/// round more than 1" apart; then a round must be spent closing, or a charge made.
pub fn melee_possible(start_distance_ft: f64, setting: Setting) -> (bool, Rule) {
    (
        start_distance_ft <= setting.feet_per_inch() + 1e-9,
        cite::CHARGE_NO_MELEE,
    )
}

/// The charge movement rate in inches (DMG p.66): doubled indoors; outdoors bipeds add 1/3
/// and quadrupeds 1/2.
pub fn charge_rate_inches(base_inches: u32, setting: Setting, body: Body) -> (f64, Rule) {
    let base = f64::from(base_inches);
    let rate = match (setting, body) {
        (Setting::Indoors, _) => base * 2.0,
        (Setting::Outdoors, Body::Biped) => base * 4.0 / 3.0,
        (Setting::Outdoors, Body::Quadruped) => base * 1.5,
    };
    (rate, cite::CHARGE_RATE)
}

/// Feet a charger covers each segment (DMG p.66, PHB p.102): 12" indoors → 24 ft.
pub fn charge_feet_per_segment(base_inches: u32, setting: Setting, body: Body) -> f64 {
    feet_per_segment(charge_rate_inches(base_inches, setting, body).0, setting)
}

/// Feet a charger covers in a round under a rules system: the book's charge rate (DMG
/// p.66: half again, more for four legs outdoors), or "Take Initiative!"'s (half again, at
/// most 24", §9).
pub fn charge_feet_per_round(
    system: RulesSystem,
    base_inches: u32,
    setting: Setting,
    body: Body,
) -> f64 {
    match system {
        RulesSystem::Book => charge_feet_per_segment(base_inches, setting, body) * 10.0,
        RulesSystem::TakeInitiative => super::movement::feet_per_round(
            super::take_initiative::charge::charge_inches(base_inches).0,
            setting,
        ),
    }
}

/// How far a spear or pole arm set against a charge reaches the charger (DMG p.66): its
/// length, when longer than the figure's reach — an awl pike's 18 ft meets an ogre that
/// stops at its own 10.
pub fn set_weapon_reach(reach_ft: f64, weapon_length_ft: Option<f64>) -> (f64, Rule) {
    (
        reach_ft.max(weapon_length_ft.unwrap_or(0.0)),
        cite::CHARGE_SET,
    )
}

/// Whether a creature may charge (DMG p.66): not when encumbered.
pub fn may_charge(encumbered: bool) -> (bool, Rule) {
    (!encumbered, cite::CHARGE_ENCUMBERED)
}

/// The segment in which a charger covering `distance_ft` at `feet_per_segment` arrives:
/// ⌈distance ÷ feet per segment⌉ (DMG p.66: the giant needs 200 ÷ 24 → 9 segments).
/// Returns 0 when there is nothing to cover.
pub fn arrival_segment(distance_ft: f64, feet_per_segment: f64) -> (u32, Rule) {
    if distance_ft <= 0.0 {
        return (0, cite::CHARGE_ARRIVAL);
    }
    // A tiny tolerance keeps exact multiples exact despite floating point (240 ÷ 24 = 10).
    let n = (distance_ft / feet_per_segment - 1e-9).ceil().max(1.0) as u32;
    (n, cite::CHARGE_ARRIVAL)
}

/// Two figures charging each other (DMG p.66): both movements close the gap, so they meet
/// sooner than either alone would. `a` and `b` are (feet per segment, reach in feet) and
/// `distance_ft` is between their centres. Both close until the longer reach touches; then
/// the one with the shorter reach covers the rest alone. Returns the segment each comes
/// within its own reach of the other (0: already there).
pub fn mutual_arrival(distance_ft: f64, a: (f64, f64), b: (f64, f64)) -> ((u32, u32), Rule) {
    let ((fa, ra), (fb, rb)) = (a, b);
    let long = ra.max(rb);
    let both = (distance_ft - long).max(0.0) / (fa + fb).max(f64::MIN_POSITIVE);
    let when = |own_reach: f64, own_speed: f64| -> u32 {
        let t = if own_reach >= long {
            both
        } else {
            both + (long - own_reach) / own_speed.max(f64::MIN_POSITIVE)
        };
        if t <= 1e-9 {
            0
        } else {
            (t - 1e-9).ceil().max(1.0) as u32
        }
    };
    ((when(ra, fa), when(rb, fb)), cite::CHARGE_ARRIVAL)
}

/// Whether a charger covering `distance_ft` at `feet_per_segment` arrives within `segments`
/// segments (a surprise segment is one; a round ten).
pub fn arrives_within(distance_ft: f64, feet_per_segment: f64, segments: u32) -> bool {
    arrival_segment(distance_ft, feet_per_segment).0 <= segments
}

/// Whether the charge reaches its target within the round (DMG p.66: the charge brings the
/// charger into combat "provided movement rate (plus bonus) allows").
pub fn arrives_this_round(distance_ft: f64, feet_per_segment: f64) -> bool {
    arrival_segment(distance_ft, feet_per_segment).0 <= SEGMENTS_PER_ROUND
}

/// A charger's armor class (DMG p.66): no Dexterity bonus; a creature without one is one
/// class worse instead; AC 10 creatures are not penalised. `dex_ac_bonus` is the bonus
/// (positive, in classes) already counted in `ac`.
pub fn charging_ac(ac: i32, dex_ac_bonus: i32) -> (i32, Rule) {
    let worse = if dex_ac_bonus > 0 {
        // Losing the bonus never makes it worse than AC 10, which takes no penalty.
        super::dexterity::without_bonus(ac, dex_ac_bonus)
    } else if ac >= 10 {
        ac
    } else {
        ac + 1
    };
    (worse, cite::CHARGE_AC)
}

/// Who strikes first when a charge makes contact (DMG p.66): initiative is not rolled; the
/// longer weapon or reach first. Returns `Some(true)` when the charger strikes first,
/// `Some(false)` for the defender, `None` when reaches are equal (blows together).
pub fn contact_order(charger_reach_ft: f64, defender_reach_ft: f64) -> (Option<bool>, Rule) {
    let o = if charger_reach_ft > defender_reach_ft {
        Some(true)
    } else if defender_reach_ft > charger_reach_ft {
        Some(false)
    } else {
        None
    };
    (o, cite::CHARGE_REACH)
}

/// The charger's to-hit bonus (DMG p.66): +2 if it survives any blows that come first.
pub fn charge_to_hit_bonus(survived_first_blows: bool) -> (i32, Rule) {
    (if survived_first_blows { 2 } else { 0 }, cite::CHARGE_BONUS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A set weapon reaches as far as its length or the figure's reach, whichever is more.
    #[test]
    fn a_set_weapon_reaches_its_length() {
        for (reach, length, want) in [
            (5.0, Some(18.0), 18.0),
            (10.0, Some(5.0), 10.0),
            (5.0, None, 5.0),
        ] {
            let (got, rule) = set_weapon_reach(reach, length);
            assert_eq!(got, want);
            assert_eq!(rule, cite::CHARGE_SET);
        }
    }

    #[test]
    fn charging_ac_cases() {
        assert_eq!(charging_ac(4, 0).0, 5);
        assert_eq!(charging_ac(2, 2).0, 4);
        assert_eq!(charging_ac(10, 0).0, 10);
        // AC 10 with a Dexterity bonus: no worse than AC 10 (DMG p.66).
        assert_eq!(charging_ac(10, 2).0, 10);
        assert_eq!(charging_ac(9, 2).0, 10);
    }

    #[test]
    fn outdoor_rates() {
        assert_eq!(
            charge_feet_per_segment(12, Setting::Outdoors, Body::Biped),
            48.0
        );
        assert_eq!(
            charge_feet_per_segment(12, Setting::Outdoors, Body::Quadruped),
            54.0
        );
        assert_eq!(
            charge_feet_per_segment(6, Setting::Indoors, Body::Biped),
            12.0
        );
    }
}
