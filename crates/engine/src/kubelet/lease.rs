//! The kubelet's Lease heartbeat.
//!
//! Follows the lease controller in `staging/src/k8s.io/component-helpers/apimachinery/lease/
//! controller.go`: `sync` runs every renew interval (a quarter of `nodeLeaseDurationSeconds`, with
//! 4% sliding jitter from 1.22) and PUTs the cached lease with `renewTime = now`. When the
//! apiserver is out of reach, `backoffEnsureLease` blocks the loop, retrying after 200 ms, 400 ms,
//! … up to 7 s, so the first renewal after a partition heals lands within 7 s.

use crate::api::{Api, NodeId};
use crate::cause::Cause;
use crate::kubelet::{Kubelet, KubeletSettings};
use crate::time::Millis;
use crate::timeline::{Event, EventKind, Log};

/// The first sleep of `backoffEnsureLease`, ms.
pub const BACKOFF_START: Millis = 200;
/// Its cap (`maxBackoff`), ms.
pub const BACKOFF_MAX: Millis = 7_000;

/// One run of the lease loop at `now`; returns the wait until the next run.
pub fn sync_lease(
    k: &mut Kubelet,
    now: Millis,
    n: NodeId,
    api: &mut Api,
    log: &mut Log,
    s: &KubeletSettings,
) -> Millis {
    if !k.heartbeat_succeeds(n, api, s) {
        // retryUpdateLease fails, then backoffEnsureLease sleeps and tries again, doubling.
        let sleep = k.lease_backoff.map_or(BACKOFF_START, |b| (b * 2).min(BACKOFF_MAX));
        k.lease_backoff = Some(sleep);
        return sleep;
    }
    let after_backoff = k.lease_backoff.take();
    api.renew_lease(now, n);
    if log.wants(now, EventKind::LeaseRenewed) {
        let why = match after_backoff {
            Some(b) => Cause::new("cause.part.lease_backoff").time("sleep", b),
            None => Cause::new("cause.part.lease_loop").time("every", s.lease_renew),
        };
        log.push(
            Event::new(
                now,
                EventKind::LeaseRenewed,
                Cause::new("cause.lease.renewed").sub("why", why),
            )
            .node(n),
        );
    }
    Kubelet::jittered(&mut k.lease_rng, s.lease_renew, s.lease_jitter) + api.api_latency
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::ActionKind;
    use crate::timeline::Log;

    #[test]
    fn backoff_doubles_to_seven_seconds() {
        let mut k = Kubelet::new(1, 0, 0);
        k.fault = Some(ActionKind::NetworkPartition);
        let s = KubeletSettings {
            update: 10_000,
            report: 300_000,
            lease_renew: 10_000,
            status_jitter: true,
            lease_jitter: true,
            report_offset: false,
            node_lease: true,
            request_timeout: 10_000,
        };
        let mut api = Api::default();
        let mut log = Log::default();
        let sleeps: Vec<Millis> = (0..9)
            .map(|_| sync_lease(&mut k, 0, 0, &mut api, &mut log, &s))
            .collect();
        assert_eq!(sleeps, [200, 400, 800, 1_600, 3_200, 6_400, 7_000, 7_000, 7_000]);
        assert_eq!(api.writes.lease_updates, 0);
    }
}
