//! Milestones of an outage over many nodes: when the tainting began and ended, when the evictions
//! began and ended, and when each workload had all its Ready pods back. Times are ms from the
//! start of the run (not from the fault, unlike [`crate::explain::Milestones`]), so the page can
//! put them on the playhead's axis. One pass over the events and over the workloads' series.

use crate::aggregate::{Aggregate, PodState};
use kubelife_engine::cause::Arg;
use kubelife_engine::{EventKind, Millis, Outcome, TimelineEvent};

/// Something that happened to a named node or pod.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// When, ms.
    pub at: Millis,
    /// The node or pod.
    pub name: String,
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
    /// The first pod the taint eviction controller (or, on the legacy path, the node lifecycle
    /// controller) deleted after the fault.
    pub first_evicted: Option<Named>,
    /// The last such deletion.
    pub last_evicted: Option<Named>,
    /// Pods evicted so after the fault.
    pub pods_evicted: usize,
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

/// The spread of `o`'s outage; `agg` is [`Aggregate::build`] of the same run.
pub fn spread(o: &Outcome, agg: &Aggregate) -> Spread {
    let events = || o.events.iter().take_while(|e| e.at_ms <= agg.end);
    let fault = events().find(|e| e.kind == EventKind::FaultStarted).map(|e| e.at_ms);
    let from = fault.unwrap_or(0);
    let mut out = Spread {
        fault,
        ..Spread::default()
    };
    let mut tainted = std::collections::BTreeSet::new();
    for e in events().filter(|e| e.at_ms >= from) {
        let named = |name: &Option<String>| {
            name.as_ref().map(|n| Named {
                at: e.at_ms,
                name: n.clone(),
            })
        };
        if e.kind == EventKind::TaintAdded && e.taint.as_deref().is_some_and(|t| EVICTING_TAINTS.contains(&t)) {
            out.first_tainted = out.first_tainted.or_else(|| named(&e.node));
            out.last_tainted = named(&e.node);
            tainted.insert(e.node.as_deref());
        } else if is_eviction(e) {
            out.first_evicted = out.first_evicted.or_else(|| named(&e.pod));
            out.last_evicted = named(&e.pod);
            out.pods_evicted += 1;
        }
    }
    out.nodes_tainted = tainted.len();
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
    let mut node_of: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
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
