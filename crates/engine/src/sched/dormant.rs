//! Dormant loops: periodic loops whose iterations nobody would notice stay out of the heap.
//!
//! A healthy cluster is mostly loops that change nothing anyone reads: a kubelet renewing its
//! Lease and patching an unchanged status, the 100 ms NoExecute tainting loop over empty zone
//! queues, the attach-detach reconciler with no volume waiting. Queuing every one of their
//! iterations would make a run cost what exists, not what happens. So a loop may be dormant, in
//! one of two ways:
//!
//! - **parked** ([`Timers::park`]): the loop's next iteration is remembered, not queued. Its
//!   owner runs the due iterations itself, in order and with the same code and random draws as
//!   queued ones, whenever somebody is about to look ([`Timers::take_due`]), and puts the loop
//!   back into the heap ([`Timers::unpark`]) before anything could make an iteration matter.
//!   The kubelet's two heartbeat loops are parked while their node is plain
//!   (`crate::kubelet::heartbeats`).
//! - **asleep** ([`Timers::sleep`]): a loop on a fixed grid whose iterations do nothing while
//!   its queue is empty. [`Timers::resume`] queues it again on the first tick of its grid that
//!   would have come after the wake-up being handled, so the timeline is the same as if it had
//!   kept ticking.
//!
//! A dormant loop belongs to its owner like any timer: [`Timers::cancel_owner`] ends it too.
//! Ties keep their order: a loop's next iteration counts as pushed when the one before it ran,
//! and [`Timers::push_as_of`] puts it before everything pushed later in the same millisecond.

use super::{Owner, Timers, Wake};
use crate::api::NodeId;
use crate::time::Millis;

/// A periodic loop that may be dormant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loop {
    /// A kubelet's node status loop (`syncNodeStatus`).
    Status(NodeId),
    /// A kubelet's Lease loop (the lease controller's `sync`).
    Lease(NodeId),
    /// The node lifecycle controller's 100 ms NoExecute tainting loop (or the legacy evictor).
    Tainting,
    /// The attach-detach controller's 100 ms reconciler.
    Reconciler,
}

impl Loop {
    /// The wake-up that runs one iteration.
    pub fn wake(self) -> Wake {
        match self {
            Loop::Status(node) => Wake::StatusTick { node },
            Loop::Lease(node) => Wake::LeaseTick { node },
            Loop::Tainting => Wake::TaintingTick,
            Loop::Reconciler => Wake::AdcTick,
        }
    }

    /// Whose loop it is.
    pub fn owner(self) -> Owner {
        match self {
            Loop::Status(n) | Loop::Lease(n) => Owner::Kubelet(n),
            Loop::Tainting | Loop::Reconciler => Owner::ControllerManager,
        }
    }
}

/// A parked loop's next iteration: when it runs, and when the iteration before it ran (its
/// place among wake-ups of the same millisecond), ms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parked {
    /// When the next iteration runs, ms.
    pub next: Millis,
    /// When it would have been pushed, ms.
    pub pushed_at: Millis,
}

/// Every dormant loop of a run.
#[derive(Debug, Clone, Default)]
pub(super) struct Dormant {
    /// Per node, its kubelet's parked status and Lease loops.
    kubelets: Vec<[Option<Parked>; 2]>,
    /// The next grid tick of the sleeping tainting loop and reconciler.
    asleep: [Option<Millis>; 2],
}

impl Dormant {
    fn slot(&mut self, l: Loop) -> &mut Option<Parked> {
        let (n, i) = match l {
            Loop::Status(n) => (n, 0),
            Loop::Lease(n) => (n, 1),
            Loop::Tainting | Loop::Reconciler => unreachable!("grid loops sleep, they are not parked"),
        };
        if self.kubelets.len() <= n {
            self.kubelets.resize(n + 1, [None; 2]);
        }
        &mut self.kubelets[n][i]
    }

    fn get(&self, l: Loop) -> Option<Parked> {
        match l {
            Loop::Status(n) => self.kubelets.get(n).and_then(|k| k[0]),
            Loop::Lease(n) => self.kubelets.get(n).and_then(|k| k[1]),
            Loop::Tainting | Loop::Reconciler => None,
        }
    }

    fn grid(&mut self, l: Loop) -> &mut Option<Millis> {
        match l {
            Loop::Tainting => &mut self.asleep[0],
            Loop::Reconciler => &mut self.asleep[1],
            Loop::Status(_) | Loop::Lease(_) => unreachable!("kubelet loops are parked, they do not sleep"),
        }
    }

    /// Ends every dormant loop of `owner`.
    pub(super) fn cancel(&mut self, owner: Owner) {
        match owner {
            Owner::Kubelet(n) => {
                if let Some(k) = self.kubelets.get_mut(n) {
                    *k = [None; 2];
                }
            }
            Owner::ControllerManager => self.asleep = [None; 2],
            Owner::Remediator => {}
        }
    }
}

impl Timers {
    /// Queues `wake` at `at` for `owner` as if pushed at `pushed_at`, the current time being
    /// `now`: pushed now, it is an ordinary timer; pushed earlier, it goes before every timer
    /// pushed later at that same instant.
    pub fn requeue(&mut self, owner: Owner, at: Millis, pushed_at: Millis, now: Millis, wake: Wake) {
        if pushed_at == now {
            self.push_for(owner, at, now, wake);
        } else {
            self.push_as_of(owner, at, pushed_at, wake);
        }
    }

    /// Parks loop `l`: its next iteration runs at `next`, as if pushed at `pushed_at`.
    pub fn park(&mut self, l: Loop, next: Millis, pushed_at: Millis) {
        *self.dormant.slot(l) = Some(Parked { next, pushed_at });
    }

    /// Loop `l`'s next iteration while it is parked.
    pub fn parked(&self, l: Loop) -> Option<Parked> {
        self.dormant.get(l)
    }

    /// Takes loop `l`'s next iteration if it comes before a wake-up at `until` pushed at
    /// `pushed_at` (due earlier, or due then and pushed no later); the caller runs it and parks
    /// the loop again. With `pushed_at` of `Millis::MAX` every iteration due at `until` counts.
    pub fn take_due(&mut self, l: Loop, until: Millis, pushed_at: Millis) -> Option<Millis> {
        let p = self.dormant.get(l)?;
        if p.next > until || (p.next == until && p.pushed_at > pushed_at) {
            return None;
        }
        *self.dormant.slot(l) = None;
        Some(p.next)
    }

    /// Takes loop `l` out of dormancy without queuing it (the run ends).
    pub fn take_parked(&mut self, l: Loop) -> Option<Parked> {
        self.dormant.get(l)?;
        self.dormant.slot(l).take()
    }

    /// Puts parked loop `l` back into the heap as the wake-up it would have been; `now` is the
    /// current time. Whether it was parked.
    pub fn unpark(&mut self, l: Loop, now: Millis) -> bool {
        let Some(p) = self.take_parked(l) else { return false };
        self.requeue(l.owner(), p.next, p.pushed_at, now, l.wake());
        true
    }

    /// Puts grid loop `l` to sleep; its next tick would have been at `next`.
    pub fn sleep(&mut self, l: Loop, next: Millis) {
        *self.dormant.grid(l) = Some(next);
    }

    /// Whether grid loop `l` sleeps.
    pub fn asleep(&self, l: Loop) -> bool {
        match l {
            Loop::Tainting => self.dormant.asleep[0].is_some(),
            Loop::Reconciler => self.dormant.asleep[1].is_some(),
            Loop::Status(_) | Loop::Lease(_) => false,
        }
    }

    /// Queues sleeping grid loop `l` (of period `period`, ms) again at the tick it would have
    /// run had it kept ticking: the first tick of its grid after the wake-up being handled, at
    /// `now` and pushed at `pushed_at` (a tick at this very millisecond counts if it would have
    /// come after that wake-up).
    pub fn resume(&mut self, l: Loop, period: Millis, now: Millis, pushed_at: Millis) {
        let Some(mut at) = self.dormant.grid(l).take() else {
            return;
        };
        if at < now {
            at += (now - at + period - 1) / period * period;
        }
        if at == now && at - period <= pushed_at {
            at += period;
        }
        self.requeue(l.owner(), at, at - period, now, l.wake());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parked_loop_runs_its_due_iterations_and_goes_back_as_it_would_have_been() {
        let mut t = Timers::default();
        t.park(Loop::Status(1), 10, 0);
        assert_eq!(t.take_due(Loop::Status(1), 9, 100), None, "not due yet");
        assert_eq!(
            t.take_due(Loop::Status(1), 10, 0),
            Some(10),
            "due then, pushed no later"
        );
        t.park(Loop::Status(1), 20, 10);
        assert_eq!(t.take_due(Loop::Status(1), 20, 5), None, "pushed after the wake-up");
        t.push(20, 15, Wake::ProxySync);
        assert!(t.unpark(Loop::Status(1), 15));
        assert!(!t.unpark(Loop::Status(1), 15), "unparked once");
        assert_eq!(
            t.pop().map(|(at, _, w)| (at, w)),
            Some((20, Wake::StatusTick { node: 1 }))
        );
    }

    #[test]
    fn a_sleeping_loop_resumes_on_its_grid() {
        let mut t = Timers::default();
        t.sleep(Loop::Tainting, 100);
        t.resume(Loop::Tainting, 100, 250, 250);
        assert!(!t.asleep(Loop::Tainting));
        assert_eq!(t.pop().map(|(at, _, _)| at), Some(300));
        t.sleep(Loop::Reconciler, 100);
        t.resume(Loop::Reconciler, 100, 300, 150);
        assert_eq!(
            t.pop().map(|(at, _, _)| at),
            Some(300),
            "the tick at 300 was pushed after 150"
        );
        t.sleep(Loop::Reconciler, 100);
        t.resume(Loop::Reconciler, 100, 300, 250);
        assert_eq!(
            t.pop().map(|(at, _, _)| at),
            Some(400),
            "the tick at 300 came before the wake-up"
        );
    }

    #[test]
    fn an_owner_that_stops_ends_its_dormant_loops() {
        let mut t = Timers::default();
        t.park(Loop::Lease(0), 10, 0);
        t.park(Loop::Lease(1), 10, 0);
        t.sleep(Loop::Tainting, 100);
        t.cancel_owner(Owner::Kubelet(0));
        t.cancel_owner(Owner::ControllerManager);
        assert_eq!(t.parked(Loop::Lease(0)), None);
        assert!(t.parked(Loop::Lease(1)).is_some());
        assert!(!t.asleep(Loop::Tainting));
    }
}
