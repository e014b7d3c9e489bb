//! A fixed workload that times the machine, so that speed budgets are ratios measured in the same
//! run rather than absolute times, which differ twofold between machines.
//!
//! [`heartbeat_floor`] is the bare event loop that any event-driven model of node heartbeats has
//! to beat: N nodes, each with a 10 s Lease loop and a 10 s status loop (4 % sliding jitter on
//! both, the status loop patching every 5 minutes), and a monitor pass every 5 s that reads every
//! node, all on one binary heap. It models nothing; it is what the engine is compared with.

use crate::rng::{Rng, Stream};
use crate::time::{Millis, MINUTE, SECOND};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Tick {
    Lease(u32),
    Status(u32),
    Monitor,
}

/// Runs the floor workload for `nodes` nodes over `duration` ms; returns a checksum of what it
/// computed (lease writes, status patches and monitor reads), so that nothing is optimised away.
pub fn heartbeat_floor(nodes: usize, duration: Millis, seed: u64) -> u64 {
    const PERIOD: Millis = 10 * SECOND;
    const REPORT: Millis = 5 * MINUTE;
    const MONITOR: Millis = 5 * SECOND;
    const GRACE: Millis = 50 * SECOND;
    let mut rng = Rng::stream(seed, Stream::Names);
    let mut jitter = move || PERIOD + (PERIOD as f64 * 0.04 * rng.unit()) as Millis;
    let mut renewed = vec![0 as Millis; nodes];
    let mut reported = vec![0 as Millis; nodes];
    let mut seen = vec![0 as Millis; nodes];
    let mut probe = vec![0 as Millis; nodes];
    let mut heap = BinaryHeap::with_capacity(2 * nodes + 1);
    let mut seq = 0u64;
    let mut push = |heap: &mut BinaryHeap<Reverse<(Millis, u64, Tick)>>, at: Millis, t: Tick| {
        seq += 1;
        heap.push(Reverse((at, seq, t)));
    };
    let mut phases = Rng::stream(seed, Stream::ControllerManager);
    for n in 0..nodes as u32 {
        push(&mut heap, phases.below(PERIOD as u64) as Millis, Tick::Lease(n));
        push(&mut heap, phases.below(PERIOD as u64) as Millis, Tick::Status(n));
    }
    push(&mut heap, 0, Tick::Monitor);
    let (mut writes, mut unknown) = (0u64, 0u64);
    while let Some(Reverse((now, _, tick))) = heap.pop() {
        if now > duration {
            break;
        }
        match tick {
            Tick::Lease(n) => {
                renewed[n as usize] = now;
                writes += 1;
                push(&mut heap, now + jitter(), Tick::Lease(n));
            }
            Tick::Status(n) => {
                if now - reported[n as usize] >= REPORT {
                    reported[n as usize] = now;
                    writes += 1;
                }
                push(&mut heap, now + jitter(), Tick::Status(n));
            }
            Tick::Monitor => {
                for n in 0..nodes {
                    if renewed[n] != seen[n] {
                        seen[n] = renewed[n];
                        probe[n] = now;
                    } else if now - probe[n] > GRACE {
                        unknown += 1;
                    }
                }
                push(&mut heap, now + MONITOR, Tick::Monitor);
            }
        }
    }
    writes.wrapping_mul(31).wrapping_add(unknown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_floor_renews_every_node_and_never_misses_a_healthy_one() {
        // 3 nodes for 10 minutes: about 60 lease writes each plus two status reports.
        let sum = heartbeat_floor(3, 10 * MINUTE, 1);
        let (writes, unknown) = (sum / 31, sum % 31);
        assert_eq!(unknown, 0);
        assert!((3 * 57..=3 * 62).contains(&writes), "{writes}");
        assert_eq!(sum, heartbeat_floor(3, 10 * MINUTE, 1));
    }
}
