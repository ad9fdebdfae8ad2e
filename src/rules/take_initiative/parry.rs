//! Parrying (§3): in place of its attack, a figure whose base initiative comes before its
//! opponent's total takes half its level (rounded up, +1 for a single-classed fighter) off
//! one attack's roll to hit — a fighter may spread it over several attackers. It does not
//! work against missiles (except for monks) or from behind (our reading of the rear: the
//! arc behind the first attacker it names, [`from_behind`]).

use crate::rules::cite::{self, Rule};

/// Whether a parry made on base initiative `base` comes in time for an attack on `total`.
pub fn in_time(base: u32, total: i64) -> (bool, Rule) {
    (i64::from(base) < total, cite::TI_PARRY)
}

/// The parry's whole penalty to hit.
pub fn penalty(level: u32, single_class_fighter: bool) -> i32 {
    level.div_ceil(2) as i32 + i32::from(single_class_fighter)
}

/// The penalty on each of `attackers` attacks: all on one for anyone but a single-classed
/// fighter; a fighter spreads it evenly, the first attackers taking any remainder.
pub fn spread(penalty: i32, attackers: usize, single_class_fighter: bool) -> Vec<i32> {
    if attackers == 0 {
        return Vec::new();
    }
    if !single_class_fighter {
        let mut v = vec![0; attackers];
        v[0] = penalty;
        return v;
    }
    let n = attackers as i32;
    (0..n)
        .map(|k| penalty / n + i32::from(k < penalty % n))
        .collect()
}

/// Whether a blow comes from behind a parrier (§3: a parry does not meet rear attacks).
/// The text gives no facing; our reading: a parrier faces the first attacker it names, and
/// a blow from its rear arc — at least 135° off that facing, the three squares behind it
/// on a grid — is from behind. `facing` and `to_attacker` are directions from the parrier.
pub fn from_behind(facing: (f64, f64), to_attacker: (f64, f64)) -> (bool, Rule) {
    let (fl, al) = (facing.0.hypot(facing.1), to_attacker.0.hypot(to_attacker.1));
    if fl == 0.0 || al == 0.0 {
        return (false, cite::TI_PARRY_REAR);
    }
    let cos = (facing.0 * to_attacker.0 + facing.1 * to_attacker.1) / (fl * al);
    // cos 135° = -1/√2; a hair of slack so the diagonal squares behind count.
    (
        cos <= -std::f64::consts::FRAC_1_SQRT_2 + 1e-9,
        cite::TI_PARRY_REAR,
    )
}

/// Whether a parry can meet this attack at all.
pub fn applies(missile: bool, monk: bool, from_behind: bool) -> bool {
    !from_behind && (!missile || monk)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// §3's fighter: 9th level, −6 spread over three orcs, −2 each; it works only if his
    /// base initiative comes before the orcs' totals.
    #[test]
    fn the_fighter_and_three_orcs() {
        assert_eq!(penalty(9, true), 6);
        assert_eq!(spread(6, 3, true), vec![2, 2, 2]);
        assert_eq!(spread(5, 3, false), vec![5, 0, 0]);
        assert!(in_time(4, 4 + 7).0);
        assert!(!in_time(9, 2 + 7).0);
        assert!(!applies(true, false, false));
        assert!(applies(true, true, false));
        assert!(!applies(false, false, true));
    }

    /// Facing the first attacker: one straight behind, or diagonally behind, is from
    /// behind; one at the side is not.
    #[test]
    fn the_rear_arc() {
        let north = (0.0, -1.0);
        assert!(from_behind(north, (0.0, 1.0)).0);
        assert!(from_behind(north, (1.0, 1.0)).0);
        assert!(from_behind(north, (-1.0, 1.0)).0);
        assert!(!from_behind(north, (1.0, 0.0)).0);
        assert!(!from_behind(north, (1.0, -1.0)).0);
        assert!(!from_behind(north, (0.0, -1.0)).0);
    }
}
