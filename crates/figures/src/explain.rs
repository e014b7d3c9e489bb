//! "Where does the time go?": the faulted node's milestones, each one event of the run, and for
//! each the chain of events that led to it from the fault, as segments.
//!
//! Nothing here follows a template of the usual chain. Every event names the event that made it
//! possible (`TimelineEvent::after`); a bar walks those links back from the milestone's event
//! ([`kubelife_engine::chain::chain`]) and makes each link a segment, labelled with the cause of
//! the event that ends it. So an out-of-service taint, a force delete, a client held back by its
//! rate limit or a pod that waited for a second eviction is named where it happened, and a
//! milestone the run never reaches has no bar. Pure functions of the run.

use kubelife_engine::chain::chain;
use kubelife_engine::milestones::database;
pub use kubelife_engine::milestones::{milestones, MilestoneEvents, Milestones, Restored};
use kubelife_engine::time::format_go_duration_tenths;
use kubelife_engine::{Cause, Config, EventKind, Millis, Outcome, TimelineEvent};

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
    /// The `RemediationBlocked` that held the faulted node's repair back, if no repair of it
    /// started after it: why nothing freed the node.
    pub blocked: Option<usize>,
}

/// The last `RemediationBlocked` of node `node` that no `RemediationStarted` of it followed.
fn held_back(o: &Outcome, node: &str) -> Option<usize> {
    let of = |i: &usize| o.events[*i].node.as_deref() == Some(node);
    let mut last = None;
    for i in (0..o.events.len()).filter(of) {
        match o.events[i].kind {
            EventKind::RemediationBlocked => last = Some(i),
            EventKind::RemediationStarted => last = None,
            _ => {}
        }
    }
    last
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
    let blocked = o.summary.nodes.first().and_then(|n| held_back(o, &n.node));
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
                blocked,
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
    if let Some(db) = database(o, &cfg.workloads, fault) {
        let stuck = match db.ready {
            Some(_) => None,
            None => Some(Stuck {
                event: db.last,
                old_object_left: db.created.is_none(),
                blocked,
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
                    let key = match stuck {
                        Stuck { blocked: Some(_), .. } => "ui.bar.never_blocked",
                        Stuck {
                            old_object_left: true, ..
                        } => "ui.bar.never_old_object",
                        _ => "ui.bar.never",
                    };
                    let at = format_go_duration_tenths(e.at_ms);
                    // The held-back repair: who, when and why, in full (the breaker's numbers).
                    let b = stuck.blocked.map(|b| &events[b]);
                    let remediator = b.and_then(|b| b.remediator.clone()).unwrap_or_default();
                    let node = b.and_then(|b| b.node.clone()).unwrap_or_default();
                    let blocked_at = b.map(|b| format_go_duration_tenths(b.at_ms)).unwrap_or_default();
                    let why = b.map(|b| b.cause.render(&|k| lookup(k))).unwrap_or_default();
                    fill(
                        key,
                        &[
                            ("pod", pod),
                            ("kind", &e.kind.to_string()),
                            ("at", &at),
                            ("last", &last),
                            ("remediator", &remediator),
                            ("node", &node),
                            ("blocked", &blocked_at),
                            ("why", &why),
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
