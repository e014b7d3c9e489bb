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
    let kcm = &cfg.controller_manager;
    let grace = format_go_duration(kcm.node_monitor_grace_period);
    let mut out = Vec::new();
    let mut last = 0;
    let mut push = |label: &'static str, flag: String, at: Option<Millis>| -> bool {
        match at {
            Some(t) if t >= last => {
                out.push(Segment {
                    label,
                    flag,
                    ms: t - last,
                });
                last = t;
                true
            }
            _ => false,
        }
    };
    if !push(
        "ui.seg.grace",
        format!("--node-monitor-grace-period {grace}"),
        m.unknown,
    ) {
        return out;
    }
    if kcm.taint_based_evictions {
        if !push(
            "ui.seg.taint",
            format!("--node-monitor-period {}", format_go_duration(kcm.node_monitor_period)),
            m.taint,
        ) {
            return out;
        }
        let tol = cfg.api_server.default_unreachable_toleration_seconds;
        if !push(
            "ui.seg.toleration",
            format!("--default-unreachable-toleration-seconds {tol}"),
            m.eviction,
        ) {
            return out;
        }
    } else if !push(
        "ui.seg.legacy",
        format!(
            "--pod-eviction-timeout {}",
            format_go_duration(kcm.pod_eviction_timeout)
        ),
        m.eviction,
    ) {
        return out;
    }
    if !push(
        "ui.seg.replacement",
        "on deletionTimestamp".to_string(),
        m.replacement_created,
    ) {
        return out;
    }
    push(
        "ui.seg.started",
        format!("podStartup {}", format_go_duration(cfg.simulation.pod_startup)),
        m.replacement,
    );
    out
}
