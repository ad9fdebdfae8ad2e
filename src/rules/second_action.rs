//! A second action in one round, where the rules allow one. A figure normally does one
//! thing a round (DMG p.61); the texts allow a few pairs, each with its own place in the
//! order:
//! - **a potion, then a move**: drinking takes its segment (after any spent getting the
//!   potion out); the drinker then moves for the rest of the round while the potion works,
//!   as the fighter does in the table's Example of Melee;
//! - **an item of speed's shot, then a normal attack**: the item's one shot comes first
//!   regardless of initiative (DMG p.168); the figure's normal attack with its other weapon
//!   takes its place by the usual rules;
//! - **a melee blow, then a device with no activation time** (a ring, a word of command):
//!   the device takes no time of its own, so it is used when its side's initiative comes,
//!   in the beat of the blow (our reading, [`cite::MELEE_THEN_DEVICE`]); a device with an activation time is
//!   timed as a spell (DMG p.65) and takes the figure's round;
//! - **two cantrips** (UA p.45), declared as one act.

use super::cite::{self, Rule};

/// The first action of a pair, as far as pairing is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// Drinking a potion.
    Potion,
    /// Missile fire.
    Missile {
        /// With an item of speed.
        of_speed: bool,
    },
    /// A melee attack.
    Melee,
    /// Anything else.
    Other,
}

/// The second action of a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Second {
    /// Moving.
    Move,
    /// A melee attack.
    Melee {
        /// With a weapon other than the first action's (an off-hand or drawn weapon).
        other_weapon: bool,
    },
    /// Using a magical device.
    Device {
        /// It has no activation time ([`super::spell::instant_device`]).
        instant: bool,
    },
    /// Anything else.
    Other,
}

/// Whether `second` may follow `first` in the same round, and the rule that allows it; the
/// error says what the rules allow instead.
pub fn may_follow(first: First, second: Second) -> Result<Rule, String> {
    match (first, second) {
        (First::Potion, Second::Move) => Ok(cite::POTION_THEN_MOVE),
        (First::Missile { of_speed: true }, Second::Melee { other_weapon: true }) => {
            Ok(cite::SPEED_SHOT_THEN_ATTACK)
        }
        (First::Missile { of_speed: true }, Second::Melee { .. }) => Err(
            "the normal attack after an item of speed's shot needs another weapon (give an off_hand)"
                .into(),
        ),
        (First::Missile { of_speed: false }, Second::Melee { .. }) => Err(
            "only an item of speed's shot leaves time for a normal attack too (DMG p.168)".into(),
        ),
        (First::Melee, Second::Device { instant: true }) => Ok(cite::MELEE_THEN_DEVICE),
        (First::Melee, Second::Device { instant: false }) => Err(
            "a device with an activation time is timed as a spell and takes the round (DMG p.65); only one with none (a ring, a word of command) may follow a blow"
                .into(),
        ),
        _ => Err(
            "a second action this round may only be a move after a potion, a normal attack after an item of speed's shot, or a device with no activation time after a melee blow"
                .into(),
        ),
    }
}

/// The segment a move after a potion sets off: the one after the drink, which comes after
/// the `prepare` segments spent getting it out.
pub fn move_after_potion(prepare: u32) -> u32 {
    prepare.saturating_add(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_allowed_pairs() {
        assert!(may_follow(First::Potion, Second::Move).is_ok());
        let speed = First::Missile { of_speed: true };
        let other = Second::Melee { other_weapon: true };
        assert!(may_follow(speed, other).is_ok());
        assert!(
            may_follow(
                speed,
                Second::Melee {
                    other_weapon: false
                }
            )
            .is_err()
        );
        assert!(may_follow(First::Missile { of_speed: false }, other).is_err());
        assert!(may_follow(First::Potion, other).is_err());
        assert!(may_follow(First::Other, Second::Move).is_err());
        let ring = Second::Device { instant: true };
        let wand = Second::Device { instant: false };
        assert_eq!(may_follow(First::Melee, ring), Ok(cite::MELEE_THEN_DEVICE));
        assert!(may_follow(First::Melee, wand).is_err());
        assert!(may_follow(First::Potion, ring).is_err());
        assert!(may_follow(First::Missile { of_speed: true }, ring).is_err());
        assert_eq!(move_after_potion(1), 2);
    }
}
