//! Sorting with one copy of the sort in the binary. Each `sort`, `sort_by_key` and
//! `collect::<BTreeSet<_>>()` in Rust compiles its own copy of the standard library's sort for
//! its element type and order, 3–5 KB of wasm each. The page and the files worker (built for
//! size) and the engine's short or cold lists sort through here instead: the elements' positions
//! are sorted by one shared, non-generic copy, and each call site adds only its comparison and
//! the moving of its elements.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// Sorts `items` by `key`, stably (equal keys keep their order), as `slice::sort_by_key`.
pub fn sort_by_key<T, K: Ord>(items: &mut Vec<T>, key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` by `compare`, stably, as `slice::sort_by`.
pub fn sort_by<T>(items: &mut Vec<T>, compare: impl Fn(&T, &T) -> Ordering) {
    if items.len() < 2 {
        return;
    }
    let Ok(len) = u32::try_from(items.len()) else {
        // Past four billion elements the shared copy cannot count them; the standard one can.
        items.sort_by(compare);
        return;
    };
    let mut order: Vec<u32> = (0..len).collect();
    positions(&mut order, &|a, b| compare(&items[a as usize], &items[b as usize]));
    let mut old: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(order.iter().filter_map(|&i| old[i as usize].take()));
}

/// Sorts `items` in their own order, stably, as `slice::sort`.
pub fn sort<T: Ord>(items: &mut Vec<T>) {
    sort_by(items, T::cmp);
}

/// The set of `items`, as `collect::<BTreeSet<_>>()` but by inserting each, which sorts nothing.
pub fn set<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    let mut out = BTreeSet::new();
    for item in items {
        out.insert(item);
    }
    out
}

/// The map of `pairs`, as `collect::<BTreeMap<_, _>>()` (the last value of a key stays) but by
/// inserting each, which sorts nothing.
pub fn map<K: Ord, V>(pairs: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut out = BTreeMap::new();
    for (k, v) in pairs {
        out.insert(k, v);
    }
    out
}

/// A 64-bit key as two words, high then low, which order as the key does. A set of 64-bit keys
/// is kept as a `BTreeSet<(usize, usize)>` of these: the engine's worker already carries that
/// set's code for the scheduler's index, where a `BTreeSet<u64>` adds a copy of its own.
pub fn words(key: u64) -> (usize, usize) {
    ((key >> 32) as usize, (key & 0xffff_ffff) as usize)
}

/// The one copy of the sort: positions ordered by `compare` of the elements at them.
#[inline(never)]
fn positions(order: &mut [u32], compare: &dyn Fn(u32, u32) -> Ordering) {
    order.sort_by(|&a, &b| compare(a, b));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sorting `items` by their first field through here gives what the standard stable sort
    /// gives, equal keys in their first order.
    fn check(items: &[(i32, char)]) {
        let mut ours = items.to_vec();
        sort_by_key(&mut ours, |x| x.0);
        let mut std = items.to_vec();
        std.sort_by_key(|x| x.0);
        assert_eq!(ours, std, "{items:?}");
    }

    #[test]
    fn sorts_stably_as_the_standard_library() {
        for items in [
            vec![],
            vec![(1, 'a')],
            vec![(2, 'a'), (1, 'b'), (2, 'c'), (1, 'd'), (0, 'e')],
            (0..100)
                .map(|i| ((i * 37) % 11, char::from(b'a' + (i % 26) as u8)))
                .collect(),
            (0..50).rev().map(|i| (i / 3, 'x')).collect(),
        ] {
            check(&items);
        }
    }

    #[test]
    fn sets_and_maps_are_the_collected_ones() {
        let items = [5, 1, 5, 3, 1];
        assert_eq!(set(items), items.into_iter().collect::<BTreeSet<_>>());
        let pairs = [("b", 1), ("a", 2), ("b", 3)];
        assert_eq!(map(pairs), pairs.into_iter().collect::<BTreeMap<_, _>>());
        let mut v = vec!["b", "c", "a"];
        sort(&mut v);
        assert_eq!(v, ["a", "b", "c"]);
    }
}
