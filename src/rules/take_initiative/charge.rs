//! The charge (§9): +4 initiative; half again the move, at most 24"; +2 to hit; blows at
//! contact by weapon length; no Dexterity AC (or one class worse without a bonus). A spear
//! or pole arm set to receive it (base − 2, before the charger's blow) does double damage
//! (9a). Two figures moving straight at each other meet at (attacker's move / defender's
//! move) × half the distance from the attacker, on the earlier of their initiatives (9g).

use crate::rules::cite::{self, Rule};
use serde::{Deserialize, Serialize};

/// The charge's bonus to hit.
pub const TO_HIT: i32 = 2;

/// The charge's move in inches: half again the move, at most 24".
pub fn charge_inches(move_in: u32) -> (f64, Rule) {
    ((f64::from(move_in) * 1.5).min(24.0), cite::TI_CHARGE)
}

/// The attacks a charge gives at the end of its move (§9, Glossary): a single one, however
/// many a routine of the charger's holds (a monster's claw/claw/bite, a weapon in each
/// hand). Returns the attacks and whether the charge cut them down.
pub fn attacks_at_the_end(per_routine: u32) -> (u32, bool, Rule) {
    (
        per_routine.min(1),
        per_routine > 1,
        cite::TI_CHARGE_ONE_ATTACK,
    )
}

/// A charger's charge-adjusted AC (Glossary): its AC without its Dexterity bonus
/// (`dex_ac_bonus`, in classes, already counted in `ac`; losing it never takes the AC past
/// 10, the AC of no armour), or one class worse if it has none — an AC 10 figure included
/// (AC 11): the variant makes no exception, where the book's reading spares AC 10
/// (`rules::charge::charging_ac`).
pub fn charge_adjusted_ac(ac: i32, dex_ac_bonus: i32) -> (i32, Rule) {
    // The bonus lost as the book loses it; only the AC 10 exception is the variant's own.
    let worse = if dex_ac_bonus > 0 {
        crate::rules::dexterity::without_bonus(ac, dex_ac_bonus)
    } else {
        ac + 1
    };
    (worse, cite::TI_CHARGE_AC)
}

/// Whether a figure with base initiative `base` sets to receive in time for a charger's
/// blow on `charger_total` (9a): base − 2 must come before it.
pub fn set_in_time(base: u32, charger_total: i64) -> (bool, Rule) {
    (i64::from(base) - 2 < charger_total, cite::TI_SET_TO_RECEIVE)
}

/// What a figure moving off does when a charge catches it first (§9f leaves it to the GM).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ChargedMover {
    /// It stands and strikes back at contact, by weapon length, and does not move (the
    /// text's first choice).
    #[default]
    StandsAndStrikes,
    /// It takes the blow and goes on to its destination on its total; the charger cannot
    /// follow, and it strikes no blow (the text's third choice).
    GoesOn,
}

/// Where two figures moving at each other meet: how the text's formula is read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ComeTogether {
    /// As written (9g): the attacker covers (its move / the defender's move) × half the
    /// distance, at most all of it.
    #[default]
    AsWritten,
    /// Each covers its share of the distance in proportion to its move.
    Proportional,
}

/// How far from the attacker two figures moving at each other meet (9g), `distance_ft`
/// apart with these moves.
pub fn come_together(
    distance_ft: f64,
    attacker_move: f64,
    defender_move: f64,
    reading: ComeTogether,
) -> (f64, Rule) {
    let d = distance_ft.max(0.0);
    let ft = match reading {
        _ if attacker_move <= 0.0 => 0.0,
        _ if defender_move <= 0.0 => d,
        ComeTogether::AsWritten => (attacker_move / defender_move) * (d / 2.0),
        ComeTogether::Proportional => d * attacker_move / (attacker_move + defender_move),
    };
    (ft.clamp(0.0, d), cite::TI_COME_TOGETHER)
}

/// Whether these Appendix B rows keep a figure busy with its weapons (drawing, changing,
/// picking one up) until its own total: it strikes no blow at a charger's contact before
/// then (§9c).
pub fn handling_weapons<'a>(mut rows: impl Iterator<Item = &'a str>) -> (bool, Rule) {
    let busy = rows.any(|id| matches!(id, "draw_weapon" | "change_weapon" | "pick_up_weapon"));
    (busy, cite::TI_CHARGE)
}

/// Why a figure with these Appendix B rows has no weapon to swing now, and the rule, if it
/// has none: still drawing, changing or picking one up before its own total has come
/// (`acted` false; §9c), or getting up off the floor, which takes the whole round (App. B,
/// Movement). Such a figure strikes no blow at a charger's contact and no free attack at a
/// fleer (§4).
pub fn no_weapon_in_hand(
    table: &super::Table,
    rows: &[&str],
    acted: bool,
) -> Option<(&'static str, Rule)> {
    if !acted && handling_weapons(rows.iter().copied()).0 {
        Some(("still handling its weapon", cite::TI_CHARGE))
    } else {
        super::takes_the_round(table, rows).map(|r| ("getting up off the floor this round", r))
    }
}

/// When two figures coming together meet: on the earlier of their totals (9g).
pub fn meet_on(a_total: i64, b_total: i64) -> (i64, Rule) {
    (a_total.min(b_total).max(1), cite::TI_COME_TOGETHER)
}

/// Where a figure running in a straight line from `from` to `to` first comes within
/// `reach` of a blocker at `at` (§9b), as the distance along its path; `None` if its path
/// never does.
pub fn blocked_at(
    from: (f64, f64),
    to: (f64, f64),
    at: (f64, f64),
    reach: f64,
) -> (Option<f64>, Rule) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt();
    if len < 1e-9 {
        return (None, cite::TI_BLOCK);
    }
    let (ux, uy) = (dx / len, dy / len);
    let (px, py) = (at.0 - from.0, at.1 - from.1);
    let along = px * ux + py * uy;
    let across = (px * uy - py * ux).abs();
    if across > reach || along < 0.0 {
        return (None, cite::TI_BLOCK);
    }
    let into = (along - (reach * reach - across * across).sqrt()).max(0.0);
    ((into <= len).then_some(into), cite::TI_BLOCK)
}

/// Whether a shove past a blocker succeeds (§9b): in our reading an unarmed attack roll
/// against the blocker's armor — the text's close-combat check is not given.
pub fn shoves_past(d20: i32, needed: i32) -> (bool, Rule) {
    (d20 >= needed, cite::TI_BLOCK)
}

#[cfg(test)]
mod tests {

    /// No weapon in hand: handling rows until the figure's own total, standing up all
    /// round, anything else never.
    #[test]
    fn no_weapon_in_hand_until_the_total_or_all_round_standing_up() {
        let t = crate::tables::take_initiative();
        for acted in [false, true] {
            for row in ["draw_weapon", "change_weapon", "pick_up_weapon"] {
                assert_eq!(
                    no_weapon_in_hand(t, &[row], acted).is_some(),
                    !acted,
                    "{row}"
                );
            }
            assert!(no_weapon_in_hand(t, &["stand_up"], acted).is_some());
            assert!(no_weapon_in_hand(t, &[], acted).is_none());
            assert!(no_weapon_in_hand(t, &["open_door"], acted).is_none());
        }
    }

    use super::*;

    #[test]
    fn a_blocker_in_the_way() {
        // Straight at a blocker 50 ft on, reach 5: stopped after 45 ft.
        assert_eq!(
            blocked_at((0.0, 0.0), (0.0, 100.0), (0.0, 50.0), 5.0).0,
            Some(45.0)
        );
        // 3 ft to the side: 50 - 4 = 46.
        assert_eq!(
            blocked_at((0.0, 0.0), (0.0, 100.0), (3.0, 50.0), 5.0).0,
            Some(46.0)
        );
        // Out of the way, or behind.
        assert_eq!(
            blocked_at((0.0, 0.0), (0.0, 100.0), (6.0, 50.0), 5.0).0,
            None
        );
        assert_eq!(
            blocked_at((0.0, 0.0), (0.0, 100.0), (0.0, -20.0), 5.0).0,
            None
        );
        assert!(shoves_past(12, 12).0);
        assert!(!shoves_past(11, 12).0);
    }

    #[test]
    fn the_charge_and_coming_together() {
        assert_eq!(charge_inches(12).0, 18.0);
        assert_eq!(charge_inches(18).0, 24.0);
        // 9a: the defender's base 6 - 2 = 4 comes before the charger's 3 + 4 = 7.
        assert!(set_in_time(6, 7).0);
        assert!(!set_in_time(9, 7).0);
        // 9g: equal moves meet halfway; as written, 12" against 6" covers all of 60 ft.
        assert_eq!(
            come_together(60.0, 12.0, 12.0, ComeTogether::AsWritten).0,
            30.0
        );
        assert_eq!(
            come_together(60.0, 12.0, 6.0, ComeTogether::AsWritten).0,
            60.0
        );
        assert_eq!(
            come_together(60.0, 12.0, 6.0, ComeTogether::Proportional).0,
            40.0
        );
        assert_eq!(
            come_together(60.0, 6.0, 12.0, ComeTogether::AsWritten).0,
            15.0
        );
        assert_eq!(meet_on(9, 7).0, 7);
    }

    proptest::proptest! {
        /// Glossary, charge-adjusted AC, for every AC and Dexterity: the bonus is lost (never
        /// past AC 10), or without one the AC is one class worse — AC 10 becomes 11.
        #[test]
        fn a_charger_is_always_easier_to_hit(ac in -10i32..=10, bonus in 0i32..=6) {
            let (charging, _) = charge_adjusted_ac(ac, bonus);
            let want = if bonus > 0 { (ac + bonus).min(ac.max(10)) } else { ac + 1 };
            proptest::prop_assert_eq!(charging, want);
            proptest::prop_assert!(charging > ac || (bonus > 0 && ac >= 10));
        }
    }
}
