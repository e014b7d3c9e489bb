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
// the kubelet, the scheduler) is the crate's own.
pub mod calibration;
pub mod cause;
pub mod chain;
pub mod cost;
pub mod export;
pub mod import;
pub mod milestones;
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
pub(crate) mod kubelet;
pub(crate) mod network;
pub(crate) mod rng;
pub(crate) mod sched;
pub(crate) mod sim;
pub(crate) mod timeline;
pub(crate) mod world;

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

pub use cause::Cause;
pub use scenario::flags;
pub use scenario::settings;
pub use scenario::{Config, Scenario, ScenarioError};
pub use stats::{distribution, Distribution, Spread};
pub use summary::Summary;
pub use time::{format_go_duration, parse_go_duration, Millis};
pub use timeline::{EventKind, ZoneState};
pub use version::Version;

use serde::Serialize;

/// Options of a run that do not change what happens, only what is recorded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// Record `LeaseRenewed` and `NodeStatusPatched` events.
    pub heartbeats: bool,
}

/// One event with names instead of indices: the pinned JSON form.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TimelineEvent {
    /// Its place in [`Outcome::events`], which other events' `after` name.
    pub id: usize,
    /// When, ms from the start of the run.
    pub at_ms: Millis,
    /// What.
    pub kind: EventKind,
    /// The node, if any.
    pub node: Option<String>,
    /// The pod, if any.
    pub pod: Option<String>,
    /// The taint, as `key:Effect`, if any.
    pub taint: Option<String>,
    /// The zone, for zone events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// The zone's new state, for zone events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<ZoneState>,
    /// The Service, for endpoint and traffic events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub service: Option<String>,
    /// The volume, for volume events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub volume: Option<String>,
    /// The remediator, for `RemediationStarted` and `RemediationBlocked`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remediator: Option<String>,
    /// Why it happened (serialized as its English text).
    pub cause: Cause,
    /// The event that made this one possible (its `id`), if any: following `after` back walks
    /// the chain that led here, to a fault or an operator's action.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<usize>,
}

/// What a run produced.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Outcome {
    /// Events in time order.
    pub events: Vec<TimelineEvent>,
    /// Figures over the run.
    pub summary: Summary,
    /// Messages about settings worth a second look (serialized as their English text).
    pub warnings: Vec<Cause>,
}

impl Outcome {
    /// The pinned JSON form: `{"events": [...], "summary": {...}, "warnings": [...]}`.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("an Outcome always serializes")
    }
}

/// Runs a resolved scenario.
pub fn run(cfg: &Config, opts: &RunOptions) -> Outcome {
    let mut sim = sim::Simulation::new(cfg.clone(), opts.heartbeats);
    sim.run();
    let events = std::mem::take(&mut sim.w.log.events);
    let mut summary = summary::summarize(
        &events,
        &sim.w.api,
        &sim.workloads,
        cfg.profile.version.to_string(),
        cfg.seed,
        cfg.duration,
    );
    let services: Vec<Option<(String, u32)>> = cfg
        .workloads
        .iter()
        .enumerate()
        .map(|(w, s)| {
            s.service
                .then(|| (s.name.clone(), sim.workloads.desired(w, &sim.w.api)))
        })
        .collect();
    summary.services = sim
        .proxy
        .summaries(&sim.w.api, &services, &sim.eps.ready_counts, cfg.duration);
    let api = &sim.w.api;
    let named: Vec<TimelineEvent> = events
        .into_iter()
        .enumerate()
        .map(|(id, e)| TimelineEvent {
            id,
            at_ms: e.at,
            kind: e.kind,
            node: e.node.map(|n| api.nodes[n].name.clone()),
            pod: e.pod.map(|p| api.pods[p].name.clone()),
            taint: e.taint,
            zone: e.zone,
            state: e.state,
            service: e.service.map(|w| cfg.workloads[w].name.clone()),
            volume: e.volume,
            remediator: e.remediator,
            cause: e.cause,
            after: e.after,
        })
        .collect();
    summary.volumes = summary::volume_summaries(&named);
    let mut warnings = cfg.warnings.clone();
    warnings.extend(sim.warnings.iter().cloned());
    Outcome {
        events: named,
        summary,
        warnings,
    }
}

/// Reads, resolves and runs a JSON scenario.
pub fn run_json(text: &str, opts: &RunOptions) -> Result<Outcome, ScenarioError> {
    let cfg = Scenario::from_json(text)?.resolve()?;
    Ok(run(&cfg, opts))
}
