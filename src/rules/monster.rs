//! Monsters: what a monster's hit dice give a figure the scene does not give itself — the
//! number needed to hit AC 0 from the monsters' attack matrix (DMG p.74) and the average hit
//! points of its dice — and the special defences that change what a spell does to it. The
//! monsters themselves are data (`assets/monsters.ron`); the matrix is here.

use super::cite::{self, Rule};
use serde::{Deserialize, Serialize};

/// A monster's hit dice as the Monster Manual writes them: whole eight-sided dice and the
/// points added or taken away ("2+1" is `HitDice { dice: 2, plus: 1 }`, "1-1" is
/// `{ dice: 1, plus: -1 }`, a kobold's half die is `{ dice: 0, plus: 0 }`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HitDice {
    /// Whole dice (0 for less than one).
    pub dice: u32,
    /// Points added to (or taken from) the roll.
    pub plus: i32,
}

impl HitDice {
    /// These hit dice, or `given` whole dice where a scene makes the monster stronger or
    /// weaker (an orc chieftain of 3 HD): then the points added are the scene's to give
    /// (our reading).
    pub fn as_given(self, given: Option<u32>) -> HitDice {
        match given {
            Some(dice) if dice != self.dice => HitDice { dice, plus: 0 },
            _ => self,
        }
    }
}

/// The column of the monsters' matrix (DMG p.74) read at AC 0: (least dice, with points
/// added, number needed). The matrix groups dice in pairs from 2 on, each pair with or
/// without points added ("2-3+"), and counts 16 and over as one.
const TO_HIT_AC0: [(u32, bool, i32); 10] = [
    (1, false, 19),
    (1, true, 18),
    (2, false, 16),
    (4, false, 15),
    (6, false, 13),
    (8, false, 12),
    (10, false, 10),
    (12, false, 9),
    (14, false, 8),
    (16, false, 7),
];

/// The number a monster of these hit dice needs to hit AC 0: below one whole die, or one
/// die less points ("1-1"), it is 20.
pub fn thac0(hd: HitDice) -> (i32, Rule) {
    let below_one = hd.dice == 0 || (hd.dice == 1 && hd.plus < 0);
    let n = match below_one {
        true => 20,
        false => TO_HIT_AC0
            .iter()
            .rev()
            .find(|&&(from, plus, _)| from < hd.dice || (from == hd.dice && (!plus || hd.plus > 0)))
            .map_or(20, |&(_, _, n)| n),
    };
    (n, cite::MONSTER_MATRIX)
}

/// Average hit points of the dice: 4.5 a die plus the points, rounded down, at least 1; a
/// half die (a d4) averages 2 (our reading of "typical" hit points; a scene gives its own).
pub fn average_hp(hd: HitDice) -> i32 {
    let dice = match hd.dice {
        0 => 2.5,
        n => f64::from(n) * 4.5,
    };
    ((dice + f64::from(hd.plus)).floor() as i32).max(1)
}

/// A special defence against a kind of spell (MM: the undead and golems are not put to
/// sleep or held).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, Serialize)]
pub enum Immunity {
    /// Sleep does not affect it.
    Sleep,
    /// Hold person and hold monster do not affect it.
    Hold,
}

impl Immunity {
    /// Its word in a log line.
    pub fn word(self) -> &'static str {
        match self {
            Immunity::Sleep => "sleep",
            Immunity::Hold => "hold",
        }
    }
}

/// The special defences of one figure, as a set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Immunities(u8);

impl Immunities {
    /// The set of these.
    pub fn of(list: &[Immunity]) -> Immunities {
        Immunities(list.iter().fold(0, |bits, &i| bits | Self::bit(i)))
    }

    fn bit(i: Immunity) -> u8 {
        1 << (i as u8)
    }

    /// Whether it holds this one.
    pub fn has(self, i: Immunity) -> bool {
        self.0 & Self::bit(i) != 0
    }

    /// Whether it holds none.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hd(dice: u32, plus: i32) -> HitDice {
        HitDice { dice, plus }
    }

    /// The matrix's columns at AC 0, one figure from each.
    #[test]
    fn the_columns_of_the_matrix() {
        let cases = [
            (hd(0, 0), 20),
            (hd(1, -1), 20),
            (hd(1, 0), 19),
            (hd(1, 1), 18),
            (hd(2, 0), 16),
            (hd(3, 3), 16),
            (hd(4, 0), 15),
            (hd(5, 2), 15),
            (hd(6, 6), 13),
            (hd(8, 1), 12),
            (hd(9, 1), 12),
            (hd(10, 1), 10),
            (hd(11, 2), 10),
            (hd(12, 2), 9),
            (hd(15, 2), 8),
            (hd(16, 0), 7),
            (hd(40, 0), 7),
        ];
        for (h, want) in cases {
            assert_eq!(thac0(h).0, want, "{h:?}");
        }
    }

    /// More dice, or the same dice with points added, never hit worse.
    #[test]
    fn more_dice_never_hit_worse() {
        let mut last = 99;
        for dice in 0..=30 {
            for plus in [-1, 0, 1] {
                let n = thac0(hd(dice, plus)).0;
                assert!(n <= last || plus == -1, "{dice}{plus:+}: {n} after {last}");
                last = n;
            }
        }
    }

    #[test]
    fn average_hit_points() {
        assert_eq!(average_hp(hd(1, 0)), 4);
        assert_eq!(average_hp(hd(2, 1)), 10);
        assert_eq!(average_hp(hd(6, 6)), 33);
        assert_eq!(average_hp(hd(0, 0)), 2);
        assert_eq!(average_hp(hd(1, -1)), 3);
    }
}
