//! SLO targets (`kubelife_engine::tune::Target`, carried by the link's `target=`) judged against
//! what the page shows: over the 200 seeds once they have been run for the settings shown, else
//! over the one run shown. The page draws each as a line on the timeline (at the fault plus the
//! target's duration) and on that milestone's histogram, with a pass/fail chip.

use kubelife_engine::scenario::Config;
use kubelife_engine::stats::{run_milestones, MILESTONES};
use kubelife_engine::tune::{Target, Verdict};
use kubelife_engine::{Distribution, Millis, Outcome, Spread};
use std::borrow::Cow;

/// Each milestone of [`MILESTONES`], in its order, with the catalogue key of the label the page
/// shows beside its name (the Tune panel's target picker), as the milestone cards word it.
pub const MILESTONE_LABELS: [(&str, &str); MILESTONES.len()] = [
    ("unknown", "ui.milestone.unknown"),
    ("podsNotReady", "ui.milestone.pods_not_ready"),
    ("taint", "ui.milestone.taint"),
    ("firstDeletion", "ui.milestone.eviction"),
    ("lastDeletion", "ui.milestone.last_deletion"),
    ("firstReplacementReady", "ui.milestone.replacement"),
    ("replacementsReady", "ui.milestone.all_replaced"),
    ("nodeDeleted", "ui.milestone.node_deleted"),
    ("remediationStarted", "ui.milestone.remediation"),
    ("trafficStopped", "ui.milestone.traffic_stopped"),
    ("serviceRestored", "ui.milestone.service_restored"),
    ("volumeFree", "ui.milestone.volume_free"),
    ("databaseReady", "ui.milestone.database_ready"),
    ("clientErrorsEnded", "ui.milestone.client_errors_ended"),
];

/// The catalogue key of milestone `name`'s label, if `name` is one of [`MILESTONES`].
pub fn milestone_label(name: &str) -> Option<&'static str> {
    MILESTONE_LABELS.iter().find(|(n, _)| *n == name).map(|(_, k)| *k)
}

/// What a verdict was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    /// The spread over the 200 seeds ("Over 200 seeds").
    Seeds,
    /// The one run shown: its seed's value stands for every percentile.
    Run,
}

/// One target and how it fares.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Judged {
    /// The target.
    pub target: Target,
    /// How it fares.
    pub verdict: Verdict,
    /// What it was read from.
    pub basis: Basis,
}

impl Judged {
    /// The chip's word, the same in every language: `pass` or `fail` (a milestone the scenario
    /// cannot reach fails: the target cannot hold).
    pub fn word(&self) -> &'static str {
        if self.verdict.passed() {
            "pass"
        } else {
            "fail"
        }
    }
}

/// The run shown as a distribution of one run, read from its outcome (nothing runs again).
pub fn one_run(o: &Outcome, cfg: &Config) -> Distribution {
    let values = run_milestones(o, cfg).unwrap_or([None; MILESTONES.len()]);
    let milestones = MILESTONES
        .iter()
        .zip(values)
        .filter(|(name, _)| kubelife_engine::stats::offered(cfg, name))
        .map(|(name, v)| Spread::of(name, v.into_iter().collect(), 1))
        .collect();
    Distribution {
        runs: 1,
        first_seed: cfg.seed,
        node: o.summary.nodes.first().map(|n| n.node.clone()),
        milestones,
        ..Distribution::default()
    }
}

/// Each target's verdict: over `seeds` when they were run for the settings shown, else over the
/// run shown.
pub fn judge(targets: &[Target], o: &Outcome, cfg: &Config, seeds: Option<&Distribution>) -> Vec<Judged> {
    // The seeds' spreads are read where they are; only the run shown is made into one.
    let (d, basis) = match seeds {
        Some(d) => (Cow::Borrowed(d), Basis::Seeds),
        None => (Cow::Owned(one_run(o, cfg)), Basis::Run),
    };
    targets
        .iter()
        .map(|&target| Judged {
            target,
            verdict: target.verdict(&d),
            basis,
        })
        .collect()
}

/// Where a target's line goes on the timeline: the first faulted node's fault plus the target's
/// duration, ms from the run's start (`None` without a fault).
pub fn line_at(o: &Outcome, target: &Target) -> Option<Millis> {
    let fault = o.summary.nodes.first()?.fault_at_ms?;
    Some(fault + target.within)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;

    #[test]
    fn a_target_is_judged_on_the_seeds_when_run_else_on_the_run_shown() {
        let (cfg, _) = Settings::default().resolve();
        let o = kubelife_engine::run(&cfg, &kubelife_engine::RunOptions::default());
        let shown = one_run(&o, &cfg).spread("firstReplacementReady").unwrap().clone();
        let ready = shown.samples[0];
        let at = |within: Millis| Target::parse_link(&format!("firstReplacementReady:{}ms", within)).unwrap();
        let (loose, tight) = (at(ready), at(ready - 1));
        let j = judge(&[loose, tight], &o, &cfg, None);
        assert_eq!(
            j.iter().map(|j| (j.word(), j.basis)).collect::<Vec<_>>(),
            [("pass", Basis::Run), ("fail", Basis::Run)]
        );
        assert_eq!(j[0].verdict, Verdict::Pass(ready));
        let d = kubelife_engine::distribution(&cfg, 20);
        let p95 = loose.value(d.spread("firstReplacementReady").unwrap()).unwrap();
        let j = judge(&[at(p95), at(p95 - 1)], &o, &cfg, Some(&d));
        assert_eq!(
            j.iter().map(|j| (j.word(), j.basis)).collect::<Vec<_>>(),
            [("pass", Basis::Seeds), ("fail", Basis::Seeds)]
        );
        let fault = o.summary.nodes[0].fault_at_ms.unwrap();
        assert_eq!(line_at(&o, &loose), Some(fault + ready));
    }

    #[test]
    fn a_milestone_the_scenario_cannot_reach_fails() {
        let mut s = Settings::default();
        s.web.service = false;
        s.db.service = false;
        let (cfg, _) = s.resolve();
        let o = kubelife_engine::run(&cfg, &kubelife_engine::RunOptions::default());
        let t = Target::parse_link("trafficStopped:10m").unwrap();
        let j = judge(&[t], &o, &cfg, None)[0];
        assert!(!kubelife_engine::stats::offered(&cfg, "trafficStopped"));
        assert_eq!((j.verdict, j.word()), (Verdict::NotInScenario, "fail"));
    }
}
