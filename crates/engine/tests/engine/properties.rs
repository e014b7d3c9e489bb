//! Property tests over random scenarios.

use crate::scenarios::scenario;
use kubelife_engine::scenario::{
    ActionKind, ActionSection, GoDuration, IntOrString, NodeSection, PdbSection, WorkloadKind, WorkloadSection,
};
use kubelife_engine::{run, run_json, EventKind, Outcome, RunOptions, Scenario};
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// Per volume: whether it is ReadWriteMany, and the nodes it is attached to at the start. The
/// cluster ran before, so no VolumeAttached records those: every pod the opening state shows
/// running on a node has its volume attached there (a claim per StatefulSet ordinal,
/// `data-<pod>`, or one shared claim, `<workload>-data`).
fn initial_volumes(s: &Scenario, o: &Outcome) -> BTreeMap<String, (bool, BTreeSet<String>)> {
    let cfg = s.resolve().expect("generated scenarios are valid");
    let mut out = BTreeMap::new();
    for w in &cfg.workloads {
        let Some(v) = w.volume else { continue };
        let names: Vec<String> = if v.per_pod {
            (0..w.replicas).map(|i| format!("data-{}-{i}", w.name)).collect()
        } else {
            vec![format!("{}-data", w.name)]
        };
        for name in names {
            out.insert(name, (v.many, BTreeSet::new()));
        }
    }
    let running = o.events.iter().take_while(|e| e.at_ms == 0 && e.cause.is_initial());
    for e in running.filter(|e| e.kind == EventKind::PodScheduled) {
        let (Some(pod), Some(node)) = (&e.pod, &e.node) else {
            continue;
        };
        let of = |w: &&kubelife_engine::scenario::WorkloadSpec| {
            pod.strip_prefix(&w.name)
                .is_some_and(|r| r.is_empty() || r.starts_with('-'))
        };
        let Some(w) = cfg.workloads.iter().find(of) else {
            continue;
        };
        let volume = match w.volume {
            Some(v) if v.per_pod => format!("data-{pod}"),
            Some(_) => format!("{}-data", w.name),
            None => continue,
        };
        if let Some((_, on)) = out.get_mut(&volume) {
            on.insert(node.clone());
        }
    }
    out
}

/// The volume events of `v`, one a line, for failure messages.
fn history(o: &Outcome, v: &str) -> String {
    o.events
        .iter()
        .filter(|e| e.volume.as_deref() == Some(v))
        .map(|e| {
            format!(
                "\n  {} {:?} {:?} {:?}: {}",
                e.at_ms,
                e.kind,
                e.node,
                e.pod,
                e.cause.english()
            )
        })
        .collect()
}

fn outcome(s: &Scenario) -> Outcome {
    run(
        &s.resolve().expect("generated scenarios are valid"),
        &RunOptions { heartbeats: true },
    )
}

proptest! {
    #![proptest_config(crate::seeded::config(200))]

    /// Every event that names the one that made it possible names an earlier one, no later in
    /// time, and the wire form the page reads keeps the link.
    #[test]
    fn each_event_follows_the_one_it_names(s in scenario()) {
        let o = outcome(&s);
        for (i, e) in o.events.iter().enumerate() {
            prop_assert_eq!(e.id, i);
            if let Some(a) = e.after {
                prop_assert!(a < i, "event {} {:?} names a later event {}", i, e.kind, a);
                let before = &o.events[a];
                prop_assert!(before.at_ms <= e.at_ms, "event {} {:?} at {} follows {:?} at {}", i, e.kind, e.at_ms, before.kind, before.at_ms);
            }
        }
        let back = kubelife_engine::wire::decode(&kubelife_engine::wire::encode(&o)).expect("decodes");
        prop_assert!(back.events.iter().zip(&o.events).all(|(a, b)| a.after == b.after && a.id == b.id));
    }

    /// The cloud node lifecycle controller deletes only the Node of an instance that was
    /// terminated, once its Ready is no longer True, and puts the shutdown taint only on a node
    /// whose instance was stopped.
    #[test]
    fn the_cloud_controller_acts_only_on_instances_the_cloud_took(s in scenario()) {
        let o = outcome(&s);
        for (i, e) in o.events.iter().enumerate() {
            let node = e.node.as_deref();
            let before = &o.events[..i];
            let faulted = |key: &str| {
                before.iter().any(|b| b.kind == EventKind::FaultStarted && b.node.as_deref() == node && b.cause.key == key)
            };
            if e.kind == EventKind::NodeDeleted && e.cause.key == "cause.cloud.node_deleted" {
                prop_assert!(faulted("cause.fault.instance_terminated"), "event {}: {:?} deleted, its instance never terminated", i, node);
                let ready = before.iter().rev().find(|b| {
                    b.node.as_deref() == node
                        && matches!(b.kind, EventKind::NodeReady | EventKind::NodeNotReady | EventKind::NodeUnknown)
                });
                prop_assert!(ready.is_some_and(|b| b.kind != EventKind::NodeReady), "event {}: {:?} deleted while Ready", i, node);
            }
            if e.kind == EventKind::TaintAdded && e.cause.key == "cause.cloud.shutdown_taint" {
                prop_assert!(faulted("cause.fault.instance_stopped"), "event {}: {:?} tainted, its instance never stopped", i, node);
            }
        }
    }

    #[test]
    fn events_are_ordered_and_runs_repeat(s in scenario()) {
        let a = outcome(&s);
        prop_assert!(a.events.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
        let b = outcome(&s);
        prop_assert_eq!(a.to_json(), b.to_json());
    }

    #[test]
    fn a_pod_is_never_on_two_nodes_and_names_are_unique(s in scenario()) {
        let o = outcome(&s);
        // Per pod name: whether an object exists, and whether it is bound.
        let mut live: BTreeMap<String, (bool, bool)> = BTreeMap::new();
        for e in &o.events {
            let Some(p) = &e.pod else { continue };
            let entry = live.entry(p.clone()).or_insert((false, false));
            match e.kind {
                EventKind::PodCreated => {
                    prop_assert!(!entry.0, "{p} created while an object with its name exists");
                    *entry = (true, false);
                }
                EventKind::PodScheduled => {
                    prop_assert!(entry.0 && !entry.1, "{p} bound twice or without an object");
                    entry.1 = true;
                }
                EventKind::PodRemoved => {
                    prop_assert!(entry.0, "{p} removed twice");
                    *entry = (false, false);
                }
                _ => {}
            }
        }
    }

    #[test]
    fn a_deleted_pod_is_never_ready_again(s in scenario()) {
        let o = outcome(&s);
        let mut deleting: BTreeMap<String, bool> = BTreeMap::new();
        for e in &o.events {
            let Some(p) = &e.pod else { continue };
            match e.kind {
                EventKind::PodCreated => { deleting.insert(p.clone(), false); }
                EventKind::PodDeletionRequested => { deleting.insert(p.clone(), true); }
                EventKind::PodReady => prop_assert!(!deleting.get(p).copied().unwrap_or(false), "{p} Ready after its deletion at {}", e.at_ms),
                _ => {}
            }
        }
    }

    /// No node goes Unknown before the grace period has passed since its last heartbeat, and no
    /// NoExecute taint lands on a node the timeline shows Ready. (A taint may follow a heartbeat
    /// closely: the monitor pass acts on the Ready status it observed at its start, as upstream.)
    #[test]
    fn no_no_execute_taint_before_grace_has_passed(s in scenario()) {
        let o = outcome(&s);
        let grace = s.controller_manager.node_monitor_grace_period.unwrap().0;
        // A write reaches the controllers' informers after the API and watch latency (5 + 10 ms by
        // default), plus whatever ApiServerLatency adds.
        let spike = s.events.iter().filter_map(|e| e.latency_ms).max().unwrap_or(0);
        let lag = 15 + spike;
        // The last two heartbeats per node: the newest may not have reached the informer yet.
        let mut heartbeats: BTreeMap<String, (Option<i64>, i64)> = BTreeMap::new();
        let mut ready_since: BTreeMap<String, i64> = BTreeMap::new();
        for e in &o.events {
            let Some(n) = &e.node else { continue };
            match e.kind {
                EventKind::LeaseRenewed | EventKind::NodeStatusPatched => {
                    let prev = heartbeats.get(n).map(|h| h.1);
                    heartbeats.insert(n.clone(), (prev, e.at_ms));
                }
                EventKind::NodeReady => { ready_since.insert(n.clone(), e.at_ms); }
                EventKind::NodeUnknown => {
                    let seen = heartbeats.get(n).and_then(|&(prev, last)| if last + lag <= e.at_ms { Some(last) } else { prev });
                    if let Some(hb) = seen {
                        prop_assert!(e.at_ms - hb > grace, "{n} Unknown at {} only {} ms after a visible heartbeat", e.at_ms, e.at_ms - hb);
                    }
                    ready_since.remove(n);
                }
                // A kubelet that reports Ready=False itself (graceful shutdown) is not Ready.
                EventKind::NodeNotReady => { ready_since.remove(n); }
                // The node lifecycle controller's taints; operators may taint Ready nodes themselves.
                EventKind::TaintAdded if matches!(e.taint.as_deref(), Some("node.kubernetes.io/unreachable:NoExecute" | "node.kubernetes.io/not-ready:NoExecute")) => {
                    if let Some(r) = ready_since.get(n) {
                        prop_assert!(e.at_ms <= r + lag, "{n} tainted at {} while Ready since {r}", e.at_ms);
                    }
                }
                _ => {}
            }
        }
    }

    /// A force-deleted pod is gone: nothing more happens to that object.
    #[test]
    fn a_force_deleted_pod_is_gone(s in scenario()) {
        let o = outcome(&s);
        let mut gone: BTreeMap<String, i64> = BTreeMap::new();
        for e in &o.events {
            let Some(p) = &e.pod else { continue };
            // The EndpointSlice and the proxies record the removal after it.
            if matches!(e.kind, EventKind::EndpointRemoved | EventKind::TrafficStopped) {
                continue;
            }
            if e.kind == EventKind::PodCreated {
                gone.remove(p);
            } else if let Some(at) = gone.get(p) {
                prop_assert!(false, "{p} force-deleted at {at} but {:?} at {}", e.kind, e.at_ms);
            }
            if e.kind == EventKind::PodRemoved && e.cause.english().contains("force-deleted") {
                gone.insert(p.clone(), e.at_ms);
            }
        }
    }

    /// A volume is attached to one node at a time unless it is ReadWriteMany: the attachment
    /// intervals rebuilt from VolumeAttached and VolumeDetached per (volume, node) never overlap.
    #[test]
    fn a_volume_is_attached_to_one_node_unless_read_write_many(s in scenario()) {
        let o = outcome(&s);
        let volumes = initial_volumes(&s, &o);
        let mut attached: BTreeMap<String, BTreeSet<String>> =
            volumes.iter().map(|(v, (_, on))| (v.clone(), on.clone())).collect();
        for e in &o.events {
            let (Some(v), Some(n)) = (&e.volume, &e.node) else { continue };
            match e.kind {
                EventKind::VolumeAttached => {
                    let on = attached.entry(v.clone()).or_default();
                    prop_assert!(!on.contains(n), "{v} attached to {n} twice, at {}{}", e.at_ms, history(&o, v));
                    if !volumes[v].0 {
                        prop_assert!(on.is_empty(), "{v} attached to {n} at {} while attached to {:?}{}", e.at_ms, on, history(&o, v));
                    }
                    on.insert(n.clone());
                }
                EventKind::VolumeDetached => {
                    let was = attached.entry(v.clone()).or_default().remove(n);
                    prop_assert!(was, "{v} detached from {n} at {} without an attach{}", e.at_ms, history(&o, v));
                }
                _ => {}
            }
        }
    }

    /// The kubelet mounts a pod's volume on node N only while the volume is attached to N: the
    /// last VolumeAttached of it to N comes before, with no VolumeDetached from N since.
    #[test]
    fn a_volume_is_mounted_only_where_it_is_attached(s in scenario()) {
        let o = outcome(&s);
        let mut attached: BTreeMap<(String, String), bool> = initial_volumes(&s, &o)
            .into_iter()
            .flat_map(|(v, (_, on))| on.into_iter().map(move |n| ((v.clone(), n), true)))
            .collect();
        for e in &o.events {
            let (Some(v), Some(n)) = (&e.volume, &e.node) else { continue };
            let key = (v.clone(), n.clone());
            match e.kind {
                EventKind::VolumeAttached => { attached.insert(key, true); }
                EventKind::VolumeDetached => { attached.insert(key, false); }
                EventKind::VolumeMounted => prop_assert!(
                    attached.get(&key).copied().unwrap_or(false),
                    "{:?} mounted {v} on {n} at {} while it is not attached there{}", e.pod, e.at_ms, history(&o, v)
                ),
                _ => {}
            }
        }
    }

    /// Once every connected proxy stopped sending to a pod that is not Ready, nothing sends to it
    /// again until it is Ready again: a second TrafficStopped or EndpointNotReady for it needs a
    /// PodReady in between. (A terminating pod that is still Ready may come back through the
    /// serving-terminating fallback, so only pods already not Ready are held to this.)
    #[test]
    fn traffic_never_returns_to_a_pod_the_proxies_dropped(s in scenario()) {
        let o = outcome(&s);
        let mut ready: BTreeMap<String, bool> = BTreeMap::new();
        // Per (service, pod): the event that dropped a not-Ready pod, and when.
        let mut dropped: BTreeMap<(String, String, EventKind), i64> = BTreeMap::new();
        for e in &o.events {
            let Some(p) = &e.pod else { continue };
            match e.kind {
                EventKind::PodReady => {
                    ready.insert(p.clone(), true);
                    dropped.retain(|(_, q, _), _| q != p);
                }
                EventKind::PodCreated => {
                    ready.insert(p.clone(), false);
                    dropped.retain(|(_, q, _), _| q != p);
                }
                EventKind::PodNotReady | EventKind::PodFailed | EventKind::PodRemoved => { ready.insert(p.clone(), false); }
                EventKind::TrafficStopped | EventKind::EndpointNotReady => {
                    let key = (e.service.clone().unwrap_or_default(), p.clone(), e.kind);
                    if let Some(at) = dropped.get(&key) {
                        prop_assert!(false, "{:?} for {p} at {} after the same at {at} with no PodReady between", e.kind, e.at_ms);
                    }
                    if !ready.get(p).copied().unwrap_or(false) {
                        dropped.insert(key, e.at_ms);
                    }
                }
                _ => {}
            }
        }
        let end = s.duration_seconds.unwrap() * 1000;
        for sv in &o.summary.services {
            prop_assert!(
                sv.blackhole_ms >= 0 && (0..=end).contains(&sv.fewer_serving_ms),
                "{}: blackhole {} ms, fewer serving {} ms in a {end} ms run", sv.service, sv.blackhole_ms, sv.fewer_serving_ms
            );
            match (sv.blackhole_from_ms, sv.blackhole_until_ms) {
                (Some(from), Some(until)) => {
                    prop_assert!(from <= until, "{}: blackhole from {from} until {until}", sv.service);
                    prop_assert!(sv.blackhole_ms <= until - from, "{}: {} ms of blackhole in {from}..{until}", sv.service, sv.blackhole_ms);
                }
                (None, None) => prop_assert_eq!(sv.blackhole_ms, 0),
                other => prop_assert!(false, "{}: blackhole bounds {:?}", sv.service, other),
            }
            prop_assert!(sv.first_traffic_stopped_at_ms <= sv.last_traffic_stopped_at_ms);
        }
    }

    #[test]
    fn any_text_gives_an_outcome_or_an_error(text in "\\PC{0,200}") {
        let _ = run_json(&text, &RunOptions::default());
    }

    #[test]
    fn mangled_scenarios_never_panic(s in scenario(), cut in 0usize..2000, junk in "[\\[\\]{}\",:a-z0-9 -]{0,20}") {
        let json = s.to_json();
        let cut = cut.min(json.len());
        let cut = (0..=cut).rev().find(|&i| json.is_char_boundary(i)).unwrap_or(0);
        let mangled = format!("{}{}{}", &json[..cut], junk, &json[cut..]);
        let _ = run_json(&mangled, &RunOptions::default());
    }
}

prop_compose! {
    /// A Deployment or StatefulSet with a PodDisruptionBudget on 2–4 nodes, drained one to three
    /// times; nothing else disturbs the pods.
    fn drained()(
        minor in 21u32..=35,
        seed in any::<u64>(),
        nodes in 2usize..5,
        stateful in any::<bool>(),
        replicas in 1u32..7,
        budget in prop_oneof![
            (0i64..8).prop_map(|n| (Some(IntOrString::Int(n)), None)),
            (0i64..4).prop_map(|n| (None, Some(IntOrString::Int(n)))),
            (0i64..=100).prop_map(|p| (Some(IntOrString::String(format!("{p}%"))), None)),
            (0i64..=100).prop_map(|p| (None, Some(IntOrString::String(format!("{p}%"))))),
        ],
        drains in proptest::collection::vec((0i64..120_000, 0usize..4), 1..4),
        startup in 0i64..20,
    ) -> (Scenario, u32) {
        let kind = if stateful { WorkloadKind::StatefulSet } else { WorkloadKind::Deployment };
        let (min_available, max_unavailable) = budget;
        let events = drains
            .iter()
            .map(|&(at, n)| ActionSection { node: Some(format!("n{}", n % nodes)), ..ActionSection::new(at, ActionKind::Drain) })
            .collect();
        let scenario = Scenario {
            version: Some(format!("1.{minor}")),
            seed: Some(seed),
            duration_seconds: Some(240),
            nodes: (0..nodes).map(|i| NodeSection { name: format!("n{i}"), zone: None, labels: BTreeMap::new(), max_pods: None }).collect(),
            workloads: vec![WorkloadSection {
                replicas: Some(replicas),
                pdb: Some(PdbSection { min_available, max_unavailable, ..Default::default() }),
                ..WorkloadSection::new(kind, "web")
            }],
            simulation: kubelife_engine::scenario::SimulationSection {
                pod_startup: Some(GoDuration(startup * 1000)),
                ..Default::default()
            },
            events,
            ..Default::default()
        };
        (scenario, replicas)
    }
}

/// `desiredHealthy` for the generated budget (`getExpectedPodCount` with the scale
/// `replicas`); for an integer minAvailable the expected count does not matter here.
fn desired_healthy(s: &Scenario, replicas: u32) -> i64 {
    let pdb = s.workloads[0].pdb.as_ref().expect("generated with a budget");
    let scaled = |v: &IntOrString| match v {
        IntOrString::Int(n) => *n,
        IntOrString::String(p) => (p.trim_end_matches('%').parse::<i64>().unwrap() * i64::from(replicas) + 99) / 100,
    };
    match (&pdb.min_available, &pdb.max_unavailable) {
        (Some(min), _) => scaled(min),
        (_, Some(max)) => (i64::from(replicas) - scaled(max)).max(0),
        _ => unreachable!(),
    }
}

proptest! {
    #![proptest_config(crate::seeded::config(150))]

    /// An eviction through the API never takes the Ready, non-terminating pods below the
    /// budget's desiredHealthy (`checkAndDecrement`): every pod it removes from that count leaves
    /// at least desiredHealthy of them.
    #[test]
    fn a_budget_never_goes_below_desired_through_evictions((s, replicas) in drained()) {
        let o = outcome(&s);
        let desired = desired_healthy(&s, replicas);
        let mut ready: BTreeMap<String, bool> = BTreeMap::new();
        for e in &o.events {
            let Some(p) = &e.pod else { continue };
            let was = ready.get(p).copied().unwrap_or(false);
            match e.kind {
                EventKind::PodReady => { ready.insert(p.clone(), true); }
                EventKind::PodNotReady | EventKind::PodRemoved | EventKind::PodFailed => { ready.insert(p.clone(), false); }
                EventKind::PodDeletionRequested => {
                    ready.insert(p.clone(), false);
                    let left = ready.values().filter(|&&r| r).count() as i64;
                    prop_assert!(e.cause.key == "cause.drain.evict", "only drain deletes here: {:?}", e.cause.key);
                    prop_assert!(
                        !was || left >= desired,
                        "evicting Ready {p} at {} left {left} Ready pods, budget wants {desired}", e.at_ms
                    );
                }
                _ => {}
            }
        }
    }
}
