//! What a client's dials met, read off the run: a Service's rules in kube-proxy over time, and
//! the pods in them whose machine died silently (a crash, a power-off: no FIN, no RST), so that a
//! connection to one hangs rather than fails. A graceful kill or a pod's deletion ends its
//! connections, and is not counted here.

use crate::api::{Api, PodId};
use crate::time::Millis;
use crate::timeline::{Event, EventId, EventKind};
use std::collections::BTreeSet;

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
    /// When its machine came back (`FaultEnded`), if it did: its kernel answers again.
    pub back: Option<(Millis, EventId)>,
}

impl Death {
    /// Whether the pod's machine is down at `t`.
    pub fn down_at(&self, t: Millis) -> bool {
        self.at <= t && self.back.is_none_or(|(b, _)| t < b)
    }
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

/// The index of the segment of `segs` in force at `t` (the first before any).
pub fn in_force(segs: &[Segment], t: Millis) -> usize {
    segs.partition_point(|s| s.at <= t).saturating_sub(1)
}

impl Segment {
    /// The pods in the rules whose machine is down at `t`.
    pub fn dead_at(&self, t: Millis) -> impl Iterator<Item = &Death> {
        self.mortal.iter().filter(move |d| d.down_at(t))
    }

    /// Where the share of dead pods changes inside `[a, b)` (a death, a machine back), in order,
    /// then `b`: the ends of its sub-stretches.
    pub fn cuts(&self, (a, b): (Millis, Millis)) -> Vec<Millis> {
        let mut cuts: Vec<Millis> = self
            .mortal
            .iter()
            .flat_map(|d| [Some(d.at), d.back.map(|(t, _)| t)])
            .flatten()
            .filter(|&t| t > a && t < b)
            .collect();
        cuts.push(b);
        crate::order::sort(&mut cuts);
        cuts
    }
}

/// When machines stopped and came back, by the run's events, as (node, time, event) in the log's
/// order. Plain lists: a client reads them only for the few pods that died, and a map of their
/// own would add its code to the engine's download.
#[derive(Debug, Clone, Default)]
pub struct Machines {
    /// Faults that stop a machine or its network (`FaultStarted`, `NodePoweredOff`); a graceful
    /// shutdown's start and a Spot warning stop nothing yet.
    pub silenced: Vec<(usize, Millis, EventId)>,
    /// `FaultEnded`.
    pub back: Vec<(usize, Millis, EventId)>,
}

impl Machines {
    /// The last fault that stopped `node` at `at`.
    fn silenced_at(&self, node: usize, at: Millis) -> Option<EventId> {
        self.silenced
            .iter()
            .rev()
            .find(|&&(n, t, _)| n == node && t == at)
            .map(|m| m.2)
    }
}

/// The machines' faults and returns of the run.
pub fn machines(events: &[Event]) -> Machines {
    let mut m = Machines::default();
    for (id, e) in events.iter().enumerate() {
        let Some(n) = e.node else { continue };
        match e.kind {
            EventKind::FaultStarted if matches!(e.cause.key, "cause.fault.shutdown" | "cause.fault.spot_warning") => {}
            EventKind::FaultStarted | EventKind::NodePoweredOff => m.silenced.push((n, e.at, id)),
            EventKind::FaultEnded => m.back.push((n, e.at, id)),
            _ => {}
        }
    }
    m
}

/// Pod `p`'s silent death, if its containers last stopped with its machine, not by a graceful
/// kill (a Failed pod) or its removal; and when the machine came back, if it did.
fn death(api: &Api, machines: &Machines, p: PodId) -> Option<Death> {
    let pod = &api.pods[p];
    let (at, node) = (pod.stopped_at?, pod.node?);
    if pod.failed || pod.removed_at == Some(at) {
        return None;
    }
    let fault = machines.silenced_at(node, at)?;
    // A machine that fails again the moment it returns never answers.
    let back = machines
        .back
        .iter()
        .find(|&&(n, t, _)| n == node && t >= at && machines.silenced_at(node, t).is_none())
        .map(|&(_, t, id)| (t, id));
    Some(Death {
        pod: p,
        at,
        fault,
        stopped: None,
        back,
    })
}

/// One change of the pods a client's dials may reach: `pod` went in (`into`) or out at `at`,
/// by event `id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    /// The event.
    pub id: EventId,
    /// When it took effect for the client, ms.
    pub at: Millis,
    /// The pod.
    pub pod: PodId,
    /// Whether it went in.
    pub into: bool,
}

/// The pods a client's dials may reach at 0 and their changes over the run, in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Changes {
    /// The pods at 0.
    pub initial: BTreeSet<PodId>,
    /// The changes.
    pub list: Vec<Change>,
}

impl Changes {
    /// `last` at the end of the run with `list` undone: the pods at 0.
    fn undone(last: &BTreeSet<PodId>, list: Vec<Change>) -> Changes {
        let mut initial = last.clone();
        for c in list.iter().rev() {
            if c.into {
                initial.remove(&c.pod);
            } else {
                initial.insert(c.pod);
            }
        }
        Changes { initial, list }
    }

    /// The same changes, each time shifted by `delay(at)` (one draw per distinct time: a push
    /// carries every change before it), kept in order.
    pub fn delayed(&self, mut delay: impl FnMut() -> Millis) -> Changes {
        let mut out = self.clone();
        let (mut prev, mut shift, mut floor) = (None, 0, Millis::MIN);
        for c in &mut out.list {
            if prev != Some(c.at) {
                prev = Some(c.at);
                shift = delay();
            }
            c.at = (c.at + shift).max(floor);
            floor = c.at;
        }
        out
    }
}

/// Service `w`'s kube-proxy rules: `programmed` at the end, and its `TrafficStarted` and
/// `TrafficStopped`.
pub fn rule_changes(events: &[Event], programmed: &BTreeSet<PodId>, w: usize) -> Changes {
    let list = events
        .iter()
        .enumerate()
        .filter(|(_, e)| e.service == Some(w))
        .filter(|(_, e)| matches!(e.kind, EventKind::TrafficStarted | EventKind::TrafficStopped))
        .map(|(id, e)| Change {
            id,
            at: e.at,
            pod: e.pod.expect("a traffic event names its pod"),
            into: e.kind == EventKind::TrafficStarted,
        })
        .collect();
    Changes::undone(programmed, list)
}

/// Service `w`'s ready endpoints in its EndpointSlice, what a proxy that dials pod IPs follows:
/// the slice at the end, and its `EndpointReady`, `EndpointNotReady` and `EndpointRemoved`. A
/// removal counts only for a ready endpoint: one its pod's last change before did not mark not
/// ready (a pod with no change before is taken as ready at 0, as a run starts with its pods).
pub fn slice_changes(events: &[Event], api: &Api, w: usize) -> Changes {
    // Per pod, whether its last change was `EndpointNotReady`.
    let mut not_ready: Vec<bool> = vec![false; api.pods.len()];
    let mut list = Vec::new();
    for (id, e) in events.iter().enumerate() {
        let (Some(pod), true) = (e.pod, e.service == Some(w)) else {
            continue;
        };
        let into = match e.kind {
            EventKind::EndpointReady => true,
            EventKind::EndpointNotReady => false,
            EventKind::EndpointRemoved if !not_ready[pod] => false,
            EventKind::EndpointRemoved => {
                not_ready[pod] = false;
                continue;
            }
            _ => continue,
        };
        not_ready[pod] = e.kind == EventKind::EndpointNotReady;
        list.push(Change {
            id,
            at: e.at,
            pod,
            into,
        });
    }
    let ready: BTreeSet<PodId> = api
        .slices
        .get(w)
        .map(|s| crate::order::set(s.iter().filter(|(_, e)| e.ready).map(|(&p, _)| p)))
        .unwrap_or_default();
    Changes::undone(&ready, list)
}

/// Service `w`'s rules over the run: the shape at 0 (`programmed` at the end with the recorded
/// changes undone), then one segment per recorded change.
pub fn segments(
    events: &[Event],
    api: &Api,
    machines: &Machines,
    programmed: &BTreeSet<PodId>,
    w: usize,
) -> Vec<Segment> {
    build(&rule_changes(events, programmed, w), api, machines)
}

/// The segments of `changes`: the shape at 0, then one per change time.
pub fn build(changes: &Changes, api: &Api, machines: &Machines) -> Vec<Segment> {
    // The first removal of a dead pod, looked for only once it is known dead.
    let mortal = |p: PodId| {
        death(api, machines, p).map(|d| Death {
            stopped: changes.list.iter().find(|c| !c.into && c.pod == p).map(|c| c.id),
            ..d
        })
    };
    let mut cur = Segment {
        at: 0,
        size: changes.initial.len(),
        mortal: changes.initial.iter().filter_map(|&p| mortal(p)).collect(),
        by: None,
    };
    let mut out = Vec::with_capacity(changes.list.len() + 1);
    for c in &changes.list {
        let mut next = Segment {
            at: c.at,
            by: Some(c.id),
            ..cur.clone()
        };
        if c.into {
            next.size += 1;
            next.mortal.extend(mortal(c.pod));
        } else {
            next.size = next.size.saturating_sub(1);
            next.mortal.retain(|d| d.pod != c.pod);
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
