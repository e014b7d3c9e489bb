//! A target: one milestone of [`crate::stats::MILESTONES`], a duration and a percentile over
//! seeds. `firstReplacementReady=60s@p95` reads "in at least 95% of the runs, the first
//! replacement was Ready within 60s of the fault". A run in which the milestone never happened
//! counts as later than any duration.

use crate::cause::Cause;
use crate::stats::{Distribution, Spread, MILESTONES};
use crate::time::{format_go_duration, parse_go_duration, Millis};

/// The percentile a target uses when it names none.
pub const DEFAULT_PERCENTILE: u8 = 95;

/// One target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    /// The milestone, by the name `kubelife run --runs` reports.
    pub milestone: &'static str,
    /// The longest it may take, ms from the fault.
    pub within: Millis,
    /// The share of runs, in percent (1 to 100), that must reach the milestone in time.
    pub percentile: u8,
}

/// How a target fares over a spread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The percentile is within the target; the value, ms.
    Pass(Millis),
    /// The percentile is later than the target (`None`: the milestone did not happen in that
    /// share of the runs).
    Fail(Option<Millis>),
    /// The scenario cannot reach this milestone (no Service, no volume, no database).
    NotInScenario,
}

impl Verdict {
    /// Whether the target holds.
    pub fn passed(self) -> bool {
        matches!(self, Verdict::Pass(_))
    }
}

impl Target {
    /// Reads the command line's form, `NAME=DURATION[@pNN]`.
    pub fn parse_cli(text: &str) -> Result<Target, Cause> {
        let (name, rest) = text.split_once('=').ok_or_else(|| syntax(text))?;
        let (within, percentile) = match rest.split_once('@') {
            Some((d, p)) => (d, Some(p)),
            None => (rest, None),
        };
        Target::from_parts(text, name, within, percentile)
    }

    /// Reads the link's form, `NAME:DURATION[:pNN]`.
    pub fn parse_link(text: &str) -> Result<Target, Cause> {
        let mut parts = text.splitn(3, ':');
        let name = parts.next().unwrap_or_default();
        let within = parts.next().ok_or_else(|| syntax(text))?;
        Target::from_parts(text, name, within, parts.next())
    }

    fn from_parts(text: &str, name: &str, within: &str, percentile: Option<&str>) -> Result<Target, Cause> {
        let milestone = MILESTONES.iter().find(|m| **m == name).ok_or_else(|| {
            Cause::new("tune.target.milestone")
                .text("name", format!("{name:?}"))
                .text("names", MILESTONES.join(", "))
        })?;
        let within = parse_go_duration(within).map_err(|e| e.cause())?;
        if within < 0 {
            return Err(Cause::new("tune.target.negative").text("text", text));
        }
        let percentile = match percentile {
            None => DEFAULT_PERCENTILE,
            Some(p) => p
                .strip_prefix('p')
                .and_then(|n| n.parse::<u8>().ok())
                .filter(|n| (1..=100).contains(n))
                .ok_or_else(|| Cause::new("tune.target.percentile").text("text", p))?,
        };
        Ok(Target {
            milestone,
            within,
            percentile,
        })
    }

    /// The command line's form: `firstReplacementReady=1m0s@p95`.
    pub fn cli_text(&self) -> String {
        format!(
            "{}={}@p{}",
            self.milestone,
            format_go_duration(self.within),
            self.percentile
        )
    }

    /// The link's form: `firstReplacementReady:1m0s:p95`.
    pub fn link_text(&self) -> String {
        format!(
            "{}:{}:p{}",
            self.milestone,
            format_go_duration(self.within),
            self.percentile
        )
    }

    /// This target's percentile of `spread`, over all its runs: `None` when the milestone did
    /// not happen in that share of them.
    pub fn value(&self, spread: &Spread) -> Option<Millis> {
        percentile(spread, self.percentile)
    }

    /// How the target fares over `d`.
    pub fn verdict(&self, d: &Distribution) -> Verdict {
        match d.spread(self.milestone) {
            None => Verdict::NotInScenario,
            Some(s) => match self.value(s) {
                Some(v) if v <= self.within => Verdict::Pass(v),
                v => Verdict::Fail(v),
            },
        }
    }
}

/// The `percent`-th percentile (nearest rank) of a spread over every run, the runs without the
/// milestone counted as later than all the others: `None` when the rank falls among those.
pub fn percentile(spread: &Spread, percent: u8) -> Option<Millis> {
    let runs = (spread.count + spread.never) as usize;
    if runs == 0 {
        return None;
    }
    let rank = (f64::from(percent) / 100.0 * runs as f64).ceil() as usize;
    spread.samples.get(rank.clamp(1, runs) - 1).copied()
}

fn syntax(text: &str) -> Cause {
    Cause::new("tune.target.syntax").text("text", format!("{text:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_read_and_print() {
        let t = Target::parse_cli("firstReplacementReady=60s@p95").unwrap();
        assert_eq!(
            (t.milestone, t.within, t.percentile),
            ("firstReplacementReady", 60_000, 95)
        );
        assert_eq!(t.cli_text(), "firstReplacementReady=1m0s@p95");
        assert_eq!(Target::parse_link(&t.link_text()), Ok(t));
        assert_eq!(Target::parse_cli("taint=40s").unwrap().percentile, DEFAULT_PERCENTILE);
        assert_eq!(Target::parse_link("unknown:45s:p50").unwrap().percentile, 50);
        for name in [
            "nodeDeleted",
            "remediationStarted",
            "databaseReady",
            "clientErrorsEnded",
        ] {
            let t = Target::parse_cli(&format!("{name}=10m@p50")).unwrap();
            assert_eq!((t.milestone, t.within, t.percentile), (name, 600_000, 50));
            assert_eq!(Target::parse_link(&t.link_text()), Ok(t));
        }
        let key = |r: Result<Target, Cause>| r.unwrap_err().key;
        assert_eq!(key(Target::parse_cli("nope=1s")), "tune.target.milestone");
        assert_eq!(key(Target::parse_cli("taint")), "tune.target.syntax");
        assert_eq!(key(Target::parse_cli("taint=1s@p0")), "tune.target.percentile");
        assert_eq!(key(Target::parse_cli("taint=1s@95")), "tune.target.percentile");
        assert_eq!(key(Target::parse_cli("taint=-1s")), "tune.target.negative");
        assert_eq!(key(Target::parse_cli("taint=soon")), "duration.invalid");
    }

    #[test]
    fn runs_without_the_milestone_count_as_late() {
        // 18 runs at 1s..18s, 2 runs never: p90 is the 18th value, p95 falls among the never.
        let s = Spread::of("taint", (1..=18).map(|s| s * 1000).collect(), 20);
        assert_eq!(percentile(&s, 90), Some(18_000));
        assert_eq!(percentile(&s, 95), None);
        assert_eq!(percentile(&s, 50), Some(10_000));
        let t = Target::parse_cli("taint=18s@p90").unwrap();
        assert_eq!(t.value(&s), Some(18_000));
        let d = Distribution {
            runs: 20,
            first_seed: 1,
            node: None,
            milestones: vec![s],
            ..Distribution::default()
        };
        assert_eq!(t.verdict(&d), Verdict::Pass(18_000));
        let strict = Target { within: 17_999, ..t };
        assert_eq!(strict.verdict(&d), Verdict::Fail(Some(18_000)));
        let late = Target { percentile: 95, ..t };
        assert_eq!(late.verdict(&d), Verdict::Fail(None));
        let absent = Target::parse_cli("databaseReady=1m").unwrap();
        assert_eq!(absent.verdict(&d), Verdict::NotInScenario);
    }
}
