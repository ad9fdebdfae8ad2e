//! A cache bounded both in entries and in bytes: when a new entry would pass either
//! bound it starts afresh. The engine keeps such caches for as long as a map lives — the
//! fields of view ([`crate::map::vision`]) and the sight of each arrangement of figures
//! ([`crate::sim`]) — and `odds` plays thousands of trials in one app, so a bound on the
//! count alone is no bound on memory (one entry for a crowd holds megabytes).

use bevy::platform::collections::HashMap;
use std::hash::Hash;

/// A map from keys to values that holds at most `max_len` entries and `max_bytes` bytes
/// (as the caller measures each value when it inserts it); a single value larger than
/// `max_bytes` is kept alone.
#[derive(Clone, Debug)]
pub struct BoundedCache<K, V> {
    entries: HashMap<K, (V, usize)>,
    bytes: usize,
    max_len: usize,
    max_bytes: usize,
}

impl<K: Eq + Hash, V> BoundedCache<K, V> {
    /// An empty cache with these bounds.
    pub fn new(max_len: usize, max_bytes: usize) -> Self {
        BoundedCache {
            entries: HashMap::new(),
            bytes: 0,
            max_len,
            max_bytes,
        }
    }

    /// The value kept for `key`.
    pub fn get(&self, key: &K) -> Option<&V> {
        self.entries.get(key).map(|(v, _)| v)
    }

    /// Keeps `value` (of `bytes` bytes) for `key`, replacing what was kept for it; empties
    /// the cache first when the entry would pass a bound (so a value larger than the
    /// whole byte bound is kept alone). The value is always kept.
    pub fn insert(&mut self, key: K, value: V, bytes: usize) {
        if let Some((_, old)) = self.entries.remove(&key) {
            self.bytes -= old;
        }
        if self.entries.len() >= self.max_len || self.bytes + bytes > self.max_bytes {
            self.entries.clear();
            self.bytes = 0;
        }
        self.bytes += bytes;
        self.entries.insert(key, (value, bytes));
    }

    /// The bytes kept (never more than the byte bound, or the one value kept alone).
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The entries kept (never more than the entry bound).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// The heap bytes of a vector's buffer (what a cached value of vectors holds).
pub fn heap_bytes<T>(v: &Vec<T>) -> usize {
    v.capacity() * std::mem::size_of::<T>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever is inserted, in whatever sizes and order, the cache never holds more
        /// than its bounds (a value over the byte bound alone), its byte count is the
        /// sum of what it holds, and the entry just inserted is there.
        #[test]
        fn never_past_its_bounds(
            max_len in 1usize..8,
            max_bytes in 1usize..1000,
            puts in prop::collection::vec((0u8..12, 0usize..1200), 0..60),
        ) {
            let mut c = BoundedCache::new(max_len, max_bytes);
            let mut sizes: std::collections::HashMap<u8, usize> = Default::default();
            for (k, b) in puts {
                c.insert(k, b, b);
                prop_assert!(c.len() <= max_len);
                prop_assert!(c.bytes() <= max_bytes || c.len() == 1);
                prop_assert_eq!(c.get(&k), Some(&b));
                sizes.retain(|key, _| c.get(key).is_some());
                sizes.insert(k, b);
                sizes.retain(|key, _| c.get(key).is_some());
                prop_assert_eq!(c.bytes(), sizes.values().sum::<usize>());
            }
        }
    }
}
