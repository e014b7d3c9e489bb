//! The presets on a cloud or with a remediator (issue 27) do what their descriptions say, over 40
//! seeds each: each check names the preset and the milestone it reads.

use kubelife_engine::presets::preset;
use kubelife_engine::scenario::RemediationSection;
use kubelife_engine::time::{MINUTE, SECOND};
use kubelife_engine::{run, EventKind, Millis, Outcome, RunOptions, Scenario};

/// Runs preset `name` on seeds 1..=40 and hands each outcome, with node-1's fault time, to
/// `expect`, which says what is wrong, if anything.
fn check(name: &str, expect: impl Fn(&Outcome, Millis) -> Result<(), String>) {
    check_changed(name, |_| {}, expect);
}

/// [`check`] on preset `name` changed by `change`.
fn check_changed(name: &str, change: impl Fn(&mut Scenario), expect: impl Fn(&Outcome, Millis) -> Result<(), String>) {
    let p = preset(name).unwrap_or_else(|| panic!("no preset {name}"));
    for seed in 1..=40 {
        let mut s = p.scenario.clone();
        change(&mut s);
        s.seed = Some(seed);
        let o = run(&s.resolve().unwrap(), &RunOptions::default());
        let fault = o.summary.nodes[0].fault_at_ms.expect("node-1 fails");
        if let Err(why) = expect(&o, fault) {
            panic!("{name}, seed {seed}: {why}");
        }
    }
}

/// When the first event of `kind` (with taint `taint`, if given) came, ms.
fn first(o: &Outcome, kind: EventKind, taint: Option<&str>) -> Option<Millis> {
    o.events
        .iter()
        .find(|e| e.kind == kind && taint.is_none_or(|t| e.taint.as_deref() == Some(t)))
        .map(|e| e.at_ms)
}

/// When db-0 was Ready again after `fault`, ms after it.
fn db_ready(o: &Outcome, fault: Millis) -> Option<Millis> {
    o.events
        .iter()
        .find(|e| e.kind == EventKind::PodReady && e.at_ms > fault && e.pod.as_deref() == Some("db-0"))
        .map(|e| e.at_ms - fault)
}

fn within(what: &str, v: Option<Millis>, lo: Millis, hi: Millis) -> Result<(), String> {
    match v {
        Some(v) if (lo..=hi).contains(&v) => Ok(()),
        _ => Err(format!("{what} at {v:?} ms, expected {lo}..={hi}")),
    }
}

#[test]
fn eks_instance_terminated_moves_web_in_two_minutes_and_db_after_the_force_detach() {
    check("eks-instance-terminated", |o, f| {
        let n = &o.summary.nodes[0];
        within("NodeDeleted", n.deleted_at_ms.map(|t| t - f), 30 * SECOND, 70 * SECOND)?;
        within(
            "web's replacement Ready",
            n.first_replacement_ready_at_ms.map(|t| t - f),
            70 * SECOND,
            150 * SECOND,
        )?;
        // The volume stays attached to the deleted node until the six-minute force detach.
        within("db-0 Ready", db_ready(o, f), 7 * MINUTE, 11 * MINUTE)
    });
}

#[test]
fn eks_instance_terminated_counts_podgcs_deletions_and_no_daemonset_replacement() {
    check("eks-instance-terminated", |o, f| {
        let n = &o.summary.nodes[0];
        // Nothing evicts: PodGC force-deletes node-1's orphans after its 40s quarantine, and that
        // is the first deletion.
        let removed = first(o, EventKind::PodRemoved, None);
        if n.first_deletion_at_ms != removed || removed.is_none() {
            return Err(format!(
                "firstDeletion {:?}, PodGC at {removed:?}",
                n.first_deletion_at_ms
            ));
        }
        let m = kubelife_engine::milestones::milestones(o);
        let by = m.events.eviction.map(|i| o.events[i].cause.key);
        if by != Some("cause.podgc.quarantined") {
            return Err(format!("the first deletion's cause is {by:?}, not PodGC's"));
        }
        // agent's pod is not replaced elsewhere (a DaemonSet's pod is its node's): every pod
        // that moves is Ready again once db-0 is.
        let all = n.replacements_ready_at_ms.map(|t| t - f);
        if all.is_none() || all != db_ready(o, f) {
            return Err(format!("replacementsReady {all:?}, db-0 Ready {:?}", db_ready(o, f)));
        }
        within("nodeDeleted", m.node_deleted, 30 * SECOND, 70 * SECOND)
    });
}

#[test]
fn aks_vm_deallocated_gets_the_out_of_service_taint_and_db_moves_without_the_force_detach() {
    check("aks-vm-deallocated", |o, f| {
        let oos = first(
            o,
            EventKind::TaintAdded,
            Some("node.kubernetes.io/out-of-service:NoExecute"),
        );
        // Seen through the VM cache: up to its 10m0s TTL after the VM stopped.
        within("the out-of-service taint", oos.map(|t| t - f), 30 * SECOND, 11 * MINUTE)?;
        let shutdown = first(
            o,
            EventKind::TaintAdded,
            Some("node.cloudprovider.kubernetes.io/shutdown:NoSchedule"),
        );
        within("the shutdown taint", shutdown.map(|t| t - f), 30 * SECOND, 11 * MINUTE)?;
        if o.summary.nodes[0].deleted_at_ms.is_some() {
            return Err("a stopped VM's Node is kept".into());
        }
        let oos = oos.unwrap() - f;
        within("db-0 Ready", db_ready(o, f), oos, oos + 4 * MINUTE)
    });
}

#[test]
fn gke_spot_preemption_stops_pods_within_the_notice_and_keeps_the_node() {
    check("gke-spot-preemption", |o, f| {
        let n = &o.summary.nodes[0];
        // Graceful node shutdown ends web's pod within the 30s notice, so its replacement is
        // Ready well before the node would be Unknown.
        within(
            "web's replacement Ready",
            n.first_replacement_ready_at_ms.map(|t| t - f),
            0,
            40 * SECOND,
        )?;
        if n.deleted_at_ms.is_some() {
            return Err("GCP reports a stopped Spot VM as existing: its Node stays".into());
        }
        let shutdown = first(
            o,
            EventKind::TaintAdded,
            Some("node.cloudprovider.kubernetes.io/shutdown:NoSchedule"),
        );
        match shutdown {
            Some(t) => Err(format!(
                "GCP never reports an instance shut down, yet the shutdown taint came at {t}"
            )),
            None => Ok(()),
        }
    });
}

#[test]
fn capi_mhc_5m_deletes_the_machine_five_minutes_after_unknown_and_a_replacement_joins() {
    check("capi-mhc-5m", |o, f| {
        let n = &o.summary.nodes[0];
        let unknown = n.unknown_at_ms.ok_or("node-1 never Unknown")?;
        // nodeChecks requeues at the condition's lastTransitionTime + timeout + 1s.
        within(
            "RemediationStarted",
            n.remediation_at_ms.map(|t| t - unknown),
            5 * MINUTE,
            5 * MINUTE + 2 * SECOND,
        )?;
        let deleted = n.deleted_at_ms.ok_or("the Node is never deleted")?;
        let joined = o
            .events
            .iter()
            .find(|e| e.kind == EventKind::NodeCreated && e.node.as_deref() == Some("node-1-r1"))
            .map(|e| e.at_ms);
        within(
            "node-1-r1 created",
            joined.map(|t| t - f),
            deleted - f,
            deleted - f + 3 * MINUTE,
        )
    });
}

#[test]
fn medik8s_snr_moves_db_with_the_out_of_service_taint() {
    check("medik8s-snr", |o, f| {
        let oos = first(
            o,
            EventKind::TaintAdded,
            Some("node.kubernetes.io/out-of-service:NoExecute"),
        )
        .ok_or("no out-of-service taint")?;
        within("db-0 Ready", db_ready(o, f), oos - f, oos - f + 2 * MINUTE)
    });
}

#[test]
fn karpenter_repairs_only_behind_its_gate() {
    check("karpenter-repair-off", |o, _| {
        match first(o, EventKind::RemediationStarted, None).or(o.summary.nodes[0].deleted_at_ms) {
            Some(t) => Err(format!("node repair is off, yet something happened to node-1 at {t}")),
            None => Ok(()),
        }
    });
    check("karpenter-repair-on", |o, _| {
        let n = &o.summary.nodes[0];
        let unknown = n.unknown_at_ms.ok_or("node-1 never Unknown")?;
        // The AWS Ready policy's toleration is 30m0s, exact.
        within(
            "RemediationStarted",
            n.remediation_at_ms.map(|t| t - unknown),
            30 * MINUTE,
            30 * MINUTE + SECOND,
        )
    });
}

/// When the first graceful deletion of one of node-1's `web` pods was asked for, ms.
fn web_deleted_from_node_1(o: &Outcome) -> Option<Millis> {
    o.events
        .iter()
        .find(|e| {
            e.kind == EventKind::PodDeletionRequested
                && e.node.as_deref() == Some("node-1")
                && e.pod.as_deref().is_some_and(|p| p.starts_with("web-"))
        })
        .map(|e| e.at_ms)
}

#[test]
fn karpenter_spot_interruption_moves_pods_within_the_notice_and_without_the_queue_after_the_reclaim() {
    check("karpenter-spot-interruption", |o, f| {
        let n = &o.summary.nodes[0];
        // The warning comes at the fault; the SQS message 5s later.
        within(
            "RemediationStarted",
            n.remediation_at_ms.map(|t| t - f),
            5 * SECOND,
            5 * SECOND,
        )?;
        within(
            "web evicted from node-1",
            web_deleted_from_node_1(o).map(|t| t - f),
            5 * SECOND,
            5 * SECOND,
        )?;
        within(
            "web's replacement Ready",
            n.first_replacement_ready_at_ms.map(|t| t - f),
            5 * SECOND,
            20 * SECOND,
        )?;
        // The volume detaches from a live node: no six-minute wait, and well within the notice.
        within("db-0 Ready", db_ready(o, f), 10 * SECOND, 2 * MINUTE)?;
        // Karpenter terminates the drained instance itself, before EC2's reclaim at 2m0s.
        within("NodeDeleted", n.deleted_at_ms.map(|t| t - f), 30 * SECOND, 2 * MINUTE)
    });
    let without_queue = |s: &mut Scenario| match &mut s.remediation[0] {
        RemediationSection::KarpenterNodeRepair(k) => k.interruption_queue = None,
        _ => unreachable!("the preset runs Karpenter"),
    };
    check_changed("karpenter-spot-interruption", without_queue, |o, f| {
        // Nothing acts on the warning: the fault is EC2's reclaim, 2m0s after it.
        let warning = f - 2 * MINUTE;
        if let Some(t) = first(o, EventKind::RemediationStarted, None) {
            return Err(format!("no queue, yet a remediation at {t}"));
        }
        // The pods go only after the cloud controller deletes the Node (PodGC's orphans).
        let n = &o.summary.nodes[0];
        within(
            "web's replacement Ready",
            n.first_replacement_ready_at_ms.map(|t| t - warning),
            3 * MINUTE,
            5 * MINUTE,
        )?;
        within("db-0 Ready", db_ready(o, warning), 8 * MINUTE, 13 * MINUTE)
    });
}

/// When node `name` registered (`NodeCreated`), ms.
fn created(o: &Outcome, name: &str) -> Option<Millis> {
    o.events
        .iter()
        .find(|e| e.kind == EventKind::NodeCreated && e.node.as_deref() == Some(name))
        .map(|e| e.at_ms)
}

/// An EKS Spot managed node group (the EKS user guide's "Managed node group capacity types"):
/// at the two-minute notice Capacity Rebalancing launches node-1-r1 and EKS cordons node-1 and
/// evicts its pods at once, so web and db move within the notice (db's volume detached from a
/// live node); EC2 reclaims the instance at the notice's end and the cloud controller deletes
/// the Node. Every one of these events names what made it.
#[test]
fn eks_spot_managed_node_group_drains_on_the_notice_and_launches_the_replacement() {
    check("eks-spot-managed-node-group", |o, f| {
        let n = &o.summary.nodes[0];
        within(
            "NodeCordoned",
            first(o, EventKind::NodeCordoned, None).map(|t| t - f),
            0,
            0,
        )?;
        within(
            "web evicted from node-1",
            web_deleted_from_node_1(o).map(|t| t - f),
            0,
            0,
        )?;
        within(
            "web's replacement Ready",
            n.first_replacement_ready_at_ms.map(|t| t - f),
            5 * SECOND,
            10 * SECOND,
        )?;
        within("db-0 Ready", db_ready(o, f), 10 * SECOND, 2 * MINUTE)?;
        // The replacement boots for nodeBootDuration (1m30s) from the notice.
        within(
            "node-1-r1 registered",
            created(o, "node-1-r1").map(|t| t - f),
            90 * SECOND,
            90 * SECOND,
        )?;
        // EC2 reclaims at 2m0s (the instance gone 30s later); the cloud controller deletes the
        // Node at its first pass once Ready is Unknown, 40s to 61s after the reclaim (§9.1).
        within(
            "NodeDeleted",
            n.deleted_at_ms.map(|t| t - f),
            160 * SECOND,
            181 * SECOND,
        )?;
        // EC2's reclaim follows from the notice, the node's fault.
        let faults: Vec<_> = o
            .events
            .iter()
            .filter(|e| e.kind == EventKind::FaultStarted && e.node.as_deref() == Some("node-1"))
            .collect();
        match faults[..] {
            [notice, reclaim] if reclaim.after == Some(notice.id) && notice.after.is_none() => {}
            _ => return Err(format!("the notice and the reclaim: {faults:?}")),
        }
        let unlinked: Vec<String> = o
            .events
            .iter()
            .filter(|e| {
                let ours = e.cause.english().contains("EKS") || e.cause.english().contains("Auto Scaling group");
                ours && e.after.is_none()
            })
            .map(|e| format!("{:?} {:?}", e.kind, e.node))
            .collect();
        if unlinked.is_empty() {
            Ok(())
        } else {
            Err(format!("events of the node group without `after`: {unlinked:?}"))
        }
    });
}

/// An On-Demand managed node group's Auto Scaling group replaces a terminated instance (the
/// Amazon EC2 Auto Scaling user guide's health checks): node-1-r1 registers nodeBootDuration
/// after the termination, and the cluster is not left one node short; without a managed node
/// group nothing replaces it. The timings of the preset's pods do not change.
#[test]
fn an_eks_managed_node_group_replaces_a_terminated_instance() {
    let on_demand = |s: &mut Scenario| {
        if let Some(c) = s.cloud.as_mut() {
            c.managed_node_group = Some("ON_DEMAND".into());
        }
    };
    check_changed("eks-instance-terminated", on_demand, |o, f| {
        within(
            "node-1-r1 registered",
            created(o, "node-1-r1").map(|t| t - f),
            90 * SECOND,
            90 * SECOND,
        )?;
        let n = &o.summary.nodes[0];
        within("NodeDeleted", n.deleted_at_ms.map(|t| t - f), 30 * SECOND, 70 * SECOND)?;
        within("db-0 Ready", db_ready(o, f), 7 * MINUTE, 11 * MINUTE)
    });
    check("eks-instance-terminated", |o, _| match created(o, "node-1-r1") {
        Some(t) => Err(format!("no managed node group, yet node-1-r1 registered at {t}")),
        None => Ok(()),
    });
}
