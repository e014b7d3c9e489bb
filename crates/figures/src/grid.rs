//! The grid view of a large cluster at one instant: a small cell per node, grouped by zone, each
//! with the node's [`NodeState`], taints and pods, under a header per zone (its state, node
//! counts and tainting rate). Read from the histories [`Aggregate::build`] kept, so a playhead
//! frame costs O(nodes + pods), a binary search per node, and no replay of the events.

use crate::aggregate::{Aggregate, NodeCounts, NodeState, PodState};
use kubelife_engine::{Millis, ZoneState};

/// A pod on a node (or waiting for one) at the instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GridPod<'a> {
    /// The pod's name.
    pub name: &'a str,
    /// Its state.
    pub state: PodState,
}

/// One node's cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell<'a> {
    /// The node's name.
    pub node: &'a str,
    /// Its state (Gone once deleted).
    pub state: NodeState,
    /// Its taints, as `key:Effect` without the `node.kubernetes.io/` prefix, oldest first.
    pub taints: Vec<&'a str>,
    /// The pods bound to it whose objects exist, in creation order.
    pub pods: Vec<GridPod<'a>>,
}

/// One zone: its header and its cells.
#[derive(Debug, Clone, PartialEq)]
pub struct GridZone<'a> {
    /// The zone's name (empty for nodes without a zone).
    pub zone: &'a str,
    /// Its state.
    pub state: ZoneState,
    /// Its tainting rate, nodes per second.
    pub rate: f64,
    /// Its nodes per state.
    pub nodes: NodeCounts,
    /// A cell per node that has joined, in order of appearance.
    pub cells: Vec<Cell<'a>>,
}

/// The cluster at one instant, for the grid view.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid<'a> {
    /// Zones in name order.
    pub zones: Vec<GridZone<'a>>,
    /// Pods whose objects exist and that no node took yet.
    pub unscheduled: Vec<GridPod<'a>>,
}

impl Aggregate {
    /// The grid at `t`, ms.
    pub fn grid_at(&self, t: Millis) -> Grid<'_> {
        let mut zones: Vec<GridZone> = self
            .counts_at(t)
            .into_iter()
            .map(|z| GridZone {
                zone: z.zone,
                state: z.state,
                rate: z.rate,
                nodes: z.nodes,
                cells: Vec::new(),
            })
            .collect();
        // Where each node's cell went: (zone, index in it).
        let mut place: Vec<Option<(usize, usize)>> = vec![None; self.nodes.len()];
        for (i, n) in self.nodes.iter().enumerate() {
            let Some(state) = n.state.at(t) else { continue };
            let cells = &mut zones[n.zone].cells;
            place[i] = Some((n.zone, cells.len()));
            cells.push(Cell {
                node: &n.name,
                state,
                taints: taints_at(&n.taints, t),
                pods: Vec::new(),
            });
        }
        let mut unscheduled = Vec::new();
        // Pods are kept in creation order: stop at the first created after `t`.
        for p in self.pods.iter().take_while(|p| p.created <= t) {
            if p.removed.is_some_and(|r| r <= t) {
                continue;
            }
            let Some(state) = p.state.at(t) else { continue };
            let pod = GridPod { name: &p.name, state };
            match p.bound.filter(|b| b.0 <= t).and_then(|b| place[b.1]) {
                Some((z, c)) => zones[z].cells[c].pods.push(pod),
                None => unscheduled.push(pod),
            }
        }
        Grid { zones, unscheduled }
    }
}

/// A node's taints at `t` from its additions and removals.
fn taints_at(changes: &[(Millis, String, bool)], t: Millis) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for (_, taint, added) in changes.iter().take_while(|c| c.0 <= t) {
        let short = taint.trim_start_matches("node.kubernetes.io/");
        out.retain(|x| *x != short);
        if *added {
            out.push(short);
        }
    }
    out
}
