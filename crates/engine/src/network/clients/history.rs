//! What a client's dials met, read off the run: a Service's rules in kube-proxy over time, and
//! the pods in them whose machine died silently (a crash, a power-off: no FIN, no RST), so that a
//! connection to one hangs rather than fails. A graceful kill or a pod's deletion ends its
//! connections, and is not counted here.

use crate::api::{Api, PodId};
use crate::time::Millis;
use crate::timeline::{Event, EventId, EventKind};
use std::collections::BTreeMap;

/// A pod whose machine died silently, and the fault that killed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Death {
    /// The pod.
    pub pod: PodId,
    /// When its machine stopped, ms.
    pub at: Millis,
    /// The fault (`FaultStarted` or `NodePoweredOff`).
    pub fault: EventId,
    /// The `TrafficStopped` that took it out of the rules, if one did.
    pub stopped: Option<EventId>,
}

/// The rules of a Service from `at` until the next segment: how many pods, and which of them die
/// silently at some time (only these matter to a client: the others always answer).
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    /// When the rules took this shape, ms.
    pub at: Millis,
    /// Pods in the rules.
    pub size: usize,
    /// The pods in the rules that die silently, in the order they came in.
    pub mortal: Vec<Death>,
    /// The `TrafficStarted` or `TrafficStopped` that began it (none for the first).
    pub by: Option<EventId>,
}

impl Segment {
    /// The pods in the rules already dead at `t`.
    pub fn dead_at(&self, t: Millis) -> impl Iterator<Item = &Death> {
        self.mortal.iter().filter(move |d| d.at <= t)
    }
}

/// The silencing faults of the run, by node and time.
pub fn faults(events: &[Event]) -> BTreeMap<(usize, Millis), EventId> {
    events
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e.kind, EventKind::FaultStarted | EventKind::NodePoweredOff))
        .filter_map(|(id, e)| Some(((e.node?, e.at), id)))
        .collect()
}

/// Pod `p`'s silent death, if its containers last stopped with its machine, not by a graceful
/// kill (a Failed pod) or its removal.
fn death(api: &Api, faults: &BTreeMap<(usize, Millis), EventId>, p: PodId) -> Option<Death> {
    let pod = &api.pods[p];
    let at = pod.stopped_at?;
    if pod.running || pod.failed || pod.removed_at == Some(at) {
        return None;
    }
    let fault = *faults.get(&(pod.node?, at))?;
    Some(Death {
        pod: p,
        at,
        fault,
        stopped: None,
    })
}

/// Service `w`'s rules over the run: the shape at 0 (`programmed` at the end with the recorded
/// changes undone), then one segment per recorded change.
pub fn segments(
    events: &[Event],
    api: &Api,
    faults: &BTreeMap<(usize, Millis), EventId>,
    programmed: &std::collections::BTreeSet<PodId>,
    w: usize,
) -> Vec<Segment> {
    let changes: Vec<(EventId, &Event)> = events
        .iter()
        .enumerate()
        .filter(|(_, e)| e.service == Some(w))
        .filter(|(_, e)| matches!(e.kind, EventKind::TrafficStarted | EventKind::TrafficStopped))
        .collect();
    let mut initial = programmed.clone();
    for (_, e) in changes.iter().rev() {
        let p = e.pod.expect("a traffic event names its pod");
        if e.kind == EventKind::TrafficStarted {
            initial.remove(&p);
        } else {
            initial.insert(p);
        }
    }
    let mut stopped: BTreeMap<PodId, EventId> = BTreeMap::new();
    for (id, e) in &changes {
        if e.kind == EventKind::TrafficStopped {
            stopped.entry(e.pod.expect("named")).or_insert(*id);
        }
    }
    let mortal = |p: PodId| {
        death(api, faults, p).map(|d| Death {
            stopped: stopped.get(&p).copied(),
            ..d
        })
    };
    let mut cur = Segment {
        at: 0,
        size: initial.len(),
        mortal: initial.iter().filter_map(|&p| mortal(p)).collect(),
        by: None,
    };
    let mut out = Vec::with_capacity(changes.len() + 1);
    for (id, e) in changes {
        let p = e.pod.expect("named");
        let mut next = Segment {
            at: e.at,
            by: Some(id),
            ..cur.clone()
        };
        if e.kind == EventKind::TrafficStarted {
            next.size += 1;
            next.mortal.extend(mortal(p));
        } else {
            next.size = next.size.saturating_sub(1);
            next.mortal.retain(|d| d.pod != p);
        }
        if next.at == cur.at {
            cur = next;
        } else {
            out.push(std::mem::replace(&mut cur, next));
        }
    }
    out.push(cur);
    out
}
