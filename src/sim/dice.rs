//! Dice: the scene's fixed dice first, in order, per kind and per figure or side; then a
//! seeded ChaCha8 generator, which gives the same numbers on every platform.

use crate::scene::DieKind;
use bevy::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use std::collections::{BTreeMap, VecDeque};

/// The dice of a run.
#[derive(Resource, Clone, Debug)]
pub struct Dice {
    rng: ChaCha8Rng,
    fixed: BTreeMap<(DieKind, String), VecDeque<i32>>,
}

impl Dice {
    /// Dice seeded with `seed`, with the scene's fixed dice.
    pub fn new(seed: u64, fixed: &BTreeMap<DieKind, BTreeMap<String, Vec<i32>>>) -> Dice {
        Dice {
            rng: ChaCha8Rng::seed_from_u64(seed),
            fixed: fixed
                .iter()
                .flat_map(|(k, by)| {
                    by.iter()
                        .map(move |(who, v)| ((*k, who.clone()), v.iter().copied().collect()))
                })
                .collect(),
        }
    }

    /// One die of `sides`, for `who` (a figure or side; "any" is the fallback key). Returns
    /// the value and whether the scene fixed it.
    pub fn roll(&mut self, kind: DieKind, who: &str, sides: u32) -> (i32, bool) {
        for key in [who, "any"] {
            if let Some(q) = self.fixed.get_mut(&(kind, key.to_string()))
                && let Some(v) = q.pop_front()
            {
                return (v, true);
            }
        }
        (self.random(sides) as i32, false)
    }

    /// A fixed value if the scene has one left, without rolling otherwise.
    pub fn fixed(&mut self, kind: DieKind, who: &str) -> Option<i32> {
        for key in [who, "any"] {
            if let Some(q) = self.fixed.get_mut(&(kind, key.to_string()))
                && let Some(v) = q.pop_front()
            {
                return Some(v);
            }
        }
        None
    }

    /// A uniform die from the generator (rejection sampling, so no bias and no
    /// platform-dependent arithmetic).
    pub fn random(&mut self, sides: u32) -> u32 {
        let sides = sides.max(1);
        let zone = u32::MAX - (u32::MAX % sides);
        loop {
            let v = self.rng.next_u32();
            if v < zone {
                return v % sides + 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_first_then_seeded() {
        let mut fixed = BTreeMap::new();
        fixed.insert(
            DieKind::ToHit,
            BTreeMap::from([("Ranger".to_string(), vec![11, 15])]),
        );
        let mut a = Dice::new(7, &fixed);
        assert_eq!(a.roll(DieKind::ToHit, "Ranger", 20), (11, true));
        assert_eq!(a.roll(DieKind::ToHit, "Ranger", 20), (15, true));
        let (v, fixed_v) = a.roll(DieKind::ToHit, "Ranger", 20);
        assert!(!fixed_v && (1..=20).contains(&v));
        let mut b = Dice::new(7, &BTreeMap::new());
        let mut c = Dice::new(7, &BTreeMap::new());
        let xs: Vec<u32> = (0..50).map(|_| b.random(6)).collect();
        let ys: Vec<u32> = (0..50).map(|_| c.random(6)).collect();
        assert_eq!(xs, ys);
        assert!(xs.iter().all(|v| (1..=6).contains(v)));
    }
}
