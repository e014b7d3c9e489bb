//! A small kube-scheduler: NoSchedule and NoExecute taints, per-node pod capacity, spreading.
//!
//! The filters mirror the `TaintToleration` and `NodeResourcesFit` (pod count) plugins; scoring
//! prefers the node with the fewest pods of the same workload, then the fewest pods, then the
//! lowest index, which keeps placements deterministic. Pods that fit nowhere wait and are retried
//! when taints are removed or pods go away.

use super::scheduler_index::NodeIndex;
use crate::api::{tolerates, Api, Effect, NodeId, PodId};
use crate::cause::Cause;
use crate::idmap::IdMap;
use crate::time::Millis;
use crate::timeline::{latest, Event, EventKind, Log};
use crate::world::World;

/// The scheduler: its index of the nodes, and its queue of pods that fit nowhere.
#[derive(Debug, Clone, Default)]
pub struct Scheduler {
    /// Unschedulable pods, oldest first, each with the sequence number it was queued with. A pod
    /// that leaves the queue stays here until it is swept (its number no longer matches
    /// `queued`'s), so that leaving is a slot lookup rather than a search, and no tree's code is
    /// in the wasm.
    waiting: Vec<(u64, PodId)>,
    /// Each queued pod's sequence number, by pod.
    queued: IdMap<u64>,
    next: u64,
    index: NodeIndex,
}

/// Why a node does not fit a pod.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Misfit {
    Taint(String),
    TooManyPods,
}

fn fit(api: &Api, p: PodId, n: NodeId) -> Result<(), Misfit> {
    let node = &api.nodes[n];
    let pod = &api.pods[p];
    // NodeUnschedulable: a cordoned node takes only pods tolerating the unschedulable taint.
    let cordon = crate::api::Taint::new(crate::api::TAINT_UNSCHEDULABLE, Effect::NoSchedule, 0);
    if node.unschedulable && !pod.tolerations.iter().any(|tol| tolerates(tol, &cordon)) {
        return Err(Misfit::Taint(cordon.label()));
    }
    for t in &node.taints {
        if matches!(t.effect, Effect::NoSchedule | Effect::NoExecute)
            && !pod.tolerations.iter().any(|tol| tolerates(tol, t))
        {
            return Err(Misfit::Taint(t.label()));
        }
    }
    if node.pods.len() >= node.max_pods as usize {
        return Err(Misfit::TooManyPods);
    }
    Ok(())
}

/// The node the scheduler would pick, or the reasons every node was refused.
pub fn pick_node(api: &Api, p: PodId) -> Result<NodeId, Cause> {
    let workload = api.pods[p].workload;
    let mut best: Option<(usize, usize, NodeId)> = None;
    // Each reason with its count of nodes: a few reasons at most, so a vector, sorted at the end.
    let mut misfits: Vec<(Misfit, usize)> = Vec::new();
    let mut total = 0;
    for (n, node) in api.nodes.iter().enumerate() {
        if !node.exists {
            continue;
        }
        total += 1;
        match fit(api, p, n) {
            Ok(()) => {
                let same = node.pods.iter().filter(|&&q| api.pods[q].workload == workload).count();
                let key = (same, node.pods.len(), n);
                if best.is_none_or(|b| key < b) {
                    best = Some(key);
                }
            }
            Err(m) => match misfits.iter_mut().find(|(seen, _)| *seen == m) {
                Some((_, count)) => *count += 1,
                None => misfits.push((m, 1)),
            },
        }
    }
    match best {
        Some((_, _, n)) => Ok(n),
        None => {
            crate::order::sort_by(&mut misfits, |a, b| a.0.cmp(&b.0));
            let parts = misfits
                .iter()
                .map(|(m, c)| match m {
                    Misfit::Taint(t) => Cause::new("cause.part.misfit_taint").text("count", c).text("taint", t),
                    Misfit::TooManyPods => Cause::new("cause.part.misfit_pods").text("count", c),
                })
                .reduce(|a, b| Cause::new("cause.part.pair").sub("a", a).sub("b", b))
                .unwrap_or_else(Cause::none);
            Err(Cause::new("cause.sched.none").text("total", total).sub("parts", parts))
        }
    }
}

impl Scheduler {
    /// Places one workload's pods at the start of a run, exactly as repeated [`pick_node`] calls
    /// would, in O(log nodes) per pod: while only these pods are added, only the chosen node's
    /// score changes.
    pub fn place_initial(&mut self, w: &mut World, pods: &[PodId]) {
        let now = w.now;
        let World { api, log, .. } = w;
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let Some(&first) = pods.first() else { return };
        let workload = api.pods[first].workload;
        let mut heap: BinaryHeap<Reverse<(usize, usize, NodeId)>> = api
            .nodes
            .iter()
            .enumerate()
            .filter(|(n, node)| node.exists && fit(api, first, *n).is_ok())
            .map(|(n, node)| {
                Reverse((
                    node.pods.iter().filter(|&&q| api.pods[q].workload == workload).count(),
                    node.pods.len(),
                    n,
                ))
            })
            .collect();
        for &p in pods {
            if api.pods[p].node.is_some() {
                continue;
            }
            match heap.pop() {
                Some(Reverse((same, total, n))) => {
                    api.bind_pod(now, p, n);
                    if total + 1 < api.nodes[n].max_pods as usize {
                        heap.push(Reverse((same + 1, total + 1, n)));
                    }
                }
                None => self.place(now, p, api, log),
            }
        }
    }

    /// Whether no pod waits.
    pub fn is_idle(&self) -> bool {
        self.queued.len() == 0
    }

    /// The pods waiting, oldest first.
    pub fn pending(&self) -> Vec<PodId> {
        let queued = |&&(seq, p): &&(u64, PodId)| self.queued.get(&p) == Some(&seq);
        self.waiting.iter().filter(queued).map(|&(_, p)| p).collect()
    }

    fn dequeue(&mut self, p: PodId) {
        if self.queued.remove(&p).is_some() && self.waiting.len() > 2 * self.queued.len() + 16 {
            // Sweeping the pods that left once they outnumber the waiting ones keeps each
            // dequeue's share of the work constant.
            let queued = &self.queued;
            self.waiting.retain(|(seq, p)| queued.get(p) == Some(seq));
        }
    }

    /// The node `p` goes to, from the index brought up to date with every change since the
    /// last pick; in debug builds checked against the full scan of [`pick_node`].
    fn pick(&mut self, api: &mut Api, p: PodId) -> Option<NodeId> {
        for n in std::mem::take(&mut api.scheduler_changes) {
            self.index.refresh(api, n);
        }
        let n = self.index.pick(api, p);
        debug_assert_eq!(n, pick_node(api, p).ok(), "the index and the scan disagree");
        n
    }

    /// Tries to place `p`; binds it, or queues it as unschedulable.
    pub fn schedule(&mut self, w: &mut World, p: PodId) {
        let now = w.now;
        let World { api, log, .. } = w;
        self.place(now, p, api, log);
    }

    fn place(&mut self, now: Millis, p: PodId, api: &mut Api, log: &mut Log) {
        let pod = &api.pods[p];
        if !pod.is_active() || pod.node.is_some() {
            return;
        }
        match self.pick(api, p) {
            Some(n) => {
                api.bind_pod(now, p, n);
                self.dequeue(p);
                if log.wants(now, EventKind::PodScheduled) {
                    let node = &api.nodes[n];
                    let cause = Cause::new("cause.sched.bound")
                        .text("node", &node.name)
                        .text("pods", node.pods.len())
                        .text("max", node.max_pods);
                    // Bound once the pod existed and the node had room for it, whichever came
                    // last: a node that appeared, lost a taint or saw a pod leave.
                    let room = log.index.node(n).map(|m| [m.back, m.untainted, m.pod_left]);
                    let after = latest(room.into_iter().flatten().chain([log.index.pod(p).created]));
                    log.push(
                        Event::new(now, EventKind::PodScheduled, cause)
                            .node(n)
                            .pod(p)
                            .after(after),
                    );
                }
            }
            None => {
                if !self.queued.contains_key(&p) {
                    self.next += 1;
                    self.waiting.push((self.next, p));
                    self.queued.insert(p, self.next);
                    // Why every node refused it: the full scan, once per pod that starts waiting.
                    let why = pick_node(api, p).err().unwrap_or_else(Cause::none);
                    log.push(
                        Event::new(
                            now,
                            EventKind::PodUnschedulable,
                            Cause::new("cause.sched.pending").sub("why", why),
                        )
                        .pod(p)
                        .after(log.index.pod(p).created),
                    );
                }
            }
        }
    }

    /// Retries every waiting pod (after taints were removed or pods went away).
    pub fn retry_pending(&mut self, w: &mut World) {
        let now = w.now;
        let World { api, log, .. } = w;
        for p in self.pending() {
            if !api.pods[p].is_active() {
                self.dequeue(p);
                continue;
            }
            if self.pick(api, p).is_some() {
                self.place(now, p, api, log);
            }
        }
    }
}
