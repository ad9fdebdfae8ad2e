//! Who sees whom (DMG p.62): a clear line of sight is needed, and then either light or
//! infravision. A figure that carries a light, or stands where a light reaches, can be
//! made out at any distance along a clear line; one in the dark is seen only within twice
//! the radius of a light the viewer relies on — one it carries, or one whose reach it
//! stands in (a companion beside the torch-bearer) — or within the viewer's infravision or
//! ultravision range. The line itself comes from the map (`crate::map::fov`).

use super::cite::{self, Rule};

/// What a viewer brings to the looking.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Viewer {
    /// Radius in feet of the brightest light the viewer carries, if any.
    pub light_radius_ft: Option<f64>,
    /// Radius in feet of the brightest light whose reach the viewer stands in, if any: a
    /// party relies on its light, the torch-bearer's companions as much as the bearer
    /// (DMG p.62, light source reliance). Measured from the viewer, as its own light is.
    pub relied_light_ft: Option<f64>,
    /// Infravision (or ultravision) range in feet, if any.
    pub infravision_ft: Option<f64>,
}

/// How the one looked at stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    /// It carries a lit source.
    pub carries_light: bool,
    /// A light (carried by anyone or fixed on the map) reaches where it stands.
    pub in_light: bool,
}

/// Why a figure is seen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SeenBy {
    /// Its own light gives it away along a clear line.
    ItsLight,
    /// It stands in light.
    Lit,
    /// It is in the dark but within twice the radius of the viewer's light.
    ViewersLight {
        /// The encounter limit: twice the light radius.
        limit_ft: f64,
    },
    /// It is in the dark but within twice the radius of the light the viewer stands in.
    LightItStandsIn {
        /// The encounter limit: twice the light radius.
        limit_ft: f64,
    },
    /// It is in the dark but within the viewer's infravision.
    Infravision {
        /// The range.
        range_ft: f64,
    },
}

impl SeenBy {
    /// The rule that makes it seen this way.
    pub fn rule(self) -> Rule {
        match self {
            SeenBy::ItsLight | SeenBy::Lit => cite::SIGHT_LIGHT,
            SeenBy::ViewersLight { .. } | SeenBy::LightItStandsIn { .. } => cite::DISTANCE_LIGHT,
            SeenBy::Infravision { .. } => cite::DISTANCE_INFRAVISION,
        }
    }

    /// A few words for the log.
    pub fn describe(self) -> String {
        let mut out = String::new();
        self.write_words(&mut out);
        out
    }

    /// The same words, added to `out` (a crowd's encounter makes hundreds of thousands of
    /// them: no string of their own).
    pub fn write_words(self, out: &mut String) {
        use std::fmt::Write;
        // Writing to a String cannot fail.
        let _ = match self {
            SeenBy::ItsLight => out.write_str("by the light it carries"),
            SeenBy::Lit => out.write_str("standing in light"),
            SeenBy::ViewersLight { limit_ft } => {
                write!(out, "within twice its own light's radius ({limit_ft} ft)")
            }
            SeenBy::LightItStandsIn { limit_ft } => write!(
                out,
                "within twice the radius of the light it stands in ({limit_ft} ft)"
            ),
            SeenBy::Infravision { range_ft } => write!(out, "by infravision ({range_ft} ft)"),
        };
    }
}

/// Why a figure is not seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unseen {
    /// Walls, closed doors or pillars are in the way.
    Obstructed,
    /// The line is clear but it stands in the dark, out of reach of light and infravision.
    Dark,
    /// The viewer or the figure is inside magical darkness (PHB p.69).
    MagicalDarkness,
}

impl Unseen {
    /// A few words for the log.
    pub fn describe(self) -> &'static str {
        match self {
            Unseen::Obstructed => "the line of sight is blocked",
            Unseen::Dark => "it is in the dark, beyond light and infravision",
            Unseen::MagicalDarkness => "magical darkness lies between",
        }
    }
}

/// Why sight of a figure was gained or lost, as the log keeps it: typed, with its words
/// made only when shown (in JSON the words themselves).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SightReason {
    /// Seen, and by what.
    Seen(SeenBy),
    /// Not seen, and why.
    Unseen(Unseen),
}

impl SightReason {
    /// A few words for the log.
    pub fn describe(self) -> String {
        match self {
            SightReason::Seen(by) => by.describe(),
            SightReason::Unseen(not) => not.describe().to_string(),
        }
    }
}

impl serde::Serialize for SightReason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.describe())
    }
}

/// Whether `viewer` sees a figure `distance_ft` away that stands as `seen` does, given
/// whether the line between them is clear, with the rule that decides (DMG p.62).
/// Light is preferred over the viewer's own means, then the viewer's light over
/// infravision, then infravision over a light the viewer stands in, so the log names the
/// most ordinary reason (and the viewer's own).
pub fn sees(
    clear_line: bool,
    distance_ft: f64,
    viewer: Viewer,
    seen: Seen,
) -> Result<(SeenBy, Rule), (Unseen, Rule)> {
    if !clear_line {
        return Err((Unseen::Obstructed, cite::SIGHT_OBSTRUCTED));
    }
    let by = |by: SeenBy| Ok((by, by.rule()));
    if seen.carries_light {
        return by(SeenBy::ItsLight);
    }
    if seen.in_light {
        return by(SeenBy::Lit);
    }
    if let Some(r) = viewer.light_radius_ft {
        let limit_ft = super::distance::light_limit_ft(r);
        if distance_ft <= limit_ft {
            return by(SeenBy::ViewersLight { limit_ft });
        }
    }
    if let Some(range_ft) = viewer.infravision_ft
        && distance_ft <= range_ft
    {
        return by(SeenBy::Infravision { range_ft });
    }
    if let Some(r) = viewer.relied_light_ft {
        let limit_ft = super::distance::light_limit_ft(r);
        if distance_ft <= limit_ft {
            return by(SeenBy::LightItStandsIn { limit_ft });
        }
    }
    Err((Unseen::Dark, cite::DISTANCE_LIGHT))
}

/// Whether a missile may be loosed at a foe (our reading of DMG p.62 with the Example of
/// Melee's invisible fighter, whom no one may aim at once unseen): only at one the shooter
/// sees — a wall, the dark or magical darkness between them leaves nothing to aim at.
pub fn may_shoot_at(seen: bool) -> (bool, Rule) {
    (seen, cite::MISSILE_IN_SIGHT)
}

/// Magical darkness first: neither light nor infravision sees into it or out of it
/// (PHB p.69), whatever [`sees`] would say.
pub fn sees_through_darkness(
    viewer_inside: bool,
    seen_inside: bool,
    otherwise: Result<(SeenBy, Rule), (Unseen, Rule)>,
) -> Result<(SeenBy, Rule), (Unseen, Rule)> {
    if viewer_inside || seen_inside {
        return Err((Unseen::MagicalDarkness, cite::SPELL_DARKNESS));
    }
    otherwise
}

#[cfg(test)]
mod tests {
    use super::*;

    const SWORD: Viewer = Viewer {
        light_radius_ft: Some(20.0),
        relied_light_ft: None,
        infravision_ft: None,
    };
    const QUIJ: Viewer = Viewer {
        light_radius_ft: None,
        relied_light_ft: None,
        infravision_ft: Some(60.0),
    };
    const DARK: Seen = Seen {
        carries_light: false,
        in_light: false,
    };

    #[test]
    fn the_lair_limits() {
        // Robilar's sword (20 ft): a figure in the dark is met within 40 ft, not beyond.
        assert!(matches!(
            sees(true, 40.0, SWORD, DARK),
            Ok((SeenBy::ViewersLight { limit_ft }, _)) if limit_ft == 40.0
        ));
        assert_eq!(sees(true, 41.0, SWORD, DARK).unwrap_err().0, Unseen::Dark);
        // Quij's infravision: 60 ft.
        assert!(sees(true, 60.0, QUIJ, DARK).is_ok());
        assert!(sees(true, 61.0, QUIJ, DARK).is_err());
    }

    /// A companion standing in the torch-bearer's light relies on it as the bearer does
    /// (DMG p.62: light source reliance): a figure in the dark within twice its radius is
    /// seen (an outside tester's archer beside the torch could not see the orc the
    /// torch-bearer saw at 25 ft); its own infravision still comes first.
    #[test]
    fn a_companion_in_the_light_sees_by_it() {
        let beside = Viewer {
            relied_light_ft: Some(15.0),
            ..Viewer::default()
        };
        assert!(matches!(
            sees(true, 25.0, beside, DARK),
            Ok((SeenBy::LightItStandsIn { limit_ft }, _)) if limit_ft == 30.0
        ));
        assert_eq!(sees(true, 31.0, beside, DARK).unwrap_err().0, Unseen::Dark);
        let elf = Viewer {
            infravision_ft: Some(60.0),
            ..beside
        };
        assert!(matches!(
            sees(true, 25.0, elf, DARK),
            Ok((SeenBy::Infravision { .. }, _))
        ));
        assert!(matches!(
            sees(true, 25.0, SWORD, DARK),
            Ok((SeenBy::ViewersLight { .. }, _))
        ));
    }

    #[test]
    fn light_is_seen_from_afar_but_not_through_walls() {
        let torch = Seen {
            carries_light: true,
            in_light: true,
        };
        assert_eq!(
            sees(true, 500.0, Viewer::default(), torch).unwrap().0,
            SeenBy::ItsLight
        );
        assert_eq!(
            sees(false, 5.0, QUIJ, torch).unwrap_err(),
            (Unseen::Obstructed, cite::SIGHT_OBSTRUCTED)
        );
    }
}
