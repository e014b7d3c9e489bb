//! Lookups by name for the figures' passes over a run's events. A large run has hundreds of
//! thousands of events, each naming a node or a pod, and the figures look each name up once per
//! event, in the engine's table of names (`kubelife_engine::names`), the same one the wire writer
//! keeps its strings in.

/// Dense indexes for borrowed names, in the order they were first seen.
pub type Names<'a> = kubelife_engine::names::Names<&'a str>;

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
