//! What every controller acts on: the time, the apiserver's objects, the event log and the
//! timers. A controller's step takes the world (`&mut World`), reads and writes objects, records
//! events with their causes and plans its next wake-ups; the driver (`sim`) only dispatches the
//! wake-ups to the controllers. Pure: nothing here reads a clock or draws a random number.

use crate::api::{Api, DeferredWrite, NodeId};
use crate::sched::{ActionKey, Owner, Timers, Wake};
use crate::time::Millis;
use crate::timeline::Log;

/// The shared state of a run.
#[derive(Debug, Clone, Default)]
pub struct World {
    /// The current simulated time, ms.
    pub now: Millis,
    /// When the wake-up being handled was pushed, ms (it orders work within one millisecond).
    pub pushed_at: Millis,
    /// The apiserver: objects, write counts, watch notifications, clients.
    pub api: Api,
    /// The recorded events.
    pub log: Log,
    /// The wake-ups to come.
    pub timers: Timers,
    /// Writes held back by their client's rate limiter, by slot ([`Wake::Apply`]).
    pub held: Vec<Option<DeferredWrite>>,
}

impl World {
    /// Ends a step: what it sent becomes wake-ups. Each held-back write is queued for when its
    /// client sends it (kube-controller-manager's: lost if it stops first), then each watch
    /// notification for when the informers see it. Returns the nodes whose taints changed.
    pub fn end_step(&mut self) -> Vec<NodeId> {
        let posts = std::mem::take(&mut self.api.posts);
        for p in posts.held {
            self.held.push(Some(p.write));
            let slot = self.held.len() - 1;
            self.wake_for(Owner::ControllerManager, p.at, Wake::Apply { slot });
        }
        for (at, w) in posts.watches {
            self.wake(at.max(self.now), Wake::Watch(w));
        }
        posts.tainted
    }

    /// Sends the write held in `slot` now, unless `sent` is false (kube-controller-manager
    /// stopped since: the request never went out).
    pub fn apply_held(&mut self, slot: usize, sent: bool) {
        if let Some(write) = self.held[slot].take().filter(|_| sent) {
            self.api.apply(self.now, write, &mut self.log);
        }
    }

    /// Wakes `wake` at `at`; nothing cancels it.
    pub fn wake(&mut self, at: Millis, wake: Wake) {
        self.timers.push(at, self.now, wake);
    }

    /// Wakes `wake` at `at` for `owner`: cancelled if the owner stops first.
    pub fn wake_for(&mut self, owner: Owner, at: Millis, wake: Wake) {
        self.timers.push_for(owner, at, self.now, wake);
    }

    /// Wakes `wake` at `at` for `owner`; the key cancels it alone.
    pub fn wake_keyed(&mut self, owner: Owner, at: Millis, wake: Wake) -> ActionKey {
        self.timers.push_keyed(owner, at, self.now, wake)
    }
}
