//! The scheduler's view of the nodes, kept up to date change by change, so that placing one pod
//! costs O(log nodes) however large the cluster.
//!
//! The placement rule is [`super::scheduler::pick_node`]'s: among the nodes a pod fits, the one
//! with the fewest pods of its workload, then the fewest pods, then the lowest index. Nodes that
//! every pod fits (present, not cordoned, no NoSchedule or NoExecute taint, room for a pod) are
//! *open* and live in ordered sets; the others are *closed* and grouped by what closes them, so a
//! pod only looks at the closed nodes whose taints it tolerates (rarely any).

use crate::api::{tolerates, Api, Effect, NodeId, PodId, Taint, TAINT_UNSCHEDULABLE};
use std::collections::{BTreeMap, BTreeSet};

/// What keeps a closed node from taking every pod: its cordon and its scheduling taints (key,
/// value, effect).
type Closure = (bool, Vec<(String, String, Effect)>);

/// Where one node stands in the index.
#[derive(Debug, Clone, Default, PartialEq)]
struct Entry {
    /// Whether it is indexed at all (it exists).
    present: bool,
    /// Open, or closed by this (`None` when full: no pod fits).
    open: bool,
    closure: Option<Closure>,
    /// Pods bound to it.
    total: usize,
    /// Its pods per workload.
    same: BTreeMap<usize, usize>,
}

/// The index.
#[derive(Debug, Clone, Default)]
pub struct NodeIndex {
    entries: Vec<Entry>,
    /// Open nodes by (pods, index).
    open_by_total: BTreeSet<(usize, NodeId)>,
    /// Per workload: open nodes that run some of its pods, by (its pods, pods, index).
    open_by_workload: BTreeMap<usize, BTreeSet<(usize, usize, NodeId)>>,
    /// Closed nodes with room, by what closes them.
    closed: BTreeMap<Closure, BTreeSet<NodeId>>,
}

impl NodeIndex {
    /// Brings node `n`'s entry up to date with the objects.
    pub fn refresh(&mut self, api: &Api, n: NodeId) {
        if self.entries.len() <= n {
            self.entries.resize(api.nodes.len().max(n + 1), Entry::default());
        }
        let fresh = Self::entry(api, n);
        if fresh == self.entries[n] {
            return;
        }
        let old = std::mem::replace(&mut self.entries[n], fresh);
        self.unindex(n, &old);
        let new = self.entries[n].clone();
        self.index(n, &new);
    }

    fn entry(api: &Api, n: NodeId) -> Entry {
        let node = &api.nodes[n];
        if !node.exists {
            return Entry::default();
        }
        let mut same = BTreeMap::new();
        for &p in &node.pods {
            *same.entry(api.pods[p].workload).or_insert(0) += 1;
        }
        let mut taints: Vec<(String, String, Effect)> = node
            .taints
            .iter()
            .filter(|t| matches!(t.effect, Effect::NoSchedule | Effect::NoExecute))
            .map(|t| (t.key.clone(), t.value.clone(), t.effect))
            .collect();
        crate::order::sort(&mut taints);
        let full = node.pods.len() >= node.max_pods as usize;
        let open = !full && !node.unschedulable && taints.is_empty();
        Entry {
            present: true,
            open,
            closure: (!open && !full).then_some((node.unschedulable, taints)),
            total: node.pods.len(),
            same,
        }
    }

    fn unindex(&mut self, n: NodeId, e: &Entry) {
        if e.open {
            self.open_by_total.remove(&(e.total, n));
            for (w, &same) in &e.same {
                if let Some(set) = self.open_by_workload.get_mut(w) {
                    set.remove(&(same, e.total, n));
                }
            }
        } else if let Some(c) = &e.closure {
            if let Some(set) = self.closed.get_mut(c) {
                set.remove(&n);
                if set.is_empty() {
                    self.closed.remove(c);
                }
            }
        }
    }

    fn index(&mut self, n: NodeId, e: &Entry) {
        if e.open {
            self.open_by_total.insert((e.total, n));
            for (&w, &same) in &e.same {
                self.open_by_workload.entry(w).or_default().insert((same, e.total, n));
            }
        } else if let Some(c) = &e.closure {
            self.closed.entry(c.clone()).or_default().insert(n);
        }
    }

    /// The node `p` goes to, if any: the same answer as `pick_node`.
    pub fn pick(&self, api: &Api, p: PodId) -> Option<NodeId> {
        let w = api.pods[p].workload;
        let same_of = |n: NodeId| self.entries[n].same.get(&w).copied().unwrap_or(0);
        let mut best: Option<(usize, usize, NodeId)> = None;
        let mut consider = |key: (usize, usize, NodeId)| {
            if best.is_none_or(|b| key < b) {
                best = Some(key);
            }
        };
        // Open nodes without pods of this workload, in (pods, index) order. When every open node
        // runs some, there is none to find.
        let with_w = self.open_by_workload.get(&w);
        if with_w.map_or(0, BTreeSet::len) < self.open_by_total.len() {
            if let Some(&(total, n)) = self.open_by_total.iter().find(|&&(_, n)| same_of(n) == 0) {
                consider((0, total, n));
            }
        }
        if let Some(&key) = with_w.and_then(|s| s.first()) {
            consider(key);
        }
        // Closed nodes whose cordon and taints this pod tolerates.
        let pod = &api.pods[p];
        let cordon = Taint::new(TAINT_UNSCHEDULABLE, Effect::NoSchedule, 0);
        for ((cordoned, taints), nodes) in &self.closed {
            let tolerated = (!cordoned || pod.tolerations.iter().any(|t| tolerates(t, &cordon)))
                && taints.iter().all(|(key, value, effect)| {
                    let taint = Taint {
                        value: value.clone(),
                        ..Taint::new(key, *effect, 0)
                    };
                    pod.tolerations.iter().any(|t| tolerates(t, &taint))
                });
            if tolerated {
                for &n in nodes {
                    consider((same_of(n), self.entries[n].total, n));
                }
            }
        }
        best.map(|(_, _, n)| n)
    }
}
