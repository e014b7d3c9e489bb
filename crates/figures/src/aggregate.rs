//! Counts over time for clusters too large for a card or a lane per node: per zone, how many nodes
//! are in each state, the zone's state (Normal, PartialDisruption, FullDisruption) and its
//! tainting rate; per workload, how many pods are Ready, NotReady, Terminating or Pending. Built in
//! one pass over the engine's events (O(events), never O(nodes × events)); each series holds a
//! change point only where something changed, so a playhead reads it by binary search.
//!
//! The same pass keeps every node's and pod's own history, which [`crate::grid`] reads at a
//! playhead and [`crate::spread`] reads for milestones. Nothing here simulates.

use crate::cluster::registered_zone;
use crate::names::NameMap;
use kubelife_engine::{Config, EventKind, Millis, Outcome, TimelineEvent, ZoneState};
use std::collections::BTreeMap;

/// Values over time as change points `(ms, value)`, in time order, one per instant, each
/// different from the one before.
#[derive(Debug, Clone, PartialEq)]
pub struct Series<T> {
    points: Vec<(Millis, T)>,
}

impl<T> Default for Series<T> {
    fn default() -> Self {
        Series { points: Vec::new() }
    }
}

impl<T: Copy + PartialEq> Series<T> {
    /// The change points.
    pub fn points(&self) -> &[(Millis, T)] {
        &self.points
    }

    /// The value at `t` (the last change at or before it); `None` before the first change.
    pub fn at(&self, t: Millis) -> Option<T> {
        let i = self.points.partition_point(|p| p.0 <= t);
        i.checked_sub(1).map(|i| self.points[i].1)
    }

    /// Records `v` from `t` on (`t` never before the last change point). Several changes at one
    /// instant leave one point; a change back to the value before leaves none.
    pub fn set(&mut self, t: Millis, v: T) {
        let n = self.points.len();
        match self.points.last_mut() {
            Some(last) if last.0 == t => {
                last.1 = v;
                if n >= 2 && self.points[n - 2].1 == v {
                    self.points.pop();
                }
            }
            Some(last) if last.1 == v => {}
            _ => self.points.push((t, v)),
        }
    }
}

/// A node's state as the aggregate counts it. Every node is in exactly one, by precedence:
/// Gone (its Node object deleted) before Tainted (a NoExecute taint: `unreachable`, `not-ready`,
/// or an operator's `out-of-service`) before Unknown before NotReady (its Ready condition) before
/// Cordoned (`spec.unschedulable`, or the `unschedulable:NoSchedule` taint) before Ready. So a
/// node that is Unknown and tainted counts as Tainted, and a cordoned node that turns NotReady
/// counts as NotReady.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum NodeState {
    /// Ready=True, not cordoned, no NoExecute taint.
    Ready,
    /// Ready=True and cordoned.
    Cordoned,
    /// Ready=False.
    NotReady,
    /// Ready=Unknown (the node lifecycle controller stopped hearing from it).
    Unknown,
    /// A NoExecute taint: its pods are being evicted.
    Tainted,
    /// Deleted.
    Gone,
}

impl NodeState {
    /// Every state, in stacking order (bottom first); [`NodeCounts::states`] is indexed so.
    pub const ALL: [NodeState; 6] = [
        NodeState::Ready,
        NodeState::Cordoned,
        NodeState::NotReady,
        NodeState::Unknown,
        NodeState::Tainted,
        NodeState::Gone,
    ];
}

/// How many of a zone's nodes are in each [`NodeState`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NodeCounts {
    /// Nodes per state, in the order of [`NodeState::ALL`]; they sum to the zone's nodes that
    /// exist or were deleted (a node that has not joined yet is not counted).
    pub states: [u32; 6],
    /// Nodes, deleted ones aside, whose Ready condition is Unknown, tainted or not (not part of
    /// the stack: most are counted as Tainted or Unknown above).
    pub ready_unknown: u32,
}

impl NodeCounts {
    /// Nodes in state `s`.
    pub fn get(&self, s: NodeState) -> u32 {
        self.states[s as usize]
    }

    /// Every counted node.
    pub fn total(&self) -> u32 {
        self.states.iter().sum()
    }
}

/// A pod's state as the aggregate counts it, as the timeline's pod lanes show it: Terminating
/// once its deletion is requested, whatever its readiness; Pending from its creation until it is
/// first Ready; NotReady after it was Ready (or once it failed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PodState {
    /// Ready, not terminating.
    Ready,
    /// Not Ready any more.
    NotReady,
    /// Its deletion requested.
    Terminating,
    /// Created, never Ready yet.
    Pending,
}

impl PodState {
    /// Every state, in stacking order (bottom first); [`PodCounts::states`] is indexed so.
    pub const ALL: [PodState; 4] = [
        PodState::Ready,
        PodState::NotReady,
        PodState::Terminating,
        PodState::Pending,
    ];
}

/// How many of a workload's pod objects are in each [`PodState`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PodCounts {
    /// Pods per state, in the order of [`PodState::ALL`]; they sum to the pod objects that exist.
    pub states: [u32; 4],
}

impl PodCounts {
    /// Pods in state `s`.
    pub fn get(&self, s: PodState) -> u32 {
        self.states[s as usize]
    }

    /// Every pod object that exists.
    pub fn total(&self) -> u32 {
        self.states.iter().sum()
    }
}

/// The flags behind a zone's tainting rate (`ReducedQPSFunc`, `HealthyQPSFunc`), nodes per second.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EvictionRates {
    /// `--node-eviction-rate`.
    pub node_eviction_rate: f64,
    /// `--secondary-node-eviction-rate`.
    pub secondary_node_eviction_rate: f64,
    /// `--large-cluster-size-threshold`, nodes.
    pub large_cluster_size_threshold: u32,
}

impl EvictionRates {
    /// The rates a run was configured with.
    pub fn of(cfg: &Config) -> EvictionRates {
        let kcm = &cfg.controller_manager;
        EvictionRates {
            node_eviction_rate: kcm.node_eviction_rate,
            secondary_node_eviction_rate: kcm.secondary_node_eviction_rate,
            large_cluster_size_threshold: kcm.large_cluster_size_threshold,
        }
    }

    /// The rate the zone's queue is swapped to when it enters `state` with `size` nodes:
    /// `ReducedQPSFunc` in PartialDisruption (the secondary rate when the zone is larger than the
    /// threshold, strictly, else 0); `HealthyQPSFunc` in Normal and in a FullDisruption that not
    /// every zone shares. When every zone is in FullDisruption the controller stops (rate 0), which
    /// [`Aggregate::build`] applies on top.
    pub fn rate(&self, state: ZoneState, size: u32) -> f64 {
        match state {
            ZoneState::PartialDisruption if size > self.large_cluster_size_threshold => {
                self.secondary_node_eviction_rate
            }
            ZoneState::PartialDisruption => 0.0,
            _ => self.node_eviction_rate,
        }
    }
}

/// One zone over time.
#[derive(Debug, Clone, PartialEq)]
pub struct ZoneSeries {
    /// The zone's name (empty for nodes without a zone).
    pub name: String,
    /// Its nodes per state.
    pub nodes: Series<NodeCounts>,
    /// Its state: Normal from 0 (the warm-up settles every zone before the timeline opens), then
    /// as `ZoneStateChanged` events say.
    pub state: Series<ZoneState>,
    /// The rate its NoExecute tainting queue (or, on the legacy path, its eviction queue) runs
    /// at, nodes per second.
    pub rate: Series<f64>,
}

impl ZoneSeries {
    /// A zone with no nodes yet, Normal, at the healthy rate.
    fn new(name: String, rates: &EvictionRates) -> ZoneSeries {
        let mut z = ZoneSeries {
            name,
            nodes: Series::default(),
            state: Series::default(),
            rate: Series::default(),
        };
        z.nodes.set(0, NodeCounts::default());
        z.state.set(0, ZoneState::Normal);
        z.rate.set(0, rates.rate(ZoneState::Normal, 0));
        z
    }
}

/// One workload over time.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkloadSeries {
    /// The workload's name.
    pub name: String,
    /// Its desired Ready pods (for a DaemonSet, one per node that exists at the end).
    pub desired: u32,
    /// Its pods per state.
    pub pods: Series<PodCounts>,
}

/// A node's own history, for the grid and the milestones.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NodeHistory {
    pub name: String,
    /// Index into [`Aggregate::zones`].
    pub zone: usize,
    pub state: Series<NodeState>,
    /// Taints as `key:Effect`, each added (true) or removed (false), in time order.
    pub taints: Vec<(Millis, String, bool)>,
}

/// A pod object's own history, for the grid.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PodHistory {
    pub name: String,
    /// Index into [`Aggregate::workloads`].
    pub workload: Option<usize>,
    pub created: Millis,
    pub removed: Option<Millis>,
    /// When it was bound, and to which node (an index into the node histories).
    pub bound: Option<(Millis, usize)>,
    pub state: Series<PodState>,
}

/// The cluster's counts over a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Aggregate {
    /// Zones in name order.
    pub zones: Vec<ZoneSeries>,
    /// Workloads in the scenario's order.
    pub workloads: Vec<WorkloadSeries>,
    /// The run's end, ms.
    pub end: Millis,
    pub(crate) nodes: Vec<NodeHistory>,
    pub(crate) pods: Vec<PodHistory>,
}

/// One zone at an instant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ZoneAt<'a> {
    /// The zone's name.
    pub zone: &'a str,
    /// Its state.
    pub state: ZoneState,
    /// Its tainting rate, nodes per second.
    pub rate: f64,
    /// Its nodes per state.
    pub nodes: NodeCounts,
}

impl Aggregate {
    /// Builds the series from `o`'s events up to `end` (ms), in one pass after a pass that
    /// learns every node's zone. `rates` are the run's flags (see [`EvictionRates::of`]).
    pub fn build(o: &Outcome, end: Millis, rates: &EvictionRates) -> Aggregate {
        let mut b = Builder::new(o, end, *rates);
        for e in o.events.iter().take_while(|e| e.at_ms <= end) {
            b.event(e);
        }
        b.finish()
    }

    /// Every zone at `t`, in name order.
    pub fn counts_at(&self, t: Millis) -> Vec<ZoneAt<'_>> {
        self.zones
            .iter()
            .map(|z| ZoneAt {
                zone: &z.name,
                state: z.state.at(t).unwrap_or(ZoneState::Normal),
                rate: z.rate.at(t).unwrap_or(0.0),
                nodes: z.nodes.at(t).unwrap_or_default(),
            })
            .collect()
    }

    /// Every workload's pods at `t`, in the scenario's order.
    pub fn workloads_at(&self, t: Millis) -> Vec<(&str, PodCounts)> {
        self.workloads
            .iter()
            .map(|w| (w.name.as_str(), w.pods.at(t).unwrap_or_default()))
            .collect()
    }

    /// The nodes of zone `z` (an index into [`Aggregate::zones`]), in order of appearance: the
    /// lanes its row opens ([`crate::lanes::lanes_of`]).
    pub fn zone_nodes(&self, z: usize) -> Vec<&str> {
        self.nodes
            .iter()
            .filter(|n| n.zone == z)
            .map(|n| n.name.as_str())
            .collect()
    }

    /// Every pod workload `w` (an index into [`Aggregate::workloads`]) had over the run, in order
    /// of creation, each name once (a StatefulSet's pod comes back under its name).
    pub fn workload_pods(&self, w: usize) -> Vec<&str> {
        let mut seen = std::collections::BTreeSet::new();
        self.pods
            .iter()
            .filter(|p| p.workload == Some(w) && seen.insert(p.name.as_str()))
            .map(|p| p.name.as_str())
            .collect()
    }

    /// Nodes whose Ready condition is Unknown at `t`, over every zone (deleted ones aside).
    pub fn nodes_unknown_at(&self, t: Millis) -> u32 {
        self.zones
            .iter()
            .map(|z| z.nodes.at(t).map_or(0, |c| c.ready_unknown))
            .sum()
    }
}

/// The workload a pod belongs to: the longest workload name that, with a dash, starts the pod's
/// name (`web-7c5d9f8b6d-x2k4q`, `db-0`, `agent-x2k4q`), or equals it (a bare pod).
fn workload_of(pod: &str, names: &[&str]) -> Option<usize> {
    let fits = |w: &str| {
        pod.strip_prefix(w)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('-'))
    };
    (0..names.len())
        .filter(|&i| fits(names[i]))
        .max_by_key(|&i| names[i].len())
}

/// A node as the pass tracks it.
#[derive(Debug, Clone, Default)]
struct NodeNow {
    /// Registered or created, and not since deleted.
    exists: bool,
    /// Counted: it has existed.
    seen: bool,
    /// Its Ready condition: `Some(true)` True, `Some(false)` False, `None` Unknown.
    ready: Option<bool>,
    cordoned: bool,
    taints: Vec<String>,
}

impl NodeNow {
    fn state(&self) -> Option<NodeState> {
        if !self.seen {
            return None;
        }
        let tainted = self.taints.iter().any(|t| t.ends_with(":NoExecute"));
        let cordoned = self.cordoned || self.taints.iter().any(|t| t.starts_with(CORDON_TAINT));
        Some(match self.ready {
            _ if !self.exists => NodeState::Gone,
            _ if tainted => NodeState::Tainted,
            None => NodeState::Unknown,
            Some(false) => NodeState::NotReady,
            Some(true) if cordoned => NodeState::Cordoned,
            Some(true) => NodeState::Ready,
        })
    }

    fn ready_unknown(&self) -> bool {
        self.exists && self.ready.is_none()
    }
}

/// The taint a cordon puts on a node (`TaintNodesByCondition`).
const CORDON_TAINT: &str = "node.kubernetes.io/unschedulable:";

/// The one pass.
struct Builder<'o> {
    rates: EvictionRates,
    end: Millis,
    zones: Vec<ZoneSeries>,
    zone_counts: Vec<NodeCounts>,
    zone_states: Vec<ZoneState>,
    /// Every zone in FullDisruption: the controller tainted nothing.
    master_disruption: bool,
    /// Each node's zone, from the first pass.
    // Lookups by name are hashed (names share long prefixes, which ordered maps compare again
    // and again); none of these maps is iterated in an order that shows.
    node_zone: NameMap<'o, usize>,
    node_index: NameMap<'o, usize>,
    nodes: Vec<NodeHistory>,
    now: Vec<NodeNow>,
    workload_names: Vec<&'o str>,
    workloads: Vec<WorkloadSeries>,
    workload_counts: Vec<PodCounts>,
    /// The pod object a name stands for now, and its workload.
    pod_index: NameMap<'o, (usize, Option<usize>)>,
    pods: Vec<PodHistory>,
}

impl<'o> Builder<'o> {
    /// The zones in name order, from the nodes' registrations and the zone events.
    fn new(o: &'o Outcome, end: Millis, rates: EvictionRates) -> Builder<'o> {
        let mut named: BTreeMap<&'o str, String> = BTreeMap::new();
        let mut zone_names: BTreeMap<String, usize> = BTreeMap::new();
        for e in o.events.iter().take_while(|e| e.at_ms <= end) {
            match (e.kind, e.node.as_deref()) {
                (EventKind::NodeRegistered, Some(n)) => {
                    named.insert(n, registered_zone(e).unwrap_or_default());
                }
                // A joining node is created before the controller registers it with its zone.
                (EventKind::NodeCreated, Some(n)) => {
                    named.entry(n).or_default();
                }
                (EventKind::ZoneStateChanged, _) => {
                    zone_names.insert(e.zone.clone().unwrap_or_default(), 0);
                }
                _ => {}
            }
        }
        zone_names.extend(named.values().map(|z| (z.clone(), 0)));
        for (i, id) in zone_names.values_mut().enumerate() {
            *id = i;
        }
        let node_zone = named.into_iter().map(|(n, z)| (n, zone_names[&z])).collect();
        let zones: Vec<ZoneSeries> = zone_names
            .into_keys()
            .map(|name| ZoneSeries::new(name, &rates))
            .collect();
        let workload_names: Vec<&str> = o.summary.workloads.iter().map(|w| w.workload.as_str()).collect();
        let workloads = o
            .summary
            .workloads
            .iter()
            .map(|w| {
                let mut pods = Series::default();
                pods.set(0, PodCounts::default());
                WorkloadSeries {
                    name: w.workload.clone(),
                    desired: w.desired,
                    pods,
                }
            })
            .collect();
        Builder {
            rates,
            end,
            zone_counts: vec![NodeCounts::default(); zones.len()],
            zone_states: vec![ZoneState::Normal; zones.len()],
            zones,
            master_disruption: false,
            node_zone,
            node_index: NameMap::default(),
            nodes: Vec::new(),
            now: Vec::new(),
            workload_counts: vec![PodCounts::default(); workload_names.len()],
            workload_names,
            workloads,
            pod_index: NameMap::default(),
            pods: Vec::new(),
        }
    }

    fn event(&mut self, e: &'o TimelineEvent) {
        match (e.pod.as_deref(), e.node.as_deref()) {
            (Some(p), _) => self.pod_event(e, p),
            (None, Some(n)) => self.node_event(e, n),
            _ if e.kind == EventKind::ZoneStateChanged => self.zone_event(e),
            _ => {}
        }
    }

    fn node_event(&mut self, e: &TimelineEvent, name: &'o str) {
        use EventKind as K;
        if !matches!(
            e.kind,
            K::NodeRegistered
                | K::NodeCreated
                | K::NodeReady
                | K::NodeNotReady
                | K::NodeUnknown
                | K::NodeDeleted
                | K::NodeCordoned
                | K::NodeUncordoned
                | K::TaintAdded
                | K::TaintRemoved
        ) {
            return;
        }
        let i = self.node(name);
        let n = &mut self.now[i];
        let (before, unknown_before) = (n.state(), n.ready_unknown());
        match e.kind {
            K::NodeRegistered if !n.seen => (n.seen, n.exists, n.ready) = (true, true, Some(true)),
            K::NodeCreated => {
                *n = NodeNow {
                    seen: true,
                    exists: true,
                    ready: Some(true),
                    ..NodeNow::default()
                }
            }
            K::NodeReady => n.ready = Some(true),
            K::NodeNotReady => n.ready = Some(false),
            K::NodeUnknown => n.ready = None,
            K::NodeDeleted => n.exists = false,
            K::NodeCordoned => n.cordoned = true,
            K::NodeUncordoned => n.cordoned = false,
            K::TaintAdded | K::TaintRemoved => {
                let Some(taint) = e.taint.as_deref() else { return };
                let added = e.kind == K::TaintAdded;
                n.taints.retain(|t| t != taint);
                if added {
                    n.taints.push(taint.to_string());
                }
                self.nodes[i].taints.push((e.at_ms, taint.to_string(), added));
            }
            _ => {}
        }
        let n = &self.now[i];
        let (after, unknown_after) = (n.state(), n.ready_unknown());
        if (before, unknown_before) == (after, unknown_after) {
            return;
        }
        let z = self.nodes[i].zone;
        let c = &mut self.zone_counts[z];
        if let Some(s) = before {
            c.states[s as usize] -= 1;
        }
        if let Some(s) = after {
            c.states[s as usize] += 1;
            self.nodes[i].state.set(e.at_ms, s);
        }
        c.ready_unknown = (c.ready_unknown + u32::from(unknown_after)) - u32::from(unknown_before);
        self.zones[z].nodes.set(e.at_ms, *c);
    }

    /// The node's index, its history started on first sight.
    fn node(&mut self, name: &'o str) -> usize {
        if let Some(&i) = self.node_index.get(name) {
            return i;
        }
        let zone = match self.node_zone.get(name) {
            Some(&z) => z,
            // A node named only by other events: counted in the unnamed zone, made on demand.
            None => self.unnamed_zone(),
        };
        self.node_index.insert(name, self.nodes.len());
        self.nodes.push(NodeHistory {
            name: name.to_string(),
            zone,
            state: Series::default(),
            taints: Vec::new(),
        });
        self.now.push(NodeNow::default());
        self.nodes.len() - 1
    }

    fn unnamed_zone(&mut self) -> usize {
        if let Some(z) = self.zones.iter().position(|z| z.name.is_empty()) {
            return z;
        }
        self.zones.insert(0, ZoneSeries::new(String::new(), &self.rates));
        self.zone_counts.insert(0, NodeCounts::default());
        self.zone_states.insert(0, ZoneState::Normal);
        for n in &mut self.nodes {
            n.zone += 1;
        }
        for z in self.node_zone.values_mut() {
            *z += 1;
        }
        0
    }

    fn zone_event(&mut self, e: &TimelineEvent) {
        let (Some(name), Some(state)) = (e.zone.as_deref(), e.state) else {
            return;
        };
        let Some(z) = self.zones.iter().position(|z| z.name == name) else {
            return;
        };
        let t = e.at_ms;
        self.zone_states[z] = state;
        self.zones[z].state.set(t, state);
        // The controller counts zones that have nodes; if every one is in FullDisruption it
        // suspects itself and stops. On the way out every zone's rate is set again.
        let live = |i: usize| self.zone_counts[i].total() > self.zone_counts[i].get(NodeState::Gone);
        let all_full = (0..self.zones.len())
            .filter(|&i| live(i))
            .all(|i| self.zone_states[i] == ZoneState::FullDisruption);
        let redo: Vec<usize> = if all_full || self.master_disruption {
            (0..self.zones.len()).collect()
        } else {
            vec![z]
        };
        for i in redo {
            let c = self.zone_counts[i];
            let size = c.total() - c.get(NodeState::Gone);
            let rate = if all_full {
                0.0
            } else {
                self.rates.rate(self.zone_states[i], size)
            };
            self.zones[i].rate.set(t, rate);
        }
        self.master_disruption = all_full;
    }

    fn pod_event(&mut self, e: &'o TimelineEvent, name: &'o str) {
        use EventKind as K;
        let t = e.at_ms;
        if e.kind == K::PodCreated {
            let w = workload_of(name, &self.workload_names);
            self.pod_index.insert(name, (self.pods.len(), w));
            let mut state = Series::default();
            state.set(t, PodState::Pending);
            self.pods.push(PodHistory {
                name: name.to_string(),
                workload: w,
                created: t,
                removed: None,
                bound: None,
                state,
            });
            self.count(w, t, None, Some(PodState::Pending));
            return;
        }
        let Some(&(p, w)) = self.pod_index.get(name) else {
            return;
        };
        if e.kind == K::PodScheduled {
            if let Some(n) = e.node.as_deref() {
                let n = self.node(n);
                self.pods[p].bound = Some((t, n));
            }
            return;
        }
        let pod = &mut self.pods[p];
        let before = pod.state.at(t);
        let terminating = before == Some(PodState::Terminating);
        let after = match e.kind {
            K::PodReady if !terminating => PodState::Ready,
            K::PodNotReady | K::PodFailed if !terminating => PodState::NotReady,
            K::PodDeletionRequested => PodState::Terminating,
            K::PodRemoved => {
                pod.removed = Some(t);
                self.pod_index.remove(name);
                self.count(w, t, before, None);
                return;
            }
            _ => return,
        };
        if before != Some(after) {
            pod.state.set(t, after);
            self.count(w, t, before, Some(after));
        }
    }

    fn count(&mut self, w: Option<usize>, t: Millis, from: Option<PodState>, to: Option<PodState>) {
        let Some(w) = w else { return };
        let c = &mut self.workload_counts[w];
        if let Some(s) = from {
            c.states[s as usize] -= 1;
        }
        if let Some(s) = to {
            c.states[s as usize] += 1;
        }
        self.workloads[w].pods.set(t, *c);
    }

    fn finish(self) -> Aggregate {
        Aggregate {
            zones: self.zones,
            workloads: self.workloads,
            end: self.end,
            nodes: self.nodes,
            pods: self.pods,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_series_keeps_one_point_per_instant_and_only_changes() {
        let mut s = Series::default();
        for (t, v) in [(0, 1), (0, 2), (5, 2), (7, 3), (7, 2), (9, 4), (12, 5)] {
            s.set(t, v);
        }
        assert_eq!(s.points(), &[(0, 2), (9, 4), (12, 5)]);
        let read: Vec<Option<i32>> = [-1, 0, 8, 9, 11, 99].iter().map(|&t| s.at(t)).collect();
        assert_eq!(read, [None, Some(2), Some(2), Some(4), Some(4), Some(5)]);
    }

    #[test]
    fn a_pod_belongs_to_the_longest_workload_name_it_starts_with() {
        let names = ["web", "web-api", "db"];
        for (pod, want) in [
            ("web-7c5d9f8b6d-x2k4q", Some(0)),
            ("web-api-7c5d9f8b6d-x2k4q", Some(1)),
            ("db-0", Some(2)),
            ("web", Some(0)),
            ("dbx-0", None),
            ("we", None),
        ] {
            assert_eq!(workload_of(pod, &names), want, "{pod}");
        }
    }

    #[test]
    fn the_rate_follows_reduced_and_healthy_qps() {
        let r = EvictionRates {
            node_eviction_rate: 0.1,
            secondary_node_eviction_rate: 0.01,
            large_cluster_size_threshold: 50,
        };
        for (state, size, want) in [
            (ZoneState::Normal, 10, 0.1),
            (ZoneState::PartialDisruption, 51, 0.01),
            // Strictly larger than the threshold.
            (ZoneState::PartialDisruption, 50, 0.0),
            (ZoneState::FullDisruption, 500, 0.1),
        ] {
            assert_eq!(r.rate(state, size), want, "{state} with {size} nodes");
        }
    }
}
