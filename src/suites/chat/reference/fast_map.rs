//! Hash maps for the reducer's small, short-lived indexes (tool ids, stream
//! ids, uuids). The standard SipHash guards against collision attacks the
//! reducer does not face, and costs more than the rest of a lookup on keys
//! this short; this is the multiply-rotate hash rustc uses for its own maps.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` with [`FastHasher`].
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// A `HashSet` with [`FastHasher`].
pub type FastSet<K> = HashSet<K, BuildHasherDefault<FastHasher>>;

/// The Fx hash: fast, deterministic, not collision-resistant.
#[derive(Clone, Copy, Debug, Default)]
pub struct FastHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FastHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        for &byte in chunks.remainder() {
            self.add(u64::from(byte));
        }
    }

    #[inline]
    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    #[inline]
    fn write_usize(&mut self, value: usize) {
        self.add(value as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_keys_hash_equal_and_maps_work() {
        let mut map: FastMap<&str, usize> = FastMap::default();
        for (i, key) in ["a", "tool-1", "a-much-longer-key-than-eight-bytes", ""].iter().enumerate() {
            map.insert(key, i);
        }
        assert_eq!(map.get("a-much-longer-key-than-eight-bytes"), Some(&2));
        assert_eq!(map.get(""), Some(&3));
        assert_eq!(map.get("b"), None);
    }
}
