//! The kubelet's volume manager, as far as it sets when a pod's volume is ready.
//!
//! A pod admitted on a node waits until the attach-detach controller reports its volume attached
//! to that node (`VerifyControllerAttachedVolume` reads `node.status.volumesAttached`, from which
//! the controller takes a volume before it starts a detach: a pod that comes back to a node while
//! its volume is being detached there waits for the volume to be attached again), then mounts
//! it, then starts its containers.
//! A failed verification is retried with the operation executor's exponential backoff
//! (`nestedpendingoperations`: 500 ms, doubling, capped at 2m2s), each retry on the volume
//! manager's 100 ms reconciler tick, so after a long wait the kubelet notices an attach up to two
//! minutes late.

use crate::time::Millis;

/// The first retry delay (`initialDurationBeforeRetry`), ms.
pub const INITIAL_BACKOFF: Millis = 500;
/// The longest (`maxDurationBeforeRetry`), ms.
pub const MAX_BACKOFF: Millis = 122_000;
/// The volume manager's reconciler period, ms.
pub const RECONCILER_PERIOD: Millis = 100;

/// The first reconciler tick at or after `t`.
pub fn on_tick(t: Millis) -> Millis {
    t.div_euclid(RECONCILER_PERIOD) * RECONCILER_PERIOD
        + if t.rem_euclid(RECONCILER_PERIOD) == 0 {
            0
        } else {
            RECONCILER_PERIOD
        }
}

/// After a failed verification at `now` with backoff `gap`: when the next one runs, and the gap
/// after that.
pub fn retry(now: Millis, gap: Millis) -> (Millis, Millis) {
    (on_tick(now + gap), (gap * 2).min(MAX_BACKOFF))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_double_up_to_two_minutes_on_the_tick() {
        let mut at = 0;
        let mut gap = INITIAL_BACKOFF;
        let mut times = Vec::new();
        for _ in 0..10 {
            let (next, g) = retry(at, gap);
            times.push(next);
            at = next;
            gap = g;
        }
        assert_eq!(&times[..5], &[500, 1_500, 3_500, 7_500, 15_500]);
        assert_eq!(times[9] - times[8], MAX_BACKOFF);
        assert_eq!(on_tick(1_501), 1_600);
    }
}
