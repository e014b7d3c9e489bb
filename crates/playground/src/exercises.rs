//! Workshop exercises: a starting state, a goal the engine's run checks, hints and an explanation.
//!
//! Each goal is a checklist of predicates over what one engine run produced (milestones, events,
//! summary figures, the write rate) and what the learner set. The texts live in the catalogues
//! under `ex.<id>.*`; this module holds only the rules, so the checks are tested natively.

use crate::explain::{milestones, tuning_warnings, writes_per_minute};
use crate::settings::{LatencySpike, Settings, TolerationPatch};
use kubelife_engine::flags;
use kubelife_engine::time::{MINUTE, SECOND};
use kubelife_engine::upstream::MAX_WAIT_FOR_UNMOUNT;
use kubelife_engine::{Config, EventKind, Millis, Outcome};
use std::collections::BTreeSet;

mod table;

pub use table::EXERCISES;

// The thresholds of the checks, which the texts under `ex.<id>.` quote
// (`tests/exercise_texts.rs` holds every number a text says to what the runs give).

/// Exercise 1: the first replacement is Ready within this long of the fault.
pub const WHY_5M50S_READY_BY: Millis = 100 * SECOND;
/// Exercise 2: the first replacement is Ready less than this long after the fault.
pub const FAST_FAILOVER_READY_UNDER: Millis = MINUTE;
/// Exercise 3: the node is Unknown less than this long after the fault.
pub const COST_DETECT_UNDER: Millis = 30 * SECOND;
/// Exercise 3: heartbeat writes per minute stay under this for [`COST_NODES`] nodes.
pub const COST_WRITES_UNDER: f64 = 12_000.0;
/// Exercise 3: the cluster size the write rate is counted for.
pub const COST_NODES: u32 = 1000;
/// Exercise 5: the two versions compared.
pub const LEGACY_MINORS: [u32; 2] = [12, 32];
/// Exercise 5: the first evictions are more than this far apart.
pub const LEGACY_APART: Millis = 4 * MINUTE;
/// Exercise 7: the web pods' tolerationSeconds are patched to at least this, s.
pub const LENGTHEN_AT_LEAST_SECONDS: u32 = 3600;
/// Exercise 8: the first eviction is more than this long after the fault.
pub const KCM_EVICTION_AFTER: Millis = 8 * MINUTE;
/// Exercise 9: db-0 is Ready on another node within this long of the fault.
pub const DATABASE_READY_BY: Millis = 8 * MINUTE;
/// Exercise 10: the Service sends to a dead pod for less than this in all.
pub const SHUTDOWN_BLACKHOLE_UNDER: Millis = SECOND;
/// Exercise 10: a web replacement is Ready within this long of the shutdown.
pub const SHUTDOWN_REPLACED_BY: Millis = 2 * MINUTE;
/// Exercise 11: every zone-b node is tainted within this long of the outage.
pub const SCALE_TAINTED_BY: Millis = 20 * MINUTE;
/// Exercise 12: the cloud controller deletes the Node within this long of the fault.
pub const CLOUD_NODE_DELETED_BY: Millis = 2 * MINUTE;
/// Exercise 12: a web replacement is Ready within this long of the fault.
pub const CLOUD_WEB_READY_BY: Millis = 2 * MINUTE;
/// Exercise 13: the first replacement is Ready less than this long after the crash.
pub const BLIP_FAILOVER_UNDER: Millis = MINUTE;
/// Exercise 13: the network blip side B rides out, s (the Tune panel's default blip).
pub const BLIP_SECONDS: u32 = 20;

/// One side of what the page shows: settings and the run they gave.
#[derive(Clone, Copy)]
pub struct Run<'a> {
    /// What the learner set.
    pub settings: &'a Settings,
    /// The resolved configuration.
    pub cfg: &'a Config,
    /// The engine's run.
    pub outcome: &'a Outcome,
}

/// What a goal is checked against: side A and, when comparing, side B.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    /// Side A.
    pub a: Run<'a>,
    /// Side B, when comparing.
    pub b: Option<Run<'a>>,
}

/// One line of a goal's checklist.
pub struct Check {
    /// Catalogue key of its text.
    pub key: &'static str,
    /// Whether it holds.
    pub holds: fn(&Ctx) -> bool,
}

/// A workshop exercise.
pub struct Exercise {
    /// Stable identifier; texts are under `ex.<id>.`.
    pub id: &'static str,
    /// The state the exercise opens in (side A), and side B if it compares.
    pub start: fn() -> (Settings, Option<Settings>),
    /// The documented solution, in the same form.
    pub solution: fn() -> (Settings, Option<Settings>),
    /// The goal, as a checklist.
    pub checks: &'static [Check],
    /// How many hints it has (`ex.<id>.hint.1` ...).
    pub hints: usize,
}

impl Exercise {
    /// Which checks hold, in order.
    pub fn results(&self, ctx: &Ctx) -> Vec<bool> {
        self.checks.iter().map(|c| (c.holds)(ctx)).collect()
    }

    /// Whether every check holds.
    pub fn solved(&self, ctx: &Ctx) -> bool {
        self.checks.iter().all(|c| (c.holds)(ctx))
    }
}

fn default_with(f: impl FnOnce(&mut Settings)) -> Settings {
    let mut s = Settings::default();
    f(&mut s);
    s
}

/// Names of the nodes the fault and the zone outage take down.
fn failed_nodes(r: &Run) -> Vec<String> {
    r.settings
        .down_nodes()
        .iter()
        .map(|i| format!("node-{}", i + 1))
        .collect()
}

fn events<'a>(r: &'a Run, kind: EventKind) -> impl Iterator<Item = &'a kubelife_engine::TimelineEvent> {
    r.outcome.events.iter().filter(move |e| e.kind == kind)
}

fn is_no_execute(e: &kubelife_engine::TimelineEvent) -> bool {
    e.taint
        .as_deref()
        .is_some_and(|t| t.ends_with(":NoExecute") && !t.contains("out-of-service"))
}

fn fault_at(r: &Run) -> i64 {
    i64::from(r.settings.fault.at_seconds) * SECOND
}

/// First deletion request of a `web` pod that ran on a failed node.
fn web_deleted(r: &Run) -> Option<i64> {
    events(r, EventKind::PodDeletionRequested)
        .filter(|e| e.pod.as_deref().is_some_and(|p| p.starts_with("web-")))
        .map(|e| e.at_ms)
        .min()
}

/// 1. Why 5m50s?
fn ex1_fast(c: &Ctx) -> bool {
    milestones(c.a.outcome)
        .replacement
        .is_some_and(|t| t <= WHY_5M50S_READY_BY)
}
fn ex1_one(c: &Ctx) -> bool {
    let s = c.a.settings;
    s.overrides.len() == 1
        && Settings {
            overrides: Default::default(),
            ..s.clone()
        } == Settings::default()
}
fn ex1_grace(c: &Ctx) -> bool {
    !c.a.settings
        .overrides
        .contains_key(flags::NODE_MONITOR_GRACE_PERIOD.name)
}

/// 2. Fast failover under an API latency spike.
fn ex2_spike() -> LatencySpike {
    LatencySpike {
        from_seconds: 120,
        until_seconds: 300,
        ms: 2000,
    }
}
fn ex2_fast(c: &Ctx) -> bool {
    milestones(c.a.outcome)
        .replacement
        .is_some_and(|t| t < FAST_FAILOVER_READY_UNDER)
}
fn ex2_no_false_unknown(c: &Ctx) -> bool {
    let failed = failed_nodes(&c.a);
    !events(&c.a, EventKind::NodeUnknown).any(|e| e.node.as_ref().is_some_and(|n| !failed.contains(n)))
}
fn ex2_spike_kept(c: &Ctx) -> bool {
    c.a.settings.ops.latency == Some(ex2_spike())
}

/// 3. The cost of speed.
fn ex3_detect(c: &Ctx) -> bool {
    milestones(c.a.outcome).unknown.is_some_and(|t| t < COST_DETECT_UNDER)
}
fn ex3_writes(c: &Ctx) -> bool {
    let (lease, status) = writes_per_minute(c.a.cfg, COST_NODES);
    lease + status < COST_WRITES_UNDER
}
fn ex3_no_flapping(c: &Ctx) -> bool {
    !tuning_warnings(c.a.cfg).iter().any(|w| w.key == "ui.warn.flapping")
}

/// 4. The stuck StatefulSet.
fn db0_ready_elsewhere(c: &Ctx) -> bool {
    let failed = failed_nodes(&c.a);
    events(&c.a, EventKind::PodReady).any(|e| {
        e.at_ms > fault_at(&c.a)
            && e.pod.as_deref() == Some("db-0")
            && e.node.as_ref().is_some_and(|n| !failed.contains(n))
    })
}
fn ex4_out_of_service(c: &Ctx) -> bool {
    c.a.settings.ops.out_of_service_at_seconds.is_some()
}
fn node_stays_down(c: &Ctx) -> bool {
    c.a.settings.fault.recover_at_seconds.is_none()
}

/// 5. Legacy against taint-based.
fn fast_profile() -> Settings {
    crate::link::preset(&Settings::default(), "kubespray-fast").unwrap_or_default()
}
fn ex5_versions(c: &Ctx) -> bool {
    let Some(b) = c.b else { return false };
    let (x, y) = (c.a.settings.minor, b.settings.minor);
    [x.min(y), x.max(y)] == LEGACY_MINORS
}
fn ex5_same_profile(c: &Ctx) -> bool {
    let Some(b) = c.b else { return false };
    let want = fast_profile();
    [
        flags::NODE_STATUS_UPDATE_FREQUENCY.name,
        flags::NODE_MONITOR_PERIOD.name,
        flags::NODE_MONITOR_GRACE_PERIOD.name,
    ]
    .iter()
    .all(|f| {
        let w = want.overrides.get(*f);
        w.is_some() && c.a.settings.overrides.get(*f) == w && b.settings.overrides.get(*f) == w
    })
}
fn ex5_apart(c: &Ctx) -> bool {
    let Some(b) = c.b else { return false };
    match (milestones(c.a.outcome).eviction, milestones(b.outcome).eviction) {
        (Some(x), Some(y)) => (x - y).abs() > LEGACY_APART,
        _ => false,
    }
}

/// 6. The zone outage.
fn zone_outage() -> Settings {
    default_with(|s| {
        s.nodes = 10;
        s.zones = 1;
        s.fault.count = 6;
    })
}
fn ex6_shape(c: &Ctx) -> bool {
    let (s, z) = (c.a.settings, zone_outage());
    s.nodes == z.nodes && s.zones == z.zones && s.fault.count == z.fault.count && s.fault.recover_at_seconds.is_none()
}
fn ex6_all_tainted(c: &Ctx) -> bool {
    let failed = failed_nodes(&c.a);
    failed
        .iter()
        .all(|n| events(&c.a, EventKind::TaintAdded).any(|e| is_no_execute(e) && e.node.as_ref() == Some(n)))
}
fn ex6_healthy_untouched(c: &Ctx) -> bool {
    let failed = failed_nodes(&c.a);
    !events(&c.a, EventKind::TaintAdded)
        .any(|e| is_no_execute(e) && e.node.as_ref().is_some_and(|n| !failed.contains(n)))
}

/// 7. Lengthening a toleration after the taint.
fn ex7_patch(c: &Ctx) -> bool {
    c.a.settings
        .ops
        .toleration_patch
        .is_some_and(|p| p.seconds >= LENGTHEN_AT_LEAST_SECONDS)
}
fn ex7_kept(c: &Ctx) -> bool {
    web_deleted(&c.a).is_none()
}
/// Used by exercises 7 and 8: only operator actions may change.
fn no_flag_changed(c: &Ctx) -> bool {
    c.a.settings.overrides.is_empty()
}

/// 8. A controller-manager restart during an outage.
fn ex8_restart_after_taint(c: &Ctx) -> bool {
    let taint = events(&c.a, EventKind::TaintAdded)
        .find(|e| is_no_execute(e))
        .map(|e| e.at_ms);
    let restart = events(&c.a, EventKind::ControllerManagerStopped)
        .next()
        .map(|e| e.at_ms);
    matches!((taint, restart), (Some(t), Some(r)) if r > t)
}
fn ex8_late(c: &Ctx) -> bool {
    milestones(c.a.outcome).eviction.is_some_and(|t| t > KCM_EVICTION_AFTER)
}

/// Exercise 9, the twelve-minute database: a force delete starts the 6m0s wait for the unmount
/// (its volume is free again about twelve minutes after the fault), the out-of-service taint
/// skips it.
fn ex9_start() -> Settings {
    default_with(|s| s.ops.force_delete_db_at_seconds = Some(390))
}
fn ex9_fast(c: &Ctx) -> bool {
    let f = fault_at(&c.a);
    db0_ready_elsewhere(c)
        && events(&c.a, EventKind::PodReady)
            .filter(|e| e.pod.as_deref() == Some("db-0") && e.at_ms > f)
            .any(|e| e.at_ms - f <= DATABASE_READY_BY)
}
fn ex9_no_wait(c: &Ctx) -> bool {
    // The volume left the dead node without the attach-detach controller's wait for the unmount
    // (maxWaitForUnmountDuration).
    let asked = events(&c.a, EventKind::VolumeDetachRequested).next().map(|e| e.at_ms);
    let done = events(&c.a, EventKind::VolumeDetached).next().map(|e| e.at_ms);
    matches!((asked, done), (Some(a), Some(d)) if d - a < MAX_WAIT_FOR_UNMOUNT)
}
fn ex9_volume(c: &Ctx) -> bool {
    c.a.settings.db.volume == crate::settings::VolumeChoice::RwoPerPod
}

/// Exercise 10, shut down, don't crash: graceful node shutdown keeps the Service from sending to
/// a pod that is gone for more than a moment (the kubelet reports a stopped pod a few
/// milliseconds after it stops, and the proxies sync after that).
fn ex10_start() -> Settings {
    default_with(|s| s.fault.kind = kubelife_engine::scenario::ActionKind::NodeShutdown)
}
fn ex10_no_blackhole(c: &Ctx) -> bool {
    c.a.outcome
        .summary
        .services
        .iter()
        .find(|s| s.service == "web")
        .is_some_and(|s| s.blackhole_ms < SHUTDOWN_BLACKHOLE_UNDER)
}
fn ex10_replaced(c: &Ctx) -> bool {
    let f = fault_at(&c.a);
    events(&c.a, EventKind::PodReady).any(|e| {
        e.at_ms > f && e.at_ms - f <= SHUTDOWN_REPLACED_BY && e.pod.as_deref().is_some_and(|p| p.starts_with("web-"))
    })
}
fn ex10_shutdown(c: &Ctx) -> bool {
    c.a.settings.fault.kind == kubelife_engine::scenario::ActionKind::NodeShutdown && c.a.settings.web.service
}

/// Exercise 11, a zone outage at scale: zone-b (333 of 1,000 nodes) loses power for good. A zone
/// without a Ready node is FullDisruption and is tainted at --node-eviction-rate, one node per
/// token, so the zone's last node waits about an hour at 0.1/s.
fn ex11_start() -> Settings {
    ex11_preset().clone()
}
/// The preset's settings, made once: the shape check compares with them on every render.
fn ex11_preset() -> &'static Settings {
    static START: std::sync::OnceLock<Settings> = std::sync::OnceLock::new();
    START.get_or_init(|| crate::link::preset(&Settings::default(), "scale-1000-zone-b-outage").unwrap_or_default())
}
/// Names of the nodes the zone outage takes down.
fn outage_nodes(r: &Run) -> BTreeSet<String> {
    kubelife_engine::order::set(r.settings.outage_nodes().iter().map(|i| format!("node-{}", i + 1)))
}
fn ex11_all_tainted(c: &Ctx) -> bool {
    let (Some(z), outage) = (c.a.settings.zone_outage, outage_nodes(&c.a)) else {
        return false;
    };
    let by = i64::from(z.at_seconds) * SECOND + SCALE_TAINTED_BY;
    let tainted = kubelife_engine::order::set(
        events(&c.a, EventKind::TaintAdded)
            .filter(|e| is_no_execute(e) && e.at_ms <= by)
            .filter_map(|e| e.node.as_ref()),
    );
    !outage.is_empty() && outage.iter().all(|n| tainted.contains(n))
}
fn ex11_others_untouched(c: &Ctx) -> bool {
    let outage = outage_nodes(&c.a);
    !events(&c.a, EventKind::TaintAdded)
        .any(|e| is_no_execute(e) && e.node.as_ref().is_some_and(|n| !outage.contains(n)))
}
fn ex11_shape(c: &Ctx) -> bool {
    let (s, start) = (c.a.settings, ex11_preset());
    let zone = |s: &Settings| s.zone_outage.map(|z| z.zone_name());
    s.nodes == start.nodes
        && s.zones == start.zones
        && zone(s) == zone(start)
        && s.zone_outage.is_some_and(|z| z.end_seconds.is_none())
}

/// Exercise 12, two minutes and eight on a cloud: node-1's EC2 instance is terminated (the
/// eks-instance-terminated preset). Run as bare metal, nothing deletes the Node; on AWS the
/// cloud controller does, PodGC frees the pods, web moves in about two minutes, and db-0's volume
/// still waits the six-minute force detach.
fn ex12_preset() -> &'static Settings {
    static START: std::sync::OnceLock<Settings> = std::sync::OnceLock::new();
    START.get_or_init(|| crate::link::preset(&Settings::default(), "eks-instance-terminated").unwrap_or_default())
}
fn ex12_start() -> Settings {
    Settings {
        cloud: None,
        ..ex12_preset().clone()
    }
}
fn ex12_node_deleted(c: &Ctx) -> bool {
    let (f, failed) = (fault_at(&c.a), failed_nodes(&c.a));
    c.a.settings.cloud == Some(kubelife_engine::scenario::cloud::Provider::Aws)
        && c.a.settings.fault.kind == kubelife_engine::scenario::ActionKind::InstanceTerminated
        && events(&c.a, EventKind::NodeDeleted).any(|e| {
            e.at_ms > f && e.at_ms - f <= CLOUD_NODE_DELETED_BY && e.node.as_ref().is_some_and(|n| failed.contains(n))
        })
}
fn ex12_web_ready(c: &Ctx) -> bool {
    let f = fault_at(&c.a);
    events(&c.a, EventKind::PodReady).any(|e| {
        e.at_ms > f && e.at_ms - f <= CLOUD_WEB_READY_BY && e.pod.as_deref().is_some_and(|p| p.starts_with("web-"))
    })
}
fn ex12_db_waited(c: &Ctx) -> bool {
    // db-0 is Ready elsewhere, after its volume waited out maxWaitForUnmountDuration.
    let forced = events(&c.a, EventKind::VolumeForceDetached).next().map(|e| e.at_ms);
    let asked = events(&c.a, EventKind::VolumeDetachRequested).next().map(|e| e.at_ms);
    db0_ready_elsewhere(c) && matches!((asked, forced), (Some(a), Some(d)) if d - a >= MAX_WAIT_FOR_UNMOUNT)
}

/// Exercise 13, failover under a minute that rides out a blip: A crashes node-1, B partitions
/// it from the network for [`BLIP_SECONDS`] with the same settings.
fn ex13_blip(base: &Settings) -> Settings {
    let mut b = base.clone();
    b.fault.kind = kubelife_engine::scenario::ActionKind::NetworkPartition;
    b.fault.recover_at_seconds = Some(b.fault.at_seconds + BLIP_SECONDS);
    b
}
fn ex13_start() -> (Settings, Option<Settings>) {
    let a = Settings::default();
    let b = ex13_blip(&a);
    (a, Some(b))
}
fn ex13_solution() -> (Settings, Option<Settings>) {
    // The grace period stays at the least the page does not warn about since 1.32
    // (`advice::HTTP2_HEALTH_CHECK`); the time comes back from the monitor period and the
    // tolerations.
    let a = default_with(|s| {
        s.set(flags::NODE_MONITOR_PERIOD.name, 2.0);
        s.set(flags::NODE_MONITOR_GRACE_PERIOD.name, 45.0);
        s.set(flags::DEFAULT_NOT_READY_TOLERATION_SECONDS.name, 5.0);
        s.set(flags::DEFAULT_UNREACHABLE_TOLERATION_SECONDS.name, 5.0);
    });
    let b = ex13_blip(&a);
    (a, Some(b))
}
fn ex13_fast(c: &Ctx) -> bool {
    c.a.settings.fault.kind == kubelife_engine::scenario::ActionKind::NodeCrash
        && milestones(c.a.outcome)
            .replacement
            .is_some_and(|t| t < BLIP_FAILOVER_UNDER)
}
fn ex13_rides_out(c: &Ctx) -> bool {
    let Some(b) = c.b else { return false };
    let tainted = events(&b, EventKind::TaintAdded).any(is_no_execute);
    !tainted && events(&b, EventKind::PodDeletionRequested).next().is_none()
}
fn ex13_same_settings(c: &Ctx) -> bool {
    c.b.is_some_and(|b| *b.settings == ex13_blip(c.a.settings))
}

/// The premise every exercise checks: each side's fault and zone outage are the ones its
/// documented solution has (the exercise's own: no exercise is solved by changing them), so
/// another fault kind, another node or no fault at all never passes. `N` is the exercise's
/// index in [`EXERCISES`]; the work is one function for all of them, so that the page carries
/// one copy.
fn keeps_fault<const N: usize>(c: &Ctx) -> bool {
    keeps_fault_of(&EXERCISES[N], c)
}

#[inline(never)]
fn keeps_fault_of(ex: &Exercise, c: &Ctx) -> bool {
    let same = |s: &Settings, want: &Settings| s.fault == want.fault && s.zone_outage == want.zone_outage;
    let (a, b) = (ex.solution)();
    same(c.a.settings, &a)
        && match (b, c.b) {
            (Some(want), Some(side)) => same(side.settings, &want),
            (Some(_), None) => false,
            (None, _) => true,
        }
}

/// The exercise `?exercise=n` opens (1-based).
pub fn exercise(n: u32) -> Option<&'static Exercise> {
    EXERCISES.get((n as usize).checked_sub(1)?)
}
