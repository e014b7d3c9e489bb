//! A map keyed by a dense id (a node's index, or a pod's), for what is only looked up, never walked in
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

/// Values keyed by a pair whose second member is a node (`(remediator, node)`, `(volume, node)`),
/// only looked up, never walked in order: a slot per node holding that node's few pairs. A node
/// has a handful of volumes and remediators, so a lookup reads a short list, and the wasm carries
/// none of a tree's code for the pair's key.
#[derive(Debug, Clone)]
pub struct PairMap<V> {
    slots: Vec<Vec<(usize, V)>>,
}

impl<V> Default for PairMap<V> {
    fn default() -> PairMap<V> {
        PairMap { slots: Vec::new() }
    }
}

impl<V> PairMap<V> {
    /// The value of `(k, n)`, if it has one.
    pub fn get(&self, &(k, n): &(usize, NodeId)) -> Option<&V> {
        let slot = self.slots.get(n)?;
        slot.iter().find(|(key, _)| *key == k).map(|(_, v)| v)
    }

    /// Node `n`'s pairs, made room for.
    fn slot(&mut self, n: NodeId) -> &mut Vec<(usize, V)> {
        if n >= self.slots.len() {
            self.slots.resize_with(n + 1, Vec::new);
        }
        &mut self.slots[n]
    }

    /// Sets `(k, n)`'s value; returns the one it replaces.
    pub fn insert(&mut self, (k, n): (usize, NodeId), value: V) -> Option<V> {
        let slot = self.slot(n);
        match slot.iter_mut().find(|(key, _)| *key == k) {
            Some((_, old)) => Some(std::mem::replace(old, value)),
            None => {
                slot.push((k, value));
                None
            }
        }
    }

    /// `(k, n)`'s value, set first from `make` if it has none (a tree map's `entry().or_insert_with`).
    pub fn get_or_insert_with(&mut self, (k, n): (usize, NodeId), make: impl FnOnce() -> V) -> &mut V {
        let slot = self.slot(n);
        let i = match slot.iter().position(|(key, _)| *key == k) {
            Some(i) => i,
            None => {
                slot.push((k, make()));
                slot.len() - 1
            }
        };
        &mut slot[i].1
    }

    /// Takes `(k, n)`'s value out.
    pub fn remove(&mut self, &(k, n): &(usize, NodeId)) -> Option<V> {
        let slot = self.slots.get_mut(n)?;
        let i = slot.iter().position(|(key, _)| *key == k)?;
        Some(slot.swap_remove(i).1)
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

    #[test]
    fn pairs_answer_as_a_tree_map() {
        let mut ours = PairMap::default();
        let mut tree = BTreeMap::new();
        for (k, n, op) in [
            (1, 3, 0),
            (0, 3, 0),
            (1, 3, 0),
            (2, 7, 1),
            (1, 3, 1),
            (4, 9, 2),
            (4, 9, 2),
            (0, 3, 1),
        ] {
            match op {
                0 => assert_eq!(ours.insert((k, n), k * 10 + n), tree.insert((k, n), k * 10 + n)),
                1 => assert_eq!(ours.remove(&(k, n)), tree.remove(&(k, n))),
                _ => {
                    *ours.get_or_insert_with((k, n), || 0) += 1;
                    *tree.entry((k, n)).or_insert(0) += 1;
                }
            }
            for key in (0..5).flat_map(|k| (0..12).map(move |n| (k, n))) {
                assert_eq!(ours.get(&key), tree.get(&key));
            }
        }
    }
}
