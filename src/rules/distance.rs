//! Encounter distance (DMG p.49, p.62; PHB p.39): outdoor and indoor rolls, terrain,
//! noise, small areas, surprise, and the limits set by light and infravision.
//!
//! Distances are returned in feet. Indoors one inch of scale is 10 feet; outdoors it is
//! 10 yards (PHB p.39), so the lizard men's 10" in the marsh is 100 yards = 300 feet.

use super::cite::{self, Rule};
use serde::{Deserialize, Serialize};

/// Whether a scene is inside (dungeon scale) or outside (wilderness scale).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Setting {
    /// 1" = 10 feet.
    #[default]
    Indoors,
    /// 1" = 10 yards.
    Outdoors,
}

impl Setting {
    /// Feet in one inch of scale (PHB p.39).
    pub fn feet_per_inch(self) -> f64 {
        match self {
            Setting::Indoors => 10.0,
            Setting::Outdoors => 30.0,
        }
    }
}

/// Outdoor terrain that shortens the 6d4 encounter distance (DMG p.49).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Terrain {
    /// No adjustment.
    #[default]
    Open,
    /// -1 on each die showing 3 or 4.
    Scrub,
    /// -1 on every die (0s are possible).
    Forest,
    /// -1 on each die showing 2, 3 or 4.
    Marsh,
}

impl Terrain {
    /// One d4's value after the terrain adjustment.
    pub fn adjust_die(self, d4: u32) -> u32 {
        let minus = match self {
            Terrain::Open => false,
            Terrain::Scrub => matches!(d4, 3 | 4),
            Terrain::Forest => true,
            Terrain::Marsh => matches!(d4, 2..=4),
        };
        d4.saturating_sub(u32::from(minus))
    }
}

/// A computed encounter distance.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Distance {
    /// In inches of the scene's scale.
    pub inches: f64,
    /// In feet.
    pub feet: f64,
    /// The rule that set it.
    #[serde(skip)]
    pub rule: Rule,
}

impl Distance {
    fn new(inches: f64, setting: Setting, rule: Rule) -> Distance {
        Distance {
            inches,
            feet: inches * setting.feet_per_inch(),
            rule,
        }
    }
    /// In yards (outdoor reporting).
    pub fn yards(&self) -> f64 {
        self.feet / 3.0
    }
    /// "Striking distance": the parties are in melee reach.
    pub fn is_striking(&self) -> bool {
        self.feet == 0.0
    }
}

/// Outdoor encounter distance (DMG p.49): 6d4", each die adjusted for terrain, less the
/// larger number of surprise segments.
pub fn outdoor_distance(d4s: [u32; 6], terrain: Terrain, larger_surprise: u32) -> Distance {
    let sum: u32 = d4s.iter().map(|&d| terrain.adjust_die(d)).sum();
    Distance::new(
        f64::from(sum.saturating_sub(larger_surprise)),
        Setting::Outdoors,
        cite::DISTANCE_OUTDOORS,
    )
}

/// A distance counted in squares of `square_ft` feet, where one inch of scale is one
/// square (the house rules' tactical scale).
pub fn in_squares(squares: u32, square_ft: f64, rule: Rule) -> Distance {
    Distance {
        inches: f64::from(squares),
        feet: f64::from(squares) * square_ft,
        rule,
    }
}

/// Indoor encounter distance (DMG p.62): d6+4".
pub fn indoor_distance(d6: u32) -> Distance {
    Distance::new(f64::from(d6 + 4), Setting::Indoors, cite::DISTANCE_INDOORS)
}

/// Distance at which a noisy party is discovered by a party that chose to hide (DMG p.62):
/// d4 inches (1"-4").
pub fn noise_distance(d4: u32, setting: Setting) -> Distance {
    Distance::new(f64::from(d4), setting, cite::DISTANCE_NOISE)
}

/// The die rolled for distance in a small area and what each face means (DMG p.62): the
/// area is cut into striking distance and 10-foot steps up to its size. A 20-foot room has
/// three steps, rolled on d6 in pairs (1-2 striking, 3-4 10', 5-6 20'); a 30-foot cave has
/// four, rolled on d4.
pub fn area_die(area_ft: u32) -> u32 {
    let steps = area_ft / 10 + 1;
    if steps <= 6 && 6 % steps == 0 {
        6
    } else {
        steps
    }
}

/// Distance in a small area for a roll on [`area_die`] (DMG p.62).
pub fn area_distance(area_ft: u32, roll: u32) -> Distance {
    let steps = area_ft / 10 + 1;
    let die = area_die(area_ft);
    let per_step = die / steps;
    let step = (roll.clamp(1, die) - 1) / per_step;
    Distance::new(f64::from(step), Setting::Indoors, cite::DISTANCE_AREA)
}

/// The most distance there can be when either side is surprised (DMG p.62): 3", or less if
/// the area is smaller.
pub fn surprise_distance_cap(area_ft: Option<u32>, setting: Setting) -> Distance {
    let cap = 3.0;
    let area_in = area_ft
        .map(|a| f64::from(a) / setting.feet_per_inch())
        .unwrap_or(cap);
    Distance::new(cap.min(area_in), setting, cite::DISTANCE_SURPRISE)
}

/// The encounter limit set by relying on a light of radius `radius_ft` (DMG p.62): twice it.
pub fn light_limit_ft(radius_ft: f64) -> f64 {
    2.0 * radius_ft
}

/// The longest a party can see to meet another, given what it relies on (DMG p.62): twice
/// the radius of each light it relies on, or the range of infravision or ultravision; the
/// best of these. `None` when it relies on nothing (in the dark it meets nothing it can see).
pub fn vision_limit_ft(light_radii_ft: &[f64], infravision_ft: &[f64]) -> Option<(f64, Rule)> {
    let light = light_radii_ft
        .iter()
        .map(|r| (light_limit_ft(*r), cite::DISTANCE_LIGHT));
    let infra = infravision_ft
        .iter()
        .map(|r| (*r, cite::DISTANCE_INFRAVISION));
    light
        .chain(infra)
        .fold(None, |best: Option<(f64, Rule)>, (d, rule)| match best {
            Some((b, _)) if b >= d => best,
            _ => Some((d, rule)),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn area_die_choices() {
        assert_eq!(area_die(20), 6);
        assert_eq!(area_die(30), 4);
        assert_eq!(area_die(10), 6);
        let feet: Vec<f64> = (1..=6).map(|r| area_distance(20, r).feet).collect();
        assert_eq!(feet, vec![0.0, 0.0, 10.0, 10.0, 20.0, 20.0]);
    }

    #[test]
    fn surprise_cap_in_a_big_room_is_three_inches() {
        assert_eq!(surprise_distance_cap(Some(40), Setting::Indoors).feet, 30.0);
    }
}
