//! Hashed lookups by name for the figures' passes over a run's events.
//!
//! A large run has hundreds of thousands of events, each naming a node or a pod, and the figures
//! look each name up once per event. The standard library's default hasher (SipHash, keyed at
//! random) is built to resist crafted keys; the names here come from the run itself, so the
//! figures use FNV-1a instead: several times faster on short names, and the same on every
//! machine.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// FNV-1a, 64 bits.
#[derive(Clone, Copy)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A map keyed by names.
pub type NameMap<K, V> = HashMap<K, V, BuildHasherDefault<Fnv>>;
/// A set of names.
pub type NameSet<K> = HashSet<K, BuildHasherDefault<Fnv>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_its_published_test_vectors() {
        // The FNV reference's vectors for FNV-1a 64: "" and "a".
        let hash = |s: &str| {
            let mut h = Fnv::default();
            h.write(s.as_bytes());
            h.finish()
        };
        assert_eq!(hash(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(hash("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(hash("foobar"), 0x8594_4171_f739_67e8);
    }
}
