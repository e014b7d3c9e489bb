//! "Where does the time go?": the faulted node's milestones, each one event of the run, and for
//! each the chain of events that led to it from the fault, as segments.
//!
//! Nothing here follows a template of the usual chain. Every event names the event that made it
//! possible (`TimelineEvent::after`); a bar walks those links back from the milestone's event
//! ([`kubelife_engine::chain::chain`]) and makes each link a segment, labelled with the cause of
//! the event that ends it. So an out-of-service taint, a force delete, a client held back by its
//! rate limit or a pod that waited for a second eviction is named where it happened, and a
//! milestone the run never reaches has no bar. Pure functions of the run.

use crate::lanes::{service_segments, LaneState};
use kubelife_engine::chain::chain;
use kubelife_engine::scenario::WorkloadKind;
use kubelife_engine::time::format_go_duration_tenths;
use kubelife_engine::{Cause, Config, EventKind, Millis, Outcome, TimelineEvent};

/// Milestones of the faulted node, measured from its fault, ms, with the event each one is.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Milestones {
    /// When the fault began (absolute), ms.
    pub fault: Option<Millis>,
    /// Ready=Unknown (or NotReady).
    pub unknown: Option<Millis>,
    /// NoExecute taint.
    pub taint: Option<Millis>,
    /// First pod deletion.
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
    /// The event behind each milestone, as an index into the run's events.
    pub events: MilestoneEvents,
}

/// The event each milestone is (indices into `Outcome::events`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MilestoneEvents {
    /// `FaultStarted` of the faulted node.
    pub fault: Option<usize>,
    /// Its `NodeUnknown` (or `NodeNotReady`).
    pub unknown: Option<usize>,
    /// Its first NoExecute `TaintAdded`.
    pub taint: Option<usize>,
    /// Its first `PodDeletionRequested`.
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
        let segments = service_segments(s, end);
        let Some(&(_, until, _)) = segments.iter().rev().find(|seg| seg.2 != LaneState::Ok) else {
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
        fault: event_at(o, n.fault_at_ms, node, &[EventKind::FaultStarted]),
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
        eviction: event_at(o, n.first_deletion_at_ms, node, &[EventKind::PodDeletionRequested]),
        replacement,
        traffic_stopped: last_stopped.filter(|&t| t >= f).and_then(|t| {
            o.events
                .iter()
                .rposition(|e| e.at_ms == t && e.kind == EventKind::TrafficStopped)
        }),
        service_restored: restored_event,
        volume_free: find(o, |e| e.kind == EventKind::VolumeDetached && e.at_ms >= f),
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
        events,
    }
}

/// One link of a chain: the time from the event before to the event that ends it.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    /// When it starts, ms from the fault.
    pub from: Millis,
    /// Its length, ms.
    pub ms: Millis,
    /// The event that ends it (an index into the run's events).
    pub event: usize,
    /// That event's kind.
    pub kind: EventKind,
    /// That event's cause: what the segment waited for.
    pub cause: Cause,
}

impl Segment {
    /// What happens in it, briefly: its cause through the `seg.*` templates of `lookup`'s
    /// catalogue (the full cause where a part has none).
    pub fn label(&self, lookup: &dyn Fn(&str) -> Option<&'static str>) -> String {
        self.cause.render_brief(lookup)
    }
}

/// The time from `fault` (absolute, ms) to event `id`, split at each event of the chain that
/// led to it: one segment per link, ending at its event, as long as from the event before (a
/// link within one millisecond is kept, at 0, for what it says). Segments are contiguous, start
/// at the fault and end at the event: the chain's first event opens no segment when it is the
/// fault (or came at its instant), a link before the fault is left out, and a chain that begins
/// after it (an operator's action) opens with the wait for that first event.
pub fn segments(o: &Outcome, fault: Millis, id: usize) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut last = fault;
    for (k, i) in chain(&o.events, id).into_iter().enumerate() {
        let e = &o.events[i];
        if e.at_ms < fault || (k == 0 && e.at_ms == fault) {
            continue;
        }
        out.push(Segment {
            from: last - fault,
            ms: e.at_ms - last,
            event: i,
            kind: e.kind,
            cause: e.cause.clone(),
        });
        last = e.at_ms;
    }
    out
}

/// What a bar of "where does the time go?" reaches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Goal {
    /// The first replacement Ready.
    Replacement,
    /// Every Service whole again.
    ServiceRestored,
    /// A StatefulSet pod with a volume, from the failed node, Ready again.
    Database(String),
}

/// One bar: its goal and the segments to it; none when the run never reaches it.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// What it reaches.
    pub goal: Goal,
    /// The chain to it.
    pub segments: Vec<Segment>,
    /// Another milestone on the way (the first replacement Ready on the way to the Services
    /// whole again): the number of segments up to it.
    pub passes: Option<(Goal, usize)>,
    /// For a goal not reached: where it stopped.
    pub stuck: Option<Stuck>,
}

/// Where a bar's way stopped within the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stuck {
    /// The last event on its way (an index into the run's events).
    pub event: usize,
    /// Whether the old pod's object is still there at the end, so that a StatefulSet cannot
    /// create the pod again.
    pub old_object_left: bool,
}

impl Bar {
    /// Whether the run reached the goal.
    pub fn reached(&self) -> bool {
        !self.segments.is_empty()
    }

    /// From the fault to the goal, ms.
    pub fn total(&self) -> Millis {
        self.segments.iter().map(|s| s.ms).sum()
    }
}

/// The bars of "where does the time go?": to the first replacement Ready, to every Service
/// whole again (one bar with both when the Service's chain passes through that replacement),
/// and to the database Ready again when a StatefulSet pod with a volume was on the failed node.
/// A goal the run never reaches has no segments: its bar says where its way stopped.
pub fn bars(o: &Outcome, cfg: &Config) -> Vec<Bar> {
    let m = milestones(o);
    let Some(fault) = m.fault else { return Vec::new() };
    let mut out = Vec::new();
    let replacement = m.events.replacement.map(|id| segments(o, fault, id));
    match (m.events.service_restored, &replacement) {
        (Some(id), Some(first)) if chain(&o.events, id).contains(&m.events.replacement.unwrap_or(usize::MAX)) => {
            out.push(Bar {
                goal: Goal::ServiceRestored,
                segments: segments(o, fault, id),
                passes: Some((Goal::Replacement, first.len())),
                stuck: None,
            });
        }
        (service, _) => {
            // Not reached: where the way to it stopped, at the furthest milestone reached.
            let e = &m.events;
            let furthest = e.eviction.or(e.taint).or(e.unknown).or(e.fault);
            let stuck = furthest.filter(|_| replacement.is_none()).map(|event| Stuck {
                event,
                old_object_left: false,
            });
            out.push(Bar {
                goal: Goal::Replacement,
                segments: replacement.unwrap_or_default(),
                passes: None,
                stuck,
            });
            if let Some(id) = service {
                out.push(Bar {
                    goal: Goal::ServiceRestored,
                    segments: segments(o, fault, id),
                    passes: None,
                    stuck: None,
                });
            }
        }
    }
    if let Some(db) = database(o, cfg, fault) {
        let stuck = match db.ready {
            Some(_) => None,
            None => Some(Stuck {
                event: db.last,
                old_object_left: db.created.is_none(),
            }),
        };
        out.push(Bar {
            goal: Goal::Database(db.pod),
            segments: db.ready.map(|id| segments(o, fault, id)).unwrap_or_default(),
            passes: None,
            stuck,
        });
    }
    out
}

/// A StatefulSet pod with a volume from the failed node, on its way back.
struct Database {
    pod: String,
    /// The `PodCreated` of its next incarnation.
    created: Option<usize>,
    /// That incarnation's `PodReady`.
    ready: Option<usize>,
    /// The last event about the pod (either incarnation) or its volume.
    last: usize,
}

/// The first StatefulSet pod with a volume that the fault took down (on the faulted node), the
/// `PodCreated` and `PodReady` of its next incarnation if they came within the run, and the last
/// event on its way.
fn database(o: &Outcome, cfg: &Config, fault: Millis) -> Option<Database> {
    let node = o.summary.nodes.first()?.node.as_str();
    let sets: Vec<&str> = cfg
        .workloads
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

/// The bars as the figure draws them, in the language whose catalogue `lookup` reads.
pub fn figure_bars(
    bars: &[Bar],
    events: &[TimelineEvent],
    lookup: &dyn Fn(&str) -> Option<&'static str>,
) -> Vec<crate::breakdown::Bar> {
    let fill = |key: &str, args: &[(&str, &str)]| {
        let mut out = String::new();
        kubelife_engine::cause::fill(lookup(key).unwrap_or(key), &mut out, |name, out| {
            match args.iter().find(|(n, _)| *n == name) {
                Some((_, v)) => {
                    out.push_str(v);
                    true
                }
                None => false,
            }
        });
        out
    };
    bars.iter()
        .map(|b| {
            let pod = match &b.goal {
                Goal::Database(pod) => pod.as_str(),
                _ => "",
            };
            let title = fill(goal_key(&b.goal, b.passes.is_some()), &[("pod", pod)]);
            let total = match b.stuck {
                None => fill(
                    "ui.breakdown.total",
                    &[("total", &format_go_duration_tenths(b.total()))],
                ),
                Some(stuck) => {
                    let e = &events[stuck.event];
                    let last = e.cause.render_brief(lookup);
                    let key = if stuck.old_object_left {
                        "ui.bar.never_old_object"
                    } else {
                        "ui.bar.never"
                    };
                    let at = format_go_duration_tenths(e.at_ms);
                    fill(
                        key,
                        &[
                            ("pod", pod),
                            ("kind", &e.kind.to_string()),
                            ("at", &at),
                            ("last", &last),
                        ],
                    )
                }
            };
            let passes = b.passes.as_ref().map(|(goal, after)| {
                let at: Millis = b.segments[..*after].iter().map(|s| s.ms).sum();
                let what = match goal {
                    Goal::ServiceRestored => "ui.milestone.service_restored",
                    _ => "ui.milestone.replacement",
                };
                let text = fill(
                    "ui.bar.passes",
                    &[("what", &fill(what, &[])), ("at", &format_go_duration_tenths(at))],
                );
                (*after, text)
            });
            crate::breakdown::Bar {
                title,
                total,
                pieces: b
                    .segments
                    .iter()
                    .map(|s| crate::breakdown::Piece {
                        label: s.label(lookup),
                        ms: s.ms,
                    })
                    .collect(),
                passes,
            }
        })
        .collect()
}

/// The catalogue key of a bar's title.
pub fn goal_key(goal: &Goal, passes: bool) -> &'static str {
    match (goal, passes) {
        (Goal::Replacement, _) => "ui.bar.replacement",
        (Goal::ServiceRestored, true) => "ui.bar.replacement_service",
        (Goal::ServiceRestored, false) => "ui.bar.service",
        (Goal::Database(_), _) => "ui.bar.database",
    }
}
