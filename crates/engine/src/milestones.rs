//! The failed node's milestones as people ask about them, each one event of the run, measured
//! from its fault: Unknown, the NoExecute taint, the first eviction, the first replacement Ready;
//! traffic stopped and every Service whole again; the volume free; the database (a StatefulSet
//! pod with a volume from that node) Ready again; the Node deleted and its remediation started
//! (or held back by the remediator's breaker). The page's cards, "where does the time go?"
//! and the spreads over seeds (`stats`) all read them here, from the events and the summary.

use crate::outcome::{Outcome, TimelineEvent};
use crate::scenario::{WorkloadKind, WorkloadSpec};
use crate::summary::ServiceSummary;
use crate::time::Millis;
use crate::timeline::EventKind;

/// A Service's state over an interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServiceState {
    /// The proxies send to as many live pods as desired.
    Ok,
    /// They send to fewer pods than desired, none of them dead.
    Partial,
    /// They send some connections to a pod that is gone (a blackhole).
    Bad,
}

/// A Service's states over the run, as (from, until, state): `Bad` while the proxies send some
/// connections to a pod that is gone (a blackhole), `Partial` while they send to fewer pods than
/// desired, `Ok` otherwise. One pass over its steps and blackholes, both in time order.
pub fn service_states(s: &ServiceSummary, end: Millis) -> Vec<(Millis, Millis, ServiceState)> {
    let mut cuts: Vec<Millis> = s.serving.iter().map(|p| p.0).collect();
    cuts.extend(s.blackholes.iter().flat_map(|h| [h.0, h.1]));
    cuts.push(0);
    cuts.retain(|&t| (0..end).contains(&t));
    crate::order::sort(&mut cuts);
    cuts.dedup();
    let (mut step, mut hole) = (0, 0);
    let mut serving = 0;
    let mut out: Vec<(Millis, Millis, ServiceState)> = Vec::new();
    for (i, &a) in cuts.iter().enumerate() {
        while let Some(&(_, n)) = s.serving.get(step).filter(|p| p.0 <= a) {
            serving = n;
            step += 1;
        }
        while s.blackholes.get(hole).is_some_and(|h| h.1 <= a) {
            hole += 1;
        }
        let b = cuts.get(i + 1).copied().unwrap_or(end);
        let state = if s.blackholes.get(hole).is_some_and(|h| h.0 <= a) {
            ServiceState::Bad
        } else if serving < s.desired {
            ServiceState::Partial
        } else {
            ServiceState::Ok
        };
        match out.last_mut() {
            Some(last) if last.2 == state && last.1 == a => last.1 = b,
            _ => out.push((a, b, state)),
        }
    }
    out
}

/// Milestones of the faulted node, measured from its fault, ms, with the event each one is. The
/// fault is whatever faulted the node first (`ActionKind::faulted`): its crash, partition or
/// instance fault, a zone outage's fault of it, or an operator's drain, out-of-service taint,
/// deletion of its Node or force delete of one of its pods.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Milestones {
    /// When the fault began (absolute), ms.
    pub fault: Option<Millis>,
    /// Ready=Unknown (or NotReady).
    pub unknown: Option<Millis>,
    /// NoExecute taint.
    pub taint: Option<Millis>,
    /// First pod deleted from the node: a deletion requested (a taint eviction, a drain) or a
    /// force delete without one (PodGC's orphans, a remediator's, an operator's).
    pub eviction: Option<Millis>,
    /// First replacement Ready.
    pub replacement: Option<Millis>,
    /// The last pod the connected proxies stopped sending to, over every Service, if that came
    /// after the fault.
    pub traffic_stopped: Option<Millis>,
    /// Every Service fully serving again (as many pods in the proxies' rules as desired, none of
    /// them dead): `Restored::Never` if one never is.
    pub service_restored: Restored,
    /// The first volume detach completed after the fault: from then on it can attach elsewhere.
    pub volume_free: Option<Millis>,
    /// The Node object deleted (by the cloud node lifecycle controller, a remediator or an
    /// operator).
    pub node_deleted: Option<Millis>,
    /// The node's first remediation started (`RemediationStarted`).
    pub remediation: Option<Millis>,
    /// The event behind each milestone, as an index into the run's events.
    pub events: MilestoneEvents,
}

/// The event each milestone is (indices into `Outcome::events`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MilestoneEvents {
    /// `FaultStarted` of the faulted node, or the first event of the operator's action that
    /// faulted it ([`ACTION_STARTS`]).
    pub fault: Option<usize>,
    /// Its `NodeUnknown` (or `NodeNotReady`).
    pub unknown: Option<usize>,
    /// Its first NoExecute `TaintAdded`.
    pub taint: Option<usize>,
    /// Its first `PodDeletionRequested`, or `PodRemoved` of a pod force-deleted without one.
    pub eviction: Option<usize>,
    /// The first replacement's `PodReady`.
    pub replacement: Option<usize>,
    /// The last `TrafficStopped`.
    pub traffic_stopped: Option<usize>,
    /// The event that made the Services whole again: the last pod back in the proxies' rules
    /// (`TrafficStarted`), or the last dead pod out of them (`TrafficStopped`).
    pub service_restored: Option<usize>,
    /// The first `VolumeDetached` after the fault.
    pub volume_free: Option<usize>,
    /// Its `NodeDeleted`.
    pub node_deleted: Option<usize>,
    /// Its first `RemediationStarted`.
    pub remediation: Option<usize>,
    /// Its first `RemediationBlocked` when no remediation of it started after it: the
    /// remediator's breaker held the repair back to the end of the run.
    pub blocked: Option<usize>,
}

/// When a Service was whole again after the fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Restored {
    /// No Service, or none lost a serving pod after the fault.
    #[default]
    Uninterrupted,
    /// Whole again this long after the fault, ms.
    At(Millis),
    /// Still short at the end of the run.
    Never,
}

/// The events an operator's action that faults a node (`Faulted::Named`, `Faulted::PodsNode`)
/// begins with at its instant: a drain's cordon, the out-of-service taint, the Node's deletion,
/// the force-deleted pod's removal.
pub const ACTION_STARTS: [EventKind; 4] = [
    EventKind::NodeCordoned,
    EventKind::TaintAdded,
    EventKind::NodeDeleted,
    EventKind::PodRemoved,
];

/// The first event after `from` (by index) that `pick` accepts.
fn find(o: &Outcome, pick: impl Fn(&TimelineEvent) -> bool) -> Option<usize> {
    o.events.iter().position(pick)
}

/// The event of `kind` about `node` at exactly `at`, if the summary says one happened.
fn event_at(o: &Outcome, at: Option<Millis>, node: &str, kinds: &[EventKind]) -> Option<usize> {
    let at = at?;
    find(o, |e| {
        e.at_ms == at && kinds.contains(&e.kind) && e.node.as_deref() == Some(node)
    })
}

/// When the Services were whole again, measured from `fault`, with the event that made them so:
/// the end of the last stretch after the fault during which any Service sent to fewer pods than
/// desired or to a dead one. The event is the last change of that Service's rules at that time.
fn service_restored(o: &Outcome, fault: Millis) -> (Restored, Option<usize>) {
    let end = o.summary.duration_ms;
    let mut out = (Restored::Uninterrupted, None);
    for s in &o.summary.services {
        let states = service_states(s, end);
        let Some(&(_, until, _)) = states.iter().rev().find(|seg| seg.2 != ServiceState::Ok) else {
            continue;
        };
        if until <= fault {
            continue;
        }
        if until >= end {
            out = (Restored::Never, None);
            continue;
        }
        let event = o.events.iter().rposition(|e| {
            e.at_ms == until
                && matches!(e.kind, EventKind::TrafficStarted | EventKind::TrafficStopped)
                && e.service.as_deref() == Some(s.service.as_str())
        });
        out = match out.0 {
            Restored::Never => out,
            Restored::At(t) if t >= until - fault => out,
            _ => (Restored::At(until - fault), event),
        };
    }
    out
}

/// The `PodCreated` that began the incarnation of pod `pod` that event `id` is about: the last
/// one of that name at or before it (a StatefulSet reuses names).
fn incarnation(o: &Outcome, id: usize) -> Option<usize> {
    let pod = o.events[id].pod.as_deref()?;
    o.events[..=id]
        .iter()
        .rposition(|e| e.kind == EventKind::PodCreated && e.pod.as_deref() == Some(pod))
}

/// Whether the pod of the `PodReady` event `id` replaces a pod that ran on `node`: its creation
/// followed the old pod's deletion, failure or removal there.
fn replaces_one_on(o: &Outcome, id: usize, node: &str) -> bool {
    let created = incarnation(o, id).map(|c| &o.events[c]);
    let before = created.and_then(|c| c.after).map(|a| &o.events[a]);
    before.is_some_and(|b| b.node.as_deref() == Some(node) && b.pod.is_some())
}

/// The first `RemediationBlocked` of `node` at or after `fault` that no `RemediationStarted` of
/// it follows: its remediation was held back to the end of the run.
fn blocked(o: &Outcome, node: &str, fault: Millis) -> Option<usize> {
    let of = |kind: EventKind| {
        move |e: &TimelineEvent| e.kind == kind && e.at_ms >= fault && e.node.as_deref() == Some(node)
    };
    let first = find(o, of(EventKind::RemediationBlocked))?;
    let started = o.events[first..].iter().any(of(EventKind::RemediationStarted));
    (!started).then_some(first)
}

/// Reads the milestones of the first faulted node, each from its event.
pub fn milestones(o: &Outcome) -> Milestones {
    let Some(n) = o.summary.nodes.first() else {
        return Milestones::default();
    };
    let node = n.node.as_str();
    let f = n.fault_at_ms.unwrap_or(0);
    let replacement = n.first_replacement_ready_at_ms.and_then(|t| {
        let ready = |e: &TimelineEvent| e.at_ms == t && e.kind == EventKind::PodReady;
        let all: Vec<usize> = (0..o.events.len()).filter(|&i| ready(&o.events[i])).collect();
        all.iter()
            .copied()
            .find(|&i| replaces_one_on(o, i, node))
            .or(all.first().copied())
    });
    let last_stopped = o
        .summary
        .services
        .iter()
        .filter_map(|s| s.last_traffic_stopped_at_ms)
        .max();
    let (restored, restored_event) = service_restored(o, f);
    let events = MilestoneEvents {
        fault: event_at(o, n.fault_at_ms, node, &[EventKind::FaultStarted])
            .or_else(|| event_at(o, n.fault_at_ms, node, &ACTION_STARTS)),
        unknown: event_at(
            o,
            n.unknown_at_ms,
            node,
            &[EventKind::NodeUnknown, EventKind::NodeNotReady],
        ),
        taint: n.taint_at_ms.and_then(|t| {
            find(o, |e| {
                e.at_ms == t
                    && e.kind == EventKind::TaintAdded
                    && e.node.as_deref() == Some(node)
                    && e.taint.as_deref().is_some_and(|t| t.ends_with(":NoExecute"))
            })
        }),
        eviction: event_at(o, n.first_deletion_at_ms, node, &[EventKind::PodDeletionRequested])
            .or_else(|| event_at(o, n.first_deletion_at_ms, node, &[EventKind::PodRemoved])),
        replacement,
        traffic_stopped: last_stopped.filter(|&t| t >= f).and_then(|t| {
            o.events
                .iter()
                .rposition(|e| e.at_ms == t && e.kind == EventKind::TrafficStopped)
        }),
        service_restored: restored_event,
        volume_free: find(o, |e| e.kind == EventKind::VolumeDetached && e.at_ms >= f),
        node_deleted: event_at(o, n.deleted_at_ms, node, &[EventKind::NodeDeleted]),
        remediation: event_at(o, n.remediation_at_ms, node, &[EventKind::RemediationStarted]),
        blocked: blocked(o, node, f),
    };
    let rel = |id: Option<usize>| id.map(|i| o.events[i].at_ms - f);
    Milestones {
        fault: n.fault_at_ms,
        unknown: rel(events.unknown),
        taint: rel(events.taint),
        eviction: rel(events.eviction),
        replacement: rel(events.replacement),
        traffic_stopped: rel(events.traffic_stopped),
        service_restored: restored,
        volume_free: rel(events.volume_free),
        node_deleted: rel(events.node_deleted),
        remediation: rel(events.remediation),
        events,
    }
}

/// A StatefulSet pod with a volume from the failed node, on its way back.
pub struct Database {
    /// The pod's name.
    pub pod: String,
    /// The `PodCreated` of its next incarnation.
    pub created: Option<usize>,
    /// That incarnation's `PodReady`.
    pub ready: Option<usize>,
    /// The last event about the pod (either incarnation) or its volume.
    pub last: usize,
}

/// The first StatefulSet pod with a volume that the fault took down (on the faulted node), the
/// `PodCreated` and `PodReady` of its next incarnation if they came within the run, and the last
/// event on its way.
pub fn database(o: &Outcome, workloads: &[WorkloadSpec], fault: Millis) -> Option<Database> {
    let node = o.summary.nodes.first()?.node.as_str();
    let sets: Vec<&str> = workloads
        .iter()
        .filter(|w| w.kind == WorkloadKind::StatefulSet && w.volume.is_some())
        .map(|w| w.name.as_str())
        .collect();
    let of_set = |p: &str| {
        sets.iter().any(|s| {
            p.strip_prefix(s)
                .and_then(|r| r.strip_prefix('-'))
                .is_some_and(|r| r.parse::<u32>().is_ok())
        })
    };
    let first = o
        .events
        .iter()
        .position(|e| e.at_ms >= fault && e.node.as_deref() == Some(node) && e.pod.as_deref().is_some_and(of_set))?;
    let pod = o.events[first].pod.clone()?;
    let volume = format!("data-{pod}");
    let about = |e: &TimelineEvent| e.pod.as_deref() == Some(pod.as_str());
    let of_kind = |kind: EventKind, from: usize| {
        (from..o.events.len()).find(|&i| o.events[i].kind == kind && about(&o.events[i]))
    };
    let created = of_kind(EventKind::PodCreated, first);
    let ready = created.and_then(|c| of_kind(EventKind::PodReady, c));
    let last = (first..o.events.len())
        .rev()
        .find(|&i| about(&o.events[i]) || o.events[i].volume.as_deref() == Some(volume.as_str()))
        .unwrap_or(first);
    Some(Database {
        pod,
        created,
        ready,
        last,
    })
}

/// When the database was Ready again after `fault` (absolute, ms), measured from it: the
/// [`database`]'s next incarnation's `PodReady`. `None` when no such pod was on the failed node,
/// or it never came back within the run.
pub fn database_ready(o: &Outcome, workloads: &[WorkloadSpec], fault: Millis) -> Option<Millis> {
    let db = database(o, workloads, fault)?;
    db.ready.map(|i| o.events[i].at_ms - fault)
}

/// The fault a run's clients' errors are measured from, ms: the first faulted node's, as the
/// milestones' (0 without one).
pub fn fault_at(o: &Outcome) -> Millis {
    o.summary.nodes.first().and_then(|n| n.fault_at_ms).unwrap_or(0)
}

/// Per client of the summary, when its errors after `fault` (absolute, ms) had ended, measured
/// from it: its last error (`lastErrorMs`), 0 when it saw none after the fault, and `None` when
/// one of its episodes outlasted the run (a `ClientErrorsStarted` with no `ClientErrorsEnded`).
/// One pass over the events, whatever the number of clients.
#[cfg(feature = "clients")]
pub fn client_errors_ended(o: &Outcome, fault: Millis) -> Vec<Option<Millis>> {
    let clients = &o.summary.clients;
    let by_name = crate::order::map(clients.iter().enumerate().map(|(i, c)| (c.name.as_str(), i)));
    let mut open = vec![0_usize; clients.len()];
    for e in o.events.iter().filter(|e| e.at_ms >= fault) {
        let Some(&i) = e.client.as_deref().and_then(|n| by_name.get(n)) else {
            continue;
        };
        match e.kind {
            EventKind::ClientErrorsStarted => open[i] += 1,
            EventKind::ClientErrorsEnded => open[i] = open[i].saturating_sub(1),
            _ => {}
        }
    }
    clients
        .iter()
        .zip(open)
        .map(|(c, open)| (open == 0).then(|| c.last_error_ms.map_or(0, |t| (t - fault).max(0))))
        .collect()
}
