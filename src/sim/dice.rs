//! Dice: the scene's fixed dice first, in order, per kind and per figure or side; then a
//! seeded ChaCha8 generator, which gives the same numbers on every platform.
//!
//! Rolled dice belong to whoever rolls them: each (kind of die, figure or side) draws from
//! its own ChaCha8 stream, keyed by the scene's seed and a hash of the kind and the name.
//! Adding a figure, or a roll, to one part of a scene never re-rolls another part.

use crate::scene::DieKind;
use bevy::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use std::collections::{BTreeMap, VecDeque};

/// The dice of a run.
#[derive(Resource, Clone, Debug)]
pub struct Dice {
    seed: u64,
    /// Each kind's streams by figure or side (looked up by name, with no key to build).
    streams: BTreeMap<DieKind, BTreeMap<String, ChaCha8Rng>>,
    fixed: BTreeMap<DieKind, BTreeMap<String, VecDeque<i32>>>,
    /// Every roll the scene did not fix, in order (the table-dice mode asks about these).
    rolled: Vec<Rolled>,
}

/// A roll the scene did not fix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rolled {
    /// The kind of die.
    pub kind: DieKind,
    /// Whose: the figure or side a fixed die would be listed under.
    pub who: String,
    /// The die's sides (0 for a damage total).
    pub sides: u32,
    /// What it showed.
    pub value: i32,
    /// For a total (sides 0): the least and most it can come to, when known.
    pub within: Option<(i32, i32)>,
}

/// FNV-1a, 64 bits: a stable hash of a stream's name (the same on every platform and
/// every build, unlike the standard library's hasher), fed as the name is written.
struct Fnv1a(u64);

impl std::fmt::Write for Fnv1a {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0 = s.bytes().fold(self.0, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        Ok(())
    }
}

/// The stream of `kind` for `who`: FNV-1a of "Kind/who".
fn stream_of(kind: DieKind, who: &str) -> u64 {
    let mut h = Fnv1a(0xcbf2_9ce4_8422_2325);
    std::fmt::Write::write_fmt(&mut h, format_args!("{kind:?}/{who}"))
        .expect("hashing cannot fail");
    h.0
}

impl Dice {
    /// Dice seeded with `seed`, with the scene's fixed dice.
    pub fn new(seed: u64, fixed: &BTreeMap<DieKind, BTreeMap<String, Vec<i32>>>) -> Dice {
        Dice {
            seed,
            streams: BTreeMap::new(),
            fixed: fixed
                .iter()
                .map(|(k, by)| {
                    let by = by
                        .iter()
                        .map(|(who, v)| (who.clone(), v.iter().copied().collect()))
                        .collect();
                    (*k, by)
                })
                .collect(),
            rolled: Vec::new(),
        }
    }

    /// The rolls the scene did not fix, in order.
    pub fn rolled(&self) -> &[Rolled] {
        &self.rolled
    }

    /// Notes a total made of unfixed dice (a blow's damage), as a table would read it.
    pub fn note(&mut self, kind: DieKind, who: &str, value: i32, within: (i32, i32)) {
        self.rolled.push(Rolled {
            kind,
            who: who.to_string(),
            sides: 0,
            value,
            within: Some(within),
        });
    }

    /// One die of `sides`, for `who` (a figure or side; "any" is the fallback key). Returns
    /// the value and whether the scene fixed it.
    pub fn roll(&mut self, kind: DieKind, who: &str, sides: u32) -> (i32, bool) {
        if let Some(v) = self.fixed(kind, who) {
            return (v, true);
        }
        let value = self.random(kind, who, sides) as i32;
        self.rolled.push(Rolled {
            kind,
            who: who.to_string(),
            sides,
            value,
            within: None,
        });
        (value, false)
    }

    /// A fixed value if the scene has one left, without rolling otherwise.
    pub fn fixed(&mut self, kind: DieKind, who: &str) -> Option<i32> {
        let by = self.fixed.get_mut(&kind)?;
        for key in [who, "any"] {
            if let Some(v) = by.get_mut(key).and_then(VecDeque::pop_front) {
                return Some(v);
            }
        }
        None
    }

    /// A uniform die from `who`'s stream for this kind of die (rejection sampling, so no
    /// bias and no platform-dependent arithmetic).
    pub fn random(&mut self, kind: DieKind, who: &str, sides: u32) -> u32 {
        let seed = self.seed;
        let by = self.streams.entry(kind).or_default();
        if !by.contains_key(who) {
            let mut r = ChaCha8Rng::seed_from_u64(seed);
            r.set_stream(stream_of(kind, who));
            by.insert(who.to_string(), r);
        }
        let rng = by.get_mut(who).expect("stream just made");
        let sides = sides.max(1);
        let zone = u32::MAX - (u32::MAX % sides);
        loop {
            let v = rng.next_u32();
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
        let xs: Vec<u32> = (0..50).map(|_| b.random(DieKind::ToHit, "A", 6)).collect();
        let ys: Vec<u32> = (0..50).map(|_| c.random(DieKind::ToHit, "A", 6)).collect();
        assert_eq!(xs, ys);
        assert!(xs.iter().all(|v| (1..=6).contains(v)));
    }

    #[test]
    fn each_figure_rolls_from_its_own_stream() {
        let mut a = Dice::new(7, &BTreeMap::new());
        let mut b = Dice::new(7, &BTreeMap::new());
        // B's rolls interleaved with others' are the same as B's rolls alone.
        let alone: Vec<u32> = (0..20).map(|_| a.random(DieKind::ToHit, "B", 20)).collect();
        let mixed: Vec<u32> = (0..20)
            .map(|_| {
                b.random(DieKind::ToHit, "C", 20);
                b.random(DieKind::Damage, "B", 8);
                b.random(DieKind::ToHit, "B", 20)
            })
            .collect();
        assert_eq!(alone, mixed);
        // Different figures, kinds and seeds give different streams.
        let c: Vec<u32> = (0..20).map(|_| a.random(DieKind::ToHit, "C", 20)).collect();
        assert_ne!(alone, c);
        let mut d = Dice::new(8, &BTreeMap::new());
        let other_seed: Vec<u32> = (0..20).map(|_| d.random(DieKind::ToHit, "B", 20)).collect();
        assert_ne!(alone, other_seed);
    }
}
