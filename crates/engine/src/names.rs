//! Dense indexes for strings, in the order first seen: one open-addressing table keyed by FNV-1a,
//! so that a lookup costs one hash and usually one compare (an ordered map compared long shared
//! prefixes such as `web-lm9dhxfg9h-` again and again), the same on every machine. The wire
//! writer's string table keeps owned strings in it, the figures borrowed names; it is written
//! here rather than taken from the standard library so that each wasm carries one copy of it, not
//! a hash table per key and value type.

/// Strings `S` (owned or borrowed) by their index, in the order they were first seen.
pub struct Names<S> {
    /// Slot to index plus one (0: empty); the length is a power of two.
    slots: Vec<u32>,
    names: Vec<S>,
}

impl<S> Default for Names<S> {
    fn default() -> Self {
        Names {
            slots: Vec::new(),
            names: Vec::new(),
        }
    }
}

impl<S: AsRef<str>> Names<S> {
    /// How many strings were seen.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether none was.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// `s`'s index, if it was seen.
    pub fn get(&self, s: &str) -> Option<usize> {
        self.probe(s).ok()
    }

    /// `s`'s index, and whether it is new; a new one is kept as `keep` makes it.
    pub fn index_with(&mut self, s: &str, keep: impl FnOnce() -> S) -> (usize, bool) {
        if self.names.len() * 2 >= self.slots.len() {
            self.grow();
        }
        match self.probe(s) {
            Ok(i) => (i, false),
            Err(slot) => {
                self.names.push(keep());
                self.slots[slot] = self.names.len() as u32;
                (self.names.len() - 1, true)
            }
        }
    }

    /// `s`'s index, or the empty slot where it would go.
    fn probe(&self, s: &str) -> Result<usize, usize> {
        if self.slots.is_empty() {
            return Err(0);
        }
        let mask = self.slots.len() - 1;
        let mut slot = fnv(s) as usize & mask;
        loop {
            match self.slots[slot] {
                0 => return Err(slot),
                i if self.names[i as usize - 1].as_ref() == s => return Ok(i as usize - 1),
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(64);
        self.slots = vec![0; size];
        for (i, s) in self.names.iter().enumerate() {
            let mut slot = fnv(s.as_ref()) as usize & (size - 1);
            while self.slots[slot] != 0 {
                slot = (slot + 1) & (size - 1);
            }
            self.slots[slot] = i as u32 + 1;
        }
    }
}

impl<'a> Names<&'a str> {
    /// `s`'s index, and whether it is new (borrowed names are kept as they are).
    pub fn index(&mut self, s: &'a str) -> (usize, bool) {
        self.index_with(s, || s)
    }
}

/// The 64-bit FNV-1a hash of `s`.
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_its_published_test_vectors() {
        // The FNV reference's vectors for FNV-1a 64: "", "a" and "foobar".
        assert_eq!(fnv(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv("foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn names_get_dense_indexes_in_order_and_survive_growth() {
        let owned: Vec<String> = (0..1000).map(|i| format!("web-lm9dhxfg9h-{i}")).collect();
        let mut names = Names::default();
        for (i, s) in owned.iter().enumerate() {
            assert_eq!(names.index(s), (i, true));
        }
        for (i, s) in owned.iter().enumerate() {
            assert_eq!(names.index(s), (i, false));
            assert_eq!(names.get(s), Some(i));
        }
        assert_eq!(names.get("web-lm9dhxfg9h-1000"), None);
        assert_eq!(Names::<&str>::default().get("a"), None);
        // Owned strings, as the wire writer keeps them, index the same way.
        let mut kept: Names<String> = Names::default();
        assert_eq!(kept.index_with("a", || "a".to_string()), (0, true));
        assert_eq!(kept.index_with("a", || unreachable!("kept once")), (0, false));
    }
}
