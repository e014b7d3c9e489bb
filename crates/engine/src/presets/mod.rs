//! Named scenarios: version defaults, kubespray's three reaction profiles (its
//! `docs/kubernetes-reliability.md`), rke's examples and a fast-failover
//! profile. Each runs the same cluster (three zones, a Deployment, a StatefulSet and a DaemonSet)
//! with one node crashing at 30 s, so that presets compare like for like. The scale presets run
//! clusters of their own (up to 5,000 nodes, zone outages) on the newest defaults, to show how
//! zone states and eviction rates pace a large failure. The presets with clients ([`clients`])
//! add what the Services' callers see.

#[cfg(feature = "clients")]
mod clients;

use crate::scenario::{
    ActionKind, ActionSection, ApiServerSection, CloudSection, ControllerManagerSection, GoDuration, KarpenterSection,
    KubeletSection, MachineHealthCheckSection, NodeSection, Provider, RemediationSection, Scenario,
    SelfNodeRemediationSection, ServiceField, VolumeSection, WorkloadKind, WorkloadSection,
};
use crate::time::SECOND;
use crate::version::NEWEST_MINOR;
use std::collections::BTreeMap;

/// A named scenario with a one-line description of what it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    /// Name, as `kubelife preset NAME` takes it.
    pub name: &'static str,
    /// What it shows.
    pub description: &'static str,
    /// The scenario.
    pub scenario: Scenario,
}

fn secs(s: i64) -> Option<GoDuration> {
    Some(GoDuration(s * SECOND))
}

/// The cluster every preset runs: three nodes in three zones, web (3), db (1), agent (DaemonSet),
/// and node-1 crashing at 30 s.
pub fn default_cluster(version: &str) -> Scenario {
    let nodes = ["zone-a", "zone-b", "zone-c"]
        .iter()
        .enumerate()
        .map(|(i, z)| NodeSection {
            name: format!("node-{}", i + 1),
            zone: Some(z.to_string()),
            labels: BTreeMap::new(),
            max_pods: None,
        })
        .collect();
    let workload = |kind, name: &str, replicas| WorkloadSection {
        replicas,
        ..WorkloadSection::new(kind, name)
    };
    Scenario {
        version: Some(version.to_string()),
        seed: Some(1),
        duration_seconds: Some(900),
        nodes,
        workloads: vec![
            workload(WorkloadKind::Deployment, "web", Some(3)),
            workload(WorkloadKind::StatefulSet, "db", Some(1)),
            workload(WorkloadKind::DaemonSet, "agent", None),
        ],
        events: vec![ActionSection {
            node: Some("node-1".into()),
            ..ActionSection::new(30 * SECOND, ActionKind::NodeCrash)
        }],
        ..Scenario::default()
    }
}

/// A cluster at scale on the newest version: `nodes` nodes named `node-1`… spread round-robin
/// over the first `zones` of zone-a, zone-b, …; `web` (two pods per node, behind a Service), `db`
/// (three pods, a ReadWriteOnce volume each) and `agent` (a DaemonSet), so three pods a node;
/// and `crashed` nodes (0-based) losing power at `at` seconds.
fn at_scale(nodes: u32, zones: u32, duration: i64, at: i64, crashed: &[u32]) -> Scenario {
    let nodes = (0..nodes)
        .map(|i| NodeSection {
            name: format!("node-{}", i + 1),
            zone: Some(format!("zone-{}", char::from(b'a' + (i % zones) as u8))),
            labels: BTreeMap::new(),
            max_pods: None,
        })
        .collect::<Vec<_>>();
    let web = WorkloadSection {
        replicas: Some(2 * nodes.len() as u32),
        service: Some(ServiceField::Enabled(true)),
        ..WorkloadSection::new(WorkloadKind::Deployment, "web")
    };
    let db = WorkloadSection {
        replicas: Some(3),
        volume: Some(VolumeSection {
            access_mode: Some("ReadWriteOnce".into()),
            per_pod: Some(true),
        }),
        ..WorkloadSection::new(WorkloadKind::StatefulSet, "db")
    };
    let events = crashed
        .iter()
        .map(|&i| ActionSection {
            node: Some(format!("node-{}", i + 1)),
            ..ActionSection::new(at * SECOND, ActionKind::NodeCrash)
        })
        .collect();
    Scenario {
        version: Some(format!("1.{NEWEST_MINOR}")),
        seed: Some(1),
        duration_seconds: Some(duration),
        nodes,
        workloads: vec![web, db, WorkloadSection::new(WorkloadKind::DaemonSet, "agent")],
        events,
        ..Scenario::default()
    }
}

/// The presets at real sizes: a zone outage, a tenth of a large cluster, a zone crossing
/// `--unhealthy-zone-threshold`, and every zone down.
fn scale_presets() -> Vec<Preset> {
    let zone_b: Vec<u32> = (1..1000).step_by(3).collect();
    let first = |n: u32| (0..n).collect::<Vec<u32>>();
    vec![
        Preset {
            name: "scale-1000-zone-b-outage",
            description: "1,000 nodes in three zones; zone-b's 333 lose power at 1m0s: the zone is FullDisruption and tainted at --node-eviction-rate 0.1/s, one node every 10s, so its last nodes wait about an hour",
            scenario: at_scale(1000, 3, 3600, 60, &zone_b),
        },
        Preset {
            name: "scale-5000-lose-10-percent",
            description: "5,000 nodes in three zones; 500 (10%) crash at 1m0s: every zone stays Normal and taints its own share at 0.1/s, so the last of the 500 is tainted about half an hour later",
            scenario: at_scale(5000, 3, 2400, 60, &first(500)),
        },
        Preset {
            name: "scale-200-partial-disruption",
            description: "one zone of 200 nodes; 120 (60%) crash at 1m0s: the zone crosses --unhealthy-zone-threshold 0.55, is larger than --large-cluster-size-threshold 50, and goes PartialDisruption: tainting slows to --secondary-node-eviction-rate 0.01/s",
            scenario: at_scale(200, 1, 1800, 60, &first(120)),
        },
        Preset {
            name: "all-zones-down",
            description: "six nodes in three zones all crash at 30s: once every zone is FullDisruption the controller assumes its own network failed, removes its NoExecute taints and evicts no pod",
            scenario: at_scale(6, 3, 900, 30, &first(6)),
        },
    ]
}

fn kcm(period: i64, grace: i64) -> ControllerManagerSection {
    ControllerManagerSection {
        node_monitor_period: secs(period),
        node_monitor_grace_period: secs(grace),
        ..Default::default()
    }
}

fn tolerations(not_ready: i64, unreachable: i64) -> ApiServerSection {
    ApiServerSection {
        default_not_ready_toleration_seconds: Some(not_ready),
        default_unreachable_toleration_seconds: Some(unreachable),
    }
}

/// Every preset, in the order `kubelife presets` lists them.
pub fn presets() -> Vec<Preset> {
    let newest = format!("1.{NEWEST_MINOR}");
    let with = |version: &str, f: &dyn Fn(&mut Scenario)| {
        let mut s = default_cluster(version);
        f(&mut s);
        s
    };
    let legacy_timeout = |update: i64, period: i64, grace: i64, timeout: i64| {
        move |s: &mut Scenario| {
            s.kubelet = KubeletSection {
                node_status_update_frequency: secs(update),
                ..Default::default()
            };
            s.controller_manager = ControllerManagerSection {
                pod_eviction_timeout: secs(timeout),
                ..kcm(period, grace)
            };
        }
    };
    let mut all = vec![
        Preset { name: "upstream-1.12", description: "1.12 defaults: no Lease, legacy eviction 5m after the last heartbeat seen, no NoExecute taint", scenario: default_cluster("1.12") },
        Preset { name: "upstream-1.17", description: "1.17 defaults: Leases every 10s, 40s grace, taint-based eviction after 300s tolerations", scenario: default_cluster("1.17") },
        Preset { name: "upstream-1.31", description: "1.31 defaults: the classic 5m40s from crash to replacement", scenario: default_cluster("1.31") },
        Preset { name: "upstream-newest", description: "newest defaults: 50s grace since 1.32, so about 5m50s to replacement", scenario: default_cluster(&newest) },
        Preset {
            name: "kubespray-fast",
            description: "kubespray's fast update and fast reaction (4s updates, 2s period, 20s grace, 30s pod-eviction-timeout) on 1.12: pods go about 30s after the last heartbeat, not 50s",
            scenario: with("1.12", &legacy_timeout(4, 2, 20, 30)),
        },
        Preset {
            name: "kubespray-fast-1.26",
            description: "kubespray's fast reaction on 1.26: --pod-eviction-timeout is accepted but ignored, so pods still wait 300s after the taint",
            scenario: with("1.26", &legacy_timeout(4, 2, 20, 30)),
        },
        Preset {
            name: "kubespray-medium",
            description: "kubespray's medium update and average reaction (20s updates, 2m grace, 1m pod-eviction-timeout) on 1.12: eviction one pass after Unknown, about 2m",
            scenario: with("1.12", &legacy_timeout(20, 5, 120, 60)),
        },
        Preset {
            name: "kubespray-low",
            description: "kubespray's low update and slow reaction (1m updates, 5m grace, 1m pod-eviction-timeout) on 1.12: eviction about 5m after the crash",
            scenario: with("1.12", &legacy_timeout(60, 5, 300, 60)),
        },
        Preset {
            name: "rke-1.12-legacy",
            description: "rke example for clusters before 1.13: only kube-controller flags matter (5s, 40s, 1m0s, 5m0s)",
            scenario: with("1.12", &|s| s.controller_manager = ControllerManagerSection { node_startup_grace_period: secs(60), pod_eviction_timeout: secs(300), ..kcm(5, 40) }),
        },
        Preset {
            name: "rke-1.17-taint-based-off",
            description: "rke example for 1.13–1.17 with TaintBasedEvictions=false: back to the legacy 5m0s pod-eviction-timeout",
            scenario: with("1.17", &|s| {
                s.controller_manager = ControllerManagerSection { node_startup_grace_period: secs(60), pod_eviction_timeout: secs(300), ..kcm(5, 40) };
                s.feature_gates.insert("TaintBasedEvictions".into(), false);
            }),
        },
        Preset {
            name: "rke-1.17-tolerations",
            description: "rke example for 1.13–1.17 keeping taint-based eviction: apiserver default tolerations 60s (not-ready) and 30s (unreachable)",
            scenario: with("1.17", &|s| {
                s.api_server = tolerations(60, 30);
                s.controller_manager = kcm(5, 40);
            }),
        },
        Preset {
            name: "rke-1.18-tolerations",
            description: "rke example for 1.18 and later (TaintBasedEvictions locked on): 30s grace, 60s/30s default tolerations",
            scenario: with("1.18", &|s| {
                s.api_server = tolerations(60, 30);
                s.controller_manager = kcm(5, 30);
            }),
        },
        Preset {
            name: "metalk8s-fast-failover",
            description: "a MetalK8s-style fast failover on the newest version: 5s monitor period, 30s grace, 60s/60s default tolerations",
            scenario: with(&newest, &|s| {
                s.api_server = tolerations(60, 60);
                s.controller_manager = kcm(5, 30);
            }),
        },
    ];
    all.extend(cloud_presets(&newest));
    all.extend(scale_presets());
    all
}

/// The presets on a cloud or with a remediator, on the newest version: the default cluster with
/// `web` behind a Service and `db` on a ReadWriteOnce volume (an EBS volume, a persistent disk, an
/// Azure disk), and node-1's instance failing (or hanging) at 30 s.
fn cloud_presets(newest: &str) -> Vec<Preset> {
    let on = |provider: Option<Provider>, action: ActionKind, f: &dyn Fn(&mut Scenario)| {
        let mut s = default_cluster(newest);
        s.cloud = provider.map(CloudSection::new);
        s.workloads[0].service = Some(ServiceField::Enabled(true));
        s.workloads[1].volume = Some(VolumeSection {
            access_mode: Some("ReadWriteOnce".into()),
            per_pod: Some(true),
        });
        s.events = vec![ActionSection {
            node: Some("node-1".into()),
            ..ActionSection::new(30 * SECOND, action)
        }];
        f(&mut s);
        s
    };
    vec![
        Preset {
            name: "eks-instance-terminated",
            description: "AWS: node-1's EC2 instance is terminated at 30s; the cloud-controller-manager deletes its Node within about a minute, PodGC frees its pods 40s later and web is whole again in about two minutes, while db waits the six-minute force detach of its EBS volume",
            scenario: on(Some(Provider::Aws), ActionKind::InstanceTerminated, &|_| {}),
        },
        Preset {
            name: "gke-spot-preemption",
            description: "GCP: node-1 is a Spot VM preempted at 30s with 30s notice; graceful node shutdown (shutdownGracePeriod 30s) stops its pods within the notice, then the VM stops and its Node stays, NotReady",
            scenario: on(Some(Provider::Gcp), ActionKind::SpotInterruption, &|s| {
                s.kubelet.shutdown_grace_period = secs(30);
                s.kubelet.shutdown_grace_period_critical_pods = secs(10);
            }),
        },
        Preset {
            name: "capi-mhc-5m",
            description: "Cluster API MachineHealthCheck with the book's 5m0s Ready Unknown check: node-1 hangs at 30s, is Unknown about 45s later and unhealthy 5m after that; its Machine is drained (from v1.8 without waiting on the unreachable node's pods or volumes), deleted with its VM and Node, and node-1-r1 replaces it; db's volume still waits the six-minute force detach",
            scenario: on(None, ActionKind::NodeCrash, &|s| {
                s.remediation = vec![RemediationSection::MachineHealthCheck(MachineHealthCheckSection::default())];
                s.duration_seconds = Some(1800);
            }),
        },
        Preset {
            name: "medik8s-snr",
            description: "medik8s NodeHealthCheck with Self Node Remediation at its defaults: node-1 hangs at 30s, is unhealthy 5m after it turns Unknown, is assumed rebooted after the computed safe time, and gets the out-of-service taint (Automatic on 1.28+), so db's pod and volume move without the six-minute wait",
            scenario: on(None, ActionKind::NodeCrash, &|s| {
                s.remediation = vec![RemediationSection::SelfNodeRemediation(SelfNodeRemediationSection::default())];
            }),
        },
        Preset {
            name: "karpenter-repair-off",
            description: "AWS with Karpenter, node repair off (its default: the NodeRepair gate is alpha): node-1's VM hangs at 30s and nothing replaces it; web moves after the taint's 300s, db stays stuck on the node",
            scenario: on(Some(Provider::Aws), ActionKind::NodeCrash, &|s| {
                s.remediation = vec![RemediationSection::KarpenterNodeRepair(KarpenterSection::default())];
            }),
        },
        Preset {
            name: "karpenter-repair-on",
            description: "AWS with Karpenter's NodeRepair gate on: node-1's VM hangs at 30s; after the Ready policy's 30m0s Karpenter taints it, deletes its pods without waiting for volumes, terminates the instance and launches node-1-r1; db's volume then waits the six-minute force detach",
            scenario: on(Some(Provider::Aws), ActionKind::NodeCrash, &|s| {
                s.remediation = vec![RemediationSection::KarpenterNodeRepair(KarpenterSection {
                    node_repair: Some(true),
                    ..KarpenterSection::default()
                })];
                s.duration_seconds = Some(3600);
            }),
        },
        Preset {
            name: "karpenter-spot-interruption",
            description: "AWS with Karpenter reading its interruption queue: node-1 is a Spot instance whose two-minute interruption warning comes at 30s; Karpenter deletes its NodeClaim at the message, drains it through the eviction API and launches node-1-r1, so web and db (its EBS volume detached from a live node) move within the notice, and Karpenter terminates the instance itself before EC2 reclaims it",
            scenario: on(Some(Provider::Aws), ActionKind::SpotInterruption, &|s| {
                s.remediation = vec![RemediationSection::KarpenterNodeRepair(KarpenterSection {
                    interruption_queue: Some(true),
                    ..KarpenterSection::default()
                })];
            }),
        },
        Preset {
            name: "eks-spot-managed-node-group",
            description: "AWS: node-1 is in an EKS managed node group with Spot capacity, and its two-minute interruption notice comes at 30s: Capacity Rebalancing launches node-1-r1 and EKS drains node-1 through the eviction API at once, so web and db (its EBS volume detached from a live node) move within the notice, before EC2 reclaims the instance at 2m30s and the cloud-controller-manager deletes its Node",
            scenario: on(Some(Provider::Aws), ActionKind::SpotInterruption, &|s| {
                if let Some(cloud) = s.cloud.as_mut() {
                    cloud.managed_node_group = Some("SPOT".into());
                }
            }),
        },
        Preset {
            name: "aks-vm-deallocated",
            description: "Azure: node-1's VM is stopped and deallocated at 30s; the cloud-controller-manager taints the node node.cloudprovider.kubernetes.io/shutdown and, seen through its VM cache, node.kubernetes.io/out-of-service, so db's disk detaches without the six-minute wait",
            scenario: on(Some(Provider::Azure), ActionKind::InstanceStopped, &|_| {}),
        },
    ]
}

/// Every preset `kubelife presets` lists: the page's ([`presets`]), then, in an engine built
/// with clients, those with clients.
pub fn every_preset() -> Vec<Preset> {
    let all = presets();
    #[cfg(feature = "clients")]
    let all = [all, clients::presets(&format!("1.{NEWEST_MINOR}"))].concat();
    all
}

/// The preset with this name, of [`every_preset`].
pub fn preset(name: &str) -> Option<Preset> {
    every_preset().into_iter().find(|p| p.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timeline::{EventKind, ZoneState};

    #[test]
    fn every_preset_is_valid_and_round_trips() {
        for p in every_preset() {
            let cfg = p.scenario.resolve().unwrap_or_else(|e| panic!("{}: {e}", p.name));
            assert!(!p.description.is_empty());
            assert_eq!(
                Scenario::from_json(&p.scenario.to_json()).unwrap(),
                p.scenario,
                "{}",
                p.name
            );
            if p.name == "kubespray-fast-1.26" {
                assert!(cfg
                    .warnings
                    .iter()
                    .any(|w| w.english().contains("--pod-eviction-timeout has no effect")));
            }
        }
        assert!(preset("upstream-newest").is_some() && preset("nope").is_none());
    }

    fn run_preset(name: &str) -> crate::outcome::Outcome {
        let p = preset(name).expect("a preset");
        crate::run::run(
            &p.scenario.resolve().expect("valid"),
            &crate::outcome::RunOptions::default(),
        )
    }

    fn of_kind(o: &crate::outcome::Outcome, kind: EventKind) -> impl Iterator<Item = &crate::outcome::TimelineEvent> {
        o.events.iter().filter(move |e| e.kind == kind)
    }

    /// The NoExecute taints the node lifecycle controller adds: (time, node).
    fn no_execute_taints(o: &crate::outcome::Outcome) -> Vec<(i64, String)> {
        of_kind(o, EventKind::TaintAdded)
            .filter(|e| e.taint.as_deref().is_some_and(|t| t.ends_with(":NoExecute")))
            .map(|e| (e.at_ms, e.node.clone().unwrap_or_default()))
            .collect()
    }

    /// The 0-based index of `node-N`.
    fn index(node: &str) -> u32 {
        node.strip_prefix("node-")
            .and_then(|i| i.parse::<u32>().ok())
            .expect("node-N")
            - 1
    }

    #[test]
    fn scale_presets_have_their_sizes() {
        let size = |name: &str| {
            let s = preset(name).expect("a preset").scenario;
            let zones: std::collections::BTreeSet<_> = s.nodes.iter().map(|n| n.zone.clone()).collect();
            (s.nodes.len(), zones.len(), s.events.len())
        };
        assert_eq!(size("scale-1000-zone-b-outage"), (1000, 3, 333));
        assert_eq!(size("scale-5000-lose-10-percent"), (5000, 3, 500));
        assert_eq!(size("scale-200-partial-disruption"), (200, 1, 120));
        assert_eq!(size("all-zones-down"), (6, 3, 6));
    }

    #[test]
    fn a_zone_outage_is_tainted_at_the_primary_rate_and_alone() {
        let o = run_preset("scale-1000-zone-b-outage");
        let full = of_kind(&o, EventKind::ZoneStateChanged)
            .find(|e| e.zone.as_deref() == Some("zone-b") && e.state == Some(ZoneState::FullDisruption))
            .map(|e| e.at_ms)
            .expect("zone-b goes FullDisruption");
        assert!(of_kind(&o, EventKind::ZoneStateChanged).all(|e| e.zone.as_deref() == Some("zone-b")));
        let taints = no_execute_taints(&o);
        assert!(taints.iter().all(|(_, n)| index(n) % 3 == 1), "only zone-b is tainted");
        // One token every 10s (--node-eviction-rate 0.1) and a burst of one bound the count.
        let end = 3_600 * SECOND;
        assert!(
            taints.len() as i64 <= 1 + (end - full) / (10 * SECOND),
            "{} taints",
            taints.len()
        );
        assert!(
            taints.len() > 300,
            "most of zone-b's 333 nodes are tainted within the hour"
        );
    }

    /// In a zone outage the first pass past the grace period marks only the nodes whose grace
    /// had run out; its writes then wait for the controller's client, so the next pass, which
    /// marks the rest, comes late, and their NodeUnknown says why.
    #[test]
    fn an_unknown_mark_held_back_by_the_clients_rate_limit_says_so() {
        let o = run_preset("scale-1000-zone-b-outage");
        let unknown: Vec<_> = of_kind(&o, EventKind::NodeUnknown).collect();
        let first = unknown[0].at_ms;
        let (on_time, late): (Vec<&&crate::outcome::TimelineEvent>, Vec<_>) =
            unknown.iter().partition(|e| e.at_ms == first);
        assert!(on_time.iter().all(|e| e.cause.key == "cause.nlc.unknown"));
        assert!(!late.is_empty(), "some nodes are marked by a later pass");
        for e in late {
            let text = e.cause.english();
            assert_eq!(e.cause.key, "cause.nlc.unknown_late", "{text}");
            assert!(
                text.contains("late: the pass before this one, at t=1m44.812s"),
                "{text}"
            );
            assert!(text.contains("(--kube-api-qps 20, --kube-api-burst 30)"), "{text}");
        }
    }

    /// The controller's taint PATCHes in the same outage queue behind its status updates and
    /// MarkPodsNotReady on its client: each says when it was asked for and what held it back,
    /// and still reads as the tainting it is.
    #[test]
    fn a_write_held_back_by_the_clients_rate_limit_says_so() {
        let o = run_preset("scale-1000-zone-b-outage");
        let held: Vec<_> = of_kind(&o, EventKind::TaintAdded)
            .filter(|e| e.cause.key == "cause.client_wait")
            .collect();
        assert!(!held.is_empty(), "some taints wait for the client");
        for e in held {
            let text = e.cause.english();
            assert!(e.cause.written().key.starts_with("cause.nlc."), "{text}");
            assert!(
                text.contains(
                    "held back by the node-controller client's rate limit (--kube-api-qps 20, --kube-api-burst 30)"
                ),
                "{text}"
            );
        }
    }

    #[test]
    fn a_tenth_of_5000_nodes_keeps_every_zone_normal() {
        let o = run_preset("scale-5000-lose-10-percent");
        assert_eq!(
            of_kind(&o, EventKind::ZoneStateChanged).count(),
            0,
            "10% stays under 55%"
        );
        let taints = no_execute_taints(&o);
        assert_eq!(taints.len(), 500);
        assert!(taints.iter().all(|(_, n)| index(n) < 500), "no healthy node is tainted");
    }

    #[test]
    fn a_200_node_zone_past_the_threshold_slows_to_the_secondary_rate() {
        let o = run_preset("scale-200-partial-disruption");
        let partial = of_kind(&o, EventKind::ZoneStateChanged)
            .find(|e| e.state == Some(ZoneState::PartialDisruption))
            .expect("the zone goes PartialDisruption");
        let why = partial.cause.english();
        assert!(
            why.contains("120 of 200") && why.contains("--secondary-node-eviction-rate 0.01"),
            "{why}"
        );
        let after: Vec<i64> = no_execute_taints(&o)
            .iter()
            .map(|t| t.0)
            .filter(|&t| t > partial.at_ms)
            .collect();
        assert!(after.len() >= 10, "tainting goes on, slowly: {after:?}");
        // One token every 100s (0.01/s); a write lands a little after its token.
        assert!(after.len() as i64 <= 1 + (1800 * SECOND - partial.at_ms) / (100 * SECOND));
        for w in after.windows(2) {
            assert!(w[1] - w[0] >= 90 * SECOND, "far slower than the 10s of 0.1/s: {w:?}");
        }
        assert!(
            no_execute_taints(&o).len() < 120,
            "not every crashed node is tainted in 30 minutes"
        );
    }

    #[test]
    fn every_zone_down_evicts_no_pod() {
        let o = run_preset("all-zones-down");
        for zone in ["zone-a", "zone-b", "zone-c"] {
            assert!(
                of_kind(&o, EventKind::ZoneStateChanged)
                    .any(|e| e.zone.as_deref() == Some(zone) && e.state == Some(ZoneState::FullDisruption)),
                "{zone} goes FullDisruption"
            );
        }
        assert_eq!(
            of_kind(&o, EventKind::PodDeletionRequested).count(),
            0,
            "no pod is evicted"
        );
        // The taints added before the last zone went down are removed (master disruption).
        let added = no_execute_taints(&o).len();
        let removed = of_kind(&o, EventKind::TaintRemoved)
            .filter(|e| e.taint.as_deref().is_some_and(|t| t.ends_with(":NoExecute")))
            .count();
        assert_eq!(added, removed);
    }
}
