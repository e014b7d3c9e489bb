//! What every controller acts on: the time, the apiserver's objects, the event log and the
//! timers. A controller's step takes the world (`&mut World`), reads and writes objects, records
//! events with their causes and plans its next wake-ups; the driver (`sim`) only dispatches the
//! wake-ups to the controllers. Pure: nothing here reads a clock or draws a random number.

use crate::api::Api;
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
}

impl World {
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
