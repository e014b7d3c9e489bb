//! Distributions over seeds: one timeline is one sample of loops with unknown phases, so
//! "when will my pods move?" has a range for an answer.

use crate::milestones::Restored;
use crate::outcome::{Outcome, RunOptions};
use crate::scenario::{ActionKind, Config, WorkloadKind};
use crate::time::Millis;
use serde::{Deserialize, Serialize};

/// The spread of one milestone over runs, in ms from the first fault.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Spread {
    /// Milestone name.
    pub milestone: String,
    /// Runs in which it happened.
    pub count: u32,
    /// Runs in which it never happened.
    pub never: u32,
    /// Smallest value.
    pub min: Option<Millis>,
    /// Median (nearest rank).
    pub p50: Option<Millis>,
    /// 95th percentile (nearest rank).
    pub p95: Option<Millis>,
    /// Largest value.
    pub max: Option<Millis>,
    /// Every sample, sorted, for histograms.
    pub samples: Vec<Millis>,
}

impl Spread {
    /// The spread of `values` (those that happened) over `runs`.
    pub fn of(milestone: &str, mut values: Vec<Millis>, runs: u32) -> Spread {
        crate::order::sort(&mut values);
        let rank = |q: f64| -> Option<Millis> {
            if values.is_empty() {
                return None;
            }
            let i = ((q * values.len() as f64).ceil() as usize).clamp(1, values.len()) - 1;
            Some(values[i])
        };
        Spread {
            milestone: milestone.to_string(),
            count: values.len() as u32,
            never: runs - values.len() as u32,
            min: values.first().copied(),
            p50: rank(0.5),
            p95: rank(0.95),
            max: values.last().copied(),
            samples: values,
        }
    }
}

/// Milestones over many seeds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Distribution {
    /// Number of runs.
    pub runs: u32,
    /// The first seed; run i used seed + i.
    pub first_seed: u64,
    /// The node whose milestones are measured (the first one with a fault), if any.
    pub node: Option<String>,
    /// Per milestone of [`MILESTONES`] that the scenario can reach, from that node's fault.
    pub milestones: Vec<Spread>,
    /// Per workload, the time with fewer Ready pods than desired (`notFullyReadyMs`).
    pub not_fully_ready: Vec<Spread>,
    /// Per client (its name in `milestone`), `clientErrorsEnded`: its last error after that
    /// node's fault (`lastErrorMs`), from the fault; 0 in a run where it saw none, never in one
    /// where its errors outlasted the run.
    /// Always written: the page's workers carry a distribution in bincode, which reads every
    /// field.
    #[cfg(feature = "clients")]
    #[serde(default)]
    pub client_errors_ended: Vec<Spread>,
}

/// The milestones a distribution measures, by the names `kubelife run --runs` reports: the
/// failed node's own (from the summary), then those of the page's cards (from
/// [`crate::milestones`]).
pub const MILESTONES: [&str; 14] = [
    "unknown",
    "podsNotReady",
    "taint",
    "firstDeletion",
    "lastDeletion",
    "firstReplacementReady",
    "replacementsReady",
    "nodeDeleted",
    "remediationStarted",
    "trafficStopped",
    "serviceRestored",
    "volumeFree",
    "databaseReady",
    "clientErrorsEnded",
];

/// One run's milestones in the order of [`MILESTONES`], ms from the first faulted node's fault;
/// `None` for one that did not happen. "serviceRestored" is 0 when a Service never lost a
/// serving pod, and absent without a Service; "clientErrorsEnded" is the last error of any
/// client, 0 when none saw an error, absent when one's errors outlasted the run or the scenario
/// has no client.
pub fn run_milestones(o: &Outcome, cfg: &Config) -> Option<[Option<Millis>; MILESTONES.len()]> {
    let n = o.summary.nodes.first()?;
    let f = n.fault_at_ms.unwrap_or(0);
    let rel = |v: Option<Millis>| v.map(|v| v - f);
    let m = crate::milestones::milestones(o);
    let restored = match m.service_restored {
        _ if o.summary.services.is_empty() => None,
        Restored::Uninterrupted => Some(0),
        Restored::At(t) => Some(t),
        Restored::Never => None,
    };
    Some([
        rel(n.unknown_at_ms),
        rel(n.pods_not_ready_at_ms),
        rel(n.taint_at_ms),
        rel(n.first_deletion_at_ms),
        rel(n.last_deletion_at_ms),
        rel(n.first_replacement_ready_at_ms),
        rel(n.replacements_ready_at_ms),
        m.node_deleted,
        m.remediation,
        m.traffic_stopped,
        restored,
        m.volume_free,
        crate::milestones::database_ready(o, &cfg.workloads, f),
        clients_ended(o, cfg, f),
    ])
}

#[cfg(feature = "clients")]
fn clients_ended(o: &Outcome, cfg: &Config, fault: Millis) -> Option<Millis> {
    if cfg.clients.is_empty() {
        return None;
    }
    // Every client's: never when one's never ended, else the latest.
    let ends = crate::milestones::client_errors_ended(o, fault);
    ends.iter().try_fold(0, |latest, end| end.map(|t| latest.max(t)))
}

#[cfg(not(feature = "clients"))]
fn clients_ended(_: &Outcome, _: &Config, _: Millis) -> Option<Millis> {
    None
}

/// Runs `cfg` with `runs` consecutive seeds starting at its own and gathers the milestones. A
/// milestone that cannot happen in this scenario (traffic without a Service, a volume without
/// one, a database without a StatefulSet with a volume) is left out.
pub fn distribution(cfg: &Config, runs: u32) -> Distribution {
    let runs = runs.max(1);
    let mut per: Vec<Vec<Millis>> = vec![Vec::new(); MILESTONES.len()];
    let mut gaps: Vec<Vec<Millis>> = vec![Vec::new(); cfg.workloads.len()];
    #[cfg(feature = "clients")]
    let mut client_ends: Vec<Vec<Millis>> = vec![Vec::new(); cfg.clients.len()];
    let mut node = None;
    let quiet = RunOptions { heartbeats: false };
    for i in 0..runs {
        let mut c = cfg.clone();
        c.seed = cfg.seed.wrapping_add(u64::from(i));
        let o = crate::run::run(&c, &quiet);
        if let Some(values) = run_milestones(&o, &c) {
            node = o.summary.nodes.first().map(|n| n.node.clone());
            for (slot, v) in per.iter_mut().zip(values) {
                slot.extend(v);
            }
        }
        for (slot, w) in gaps.iter_mut().zip(&o.summary.workloads) {
            slot.push(w.not_fully_ready_ms);
        }
        #[cfg(feature = "clients")]
        {
            let fault = crate::milestones::fault_at(&o);
            for (slot, end) in client_ends
                .iter_mut()
                .zip(crate::milestones::client_errors_ended(&o, fault))
            {
                slot.extend(end);
            }
        }
    }
    let milestones = MILESTONES
        .iter()
        .zip(per)
        .filter(|(name, _)| offered(cfg, name))
        .map(|(name, v)| Spread::of(name, v, runs))
        .collect();
    let not_fully_ready = cfg
        .workloads
        .iter()
        .zip(gaps)
        .map(|(w, v)| Spread::of(&w.name, v, runs))
        .collect();
    Distribution {
        runs,
        first_seed: cfg.seed,
        node,
        milestones,
        not_fully_ready,
        #[cfg(feature = "clients")]
        client_errors_ended: cfg
            .clients
            .iter()
            .zip(client_ends)
            .map(|(c, v)| Spread::of(&c.name, v, runs))
            .collect(),
    }
}

/// Whether the scenario can reach milestone `name` (as in [`MILESTONES`]): traffic and the
/// Service need a Service, the volume a volume, the database a StatefulSet with a volume; the
/// Node's deletion a cloud, a remediator or an operator's `DeleteNode`; a remediation a
/// remediator; the clients' errors a client (and an engine built with them).
pub fn offered(cfg: &Config, name: &str) -> bool {
    match name {
        "nodeDeleted" => {
            cfg.cloud.is_some()
                || !cfg.remediation.is_empty()
                || cfg.actions.iter().any(|a| a.action == ActionKind::DeleteNode)
        }
        "remediationStarted" => !cfg.remediation.is_empty(),
        "clientErrorsEnded" => has_clients(cfg),
        "trafficStopped" | "serviceRestored" => cfg.workloads.iter().any(|w| w.service),
        "volumeFree" => cfg.workloads.iter().any(|w| w.volume.is_some()),
        "databaseReady" => cfg
            .workloads
            .iter()
            .any(|w| w.kind == WorkloadKind::StatefulSet && w.volume.is_some()),
        _ => MILESTONES.contains(&name),
    }
}

/// Whether this build of the engine can measure milestone `name` in some scenario: the clients'
/// need the `clients` feature, which the page's build leaves out.
pub fn measurable(name: &str) -> bool {
    name != "clientErrorsEnded" || cfg!(feature = "clients")
}

#[cfg(feature = "clients")]
fn has_clients(cfg: &Config) -> bool {
    !cfg.clients.is_empty()
}

#[cfg(not(feature = "clients"))]
fn has_clients(_: &Config) -> bool {
    false
}

impl Distribution {
    /// The spread of milestone `name` (as in [`MILESTONES`]), if this scenario has it.
    pub fn spread(&self, name: &str) -> Option<&Spread> {
        self.milestones.iter().find(|s| s.milestone == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let s = Spread::of("x", (1..=100).rev().collect(), 120);
        assert_eq!((s.min, s.p50, s.p95, s.max), (Some(1), Some(50), Some(95), Some(100)));
        assert_eq!((s.count, s.never), (100, 20));
        let empty = Spread::of("x", vec![], 3);
        assert_eq!((empty.p50, empty.never), (None, 3));
    }

    #[test]
    fn the_cards_milestones_over_seeds() {
        // The default cluster with web behind a Service and db on a ReadWriteOnce volume: node-1
        // stays down, so the Service is whole again once web's replacement is Ready, while db-0
        // waits on the node for good and neither its volume nor the database comes back.
        let mut s = crate::presets::default_cluster("1.33");
        s.workloads[0].service = Some(crate::scenario::ServiceField::Enabled(true));
        s.workloads[1].volume = Some(crate::scenario::VolumeSection {
            access_mode: Some("ReadWriteOnce".into()),
            per_pod: Some(true),
        });
        let cfg = s.resolve().unwrap();
        let d = distribution(&cfg, 5);
        let names: Vec<&str> = d.milestones.iter().map(|s| s.milestone.as_str()).collect();
        let offered: Vec<&str> = MILESTONES
            .into_iter()
            .filter(|m| !["nodeDeleted", "remediationStarted", "clientErrorsEnded"].contains(m))
            .collect();
        assert_eq!(
            names, offered,
            "no cloud, no remediator: nothing deletes the Node; no client"
        );
        let get = |n: &str| d.spread(n).unwrap();
        let (taint, restored) = (get("taint"), get("serviceRestored"));
        assert_eq!((restored.count, taint.count), (5, 5));
        assert!(restored.min > taint.max, "{restored:?} {taint:?}");
        assert!(get("trafficStopped").min >= get("unknown").min);
        assert_eq!((get("volumeFree").never, get("databaseReady").never), (5, 5));
        // Seed by seed, the same numbers as one run's cards.
        for i in 0..5 {
            let mut c = cfg.clone();
            c.seed += i;
            let o = crate::run::run(&c, &RunOptions { heartbeats: false });
            let m = crate::milestones::milestones(&o);
            assert!(get("trafficStopped").samples.contains(&m.traffic_stopped.unwrap()));
        }
        // Without a Service or a volume, those milestones are not offered.
        let plain = crate::presets::default_cluster("1.33").resolve().unwrap();
        assert_eq!(distribution(&plain, 1).milestones.len(), 7);
    }
}
