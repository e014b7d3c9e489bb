//! # kubelife-engine
//!
//! A pure, seeded discrete-event model of how Kubernetes notices a dead node and moves its pods:
//! kubelet heartbeats (status and Lease), the node lifecycle controller's grace period, Unknown
//! marking and rate-limited NoExecute tainting, taint eviction with admission-time tolerations,
//! workload controllers, a scheduler, and pod readiness.
//!
//! The engine knows nothing of the DOM, wall clocks or global randomness: time is an integer
//! (milliseconds), and all randomness comes from the scenario's seed, so one scenario always gives
//! one timeline, natively and in WebAssembly.
//!
//! ```
//! let json = r#"{ "version": "1.32", "nodes": [{"name": "node-1"}, {"name": "node-2"}],
//!   "workloads": [{"kind": "Deployment", "name": "web", "replicas": 2}],
//!   "events": [{"at": "60s", "action": "NodeCrash", "node": "node-1"}] }"#;
//! let outcome = kubelife_engine::run_json(json, &kubelife_engine::RunOptions::default()).unwrap();
//! let node = &outcome.summary.nodes[0];
//! let unknown = node.unknown_at_ms.unwrap() - node.fault_at_ms.unwrap();
//! assert!(unknown > 39_000 && unknown <= 55_100);
//! ```

// The public surface: the scenario format and its flag catalogue (`flags`), `run` and its
// outcome (with the wire form and the chains of events), import, export, the messages and Go
// durations, presets and spreads. The model itself (the apiserver's objects, the controllers,
// the kubelet, the scheduler) is the crate's own. This file only declares modules and
// re-exports: what a run gives lives in `outcome`, running in `run`.
pub mod advice;
pub mod calibration;
pub mod cause;
pub mod chain;
pub mod cost;
pub mod export;
pub mod import;
pub mod milestones;
pub mod names;
pub mod order;
pub mod presets;
pub mod render;
pub mod scenario;
pub mod stats;
pub mod summary;
pub mod time;
pub mod tune;
pub mod upstream;
pub mod version;
pub mod wire;

pub(crate) mod api;
pub(crate) mod control_plane;
pub(crate) mod idmap;
pub(crate) mod kubelet;
pub(crate) mod network;
pub(crate) mod outcome;
pub(crate) mod rng;
pub(crate) mod run;
pub(crate) mod sched;
pub(crate) mod sim;
pub(crate) mod timeline;
pub(crate) mod world;

pub use cause::Cause;
pub use outcome::{Outcome, RunOptions, TimelineEvent};
pub use run::{run, run_json};
pub use scenario::flags;
pub use scenario::settings;
pub use scenario::{Config, Scenario, ScenarioError};
pub use stats::{distribution, Distribution, Spread};
pub use summary::Summary;
pub use time::{format_go_duration, parse_go_duration, Millis};
pub use timeline::{EventKind, ZoneState};
pub use version::Version;

// The upstream test cases that drive the controllers directly (spec §8) reach the crate's
// internals, so they are compiled with it; they name it as the integration tests do.
#[cfg(test)]
extern crate self as kubelife_engine;
#[cfg(test)]
#[path = "../tests/engine/cloud_golden.rs"]
mod cloud_golden;
#[cfg(test)]
#[path = "../tests/engine/common.rs"]
#[allow(dead_code)]
mod common;
#[cfg(test)]
#[path = "../tests/engine/golden.rs"]
mod golden;
#[cfg(test)]
#[path = "../tests/engine/remediation_golden.rs"]
mod remediation_golden;
#[cfg(test)]
#[path = "../tests/engine/shutdown_eviction.rs"]
mod shutdown_eviction;
