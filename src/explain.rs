//! What the explanation panels say: milestones, where the time goes, control-plane cost and
//! warnings about the settings. Pure functions of the run and its configuration.

use kubelife_engine::time::{format_go_duration, format_go_duration_tenths, MINUTE, SECOND};
use kubelife_engine::{Cause, Config, Millis, Outcome};

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

/// A milestone as the page shows it: a Go duration to a tenth of a second, or `never`.
pub fn milestone_text(lang: crate::i18n::Lang, v: Option<Millis>) -> String {
    v.map_or_else(
        || crate::i18n::tr(lang, "ui.never").to_string(),
        format_go_duration_tenths,
    )
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

/// Heartbeat writes per minute for `nodes` nodes under a configuration: (lease updates, status
/// patches). Lease loops wait 2% longer on average when jittered.
pub fn writes_per_minute(cfg: &Config, nodes: u32) -> (f64, f64) {
    let n = f64::from(nodes);
    let k = &cfg.kubelet;
    let jitter = |on: bool| if on { 1.02 } else { 1.0 };
    let lease = if k.node_lease {
        n * MINUTE as f64 / (k.lease_renew_interval as f64 * jitter(cfg.profile.lease_jitter))
    } else {
        0.0
    };
    let status_period = if k.node_lease {
        k.node_status_report_frequency.max(k.node_status_update_frequency)
    } else {
        k.node_status_update_frequency
    };
    let status = n * MINUTE as f64 / (status_period as f64 * jitter(cfg.profile.status_jitter));
    (lease, status)
}

/// Warnings about the settings, beyond those the engine gives.
pub fn tuning_warnings(cfg: &Config) -> Vec<Cause> {
    let mut w = Vec::new();
    let k = &cfg.kubelet;
    let kcm = &cfg.controller_manager;
    let heartbeat = if k.node_lease {
        k.lease_renew_interval.min(k.node_status_report_frequency)
    } else {
        k.node_status_update_frequency
    };
    if kcm.node_monitor_grace_period < 4 * heartbeat {
        w.push(
            Cause::new("ui.warn.flapping")
                .time("grace", kcm.node_monitor_grace_period)
                .time("heartbeat", heartbeat),
        );
    }
    if cfg.api_server.default_unreachable_toleration_seconds == 0
        || cfg.api_server.default_not_ready_toleration_seconds == 0
    {
        w.push(Cause::new("ui.warn.zero_toleration"));
    }
    if kcm.node_monitor_period > kcm.node_monitor_grace_period {
        w.push(Cause::new("ui.warn.period_over_grace"));
    }
    if kcm.node_monitor_grace_period < 45 * SECOND && cfg.profile.version.minor >= 32 {
        w.push(Cause::new("ui.warn.grace_1_32"));
    }
    w
}

/// A fingerprint of a run's JSON (FNV-1a, 64 bits), to check that the browser and native builds
/// produce the same timeline.
pub fn timeline_fingerprint(o: &Outcome) -> u64 {
    o.to_json().bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// The fingerprint of the default settings' run with heartbeats, as computed natively. The
/// browser test asserts the same value, so both targets must agree.
pub const DEFAULT_FINGERPRINT: u64 = 10_511_939_703_646_148_198;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;
    use kubelife_engine::RunOptions;

    #[test]
    fn breakdown_adds_up_to_the_replacement() {
        let (cfg, _) = Settings::default().resolve();
        let o = kubelife_engine::run(&cfg, &RunOptions::default());
        let segs = breakdown(&o, &cfg);
        assert_eq!(segs.len(), 5);
        let total: Millis = segs.iter().map(|s| s.ms).sum();
        assert_eq!(Some(total), milestones(&o).replacement);
        assert!(segs[2].flag.contains("300"));
    }

    #[test]
    fn default_write_rates_match_the_spec() {
        let (cfg, _) = Settings::default().resolve();
        let (lease, status) = writes_per_minute(&cfg, 1000);
        assert!((5_800.0..5_900.0).contains(&lease), "{lease}");
        assert!((190.0..=200.0).contains(&status), "{status}");
    }

    #[test]
    fn default_run_has_the_pinned_fingerprint() {
        let (cfg, _) = Settings::default().resolve();
        let o = kubelife_engine::run(&cfg, &RunOptions { heartbeats: true });
        assert_eq!(
            timeline_fingerprint(&o),
            DEFAULT_FINGERPRINT,
            "update DEFAULT_FINGERPRINT after an intended change"
        );
    }

    #[test]
    fn tight_grace_warns() {
        let mut s = Settings::default();
        s.set("node-monitor-grace-period", 20.0);
        let (cfg, _) = s.resolve();
        assert!(tuning_warnings(&cfg).iter().any(|w| w.english().contains("flapping")));
        assert!(tuning_warnings(&Settings::default().resolve().0).is_empty());
    }
}
