//! Parting shots (house rules, "Parting Shots", after DMG p.70 on breaking off from
//! melee): a figure that leaves a melee still going draws one attack from each foe it
//! leaves, at +4 as if it were stunned and struck from behind. A fighting withdrawal (a
//! `Withdraw` declaration) avoids it; a foe that wants to keep fighting moves with the
//! withdrawing figure (declares a close or a charge on it) and fights on instead.
//! (Back stab is not modelled, so a thief's parting shot is a plain blow at +4.)

use crate::rules::cite::{self, Rule};

/// The to-hit bonus of a parting shot.
pub const PARTING_SHOT_BONUS: i32 = 4;

/// The parting shot a foe gets at a figure leaving melee: its bonus, or none when the
/// figure makes a fighting withdrawal.
pub fn parting_shot(fighting_withdrawal: bool) -> (Option<i32>, Rule) {
    (
        (!fighting_withdrawal).then_some(PARTING_SHOT_BONUS),
        cite::HOUSE_PARTING_SHOT,
    )
}
