//! Lookups by name for the figures' passes over a run's events.
//!
//! A large run has hundreds of thousands of events, each naming a node or a pod, and the figures
//! look each name up once per event. A small open-addressing table keyed by FNV-1a does it in one
//! hash and usually one compare (an ordered map compared long shared prefixes such as
//! `web-lm9dhxfg9h-` again and again), the same on every machine. It is written here rather than
//! taken from the standard library so that the page carries one copy of it, not a hash table per
//! key and value type.

/// Dense indexes for names, in the order they were first seen.
#[derive(Default)]
pub struct Names<'a> {
    /// Slot to index plus one (0: empty); the length is a power of two.
    slots: Vec<u32>,
    names: Vec<&'a str>,
}

impl<'a> Names<'a> {
    /// How many names were seen.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// `s`'s index, if it was seen.
    pub fn get(&self, s: &str) -> Option<usize> {
        self.probe(s).ok()
    }

    /// `s`'s index, and whether it is new.
    pub fn index(&mut self, s: &'a str) -> (usize, bool) {
        if self.names.len() * 2 >= self.slots.len() {
            self.grow();
        }
        match self.probe(s) {
            Ok(i) => (i, false),
            Err(slot) => {
                self.names.push(s);
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
                i if self.names[i as usize - 1] == s => return Ok(i as usize - 1),
                _ => slot = (slot + 1) & mask,
            }
        }
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(64);
        self.slots = vec![0; size];
        for (i, s) in self.names.iter().enumerate() {
            let mut slot = fnv(s) as usize & (size - 1);
            while self.slots[slot] != 0 {
                slot = (slot + 1) & (size - 1);
            }
            self.slots[slot] = i as u32 + 1;
        }
    }
}

/// The 64-bit FNV-1a hash of `s`.
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A map keyed by names: a value per index of [`Names`] (none once removed).
pub struct NameMap<'a, V> {
    names: Names<'a>,
    values: Vec<Option<V>>,
}

impl<V> Default for NameMap<'_, V> {
    fn default() -> Self {
        NameMap {
            names: Names::default(),
            values: Vec::new(),
        }
    }
}

impl<'a, V> NameMap<'a, V> {
    pub fn get(&self, s: &str) -> Option<&V> {
        self.values[self.names.get(s)?].as_ref()
    }

    /// Sets `s`'s value; whether it had none.
    pub fn insert(&mut self, s: &'a str, v: V) -> bool {
        let (i, new) = self.names.index(s);
        if new {
            self.values.push(Some(v));
            return true;
        }
        self.values[i].replace(v).is_none()
    }

    /// Takes `s`'s value.
    pub fn remove(&mut self, s: &str) -> Option<V> {
        self.values[self.names.get(s)?].take()
    }

    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.values.iter().flatten()
    }

    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> {
        self.values.iter_mut().flatten()
    }
}

impl<'a, V> FromIterator<(&'a str, V)> for NameMap<'a, V> {
    fn from_iter<I: IntoIterator<Item = (&'a str, V)>>(iter: I) -> Self {
        let mut map = NameMap::default();
        for (s, v) in iter {
            map.insert(s, v);
        }
        map
    }
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
        assert_eq!(Names::default().get("a"), None);
    }

    #[test]
    fn a_name_map_replaces_removes_and_inserts_again() {
        let mut map: NameMap<u32> = [("a", 1), ("b", 2), ("a", 3)].into_iter().collect();
        assert_eq!((map.get("a"), map.get("b"), map.get("c")), (Some(&3), Some(&2), None));
        assert_eq!(
            (map.remove("a"), map.remove("a"), map.remove("c")),
            (Some(3), None, None)
        );
        assert_eq!(map.get("a"), None);
        assert!(map.insert("a", 4));
        assert!(!map.insert("a", 4));
        map.values_mut().for_each(|v| *v += 10);
        assert_eq!((map.get("a"), map.get("b")), (Some(&14), Some(&12)));
        assert_eq!(map.values().sum::<u32>(), 26);
    }
}
