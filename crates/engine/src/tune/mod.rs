//! Asking it backwards: from a target ("firstReplacementReady within 60s at p95") to the
//! settings that meet it. `target` reads and judges targets against spreads over seeds, `goal`
//! is what a search is asked for, `space` the settings it varies and the relations between
//! them, `blip` the short partition fast settings must shrug off, `point` what one set of
//! settings measures, `pareto` the front, `reference` the version's defaults and kubespray's
//! profiles, `search` the search itself, in steps a page can interleave with its own work, and
//! `unmet` what its answer says of the goal as a whole.

pub mod blip;
pub mod goal;
pub mod pareto;
pub(crate) mod point;
pub(crate) mod reference;
pub(crate) mod search;
pub mod space;
pub(crate) mod target;
pub mod unmet;

pub use goal::Goal;
pub use point::{Percentiles, Point, Warning};
pub use reference::Reference;
pub use search::{Search, Tuned, SCREEN_SEEDS};
pub use target::{Target, Verdict};
pub use unmet::Unmet;

use crate::cause::Cause;
use crate::scenario::{Config, Scenario};

/// Runs a whole search: [`Search::new`], every step, [`Search::finish`].
pub fn tune(cfg: &Config, goal: Goal) -> Result<Tuned, Cause> {
    Ok(Search::new(cfg, goal)?.finish())
}

/// The scenario with a point's settings written into it through the flag catalogue (and the
/// workloads' own `tolerationSeconds` when the point moves them): it resolves to the
/// configuration the point was measured on.
pub fn apply(scenario: &Scenario, point: &Point) -> Scenario {
    let mut s = scenario.clone();
    space::write_settings(&mut s, &point.settings);
    s
}
