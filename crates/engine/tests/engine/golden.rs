//! The upstream test cases of spec §8, re-expressed against the engine's controllers. Each test
//! names its G number and the upstream test it mirrors. Times: 12:00 of the upstream fake clock is
//! t = 0 here; "old" nodes were created years before.

use kubelife_engine::api::{
    Api, CondStatus, Condition, Effect, Node, NodeId, NodeStatus, Pod, PodId, Reason, Taint, Versioned,
    LABEL_EXCLUDE_DISRUPTION,
};
use kubelife_engine::api::{Toleration, TolerationSource};
use kubelife_engine::control_plane::node_lifecycle::{
    is_excluded_from_disruption, NlcSettings, NodeHealth, NodeLifecycleController,
};
use kubelife_engine::control_plane::taint_eviction::TaintEvictionController;
use kubelife_engine::sched::Wake;
use kubelife_engine::time::{Millis, HOUR, MINUTE, SECOND};
use kubelife_engine::timeline::{Log, ZoneState};
use kubelife_engine::world::World;

const OLD: Millis = -3 * 365 * 24 * HOUR;
const UNREACHABLE: &str = "node.kubernetes.io/unreachable";
const NOT_READY: &str = "node.kubernetes.io/not-ready";

fn cond(status: CondStatus, hb: Millis) -> Option<Condition> {
    Some(Condition {
        status,
        heartbeat: hb,
        transition: hb,
        reason: Reason::Kubelet,
    })
}

/// An apiserver whose clients have no rate limit, as upstream's unit tests use fake clients.
fn unlimited_api() -> Api {
    Api {
        clients: kubelife_engine::api::client::Clients::new(1e12, u32::MAX, true),
        ..Api::default()
    }
}

fn ready(status: CondStatus, hb: Millis) -> NodeStatus {
    NodeStatus {
        ready: cond(status, hb),
        ..NodeStatus::default()
    }
}

/// A node lifecycle controller over a hand-built apiserver, driven pass by pass (Config A).
struct Nlc {
    api: Api,
    nlc: NodeLifecycleController,
    log: Log,
}

impl Nlc {
    fn new(grace: Millis) -> Nlc {
        let settings = NlcSettings::taint_based(grace, MINUTE, 100_000.0, 100_000.0, 20, 0.55);
        Nlc {
            api: unlimited_api(),
            nlc: NodeLifecycleController::new(settings),
            log: Log::default(),
        }
    }

    fn config_a() -> Nlc {
        Nlc::new(50 * SECOND)
    }

    fn node(&mut self, name: &str, zone: &str, created: Millis, status: NodeStatus) -> NodeId {
        self.api.add_node(Node {
            name: name.into(),
            zone_key: zone.into(),
            zone: zone.into(),
            labels: Default::default(),
            max_pods: 110,
            created_at: created,
            exists: true,
            status: Versioned::new(status),
            lease: Versioned::new(None),
            taints: Vec::new(),
            unschedulable: false,
            pods: Vec::new(),
        })
    }

    /// Old nodes in one zone, one per status, with heartbeats at `hb`.
    fn nodes(&mut self, zone: &str, statuses: &[CondStatus], hb: Millis) -> Vec<NodeId> {
        let first = self.api.nodes.len();
        statuses
            .iter()
            .enumerate()
            .map(|(i, &s)| self.node(&format!("node{}", first + i), zone, OLD, ready(s, hb)))
            .collect()
    }

    /// Gives each node the status of the same index: Unknown with the old heartbeat, or a fresh True.
    fn report(&mut self, ids: &[NodeId], statuses: &[CondStatus], now: Millis) {
        for (&n, &s) in ids.iter().zip(statuses) {
            let hb = if s == CondStatus::True { now } else { 0 };
            self.set(n, ready(s, hb));
        }
    }

    fn set(&mut self, n: NodeId, status: NodeStatus) {
        self.api.nodes[n].status = Versioned::new(status);
    }

    fn lease(&mut self, n: NodeId, renew: Millis) {
        self.api.nodes[n].lease = Versioned::new(Some(renew));
    }

    fn pod(&mut self, n: NodeId) -> PodId {
        let id = self.api.pods.len();
        self.api.pods.push(pod_on(Some(n), Vec::new()));
        self.api.pods[id].name = format!("pod{id}");
        self.api.nodes[n].pods.push(id);
        id
    }

    /// Runs `f` at `now` on a world that holds this harness's objects and log.
    fn in_world(&mut self, now: Millis, f: impl FnOnce(&mut NodeLifecycleController, &mut World)) {
        let mut w = World {
            now,
            api: std::mem::take(&mut self.api),
            log: std::mem::take(&mut self.log),
            ..World::default()
        };
        f(&mut self.nlc, &mut w);
        (self.api, self.log) = (w.api, w.log);
    }

    fn pass(&mut self, now: Millis) {
        self.in_world(now, |nlc, w| nlc.monitor_node_health(w));
    }

    /// Tainting ticks a millisecond apart until the queues drain, as real time passes in upstream tests.
    fn taint_pass(&mut self, now: Millis) {
        for i in 0..20 {
            self.in_world(now + i, |nlc, w| nlc.do_no_execute_tainting_pass(w));
        }
    }

    fn zone(&self, z: &str) -> ZoneState {
        self.nlc.zones[z].state
    }

    fn status_writes(&self) -> u64 {
        self.api.writes.node_status_updates_by_controller
    }

    fn latest(&self, n: NodeId) -> NodeStatus {
        self.api.nodes[n].status.latest()
    }

    fn taints(&self, n: NodeId) -> Vec<String> {
        self.api.nodes[n].taints.iter().map(Taint::label).collect()
    }
}

fn pod_on(node: Option<NodeId>, tolerations: Vec<Toleration>) -> Pod {
    Pod {
        name: "pod".into(),
        workload: 0,
        ordinal: None,
        node,
        tolerations: std::rc::Rc::new(tolerations),
        grace_seconds: 30,
        created_at: 0,
        ready: Some(true),
        deletion_requested_at: None,
        removed_at: None,
        running: true,
        replaces: None,
        daemon: false,
        status_reason: None,
        failed: false,
        stopped_at: None,
    }
}

// §8.1 Zone state machine (TestMonitorNodeHealth).

/// One zone-state case of `TestMonitorNodeHealthEvictPods` / `handleDisruption`: each node's zone
/// key, creation time and Ready status at 12:00 and an hour later (`None`: no conditions at all),
/// and each zone's expected state after the pass at 12:00 and after the one an hour later.
struct ZoneCase {
    spec: &'static str,
    nodes: &'static [(&'static str, Millis, Option<CondStatus>, Option<CondStatus>)],
    zones: &'static [(&'static str, ZoneState, ZoneState)],
}

/// Runs a zone-state case pass by pass and compares every zone's state.
fn check(case: &ZoneCase) {
    let mut h = Nlc::config_a();
    let status = |s: Option<CondStatus>, at: Millis| match s {
        Some(CondStatus::True) => ready(CondStatus::True, at),
        Some(other) => ready(other, 0),
        None => NodeStatus::default(),
    };
    let ids: Vec<NodeId> = (case.nodes.iter().enumerate())
        .map(|(i, &(zone, created, first, _))| h.node(&format!("node{i}"), zone, created, status(first, 0)))
        .collect();
    h.pass(0);
    for &(zone, first, _) in case.zones {
        assert_eq!(h.zone(zone), first, "{}: {zone:?} after the first pass", case.spec);
    }
    for (&n, &(_, _, _, later)) in ids.iter().zip(case.nodes) {
        h.set(n, status(later, HOUR));
    }
    h.pass(HOUR);
    for &(zone, _, then) in case.zones {
        assert_eq!(h.zone(zone), then, "{}: {zone:?} an hour later", case.spec);
    }
}

use CondStatus::{True as T, Unknown as U};
use ZoneState::{FullDisruption as Full, Normal, PartialDisruption as Partial};

#[test]
fn g01_to_g08_zone_states() {
    let cases = [
        ZoneCase {
            spec: "G1 no zone labels stays Normal",
            nodes: &[("", 0, Some(T), Some(T))],
            zones: &[("", Normal, Normal)],
        },
        ZoneCase {
            spec: "G2 both zones down, then one back",
            nodes: &[("zone1", OLD, Some(U), Some(U)), ("zone2", OLD, Some(U), Some(T))],
            zones: &[("zone1", Full, Full), ("zone2", Full, Normal)],
        },
        ZoneCase {
            spec: "G3 nodes without conditions count as not Ready",
            nodes: &[
                ("zone1", 0, None, Some(U)),
                ("zone1", 0, None, Some(U)),
                ("zone1", 0, None, Some(U)),
                ("zone1", 0, None, Some(T)),
            ],
            zones: &[("zone1", Full, Partial)],
        },
        ZoneCase {
            spec: "G4 the third failure of five crosses the threshold (0.6 ≥ 0.55)",
            nodes: &[
                ("zone1", OLD, Some(U), Some(U)),
                ("zone1", OLD, Some(U), Some(U)),
                ("zone1", OLD, Some(T), Some(U)),
                ("zone1", OLD, Some(T), Some(T)),
                ("zone1", OLD, Some(T), Some(T)),
            ],
            zones: &[("zone1", Normal, Partial)],
        },
        ZoneCase {
            spec: "G5 the last healthy node fails",
            nodes: &[
                ("zone1", OLD, Some(U), Some(U)),
                ("zone1", OLD, Some(U), Some(U)),
                ("zone1", OLD, Some(T), Some(U)),
            ],
            zones: &[("zone1", Normal, Full)],
        },
        ZoneCase {
            spec: "G6 one zone down",
            nodes: &[("zone1", OLD, Some(U), Some(U)), ("zone2", OLD, Some(T), Some(T))],
            zones: &[("zone1", Full, Full), ("zone2", Normal, Normal)],
        },
        ZoneCase {
            spec: "G7 both zones down, by region and zone",
            nodes: &[
                ("region1:\0:zone1", OLD, Some(U), Some(U)),
                ("region2:\0:zone2", OLD, Some(U), Some(U)),
            ],
            zones: &[("region1:\0:zone1", Full, Full), ("region2:\0:zone2", Full, Full)],
        },
        ZoneCase {
            spec: "G8 the Ready condition removed",
            nodes: &[("zone1", OLD, Some(T), None)],
            zones: &[("zone1", Normal, Full)],
        },
    ];
    for case in &cases {
        check(case);
    }
}

#[test]
fn g09_excluded_node_is_not_counted() {
    let mut h = Nlc::config_a();
    h.node("node0", "zone1", OLD, ready(CondStatus::Unknown, 0));
    let m = h.node("node-master", "zone1", OLD, ready(CondStatus::True, 0));
    h.api.nodes[m]
        .labels
        .insert(LABEL_EXCLUDE_DISRUPTION.into(), String::new());
    h.pass(0);
    assert_eq!(h.zone("zone1"), ZoneState::FullDisruption);
    h.set(m, ready(CondStatus::True, HOUR));
    h.pass(HOUR);
    assert_eq!(h.zone("zone1"), ZoneState::FullDisruption);
}

// §8.2 Ready=Unknown marking (TestMonitorNodeHealthUpdateStatus).

#[test]
fn g10_old_node_without_status_gets_four_unknown_conditions() {
    let mut h = Nlc::config_a();
    let n = h.node("node0", "", OLD, NodeStatus::default());
    let p = h.pod(n);
    h.pass(0);
    assert_eq!(h.status_writes(), 1);
    let s = h.latest(n);
    for c in [s.ready, s.memory_pressure, s.disk_pressure, s.pid_pressure] {
        let c = c.expect("appended");
        assert_eq!(
            (c.status, c.reason, c.heartbeat, c.transition),
            (CondStatus::Unknown, Reason::NodeStatusNeverUpdated, OLD, 0)
        );
    }
    assert_eq!(
        h.api.pods[p].ready,
        Some(true),
        "a node that never was Ready does not mark pods"
    );
}

#[test]
fn g11_new_node_within_startup_grace() {
    let mut h = Nlc::config_a();
    h.node("node0", "", 0, NodeStatus::default());
    h.pass(0);
    assert_eq!(h.status_writes(), 0);
}

#[test]
fn g12_stale_heartbeat_becomes_unknown_and_pods_not_ready() {
    let mut h = Nlc::config_a();
    let n = h.node("node0", "", OLD, ready(CondStatus::True, 0));
    let p = h.pod(n);
    h.pass(0);
    h.pass(HOUR);
    assert_eq!(h.status_writes(), 1);
    let s = h.latest(n);
    let r = s.ready.unwrap();
    assert_eq!(
        (r.status, r.reason, r.heartbeat, r.transition),
        (CondStatus::Unknown, Reason::NodeStatusUnknown, 0, HOUR)
    );
    for c in [s.memory_pressure, s.disk_pressure, s.pid_pressure] {
        let c = c.unwrap();
        assert_eq!(
            (c.reason, c.heartbeat, c.transition),
            (Reason::NodeStatusNeverUpdated, OLD, HOUR)
        );
    }
    assert_eq!(h.api.pods[p].ready, Some(false));
}

#[test]
fn g13_fresh_heartbeat_writes_nothing() {
    let mut h = Nlc::config_a();
    h.node("node0", "", OLD, ready(CondStatus::True, 0));
    h.pass(0);
    assert_eq!(h.status_writes(), 0);
}

// §8.3 Lease against status heartbeat (TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease).

fn lease_case(
    created: Millis,
    status: NodeStatus,
    lease0: Option<Millis>,
    status1: NodeStatus,
    lease1: Option<Millis>,
) -> (Nlc, NodeId, PodId) {
    let mut h = Nlc::config_a();
    let n = h.node("node0", "", created, status);
    let p = h.pod(n);
    if let Some(l) = lease0 {
        h.lease(n, l);
    }
    h.pass(0);
    h.set(n, status1);
    if let Some(l) = lease1 {
        h.lease(n, l);
    }
    h.pass(HOUR);
    (h, n, p)
}

#[test]
fn g14_g15_new_node_with_or_without_lease() {
    // Upstream passes no time for the "created recently" cases.
    let mut h = Nlc::config_a();
    h.node("node0", "", 0, NodeStatus::default());
    h.pass(0);
    h.pass(0);
    assert_eq!(h.status_writes(), 0, "G14");
    let mut h = Nlc::config_a();
    let n = h.node("node0", "", 0, NodeStatus::default());
    h.lease(n, 0);
    h.pass(0);
    assert_eq!(h.status_writes(), 0, "G15");
}

#[test]
fn g16_old_node_without_lease() {
    let mut h = Nlc::config_a();
    let n = h.node("node0", "", OLD, NodeStatus::default());
    let p = h.pod(n);
    h.pass(0);
    assert_eq!(h.status_writes(), 1);
    assert_eq!(h.latest(n).ready.unwrap().reason, Reason::NodeStatusNeverUpdated);
    assert_eq!(h.api.pods[p].ready, Some(true));
}

#[test]
fn g17_renewed_lease_keeps_a_statusless_node_healthy() {
    let (h, _, _) = lease_case(OLD, NodeStatus::default(), Some(0), NodeStatus::default(), Some(HOUR));
    assert_eq!(h.status_writes(), 0);
}

#[test]
fn g18_expired_lease_on_a_statusless_node() {
    let (h, n, p) = lease_case(OLD, NodeStatus::default(), Some(0), NodeStatus::default(), None);
    assert_eq!(
        h.status_writes(),
        1,
        "first sighting of the lease refreshed the probe in pass 1 only"
    );
    let s = h.latest(n);
    assert!([s.ready, s.memory_pressure, s.disk_pressure, s.pid_pressure]
        .iter()
        .all(|c| c.unwrap().reason == Reason::NodeStatusNeverUpdated && c.unwrap().transition == HOUR));
    assert_eq!(h.api.pods[p].ready, Some(true));
}

#[test]
fn g19_renewed_lease_covers_a_stale_status() {
    let mut st = ready(CondStatus::True, 0);
    st.disk_pressure = cond(CondStatus::False, 0);
    let (h, _, _) = lease_case(OLD, st, Some(0), st, Some(HOUR));
    assert_eq!(h.status_writes(), 0);
}

#[test]
fn g20_fresh_status_covers_an_expired_lease() {
    let (h, _, _) = lease_case(
        OLD,
        ready(CondStatus::True, 0),
        Some(0),
        ready(CondStatus::True, HOUR),
        None,
    );
    assert_eq!(h.status_writes(), 0);
}

#[test]
fn g21_both_stale_marks_unknown() {
    let (h, n, p) = lease_case(
        OLD,
        ready(CondStatus::True, 0),
        Some(0),
        ready(CondStatus::True, 0),
        None,
    );
    assert_eq!(h.status_writes(), 1);
    let s = h.latest(n);
    let r = s.ready.unwrap();
    assert_eq!(
        (r.status, r.reason, r.heartbeat, r.transition),
        (CondStatus::Unknown, Reason::NodeStatusUnknown, 0, HOUR)
    );
    for c in [s.memory_pressure, s.disk_pressure, s.pid_pressure] {
        assert_eq!(
            (c.unwrap().reason, c.unwrap().heartbeat),
            (Reason::NodeStatusNeverUpdated, OLD)
        );
    }
    assert_eq!(h.api.pods[p].ready, Some(false));
}

// §8.4 Grace boundary, pod NotReady marking and retries.

#[test]
fn g22_pods_marked_not_ready_only_after_grace() {
    let mut h = Nlc::config_a();
    let n = h.node("node0", "", 0, NodeStatus::default());
    let p = h.pod(n);
    h.pass(0);
    assert_eq!(h.api.writes.pod_status_updates, 0, "(a) new node without status");
    let mut h = Nlc::config_a();
    let n = h.node("node0", "", OLD, ready(CondStatus::True, 0));
    h.pod(n);
    h.pass(0);
    assert_eq!(h.api.writes.pod_status_updates, 0, "(b) fresh heartbeat");
    h.pass(MINUTE);
    assert_eq!(h.api.writes.pod_status_updates, 1, "(c) 60s > 50s");
    let _ = p;
}

#[test]
fn g23_grace_test_is_strict() {
    let mut h = Nlc::config_a();
    let n = h.node("node0", "", OLD, ready(CondStatus::True, 0));
    h.pass(0);
    h.pass(50 * SECOND);
    assert_eq!(
        h.latest(n).ready.unwrap().status,
        CondStatus::True,
        "exactly probe + grace is not after it"
    );
    h.pass(50 * SECOND + 1);
    assert_eq!(h.latest(n).ready.unwrap().status, CondStatus::Unknown);
}

#[test]
fn g24_every_pod_marked_once() {
    let mut h = Nlc::config_a();
    for i in 0..50 {
        let n = h.node(&format!("node{i}"), "", OLD, ready(CondStatus::True, 0));
        for _ in 0..100 {
            h.pod(n);
        }
    }
    h.pass(0);
    h.pass(MINUTE);
    assert_eq!(h.api.writes.pod_status_updates, 5000);
}

fn g25_run(failures: (u32, u32)) -> (Nlc, PodId, Vec<Option<bool>>) {
    let mut h = Nlc::config_a();
    let n = h.node("node0", "", 0, ready(CondStatus::True, 0));
    let p = h.pod(n);
    h.nlc.failures.pod_status_updates = failures.0;
    h.nlc.failures.pod_lists = failures.1;
    let mut seen = Vec::new();
    h.pass(0);
    seen.push(h.api.pods[p].ready);
    h.pass(MINUTE);
    seen.push(h.api.pods[p].ready);
    h.set(
        n,
        NodeStatus {
            ready: Some(Condition {
                status: CondStatus::False,
                heartbeat: 2 * SECOND,
                transition: 2 * SECOND,
                reason: Reason::Kubelet,
            }),
            ..Default::default()
        },
    );
    h.pass(MINUTE);
    seen.push(h.api.pods[p].ready);
    (h, p, seen)
}

#[test]
fn g25_one_update_without_retry() {
    let (h, _, seen) = g25_run((0, 0));
    assert_eq!(h.api.writes.pod_status_updates, 1);
    assert_eq!(seen, [Some(true), Some(false), Some(false)]);
}

#[test]
fn g26_failed_update_is_retried_next_pass() {
    let (h, _, seen) = g25_run((1, 0));
    assert_eq!(
        seen,
        [Some(true), Some(true), Some(false)],
        "failed in the Unknown pass, retried in the next"
    );
    assert_eq!(
        h.api.writes.pod_status_updates, 1,
        "one failed attempt plus one successful update"
    );
    assert_eq!(h.nlc.failures.pod_status_updates, 0);
}

#[test]
fn g27_failed_listing_while_ready_needs_no_retry() {
    let (h, _, seen) = g25_run((0, 1));
    assert_eq!(seen, [Some(true), Some(false), Some(false)]);
    assert_eq!(h.api.writes.pod_status_updates, 1);
}

// §8.5 Taints, NLC side (TestApplyNoExecuteTaints and friends).

fn g29_cluster() -> (Nlc, [NodeId; 4]) {
    let mut h = Nlc::config_a();
    let day = 24 * HOUR;
    let n0 = h.node("node0", "zone1", OLD, ready(CondStatus::Unknown, -2 * 365 * day));
    let n1 = h.node("node1", "zone1", OLD, ready(CondStatus::True, 0));
    let n2 = h.node("node2", "zone1", OLD, ready(CondStatus::False, -2 * 365 * day));
    let n3 = h.node("node3", "zone1", OLD, ready(CondStatus::True, -365 * day));
    (h, [n0, n1, n2, n3])
}

#[test]
fn g29_unknown_and_false_nodes_get_their_taints() {
    let (mut h, [n0, n1, n2, n3]) = g29_cluster();
    h.pass(0);
    h.taint_pass(0);
    assert_eq!(h.taints(n0), [format!("{UNREACHABLE}:NoExecute")]);
    assert!(h.taints(n1).is_empty());
    assert_eq!(h.taints(n2), [format!("{NOT_READY}:NoExecute")]);
    assert!(h.taints(n3).is_empty(), "first sighting counts as a fresh heartbeat");
}

#[test]
fn g30_node_ready_again_loses_its_taint() {
    let (mut h, [_, n1, n2, _]) = g29_cluster();
    h.pass(0);
    h.taint_pass(0);
    h.set(n1, ready(CondStatus::True, 10 * MINUTE));
    h.set(n2, ready(CondStatus::True, 10 * MINUTE));
    h.pass(10 * MINUTE);
    h.taint_pass(10 * MINUTE);
    assert!(h.taints(n2).is_empty());
}

#[test]
fn g31_node_without_ready_condition_is_not_tainted() {
    let (mut h, [_, _, _, n3]) = g29_cluster();
    h.pass(0);
    h.taint_pass(0);
    h.set(n3, ready(CondStatus::False, 10 * MINUTE));
    h.pass(10 * MINUTE);
    h.set(
        n3,
        NodeStatus {
            memory_pressure: cond(CondStatus::Unknown, 10 * MINUTE),
            ..Default::default()
        },
    );
    h.taint_pass(10 * MINUTE);
    assert!(h.taints(n3).is_empty());
}

#[test]
fn g32_stale_queue_entry_is_harmless() {
    let mut h = Nlc::config_a();
    let n0 = h.node("node0", "zone1", OLD, ready(CondStatus::Unknown, -HOUR));
    h.node("node1", "zone1", OLD, ready(CondStatus::True, 0));
    h.node("node2", "zone1", OLD, ready(CondStatus::False, -HOUR));
    h.pass(0);
    h.pass(SECOND);
    h.set(n0, ready(CondStatus::True, 2 * SECOND));
    let n3 = h.node("node3", "zone1", OLD, ready(CondStatus::Unknown, -HOUR));
    h.node("node4", "zone1", OLD, ready(CondStatus::True, 2 * SECOND));
    let n5 = h.node("node5", "zone1", OLD, ready(CondStatus::False, -HOUR));
    h.pass(2 * SECOND);
    h.taint_pass(2 * SECOND);
    assert!(h.taints(n0).is_empty(), "node0's entry is consumed without a taint");
    assert_eq!(h.taints(n3), [format!("{UNREACHABLE}:NoExecute")]);
    assert_eq!(h.taints(n5), [format!("{NOT_READY}:NoExecute")]);
}

#[test]
fn g33_swap_is_immediate() {
    let mut h = Nlc::config_a();
    let n0 = h.node("node0", "zone1", OLD, ready(CondStatus::Unknown, -HOUR));
    let n1 = h.node("node1", "zone1", OLD, ready(CondStatus::True, 0));
    h.pass(0);
    h.taint_pass(0);
    assert_eq!(h.taints(n0), [format!("{UNREACHABLE}:NoExecute")]);
    h.set(n0, ready(CondStatus::False, 9 * MINUTE));
    h.set(n1, ready(CondStatus::True, 9 * MINUTE));
    h.pass(10 * MINUTE);
    assert_eq!(
        h.taints(n0),
        [format!("{NOT_READY}:NoExecute")],
        "swapped inside the monitor pass"
    );
}

#[test]
fn g34_no_schedule_taints_follow_conditions() {
    let cases: [(NodeStatus, &str); 4] = [
        (
            NodeStatus {
                network_unavailable: cond(CondStatus::True, 0),
                ..ready(CondStatus::True, 0)
            },
            "node.kubernetes.io/network-unavailable:NoSchedule",
        ),
        (
            NodeStatus {
                network_unavailable: cond(CondStatus::True, 0),
                ..ready(CondStatus::True, 0)
            },
            "node.kubernetes.io/network-unavailable:NoSchedule",
        ),
        (ready(CondStatus::False, 0), "node.kubernetes.io/not-ready:NoSchedule"),
        (
            ready(CondStatus::Unknown, 0),
            "node.kubernetes.io/unreachable:NoSchedule",
        ),
    ];
    let mut h = Nlc::config_a();
    let n = h.node("node0", "", OLD, ready(CondStatus::True, 0));
    for (status, want) in cases {
        h.set(n, status);
        h.in_world(0, |nlc, w| nlc.do_no_schedule_tainting_pass(w, n));
        assert_eq!(h.taints(n), [want.to_string()]);
    }
}

#[test]
fn g35_saved_status_matches_returned_status() {
    for status in [
        Some(CondStatus::True),
        Some(CondStatus::False),
        Some(CondStatus::Unknown),
        None,
    ] {
        for (created, hb) in [(0, 0), (-365 * 24 * HOUR, -365 * 24 * HOUR)] {
            let mut h = Nlc::config_a();
            let st = NodeStatus {
                ready: status.and_then(|s| cond(s, hb)),
                ..Default::default()
            };
            let n = h.node("node0", "", created, st);
            h.nlc.health = vec![Some(NodeHealth {
                probe: created,
                ready_transition: created,
                status: st,
                lease: None,
            })];
            let (_, current) = h
                .nlc
                .try_update_node_health(0, n, &mut h.api, &mut h.log)
                .expect("judged");
            let saved = h.nlc.health[n].as_ref().unwrap().status.ready;
            assert_eq!(saved, current, "{status:?} created {created}");
            if created < 0 {
                assert_eq!(current.unwrap().status, CondStatus::Unknown);
            }
        }
    }
}

#[test]
fn g36_exclusion_by_label_only() {
    let mut h = Nlc::config_a();
    let plain = h.node("node0", "", 0, NodeStatus::default());
    let named = h.node("master-abc", "", 0, NodeStatus::default());
    let labelled = h.node("node2", "", 0, NodeStatus::default());
    h.api.nodes[labelled]
        .labels
        .insert(LABEL_EXCLUDE_DISRUPTION.into(), String::new());
    assert!(!is_excluded_from_disruption(&h.api, plain));
    assert!(!is_excluded_from_disruption(&h.api, named));
    assert!(is_excluded_from_disruption(&h.api, labelled));
}

// §8.9 Taint eviction (TE-test), driven with explicit time.

struct Te {
    w: World,
    te: TaintEvictionController,
    deleted: Vec<(PodId, Millis)>,
}

fn toleration(key: &str, secs: Option<i64>) -> Toleration {
    Toleration {
        key: key.into(),
        exists: false,
        value: key.trim_start_matches("testTaint").into(),
        effect: Some(Effect::NoExecute),
        toleration_seconds: secs,
        source: TolerationSource::Spec,
    }
}

fn test_taint(i: u32) -> Taint {
    Taint {
        key: format!("testTaint{i}"),
        value: i.to_string(),
        effect: Effect::NoExecute,
        time_added: 0,
    }
}

impl Te {
    fn new() -> Te {
        let mut h = Nlc::config_a();
        h.node("node1", "", OLD, ready(CondStatus::True, 0));
        Te {
            w: World {
                api: h.api,
                ..World::default()
            },
            te: TaintEvictionController::new("taint-eviction-controller", true),
            deleted: Vec::new(),
        }
    }

    fn pod(&mut self, node: Option<NodeId>, tolerations: Vec<Toleration>) -> PodId {
        let api = &mut self.w.api;
        let id = api.pods.len();
        api.pods.push(pod_on(node, tolerations));
        if let Some(n) = node {
            api.nodes[n].pods.push(id);
        }
        id
    }

    fn taint(&mut self, now: Millis, taints: &[Taint]) {
        self.w.api.nodes[0].taints = taints.to_vec();
        self.w.now = now;
        self.te.handle_node_update(&mut self.w, 0);
    }

    /// Binds an unscheduled pod to node1 (the binding reaches the controller later).
    fn bind(&mut self, p: PodId) {
        self.w.api.pods[p].node = Some(0);
        self.w.api.nodes[0].pods.push(p);
    }

    fn pod_update(&mut self, now: Millis, p: PodId) {
        self.w.now = now;
        self.te.handle_pod_update(&mut self.w, p);
    }

    /// Fires every timer due by `to`, in time order.
    fn advance(&mut self, to: Millis) {
        while self.w.timers.peek_at().is_some_and(|at| at <= to) {
            let Some((at, _, Wake::Evict { pod })) = self.w.timers.pop() else {
                continue;
            };
            self.w.now = at;
            let before = self.w.api.pods[pod].deletion_requested_at;
            self.te.fire(&mut self.w, pod);
            if before.is_none() && self.w.api.pods[pod].deletion_requested_at.is_some() {
                self.deleted.push((pod, at));
            }
        }
    }

    fn deleted_at(&self, p: PodId) -> Option<Millis> {
        self.deleted.iter().find(|d| d.0 == p).map(|d| d.1)
    }
}

#[test]
fn g54_unscheduled_or_untainted_is_ignored() {
    let mut t = Te::new();
    let loose = t.pod(None, vec![]);
    t.pod_update(0, loose);
    let placed = t.pod(Some(0), vec![]);
    t.pod_update(0, placed);
    t.advance(5 * SECOND);
    assert!(t.deleted.is_empty());
}

#[test]
fn g55_pod_on_tainted_node_without_toleration_goes_at_once() {
    let mut t = Te::new();
    t.taint(0, &[test_taint(1)]);
    let p = t.pod(Some(0), vec![]);
    t.pod_update(0, p);
    t.advance(0);
    assert_eq!(t.deleted_at(p), Some(0));
    assert_eq!(
        t.w.api.writes.pod_status_updates, 1,
        "DisruptionTarget patched before the DELETE"
    );
}

#[test]
fn g56_finite_and_infinite_tolerations_wait() {
    let mut t = Te::new();
    t.taint(0, &[test_taint(1)]);
    let finite = t.pod(Some(0), vec![toleration("testTaint1", Some(100))]);
    let forever = t.pod(Some(0), vec![toleration("testTaint1", None)]);
    t.pod_update(0, finite);
    t.pod_update(0, forever);
    t.advance(5 * SECOND);
    assert!(t.deleted.is_empty());
}

#[test]
fn g57_toleration_for_another_taint_does_not_help() {
    let mut t = Te::new();
    t.taint(0, &[test_taint(1)]);
    let p = t.pod(Some(0), vec![toleration("testTaint2", None)]);
    t.pod_update(0, p);
    t.advance(0);
    assert_eq!(t.deleted_at(p), Some(0));
}

#[test]
fn g58_scheduling_onto_a_tainted_node() {
    let mut t = Te::new();
    t.taint(0, &[test_taint(1)]);
    let p = t.pod(None, vec![]);
    t.pod_update(0, p);
    t.bind(p);
    t.pod_update(SECOND, p);
    t.advance(SECOND);
    assert_eq!(t.deleted_at(p), Some(SECOND));
}

#[test]
fn g59_removing_the_toleration_evicts_at_once() {
    let mut t = Te::new();
    t.taint(0, &[test_taint(1)]);
    let p = t.pod(Some(0), vec![toleration("testTaint1", Some(100))]);
    t.pod_update(0, p);
    std::rc::Rc::make_mut(&mut t.w.api.pods[p].tolerations).clear();
    t.pod_update(SECOND, p);
    t.advance(SECOND);
    assert_eq!(t.deleted_at(p), Some(SECOND));
}

#[test]
fn g60_lengthening_the_toleration_does_not_work() {
    let mut t = Te::new();
    t.taint(0, &[test_taint(1)]);
    let p = t.pod(Some(0), vec![toleration("testTaint1", Some(1))]);
    t.pod_update(0, p);
    t.w.api.pods[p].tolerations = std::rc::Rc::new(vec![toleration("testTaint1", Some(100))]);
    t.pod_update(500, p);
    t.advance(100 * SECOND);
    assert_eq!(t.deleted_at(p), Some(SECOND));
}

#[test]
fn g61_node_created_tainted() {
    let mut t = Te::new();
    let bare = t.pod(Some(0), vec![]);
    let forever = t.pod(Some(0), vec![toleration("testTaint1", None)]);
    t.taint(0, &[test_taint(1)]);
    t.advance(5 * SECOND);
    assert_eq!(t.deleted_at(bare), Some(0));
    assert_eq!(t.deleted_at(forever), None);
    let mut untainted = Te::new();
    let p = untainted.pod(Some(0), vec![]);
    untainted.taint(0, &[]);
    untainted.advance(5 * SECOND);
    assert_eq!(untainted.deleted_at(p), None);
}

#[test]
fn g62_only_one_of_two_taints_tolerated() {
    let mut t = Te::new();
    let p = t.pod(Some(0), vec![toleration("testTaint1", None)]);
    t.taint(0, &[test_taint(1), test_taint(2)]);
    t.advance(0);
    assert_eq!(t.deleted_at(p), Some(0));
}

#[test]
fn g63_taint_removed_before_the_timer() {
    let mut t = Te::new();
    let p = t.pod(Some(0), vec![toleration("testTaint1", Some(1))]);
    t.taint(0, &[test_taint(1)]);
    t.taint(500, &[]);
    t.advance(1_500);
    assert_eq!(t.deleted_at(p), None);
}

#[test]
fn g64_the_shortest_toleration_wins() {
    let mut t = Te::new();
    let p = t.pod(
        Some(0),
        vec![toleration("testTaint1", Some(1)), toleration("testTaint2", Some(100))],
    );
    t.taint(0, &[test_taint(1), test_taint(2)]);
    t.advance(100 * SECOND);
    assert_eq!(t.deleted_at(p), Some(SECOND));
}

#[test]
fn g65_timer_only_while_the_finite_taint_is_present() {
    let mut t = Te::new();
    let p = t.pod(
        Some(0),
        vec![toleration("testTaint1", None), toleration("testTaint2", Some(60))],
    );
    t.taint(0, &[]);
    t.taint(SECOND, &[test_taint(1)]);
    assert!(t.te.timers[p].is_none(), "taint1 alone is tolerated forever");
    t.taint(2 * SECOND, &[test_taint(1), test_taint(2)]);
    assert!(t.te.timers[p].is_some(), "queued while taint2 is present");
    t.taint(3 * SECOND, &[test_taint(1)]);
    assert!(t.te.timers[p].is_none(), "dequeued when taint2 goes");
    t.advance(HOUR);
    assert_eq!(t.deleted_at(p), None);
}

#[test]
fn g66_pods_with_different_tolerations() {
    let mut t = Te::new();
    let none = t.pod(Some(0), vec![]);
    let one = t.pod(Some(0), vec![toleration("testTaint1", Some(1))]);
    let forever = t.pod(Some(0), vec![toleration("testTaint1", None)]);
    t.taint(0, &[test_taint(1)]);
    t.advance(HOUR);
    assert_eq!(
        (t.deleted_at(none), t.deleted_at(one), t.deleted_at(forever)),
        (Some(0), Some(SECOND), None)
    );
}

#[test]
fn g67_untolerated_second_taint_evicts_everyone() {
    let mut t = Te::new();
    let pods = [
        t.pod(Some(0), vec![]),
        t.pod(Some(0), vec![toleration("testTaint1", Some(1))]),
        t.pod(Some(0), vec![toleration("testTaint1", None)]),
    ];
    t.taint(0, &[test_taint(1), test_taint(2)]);
    t.advance(0);
    assert!(pods.iter().all(|&p| t.deleted_at(p) == Some(0)));
}

#[test]
fn g69_pod_arriving_after_the_taint_is_still_processed() {
    let mut t = Te::new();
    t.taint(0, &[test_taint(1)]);
    // The pod's binding arrives after the node update.
    let p = t.pod(None, vec![toleration("testTaint1", Some(1))]);
    t.bind(p);
    t.pod_update(2 * SECOND, p);
    t.advance(HOUR);
    assert_eq!(
        t.deleted_at(p),
        Some(3 * SECOND),
        "the countdown starts at the pod event"
    );
}

// §8.7–8.8 The legacy eviction path (Config B: grace 40s, QPS 10000, --pod-eviction-timeout
// 10m, taint manager off). A healthy node1 keeps the cluster out of master disruption mode.

impl Nlc {
    fn config_b(timeout: Millis) -> Nlc {
        let mut settings = NlcSettings::taint_based(40 * SECOND, MINUTE, 10_000.0, 10_000.0, 20, 0.55);
        settings.legacy_pod_eviction_timeout = Some(timeout);
        settings.exclusion_by_label = false;
        Nlc {
            api: unlimited_api(),
            nlc: NodeLifecycleController::new(settings),
            log: Log::default(),
        }
    }

    /// Evictor ticks a millisecond apart until the queues drain.
    fn evict_pass(&mut self, now: Millis) {
        for i in 0..20 {
            self.in_world(now + i, |nlc, w| nlc.do_eviction_pass(w));
        }
    }

    fn deleted(&self, p: PodId) -> bool {
        self.api.pods[p].deletion_requested_at.is_some()
    }
}

/// node0 with one pod and a healthy node1 in zone1; node0's status is `first` at 12:00 and
/// `later` at `at`; passes and evictor ticks at both times. Returns whether the pod was deleted.
fn legacy_case(first: NodeStatus, at: Millis, later: NodeStatus, daemon: bool) -> bool {
    let mut h = Nlc::config_b(10 * MINUTE);
    let n0 = h.node("node0", "zone1", OLD, first);
    let n1 = h.node("node1", "zone1", OLD, ready(CondStatus::True, 0));
    let p = h.pod(n0);
    h.api.pods[p].daemon = daemon;
    h.pass(0);
    h.evict_pass(0);
    h.set(n0, later);
    h.set(n1, ready(CondStatus::True, at - MINUTE));
    h.pass(at);
    h.evict_pass(at);
    h.deleted(p)
}

fn not_ready(hb: Millis, transition: Millis) -> NodeStatus {
    NodeStatus {
        ready: Some(Condition {
            status: CondStatus::False,
            heartbeat: hb,
            transition,
            reason: Reason::Kubelet,
        }),
        ..Default::default()
    }
}

#[test]
fn g41_g42_new_nodes_without_status_are_not_evicted() {
    let mut h = Nlc::config_b(10 * MINUTE);
    let n0 = h.node("node0", "", 0, NodeStatus::default());
    let p = h.pod(n0);
    h.pass(0);
    h.evict_pass(0);
    assert!(!h.deleted(p), "G41");
    // G42: the zone label comes back before the next pass.
    h.api.nodes[n0].zone_key = "zone1".into();
    h.pass(0);
    h.evict_pass(0);
    assert!(!h.deleted(p), "G42");
}

#[test]
fn g43_short_not_ready_is_not_evicted() {
    assert!(
        !legacy_case(not_ready(0, 0), 10 * MINUTE, not_ready(9 * MINUTE, 0), false),
        "12:10 is not after 12:00 + 10m"
    );
}

#[test]
fn g44_daemonset_pods_are_skipped() {
    assert!(!legacy_case(not_ready(0, 0), HOUR, not_ready(59 * MINUTE, 0), true));
}

#[test]
fn g45_long_not_ready_is_evicted() {
    assert!(legacy_case(not_ready(0, 0), HOUR, not_ready(59 * MINUTE, 0), false));
}

#[test]
fn g46_g47_timeout_counts_from_the_last_heartbeat() {
    let unknown = ready(CondStatus::Unknown, 0);
    assert!(
        !legacy_case(unknown, 9 * MINUTE + 20 * SECOND, unknown, false),
        "G46: 12:09:20 < probe 12:00 + 10m"
    );
    assert!(legacy_case(unknown, HOUR, unknown, false), "G47");
}

#[test]
fn g28_legacy_deletion_sets_node_lost() {
    let mut h = Nlc::config_b(5 * MINUTE);
    let n0 = h.node("node0", "zone1", OLD, ready(CondStatus::Unknown, 0));
    let n1 = h.node("node1", "zone1", OLD, ready(CondStatus::True, 0));
    let p = h.pod(n0);
    h.pass(0);
    h.set(n1, ready(CondStatus::True, HOUR));
    h.pass(HOUR);
    h.evict_pass(HOUR);
    assert_eq!(h.api.pods[p].status_reason, Some("NodeLost"));
    assert!(h.deleted(p));
}

/// Runs two legacy passes an hour apart over `zones` (zone name, statuses at 12:00, statuses at
/// 13:00) and says whether the pods on not-Ready nodes were deleted.
fn legacy_zones(zones: &[(&str, &[CondStatus], &[CondStatus])], large_threshold: u32) -> bool {
    let mut h = Nlc::config_b(10 * MINUTE);
    h.nlc.settings.large_cluster_threshold = large_threshold;
    let mut all = Vec::new();
    for (zone, first, later) in zones {
        let ids = h.nodes(zone, first, 0);
        all.push((ids, *later));
    }
    let pods: Vec<PodId> = all
        .iter()
        .flat_map(|(ids, later)| {
            ids.iter()
                .zip(later.iter())
                .filter(|(_, &s)| s != T)
                .map(|(&n, _)| n)
                .collect::<Vec<_>>()
        })
        .map(|n| h.pod(n))
        .collect();
    h.pass(0);
    h.evict_pass(0);
    for (ids, later) in &all {
        h.report(ids, later, HOUR);
    }
    h.pass(HOUR);
    h.evict_pass(HOUR);
    assert!(!pods.is_empty());
    pods.iter().any(|&p| h.deleted(p))
}

#[test]
fn g48_g49_full_disruption_everywhere_evicts_nothing() {
    assert!(
        !legacy_zones(&[("zone1", &[U, U], &[U, U])], 20),
        "G48: only zone is down"
    );
    assert!(
        !legacy_zones(&[("zone1", &[U], &[U]), ("zone2", &[U], &[U])], 20),
        "G49: both zones down"
    );
}

#[test]
fn g50_a_fully_down_zone_evicts_while_another_is_healthy() {
    assert!(legacy_zones(&[("zone1", &[U], &[U]), ("zone2", &[T], &[T])], 20));
}

#[test]
fn g51_a_healthy_master_does_not_count() {
    let mut h = Nlc::config_b(10 * MINUTE);
    let n0 = h.node("node0", "zone1", OLD, ready(CondStatus::Unknown, 0));
    let m = h.node("node-master", "zone1", OLD, ready(CondStatus::True, 0));
    let p = h.pod(n0);
    h.pass(0);
    h.set(m, ready(CondStatus::True, HOUR));
    h.pass(HOUR);
    h.evict_pass(HOUR);
    assert_eq!(h.zone("zone1"), ZoneState::FullDisruption);
    assert!(
        !h.deleted(p),
        "the -master node is excluded before 1.19, so the zone is fully disrupted"
    );
}

#[test]
fn g52_one_zone_comes_back() {
    assert!(legacy_zones(&[("zone1", &[U], &[U]), ("zone2", &[U], &[T])], 20));
}

#[test]
fn g53_partial_disruption_stops_small_zones() {
    let zone: [(&str, &[CondStatus], &[CondStatus]); 1] = [("zone1", &[U, U, U, T, T], &[U, U, U, T, T])];
    assert!(!legacy_zones(&zone, 50), "real defaults: a zone of 5 ≤ 50 gets rate 0");
    assert!(
        legacy_zones(&zone, 0),
        "upstream's test overrides the reduced rate; a threshold of 0 does the same"
    );
}

// 1.37: the node lifecycle controller's Lease circuit breaker (#138698,
// NodeControllerLeaseCircuitBreaker, beta and on in 1.37).

/// Two Ready nodes whose Leases the informer showed at 0, then a pass at 60 s (past the 50 s
/// grace period) while node0's renewal at 59.99 s is written but not yet in the informer.
fn stale_lease_cache(breaker: bool) -> (Nlc, NodeId, NodeId) {
    let mut h = Nlc::config_a();
    h.nlc.settings.lease_circuit_breaker = breaker;
    let a = h.node("node0", "zone1", OLD, ready(CondStatus::True, 0));
    let b = h.node("node1", "zone1", OLD, ready(CondStatus::True, 0));
    h.lease(a, 0);
    h.lease(b, 0);
    h.pass(0);
    h.api.nodes[a].lease.write(59_990, Some(59_990), 60_005);
    h.pass(60 * SECOND);
    (h, a, b)
}

#[test]
fn g76_a_lease_that_moved_live_is_not_marked_unknown() {
    let (h, a, b) = stale_lease_cache(true);
    // The live GET shows a newer Lease than the record's: node0 is not marked, and node1 is
    // skipped too until the informer catches up.
    assert_eq!(h.latest(a).ready_status(), Some(CondStatus::True));
    assert_eq!(h.latest(b).ready_status(), Some(CondStatus::True));
    assert_eq!(h.status_writes(), 0);
    let mut h = h;
    h.pass(65 * SECOND);
    // The informer shows the renewal now: node0's probe is fresh; node1 has been silent too long.
    assert_eq!(h.latest(a).ready_status(), Some(CondStatus::True));
    assert_eq!(h.latest(b).ready_status(), Some(CondStatus::Unknown));
}

#[test]
fn g76_without_the_breaker_the_stale_cache_marks_unknown() {
    let (h, a, b) = stale_lease_cache(false);
    assert_eq!(h.latest(a).ready_status(), Some(CondStatus::Unknown));
    assert_eq!(h.latest(b).ready_status(), Some(CondStatus::Unknown));
    assert_eq!(h.status_writes(), 2);
}
