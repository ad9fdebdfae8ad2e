//! Fleeing, pursuit and withdrawing (§4-§7). A figure turning to flee (−2 initiative) gives
//! each opponent in melee a free attack at +4 (+2 from behind, +2 as if stunned) when it
//! moves: on the fleer's initiative if the opponent acted first (4a), at once if the fleer
//! won (4b). A fleer that wins gains 1" × its initiative once a turn. A withdrawing figure
//! (+4) backs off at half its move and is still in melee if followed.

use crate::rules::cite::{self, Rule};

/// The free attack's bonus to hit on a figure turning to flee.
pub const FREE_ATTACK_BONUS: i32 = 4;

/// When the opponent's free attack on a fleer comes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FreeAttack {
    /// The opponent has acted already: its free attack comes as the fleer moves, on the
    /// fleer's initiative (4a).
    OnFleersInitiative,
    /// The fleer won: the opponent strikes at once as it turns, and its own attack is lost
    /// unless it changes to pursue (4b).
    AtOnce,
}

/// The free attack an opponent acting on `opponent_total` gets on a fleer acting on
/// `fleer_total`.
pub fn free_attack(fleer_total: i64, opponent_total: i64) -> (FreeAttack, Rule) {
    let f = if opponent_total < fleer_total {
        FreeAttack::OnFleersInitiative
    } else {
        FreeAttack::AtOnce
    };
    (f, cite::TI_FLEE)
}

/// Whether a pursuer whose fleer won may change its action to pursue (4b): only if its
/// base initiative is after the fleer's total.
pub fn may_pursue(pursuer_base: u32, fleer_total: i64) -> bool {
    i64::from(pursuer_base) > fleer_total
}

/// The extra inches a fleer that won initiative gains, once a turn (§5): 1" × its total.
pub fn extra_inches(fleer_total: i64, won: bool) -> (i64, Rule) {
    (if won { fleer_total.max(0) } else { 0 }, cite::TI_PURSUIT)
}

/// Whether a fleer may gain on its pursuers in `round`, having last done so in `last`:
/// once a turn of 10 rounds (§5).
pub fn burst_ready(last: Option<u32>, round: u32) -> bool {
    last.is_none_or(|l| round >= l + 10)
}

/// Whether a foe is in melee with a figure, for turning to flee (§4: "in melee range
/// (1")"): within the foe's reach, or within 1" (10 ft, [`super::combine::ENGAGED_FT`],
/// the distance that also forbids a charge, §9) with its blows aimed at the figure.
pub fn in_melee(distance_ft: f64, within_reach: bool, aims_at_it: bool) -> (bool, Rule) {
    let near = distance_ft <= super::combine::ENGAGED_FT + 1e-6;
    (within_reach || (near && aims_at_it), cite::TI_FLEE)
}

/// What a plain move that takes a figure out of melee is (§4, §6): one of half its move or
/// less backs away from the foe — a withdrawal; a longer one turns its back and runs — a
/// flight, with the foe's free attack. A move that leaves no foe's melee is only a move
/// (None). The variant names no other way out of melee: a move cannot escape both.
pub fn leaving_melee(move_ft: f64, allowance_ft: f64, leaves: bool) -> (Option<Leaving>, Rule) {
    match leaves {
        false => (None, cite::TI_FLEE),
        true if move_ft <= allowance_ft / 2.0 + 1e-6 => {
            (Some(Leaving::Withdraws), cite::TI_WITHDRAW)
        }
        true => (Some(Leaving::Flees), cite::TI_FLEE),
    }
}

/// How a move out of melee is played ([`leaving_melee`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaving {
    /// Backing off at half its move or less (§6).
    Withdraws,
    /// Turning to run (§4).
    Flees,
}

/// How far a foe's free attack at a fleer reaches (§4): a foe in melee with it, within 1"
/// ([`in_melee`]), strikes as it turns, whatever its own reach.
pub fn free_attack_reach(reach_ft: f64) -> (f64, Rule) {
    (reach_ft.max(super::combine::ENGAGED_FT), cite::TI_FLEE)
}

/// How running from foes is costed (§4, §5a): turning to flee from a foe in melee is the
/// -2 row, with its free attacks; running on with no foe in reach is a move.
pub fn running_action(engaged: bool, far: bool) -> (super::action::Action, Rule) {
    use super::action::Action;
    if engaged {
        (Action::Flee, cite::TI_FLEE)
    } else {
        (Action::Move { far }, cite::TI_PURSUIT)
    }
}

/// The bonus of a pursuer's blow at a figure already running from it, its back turned
/// (§5b): from behind.
pub fn at_a_running_back(fleeing: bool) -> (Option<i32>, Rule) {
    (fleeing.then_some(REAR_BONUS), cite::TI_PURSUIT)
}

/// The bonus to hit from behind: on a figure already running (§5b), and a blocker's blow
/// on a pursuer that turns its back to follow (§7).
pub const REAR_BONUS: i32 = 2;

/// What a pursuer does when the figure it attacks withdraws first and the blocker has not
/// yet acted (§7b leaves it to the GM).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum BlockedPursuer {
    /// It follows on its total and strikes; the blocker strikes it from behind as it goes.
    #[default]
    Follows,
    /// It turns its attack on the blocker, with no change to its initiative.
    TurnsOnBlocker,
}

/// How a pursuer attacking a withdrawing figure follows it (§6, §7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Follow {
    /// The pursuer acted first (or with it): it has struck, and follows at once when the
    /// figure backs off on its total; the withdrawing figure then strikes (6, 7a).
    AtOnce,
    /// The withdrawing figure won: the pursuer follows on its own total, and the figure
    /// strikes first, then the pursuer (6, 7b).
    OnItsTotal,
    /// A blocker in melee with the pursuer acted before it: the way is shut, and the
    /// pursuer strikes the blocker instead (7b; an overrun is not modelled).
    Blocked,
}

/// How a pursuer on `pursuer_total` follows a figure withdrawing on `withdrawer_total`,
/// with a blocker on `blocker_total`, if any.
pub fn follow(
    withdrawer_total: i64,
    pursuer_total: i64,
    blocker_total: Option<i64>,
    choice: BlockedPursuer,
) -> (Follow, Rule) {
    if pursuer_total <= withdrawer_total {
        (Follow::AtOnce, cite::TI_WITHDRAW)
    } else if blocker_total.is_some_and(|b| b < pursuer_total)
        || (blocker_total.is_some() && choice == BlockedPursuer::TurnsOnBlocker)
    {
        (Follow::Blocked, cite::TI_WITHDRAW_BLOCK)
    } else {
        (Follow::OnItsTotal, cite::TI_WITHDRAW)
    }
}

/// The blocker's one blow when the pursuer follows in segment `follows`: on its own total
/// if that comes first (no bonus), else as the pursuer turns to follow, from behind (7a, 7b).
pub fn blocker_blow(blocker_total: i64, follows: i64) -> (Option<i32>, Rule) {
    if blocker_total < follows {
        (None, cite::TI_WITHDRAW_BLOCK)
    } else {
        (Some(REAR_BONUS), cite::TI_WITHDRAW_BLOCK)
    }
}

/// A withdrawal's reach: half the move, in inches (§6).
pub fn withdraw_inches(move_in: u32) -> (f64, Rule) {
    (f64::from(move_in) / 2.0, cite::TI_WITHDRAW)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A foe in melee reaches a fleer within 1" whatever its own reach; a longer reach
    /// stays; and "in melee" is within reach, or within 1" aiming at the fleer.
    #[test]
    fn a_free_attack_reaches_one_inch() {
        assert_eq!(free_attack_reach(5.0).0, 10.0);
        assert_eq!(free_attack_reach(12.0).0, 12.0);
        assert!(in_melee(7.0, false, true).0);
        assert!(!in_melee(7.0, false, false).0);
        assert!(in_melee(7.0, true, false).0);
        assert!(!in_melee(10.5, false, true).0);
    }

    #[test]
    fn the_free_attack_comes_when_the_fleer_moves() {
        // 4b: the fleer (9 - 2 = 7) beats the pursuer (3 + 5 = 8): the free attack at once.
        assert_eq!(free_attack(7, 8).0, FreeAttack::AtOnce);
        // 4a: the pursuer (8) acts first; its free attack comes on the fleer's 9.
        assert_eq!(free_attack(9, 8).0, FreeAttack::OnFleersInitiative);
        assert!(may_pursue(8, 7));
        assert!(!may_pursue(7, 7));
        assert_eq!(extra_inches(7, true).0, 7);
        assert_eq!(extra_inches(7, false).0, 0);
        assert_eq!(withdraw_inches(9).0, 4.5);
        assert!(burst_ready(None, 1));
        assert!(!burst_ready(Some(1), 10));
        assert!(burst_ready(Some(1), 11));
        assert_eq!(at_a_running_back(true).0, Some(2));
        assert_eq!(at_a_running_back(false).0, None);
    }

    #[test]
    fn following_a_withdrawal() {
        // 6 / 7a: the pursuer first, or with it.
        assert_eq!(
            follow(9, 7, Some(3), BlockedPursuer::Follows).0,
            Follow::AtOnce
        );
        assert_eq!(
            follow(9, 9, None, BlockedPursuer::Follows).0,
            Follow::AtOnce
        );
        // 7b: the withdrawing figure first; a blocker before the pursuer shuts the way.
        assert_eq!(
            follow(5, 9, Some(8), BlockedPursuer::Follows).0,
            Follow::Blocked
        );
        assert_eq!(
            follow(5, 9, Some(9), BlockedPursuer::Follows).0,
            Follow::OnItsTotal
        );
        assert_eq!(
            follow(5, 9, Some(9), BlockedPursuer::TurnsOnBlocker).0,
            Follow::Blocked
        );
        assert_eq!(
            follow(5, 9, None, BlockedPursuer::TurnsOnBlocker).0,
            Follow::OnItsTotal
        );
        // The blocker's blow: its own if earlier, else from behind as the pursuer follows.
        assert_eq!(blocker_blow(4, 9).0, None);
        assert_eq!(blocker_blow(9, 9).0, Some(2));
    }
}
