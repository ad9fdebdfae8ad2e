//! Measured distances between figures and points: feet on the map, and inches of scale
//! (PHB p.39: 1" is 10 feet indoors, 10 yards outdoors).

use crate::rules::distance::Setting;
use std::fmt;

/// A point on the map in feet (x east, y south).
pub type Feet = (f64, f64);

/// A distance in feet and in inches of scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measure {
    /// Feet.
    pub feet: f64,
    /// Inches of scale for the setting.
    pub inches: f64,
}

/// The straight-line distance from `a` to `b`, in feet and inches for `setting`.
pub fn measure(a: Feet, b: Feet, setting: Setting) -> Measure {
    let feet = distance_ft(a, b);
    Measure {
        feet,
        inches: feet / setting.feet_per_inch(),
    }
}

/// The straight-line distance in feet.
pub fn distance_ft(a: Feet, b: Feet) -> f64 {
    // The same reading as `Position::distance` (and no slower `hypot`: it runs per pair).
    ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt()
}

impl fmt::Display for Measure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.1} ft ({:.2}\")", self.feet, self.inches)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feet_and_inches() {
        let m = measure((0.0, 0.0), (30.0, 40.0), Setting::Indoors);
        assert_eq!((m.feet, m.inches), (50.0, 5.0));
        let out = measure((0.0, 0.0), (300.0, 0.0), Setting::Outdoors);
        assert_eq!(out.inches, 10.0);
        assert_eq!(m.to_string(), "50.0 ft (5.00\")");
    }
}
