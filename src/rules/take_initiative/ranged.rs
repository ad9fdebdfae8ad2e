//! Missiles (§8, note 1): a missile's speed in place of a speed factor (nocked and ready 1,
//! arrows 7, quarrels 10, darts 2, other thrown objects 4), less the Dexterity attacking
//! bonus; −2 to hit at medium range and −5 at long, measured on the initiative (or after
//! movement for one who moved); half the rate of fire when moving; of two moving to fire at
//! declared ranges, the one that chose the farther fires first (8c).

use crate::rules::attack_rate::AttackRate;
use crate::rules::cite::{self, Rule};
use crate::rules::options::AlternatingRate;

/// A missile's range band.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Band {
    /// Short range.
    Short,
    /// Medium range.
    Medium,
    /// Long range.
    Long,
}

/// The band a shot at `distance_ft` falls in, given the weapon's limits of short, medium
/// and long range in feet; `None` beyond long range (no shot).
pub fn band_at(distance_ft: f64, (short, medium, long): (f64, f64, f64)) -> (Option<Band>, Rule) {
    // A millionth of a foot is no distance at the table: a figure that walked to a band's
    // edge (its steps summed in floating point) stands on it.
    const EDGE_FT: f64 = 1e-6;
    let d = distance_ft - EDGE_FT;
    let band = if d <= short {
        Some(Band::Short)
    } else if d <= medium {
        Some(Band::Medium)
    } else if d <= long {
        Some(Band::Long)
    } else {
        None
    };
    (band, cite::TI_RANGED)
}

/// The penalty of a shot at `d` feet with these limits, and its words ("medium range at
/// 90 ft"); an error beyond long range.
pub fn penalty_at(d: f64, limits: (f64, f64, f64)) -> Result<(i32, String, Rule), String> {
    let band = band_at(d, limits).0.ok_or_else(|| {
        format!(
            "out of range: {d:.0} ft, beyond long range ({:.0} ft)",
            limits.2
        )
    })?;
    let (value, rule) = range_penalty(band);
    let name = match band {
        Band::Short => "short",
        Band::Medium => "medium",
        Band::Long => "long",
    };
    Ok((value, format!("{name} range at {d:.0} ft"), rule))
}

/// A missile's to-hit adjustment for Dexterity (§8: it counts to hit as well as on
/// initiative): the figure's reaction/attacking adjustment, bonus or penalty.
pub fn dexterity_to_hit(reaction: i32) -> (i32, Rule) {
    (reaction, cite::TI_DEX_TO_HIT)
}

/// The penalty to hit at a range band.
pub fn range_penalty(band: Band) -> (i32, Rule) {
    let p = match band {
        Band::Short => 0,
        Band::Medium => -2,
        Band::Long => -5,
    };
    (p, cite::TI_RANGED)
}

/// The shots in an archer's `nth` round of shooting (1-based) at `rate`: all of them
/// standing; on the move the rate halved (note 1), so one a round moving is 1, 0, 1…,
/// three a round 2, 1, 2…, and a heavy crossbow's one every other round one in four.
pub fn shots_when_moving(
    rate: AttackRate,
    moving: bool,
    nth: u32,
    alt: AlternatingRate,
) -> (u32, Rule) {
    let rate = if moving { rate.slowed().0 } else { rate };
    (rate.routines_in(nth.max(1), alt).0, cite::TI_RANGED)
}

/// Which of two figures moving to fire at declared ranges fires first (8c): the farther
/// range; `None` when they chose the same.
pub fn farther_first(a_range_ft: f64, b_range_ft: f64) -> (Option<bool>, Rule) {
    let first = if a_range_ft > b_range_ft {
        Some(true)
    } else if b_range_ft > a_range_ft {
        Some(false)
    } else {
        None
    };
    (first, cite::TI_FARTHEST_FIRST)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_rates_and_the_farther_first() {
        assert_eq!(range_penalty(Band::Medium).0, -2);
        assert_eq!(range_penalty(Band::Long).0, -5);
        let rate = |r: &str| r.parse::<AttackRate>().unwrap();
        let alt = AlternatingRate::ExtraInOddRounds;
        assert_eq!(shots_when_moving(rate("2/1"), false, 1, alt).0, 2);
        let moving = |r: &str, n| {
            (1..=n)
                .map(|k| shots_when_moving(rate(r), true, k, alt).0)
                .collect::<Vec<_>>()
        };
        assert_eq!(moving("2/1", 3), [1, 1, 1]);
        assert_eq!(moving("1/1", 4), [1, 0, 1, 0]);
        assert_eq!(moving("3/1", 4), [2, 1, 2, 1]);
        assert_eq!(moving("1/2", 8), [1, 0, 0, 0, 1, 0, 0, 0]);
        assert_eq!(farther_first(120.0, 60.0).0, Some(true));
        assert_eq!(farther_first(60.0, 60.0).0, None);
        // A long bow indoors: 70 / 140 / 210 ft.
        let bow = (70.0, 140.0, 210.0);
        assert_eq!(band_at(70.0, bow).0, Some(Band::Short));
        assert_eq!(band_at(70.5, bow).0, Some(Band::Medium));
        assert_eq!(band_at(210.0, bow).0, Some(Band::Long));
        assert_eq!(band_at(211.0, bow).0, None);
        // Walked to the edge in steps that do not sum exactly: still on it.
        let walked: f64 = (0..10).map(|_| 14.0_f64).sum::<f64>() + 1e-9;
        assert_eq!(band_at(walked, bow).0, Some(Band::Medium));
    }
}
