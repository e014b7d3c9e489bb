//! A map keyed by a dense id (a node's index), for what is only looked up, never walked in
//! order: a slot per id rather than a tree. Each `BTreeMap` of its own key and value types adds
//! 3–6 KB of the tree's code to the wasm; this one adds a few hundred bytes.

/// A node's index (`api::NodeId`); the map names no module, so that any may use it.
type NodeId = usize;

/// Values by node, with `BTreeMap`'s lookups (`get`, `insert`, `remove`, `len`).
#[derive(Debug, Clone)]
pub struct IdMap<V> {
    slots: Vec<Option<V>>,
    len: usize,
}

impl<V> Default for IdMap<V> {
    fn default() -> IdMap<V> {
        IdMap {
            slots: Vec::new(),
            len: 0,
        }
    }
}

impl<V> IdMap<V> {
    /// The value of node `n`, if it has one.
    pub fn get(&self, n: &NodeId) -> Option<&V> {
        self.slots.get(*n)?.as_ref()
    }

    /// Whether node `n` has a value.
    pub fn contains_key(&self, n: &NodeId) -> bool {
        self.get(n).is_some()
    }

    /// Sets node `n`'s value; returns the one it replaces.
    pub fn insert(&mut self, n: NodeId, value: V) -> Option<V> {
        if n >= self.slots.len() {
            self.slots.resize_with(n + 1, || None);
        }
        let old = self.slots[n].replace(value);
        self.len += usize::from(old.is_none());
        old
    }

    /// Takes node `n`'s value out.
    pub fn remove(&mut self, n: &NodeId) -> Option<V> {
        let old = self.slots.get_mut(*n)?.take();
        self.len -= usize::from(old.is_some());
        old
    }

    /// How many nodes have a value.
    pub fn len(&self) -> usize {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn answers_as_a_tree_map() {
        let mut ours = IdMap::default();
        let mut tree = BTreeMap::new();
        for (i, op) in [
            (3, true),
            (0, true),
            (3, true),
            (7, false),
            (3, false),
            (9, true),
            (0, false),
        ] {
            if op {
                assert_eq!(ours.insert(i, i * 10), tree.insert(i, i * 10));
            } else {
                assert_eq!(ours.remove(&i), tree.remove(&i));
            }
            assert_eq!(ours.len(), tree.len());
            for k in 0..12 {
                assert_eq!(ours.get(&k), tree.get(&k));
                assert_eq!(ours.contains_key(&k), tree.contains_key(&k));
            }
        }
    }
}
