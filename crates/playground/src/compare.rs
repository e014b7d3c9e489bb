//! Compare mode's table: both sides' milestones and B − A, every time counted from one origin.
//!
//! Each side's milestones count from its own fault, and two sides' faults need not begin at the
//! same time: with Karpenter's interruption queue a Spot instance's fault is its warning, without
//! it the reclaim two minutes later. Subtracting times counted from different origins would
//! hide those two minutes, so the table counts both sides from one origin and names it: their
//! common fault time when the faults agree, else the scenario's time of the fault both sides
//! were given (its action), else the start of the run.

use crate::explain::milestone_text;
use crate::i18n::{count, tr, trf, Lang};
use crate::model::Run;
use crate::settings::Settings;
use kubelife_engine::scenario::Faulted;
use kubelife_engine::time::format_go_duration_tenths;
use kubelife_engine::{Config, Distribution, Millis, Outcome};

/// Where both sides' times count from, ms from the start of the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Both faults began at this time.
    Fault(Millis),
    /// The faults began at different times (A's, B's), but both from the scenario's fault
    /// action at this time (a Spot warning one side acts on and the other does not).
    Action(Millis, Millis, Millis),
    /// Neither agrees: the start of the run (with each side's fault, if any).
    Start(Option<Millis>, Option<Millis>),
}

impl Origin {
    /// The origin, ms from the start of the run.
    pub fn at(self) -> Millis {
        match self {
            Origin::Fault(t) | Origin::Action(t, _, _) => t,
            Origin::Start(..) => 0,
        }
    }

    /// The line under the table that names the origin, in `lang`.
    pub fn text(self, lang: Lang) -> String {
        let d = |t: Millis| format_go_duration_tenths(t);
        let or_never = |t: Option<Millis>| milestone_text(lang, t);
        match self {
            Origin::Fault(t) => trf(lang, "ui.compare.origin_fault", &[("at", &d(t))]),
            Origin::Action(t, a, b) => trf(
                lang,
                "ui.compare.origin_action",
                &[("at", &d(t)), ("a", &d(a)), ("b", &d(b))],
            ),
            Origin::Start(a, b) => trf(
                lang,
                "ui.compare.origin_start",
                &[("a", &or_never(a)), ("b", &or_never(b))],
            ),
        }
    }
}

/// When the scenario set off the fault that began at `fault` on the run's first faulted node:
/// the latest action that faults that node by name (`ActionKind::faulted`) at or before it, ms.
fn fault_action(cfg: &Config, o: &Outcome, fault: Millis) -> Option<Millis> {
    let name = &o.summary.nodes.first()?.node;
    let node = cfg.nodes.iter().position(|n| &n.name == name)?;
    cfg.actions
        .iter()
        .filter(|a| a.action.faulted() != Faulted::Nothing && a.node == Some(node) && a.at <= fault)
        .map(|a| a.at)
        .max()
}

/// The one origin for sides `a` and `b`.
pub fn origin(a: &Run, b: &Run) -> Origin {
    let (fa, fb) = (a.milestones.fault, b.milestones.fault);
    match (fa, fb) {
        (Some(x), Some(y)) if x == y => Origin::Fault(x),
        (Some(x), Some(y)) => {
            let ax = fault_action(&a.cfg, &a.outcome, x);
            match ax.filter(|&t| Some(t) == fault_action(&b.cfg, &b.outcome, y)) {
                Some(t) => Origin::Action(t, x, y),
                None => Origin::Start(fa, fb),
            }
        }
        _ => Origin::Start(fa, fb),
    }
}

/// Distribution `d` of a side whose fault began at `fault`, its milestones moved to count from
/// `origin` as the table's do; unchanged when they already do (each seed's fault begins at the
/// same time: its scenario's action, or that and a fixed notice).
pub fn from_origin(d: &Distribution, fault: Option<Millis>, origin: Origin) -> Distribution {
    let by = fault.unwrap_or(0) - origin.at();
    let mut out = d.clone();
    if by != 0 {
        for s in &mut out.milestones {
            for v in [&mut s.min, &mut s.p50, &mut s.p95, &mut s.max].into_iter().flatten() {
                *v += by;
            }
            s.samples.iter_mut().for_each(|v| *v += by);
        }
    }
    out
}

fn signed(d: Millis) -> String {
    if d == 0 {
        "±0s".into()
    } else if d > 0 {
        format!("+{}", format_go_duration_tenths(d))
    } else {
        format!("−{}", format_go_duration_tenths(-d))
    }
}

/// One row of the delta table: row id, label, A, B, B − A.
pub type DeltaRow = (&'static str, String, String, String, String);

/// The rows of the delta table between runs `a` and `b` (their milestones, read once per run),
/// their times counted from `origin` ([`origin`]), write rates for `nodes` nodes.
pub fn delta_rows(lang: Lang, a: &Run, b: &Run, origin: Origin, nodes: u32) -> Vec<DeltaRow> {
    let (ma, mb) = (&a.milestones, &b.milestones);
    // A milestone is ms after its side's fault: moved to the common origin.
    let from = |fault: Option<Millis>, v: Option<Millis>| v.map(|v| fault.unwrap_or(0) + v - origin.at());
    let mut rows = Vec::new();
    for (id, key, x, y) in [
        ("unknown", "ui.milestone.unknown", ma.unknown, mb.unknown),
        ("taint", "ui.milestone.taint", ma.taint, mb.taint),
        ("eviction", "ui.milestone.eviction", ma.eviction, mb.eviction),
        (
            "replacement",
            "ui.milestone.replacement",
            ma.replacement,
            mb.replacement,
        ),
    ] {
        let (x, y) = (from(ma.fault, x), from(mb.fault, y));
        let delta = match (x, y) {
            (Some(x), Some(y)) => signed(y - x),
            _ => "—".into(),
        };
        rows.push((
            id,
            tr(lang, key).to_string(),
            milestone_text(lang, x),
            milestone_text(lang, y),
            delta,
        ));
    }
    let gap = |o: &Outcome| {
        o.summary
            .workloads
            .iter()
            .find(|w| w.workload == "web")
            .map(|w| w.not_fully_ready_ms)
    };
    if let (Some(x), Some(y)) = (gap(&a.outcome), gap(&b.outcome)) {
        rows.push((
            "web-gap",
            tr(lang, "ui.compare.web_gap").to_string(),
            format_go_duration_tenths(x),
            format_go_duration_tenths(y),
            signed(y - x),
        ));
    }
    let total = |c: &Config| {
        let (l, s) = crate::explain::writes_per_minute(c, nodes);
        l + s
    };
    let (wa, wb) = (total(&a.cfg), total(&b.cfg));
    let writes = trf(
        lang,
        "ui.compare.writes",
        &[("nodes", &count(lang, "ui.n.nodes", u64::from(nodes)))],
    );
    rows.push((
        "writes",
        writes,
        format!("{wa:.0}"),
        format!("{wb:.0}"),
        format!("{:+.0}", wb - wa),
    ));
    rows
}

/// What "copy A to B" makes of side B: A's settings (flags, cluster, workloads, cloud and
/// remediation, operator actions) with B's own fault and zone outage, so that two sides that
/// compare two faults (a crash against a network blip) still do after the copy.
pub fn copy_a_to_b(a: &Settings, b: &Settings) -> Settings {
    Settings {
        fault: b.fault.clone(),
        zone_outage: b.zone_outage,
        ..a.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(query: &str) -> Run {
        Run::simulate(crate::link::decode(query).settings)
    }

    /// B keeps its fault and zone outage, and takes everything else of A's.
    #[test]
    fn copying_a_to_b_copies_settings_not_faults() {
        let mut a = Settings::default();
        a.set("node-monitor-grace-period", 30.0);
        a.set("default-not-ready-toleration-seconds", 10.0);
        a.nodes = 5;
        a.ops.out_of_service_at_seconds = Some(120);
        let mut b = Settings {
            minor: 30,
            ..Settings::default()
        };
        b.fault.kind = kubelife_engine::scenario::ActionKind::NetworkPartition;
        b.fault.recover_at_seconds = Some(50);
        b.zone_outage = Some(crate::settings::ZoneOutage {
            zone: 1,
            at_seconds: 60,
            end_seconds: None,
        });
        let copy = copy_a_to_b(&a, &b);
        assert_eq!((&copy.fault, copy.zone_outage), (&b.fault, b.zone_outage));
        assert_eq!(copy_a_to_b(&copy, &a), a, "the rest is A's");
        assert_ne!(copy.fault, a.fault);
    }

    #[test]
    fn deltas_of_a_shorter_toleration() {
        let mut b = Settings::default();
        b.set("default-unreachable-toleration-seconds", 200.0);
        let (a, b) = (Run::simulate(Settings::default()), Run::simulate(b));
        let origin = origin(&a, &b);
        assert_eq!(origin, Origin::Fault(30_000));
        assert_eq!(origin.text(Lang::En), "times count from the fault at 30s on both sides");
        let rows = delta_rows(Lang::En, &a, &b, origin, 1000);
        let eviction = rows.iter().find(|r| r.0 == "eviction").unwrap();
        assert_eq!(eviction.4, "−1m40s");
        assert_eq!(rows.iter().find(|r| r.0 == "unknown").unwrap().4, "±0s");
    }

    /// Karpenter's interruption queue acts on the Spot warning at 30s (A); without it (B) the
    /// fault is EC2's reclaim at 2m30s. Both count from the warning the scenario sent at 30s, so
    /// B − A is the whole gain of the queue (3m26.2s), not that gain less the two-minute notice
    /// (1m26.2s, each side from its own fault).
    #[test]
    fn a_spot_warning_and_its_reclaim_count_from_the_scenarios_warning() {
        const SPOT: &str = "fault=node-1:SpotInterruption:30&cloud=aws&remediation=karpenter&node-repair=false";
        let d = crate::link::decode(&format!(
            "{SPOT}&interruption-queue=true&b.{}",
            SPOT.replace('&', "&b.")
        ));
        assert!(d.notices.is_empty(), "{:?}", d.notices);
        let (a, b) = (Run::simulate(d.settings), Run::simulate(d.b.expect("side B")));
        assert_eq!((a.milestones.fault, b.milestones.fault), (Some(30_000), Some(150_000)));
        let origin = origin(&a, &b);
        assert_eq!(origin, Origin::Action(30_000, 30_000, 150_000));
        assert_eq!(
            origin.text(Lang::En),
            "times count from the scenario's fault at 30s on both sides (A's fault began at 30s, B's at 2m30s)"
        );
        assert_eq!(
            origin.text(Lang::Zh),
            "两边的时间都从场景在 30s 设下的故障算起（A 的故障始于 30s，B 的始于 2m30s）"
        );
        let rows = delta_rows(Lang::En, &a, &b, origin, 1000);
        let row = |id: &str| rows.iter().find(|r| r.0 == id).unwrap().clone();
        assert_eq!(row("eviction").4, "+3m26.2s");
        let replacement = row("replacement");
        assert_eq!(
            (replacement.2.as_str(), replacement.3.as_str(), replacement.4.as_str()),
            ("10s", "3m36.3s", "+3m26.2s")
        );
        // Any one origin gives the same difference: the start of the run too.
        let start = delta_rows(Lang::En, &a, &b, Origin::Start(None, None), 1000);
        let start = start.iter().find(|r| r.0 == "replacement").unwrap();
        assert_eq!((start.2.as_str(), start.4.as_str()), ("40s", "+3m26.2s"));
        // Swapped, the sign turns and the origin stays.
        let back = super::origin(&b, &a);
        assert_eq!(back, Origin::Action(30_000, 150_000, 30_000));
        let rows = delta_rows(Lang::En, &b, &a, back, 1000);
        assert_eq!(rows.iter().find(|r| r.0 == "replacement").unwrap().4, "−3m26.2s");
    }

    #[test]
    fn spreads_over_seeds_move_to_the_same_origin() {
        let d = kubelife_engine::Distribution {
            runs: 2,
            first_seed: 1,
            node: None,
            milestones: vec![kubelife_engine::Spread::of("unknown", vec![40_000, 50_000], 2)],
            ..kubelife_engine::Distribution::default()
        };
        let origin = Origin::Action(30_000, 30_000, 150_000);
        assert_eq!(from_origin(&d, Some(30_000), origin), d);
        let b = from_origin(&d, Some(150_000), origin);
        let s = &b.milestones[0];
        assert_eq!((s.min, s.p50, s.max), (Some(160_000), Some(160_000), Some(170_000)));
        assert_eq!(s.samples, [160_000, 170_000]);
    }

    #[test]
    fn faults_set_off_at_different_times_count_from_the_start() {
        let a = run("fault=node-1:NodeCrash:30");
        let b = run("fault=node-1:NodeCrash:90");
        let origin = origin(&a, &b);
        assert_eq!(origin, Origin::Start(Some(30_000), Some(90_000)));
        let rows = delta_rows(Lang::En, &a, &b, origin, 1000);
        let unknown = rows.iter().find(|r| r.0 == "unknown").unwrap();
        let (x, y) = (a.milestones.unknown.unwrap(), b.milestones.unknown.unwrap());
        assert_eq!(unknown.4, signed(90_000 + y - 30_000 - x));
        assert_eq!(
            origin.text(Lang::En),
            "times count from the start of the run on both sides (A's fault began at 30s, B's at 1m30s)"
        );
    }
}
