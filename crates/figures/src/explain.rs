//! "Where does the time go?": the faulted node's milestones and the time from its fault to the
//! first replacement Ready, split into its causes. Pure functions of the run and its configuration.

use kubelife_engine::time::format_go_duration;
use kubelife_engine::{Config, Millis, Outcome};

/// Milestones of the faulted node, measured from its fault, ms.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Milestones {
    /// When the fault began (absolute), ms.
    pub fault: Option<Millis>,
    /// Ready=Unknown.
    pub unknown: Option<Millis>,
    /// NoExecute taint.
    pub taint: Option<Millis>,
    /// First pod deletion.
    pub eviction: Option<Millis>,
    /// First replacement Ready.
    pub replacement: Option<Millis>,
    /// The first replacement created.
    pub replacement_created: Option<Millis>,
    /// The last pod the connected proxies stopped sending to, over every Service.
    pub traffic_stopped: Option<Millis>,
    /// Every Service fully serving again (as many pods in the proxies' rules as desired, none of
    /// them dead): `Restored::Never` if one never is.
    pub service_restored: Restored,
    /// The first volume detach completed after the fault: from then on it can attach elsewhere.
    pub volume_free: Option<Millis>,
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

/// When the Services were whole again, measured from `fault`: the end of the last stretch after
/// the fault during which any Service sent to fewer pods than desired or to a dead one.
fn service_restored(o: &Outcome, fault: Millis) -> Restored {
    let end = o.summary.duration_ms;
    let mut out = Restored::Uninterrupted;
    for s in &o.summary.services {
        let segments = crate::lanes::service_segments(s, end);
        let Some(&(_, until, _)) = segments.iter().rev().find(|s| s.2 != crate::lanes::LaneState::Ok) else {
            continue;
        };
        out = match out {
            _ if until <= fault => out,
            _ if until >= end => Restored::Never,
            Restored::Never => Restored::Never,
            Restored::At(t) => Restored::At(t.max(until - fault)),
            Restored::Uninterrupted => Restored::At(until - fault),
        };
    }
    out
}

/// Reads the milestones of the first faulted node.
pub fn milestones(o: &Outcome) -> Milestones {
    let Some(n) = o.summary.nodes.first() else {
        return Milestones::default();
    };
    let f = n.fault_at_ms.unwrap_or(0);
    let rel = |v: Option<Millis>| v.map(|v| v - f);
    // The first replacement of a pod deleted from this node.
    let created = o
        .events
        .iter()
        .find(|e| {
            e.kind == kubelife_engine::EventKind::PodCreated && e.at_ms > 0 && e.cause.key == "cause.rs.replacement"
        })
        .map(|e| e.at_ms);
    Milestones {
        fault: n.fault_at_ms,
        unknown: rel(n.unknown_at_ms),
        taint: rel(n.taint_at_ms),
        eviction: rel(n.first_deletion_at_ms),
        replacement: rel(n.first_replacement_ready_at_ms),
        replacement_created: rel(created),
        traffic_stopped: rel(o
            .summary
            .services
            .iter()
            .filter_map(|s| s.last_traffic_stopped_at_ms)
            .max()),
        service_restored: service_restored(o, f),
        volume_free: rel(o
            .summary
            .volumes
            .iter()
            .filter_map(|v| v.detached_at_ms)
            .filter(|&t| t >= f)
            .min()),
    }
}

/// One segment of "where does the time go?".
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    /// What happens in it, as a catalogue key.
    pub label: &'static str,
    /// The flag and value behind it.
    pub flag: String,
    /// Its length, ms.
    pub ms: Millis,
}

/// Splits the time from the fault to the first replacement Ready into its causes. Segments stop
/// where the chain stops (for example no taint on the legacy path, or no replacement at all).
pub fn breakdown(o: &Outcome, cfg: &Config) -> Vec<Segment> {
    let m = milestones(o);
    let mut steps = eviction_steps(&m, cfg, m.eviction);
    steps.push((
        "ui.seg.replacement",
        "on deletionTimestamp".to_string(),
        m.replacement_created,
    ));
    steps.push(started(cfg, m.replacement));
    if let Restored::At(t) = m.service_restored {
        let min = format_go_duration(cfg.kube_proxy.min_sync_period);
        steps.push((
            "ui.seg.service",
            format!("kube-proxy --iptables-min-sync-period {min}"),
            Some(t),
        ));
    }
    segments(steps)
}

/// One step of a chain: what happens, the flag and value behind it, and when it is done (ms
/// from the fault), if ever.
type Step = (&'static str, String, Option<Millis>);

/// From the fault to the pod's deletion: the grace period (`--node-monitor-grace-period`), one
/// more monitor pass to taint and the toleration (`doNoExecuteTaintingPass`, taint-based
/// eviction), or the legacy `--pod-eviction-timeout` (`doEvictionPass`); `evicted` is when the
/// pod in question was deleted.
fn eviction_steps(m: &Milestones, cfg: &Config, evicted: Option<Millis>) -> Vec<Step> {
    let kcm = &cfg.controller_manager;
    let grace = format_go_duration(kcm.node_monitor_grace_period);
    let mut steps = vec![(
        "ui.seg.grace",
        format!("--node-monitor-grace-period {grace}"),
        m.unknown,
    )];
    if kcm.taint_based_evictions {
        let period = format_go_duration(kcm.node_monitor_period);
        let tol = cfg.api_server.default_unreachable_toleration_seconds;
        steps.push(("ui.seg.taint", format!("--node-monitor-period {period}"), m.taint));
        steps.push((
            "ui.seg.toleration",
            format!("--default-unreachable-toleration-seconds {tol}"),
            evicted,
        ));
    } else {
        let timeout = format_go_duration(kcm.pod_eviction_timeout);
        steps.push(("ui.seg.legacy", format!("--pod-eviction-timeout {timeout}"), evicted));
    }
    steps
}

/// The replacement scheduled and its containers started (`simulation.podStartup`).
fn started(cfg: &Config, at: Option<Millis>) -> Step {
    let startup = format_go_duration(cfg.simulation.pod_startup);
    ("ui.seg.started", format!("podStartup {startup}"), at)
}

/// The chain's segments, each as long as from the step before; they stop at the first step that
/// never happens (or happens out of order).
fn segments(steps: Vec<Step>) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut last = 0;
    for (label, flag, at) in steps {
        match at {
            Some(t) if t >= last => {
                out.push(Segment {
                    label,
                    flag,
                    ms: t - last,
                });
                last = t;
            }
            _ => break,
        }
    }
    out
}

/// The first StatefulSet pod with a volume that the fault took down, as (pod, ms since the fault
/// of: its deletion, the old object gone, the volume mounted for its successor, Ready again).
struct DatabaseChain {
    pod: String,
    evicted: Option<Millis>,
    gone: Option<Millis>,
    mounted: Option<Millis>,
    ready: Option<Millis>,
}

fn database_chain(o: &Outcome, cfg: &Config, fault: Millis, node: &str) -> Option<DatabaseChain> {
    use kubelife_engine::EventKind as K;
    let sets: Vec<&str> = cfg
        .workloads
        .iter()
        .filter(|w| w.kind == kubelife_engine::scenario::WorkloadKind::StatefulSet && w.volume.is_some())
        .map(|w| w.name.as_str())
        .collect();
    let of_set = |p: &str| {
        sets.iter().any(|s| {
            p.strip_prefix(s)
                .and_then(|r| r.strip_prefix('-'))
                .is_some_and(|r| r.parse::<u32>().is_ok())
        })
    };
    let pod = o
        .events
        .iter()
        .find(|e| e.at_ms >= fault && e.node.as_deref() == Some(node) && e.pod.as_deref().is_some_and(of_set))?
        .pod
        .clone()?;
    let after = |kind: K, from: Option<Millis>| {
        let from = from?;
        o.events
            .iter()
            .find(|e| e.kind == kind && e.at_ms >= from && e.pod.as_deref() == Some(pod.as_str()))
            .map(|e| e.at_ms)
    };
    let evicted = after(K::PodDeletionRequested, Some(fault));
    let gone = after(K::PodRemoved, Some(fault));
    let created = after(K::PodCreated, gone);
    let mounted = after(K::VolumeMounted, created);
    let ready = after(K::PodReady, created);
    let rel = |v: Option<Millis>| v.map(|v| v - fault);
    Some(DatabaseChain {
        pod,
        evicted: rel(evicted),
        gone: rel(gone),
        mounted: rel(mounted),
        ready: rel(ready),
    })
}

/// "Database Ready again": for the first StatefulSet pod with a volume on the faulted node, the
/// time from the fault to its successor Ready, with the wait for the old pod object and for the
/// volume as their own segments. `None` when no such pod was there; the pod's name and the
/// segments (which stop where the chain stops) otherwise.
pub fn database_breakdown(o: &Outcome, cfg: &Config) -> Option<(String, Vec<Segment>)> {
    let n = o.summary.nodes.first()?;
    let fault = n.fault_at_ms?;
    let chain = database_chain(o, cfg, fault, &n.node)?;
    let m = milestones(o);
    let mut steps = eviction_steps(&m, cfg, chain.evicted);
    // A StatefulSet creates a pod again only once the old object is gone (it never runs two
    // pods with one identity), and the volume follows: detach, attach, mount.
    steps.push(("ui.seg.old_pod", "StatefulSet".to_string(), chain.gone));
    steps.push((
        "ui.seg.volume",
        "ReadWriteOnce: detach, attach, mount".to_string(),
        chain.mounted,
    ));
    steps.push(started(cfg, chain.ready));
    Some((chain.pod, segments(steps)))
}
