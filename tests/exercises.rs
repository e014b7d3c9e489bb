//! The engine checks behind every exercise: the starting state leaves at least one check open,
//! the documented solution satisfies all of them, and each check fails on a state made to break it.
//! The last check of each is its premise, the exercise's own fault (`tests/exercise_props.rs`
//! tries the wrong ones).

use kubelife::exercises::{Ctx, Run, EXERCISES};
use kubelife::model::simulate;
use kubelife::settings::Settings;

/// Which checks of exercise `n` (0-based) hold for sides A and B.
fn results(n: usize, a: &Settings, b: Option<&Settings>) -> Vec<bool> {
    let ma = simulate(a.clone());
    let mb = b.map(|b| simulate(b.clone()));
    let ctx = Ctx {
        a: Run {
            settings: &ma.settings,
            cfg: &ma.cfg,
            outcome: &ma.outcome,
        },
        b: mb.as_ref().map(|m| Run {
            settings: &m.settings,
            cfg: &m.cfg,
            outcome: &m.outcome,
        }),
    };
    EXERCISES[n].results(&ctx)
}

fn check(n: usize, start_expect: &[bool]) {
    let ex = &EXERCISES[n];
    let (a, b) = (ex.start)();
    assert_eq!(
        results(n, &a, b.as_ref()),
        start_expect,
        "{}: the starting checklist",
        ex.id
    );
    let (a, b) = (ex.solution)();
    let solved = results(n, &a, b.as_ref());
    assert!(
        solved.iter().all(|&r| r),
        "{}: the documented solution fails: {solved:?}",
        ex.id
    );
}

#[test]
fn why_5m50s() {
    check(0, &[false, false, true, true]);
    // Two changes are one too many, even when fast.
    let mut s = Settings::default();
    s.set("default-unreachable-toleration-seconds", 30.0);
    s.set("node-monitor-period", 2.0);
    assert_eq!(results(0, &s, None), [true, false, true, true]);
}

#[test]
fn fast_failover() {
    check(1, &[true, false, true, true]);
    let (mut s, _) = (EXERCISES[1].solution)();
    s.ops.latency = None;
    assert!(!results(1, &s, None)[2], "dropping the spike is not a solution");
}

#[test]
fn cost_of_speed() {
    check(2, &[true, false, true, true]);
    // Defaults are cheap but slow.
    assert_eq!(results(2, &Settings::default(), None), [false, true, true, true]);
}

#[test]
fn stuck_statefulset() {
    check(3, &[false, false, true, true]);
    let (mut s, _) = (EXERCISES[3].solution)();
    s.fault.recover_at_seconds = Some(400);
    assert!(!results(3, &s, None)[2]);
}

#[test]
fn legacy_vs_taints() {
    check(4, &[false, false, false, false]);
    // The same version on both sides is not the comparison asked for.
    let (a, _) = (EXERCISES[4].solution)();
    assert_eq!(results(4, &a, Some(&a)), [false, true, false, true]);
}

#[test]
fn zone_outage() {
    check(5, &[true, false, true, true]);
    let (mut s, _) = (EXERCISES[5].solution)();
    s.fault.count = 5;
    assert!(!results(5, &s, None)[0]);
}

#[test]
fn lengthen_toleration() {
    check(6, &[true, false, true, true]);
    // In time but too short: the patch counts, and the pods still leave within the run.
    let (mut s, _) = (EXERCISES[6].solution)();
    s.ops.toleration_patch = s
        .ops
        .toleration_patch
        .map(|p| kubelife::settings::TolerationPatch { seconds: 200, ..p });
    assert_eq!(results(6, &s, None), [false, false, true, true]);
}

#[test]
fn kcm_restart() {
    check(7, &[false, false, true, true]);
    // A restart before the taint does not delay the eviction past 8 minutes.
    let mut s = Settings::default();
    s.ops.kcm_restart_at_seconds = Some(40);
    assert_eq!(results(7, &s, None), [false, false, true, true]);
}

#[test]
fn twelve_minute_database() {
    check(8, &[false, false, true, true, true]);
    // Without the force delete, the out-of-service taint alone also frees the volume.
    let mut s = Settings::default();
    s.ops.out_of_service_at_seconds = Some(120);
    assert_eq!(results(8, &s, None), [true, true, true, true, true]);
    // Dropping the volume is not a solution.
    let (mut s, _) = (EXERCISES[8].start)();
    s.db.volume = kubelife::settings::VolumeChoice::None;
    assert!(!results(8, &s, None)[2]);
}

#[test]
fn shut_down_dont_crash() {
    check(9, &[false, false, true, true]);
    // Crashing instead is not a solution.
    let (mut s, _) = (EXERCISES[9].solution)();
    s.fault.kind = kubelife_engine::scenario::ActionKind::NodeCrash;
    assert!(!results(9, &s, None)[2]);
}

#[test]
fn zone_outage_at_scale() {
    check(10, &[false, true, true, true]);
    let (start, _) = (EXERCISES[10].start)();
    // The secondary rate is for a zone that is partly down; zone-b has no Ready node.
    let mut secondary = start.clone();
    secondary.set("secondary-node-eviction-rate", 1.0);
    assert!(!results(10, &secondary, None)[0], "the secondary rate changes nothing");
    // A fault in zone-a taints a node outside zone-b.
    let (mut elsewhere, _) = (EXERCISES[10].solution)();
    elsewhere.fault.node = 0;
    assert_eq!(results(10, &elsewhere, None), [true, false, true, false]);
    // A smaller cluster is no solution.
    let small = kubelife::settings::Settings { nodes: 99, ..start };
    assert!(!results(10, &small, None)[2]);
}

#[test]
fn cloud_two_and_eight() {
    check(11, &[false, false, false, true]);
    let (solved, _) = (EXERCISES[11].solution)();
    // A stopped instance keeps its Node: nothing deletes it, and nothing moves in two minutes.
    let mut s = solved.clone();
    s.fault.kind = kubelife_engine::scenario::ActionKind::InstanceStopped;
    assert_eq!(results(11, &s, None)[..2], [false, false]);
    // Without its volume db-0 has no force detach to wait for.
    let mut s = solved;
    s.db.volume = kubelife::settings::VolumeChoice::None;
    assert_eq!(results(11, &s, None), [true, true, false, true]);
}

#[test]
fn blip_safe_failover() {
    // The defaults ride out the blip but fail over in minutes; the settings are the same on both sides.
    check(12, &[false, true, true, true]);
    let (a, b) = (EXERCISES[12].solution)();
    // Fast alone is not enough: a grace period far shorter than the blip taints the node in it.
    let faster = |s: &Settings| {
        let mut s = s.clone();
        s.set("node-status-update-frequency", 2.0);
        s.set("node-monitor-grace-period", 8.0);
        s
    };
    let (fast, blip) = (faster(&a), faster(&b.clone().unwrap()));
    assert_eq!(results(12, &fast, Some(&blip)), [true, false, true, true]);
    // B must be A's settings with the blip: tuning B alone does not count.
    assert!(!results(12, &a, Some(&Settings::default()))[2]);
    // The documented solution is one the page does not warn about (issue 36): not the 1.32
    // grace period's warning, nor a toleration of 0.
    for side in [&a, b.as_ref().unwrap()] {
        let warnings = kubelife::explain::tuning_warnings(&simulate(side.clone()).cfg);
        assert!(warnings.is_empty(), "{warnings:?}");
    }
    // As the goal says: tune A with its sliders, then "copy A to B", which keeps B's blip.
    let (_, start_b) = (EXERCISES[12].start)();
    let copied = kubelife::compare::copy_a_to_b(&a, &start_b.unwrap());
    assert_eq!(results(12, &a, Some(&copied)), [true, true, true, true]);
}
