//! The upstream test cases of the cloud node lifecycle controller (spec §10, R1–R3), re-expressed
//! against `control_plane::cloud_node_lifecycle`. Each test names its R number and the upstream
//! test it mirrors. Upstream calls `MonitorNodes` once over a fake cloud; here the controller is
//! told of each node as its informer would be (`node_changed`) and one pass runs to its end.
//!
//! Cases the model has no counterpart for are left out, and say so: the provider never errs here
//! (R1 "provider error ⇒ kept", R2 "error getting providerID ⇒ untouched"), and every node has
//! its `spec.providerID`. R2's "not ready, error checking shutdown" and "not ready and not
//! shutdown" assert a deletion upstream only because the fake cloud's `ExistsByProviderID`
//! defaults to false, so they are the R1 deletion case again.

use kubelife_engine::api::{Api, CondStatus, Condition, Effect, Node, NodeId, NodeStatus, Reason, Versioned};
use kubelife_engine::control_plane::cloud_node_lifecycle::{CloudNodeLifecycle, Instance, TAINT_SHUTDOWN};
use kubelife_engine::control_plane::podgc::TAINT_OUT_OF_SERVICE;
use kubelife_engine::scenario::{CloudConfig, Provider};
use kubelife_engine::time::{Millis, MINUTE, SECOND};
use kubelife_engine::world::World;

fn config(provider: Provider) -> CloudConfig {
    CloudConfig {
        provider,
        node_monitor_period: 5 * SECOND,
        instance_termination_duration: 30 * SECOND,
        instance_stop_duration: 30 * SECOND,
        instance_deletion_duration: MINUTE,
        node_boot_duration: 90 * SECOND,
        api_call_duration: 100,
        vm_cache_ttl: 0,
        automatic_out_of_service: provider == Provider::Azure,
        managed_node_group: None,
    }
}

fn status(s: Option<CondStatus>) -> NodeStatus {
    NodeStatus {
        ready: s.map(|status| Condition {
            status,
            heartbeat: 0,
            transition: 0,
            reason: Reason::Kubelet,
        }),
        ..NodeStatus::default()
    }
}

/// A world with one node per Ready status (`None`: no Ready condition at all).
fn world(statuses: &[Option<CondStatus>]) -> World {
    let mut api = Api::default();
    for (i, &s) in statuses.iter().enumerate() {
        api.add_node(Node {
            name: format!("node{i}"),
            zone_key: String::new(),
            zone: String::new(),
            labels: Default::default(),
            max_pods: 110,
            created_at: -MINUTE,
            exists: true,
            status: Versioned::new(status(s)),
            lease: Versioned::new(None),
            taints: Vec::new(),
            unschedulable: false,
            pods: Vec::new(),
        });
    }
    World {
        now: 10 * MINUTE,
        api,
        ..World::default()
    }
}

/// A terminated instance (gone), a stopped one (shut down, still there), a running one.
fn gone() -> Instance {
    Instance {
        gone_from: Some(0),
        ..Instance::default()
    }
}

fn stopped() -> Instance {
    Instance {
        stopped_from: Some(0),
        ..Instance::default()
    }
}

/// One `MonitorNodes` pass after the informer delivered every node; returns the nodes it
/// deleted (the driver deletes them; here the object just goes).
fn monitor(w: &mut World, ccm: &mut CloudNodeLifecycle) -> Vec<NodeId> {
    for n in 0..w.api.nodes.len() {
        ccm.node_changed(w, n);
    }
    let mut deleted = Vec::new();
    if !ccm.start_pass(w.now) {
        return deleted;
    }
    while let Some(at) = ccm.step(w) {
        w.now = at;
        if let Some((n, _, _)) = ccm.answer(w) {
            w.api.nodes[n].exists = false;
            deleted.push(n);
        }
    }
    deleted
}

fn controller(provider: Provider, instances: &[Instance]) -> CloudNodeLifecycle {
    let mut ccm = CloudNodeLifecycle::new(config(provider), instances.len(), 0, 0);
    ccm.instances = instances.to_vec();
    ccm
}

fn shutdown_tainted(w: &World, n: NodeId) -> bool {
    w.api.nodes[n].has_taint(TAINT_SHUTDOWN, Effect::NoSchedule)
}

/// R1, `Test_NodesDeleted`: a not-ready (False) or Unknown node whose instance is gone is
/// deleted; one whose instance exists is kept; a Ready node is kept even when the provider says
/// its instance is gone ("node is ready, but provider said it is deleted (maybe a bug in
/// provider)"). Upstream runs each case with Instances and InstancesV2; every provider here is
/// on InstancesV2.
#[test]
fn r1_nodes_deleted_only_when_not_ready_and_gone() {
    use CondStatus::*;
    let cases = [
        ("node is not ready and does not exist", Some(False), gone(), true),
        ("node is not ready and exists", Some(False), Instance::default(), false),
        (
            "node has unknown status and does not exist",
            Some(Unknown),
            gone(),
            true,
        ),
        (
            "node has unknown status and exists",
            Some(Unknown),
            Instance::default(),
            false,
        ),
        (
            "node is ready, but provider said it is deleted",
            Some(True),
            gone(),
            false,
        ),
        (
            "node has no Ready condition (counts as Unknown) and does not exist",
            None,
            gone(),
            true,
        ),
    ];
    for provider in [Provider::Aws, Provider::Gcp, Provider::Azure] {
        for (name, ready, instance, expected) in cases {
            let mut w = world(&[ready]);
            let mut ccm = controller(provider, &[instance]);
            let deleted = monitor(&mut w, &mut ccm);
            assert_eq!(!deleted.is_empty(), expected, "{provider:?}: {name}");
        }
    }
}

/// R2, `Test_NodesShutdown`: a not-ready node whose instance exists and is shut down gets
/// `node.cloudprovider.kubernetes.io/shutdown:NoSchedule`; a Ready one is left alone; one that is
/// shut down and gone is deleted ("node is shutdown but provider says it does not exist").
/// The provider decides what "shut down" is: GCP never says so (`NotImplemented`).
#[test]
fn r2_nodes_shutdown_tainted_where_the_provider_says_so() {
    use CondStatus::*;
    let shut_and_gone = Instance {
        stopped_from: Some(0),
        gone_from: Some(0),
        ..Instance::default()
    };
    for provider in [Provider::Aws, Provider::Azure] {
        let mut w = world(&[Some(False), Some(True), Some(Unknown)]);
        let mut ccm = controller(provider, &[stopped(), stopped(), shut_and_gone]);
        let deleted = monitor(&mut w, &mut ccm);
        assert!(
            shutdown_tainted(&w, 0),
            "{provider:?}: not ready and was shutdown, but exists"
        );
        assert!(
            !shutdown_tainted(&w, 1),
            "{provider:?}: node is ready but provider says it's shutdown"
        );
        assert_eq!(
            deleted,
            vec![2],
            "{provider:?}: node is shutdown but provider says it does not exist"
        );
    }
    let mut w = world(&[Some(False)]);
    let mut ccm = controller(Provider::Gcp, &[stopped()]);
    assert!(monitor(&mut w, &mut ccm).is_empty());
    assert!(!shutdown_tainted(&w, 0), "GCP's InstanceShutdown is NotImplemented");
}

/// The taint goes only once the node is Ready again (`RemoveTaintOffNode` in the Ready branch):
/// a started instance whose node is still not Ready keeps it (cloud-provider-azure#4428).
#[test]
fn r2_the_shutdown_taint_goes_when_the_node_is_ready_again() {
    let mut w = world(&[Some(CondStatus::False)]);
    let mut ccm = controller(Provider::Aws, &[stopped()]);
    monitor(&mut w, &mut ccm);
    assert!(shutdown_tainted(&w, 0));
    ccm.instances[0].started_from = Some(w.now);
    monitor(&mut w, &mut ccm);
    assert!(shutdown_tainted(&w, 0), "not Ready yet: the taint stays");
    w.api.nodes[0].status = Versioned::new(status(Some(CondStatus::True)));
    monitor(&mut w, &mut ccm);
    assert!(!shutdown_tainted(&w, 0));
}

/// R3, cloud-provider-aws `TestInstanceExistsByProviderIDTerminated`, `…Running`, and
/// `instances_v2_test.go` `TestInstanceShutdown`: an EC2 instance exists until it is
/// `terminated` (still while `shutting-down`, here the `instanceTerminationDuration` after the
/// termination), and is shut down only when `stopped` (not while `stopping`).
#[test]
fn r3_aws_instance_exists_until_terminated_and_is_shut_down_only_when_stopped() {
    let t = 10 * MINUTE;
    let shutting_down = Instance {
        gone_from: Some(t + 20 * SECOND),
        ..Instance::default()
    };
    let stopping = Instance {
        stopped_from: Some(t + 20 * SECOND),
        ..Instance::default()
    };
    let mut w = world(&[Some(CondStatus::Unknown); 4]);
    let mut ccm = controller(Provider::Aws, &[gone(), shutting_down, stopping, stopped()]);
    let deleted = monitor(&mut w, &mut ccm);
    assert_eq!(deleted, vec![0], "terminated: gone; shutting-down: still exists");
    assert!(!shutdown_tainted(&w, 2), "stopping is not shut down");
    assert!(shutdown_tainted(&w, 3), "stopped is shut down");
}

/// A pass walks its nodes serially, one cloud call at a time (`apiCallDuration`): an instance
/// found gone costs one call (`InstanceExists`), any other not-Ready node two.
#[test]
fn a_pass_takes_its_cloud_calls_one_after_the_other() {
    let mut w = world(&[Some(CondStatus::Unknown); 3]);
    let start = w.now;
    let mut ccm = controller(Provider::Aws, &[gone(), Instance::default(), gone()]);
    let deleted = monitor(&mut w, &mut ccm);
    assert_eq!(deleted, vec![0, 2]);
    assert_eq!(w.now - start, 400, "1 + 2 + 1 calls of 100ms");
}

/// A Ready cluster costs the controller nothing: its loop sleeps with no node to look at.
#[test]
fn a_ready_cluster_leaves_the_loop_asleep() {
    let mut w = world(&[Some(CondStatus::True); 50]);
    let mut ccm = controller(Provider::Aws, &[gone(); 50]);
    for n in 0..50 {
        assert_eq!(ccm.node_changed(&w, n), None);
    }
    assert!(!ccm.start_pass(w.now));
    assert!(monitor(&mut w, &mut ccm).is_empty());
}

/// cloud-provider-azure `updateNodeTaint`: a not-Ready node with the shutdown taint gets the
/// out-of-service taint; once Ready it loses it.
#[test]
fn azure_update_node_taint_adds_out_of_service_to_a_shut_down_node() {
    let mut w = world(&[Some(CondStatus::Unknown)]);
    let mut ccm = controller(Provider::Azure, &[stopped()]);
    monitor(&mut w, &mut ccm);
    assert!(shutdown_tainted(&w, 0));
    ccm.update_node_taint(&mut w, 0, true);
    assert!(w.api.nodes[0].has_taint(TAINT_OUT_OF_SERVICE, Effect::NoExecute));
    w.api.nodes[0].status = Versioned::new(status(Some(CondStatus::True)));
    ccm.update_node_taint(&mut w, 0, true);
    assert!(!w.api.nodes[0].has_taint(TAINT_OUT_OF_SERVICE, Effect::NoExecute));
}

/// Azure answers from a VM cache refreshed every TTL: a VM deleted after the last refresh still
/// reads as there.
#[test]
fn azure_reads_a_deleted_vm_from_its_cache_until_the_next_refresh() {
    let mut w = world(&[Some(CondStatus::Unknown)]);
    let mut cfg = config(Provider::Azure);
    cfg.vm_cache_ttl = 10 * MINUTE;
    let mut ccm = CloudNodeLifecycle::new(cfg, 1, 0, 0);
    let deleted_at: Millis = w.now + SECOND;
    ccm.instances[0].gone_from = Some(deleted_at);
    w.now = deleted_at + 5 * MINUTE;
    assert!(
        monitor(&mut w, &mut ccm).is_empty(),
        "the cache refreshed at 10m, before the deletion"
    );
    w.now = 20 * MINUTE + SECOND;
    assert_eq!(monitor(&mut w, &mut ccm), vec![0]);
}

/// A pod on `node`, running, owned by no workload that matters here.
fn orphan_pod(w: &mut World, node: NodeId) -> kubelife_engine::api::PodId {
    let p = w.api.create_pod(
        w.now,
        kubelife_engine::api::Pod {
            name: format!("pod{}", w.api.pods.len()),
            workload: 0,
            ordinal: None,
            node: None,
            tolerations: std::rc::Rc::new(Vec::new()),
            grace_seconds: 30,
            created_at: w.now,
            ready: Some(true),
            deletion_requested_at: None,
            removed_at: None,
            running: true,
            replaces: None,
            daemon: false,
            status_reason: None,
            failed: false,
            stopped_at: None,
        },
    );
    w.api.bind_pod(w.now, p, node);
    p
}

/// R12, kubernetes `pkg/controller/podgc/gc_controller_test.go` `TestGCOrphaned`: after a Node
/// is deleted (here by the cloud controller), PodGC deletes its pods only once the 40 s
/// quarantine has passed since a run first saw them ("quarantine not finished": a run half the
/// quarantine later deletes nothing; twice the quarantine later they go), and not if the node is
/// back by then; each is marked Failed with `DeletionByPodGC` first
/// (`TestGCInspectingPatchedPodBeforeDeletion`).
#[test]
fn r12_podgc_frees_a_deleted_nodes_pods_after_its_quarantine() {
    use kubelife_engine::control_plane::podgc::{PodGc, QUARANTINE};
    let mut w = world(&[Some(CondStatus::Unknown), Some(CondStatus::Unknown)]);
    let gone_pod = orphan_pod(&mut w, 0);
    let back_pod = orphan_pod(&mut w, 1);
    let mut ccm = controller(Provider::Aws, &[gone(), gone()]);
    assert_eq!(monitor(&mut w, &mut ccm), vec![0, 1]);
    let mut gc = PodGc::new(true, true);
    let t = w.now;
    gc.run(&mut w);
    w.now = t + QUARANTINE / 2;
    gc.run(&mut w);
    assert!(w.api.pods[gone_pod].exists(), "quarantine not finished");
    w.api.nodes[1].exists = true;
    w.now = t + 2 * QUARANTINE;
    gc.run(&mut w);
    assert!(!w.api.pods[gone_pod].exists(), "quarantine passed: deleted");
    assert!(w.api.pods[back_pod].exists(), "its node exists again");
    let said = w
        .log
        .events
        .iter()
        .filter(|e| e.pod == Some(gone_pod))
        .map(|e| e.cause.english())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(said.contains("DeletionByPodGC"), "{said}");
}

/// §9.1: an EC2 instance terminated with no graceful node shutdown. The cloud controller deletes
/// the Node once it finds the instance gone; PodGC's first 20s run sees the orphans 4.262s later
/// and force-deletes them after its 40s quarantine; the ReplicaSet's replacement says its pod
/// was deleted, never that it is Terminating (it never was).
#[test]
fn s9_1_terminated_instance_chain_and_causes() {
    use crate::remediation_golden::{check_cause, check_chain, CauseCase, ChainCase};
    use kubelife_engine::EventKind::*;
    check_chain(&ChainCase {
        name: "§9.1 EC2 instance terminated",
        scenario: ("eks-instance-terminated", None),
        segments: &[
            (44_536, NodeUnknown, "50s"),
            (2_410, NodeDeleted, "EC2 reports the instance terminated"),
            (44_262, PodRemoved, "4.262s after the Node's deletion"),
        ],
    });
    check_cause(&CauseCase {
        name: "§9.1 the ReplicaSet replaces a pod PodGC removed",
        scenario: ("eks-instance-terminated", None),
        kind: PodCreated,
        zh: false,
        has: &[],
        not: &["is Terminating", "has a deletionTimestamp"],
    });
}
