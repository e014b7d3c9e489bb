//! kube-controller-manager's API clients and their rate limits.
//!
//! Every controller builds its own clientset (`ClientBuilder.ClientOrDie(<name>)`), and every
//! clientset has its own token bucket (`flowcontrol.NewTokenBucketRateLimiter(--kube-api-qps,
//! --kube-api-burst)`, 20 and 30 by default since 1.12), shared by all its requests, events
//! included (the event broadcaster writes through the same client). A request waits until the
//! bucket gives it a token; requests are served in the order they asked (golang.org/x/time/rate
//! reservations). In a small failure the burst covers every request at once; in a large one the
//! controllers fall behind, and their writes land seconds or minutes after their decisions.
//!
//! The node lifecycle controller and the taint eviction controller are both `node-controller`:
//! one client while the taint manager lived inside the node lifecycle controller, two separate
//! ones (two buckets) from 1.29 (`SeparateTaintEvictionController`).

use crate::time::Millis;
use std::ops::Index;

/// One client's token bucket (`rate.Limiter` with `Wait`).
#[derive(Debug, Clone, PartialEq)]
pub struct ApiClient {
    qps: f64,
    burst: f64,
    /// Tokens at `last`; negative while requests wait.
    tokens: f64,
    last: Millis,
    /// Requests sent, events included.
    pub requests: u64,
    /// When the last reserved request goes out, ms.
    pub last_sent: Millis,
}

impl ApiClient {
    /// A client with a full bucket.
    pub fn new(qps: f64, burst: u32) -> ApiClient {
        ApiClient {
            qps,
            burst: f64::from(burst),
            tokens: f64::from(burst),
            last: Millis::MIN,
            requests: 0,
            last_sent: Millis::MIN,
        }
    }

    /// Reserves `count` requests asked for at `now` (never earlier than a previous call); returns
    /// when the last of them is sent.
    pub fn send(&mut self, now: Millis, count: u32) -> Millis {
        if self.last != Millis::MIN && now > self.last {
            let refill = (now - self.last) as f64 / 1000.0 * self.qps;
            self.tokens = (self.tokens + refill).min(self.burst);
        }
        self.last = self.last.max(now);
        self.tokens -= f64::from(count);
        self.requests += u64::from(count);
        let at = if self.tokens >= -1e-9 {
            now
        } else {
            // The last request waits until enough tokens have accrued (rounded up to a whole ms).
            let wait_ms = (-self.tokens / self.qps * 1000.0 - 1e-6).ceil().max(0.0) as Millis;
            now + wait_ms
        };
        self.last_sent = self.last_sent.max(at);
        at
    }
}

/// Which controller makes a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Controller {
    /// The node lifecycle controller (`node-controller`).
    NodeLifecycle,
    /// The taint eviction controller (`node-controller`, its own client from 1.29).
    TaintEviction,
    /// `replicaset-controller`.
    ReplicaSet,
    /// `statefulset-controller`.
    StatefulSet,
    /// `daemon-set-controller`.
    DaemonSet,
    /// `pod-garbage-collector`.
    PodGc,
    /// `endpointslice-controller`.
    EndpointSlice,
    /// `attachdetach-controller`.
    AttachDetach,
    /// `disruption-controller`.
    Disruption,
}

impl Controller {
    /// Every controller, in the enum's order (which is its index in `PerController`).
    pub const ALL: [Controller; 9] = [
        Controller::NodeLifecycle,
        Controller::TaintEviction,
        Controller::ReplicaSet,
        Controller::StatefulSet,
        Controller::DaemonSet,
        Controller::PodGc,
        Controller::EndpointSlice,
        Controller::AttachDetach,
        Controller::Disruption,
    ];

    /// A short key for summaries.
    pub fn key(self) -> &'static str {
        match self {
            Controller::NodeLifecycle => "nodeLifecycle",
            Controller::TaintEviction => "taintEviction",
            Controller::ReplicaSet => "replicaSet",
            Controller::StatefulSet => "statefulSet",
            Controller::DaemonSet => "daemonSet",
            Controller::PodGc => "podGc",
            Controller::EndpointSlice => "endpointSlice",
            Controller::AttachDetach => "attachDetach",
            Controller::Disruption => "disruption",
        }
    }

    /// The client's name, as kube-controller-manager gives it.
    pub fn client_name(self) -> &'static str {
        match self {
            Controller::NodeLifecycle | Controller::TaintEviction => "node-controller",
            Controller::ReplicaSet => "replicaset-controller",
            Controller::StatefulSet => "statefulset-controller",
            Controller::DaemonSet => "daemon-set-controller",
            Controller::PodGc => "pod-garbage-collector",
            Controller::EndpointSlice => "endpointslice-controller",
            Controller::AttachDetach => "attachdetach-controller",
            Controller::Disruption => "disruption-controller",
        }
    }
}

/// One value per controller, in a slot indexed by the enum: there are only nine controllers, so an
/// array is smaller in the wasm than a map and is read without a search.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PerController<T>([T; 9]);

impl<T> PerController<T> {
    fn slot(&mut self, who: Controller) -> &mut T {
        &mut self.0[who as usize]
    }
}

impl PerController<u64> {
    /// The controllers that made requests and how many, in the enum's order.
    pub fn iter(&self) -> impl Iterator<Item = (Controller, &u64)> {
        Controller::ALL.into_iter().zip(&self.0).filter(|(_, n)| **n > 0)
    }
}

impl<T> Index<&Controller> for PerController<T> {
    type Output = T;

    fn index(&self, who: &Controller) -> &T {
        &self.0[*who as usize]
    }
}

/// Every controller's client in one kube-controller-manager process.
#[derive(Debug, Clone, PartialEq)]
pub struct Clients {
    qps: f64,
    burst: u32,
    /// Whether the taint eviction controller has its own client (1.29+).
    separate_taint_eviction: bool,
    /// Each controller's client, built on its first request.
    clients: PerController<Option<ApiClient>>,
    /// Requests per controller over the run (kept across restarts).
    pub totals: PerController<u64>,
}

impl Default for Clients {
    fn default() -> Self {
        Clients::new(20.0, 30, true)
    }
}

impl Clients {
    /// Fresh clients with `--kube-api-qps` and `--kube-api-burst`.
    pub fn new(qps: f64, burst: u32, separate_taint_eviction: bool) -> Clients {
        Clients {
            qps,
            burst,
            separate_taint_eviction,
            clients: PerController::default(),
            totals: PerController::default(),
        }
    }

    /// `--kube-api-qps` (requests/s) and `--kube-api-burst`, every client's.
    pub fn limits(&self) -> (f64, u32) {
        (self.qps, self.burst)
    }

    /// When `who`'s last reserved request goes out (`Millis::MIN` before any), ms.
    pub fn last_sent(&self, who: Controller) -> Millis {
        let key = if who == Controller::TaintEviction && !self.separate_taint_eviction {
            Controller::NodeLifecycle
        } else {
            who
        };
        self.clients[&key].as_ref().map_or(Millis::MIN, |c| c.last_sent)
    }

    /// A restarted process builds new clients, with full buckets.
    pub fn restart(&mut self) {
        self.clients = PerController::default();
    }

    /// Reserves `count` requests of `who` at `now`; returns when the last is sent.
    pub fn send(&mut self, who: Controller, now: Millis, count: u32) -> Millis {
        if count == 0 {
            return now;
        }
        let key = if who == Controller::TaintEviction && !self.separate_taint_eviction {
            Controller::NodeLifecycle
        } else {
            who
        };
        if now >= 0 {
            *self.totals.slot(who) += u64::from(count);
        }
        let (qps, burst) = (self.qps, self.burst);
        self.clients
            .slot(key)
            .get_or_insert_with(|| ApiClient::new(qps, burst))
            .send(now, count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_burst_goes_at_once_and_the_rest_at_the_rate() {
        let mut c = ApiClient::new(20.0, 30);
        let times: Vec<Millis> = (0..33).map(|_| c.send(0, 1)).collect();
        assert!(times[..30].iter().all(|&t| t == 0));
        assert_eq!(&times[30..], &[50, 100, 150]);
        // After a quiet second, 20 tokens are back.
        assert_eq!(c.send(1_150, 20), 1_150);
        assert_eq!(c.send(1_150, 1), 1_200);
    }

    #[test]
    fn the_taint_eviction_controller_shares_the_node_controller_bucket_before_1_29() {
        let mut shared = Clients::new(20.0, 30, false);
        assert_eq!(shared.send(Controller::NodeLifecycle, 0, 30), 0);
        assert_eq!(shared.send(Controller::TaintEviction, 0, 1), 50);
        let mut separate = Clients::new(20.0, 30, true);
        assert_eq!(separate.send(Controller::NodeLifecycle, 0, 30), 0);
        assert_eq!(separate.send(Controller::TaintEviction, 0, 1), 0);
        assert_eq!(separate.totals[&Controller::NodeLifecycle], 30);
    }
}
