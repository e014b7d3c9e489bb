//! What a search is asked for: targets, a cost ceiling, blip safety and the seeds per candidate.

use super::target::Target;
use crate::cause::Cause;
use crate::scenario::Config;
use crate::stats::offered;
use crate::time::{Millis, SECOND};

/// The blip a search checks when the goal names none: a 20-second partition.
pub const DEFAULT_BLIP: Millis = 20 * SECOND;
/// Seeds per candidate when the goal names no number.
pub const DEFAULT_SEEDS: u32 = 200;
/// The most seeds per candidate a goal may ask for.
pub const MAX_SEEDS: u32 = 10_000;

/// What the settings must achieve.
#[derive(Debug, Clone, PartialEq)]
pub struct Goal {
    /// The targets, each a milestone within a duration at a percentile over seeds.
    pub targets: Vec<Target>,
    /// The most heartbeat writes (Lease updates and node status patches) per minute at `nodes`
    /// nodes; `None`: no limit.
    pub max_writes_per_minute: Option<f64>,
    /// The cluster size the writes are counted at; `None`: the scenario's node count.
    pub nodes: Option<u32>,
    /// A network partition of this length (ms) on the faulted node must neither taint it
    /// NoExecute nor delete a pod, in any seed; `None`: no such check.
    pub blip: Option<Millis>,
    /// Seeds per candidate.
    pub seeds: u32,
}

impl Default for Goal {
    fn default() -> Goal {
        Goal::new(Vec::new())
    }
}

impl Goal {
    /// A goal of these targets with the default blip (20s), seeds (200) and no writes limit.
    pub fn new(targets: Vec<Target>) -> Goal {
        Goal {
            targets,
            max_writes_per_minute: None,
            nodes: None,
            blip: Some(DEFAULT_BLIP),
            seeds: DEFAULT_SEEDS,
        }
    }

    /// The cluster size writes are counted at.
    pub fn nodes_for(&self, cfg: &Config) -> u32 {
        self.nodes.unwrap_or(cfg.nodes.len() as u32)
    }

    /// Why the goal cannot be searched for on `cfg`, if it cannot.
    pub(crate) fn check(&self, cfg: &Config) -> Result<(), Cause> {
        if self.targets.is_empty() {
            return Err(Cause::new("tune.goal.no_target"));
        }
        if let Some(t) = self.targets.iter().find(|t| !offered(cfg, t.milestone)) {
            return Err(Cause::new("tune.goal.not_in_scenario").text("target", t.cli_text()));
        }
        if !(1..=MAX_SEEDS).contains(&self.seeds) {
            return Err(Cause::new("tune.goal.seeds")
                .text("max", MAX_SEEDS)
                .text("value", self.seeds));
        }
        if self.nodes == Some(0) {
            return Err(Cause::new("tune.goal.nodes"));
        }
        if let Some(w) = self.max_writes_per_minute.filter(|w| !w.is_finite() || *w < 0.0) {
            return Err(Cause::new("tune.goal.writes").text("value", w));
        }
        if let Some(b) = self.blip.filter(|b| *b <= 0) {
            return Err(Cause::new("tune.goal.blip").time("value", b));
        }
        Ok(())
    }
}
