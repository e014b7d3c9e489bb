//! The search: every candidate of the space runs on the first [`SCREEN_SEEDS`] seeds, then the
//! candidates on the Pareto front run on the rest of the goal's seeds, until every point on the
//! front has run on all of them (a candidate that joins the front once others moved is run on
//! them too). Seeds are the scenario's seed and the next ones, as `stats::distribution` takes
//! them, so a candidate's figures are that function's over the same runs. The work comes in
//! steps of at most [`SEEDS_PER_STEP`] seeds of one candidate, so that a page can report
//! progress and stop between two.

use super::blip::{blip_config, disrupted, fault};
use super::goal::Goal;
use super::pareto::{cheaper_first, front};
use super::point::{Percentiles, Point, Warning};
use super::reference::{configs, Reference};
use super::space::{Knob, Space};
use super::unmet::{forced_warnings, unmet, Unmet};
use crate::cause::Cause;
use crate::cost::{heartbeat_writes_per_minute, writes_floor};
use crate::outcome::RunOptions;
use crate::scenario::Config;
use crate::stats::{offered, run_milestones, Spread, MILESTONES};
use crate::time::Millis;
use std::collections::{BTreeMap, VecDeque};

/// The seeds every candidate runs on in the first pass.
pub const SCREEN_SEEDS: u32 = 25;
/// The most seeds of one candidate a step runs (each with its blip run).
pub const SEEDS_PER_STEP: u32 = 10;

/// One configuration and what its runs have given so far.
#[derive(Debug, Clone)]
struct Measured {
    cfg: Config,
    blip: Option<Config>,
    settings: BTreeMap<String, String>,
    /// Per milestone of [`MILESTONES`], the runs' values.
    samples: Vec<Vec<Millis>>,
    runs: u32,
    blip_safe: bool,
    point: Option<Point>,
}

impl Measured {
    fn new(cfg: Config, blip: Option<Config>, settings: BTreeMap<String, String>) -> Measured {
        Measured {
            cfg,
            blip,
            settings,
            samples: vec![Vec::new(); MILESTONES.len()],
            runs: 0,
            blip_safe: true,
            point: None,
        }
    }

    /// Runs the next seeds, up to `to` runs in all and at most [`SEEDS_PER_STEP`]; how many.
    fn run(&mut self, to: u32) -> u32 {
        let quiet = RunOptions { heartbeats: false };
        let end = to.min(self.runs + SEEDS_PER_STEP);
        let ran = end.saturating_sub(self.runs);
        for i in self.runs..end {
            let mut c = self.cfg.clone();
            c.seed = self.cfg.seed.wrapping_add(u64::from(i));
            let o = crate::run::run(&c, &quiet);
            if let Some(values) = run_milestones(&o, &c) {
                for (slot, v) in self.samples.iter_mut().zip(values) {
                    slot.extend(v);
                }
            }
            if let Some(b) = self.blip.as_ref().filter(|_| self.blip_safe) {
                let mut c = b.clone();
                c.seed = b.seed.wrapping_add(u64::from(i));
                self.blip_safe = !disrupted(&crate::run::run(&c, &quiet));
            }
        }
        self.runs = end.max(self.runs);
        self.point = None;
        ran
    }

    /// The point its runs so far give.
    fn point(&mut self, goal: &Goal, nodes: u32) -> &Point {
        let (cfg, runs, samples) = (&self.cfg, self.runs, &self.samples);
        let (settings, blip_safe) = (&self.settings, self.blip_safe);
        self.point.get_or_insert_with(|| {
            let spreads: Vec<Spread> = MILESTONES
                .iter()
                .zip(samples)
                .filter(|(name, _)| offered(cfg, name))
                .map(|(name, v)| Spread::of(name, v.clone(), runs))
                .collect();
            let value = |name: &str, pct: u8| {
                let s = spreads.iter().find(|s| s.milestone == name);
                s.and_then(|s| super::target::percentile(s, pct))
            };
            let mut p = Point {
                settings: settings.clone(),
                milestones: crate::order::map(spreads.iter().map(|s| (s.milestone.clone(), Percentiles::of(s)))),
                targets: goal.targets.iter().map(|t| value(t.milestone, t.percentile)).collect(),
                writes_per_minute: heartbeat_writes_per_minute(cfg, nodes),
                blip_safe,
                meets: false,
                seeds: runs,
                warnings: Warning::of(cfg),
            };
            p.meets = p.meets_goal(goal);
            p
        })
    }
}

/// One slice of work: run a candidate (or a reference) up to a number of seeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Work {
    Candidate(usize, u32),
    Reference(usize, u32),
}

/// A search in progress.
#[derive(Debug, Clone)]
pub struct Search {
    goal: Goal,
    nodes: u32,
    candidates: Vec<Measured>,
    references: Vec<(String, Measured)>,
    queue: VecDeque<Work>,
    total: u32,
    done: u32,
    /// The writes no candidate can go under (`cost::writes_floor`).
    floor: f64,
}

/// The measured front, the best point, the references and every candidate; the warnings the
/// goal forces and what of it no candidate meets.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tuned {
    /// The points no candidate dominates, fewest writes first; each measured on all the goal's
    /// seeds.
    pub front: Vec<Point>,
    /// Among the points that meet the goal, one with the fewest warnings, and among those the
    /// one with the fewest writes (then the earliest first target); `None` when none meets it.
    /// A point with a warning is never best while a warning-free one meets the goal.
    pub best: Option<Point>,
    /// The version's defaults and kubespray's profiles, measured the same way.
    pub references: Vec<Reference>,
    /// Every candidate of the space, in the space's order, as far as it was measured.
    pub candidates: Vec<Point>,
    /// The warning keys every point of the front that meets the goal carries: those the goal
    /// forces (none when no point meets it).
    pub forced_warnings: Vec<String>,
    /// The targets (by milestone) and the writes ceiling no candidate meets, each with the
    /// closest a candidate came.
    pub unmet: Vec<Unmet>,
    /// The cluster size the writes are counted at.
    pub nodes: u32,
    /// The blip the candidates were checked against, ms (`None`: not checked).
    pub blip: Option<Millis>,
}

impl Search {
    /// A search of `cfg`'s space for `goal`: refused with a catalogue message when the goal has
    /// no target, a target the scenario cannot reach, bad numbers, or the scenario no fault.
    pub fn new(cfg: &Config, goal: Goal) -> Result<Search, Cause> {
        Search::in_space(cfg, goal, &Space::of(cfg))
    }

    /// A search over a space of `cfg`'s ([`Space::of`]) whose axes may have fewer values: a
    /// coarser search, or a test's.
    pub fn in_space(cfg: &Config, goal: Goal, space: &Space) -> Result<Search, Cause> {
        goal.check(cfg)?;
        let fault = fault(cfg).cloned().ok_or_else(|| Cause::new("tune.goal.no_fault"))?;
        let measured = |c: Config, workloads: bool| {
            let blip = goal.blip.map(|b| blip_config(&c, &fault, b));
            let settings = space.settings(&c, workloads);
            Measured::new(c, blip, settings)
        };
        let candidates: Vec<Measured> = space
            .candidates(cfg)
            .into_iter()
            .map(|values| {
                let mut c = cfg.clone();
                let values: Vec<Option<i64>> = values.into_iter().map(Some).collect();
                space.write(&mut c, &values, true);
                measured(c, true)
            })
            .collect();
        if candidates.is_empty() {
            return Err(Cause::new("tune.goal.no_candidates").text("version", cfg.profile.version));
        }
        let references: Vec<(String, Measured)> = configs(cfg, space)
            .into_iter()
            .map(|(name, c)| (name, measured(c, false)))
            .collect();
        let screen = SCREEN_SEEDS.min(goal.seeds);
        let mut queue: VecDeque<Work> = (0..references.len()).map(|i| Work::Reference(i, goal.seeds)).collect();
        queue.extend((0..candidates.len()).map(|i| Work::Candidate(i, screen)));
        let total = goal.seeds * references.len() as u32 + screen * candidates.len() as u32;
        let nodes = goal.nodes_for(cfg);
        let longest = space.axes.iter().filter(|(k, _)| *k == Knob::UpdateFrequency);
        let longest = longest.flat_map(|(_, v)| v.iter().copied()).max();
        Ok(Search {
            floor: writes_floor(cfg, nodes, longest.unwrap_or(cfg.kubelet.node_status_update_frequency)),
            nodes,
            goal,
            candidates,
            references,
            queue,
            total,
            done: 0,
        })
    }

    /// The units of work known so far (seeds of a candidate or a reference, each with its blip
    /// run): it grows once the first pass shows which candidates run on.
    pub fn total(&self) -> u32 {
        self.total
    }

    /// The units of work done.
    pub fn done(&self) -> u32 {
        self.done
    }

    /// Runs at most `SEEDS_PER_STEP` seeds of one candidate; `false` once the search is over.
    pub fn step(&mut self) -> bool {
        if self.queue.is_empty() && !self.plan_next_pass() {
            return false;
        }
        let Some(work) = self.queue.pop_front() else {
            return false;
        };
        let (m, to) = match work {
            Work::Candidate(i, to) => (&mut self.candidates[i], to),
            Work::Reference(i, to) => (&mut self.references[i].1, to),
        };
        self.done += m.run(to);
        if m.runs < to {
            self.queue.push_front(work);
        }
        true
    }

    /// Queues the front's points that have not run on every seed; whether there were any.
    fn plan_next_pass(&mut self) -> bool {
        let (goal, nodes, seeds) = (&self.goal, self.nodes, self.goal.seeds);
        for m in &mut self.candidates {
            m.point(goal, nodes);
        }
        let points: Vec<&Point> = self.candidates.iter().filter_map(|m| m.point.as_ref()).collect();
        let short: Vec<usize> = front(&points, goal.blip.is_some())
            .into_iter()
            .filter(|&i| self.candidates[i].runs < seeds)
            .collect();
        for &i in &short {
            self.total += seeds - self.candidates[i].runs;
            self.queue.push_back(Work::Candidate(i, seeds));
        }
        !short.is_empty()
    }

    /// The search's answer (finishing any work left first).
    pub fn finish(mut self) -> Tuned {
        while self.step() {}
        let (goal, nodes) = (&self.goal, self.nodes);
        let candidates: Vec<Point> = self
            .candidates
            .iter_mut()
            .map(|m| m.point(goal, nodes).clone())
            .collect();
        let refs: Vec<&Point> = candidates.iter().collect();
        let mut on_front: Vec<Point> = front(&refs, goal.blip.is_some())
            .into_iter()
            .map(|i| candidates[i].clone())
            .collect();
        crate::order::sort_by(&mut on_front, cheaper_first);
        let best = on_front
            .iter()
            .filter(|p| p.meets)
            .min_by(|a, b| {
                a.warnings
                    .len()
                    .cmp(&b.warnings.len())
                    .then_with(|| cheaper_first(a, b))
            })
            .cloned();
        let references = self
            .references
            .iter_mut()
            .map(|(name, m)| Reference {
                name: name.clone(),
                point: m.point(goal, nodes).clone(),
            })
            .collect();
        Tuned {
            forced_warnings: forced_warnings(&on_front),
            unmet: unmet(goal, &candidates, self.floor),
            nodes,
            blip: goal.blip,
            front: on_front,
            best,
            references,
            candidates,
        }
    }
}
