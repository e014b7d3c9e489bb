//! Distributions over seeds: one timeline is one sample of loops with unknown phases, so
//! "when will my pods move?" has a range for an answer.

use crate::scenario::Config;
use crate::sim::Simulation;
use crate::summary::summarize;
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Distribution {
    /// Number of runs.
    pub runs: u32,
    /// The first seed; run i used seed + i.
    pub first_seed: u64,
    /// The node whose milestones are measured (the first one with a fault), if any.
    pub node: Option<String>,
    /// Per milestone, from that node's fault: unknown, podsNotReady, taint, firstDeletion,
    /// lastDeletion, firstReplacementReady, replacementsReady.
    pub milestones: Vec<Spread>,
    /// Per workload, the time with fewer Ready pods than desired (`notFullyReadyMs`).
    pub not_fully_ready: Vec<Spread>,
}

/// Runs `cfg` with `runs` consecutive seeds starting at its own and gathers the milestones.
pub fn distribution(cfg: &Config, runs: u32) -> Distribution {
    let runs = runs.max(1);
    let mut per: Vec<Vec<Millis>> = vec![Vec::new(); 7];
    let mut gaps: Vec<Vec<Millis>> = vec![Vec::new(); cfg.workloads.len()];
    let mut node = None;
    for i in 0..runs {
        let mut c = cfg.clone();
        c.seed = cfg.seed.wrapping_add(u64::from(i));
        let mut sim = Simulation::new(c.clone(), false);
        sim.run();
        let s = summarize(
            &sim.w.log.events,
            &sim.w.api,
            &sim.workloads,
            String::new(),
            c.seed,
            c.duration,
        );
        if let Some(n) = s.nodes.first() {
            node = Some(n.node.clone());
            let f = n.fault_at_ms.unwrap_or(0);
            let values = [
                n.unknown_at_ms,
                n.pods_not_ready_at_ms,
                n.taint_at_ms,
                n.first_deletion_at_ms,
                n.last_deletion_at_ms,
                n.first_replacement_ready_at_ms,
                n.replacements_ready_at_ms,
            ];
            for (slot, v) in per.iter_mut().zip(values) {
                if let Some(v) = v {
                    slot.push(v - f);
                }
            }
        }
        for (slot, w) in gaps.iter_mut().zip(&s.workloads) {
            slot.push(w.not_fully_ready_ms);
        }
    }
    let names = [
        "unknown",
        "podsNotReady",
        "taint",
        "firstDeletion",
        "lastDeletion",
        "firstReplacementReady",
        "replacementsReady",
    ];
    let milestones = names
        .iter()
        .zip(per)
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
}
