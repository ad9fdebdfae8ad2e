//! Location matters (§11). A race to a point is won by the lower initiative, a tie arriving
//! together (11a). An area spell goes off on the caster's total; a figure moving through
//! the area is caught if its own total is within a window of the caster's — a tie when the
//! area is no wider than a tenth of its move, more segments either side for a wider area
//! (11b: 4" against a 12" move is ±1).

use crate::rules::cite::{self, Rule};
use std::cmp::Ordering;

/// Who reaches the point first: `Less` for the first figure, `Equal` together.
pub fn race(a_total: i64, b_total: i64) -> (Ordering, Rule) {
    (a_total.max(1).cmp(&b_total.max(1)), cite::TI_RACE)
}

/// The window, in ordering segments either side of the caster's total, in which a mover
/// is inside an area `area_in` inches across, moving `move_in` inches a round (a tenth of
/// it per segment). An area no wider than a tenth of the move is a tie only; a wider one
/// widens it (§11b), by as many segments either side as the crossing leaves over the tie
/// (the text's 12" move through a 4" fireball: ±1, three segments of 12 ft for 40 ft), and
/// by one at least: a 4" area is more than an 18" or 24" figure covers in a segment.
pub fn area_window(area_in: f64, move_in: f64) -> (u32, Rule) {
    let per_segment = move_in / 10.0;
    let across = if per_segment > 0.0 {
        area_in / per_segment
    } else {
        f64::INFINITY
    };
    let n = if across <= 1.0 || across.is_nan() {
        0
    } else if across.is_finite() {
        ((across - 1.0) / 2.0).floor().clamp(1.0, 20.0) as u32
    } else {
        20
    };
    (n, cite::TI_AREA_WINDOW)
}

/// Whether a mover on `mover_total` is caught by an area spell going off on `caster_total`.
pub fn caught(mover_total: i64, caster_total: i64, window: u32) -> (bool, Rule) {
    (
        mover_total.abs_diff(caster_total) <= u64::from(window),
        cite::TI_AREA_WINDOW,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// §11b: a 12" fighter crossing a 4" fireball is caught within ±1 of the mage's total.
    #[test]
    fn into_the_fireball() {
        assert_eq!(area_window(4.0, 12.0).0, 1);
        assert!(caught(12, 13, 1).0 && caught(14, 13, 1).0 && caught(13, 13, 1).0);
        assert!(!caught(11, 13, 1).0);
        // No wider than a tenth of the move: a tie only.
        assert_eq!(area_window(1.0, 12.0).0, 0);
        assert_eq!(race(5, 5).0, Ordering::Equal);
        assert_eq!(race(4, 5).0, Ordering::Less);
    }

    proptest::proptest! {
        /// §11b for every area and move: a tie only when the area is no wider than a tenth
        /// of the move, wider otherwise; never narrower for a wider area or a slower mover.
        #[test]
        fn the_window_widens_with_the_area_and_narrows_with_the_move(
            area in 0.1f64..=20.0,
            mv in 1.0f64..=48.0,
            more in 0.0f64..=10.0,
        ) {
            let (n, _) = area_window(area, mv);
            proptest::prop_assert_eq!(n == 0, area <= mv / 10.0, "{} in {}", area, mv);
            proptest::prop_assert!(area_window(area + more, mv).0 >= n);
            proptest::prop_assert!(area_window(area, mv + more).0 <= n);
        }
    }
}
