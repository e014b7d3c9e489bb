//! What the explanation panels say: milestones, where the time goes, control-plane cost and
//! warnings about the settings. Pure functions of the run and its configuration.

use kubelife_engine::time::{format_go_duration_tenths, MINUTE, SECOND};
use kubelife_engine::{Cause, Config, Millis, Outcome};

pub use kubelife_figures::explain::{breakdown, milestones, Milestones, Segment};

/// A milestone as the page shows it: a Go duration to a tenth of a second, or `never`.
pub fn milestone_text(lang: crate::i18n::Lang, v: Option<Millis>) -> String {
    v.map_or_else(
        || crate::i18n::tr(lang, "ui.never").to_string(),
        format_go_duration_tenths,
    )
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
