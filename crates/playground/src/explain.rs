//! What the explanation panels say: milestones, where the time goes, control-plane cost and
//! warnings about the settings. Pure functions of the run and its configuration.

use kubelife_engine::time::{format_go_duration_tenths, SECOND};
use kubelife_engine::{Cause, Millis, Outcome};

pub use kubelife_figures::explain::{
    bars, figure_bars, milestones, segments, Bar, Goal, Milestones, Restored, Segment,
};

pub use crate::i18n::thousands;

/// A many-node outage at a glance (a zone outage, or several nodes failing together): each
/// headline milestone's first and last time over the failed nodes, ms after the first fault.
#[derive(Debug, Clone, PartialEq)]
pub struct Outage {
    /// The nodes that failed.
    pub nodes: usize,
    /// The first and the last node marked Unknown (or NotReady).
    pub unknown: (Option<Millis>, Option<Millis>),
    /// The first and the last NoExecute taint.
    pub taint: (Option<Millis>, Option<Millis>),
    /// The first and the last pod deleted from a faulted node (by any controller, remediator or
    /// operator: `kubelife_figures::spread::deleter`).
    pub eviction: (Option<Millis>, Option<Millis>),
    /// Every workload that went short whole again: when the last one was.
    pub replaced: Restored,
}

/// The outage's headline when more than one node failed; `None` for a single node, whose own
/// milestones are the headline. Read off the run's per-node milestones and its spread.
pub fn outage(o: &Outcome, spread: &kubelife_figures::spread::Spread) -> Option<Outage> {
    let nodes = &o.summary.nodes;
    if nodes.len() < 2 {
        return None;
    }
    let from = spread.fault.unwrap_or(0);
    let rel = |t: Option<Millis>| t.map(|t| t - from);
    let unknown: Vec<Millis> = nodes.iter().filter_map(|n| n.unknown_at_ms).collect();
    let at = |n: &Option<kubelife_figures::spread::Named>| rel(n.as_ref().map(|n| n.at));
    let short: Vec<_> = spread.workloads.iter().filter(|w| w.short_at.is_some()).collect();
    let replaced = if short.is_empty() {
        Restored::Uninterrupted
    } else if short.iter().all(|w| w.back_at.is_some()) {
        Restored::At(short.iter().filter_map(|w| w.back_at).max().unwrap_or(from) - from)
    } else {
        Restored::Never
    };
    Some(Outage {
        nodes: nodes.len(),
        unknown: (rel(unknown.iter().copied().min()), rel(unknown.iter().copied().max())),
        taint: (at(&spread.first_tainted), at(&spread.last_tainted)),
        eviction: (at(&spread.first_deleted), at(&spread.last_deleted)),
        replaced,
    })
}

/// A first and last time as the page shows them: `41.2s – 44.9s`, one time when they agree.
pub fn range_text(lang: crate::i18n::Lang, (first, last): (Option<Millis>, Option<Millis>)) -> String {
    match (first, last) {
        (Some(a), Some(b)) if a != b => format!("{} – {}", format_go_duration_tenths(a), format_go_duration_tenths(b)),
        _ => milestone_text(lang, first),
    }
}

/// When something was whole again, as the page shows it: a Go duration, `never`, or `never
/// short` when it was never short.
pub fn restored_text(lang: crate::i18n::Lang, r: Restored) -> String {
    match r {
        Restored::Uninterrupted => crate::i18n::tr(lang, "ui.milestone.uninterrupted").to_string(),
        Restored::At(t) => milestone_text(lang, Some(t)),
        Restored::Never => milestone_text(lang, None),
    }
}

/// A milestone as the page shows it: a Go duration to a tenth of a second, or `never`.
pub fn milestone_text(lang: crate::i18n::Lang, v: Option<Millis>) -> String {
    v.map_or_else(
        || crate::i18n::tr(lang, "ui.never").to_string(),
        format_go_duration_tenths,
    )
}

/// Heartbeat writes per minute for `nodes` nodes: the engine's (`kubelife_engine::cost`).
pub use kubelife_engine::cost::writes_per_minute;

/// Warnings about the settings, beyond those the engine gives: the engine's own, which its
/// tuner reports on every point (`kubelife_engine::advice`).
pub use kubelife_engine::advice::tuning_warnings;

/// A fingerprint of a run's JSON (FNV-1a, 64 bits), to check that the browser and native builds
/// produce the same timeline.
pub fn timeline_fingerprint(o: &Outcome) -> u64 {
    o.to_json().bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Services the API and the proxies saw differently: the EndpointSlice showed fewer ready
/// endpoints than desired for at least 10s longer than the connected proxies sent to fewer pods.
/// That happens when nodes lose the API server while their pods run on (a partition of the
/// control plane): the node lifecycle controller marks the pods not ready (`MarkPodsNotReady`)
/// and the EndpointSlice controller follows, but proxies cut off from the API server keep the
/// rules they have.
pub fn two_views(o: &Outcome) -> Vec<Cause> {
    o.summary
        .services
        .iter()
        .filter(|s| s.fewer_ready_endpoints_ms >= s.fewer_serving_ms + 10 * SECOND)
        .map(|s| {
            Cause::new("ui.two_views")
                .text("service", &s.service)
                .time("api", s.fewer_ready_endpoints_ms)
                .time("proxies", s.fewer_serving_ms)
        })
        .collect()
}

/// The fingerprint of the default settings' run with heartbeats, as computed natively. The
/// browser test asserts the same value, so both targets must agree.
pub const DEFAULT_FINGERPRINT: u64 = 5_547_495_167_806_087_138;

#[cfg(test)]
mod tests {

    #[test]
    fn a_zone_outage_alone_heads_the_page_with_its_spread() {
        let d = crate::link::decode("?nodes=6&fault=none&zone-outage=zone-b:2m0s");
        let run = crate::model::Run::simulate(d.settings);
        let o = run.outage.clone().expect("two nodes failed");
        assert_eq!(o.nodes, 2);
        let (first, last) = o.unknown;
        assert!(first.is_some() && first <= last, "{o:?}");
        assert!(o.taint.0 <= o.taint.1 && o.eviction.0 <= o.eviction.1, "{o:?}");
        assert_eq!(
            range_text(crate::i18n::Lang::En, (Some(1_000), Some(61_500))),
            "1s – 1m1.5s"
        );
        assert_eq!(range_text(crate::i18n::Lang::En, (Some(1_000), Some(1_000))), "1s");
        // One node: its own milestones head the page.
        assert!(crate::model::Run::simulate(crate::settings::Settings::default())
            .outage
            .is_none());
    }

    use super::*;
    use crate::settings::Settings;
    use kubelife_engine::RunOptions;
    use std::collections::BTreeSet;

    /// The cause keys of a bar's segments.
    fn keys(bar: &Bar) -> Vec<&'static str> {
        bar.segments.iter().map(|s| s.cause.written().key).collect()
    }

    #[test]
    fn the_default_bar_follows_the_replacement_to_the_service() {
        let (cfg, _) = Settings::default().resolve();
        let o = kubelife_engine::run(&cfg, &RunOptions::default());
        let all = bars(&o, &cfg);
        let bar = &all[0];
        assert_eq!(bar.goal, Goal::ServiceRestored, "{all:?}");
        assert_eq!(
            keys(bar),
            [
                "cause.nlc.unknown",
                "cause.nlc.tainted_tick",
                "cause.te.planned",
                "cause.delete",
                "cause.rs.replacement",
                "cause.sched.bound",
                "cause.pod_ready.started",
                "cause.eps.ready",
                "cause.proxy.started"
            ]
        );
        let m = milestones(&o);
        let (goal, upto) = bar.passes.clone().expect("passes the replacement");
        assert_eq!(goal, Goal::Replacement);
        assert_eq!(Some(bar.segments[..upto].iter().map(|s| s.ms).sum()), m.replacement);
        assert_eq!(m.service_restored, Restored::At(bar.total()));
        let label = bar.segments[3].label(&|k| crate::i18n::lookup(crate::i18n::Lang::En, k));
        assert!(label.contains("tolerationSeconds 300"), "{label}");
    }

    /// A drain is the fault the bars start from, as a crash is: the web pod's chain runs from
    /// kubectl drain's eviction to the Service whole again, and db-0's to its Ready again.
    #[test]
    fn a_drains_bars_walk_from_the_drain() {
        let run = crate::model::Run::simulate(crate::link::decode("fault=node-1:Drain:30").settings);
        let all = bars(&run.outcome, &run.cfg);
        assert_eq!(run.milestones.fault, Some(30_000));
        let goals: Vec<&Goal> = all.iter().map(|b| &b.goal).collect();
        assert_eq!(goals, [&Goal::ServiceRestored, &Goal::Database("db-0".into())]);
        assert!(all.iter().all(Bar::reached), "{all:?}");
        assert_eq!(
            keys(&all[0])[..4],
            [
                "cause.drain.evict",
                "cause.rs.replacement",
                "cause.sched.bound",
                "cause.pod_ready.started"
            ]
        );
        assert_eq!(all[1].total(), 23_600);
        // The fault's own event is the drain's cordon.
        let cordon = run.milestones.events.fault.map(|i| run.outcome.events[i].cause.key);
        assert_eq!(cordon, Some("cause.drain.cordon"));
    }

    #[test]
    fn the_database_bar_is_read_off_the_run() {
        // Defaults: db-0's object stays Terminating on the dead node: no bar, and the reason.
        let (cfg, _) = Settings::default().resolve();
        let o = kubelife_engine::run(&cfg, &RunOptions::default());
        let db = bars(&o, &cfg).pop().expect("db-0 was on node-1");
        assert_eq!(db.goal, Goal::Database("db-0".into()));
        assert!(!db.reached() && db.stuck.is_some_and(|s| s.old_object_left), "{db:?}");
        // The out-of-service taint at 7m0s: PodGC removes the old object, then the volume moves.
        let mut s = Settings::default();
        s.ops.out_of_service_at_seconds = Some(420);
        let (cfg, _) = s.resolve();
        let o = kubelife_engine::run(&cfg, &RunOptions::default());
        let db = bars(&o, &cfg).pop().unwrap();
        let keys = keys(&db);
        assert_eq!(
            &keys[keys.len() - 6..],
            [
                "cause.adc.detach_requested",
                "cause.adc.force_detached",
                "cause.adc.detached",
                "cause.adc.attached",
                "cause.kubelet.mounted_late",
                "cause.pod_ready.started"
            ],
            "{keys:?}"
        );
        assert!(keys.contains(&"cause.podgc.terminating"), "{keys:?}");
        let m = milestones(&o);
        assert!(m.volume_free.is_some_and(|t| t > 390_000), "{:?}", m.volume_free);
    }

    #[test]
    fn a_control_plane_partition_shows_two_views() {
        let (cfg, _) = Settings::default().resolve();
        let o = kubelife_engine::run(&cfg, &RunOptions::default());
        assert!(two_views(&o).is_empty(), "a crash looks the same to both");
        let mut s = Settings::default();
        s.fault.kind = kubelife_engine::scenario::ActionKind::NetworkPartition;
        s.fault.count = 3;
        let (cfg, _) = s.resolve();
        let o = kubelife_engine::run(&cfg, &RunOptions::default());
        let views = two_views(&o);
        assert_eq!(views.len(), 1, "{views:?}");
        assert!(crate::i18n::cause(crate::i18n::Lang::En, &views[0]).contains("svc/web"));
    }

    #[test]
    fn default_write_rates_match_the_spec() {
        let (cfg, _) = Settings::default().resolve();
        let (lease, status) = writes_per_minute(&cfg, 1000);
        assert!((5_800.0..5_900.0).contains(&lease), "{lease}");
        assert!((190.0..=200.0).contains(&status), "{status}");
    }

    #[test]
    fn default_run_has_the_pinned_fingerprint() {
        let (cfg, _) = Settings::default().resolve();
        let o = kubelife_engine::run(&cfg, &RunOptions { heartbeats: true });
        assert_eq!(
            timeline_fingerprint(&o),
            DEFAULT_FINGERPRINT,
            "update DEFAULT_FINGERPRINT after an intended change"
        );
    }

    /// The label of a segment's message and of each message in it, in `lang`: its brief
    /// template (`seg.X`) where English has one, else its full one, as `Cause::render_brief` reads.
    fn brief(lang: crate::i18n::Lang, key: &str) -> Option<&'static str> {
        let seg = format!("seg.{}", key.strip_prefix("cause.").unwrap_or(key));
        let en = crate::i18n::lookup(crate::i18n::Lang::En, &seg);
        crate::i18n::lookup(lang, if en.is_some() { &seg } else { key })
    }

    /// Whether a text holds an English word: two lowercase letters or more, outside `{holes}`.
    fn has_words(text: &str) -> bool {
        let mut rest = text;
        let mut outside = String::new();
        while let Some(i) = rest.find('{') {
            outside.push_str(&rest[..i]);
            rest = rest[i..].split_once('}').map_or("", |(_, tail)| tail);
        }
        outside.push_str(rest);
        outside
            .split(|c: char| !c.is_ascii_alphabetic() && !"-=./_:".contains(c))
            .any(|w| w.len() > 1 && w.chars().all(|c| c.is_ascii_lowercase()))
    }

    /// Checks a segment's message and those nested in it: a Chinese template of its own, and no
    /// argument that reads as an English sentence (three lowercase words in a row).
    fn check(c: &Cause, origin: &str, problems: &mut Vec<String>) {
        use crate::i18n::Lang;
        let (en, zh) = (brief(Lang::En, c.key), brief(Lang::Zh, c.key));
        if en.is_none() || (en == zh && en.is_some_and(has_words)) {
            problems.push(format!("{}: no Chinese label ({origin})", c.key));
        }
        for (name, a) in &c.args {
            match a {
                kubelife_engine::cause::Arg::Cause(inner) => check(inner, origin, problems),
                kubelife_engine::cause::Arg::Text(t) => {
                    let words: Vec<&str> = t.split_whitespace().collect();
                    let lower = |w: &&str| w.chars().all(|c| c.is_ascii_lowercase());
                    if words.windows(3).any(|w| w.iter().all(lower)) {
                        problems.push(format!("{}: {name} is English text {t:?} ({origin})", c.key));
                    }
                }
                kubelife_engine::cause::Arg::Time(_) => {}
            }
        }
    }

    /// "Where does the time go?" reads in Chinese off every path a reader can take: each
    /// segment's label is a catalogue template with names, flags and Go durations in it.
    #[test]
    fn every_breakdown_label_reads_in_chinese() {
        use kubelife_engine::scenario::ActionKind;
        /// A path a reader takes: its name and how it changes the first visit's settings.
        type Path = (&'static str, fn(&mut Settings));
        let change: [Path; 11] = [
            ("default", |_| {}),
            ("out-of-service", |s| s.ops.out_of_service_at_seconds = Some(60)),
            ("force delete", |s| s.ops.force_delete_db_at_seconds = Some(390)),
            ("partition", |s| s.fault.kind = ActionKind::NetworkPartition),
            ("kubelet stop", |s| s.fault.kind = ActionKind::KubeletStop),
            ("shutdown", |s| s.fault.kind = ActionKind::NodeShutdown),
            ("drain", |s| s.fault.kind = ActionKind::Drain),
            ("1.12", |s| s.minor = 12),
            ("1.16 legacy", |s| {
                s.minor = 16;
                s.taint_based_evictions = false;
            }),
            ("restart", |s| s.ops.kcm_restart_at_seconds = Some(40)),
            ("zone", |s| s.fault.count = 3),
        ];
        let (mut problems, mut labels) = (Vec::new(), BTreeSet::new());
        for (origin, f) in change {
            let mut s = Settings::default();
            f(&mut s);
            let (cfg, _) = s.resolve();
            let o = kubelife_engine::run(&cfg, &RunOptions::default());
            for segment in bars(&o, &cfg).iter().flat_map(|b| &b.segments) {
                check(&segment.cause, origin, &mut problems);
                labels.insert(segment.cause.key);
            }
        }
        assert!(problems.is_empty(), "{problems:#?}");
        assert!(
            labels.len() >= 15,
            "the paths above reach most kinds of segment: {labels:?}"
        );
        // A label built from an English sentence is caught.
        let english = Cause::new("cause.adc.detached").text("took", "the driver is slow");
        check(&english, "example", &mut problems);
        assert_eq!(problems.len(), 1);
    }

    #[test]
    fn tight_grace_warns() {
        let mut s = Settings::default();
        s.set("node-monitor-grace-period", 20.0);
        let (cfg, _) = s.resolve();
        assert!(tuning_warnings(&cfg).iter().any(|w| w.english().contains("flapping")));
        assert!(tuning_warnings(&Settings::default().resolve().0).is_empty());
    }
}
