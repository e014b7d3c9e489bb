//! The scheduler: every wake-up of a run, in time order, keyed and cancellable.
//!
//! A timer is a [`Wake`] at a time. Timers due in the same millisecond run in the order they
//! were pushed (`pushed_at`, then the order of pushing), so a run is a pure function of its
//! scenario. A timer is cancelled in one of two ways, as NeXosim's keyed events are:
//!
//! - with its owner: a timer pushed for a node's kubelet or for kube-controller-manager
//!   ([`Owner`]) dies when its owner stops (a crash, a restart): [`Timers::cancel_owner`] drops
//!   every timer the owner pushed before, without looking for them;
//! - by its key: [`Timers::push_keyed`] returns an [`ActionKey`] that its holder cancels alone
//!   (a taint eviction timer that another replaces).
//!
//! Cancelling costs nothing: a cancelled timer stays in the heap and is dropped when it comes up.
//! Periodic loops whose iterations nobody would notice may be dormant, outside the heap
//! ([`dormant`]). Nothing here knows what a wake-up does; the driver (`sim`) dispatches them,
//! and hands a remediator's ([`Wake::Remediation`]) to the remediation controllers, which name
//! and dispatch their own steps.

mod dormant;

pub use dormant::Loop;

use crate::api::{NodeId, PodId, Watch};
use crate::time::Millis;
use std::cmp::{Ordering, Reverse};
use std::collections::{BTreeSet, BinaryHeap};

/// What wakes up. Variants and fields carry no tokens: a stale wake-up is never delivered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wake {
    /// A kubelet's node status loop runs.
    StatusTick {
        /// The node.
        node: NodeId,
    },
    /// A kubelet's Lease loop runs.
    LeaseTick {
        /// The node.
        node: NodeId,
    },
    /// A joining kubelet tries to register its Node (`registerWithAPIServer`).
    Register {
        /// The node.
        node: NodeId,
        /// The sleep before this attempt, ms.
        step: Millis,
    },
    /// The node lifecycle controller's monitor pass.
    MonitorPass,
    /// The 100 ms NoExecute tainting loop (or the legacy pod evictor).
    TaintingTick,
    /// PodGC's pass.
    PodGcTick,
    /// A new kube-controller-manager starts its controllers.
    ControllerManagerStart,
    /// A scenario action (its index).
    Action(usize),
    /// A watch notification reaches the informers.
    Watch(Watch),
    /// A write that waited for its controller's rate limiter (an index into the driver's
    /// deferred writes).
    Apply {
        /// The slot.
        slot: usize,
    },
    /// The EndpointSlice controller writes a Service's slice after waiting for its client.
    SliceWrite {
        /// The Service (workload index).
        service: usize,
    },
    /// The attach-detach controller's reconciler runs.
    AdcTick,
    /// The storage driver finished attaching a volume to a node.
    AttachDone {
        /// The volume.
        volume: usize,
        /// The node.
        node: NodeId,
    },
    /// The storage driver finished detaching a volume from a node.
    DetachDone {
        /// The volume.
        volume: usize,
        /// The node.
        node: NodeId,
    },
    /// The kubelet checks whether its pod's volume is attached; `waited` is the backoff that led
    /// to this check (0 for the first), `gap` the one after it if it fails.
    VolumeVerify {
        /// The pod.
        pod: PodId,
        /// The backoff before this check, ms.
        waited: Millis,
        /// The backoff after it, ms.
        gap: Millis,
    },
    /// The kubelet finished mounting its pod's volume, found attached by the check at `checked`
    /// after a backoff of `waited`.
    VolumeMountDone {
        /// The pod.
        pod: PodId,
        /// When the check found the volume attached, ms.
        checked: Millis,
        /// The backoff before that check, ms.
        waited: Millis,
    },
    /// The connected kube-proxies start a sync.
    ProxySync,
    /// The connected kube-proxies finish their sync.
    ProxySyncDone,
    /// A taint eviction timer fires.
    Evict {
        /// The pod.
        pod: PodId,
    },
    /// A pod's containers started and its readiness probe passed.
    PodStarted {
        /// The pod.
        pod: PodId,
    },
    /// A pod's kubelet finished terminating it.
    PodTerminated {
        /// The pod.
        pod: PodId,
    },
    /// A drain goroutine POSTs a pod's eviction.
    DrainEvict {
        /// The pod.
        pod: PodId,
        /// Which attempt.
        attempt: u32,
    },
    /// The disruption controller syncs a workload's PodDisruptionBudget.
    DisruptionSync {
        /// The workload.
        workload: usize,
    },
    /// The shutdown manager starts killing a priority group's pods.
    ShutdownGroup {
        /// The node.
        node: NodeId,
        /// The group.
        group: usize,
    },
    /// The shutdown manager's kill of a pod returned.
    ShutdownPodKilled {
        /// The pod.
        pod: PodId,
        /// Its priority group.
        group: usize,
        /// The grace it was given, s.
        grace: i64,
    },
    /// The cloud node lifecycle controller's `MonitorNodes` pass begins.
    CloudPass,
    /// The cloud's answer about the node a cloud pass asked about comes in.
    CloudAnswer,
    /// A spot instance's notice is over: the cloud reclaims it.
    SpotReclaim {
        /// The node.
        node: NodeId,
    },
    /// A pass of an EKS managed node group's drain of a Spot node on its interruption notice.
    NodeGroupDrain {
        /// The node.
        node: NodeId,
    },
    /// A remediator's wake-up; the remediation controllers name its step and dispatch it
    /// themselves.
    Remediation(RemediationWake),
}

/// A remediator's wake-up ([`Wake::Remediation`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct RemediationWake {
    /// The remediator (its index in the scenario's `remediation`).
    pub remediator: usize,
    /// The node.
    pub node: NodeId,
    /// The step, as the remediation controllers number theirs.
    pub step: u8,
}

/// Whose timers die together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// A node's kubelet process: its loops, its pods' starts, volume checks and shutdown steps.
    Kubelet(NodeId),
    /// The kube-controller-manager process: every controller's loops, timers and queued writes.
    ControllerManager,
    /// The remediators (they run outside the cluster's control plane; nothing here stops them).
    Remediator,
}

/// The handle of a keyed timer, to cancel it alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct ActionKey(u64);

/// One timer in the heap. Ordered by time, then push time, then push order, then the wake-up
/// itself; the owner's stamp and the key play no part in the order.
#[derive(Debug, Clone, Copy)]
struct Entry {
    at: Millis,
    pushed_at: Millis,
    seq: u64,
    wake: Wake,
    owner: Option<(Owner, u32)>,
    keyed: bool,
}

impl Entry {
    fn order(&self) -> (Millis, Millis, u64, Wake) {
        (self.at, self.pushed_at, self.seq, self.wake)
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.order() == other.order()
    }
}

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        self.order().cmp(&other.order())
    }
}

/// The timers of a run.
#[derive(Debug, Clone, Default)]
pub struct Timers {
    heap: BinaryHeap<Reverse<Entry>>,
    seq: u64,
    /// Each kubelet's generation: bumped when it stops, which cancels what it pushed before.
    kubelets: Vec<u32>,
    /// kube-controller-manager's generation.
    controller_manager: u32,
    /// Keyed timers cancelled and not yet come up, by `order::words` of their sequence number.
    cancelled: BTreeSet<(usize, usize)>,
    /// Loops parked or asleep outside the heap.
    dormant: dormant::Dormant,
}

impl Timers {
    fn stamp(&mut self, owner: Owner) -> (Owner, u32) {
        let generation = match owner {
            Owner::Kubelet(n) => {
                if self.kubelets.len() <= n {
                    self.kubelets.resize(n + 1, 0);
                }
                self.kubelets[n]
            }
            Owner::ControllerManager => self.controller_manager,
            Owner::Remediator => 0,
        };
        (owner, generation)
    }

    fn live(&self, (owner, generation): (Owner, u32)) -> bool {
        match owner {
            Owner::Kubelet(n) => self.kubelets.get(n).copied().unwrap_or(0) == generation,
            Owner::ControllerManager => self.controller_manager == generation,
            Owner::Remediator => true,
        }
    }

    fn add(&mut self, at: Millis, pushed_at: Millis, wake: Wake, owner: Option<Owner>, keyed: bool) -> u64 {
        self.seq += 1;
        let owner = owner.map(|o| self.stamp(o));
        let seq = self.seq;
        self.heap.push(Reverse(Entry {
            at,
            pushed_at,
            seq,
            wake,
            owner,
            keyed,
        }));
        seq
    }

    /// Wakes `wake` at `at`, pushed at `now`.
    pub fn push(&mut self, at: Millis, now: Millis, wake: Wake) {
        self.add(at, now, wake, None, false);
    }

    /// Wakes `wake` at `at` for `owner`, pushed at `now`: cancelled if the owner stops first.
    pub fn push_for(&mut self, owner: Owner, at: Millis, now: Millis, wake: Wake) {
        self.add(at, now, wake, Some(owner), false);
    }

    /// Wakes `wake` at `at` for `owner` as if it had been pushed at `pushed_at`, before any
    /// other timer pushed at that same instant: a parked loop's next iteration taking its place.
    pub fn push_as_of(&mut self, owner: Owner, at: Millis, pushed_at: Millis, wake: Wake) {
        let owner = Some(self.stamp(owner));
        self.heap.push(Reverse(Entry {
            at,
            pushed_at,
            seq: 0,
            wake,
            owner,
            keyed: false,
        }));
    }

    /// Wakes `wake` at `at` for `owner`, pushed at `now`, and gives the key that cancels it.
    pub fn push_keyed(&mut self, owner: Owner, at: Millis, now: Millis, wake: Wake) -> ActionKey {
        ActionKey(self.add(at, now, wake, Some(owner), true))
    }

    /// Cancels the keyed timer `key`, if it has not come up yet.
    pub fn cancel(&mut self, key: ActionKey) {
        self.cancelled.insert(crate::order::words(key.0));
    }

    /// Cancels every timer `owner` pushed so far, and ends its dormant loops.
    pub fn cancel_owner(&mut self, owner: Owner) {
        self.dormant.cancel(owner);
        match owner {
            Owner::Kubelet(n) => {
                self.stamp(owner);
                self.kubelets[n] += 1;
            }
            Owner::ControllerManager => self.controller_manager += 1,
            Owner::Remediator => {}
        }
    }

    /// The next timer still standing: (when, when it was pushed, the wake-up).
    pub fn pop(&mut self) -> Option<(Millis, Millis, Wake)> {
        while let Some(Reverse(e)) = self.heap.pop() {
            if e.owner.is_some_and(|o| !self.live(o)) {
                continue;
            }
            if e.keyed && self.cancelled.remove(&crate::order::words(e.seq)) {
                continue;
            }
            return Some((e.at, e.pushed_at, e.wake));
        }
        None
    }

    /// When the next timer in the heap is due (it may have been cancelled), ms.
    pub fn peek_at(&self) -> Option<Millis> {
        self.heap.peek().map(|Reverse(e)| e.at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(t: &mut Timers) -> Vec<(Millis, Wake)> {
        std::iter::from_fn(|| t.pop().map(|(at, _, w)| (at, w))).collect()
    }

    #[test]
    fn ties_run_in_push_order_and_requeued_ones_first() {
        let mut t = Timers::default();
        t.push(10, 0, Wake::ProxySync);
        t.push(10, 0, Wake::MonitorPass);
        t.push_as_of(Owner::Kubelet(0), 10, 0, Wake::StatusTick { node: 0 });
        t.push(5, 0, Wake::AdcTick);
        let woke = drain(&mut t);
        assert_eq!(
            woke,
            [
                (5, Wake::AdcTick),
                (10, Wake::StatusTick { node: 0 }),
                (10, Wake::ProxySync),
                (10, Wake::MonitorPass)
            ]
        );
    }

    #[test]
    fn an_owner_that_stops_takes_its_timers_along_and_only_those() {
        let mut t = Timers::default();
        t.push_for(Owner::Kubelet(2), 10, 0, Wake::PodStarted { pod: 1 });
        t.push_for(Owner::Kubelet(3), 10, 0, Wake::PodStarted { pod: 2 });
        t.push_for(Owner::ControllerManager, 20, 0, Wake::MonitorPass);
        t.cancel_owner(Owner::Kubelet(2));
        t.push_for(Owner::Kubelet(2), 30, 5, Wake::PodStarted { pod: 3 });
        let woke = drain(&mut t);
        assert_eq!(
            woke,
            [
                (10, Wake::PodStarted { pod: 2 }),
                (20, Wake::MonitorPass),
                (30, Wake::PodStarted { pod: 3 })
            ]
        );
    }

    #[test]
    fn a_keyed_timer_is_cancelled_alone() {
        let mut t = Timers::default();
        let a = t.push_keyed(Owner::ControllerManager, 10, 0, Wake::Evict { pod: 1 });
        t.push_keyed(Owner::ControllerManager, 10, 0, Wake::Evict { pod: 2 });
        t.cancel(a);
        assert_eq!(drain(&mut t), [(10, Wake::Evict { pod: 2 })]);
    }
}
