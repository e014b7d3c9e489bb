//! What the heartbeats cost the apiserver: the cost table's figure, and one axis of the tuning
//! search.

use crate::scenario::Config;
use crate::time::MINUTE;

/// Heartbeat writes per minute for `nodes` nodes under a configuration: (Lease updates, node
/// status patches). With Leases the status is patched at the longer of
/// `nodeStatusReportFrequency` and `nodeStatusUpdateFrequency` (KEP-0009); without them at every
/// `nodeStatusUpdateFrequency`. Jittered loops wait 2% longer on average (`wait.Jitter` with a
/// factor of 0.04).
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

/// Lease updates and status patches together, per minute, for `nodes` nodes.
pub fn heartbeat_writes_per_minute(cfg: &Config, nodes: u32) -> f64 {
    let (lease, status) = writes_per_minute(cfg, nodes);
    lease + status
}

/// The fewest heartbeat writes per minute any of a tuning search's candidates has at `nodes`
/// nodes: with Leases, the Lease renewals alone at the configuration's renew interval (the
/// kubelet's `nodeLeaseDurationSeconds` / 4, which the search does not vary); without them,
/// status patches at `longest`, the least frequent `nodeStatusUpdateFrequency` it tries (ms).
pub fn writes_floor(cfg: &Config, nodes: u32, longest: i64) -> f64 {
    if cfg.kubelet.node_lease {
        return writes_per_minute(cfg, nodes).0;
    }
    let jitter = if cfg.profile.status_jitter { 1.02 } else { 1.0 };
    f64::from(nodes) * MINUTE as f64 / (longest.max(1) as f64 * jitter)
}
