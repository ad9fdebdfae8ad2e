//! Initiative (DMG p.62-64, p.168; UA p.104, p.106): a die per side, Dexterity for missile
//! users, and the items that strike first regardless.

use super::cite::{self, Rule};
use super::dexterity::effective_adjustment;
use serde::{Deserialize, Serialize};

/// The die a side rolls for initiative.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum InitiativeDie {
    /// The normal d6 (DMG p.62).
    #[default]
    D6,
    /// The spectator's d8 (DMG p.62, per The Secret of Bone Hill).
    D8,
}

impl InitiativeDie {
    /// Faces on the die.
    pub fn sides(self) -> u32 {
        match self {
            InitiativeDie::D6 => 6,
            InitiativeDie::D8 => 8,
        }
    }
    /// The rule that names this die.
    pub fn rule(self) -> Rule {
        match self {
            InitiativeDie::D6 => cite::INITIATIVE_D6,
            InitiativeDie::D8 => cite::INITIATIVE_SPECTATOR,
        }
    }
}

/// The die a side rolls for initiative (DMG p.62): one die for the whole side, a d8 if any
/// of its members rolls one (the spectator), a d6 otherwise.
pub fn side_die(member_dice: impl IntoIterator<Item = u32>) -> (InitiativeDie, Rule) {
    let die = if member_dice.into_iter().any(|d| d == 8) {
        InitiativeDie::D8
    } else {
        InitiativeDie::D6
    };
    (die, die.rule())
}

/// A figure's own initiative score: its side's die, plus its Dexterity attacking adjustment
/// when it fires or throws missiles (DMG p.64; bonuses only in light gear, PHB p.102).
pub fn individual_initiative(
    side_die: u32,
    missile_user: bool,
    dexterity: u32,
    light_gear: bool,
) -> (i32, Rule) {
    if missile_user {
        let adj = effective_adjustment(dexterity, light_gear);
        if adj != 0 {
            return (side_die as i32 + adj, cite::INITIATIVE_DEX);
        }
    }
    (side_die as i32, cite::INITIATIVE_D6)
}

/// The outcome of comparing two initiative scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum InitiativeResult {
    /// The first figure or side won.
    AWins,
    /// The second won.
    BWins,
    /// Tied.
    Tied,
}

/// Compares two initiative scores (DMG p.62).
pub fn compare(a: i32, b: i32) -> InitiativeResult {
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => InitiativeResult::AWins,
        std::cmp::Ordering::Less => InitiativeResult::BWins,
        std::cmp::Ordering::Equal => InitiativeResult::Tied,
    }
}

/// Whether a blow at a foe already within reach when the round begins is struck before
/// that foe moves off: when the striker's side won (DMG p.61: what the side with initiative
/// does is settled before what the side that lost does), or tied (DMG p.63: the two happen
/// at once, so the foe is still there to be struck). When the foe's side won, it is gone
/// first.
/// The scores are the sides' dice, a missile's adjusted for its shooter's Dexterity (DMG
/// p.64), as the round's order compares them.
pub fn strikes_before_the_move(striker_score: i32, foe_score: i32) -> Option<Rule> {
    match compare(striker_score, foe_score) {
        InitiativeResult::AWins | InitiativeResult::Tied => Some(cite::INITIATIVE_BEFORE_THE_MOVE),
        InitiativeResult::BWins => None,
    }
}

/// Magic items whose wielder strikes first whatever the initiative (DMG p.168; UA p.104, 106).
pub const STRIKES_FIRST_ITEMS: &[&str] = &[
    "crossbow of speed",
    "short sword of quickness",
    "scimitar of speed",
];

/// Whether a weapon's name makes its wielder strike first regardless of initiative.
pub fn strikes_first(weapon_name: &str) -> Option<Rule> {
    let w = weapon_name.to_ascii_lowercase();
    STRIKES_FIRST_ITEMS
        .iter()
        .any(|item| {
            let (kind, magic) = item.split_once(" of ").expect("items are named 'x of y'");
            w.contains(kind) && w.contains(&format!("of {magic}"))
        })
        .then_some(cite::STRIKES_FIRST)
}

/// A missile weapon's rate of fire as its wielder shoots it: a crossbow of speed shoots at
/// twice the crossbow's rate (DMG p.168: the Example of Melee's monk shoots his heavy
/// crossbow in the surprise segment and again in round 1), with that rule; any other
/// weapon at its own rate.
pub fn rate_of_fire(
    weapon_name: &str,
    of_speed: bool,
    rate: super::attack_rate::AttackRate,
) -> (super::attack_rate::AttackRate, Option<Rule>) {
    if of_speed && weapon_name.to_ascii_lowercase().contains("crossbow") {
        (rate.hasted().0, Some(cite::CROSSBOW_OF_SPEED_RATE))
    } else {
        (rate, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speed_items_are_recognised() {
        assert!(strikes_first("heavy crossbow of speed").is_some());
        assert!(strikes_first("Scimitar of Speed").is_some());
        assert!(strikes_first("short sword of quickness").is_some());
        assert!(strikes_first("short sword").is_none());
        assert!(strikes_first("crossbow").is_none());
    }
}
