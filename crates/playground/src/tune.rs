//! The Tune panel's logic: a point the engine's search found (`kubelife_engine::tune`), whose
//! settings are named by their upstream flags and fields (`--node-monitor-grace-period` → `20s`,
//! `nodeStatusUpdateFrequency` → `4s`), applied to the page's settings through the sliders'
//! view of the flag catalogue (`knobs`), so that the controls move and the link carries it.

use crate::i18n::truncate;
use crate::knobs::{Knob, Unit, KNOBS};
use crate::settings::Settings;
use kubelife_engine::time::{format_go_duration, parse_go_duration, MINUTE};
use kubelife_engine::tune::unmet::{BLIP_SAFE, MAX_WRITES, TOGETHER};
use kubelife_engine::tune::{Goal, Point, Target, Tuned, Unmet, SCREEN_SEEDS};
use kubelife_engine::{Cause, Config, Millis};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub use kubelife_engine::tune::goal::{DEFAULT_BLIP, DEFAULT_SEEDS};

/// The most targets a link (and the Tune panel) carries.
pub const MAX_TARGETS: usize = 4;

/// The longest network blip a link asks the search to ride out, ms (10 minutes).
pub const MAX_BLIP: Millis = 600_000;

/// What the reader asks of the runs, as the link carries it: the SLO targets the page judges
/// runs by (`target=`), and the Tune panel's constraints: the blip to ride out (`blip=`) and the
/// heartbeat writes ceiling (`max-writes-per-min=`) at a cluster size (`writes-at-nodes=`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Question {
    /// The targets, at most [`MAX_TARGETS`].
    pub targets: Vec<Target>,
    /// The blip to ride out, ms (`None`: the default 20s).
    pub blip: Option<Millis>,
    /// The most heartbeat writes per minute (`None`: no ceiling).
    pub max_writes: Option<f64>,
    /// The cluster size the writes are counted at (`None`: the scenario's).
    pub writes_nodes: Option<u32>,
}

/// A field of the Tune panel, which text typed into it sets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Field {
    /// The milestone of the target in this row.
    Milestone(usize),
    /// The duration of the target in this row.
    Within(usize),
    /// The percentile of the target in this row.
    Percentile(usize),
    Blip,
    Writes,
    Nodes,
}

/// Text typed into a field that was not used, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Refused {
    /// The field.
    pub field: Field,
    /// The text typed, kept in the field to correct.
    pub typed: String,
    /// Why it was not used.
    pub why: Cause,
}

/// Every field whose typed text was not used: each keeps its text and message until that field
/// takes a value, whatever is typed elsewhere meanwhile.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Refusals(pub Vec<Refused>);

impl Refusals {
    /// Text typed into `field` of `q`: the question it sets, or `None` when the text is refused
    /// (and kept here with why).
    pub fn typed(&mut self, q: &Question, field: Field, text: &str) -> Option<Question> {
        let mut q = q.clone();
        self.0.retain(|r| r.field != field);
        match q.set(field, text) {
            Ok(()) => Some(q),
            Err(why) => {
                self.0.push(Refused {
                    field,
                    typed: text.to_string(),
                    why,
                });
                None
            }
        }
    }

    /// The refusal of `field`, if its text was refused.
    pub fn get(&self, field: Field) -> Option<&Refused> {
        self.0.iter().find(|r| r.field == field)
    }

    /// After target row `i` is removed: its refusals go, and those of later rows move up with
    /// them.
    pub fn remove_row(&mut self, i: usize) {
        self.0.retain(|r| row(r.field) != Some(i));
        for r in &mut self.0 {
            r.field = match r.field {
                Field::Milestone(j) if j > i => Field::Milestone(j - 1),
                Field::Within(j) if j > i => Field::Within(j - 1),
                Field::Percentile(j) if j > i => Field::Percentile(j - 1),
                f => f,
            };
        }
    }
}

/// The target row a field belongs to.
fn row(f: Field) -> Option<usize> {
    match f {
        Field::Milestone(i) | Field::Within(i) | Field::Percentile(i) => Some(i),
        _ => None,
    }
}

/// A search whose estimate is over this, ms, asks to be confirmed before it goes on.
pub const LONG_SEARCH: Millis = MINUTE;

/// How long is left of a search of `total` runs known so far (the front's re-runs, not known
/// yet, come on top), ms, at the pace of its runs from the `from`-th to the `done`-th, which
/// took `elapsed` ms; `None` before that pace is known. Timed between two reports of the search,
/// so that starting its worker and planning it are not counted as runs.
pub fn time_left(from: u32, done: u32, total: u32, elapsed: f64) -> Option<Millis> {
    (done > from).then(|| (elapsed * f64::from(total.saturating_sub(done)) / f64::from(done - from)) as Millis)
}

/// What a search is measured on, as the Tune panel says it: the cluster size its writes are
/// counted at, the fault its targets' milestones are measured from (and on which node, when)
/// and the blip that must leave the node alone; `None` without a target or a fault (the search
/// refuses both).
pub fn measured_on(cfg: &Config, q: &Question) -> Option<Cause> {
    if q.targets.is_empty() {
        return None;
    }
    let fault = kubelife_engine::tune::blip::fault(cfg)?;
    let node = fault
        .node
        .and_then(|i| cfg.nodes.get(i))
        .map_or("", |n| n.name.as_str());
    let milestones: Vec<&str> = q.targets.iter().map(|t| t.milestone).collect();
    Some(
        Cause::new("ui.tune.measured_on")
            .text("nodes", q.writes_nodes.unwrap_or(cfg.nodes.len() as u32))
            .text("fault", format!("{:?}", fault.action))
            .text("node", node)
            .time("at", fault.at)
            .text("milestones", milestones.join(", "))
            .time("blip", q.blip.unwrap_or(DEFAULT_BLIP)),
    )
}

/// What the Tune panel says of how many seeds a search runs: every candidate on the first
/// [`SCREEN_SEEDS`], the front and the references on all of `seeds`.
pub fn seeds_text() -> Cause {
    Cause::new("ui.tune.intro")
        .text("screen", SCREEN_SEEDS.min(DEFAULT_SEEDS))
        .text("seeds", DEFAULT_SEEDS)
}

/// What the Tune panel says of a target or the ceiling no candidate meets: the closest one came
/// (a Go duration, or writes per minute at `nodes` nodes, with the floor none can go under); of
/// blip safety no candidate has (on a `blip` ms partition); or that none meets every part at once.
pub fn unmet_text(u: &Unmet, nodes: u32, blip: Millis) -> Cause {
    let rate = |w: f64| crate::i18n::thousands(w.round() as u64);
    match (u.name.as_str(), u.closest) {
        (BLIP_SAFE, _) => Cause::new("ui.tune.unmet_blip").time("blip", blip),
        (TOGETHER, _) => Cause::new("ui.tune.unmet_together"),
        (MAX_WRITES, closest) => Cause::new("ui.tune.unmet_writes")
            .text("closest", rate(closest.unwrap_or(0.0)))
            .text("floor", rate(u.floor.unwrap_or(0.0)))
            .text("nodes", crate::i18n::thousands(u64::from(nodes))),
        (_, Some(ms)) => Cause::new("ui.tune.unmet_target")
            .text("name", &u.name)
            .time("closest", ms as Millis),
        (_, None) => Cause::new("ui.tune.unmet_never").text("name", &u.name),
    }
}

impl Question {
    /// The worker's question: these targets and constraints, over [`DEFAULT_SEEDS`] seeds.
    pub fn ask(&self) -> Ask {
        Ask::new(&self.targets, self.max_writes, self.writes_nodes, self.blip)
    }

    /// Sets `field` from the text typed into it, or says why the text cannot be used (and
    /// changes nothing).
    pub fn set(&mut self, field: Field, text: &str) -> Result<(), Cause> {
        match field {
            // A row's milestone and percentile are read as the link reads a target, by the
            // engine's `Target::parse_link`, with the row's other parts as they are.
            Field::Milestone(i) => {
                let t = *self.row(i)?;
                let typed = truncate(text.trim());
                *self.row(i)? =
                    Target::parse_link(&format!("{typed}:{}:p{}", format_go_duration(t.within), t.percentile))?;
            }
            Field::Within(i) => {
                let w = read_within(text)?;
                self.row(i)?.within = w;
            }
            Field::Percentile(i) => {
                let t = *self.row(i)?;
                let typed = truncate(text.trim());
                *self.row(i)? =
                    Target::parse_link(&format!("{}:{}:p{typed}", t.milestone, format_go_duration(t.within)))?;
            }
            Field::Blip => {
                let b = read_blip(text)?;
                self.blip = (b != DEFAULT_BLIP).then_some(b);
            }
            Field::Writes => self.max_writes = read_max_writes(text)?,
            Field::Nodes => self.writes_nodes = read_writes_nodes(text)?,
        }
        Ok(())
    }

    /// The target in row `i`.
    fn row(&mut self, i: usize) -> Result<&mut Target, Cause> {
        self.targets.get_mut(i).ok_or_else(|| Cause::new("link.why.target"))
    }
}

/// A typed blip: a Go duration from 1s to 10m0s.
pub fn read_blip(text: &str) -> Result<Millis, Cause> {
    parse_go_duration(text.trim())
        .ok()
        .filter(|b| (1_000..=MAX_BLIP).contains(b))
        .ok_or_else(|| Cause::new("link.why.blip"))
}

/// A typed target duration: a Go duration, 0s or more.
pub fn read_within(text: &str) -> Result<Millis, Cause> {
    let ms = parse_go_duration(text.trim()).map_err(|e| e.reason())?;
    if ms < 0 {
        return Err(Cause::new("tune.target.negative").text("text", truncate(text.trim())));
    }
    Ok(ms)
}

/// A typed writes ceiling: writes per minute, 0 or more; blank for none.
pub fn read_max_writes(text: &str) -> Result<Option<f64>, Cause> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    crate::decimal::decimal(t)
        .filter(|w| w.is_finite() && *w >= 0.0)
        .map(Some)
        .ok_or_else(|| Cause::new("tune.goal.writes").text("value", truncate(t)))
}

/// A typed cluster size for the writes: a whole number of nodes, 1 or more; blank for the
/// scenario's.
pub fn read_writes_nodes(text: &str) -> Result<Option<u32>, Cause> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    t.parse::<u32>()
        .ok()
        .filter(|n| *n >= 1)
        .map(Some)
        .ok_or_else(|| Cause::new("tune.why.nodes").text("value", truncate(t)))
}

/// What the Tune panel asks the engine's worker to search for, as the worker's messages carry
/// it: the targets in the link's form, the writes ceiling at a cluster size, the blip.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Ask {
    /// The targets, `firstReplacementReady:1m0s:p95`.
    pub targets: Vec<String>,
    /// The most heartbeat writes per minute.
    pub max_writes_per_minute: Option<f64>,
    /// The cluster size the writes are counted at (else the scenario's).
    pub nodes: Option<u32>,
    /// The blip to ride out, ms (else the default 20s).
    pub blip: Option<Millis>,
    /// Seeds per candidate.
    pub seeds: u32,
}

impl Ask {
    /// The panel's question: these targets and constraints, over [`DEFAULT_SEEDS`] seeds.
    pub fn new(
        targets: &[Target],
        max_writes_per_minute: Option<f64>,
        nodes: Option<u32>,
        blip: Option<Millis>,
    ) -> Ask {
        Ask {
            targets: targets.iter().map(Target::link_text).collect(),
            max_writes_per_minute,
            nodes,
            blip,
            seeds: DEFAULT_SEEDS,
        }
    }

    /// The engine's goal.
    pub fn goal(&self) -> Result<Goal, Cause> {
        let targets = self
            .targets
            .iter()
            .map(|t| Target::parse_link(t))
            .collect::<Result<_, _>>()?;
        Ok(Goal {
            targets,
            max_writes_per_minute: self.max_writes_per_minute,
            nodes: self.nodes,
            blip: Some(self.blip.unwrap_or(DEFAULT_BLIP)),
            seeds: self.seeds,
        })
    }
}

/// What a search found, as the worker hands it to the page (the engine's [`Tuned`] with each
/// reference as its name and point, which the workers' codec carries).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Found {
    /// The Pareto front.
    pub front: Vec<Point>,
    /// The best point: the cheapest that meets every target.
    pub best: Option<Point>,
    /// The version's defaults and kubespray's profiles, by name.
    pub references: Vec<(String, Point)>,
    /// Every candidate measured.
    pub candidates: Vec<Point>,
    /// The warning keys every point meeting the targets carries.
    pub forced_warnings: Vec<String>,
    /// The targets and the writes ceiling no candidate meets.
    pub unmet: Vec<Unmet>,
    /// The cluster size the writes were counted at.
    pub nodes: u32,
    /// The blip the candidates were checked against, ms (`None`: not checked).
    pub blip: Option<Millis>,
}

impl From<Tuned> for Found {
    fn from(t: Tuned) -> Found {
        Found {
            front: t.front,
            best: t.best,
            references: t.references.into_iter().map(|r| (r.name, r.point)).collect(),
            candidates: t.candidates,
            forced_warnings: t.forced_warnings,
            unmet: t.unmet,
            nodes: t.nodes,
            blip: t.blip,
        }
    }
}

impl Found {
    /// The warnings the targets force, in the page's words (read off the best point, which
    /// carries them all).
    pub fn forced(&self) -> Vec<&Cause> {
        let best = self.best.iter().flat_map(|b| &b.warnings);
        best.filter(|w| self.forced_warnings.iter().any(|k| k == w.key()))
            .map(|w| &w.0)
            .collect()
    }

    /// Where the writes floor of an unmet ceiling is, for the scatter.
    pub fn floor(&self) -> Option<f64> {
        self.unmet.iter().find_map(|u| u.floor)
    }
}

/// The slider a setting of a point names: by its flag (`--node-monitor-grace-period`), its
/// configuration file's field (`nodeStatusUpdateFrequency`) or the catalogue's own name.
pub fn knob_for(key: &str) -> Option<&'static Knob> {
    let bare = key.strip_prefix("--").unwrap_or(key);
    KNOBS
        .iter()
        .find(|k| k.flag == bare || k.def.file.is_some_and(|f| f.field == key))
}

/// A setting's value as the slider's number: a Go duration (or plain seconds) for spans, a
/// number otherwise.
pub fn knob_value(k: &Knob, text: &str) -> Option<f64> {
    match k.unit {
        Unit::Seconds => parse_go_duration(text)
            .ok()
            .map(|ms| ms as f64 / 1000.0)
            .or_else(|| crate::decimal::decimal(text)),
        Unit::Count | Unit::Rate | Unit::Fraction => crate::decimal::decimal(text),
    }
}

/// `base` with a point's settings applied, and the settings the page has no control for (by
/// name), which it leaves as they were.
pub fn apply(base: &Settings, settings: &BTreeMap<String, String>) -> (Settings, Vec<String>) {
    let mut s = base.clone();
    let mut left = Vec::new();
    for (key, text) in settings {
        match knob_for(key).and_then(|k| Some((k, knob_value(k, text)?))) {
            Some((k, v)) => s.set(k.flag, v),
            None => left.push(key.clone()),
        }
    }
    (s, left)
}

/// `s` without the knob settings that change nothing: each one whose removal leaves every knob
/// as it resolves (the version's default, where no other setting leans on it, as a kubelet
/// file's `nodeStatusReportFrequency` leans on `nodeStatusUpdateFrequency`). A point applied
/// this way puts into the link only what differs from the defaults.
pub fn without_defaults(s: &Settings) -> Settings {
    // The knobs do not depend on the cluster: resolve them on the first visit's, which is small.
    let resolved = |overrides: &BTreeMap<String, f64>| -> Option<Vec<f64>> {
        let probe = Settings {
            minor: s.minor,
            overrides: overrides.clone(),
            enable_taint_manager: s.enable_taint_manager,
            taint_based_evictions: s.taint_based_evictions,
            disable_force_detach: s.disable_force_detach,
            ..Settings::default()
        };
        let cfg = probe.scenario().resolve().ok()?;
        Some(KNOBS.iter().map(|k| (k.read)(&cfg)).collect())
    };
    let Some(want) = resolved(&s.overrides) else {
        return s.clone();
    };
    let mut out = s.clone();
    for flag in s.overrides.keys() {
        let mut fewer = out.overrides.clone();
        fewer.remove(flag);
        if resolved(&fewer).as_ref() == Some(&want) {
            out.overrides = fewer;
        }
    }
    out
}

/// How a point's setting reads: a flag as its command line writes it (`--node-monitor-grace-period=20s`),
/// a file's field as the file does (`nodeStatusUpdateFrequency: 4s`).
pub fn setting_text(key: &str, value: &str) -> String {
    if key.starts_with("--") {
        format!("{key}={value}")
    } else {
        format!("{key}: {value}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_constraints_are_read_or_refused_with_the_reason() {
        check_reads(&[
            ("blip", "20s", Ok("20000")),
            ("blip", " 1m ", Ok("60000")),
            ("blip", "500ms", Err("link.why.blip")),
            ("blip", "11m", Err("link.why.blip")),
            ("blip", "soon", Err("link.why.blip")),
            ("within", "1m0s", Ok("60000")),
            ("within", "0s", Ok("0")),
            ("within", "-1s", Err("tune.target.negative")),
            ("within", "60", Err("duration.no_unit")),
            ("writes", "", Ok("None")),
            ("writes", "300", Ok("Some(300.0)")),
            ("writes", "0", Ok("Some(0.0)")),
            ("writes", "-5", Err("tune.goal.writes")),
            ("writes", "lots", Err("tune.goal.writes")),
            ("nodes", "  ", Ok("None")),
            ("nodes", "5000", Ok("Some(5000)")),
            ("nodes", "0", Err("tune.why.nodes")),
            ("nodes", "2.5", Err("tune.why.nodes")),
            ("nodes", "99999999999", Err("tune.why.nodes")),
        ]);
        // A pasted page comes back as its first 40 characters.
        let why = read_max_writes(&"9x".repeat(100_000)).unwrap_err().english();
        assert!(why.ends_with("not 9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x9x…"), "{why}");
    }

    #[test]
    fn a_field_typed_into_sets_the_question_or_changes_nothing() {
        let start = Question {
            targets: vec![Target::parse_link("taint:40s").unwrap()],
            ..Question::default()
        };
        let rows: &[(Field, &str, Result<&str, &str>)] = &[
            (
                Field::Milestone(0),
                "firstReplacementReady",
                Ok("firstReplacementReady:40s:p95"),
            ),
            (Field::Milestone(0), "soon", Err("tune.target.milestone")),
            (Field::Within(0), "1m", Ok("taint:1m0s:p95")),
            (Field::Within(0), "1", Err("duration.no_unit")),
            (Field::Within(1), "1m", Err("link.why.target")),
            (Field::Percentile(0), "50", Ok("taint:40s:p50")),
            (Field::Percentile(0), "0", Err("tune.target.percentile")),
            (Field::Blip, "30s", Ok("blip=30s")),
            (Field::Blip, "20s", Ok("blip=default")),
            (Field::Blip, "0s", Err("link.why.blip")),
            (Field::Writes, "600", Ok("writes=Some(600.0)")),
            (Field::Nodes, "many", Err("tune.why.nodes")),
        ];
        for (field, text, want) in rows {
            let mut q = start.clone();
            let got = q.set(*field, text).map(|()| match field {
                Field::Blip => format!(
                    "blip={}",
                    q.blip
                        .map_or("default".into(), kubelife_engine::time::format_go_duration)
                ),
                Field::Writes => format!("writes={:?}", q.max_writes),
                _ => q.targets[0].link_text(),
            });
            if got.is_err() {
                assert_eq!(q, start, "{field:?} {text:?} changed nothing");
            }
            assert_eq!(got.as_deref().map_err(|c| c.key), *want, "{field:?} {text:?}");
        }
    }

    /// Issue 36, item 12: a second field's bad text leaves the first's text and message where
    /// they are; each goes only when its own field takes a value. Each row: the field, the text,
    /// then the fields refused (with their text) after it.
    #[test]
    fn a_second_bad_value_keeps_the_first() {
        let mut q = Question {
            targets: vec![
                Target::parse_link("taint:40s").unwrap(),
                Target::parse_link("unknown:40s").unwrap(),
            ],
            ..Question::default()
        };
        /// A field, the text typed, and the fields refused after it with their text.
        type Row = (Field, &'static str, &'static [(Field, &'static str)]);
        let rows: &[Row] = &[
            (Field::Blip, "soon", &[(Field::Blip, "soon")]),
            (Field::Writes, "lots", &[(Field::Blip, "soon"), (Field::Writes, "lots")]),
            (
                Field::Within(1),
                "1",
                &[(Field::Blip, "soon"), (Field::Writes, "lots"), (Field::Within(1), "1")],
            ),
            (
                Field::Blip,
                "later",
                &[(Field::Writes, "lots"), (Field::Within(1), "1"), (Field::Blip, "later")],
            ),
            (
                Field::Nodes,
                "50",
                &[(Field::Writes, "lots"), (Field::Within(1), "1"), (Field::Blip, "later")],
            ),
            (Field::Writes, "600", &[(Field::Within(1), "1"), (Field::Blip, "later")]),
        ];
        let mut r = Refusals::default();
        for (field, text, want) in rows {
            if let Some(next) = r.typed(&q, *field, text) {
                q = next;
            }
            let got: Vec<(Field, &str)> = r.0.iter().map(|x| (x.field, x.typed.as_str())).collect();
            assert_eq!(got, *want, "after {field:?} {text:?}");
            assert!(r.0.iter().all(|x| !x.why.key.is_empty()));
        }
        assert_eq!((q.max_writes, q.writes_nodes), (Some(600.0), Some(50)));
        assert_eq!(r.get(Field::Blip).map(|x| x.why.key), Some("link.why.blip"));
        // Removing the first target moves the second row's refusal up with it.
        r.remove_row(0);
        assert!(r.get(Field::Within(0)).is_some() && r.get(Field::Within(1)).is_none());
        r.remove_row(0);
        assert!(r.get(Field::Within(0)).is_none() && r.get(Field::Blip).is_some());
    }

    /// Issue 36, item 3: what the panel says of the search's seeds, its estimate, what it is
    /// measured on, and (item 2) what no candidate meets.
    #[test]
    fn the_panel_says_what_the_search_does() {
        let seeds = seeds_text().english();
        assert!(
            seeds.contains("each candidate runs on 25 seeds, and those on the front run again on 200"),
            "{seeds}"
        );
        // Runs 10 to 20 of 11,150 in 2s: about 37 minutes left, over a minute.
        assert_eq!(time_left(10, 20, 11_150, 2_000.0), Some(2_226_000));
        assert!(time_left(10, 20, 11_150, 2_000.0) > Some(LONG_SEARCH));
        assert_eq!(time_left(10, 10, 11_150, 2_000.0), None, "no pace yet");
        assert_eq!(time_left(0, 400, 400, 900.0), Some(0));
        let cfg = Settings::default().resolve().0;
        let q = Question {
            targets: vec![Target::parse_link("firstReplacementReady:60s:p95").unwrap()],
            writes_nodes: Some(5_000),
            ..Question::default()
        };
        assert!(measured_on(&cfg, &Question::default()).is_none(), "no target yet");
        let on = measured_on(&cfg, &q).expect("the default crash").english();
        for part in [
            "counted at 5000 nodes",
            "from NodeCrash on node-1 at ",
            "(firstReplacementReady)",
            "a 20s network partition of node-1",
        ] {
            assert!(on.contains(part), "{part:?} in {on}");
        }
        // Item 2, and blip safety: what the panel says no candidate meets.
        for (name, closest, floor, said) in [
            (
                MAX_WRITES,
                Some(30_392.2),
                Some(29_411.8),
                "5,000 nodes, and none can go under 29,412",
            ),
            ("firstReplacementReady", Some(61_500.0), None, "came in 1m1.5s"),
            ("unknown", None, None, "No candidate reaches unknown at that"),
            (BLIP_SAFE, None, None, "safe from a 20s network partition"),
            (TOGETHER, None, None, "no candidate meets them all at once"),
        ] {
            let u = Unmet {
                name: name.into(),
                closest,
                floor,
            };
            let text = unmet_text(&u, 5_000, 20_000).english();
            assert!(text.contains(said), "{text}");
        }
    }

    /// Each row: the reader, the text typed, what it reads (as Debug text) or the cause's key.
    fn check_reads(rows: &[(&str, &str, Result<&str, &str>)]) {
        for (reader, text, want) in rows {
            let got = match *reader {
                "blip" => read_blip(text).map(|v| v.to_string()),
                "within" => read_within(text).map(|v| v.to_string()),
                "writes" => read_max_writes(text).map(|v| format!("{v:?}")),
                "nodes" => read_writes_nodes(text).map(|v| format!("{v:?}")),
                other => panic!("no reader {other}"),
            };
            let got = got.as_ref().map(String::as_str).map_err(|c| c.key);
            assert_eq!(got, *want, "{reader} {text:?}");
        }
    }

    #[test]
    fn the_panels_question_is_the_engines_goal() {
        let t = Target::parse_link("firstReplacementReady:60s:p95").unwrap();
        let ask = Ask::new(&[t], Some(300.0), Some(100), None);
        let goal = ask.goal().unwrap();
        assert_eq!(goal.targets, [t]);
        assert_eq!((goal.max_writes_per_minute, goal.nodes), (Some(300.0), Some(100)));
        assert_eq!((goal.blip, goal.seeds), (Some(DEFAULT_BLIP), DEFAULT_SEEDS));
        let short = Ask {
            blip: Some(5_000),
            ..ask.clone()
        };
        assert_eq!(short.goal().unwrap().blip, Some(5_000));
        let bad = Ask {
            targets: vec!["nope:1s".into()],
            ..ask
        };
        assert_eq!(bad.goal().unwrap_err().key, "tune.target.milestone");
    }

    #[test]
    fn a_points_flags_and_fields_move_the_sliders_and_the_link_carries_them() {
        let point: BTreeMap<String, String> = [
            ("--node-monitor-grace-period", "20s"),
            ("--node-monitor-period", "2s"),
            ("nodeStatusUpdateFrequency", "4s"),
            ("--default-unreachable-toleration-seconds", "30"),
            ("someoneElsesField", "1m0s"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let (s, left) = apply(&Settings::default(), &point);
        assert_eq!(left, ["someoneElsesField"]);
        let o = |f: &str| s.overrides.get(f).copied();
        assert_eq!(o("node-monitor-grace-period"), Some(20.0));
        assert_eq!(o("node-monitor-period"), Some(2.0));
        assert_eq!(o("node-status-update-frequency"), Some(4.0));
        assert_eq!(o("default-unreachable-toleration-seconds"), Some(30.0));
        let (cfg, _) = s.resolve();
        assert_eq!(cfg.controller_manager.node_monitor_grace_period, 20_000);
        let link = crate::link::encode(&s, Default::default());
        for part in [
            "node-monitor-grace-period=20s",
            "node-status-update-frequency=4s",
            "default-unreachable-toleration-seconds=30",
        ] {
            assert!(link.contains(part), "{part} in {link}");
        }
        assert_eq!(crate::link::decode(&link).settings, s);
        assert_eq!(
            setting_text("--node-monitor-grace-period", "20s"),
            "--node-monitor-grace-period=20s"
        );
        assert_eq!(
            setting_text("nodeStatusUpdateFrequency", "4s"),
            "nodeStatusUpdateFrequency: 4s"
        );
    }
}
