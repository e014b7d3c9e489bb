//! Milestones of an outage over many nodes: when the tainting began and ended, when the pods on
//! the faulted nodes began and ended being deleted (and by whom), and when each workload had all
//! its Ready pods back. Times are ms from the start of the run (not from the fault, unlike
//! [`crate::explain::Milestones`]), so the page can put them on the playhead's axis. One pass
//! over the events and over the workloads' series.

use crate::aggregate::{Aggregate, PodState};
use crate::names::{NameMap, Names};
use kubelife_engine::cause::Arg;
use kubelife_engine::{Cause, EventKind, Millis, Outcome, TimelineEvent};

/// Something that happened to a named node or pod.
#[derive(Debug, Clone, PartialEq)]
pub struct Named {
    /// When, ms.
    pub at: Millis,
    /// The node or pod.
    pub name: String,
    /// Who did it, for a pod's deletion: a `ui.deleter.*` message ([`deleter`]).
    pub by: Option<Cause>,
}

/// A workload's way back to its desired Ready pods.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkloadBack {
    /// The workload.
    pub workload: String,
    /// Its desired Ready pods.
    pub desired: u32,
    /// When it first had fewer Ready pods than desired after the fault; `None` if it never did.
    pub short_at: Option<Millis>,
    /// When its Ready pods last reached the desired count after the fault, staying there to the
    /// end; `None` if it never was short, or is still short at the end.
    pub back_at: Option<Millis>,
    /// Still short at the end with a pod on a node whose remediation a remediator's breaker
    /// held back to the end of the run (`RemediationBlocked` and no `RemediationStarted` after
    /// it): that node.
    pub blocked: Option<String>,
}

/// The outage's spread over nodes and pods.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Spread {
    /// The first fault, ms (0 is used as the fault when there is none).
    pub fault: Option<Millis>,
    /// The first node the node lifecycle controller tainted NoExecute (`unreachable` or
    /// `not-ready`) after the fault.
    pub first_tainted: Option<Named>,
    /// The last such taint.
    pub last_tainted: Option<Named>,
    /// Nodes tainted so after the fault.
    pub nodes_tainted: usize,
    /// The first pod deleted from a faulted node after its fault, by whoever deleted it
    /// ([`is_deletion`]): the taint eviction controller, the legacy eviction, a drain (an
    /// operator's or a remediator's), a remediator's own deletion, PodGC, an operator.
    pub first_deleted: Option<Named>,
    /// The last such deletion.
    pub last_deleted: Option<Named>,
    /// Pods deleted so: the sum of the summary's `podsDeleted` over the faulted nodes.
    pub pods_deleted: usize,
    /// How many of them each deleter deleted, in the order each first deleted one.
    pub deleted_by: Vec<(Cause, usize)>,
    /// Every workload, in the scenario's order.
    pub workloads: Vec<WorkloadBack>,
}

/// The taints the node lifecycle controller adds to evict (`doNoExecuteTaintingPass`).
const EVICTING_TAINTS: [&str; 2] = [
    "node.kubernetes.io/unreachable:NoExecute",
    "node.kubernetes.io/not-ready:NoExecute",
];

/// Whether `e` deletes a pod because of its node: the taint eviction controller's timer
/// (`cause.te.*`) or the legacy `--pod-eviction-timeout` (`cause.legacy.*`), not a drain, a
/// force delete or the pod garbage collector.
pub fn is_eviction(e: &TimelineEvent) -> bool {
    let cause = e.cause.written();
    e.kind == EventKind::PodDeletionRequested
        && cause.key == "cause.delete"
        && matches!(cause.arg("why"), Some(Arg::Cause(why))
            if why.key.starts_with("cause.te.") || why.key.starts_with("cause.legacy."))
}

/// The deleters [`deleter`] names, by the prefix of the deleting event's cause key, each with
/// its `ui.deleter.*` message; a remediator's drain names the remediator. Any other is
/// `ui.deleter.other`.
const DELETERS: [(&str, &str); 7] = [
    ("cause.drain.evict", "ui.deleter.drain"),
    ("cause.remediation.drain_evict", "ui.deleter.remediator_drain"),
    ("cause.remediation.karpenter_delete", "ui.deleter.karpenter"),
    ("cause.remediation.snr_deleted", "ui.deleter.snr"),
    ("cause.cloud.eks_spot_evict", "ui.deleter.eks_spot"),
    ("cause.podgc.", "ui.deleter.podgc"),
    ("cause.force_deleted", "ui.deleter.operator"),
];

/// Who deleted a pod, as a `ui.deleter.*` message, by the deleting event's cause: the taint
/// eviction controller or the legacy eviction ([`is_eviction`]), an operator's `kubectl
/// drain`, a remediator's drain (named), Karpenter's forceful drain, Self Node Remediation's
/// resource deletion, EKS's Spot drain, PodGC or an operator's force delete.
pub fn deleter(e: &TimelineEvent) -> Cause {
    let cause = e.cause.written();
    if is_eviction(e) {
        let legacy = matches!(cause.arg("why"), Some(Arg::Cause(why)) if why.key.starts_with("cause.legacy."));
        return Cause::new(if legacy {
            "ui.deleter.legacy"
        } else {
            "ui.deleter.taint_eviction"
        });
    }
    let key = DELETERS
        .iter()
        .find(|d| cause.key.starts_with(d.0))
        .map_or("ui.deleter.other", |d| d.1);
    let mut out = Cause::new(key);
    if let Some(Arg::Text(r)) = cause.arg("remediator") {
        out = out.text("remediator", r);
    }
    out
}

/// The pods deleted from faulted nodes after their fault, as the summary counts them per node
/// (`podsDeleted`): a deletion requested (a graceful DELETE or an eviction), or a pod removed
/// without one (force-deleted: by PodGC, a remediator, an operator) that had not failed (a
/// Failed pod's removal is not a deletion from its node: it had stopped). `faults` gives each
/// faulted node's fault, ms; `seen` holds the pods already counted or failed.
pub fn is_deletion<'o>(e: &'o TimelineEvent, faults: &NameMap<Millis>, seen: &mut NameMap<'o, ()>) -> bool {
    let Some(pod) = e.pod.as_deref() else { return false };
    let on_faulted = e
        .node
        .as_deref()
        .and_then(|n| faults.get(n))
        .is_some_and(|&f| e.at_ms >= f);
    match e.kind {
        EventKind::PodFailed => {
            seen.insert(pod, ());
            false
        }
        EventKind::PodDeletionRequested if on_faulted => seen.insert(pod, ()),
        EventKind::PodRemoved if on_faulted => seen.insert(pod, ()),
        EventKind::PodCreated => {
            // A StatefulSet's pod comes back under its name: a new incarnation.
            seen.remove(pod);
            false
        }
        _ => false,
    }
}

/// The spread of `o`'s outage; `agg` is [`Aggregate::build`] of the same run.
pub fn spread(o: &Outcome, agg: &Aggregate) -> Spread {
    let events = || o.events.iter().take_while(|e| e.at_ms <= agg.end);
    let faults: NameMap<Millis> = o
        .summary
        .nodes
        .iter()
        .filter_map(|n| n.fault_at_ms.map(|f| (n.node.as_str(), f)))
        .collect();
    let fault = faults.values().copied().min();
    let from = fault.unwrap_or(0);
    let mut out = Spread {
        fault,
        ..Spread::default()
    };
    // The nodes tainted (and whether an unnamed one was).
    let (mut tainted, mut unnamed_tainted) = (Names::default(), false);
    let mut seen = NameMap::default();
    for e in events() {
        let named = |name: &Option<String>, by: Option<Cause>| {
            name.as_ref().map(|n| Named {
                at: e.at_ms,
                name: n.clone(),
                by,
            })
        };
        let evicting = e.taint.as_deref().is_some_and(|t| EVICTING_TAINTS.contains(&t));
        if e.kind == EventKind::TaintAdded && evicting && e.at_ms >= from {
            out.first_tainted = out.first_tainted.or_else(|| named(&e.node, None));
            out.last_tainted = named(&e.node, None);
            match e.node.as_deref() {
                Some(n) => {
                    tainted.index(n);
                }
                None => unnamed_tainted = true,
            }
        } else if is_deletion(e, &faults, &mut seen) {
            let by = deleter(e);
            match out.deleted_by.iter_mut().find(|d| d.0 == by) {
                Some(d) => d.1 += 1,
                None => out.deleted_by.push((by.clone(), 1)),
            }
            out.first_deleted = out.first_deleted.or_else(|| named(&e.pod, Some(by.clone())));
            out.last_deleted = named(&e.pod, Some(by));
            out.pods_deleted += 1;
        }
    }
    out.nodes_tainted = tainted.len() + usize::from(unnamed_tainted);
    out.workloads = agg
        .workloads
        .iter()
        .map(|w| {
            let (short_at, back_at) = way_back(w.pods.points(), w.desired, from);
            WorkloadBack {
                workload: w.name.clone(),
                desired: w.desired,
                short_at,
                back_at,
                blocked: None,
            }
        })
        .collect();
    held_back(o, agg, &mut out.workloads);
    out
}

/// Names, for each workload still short at the end, a node it had a pod on whose remediation
/// was held back to the end of the run.
fn held_back(o: &Outcome, agg: &Aggregate, workloads: &mut [WorkloadBack]) {
    let mut blocked: Vec<&str> = Vec::new();
    let mut node_of: NameMap<'_, &str> = NameMap::default();
    for e in o.events.iter().take_while(|e| e.at_ms <= agg.end) {
        let Some(node) = e.node.as_deref() else { continue };
        match e.kind {
            EventKind::RemediationBlocked if !blocked.contains(&node) => blocked.push(node),
            EventKind::RemediationStarted => blocked.retain(|b| *b != node),
            _ => {}
        }
        if let Some(pod) = e.pod.as_deref() {
            node_of.insert(pod, node);
        }
    }
    if blocked.is_empty() {
        return;
    }
    for (i, w) in workloads.iter_mut().enumerate() {
        if w.short_at.is_none() || w.back_at.is_some() {
            continue;
        }
        let on = agg.workload_pods(i).into_iter().filter_map(|p| node_of.get(p).copied());
        w.blocked = on.into_iter().find(|n| blocked.contains(n)).map(str::to_string);
    }
}

/// When the Ready count first went below `desired` at or after `from`, and when it last reached
/// it again (`None` if it ends short).
fn way_back(
    points: &[(Millis, crate::aggregate::PodCounts)],
    desired: u32,
    from: Millis,
) -> (Option<Millis>, Option<Millis>) {
    // The count in force at `from` is the last change at or before it.
    let start = points.partition_point(|p| p.0 <= from).saturating_sub(1);
    let mut short_at = None;
    let mut back_at = None;
    for (t, counts) in &points[start..] {
        let at = (*t).max(from);
        if counts.get(PodState::Ready) < desired {
            short_at = short_at.or(Some(at));
            back_at = None;
        } else if short_at.is_some() && back_at.is_none() {
            back_at = Some(at);
        }
    }
    (short_at, back_at)
}
