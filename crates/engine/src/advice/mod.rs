//! The project's own judgement of a configuration's settings: the warnings the page shows beside
//! a run and the tuner's search reports on every point it measures, so that the two never
//! disagree. Each follows an upstream rule named where it is raised. With the clients, what to
//! change in each client to cut its errors, measured by running the scenario again
//! ([`clients`]).

#[cfg(feature = "clients")]
pub mod clients;

#[cfg(feature = "clients")]
pub use clients::{client_fixes, Change, ClientFix};

use crate::cause::Cause;
use crate::scenario::Config;
use crate::time::SECOND;

/// `--node-monitor-grace-period` must be N times `nodeStatusUpdateFrequency`, N the kubelet's
/// retries (kube-controller-manager's flag help); kubelife takes N = 4, the defaults' 40s over
/// 10s.
pub const GRACE_PER_UPDATE: i64 = 4;

/// The shortest grace period that covers the apiserver's HTTP/2 health check since 1.32, ms: its
/// ping timeout (30s) plus its read-idle timeout (15s), the reason kube-controller-manager's
/// `--node-monitor-grace-period` default went from 40s to 50s in 1.32.
pub const HTTP2_HEALTH_CHECK: i64 = 45 * SECOND;

/// Warnings about the settings, beyond those resolving the scenario gives: each a `ui.warn.*`
/// message of the catalogue.
pub fn tuning_warnings(cfg: &Config) -> Vec<Cause> {
    let mut w = Vec::new();
    let k = &cfg.kubelet;
    let kcm = &cfg.controller_manager;
    let heartbeat = if k.node_lease {
        k.lease_renew_interval.min(k.node_status_report_frequency)
    } else {
        k.node_status_update_frequency
    };
    if kcm.node_monitor_grace_period < GRACE_PER_UPDATE * heartbeat {
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
    if kcm.node_monitor_grace_period < HTTP2_HEALTH_CHECK && cfg.profile.grace_covers_http2_health_check {
        w.push(Cause::new("ui.warn.grace_1_32"));
    }
    w
}
