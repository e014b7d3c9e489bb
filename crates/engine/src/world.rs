//! What every controller acts on: the time, the apiserver's objects, the event log and the
//! timers. A controller's step takes the world (`&mut World`), reads and writes objects, records
//! events with their causes and plans its next wake-ups; the driver (`sim`) only dispatches the
//! wake-ups to the controllers. What a step needs of the machines (a power-off, a boot, a new
//! machine, a Node deletion that runs its kubelet's parked loops first) it asks for in
//! [`World::machines`]; the driver, which owns the kubelets, carries the requests out in order
//! when the step ends, before [`World::end_step`]. Pure: nothing here reads a clock or draws a
//! random number.

use crate::api::{Api, DeferredWrite, NodeId};
use crate::cause::Cause;
use crate::sched::{ActionKey, Owner, Timers, Wake};
use crate::time::Millis;
use crate::timeline::{EventId, Log};

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
    /// What the step under way asked of the machines, in order.
    pub machines: Vec<MachineRequest>,
}

/// What a control-plane step asks of the machines: the driver carries it out once the step
/// ends, in the order asked, before the step's API posts become wake-ups.
#[derive(Debug, Clone)]
pub enum MachineRequest {
    /// The node's machine powers off (its kubelet and containers stop, as in a crash); with
    /// `gone_at`, the provider reports its instance gone from then on.
    PowerOff {
        /// The node.
        node: NodeId,
        /// When the provider reports the instance gone, ms.
        gone_at: Option<Millis>,
    },
    /// The node's machine has booted again and its kubelet starts on the same Node: its fault
    /// ends for `why`; with `uncordon`, it registers the Node schedulable (a re-created VM),
    /// which ends a cordon, recorded with that cause.
    Boot {
        /// The node.
        node: NodeId,
        /// Why the fault ends.
        why: Cause,
        /// Why the Node comes back schedulable, if it does.
        uncordon: Option<Cause>,
    },
    /// A new machine for the absent spare node `node`, replacing node `old` for remediator
    /// `by`: its kubelet registers the Node at `at`.
    Create {
        /// The spare node.
        node: NodeId,
        /// The node it replaces.
        old: NodeId,
        /// The remediator's kind.
        by: &'static str,
        /// When its kubelet first tries to register, ms.
        at: Millis,
    },
    /// A created machine that never registered its Node is deleted: the registration never
    /// comes.
    Discard {
        /// The node.
        node: NodeId,
    },
    /// The Node object is deleted (its kubelet's parked loops run first), recorded with `cause`
    /// after `after`.
    DeleteNode {
        /// The node.
        node: NodeId,
        /// Why.
        cause: Cause,
        /// The event it follows.
        after: Option<EventId>,
    },
    /// A timer of the step's, queued once the requests before it are carried out, so that the
    /// step's timers and the machines' keep the order the step gave them.
    Then {
        /// Whose timer it is.
        owner: Owner,
        /// When it fires, ms.
        at: Millis,
        /// What wakes.
        wake: Wake,
    },
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

    /// Wakes `wake` at `at` for `owner`, after what the step asked of the machines so far.
    pub fn wake_after_machines(&mut self, owner: Owner, at: Millis, wake: Wake) {
        if self.machines.is_empty() {
            self.wake_for(owner, at, wake);
        } else {
            self.machines.push(MachineRequest::Then { owner, at, wake });
        }
    }

    /// Wakes `wake` at `at` for `owner`; the key cancels it alone.
    pub fn wake_keyed(&mut self, owner: Owner, at: Millis, wake: Wake) -> ActionKey {
        self.timers.push_keyed(owner, at, self.now, wake)
    }
}
