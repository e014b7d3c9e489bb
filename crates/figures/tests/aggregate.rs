//! The aggregate counts, the grid and the spread milestones, on engine runs of small clusters, and
//! the build's time on a 5,000-node zone outage (printed, never asserted).

use kubelife_engine::time::format_go_duration;
use kubelife_engine::{
    parse_go_duration, run, Cause, Config, EventKind, Millis, Outcome, RunOptions, Scenario, ZoneState,
};
use kubelife_figures::aggregate::{Aggregate, EvictionRates, NodeState, PodState};
use kubelife_figures::areas::{draw_aggregate, AggregateFigure, AggregateTexts, RowKind};
use kubelife_figures::lanes::{lanes, lanes_of, Lane, LaneState};
use kubelife_figures::spread::spread;
use plotters::prelude::*;
use std::collections::BTreeMap;

/// A cluster: `nodes` nodes named `node-1` … spread round-robin over `zones` zones `zone-a` …
/// (or, with `sizes`, that many nodes per zone in turn), a Deployment `web` of one pod per node
/// and a DaemonSet `agent`; `events` are the scenario's action objects.
fn cluster(sizes: &[usize], round_robin: bool, minutes: i64, events: &[String]) -> String {
    cluster_of(sizes, round_robin, minutes, events, 1)
}

/// [`cluster`] with `per_node` web pods per node.
fn cluster_of(sizes: &[usize], round_robin: bool, minutes: i64, events: &[String], per_node: usize) -> String {
    let total: usize = sizes.iter().sum();
    let zone = |i: usize| -> usize {
        if round_robin {
            return i % sizes.len();
        }
        let mut left = i;
        sizes
            .iter()
            .position(|&s| {
                let here = left < s;
                left = left.saturating_sub(s);
                here
            })
            .unwrap_or(0)
    };
    let nodes: Vec<String> = (0..total)
        .map(|i| {
            format!(
                r#"{{"name":"node-{}","zone":"zone-{}"}}"#,
                i + 1,
                (b'a' + zone(i) as u8) as char
            )
        })
        .collect();
    format!(
        r#"{{"version":"1.32","seed":1,"durationSeconds":{},"nodes":[{}],
        "workloads":[{{"kind":"Deployment","name":"web","replicas":{}}},{{"kind":"DaemonSet","name":"agent"}}],
        "events":[{}]}}"#,
        minutes * 60,
        nodes.join(","),
        total * per_node,
        events.join(",")
    )
}

/// `action` on each of `nodes` at `at`.
fn on(at: &str, action: &str, nodes: impl IntoIterator<Item = usize>) -> Vec<String> {
    nodes
        .into_iter()
        .map(|n| format!(r#"{{"at":"{at}","action":"{action}","node":"node-{n}"}}"#))
        .collect()
}

fn run_scenario(json: &str) -> (Config, Outcome) {
    let cfg = Scenario::from_json(json)
        .and_then(|s| s.resolve())
        .expect("a valid scenario");
    let o = run(&cfg, &RunOptions { heartbeats: false });
    (cfg, o)
}

fn build(json: &str) -> (Config, Outcome, Aggregate) {
    let (cfg, o) = run_scenario(json);
    let agg = Aggregate::build(&o, cfg.duration, &EvictionRates::of(&cfg));
    (cfg, o, agg)
}

fn ms(go: &str) -> Millis {
    parse_go_duration(go).expect("a Go duration")
}

/// What a zone or workload should show at an instant.
#[derive(Debug)]
enum Want {
    /// The zone's nodes in any of these states.
    Nodes(&'static str, &'static [NodeState], u32),
    /// The zone's nodes whose Ready condition is Unknown.
    ReadyUnknown(&'static str, u32),
    /// Nodes whose Ready condition is Unknown, over every zone.
    UnknownTotal(u32),
    /// The zone's state.
    Zone(&'static str, ZoneState),
    /// The zone's tainting rate, nodes per second.
    Rate(&'static str, f64),
    /// The workload's pods in a state.
    Pods(&'static str, PodState, u32),
}

/// Checks `wants` at each instant; at every change point of the run, that every zone's counts
/// add up to its nodes (`sizes`, in zone order) and every workload's to its pod objects (counted
/// the slow way, from the events); and at every zone state change, that the rate agrees with the
/// engine's cause (stopped exactly when the cause says so).
fn check(o: &Outcome, agg: &Aggregate, sizes: &[u32], table: &[(&str, &[Want])]) {
    for (at, wants) in table {
        let t = ms(at);
        let zones = agg.counts_at(t);
        let zone = |name: &str| {
            zones
                .iter()
                .find(|z| z.zone == name)
                .unwrap_or_else(|| panic!("no zone {name}"))
        };
        for want in *wants {
            let (got, expected) = match want {
                Want::Nodes(z, states, n) => (
                    states.iter().map(|&s| zone(z).nodes.get(s)).sum::<u32>() as f64,
                    *n as f64,
                ),
                Want::ReadyUnknown(z, n) => (zone(z).nodes.ready_unknown as f64, *n as f64),
                Want::UnknownTotal(n) => (agg.nodes_unknown_at(t) as f64, *n as f64),
                Want::Zone(z, s) => {
                    assert_eq!(zone(z).state, *s, "at {at}: {want:?}");
                    continue;
                }
                Want::Rate(z, r) => (zone(z).rate, *r),
                Want::Pods(w, s, n) => {
                    let (_, c) = agg.workloads_at(t).into_iter().find(|c| c.0 == *w).expect("a workload");
                    (c.get(*s) as f64, *n as f64)
                }
            };
            assert_eq!(got, expected, "at {at}: {want:?}");
        }
    }
    // Without `sizes` (nodes joining), only the workloads are checked.
    assert!(sizes.is_empty() || agg.zones.len() == sizes.len());
    for (z, &size) in agg.zones.iter().zip(sizes) {
        for (t, c) in z.nodes.points().iter().filter(|p| p.0 > 0) {
            assert_eq!(c.total(), size, "{} at {}", z.name, format_go_duration(*t));
        }
    }
    for w in &agg.workloads {
        for (t, c) in w.pods.points() {
            assert_eq!(
                c.total(),
                pods_existing(o, &w.name, *t),
                "{} at {}",
                w.name,
                format_go_duration(*t)
            );
        }
    }
    for e in o.events.iter().filter(|e| e.kind == EventKind::ZoneStateChanged) {
        let Some(kubelife_engine::cause::Arg::Cause(why)) = e.cause.arg("why") else {
            panic!("a zone change says why")
        };
        let stopped = matches!(why.key, "cause.zone.partial_stop" | "cause.zone.all_full");
        let z = agg
            .counts_at(e.at_ms)
            .into_iter()
            .find(|z| Some(z.zone) == e.zone.as_deref());
        assert_eq!(z.map(|z| z.rate == 0.0), Some(stopped), "{} at {}", why.key, e.at_ms);
    }
}

/// Pod objects of `workload` at `t`: created and not removed, by name.
fn pods_existing(o: &Outcome, workload: &str, t: Millis) -> u32 {
    let prefix = format!("{workload}-");
    let mut n = 0i64;
    for e in o.events.iter().take_while(|e| e.at_ms <= t) {
        if e.pod.as_deref().is_some_and(|p| p.starts_with(&prefix)) {
            n += match e.kind {
                EventKind::PodCreated => 1,
                EventKind::PodRemoved => -1,
                _ => 0,
            };
        }
    }
    n as u32
}

use NodeState::{Cordoned, Gone, NotReady, Ready, Tainted, Unknown};

/// Every zone-b node of a 30-node, three-zone cluster crashes at 60s.
fn zone_b_lost() -> (Config, Outcome, Aggregate) {
    build(&cluster(
        &[10, 10, 10],
        true,
        15,
        &on("60s", "NodeCrash", (2..=30).step_by(3)),
    ))
}

#[test]
fn a_lost_zone_goes_unknown_then_tainted_and_the_others_stay_ready() {
    let (_, o, agg) = zone_b_lost();
    check(
        &o,
        &agg,
        &[10, 10, 10],
        &[
            (
                "50s",
                &[
                    Want::Nodes("zone-b", &[Ready], 10),
                    Want::Zone("zone-b", ZoneState::Normal),
                    Want::UnknownTotal(0),
                    Want::Pods("web", PodState::Ready, 30),
                    Want::Pods("agent", PodState::Ready, 30),
                ],
            ),
            (
                "2m0s",
                &[
                    Want::ReadyUnknown("zone-b", 10),
                    Want::Nodes("zone-b", &[Unknown, Tainted], 10),
                    Want::Nodes("zone-a", &[Ready], 10),
                    Want::Nodes("zone-c", &[Ready], 10),
                    Want::Zone("zone-b", ZoneState::FullDisruption),
                    Want::Zone("zone-a", ZoneState::Normal),
                    // One zone in FullDisruption, not every one: HealthyQPSFunc.
                    Want::Rate("zone-b", 0.1),
                    Want::UnknownTotal(10),
                    // MarkPodsNotReady: the lost zone's pods are NotReady, still bound.
                    Want::Pods("web", PodState::NotReady, 10),
                    Want::Pods("web", PodState::Ready, 20),
                ],
            ),
            // At 0.1 nodes per second every zone-b node is tainted well before 5m0s.
            (
                "5m0s",
                &[Want::Nodes("zone-b", &[Tainted], 10), Want::ReadyUnknown("zone-b", 10)],
            ),
            // The toleration (300s) is over: web is whole again, agent's lost pods stay.
            (
                "15m0s",
                &[
                    Want::Pods("web", PodState::Ready, 30),
                    Want::Pods("agent", PodState::Ready, 20),
                    Want::Pods("agent", PodState::NotReady, 10),
                ],
            ),
        ],
    );
}

#[test]
fn partial_disruption_taints_at_the_secondary_rate_only_in_a_large_zone() {
    // zone-a 60 nodes, zone-b 60 (40 lost), zone-c 10 (7 lost); the threshold is 50 nodes.
    let lost = (61..=100).chain(121..=127);
    let (_, o, agg) = build(&cluster(&[60, 60, 10], false, 6, &on("60s", "NodeCrash", lost)));
    check(
        &o,
        &agg,
        &[60, 60, 10],
        &[(
            "3m0s",
            &[
                Want::Zone("zone-a", ZoneState::Normal),
                Want::Rate("zone-a", 0.1),
                Want::Zone("zone-b", ZoneState::PartialDisruption),
                Want::Rate("zone-b", 0.01),
                Want::Zone("zone-c", ZoneState::PartialDisruption),
                Want::Rate("zone-c", 0.0),
                Want::Nodes("zone-c", &[Unknown], 7),
                Want::ReadyUnknown("zone-b", 40),
            ],
        )],
    );
}

#[test]
fn every_zone_lost_stops_tainting_until_one_comes_back() {
    let mut events = on("60s", "NodeCrash", 1..=3);
    events.extend(on("5m0s", "NodeRecover", [1]));
    let (_, o, agg) = build(&cluster(&[1, 1, 1], true, 10, &events));
    check(
        &o,
        &agg,
        &[1, 1, 1],
        &[
            (
                "3m0s",
                &[
                    Want::Zone("zone-a", ZoneState::FullDisruption),
                    Want::Zone("zone-c", ZoneState::FullDisruption),
                    Want::Rate("zone-a", 0.0),
                    Want::Rate("zone-b", 0.0),
                    Want::Nodes("zone-b", &[Unknown], 1),
                    Want::UnknownTotal(3),
                ],
            ),
            (
                "7m0s",
                &[
                    Want::Zone("zone-a", ZoneState::Normal),
                    Want::Nodes("zone-a", &[Ready], 1),
                    Want::Zone("zone-b", ZoneState::FullDisruption),
                    Want::Rate("zone-b", 0.1),
                    Want::Nodes("zone-b", &[Tainted], 1),
                ],
            ),
        ],
    );
}

#[test]
fn drained_deleted_and_joining_nodes_are_counted_apart() {
    let mut events = on("60s", "Drain", [1]);
    events.extend(on("60s", "NodeCrash", [2]));
    events.extend(on("90s", "DeleteNode", [2]));
    events.extend(on("2m0s", "NodeJoin", [4]));
    let (_, o, agg) = build(&cluster(&[4], true, 5, &events));
    // node-4 joins at 2m0s: three nodes before, four after.
    let sizes: Vec<u32> = agg.zones[0].nodes.points().iter().map(|p| p.1.total()).collect();
    assert_eq!((sizes.first(), sizes.last()), (Some(&3), Some(&4)), "{sizes:?}");
    check(
        &o,
        &agg,
        &[],
        &[
            (
                "1m30s",
                &[
                    Want::Nodes("zone-a", &[Cordoned], 1),
                    Want::Nodes("zone-a", &[Gone], 1),
                    Want::Nodes("zone-a", &[Ready], 1),
                ],
            ),
            (
                "3m0s",
                &[
                    Want::Nodes("zone-a", &[Ready], 2),
                    Want::Nodes("zone-a", &[NotReady], 0),
                ],
            ),
        ],
    );
}

/// The grid agrees with the cluster view's full replay, node by node and pod by pod.
#[test]
fn the_grid_agrees_with_the_cluster_replay() {
    let mut events = on("60s", "NodeCrash", (2..=30).step_by(3));
    events.extend(on("60s", "Drain", [1]));
    events.extend(on("2m0s", "NodeJoin", [30]));
    let (cfg, o, agg) = build(&cluster(&[10, 10, 10], true, 12, &events));
    for at in ["0s", "1m45s", "3m0s", "7m10s", "12m0s"] {
        let t = ms(at);
        let view = kubelife_figures::cluster::at(&o, t);
        let grid = agg.grid_at(t);
        let cells: BTreeMap<&str, (&str, &kubelife_figures::grid::Cell)> = grid
            .zones
            .iter()
            .flat_map(|z| z.cells.iter().map(move |c| (c.node, (z.zone, c))))
            .collect();
        assert_eq!(cells.len(), view.nodes.len(), "at {at}");
        for n in &view.nodes {
            let (zone, cell) = cells[n.name.as_str()];
            assert_eq!(zone, n.zone, "{} at {at}", n.name);
            assert_eq!(cell.taints, n.taints, "{} at {at}", n.name);
            let ready = match cell.state {
                Gone => "Absent",
                Unknown => "Unknown",
                NotReady => "NotReady",
                Ready | Cordoned => "Ready",
                Tainted => n.ready,
            };
            assert_eq!(ready, n.ready, "{} at {at}", n.name);
            let pods: Vec<(&str, &str)> = cell.pods.iter().map(|p| (p.name, phase(p.state))).collect();
            let want: Vec<(&str, &str)> = view
                .pods
                .iter()
                .filter(|p| p.node.as_deref() == Some(n.name.as_str()))
                .map(|p| (p.name.as_str(), p.phase))
                .collect();
            assert_eq!(pods, want, "{} at {at}", n.name);
        }
        let bound: usize = cells.values().map(|c| c.1.pods.len()).sum();
        assert_eq!(bound + grid.unscheduled.len(), view.pods.len(), "at {at}");
    }
    let zone_b = &agg.grid_at(ms("2m0s")).zones[1];
    assert_eq!((zone_b.zone, zone_b.state), ("zone-b", ZoneState::FullDisruption));
    assert_eq!(zone_b.rate, cfg.controller_manager.node_eviction_rate);
}

fn phase(s: PodState) -> &'static str {
    match s {
        PodState::Ready => "Running",
        PodState::NotReady => "NotReady",
        PodState::Terminating => "Terminating",
        PodState::Pending => "Pending",
    }
}

#[test]
fn the_spread_names_the_first_and_last_taints_and_evictions() {
    let (cfg, o, agg) = zone_b_lost();
    let s = spread(&o, &agg);
    let zone_b: Vec<String> = (2..=30).step_by(3).map(|n| format!("node-{n}")).collect();
    assert_eq!(s.fault, Some(60_000));
    assert_eq!(s.nodes_tainted, 10);
    let (first, last) = (s.first_tainted.expect("tainted"), s.last_tainted.expect("tainted"));
    assert!(
        zone_b.contains(&first.name) && zone_b.contains(&last.name),
        "{first:?} {last:?}"
    );
    // One node every 10s (--node-eviction-rate 0.1): nine gaps between ten nodes.
    let spread_ms = last.at - first.at;
    assert!((85_000..=100_000).contains(&spread_ms), "{spread_ms} ms");
    // The web pods of zone-b, evicted once their 300s toleration is over.
    let on_b = agg.grid_at(ms("59s")).zones[1]
        .cells
        .iter()
        .flat_map(|c| c.pods.iter())
        .filter(|p| p.name.starts_with("web-"))
        .count();
    assert_eq!(s.pods_deleted, on_b);
    let taint_eviction = Cause::new("ui.deleter.taint_eviction");
    assert_eq!(s.deleted_by, vec![(taint_eviction.clone(), on_b)]);
    let toleration = cfg.api_server.default_unreachable_toleration_seconds * 1000;
    let (fe, le) = (s.first_deleted.expect("evicted"), s.last_deleted.expect("evicted"));
    assert_eq!(fe.by, Some(taint_eviction));
    assert!(
        fe.at >= first.at + toleration && le.at >= last.at + toleration,
        "{fe:?} {le:?}"
    );
    assert!(le.at - fe.at >= spread_ms - 1_000, "{fe:?} {le:?}");
    let back = |w: &str| {
        s.workloads
            .iter()
            .find(|b| b.workload == w)
            .expect("a workload")
            .clone()
    };
    let (web, agent) = (back("web"), back("agent"));
    assert!(web.short_at.is_some_and(|t| t > 60_000 && t < first.at), "{web:?}");
    assert!(web.back_at.is_some_and(|t| t > le.at), "{web:?}");
    assert!(agent.short_at.is_some() && agent.back_at.is_none(), "{agent:?}");
}

#[test]
fn a_drain_is_the_fault_and_its_evictions_count_by_kubectl_drain() {
    let (_, o, agg) = build(&cluster(&[3], true, 5, &on("60s", "Drain", [1])));
    let s = spread(&o, &agg);
    let deleted = o
        .events
        .iter()
        .filter(|e| e.kind == EventKind::PodDeletionRequested)
        .count();
    assert!(deleted > 0);
    let by = Cause::new("ui.deleter.drain");
    assert_eq!(
        (s.fault, s.nodes_tainted, s.pods_deleted, &s.deleted_by),
        (Some(60_000), 0, deleted, &vec![(by.clone(), deleted)])
    );
    assert_eq!(s.first_deleted.and_then(|d| d.by), Some(by));
    let web = &s.workloads[0];
    let (short, back) = (web.short_at.expect("short"), web.back_at.expect("back"));
    assert!(60_000 <= short && short < back, "{web:?}");
}

/// A MachineHealthCheck drains the crashed nodes before their pods' 300s tolerations run out:
/// its drain's evictions are the outage's deletions, counted and named as the remediator's.
#[test]
fn a_machine_health_checks_drain_counts_as_the_outages_deletions() {
    let json = cluster(&[3, 3], true, 15, &on("60s", "NodeCrash", [1, 2])).replace(
        r#""events":["#,
        r#""remediation":[{"kind":"MachineHealthCheck"}],"events":["#,
    );
    let (_, o, agg) = build(&json);
    let s = spread(&o, &agg);
    let per_node: u32 = o.summary.nodes.iter().map(|n| n.pods_deleted).sum();
    assert!(per_node > 0, "{:?}", o.summary.nodes);
    assert_eq!(s.pods_deleted, per_node as usize);
    let drain = Cause::new("ui.deleter.remediator_drain").text("remediator", "MachineHealthCheck");
    assert!(
        s.deleted_by.iter().any(|(by, n)| *by == drain && *n > 0),
        "{:?}",
        s.deleted_by
    );
    let first = s.first_deleted.expect("a deletion");
    assert!(first.at > 60_000 && first.by.is_some(), "{first:?}");
}

fn texts() -> AggregateTexts {
    AggregateTexts {
        zones: "Nodes by zone".into(),
        workloads: "Pods by workload".into(),
        no_zone: "(no zone)".into(),
        node_states: [
            "Ready",
            "cordoned",
            "NotReady",
            "Unknown",
            "tainted NoExecute",
            "deleted",
        ]
        .map(String::from),
        pod_states: ["Ready", "NotReady", "Terminating", "Pending"].map(String::from),
        zone_nodes: "{count} nodes".into(),
        workload_ready: "{ready}/{desired} Ready".into(),
        zone_state: "Zone state".into(),
    }
}

fn svg(agg: &Aggregate, duration: Millis, now: Option<Millis>) -> (String, Vec<kubelife_figures::Row>, u32) {
    let t = texts();
    let f = AggregateFigure {
        aggregate: agg,
        duration,
        now,
        texts: &t,
        legend: true,
    };
    let height = f.height(900);
    let mut out = String::new();
    let rows = {
        let root = SVGBackend::with_string(&mut out, (900, height)).into_drawing_area();
        let rows = draw_aggregate(&root, &f).expect("drawn");
        root.present().expect("presented");
        rows
    };
    assert_eq!(rows, f.rows());
    (out, rows, height)
}

#[test]
fn the_figure_has_a_row_per_zone_and_workload_and_a_legend() {
    let (cfg, _, agg) = zone_b_lost();
    let (out, rows, height) = svg(&agg, cfg.duration, Some(ms("2m0s")));
    let kinds: Vec<(RowKind, &str)> = rows.iter().map(|r| (r.kind, r.name.as_str())).collect();
    assert_eq!(
        kinds,
        [
            (RowKind::Zone, "zone-a"),
            (RowKind::Zone, "zone-b"),
            (RowKind::Zone, "zone-c"),
            (RowKind::Workload, "web"),
            (RowKind::Workload, "agent"),
        ]
    );
    for pair in rows.windows(2) {
        assert!(pair[0].y0 < pair[0].y1 && pair[0].y1 <= pair[1].y0, "{pair:?}");
    }
    assert!(rows.last().is_some_and(|r| r.y1 < height as i32));
    for text in [
        "Nodes by zone",
        "10 nodes",
        "FullDisruption",
        "20/30 Ready",
        "tainted NoExecute",
        "2m0s",
    ] {
        assert!(out.contains(text), "{text} missing");
    }
}

#[test]
fn a_row_opens_the_lanes_of_its_nodes_or_its_pods() {
    let (cfg, o, agg) = zone_b_lost();
    let t = texts();
    let figure = AggregateFigure {
        aggregate: &agg,
        duration: cfg.duration,
        now: None,
        texts: &t,
        legend: false,
    };
    let rows = figure.rows();
    let every = lanes(&o, cfg.duration, usize::MAX);
    let same_as_timeline = |opened: &[Lane]| {
        for lane in opened {
            assert_eq!(Some(lane), every.iter().find(|l| l.name == lane.name));
        }
    };
    let zone_b = rows.iter().find(|r| r.name == "zone-b").expect("a zone-b row");
    let nodes = agg.zone_nodes(zone_b.index);
    let want: Vec<String> = (2..=30).step_by(3).map(|n| format!("node-{n}")).collect();
    assert_eq!(nodes, want);
    let opened = lanes_of(&o, cfg.duration, &nodes, &[]);
    assert_eq!(opened.iter().map(|l| l.name.as_str()).collect::<Vec<_>>(), nodes);
    assert!(opened.iter().all(|l| l.segments.iter().any(|s| s.2 == LaneState::Bad)));
    same_as_timeline(&opened);
    let web = rows.iter().find(|r| r.name == "web").expect("a web row");
    let pods = agg.workload_pods(web.index);
    let created = o
        .events
        .iter()
        .filter(|e| e.kind == EventKind::PodCreated && e.pod.as_deref().is_some_and(|p| p.starts_with("web-")))
        .count();
    assert_eq!(pods.len(), created);
    let opened = lanes_of(&o, cfg.duration, &[], &pods);
    assert_eq!(opened.len(), created);
    same_as_timeline(&opened);
}

/// A 5,000-node cluster in ten zones, with three web pods per node, loses zone-b (500 nodes) at
/// 60s: the build is timed and
/// printed (`cargo test --release -p kubelife-figures -- --nocapture five_thousand`), and its
/// counts are checked like the small ones'.
#[test]
fn five_thousand_nodes_in_ten_zones_lose_one() {
    let nodes = 5_000;
    let json = cluster_of(
        &[nodes / 10; 10],
        true,
        30,
        &on("60s", "NodeCrash", (2..=nodes).step_by(10)),
        3,
    );
    let (cfg, o) = run_scenario(&json);
    // The first build pays for fresh memory; the second is what a warm page sees.
    let timed = || {
        let started = std::time::Instant::now();
        let agg = Aggregate::build(&o, cfg.duration, &EvictionRates::of(&cfg));
        (agg, started.elapsed())
    };
    let (first, cold) = timed();
    let (agg, built) = timed();
    assert_eq!(first, agg);
    let started = std::time::Instant::now();
    let s = spread(&o, &agg);
    let grid = agg.grid_at(ms("10m0s"));
    let read = started.elapsed();
    let started = std::time::Instant::now();
    let (_, rows, _) = svg(&agg, cfg.duration, Some(ms("10m0s")));
    let drawn = started.elapsed();
    println!(
        "{} events, {nodes} nodes: build {cold:?} (again {built:?}), spread and grid {read:?}, SVG {drawn:?}",
        o.events.len()
    );
    assert_eq!(rows.len(), 12);
    assert_eq!(grid.zones.iter().map(|z| z.cells.len()).sum::<usize>(), nodes);
    // At 0.1 nodes per second, a sixth of zone-b is tainted by the end.
    let end = agg.counts_at(cfg.duration);
    assert_eq!(s.nodes_tainted as u32, end[1].nodes.get(Tainted));
    assert!((100..500).contains(&s.nodes_tainted), "{}", s.nodes_tainted);
    check(
        &o,
        &agg,
        &[500; 10],
        &[(
            "10m0s",
            &[
                Want::Zone("zone-b", ZoneState::FullDisruption),
                Want::Nodes("zone-a", &[Ready], 500),
                Want::ReadyUnknown("zone-b", 500),
                Want::UnknownTotal(500),
            ],
        )],
    );
}
