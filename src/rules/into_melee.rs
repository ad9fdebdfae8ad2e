//! Shooting into a melee (DMG p.63): a missile loosed at a figure locked in melee with the
//! shooter's comrades may strike any of them. The combatants are the target and each
//! comrade engaged with it; one is picked at random, each alike (our reading,
//! [`cite::MISSILE_INTO_MELEE`]: the text's own case is two of a size, "50/50", Example of
//! Melee round 2, where the DM's roll picks the ranger's ally and her natural 1 misses him).

use super::cite::{self, Rule};

/// Whether two figures are locked in melee: one aims its blows at the other (`fighting`),
/// and at `d_ft` apart, with these reaches, either can strike the other where it stands.
pub fn engaged(fighting: bool, d_ft: f64, reach_a_ft: f64, reach_b_ft: f64) -> bool {
    fighting && d_ft <= reach_a_ft.max(reach_b_ft) + 0.5
}

/// Which of `n` combatants (the target first, then the comrades in the melee) a die of
/// `die` (1 to `n`) picks, with the rule; a die past the last (a fixed one) picks the last.
/// None when there is no comrade in the melee: the shot is at its target.
pub fn struck(n: usize, die: i32) -> Option<(usize, Rule)> {
    (n > 1).then(|| {
        let k = (die.max(1) as usize).min(n) - 1;
        (k, cite::MISSILE_INTO_MELEE)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every die picks one of the combatants; each is picked by exactly one face.
        #[test]
        fn each_combatant_is_one_face(n in 2usize..8) {
            let picked: Vec<usize> = (1..=n as i32).map(|d| struck(n, d).unwrap().0).collect();
            prop_assert_eq!(picked, (0..n).collect::<Vec<_>>());
            prop_assert!(struck(1, 1).is_none());
        }
    }
}
