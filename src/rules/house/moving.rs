//! Move or strike (house rules, "Combat Actions" and "Determine Actions"): in a round a
//! figure makes a full move, or a half move and a blow, or casts a spell; one that moved
//! strikes once, and its multiple attacks come back in its second round of standing still.
//!
//! The book spends a round closing to melee and gives no blow (DMG p.66). Under this rule a
//! melee figure whose foe is within half its move this round steps up and strikes once,
//! no earlier than it arrives. Missiles and spells after a move cannot arise under the
//! book's declarations (a figure declares one action), and "Take Initiative!" moves with
//! fire are refused with the switch on. A charge is already a straight run at its foe.

use crate::rules::cite::{self, Rule};

/// Whether a melee figure `gap_ft` from its foe, moving `round_ft` a round, may close and
/// strike this round: the foe must be within half the move.
pub fn may_close_and_strike(gap_ft: f64, round_ft: f64) -> (bool, Rule) {
    (gap_ft <= round_ft / 2.0 + 1e-6, cite::HOUSE_MOVE_OR_STRIKE)
}

/// The routines a figure strikes this round: all of them when it stood still this round
/// and the last, else one (and the rule, when it cut any).
pub fn routines_after_moving(
    routines: u32,
    moved_now: bool,
    moved_last: bool,
) -> (u32, Option<Rule>) {
    if (moved_now || moved_last) && routines > 1 {
        (1, Some(cite::HOUSE_STANDING_STILL))
    } else {
        (routines, None)
    }
}

/// Whether a figure whose one routine is several attacks (a bear's claw/claw/bite, two
/// weapons) makes only the first of them this round: it moved this round or the last, and
/// its multiple attacks come back only standing still. With the rule, when it does.
pub fn one_attack_after_moving(
    attacks_per_routine: u32,
    moved_now: bool,
    moved_last: bool,
) -> Option<Rule> {
    ((moved_now || moved_last) && attacks_per_routine > 1).then_some(cite::HOUSE_STANDING_STILL)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_a_move_and_one_blow() {
        for gap in 0..=120 {
            let g = f64::from(gap);
            assert_eq!(may_close_and_strike(g, 120.0).0, g <= 60.0, "{gap} ft");
        }
        for r in 0..=4 {
            for (now, last) in [(false, false), (true, false), (false, true), (true, true)] {
                let (n, rule) = routines_after_moving(r, now, last);
                let moved = now || last;
                assert_eq!(n, if moved { r.min(1) } else { r });
                assert_eq!(rule.is_some(), moved && r > 1);
            }
        }
    }
}
