//! The cloud load balancers as data: one row per load balancer and `externalTrafficPolicy` where
//! they differ (the clients spec's §3), each default in ms with its upstream source beside it.
//! A Service of type `LoadBalancer` names a kind; its row says how the load balancer probes its
//! targets, when it calls one unhealthy, whether it resets the flows still going there, and who
//! takes a target out. No other code knows a load balancer's default, and
//! docs/scenario-format.md's table is checked against this one.

use super::cloud::Provider;
use crate::time::{Millis, SECOND};
use serde::{Deserialize, Serialize};

/// A load balancer in front of a Service of type `LoadBalancer`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum LbKind {
    /// An NLB of the AWS Load Balancer Controller with instance targets (its default).
    AwsNlbInstance,
    /// An NLB of the AWS Load Balancer Controller with ip targets (the pods).
    AwsNlbIp,
    /// An ALB of the AWS Load Balancer Controller (instance targets): a proxy.
    AwsAlb,
    /// An NLB of cloud-provider-aws (`service.beta.kubernetes.io/aws-load-balancer-type: nlb`).
    AwsNlbInTree,
    /// A Classic ELB of cloud-provider-aws: what it makes unless annotated.
    AwsClbInTree,
    /// A GCP L4 passthrough load balancer (ingress-gce's L4 controller, the GCE provider).
    GcpL4,
    /// An Azure Standard Load Balancer of cloud-provider-azure.
    Azure,
}

impl LbKind {
    /// The kinds by their JSON names, in the documents' order.
    pub const ALL: [(&'static str, LbKind); 7] = [
        ("aws-nlb-instance", LbKind::AwsNlbInstance),
        ("aws-nlb-ip", LbKind::AwsNlbIp),
        ("aws-alb", LbKind::AwsAlb),
        ("aws-nlb-in-tree", LbKind::AwsNlbInTree),
        ("aws-clb-in-tree", LbKind::AwsClbInTree),
        ("gcp-l4", LbKind::GcpL4),
        ("azure", LbKind::Azure),
    ];

    /// Its JSON name.
    pub fn name(self) -> &'static str {
        Self::ALL.iter().find(|k| k.1 == self).map_or("", |k| k.0)
    }

    /// The kind a JSON name names.
    pub fn by_name(name: &str) -> Option<LbKind> {
        Self::ALL.iter().find(|k| k.0 == name).map(|k| k.1)
    }

    /// The cloud it runs in.
    pub fn provider(self) -> Provider {
        match self {
            LbKind::GcpL4 => Provider::Gcp,
            LbKind::Azure => Provider::Azure,
            _ => Provider::Aws,
        }
    }

    /// What a provider's cloud-controller-manager makes for a Service of type `LoadBalancer`
    /// with no annotation: cloud-provider-aws a Classic ELB (`EnsureLoadBalancer` builds an NLB
    /// only for `aws-load-balancer-type: nlb`), GCP an L4 passthrough load balancer (its health
    /// checks as GKE's ingress-gce L4 controller writes them, `gceSharedHc*` and `gceLocalHc*`;
    /// the legacy GCE provider probes `Local` Services every 8 s, 3 times, as it does
    /// `Cluster`), Azure its Standard Load Balancer.
    pub fn default_for(p: Provider) -> LbKind {
        match p {
            Provider::Aws => LbKind::AwsClbInTree,
            Provider::Gcp => LbKind::GcpL4,
            Provider::Azure => LbKind::Azure,
        }
    }

    /// The kinds' names, for a message: `aws-nlb-instance, aws-nlb-ip, …`.
    pub fn names() -> String {
        Self::ALL.iter().map(|k| k.0).collect::<Vec<_>>().join(", ")
    }
}

/// A Service's `externalTrafficPolicy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Policy {
    /// Every node forwards to any endpoint (kube-proxy DNATs again): the default.
    Cluster,
    /// A node forwards only to its own endpoints; the load balancer probes healthCheckNodePort.
    Local,
}

/// What a health check probes on a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Probe {
    /// The traffic port (the NodePort of an instance target, the pod's port of an ip target).
    TrafficPort,
    /// kube-proxy's health server: HTTP `:10256/healthz`.
    ProxyHealthz,
    /// The Service's `healthCheckNodePort`: 200 while the node has a ready local endpoint.
    HealthCheckNodePort,
}

/// What the load balancer registers as a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Target {
    /// The nodes (their NodePort).
    Instance,
    /// The pods' IPs.
    Ip,
}

/// Who takes a target out of the load balancer, and on what.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Deregistration {
    /// The AWS Load Balancer Controller: it reconciles when a pod's endpoint turns NotReady (ip
    /// targets) or a node turns Ready=Unknown (instance targets), and keeps the target when no
    /// other is left (fail-open, `EndpointsFailOpen` on by default).
    Controller,
    /// The service controller of the cloud-controller-manager: with `StableLoadBalancerNodeSet`
    /// Ready is no predicate, so a dead node stays until its Node is deleted; before it, a
    /// change of the Ready condition triggers a node sync that drops it.
    ServiceController,
}

/// One load balancer's numbers, ms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LbProfile {
    /// The load balancer.
    pub kind: LbKind,
    /// The policy the row is for; `None`: both.
    pub policy: Option<Policy>,
    /// What a probe asks.
    pub probe: Probe,
    /// Time between probes.
    pub interval: Millis,
    /// How long a probe waits for its answer.
    pub timeout: Millis,
    /// Successful probes that make a target healthy.
    pub healthy: u32,
    /// Failed probes that make a target unhealthy.
    pub unhealthy: u32,
    /// What it registers.
    pub target: Target,
    /// Whether it resets the flows still going to a target once that target is unhealthy (AWS
    /// NLB: `target_health_state.unhealthy.connection_termination.enabled`, default true).
    pub reset_on_unhealthy: bool,
    /// Whether it sends to every registered target once none is healthy: the AWS NLB ("If all
    /// targets fail health checks at the same time in all enabled Availability Zones, the load
    /// balancer fails open") and ALB ("If a target group contains only unhealthy registered
    /// targets, the load balancer routes requests to all those targets"). Azure's probes stop
    /// new flows to every unhealthy instance ("All probes down, all TCP flows continue": the
    /// established ones); the Classic ELB and GCP document no such rule.
    pub fails_open: bool,
    /// Who deregisters a target.
    pub deregistration: Deregistration,
    /// How long a deregistered target's flows drain (0: none).
    pub deregistration_delay: Millis,
}

/// An AWS target group's `deregistration_delay.timeout_seconds` when nothing sets it
/// (AWS `DeregisterTargets`; neither controller sets it), 5m0s.
pub const AWS_DEREGISTRATION_DELAY: Millis = 300 * SECOND;
/// An ALB's connect timeout to a target: it answers 504 when "the load balancer failed to
/// establish a connection to the target before the connection timeout expired (10 seconds)".
pub const ALB_CONNECT_TIMEOUT: Millis = 10 * SECOND;
/// An ALB's idle timeout (`idle_timeout.timeout_seconds`, default 60 s): a request in flight to
/// a target that stopped answering gets a 504 after it.
pub const ALB_IDLE_TIMEOUT: Millis = 60 * SECOND;
/// The AWS Load Balancer Controller's reconcile of a TargetGroupBinding after the change it
/// watches, until the target is deregistered (AWS API propagation is unspecified: [U] in the
/// spec, a parameter here), 1s.
pub const CONTROLLER_RECONCILE: Millis = SECOND;
/// The first minor with `StableLoadBalancerNodeSet` on (beta on by default in 1.27, GA in 1.30).
pub const STABLE_NODE_SET_MINOR: u32 = 27;

/// The load balancers, one row per kind and policy where they differ.
pub const PROFILES: [LbProfile; 12] = [
    // aws-load-balancer-controller pkg/service/model_builder.go: defaultHealthCheckInterval 10,
    // Timeout 10, Healthy/UnhealthyThreshold 3, port traffic-port, protocol TCP.
    lbc(
        LbKind::AwsNlbInstance,
        Some(Policy::Cluster),
        Probe::TrafficPort,
        (10, 10, 3, 3),
        Target::Instance,
    ),
    // Same file, instance targets with Local: HTTP healthCheckNodePort, 10/6/2/2.
    lbc(
        LbKind::AwsNlbInstance,
        Some(Policy::Local),
        Probe::HealthCheckNodePort,
        (10, 6, 2, 2),
        Target::Instance,
    ),
    // ip targets: the defaults above, the pods' port.
    lbc(LbKind::AwsNlbIp, None, Probe::TrafficPort, (10, 10, 3, 3), Target::Ip),
    // pkg/ingress/model_builder.go: HTTP `/` on traffic-port, 15/5/2/2.
    LbProfile {
        reset_on_unhealthy: false,
        ..lbc(
            LbKind::AwsAlb,
            None,
            Probe::TrafficPort,
            (15, 5, 2, 2),
            Target::Instance,
        )
    },
    // cloud-provider-aws aws_loadbalancer.go: defaultNlbHealthCheckInterval 30, Timeout 10,
    // Threshold 3, traffic-port (buildNLBHealthCheckConfiguration).
    ccm(
        LbKind::AwsNlbInTree,
        Some(Policy::Cluster),
        Probe::TrafficPort,
        (30, 10, 3, 3),
        true,
    ),
    // Same function for Local: HTTP healthCheckNodePort, 10/10/2/2.
    ccm(
        LbKind::AwsNlbInTree,
        Some(Policy::Local),
        Probe::HealthCheckNodePort,
        (10, 10, 2, 2),
        true,
    ),
    // aws_loadbalancer.go defaultElbHC*: TCP:NodePort, interval 10, timeout 5, 2 / 6; no
    // connection draining unless annotated.
    ccm(
        LbKind::AwsClbInTree,
        Some(Policy::Cluster),
        Probe::TrafficPort,
        (10, 5, 2, 6),
        false,
    ),
    // aws.go EnsureLoadBalancer: HTTP on healthCheckNodePort's path, the same numbers.
    ccm(
        LbKind::AwsClbInTree,
        Some(Policy::Local),
        Probe::HealthCheckNodePort,
        (10, 5, 2, 6),
        false,
    ),
    // ingress-gce L4 healthchecks: gceSharedHcCheckIntervalSeconds 8, timeout 1, healthy 1,
    // gceSharedHcUnhealthyThreshold 3, kube-proxy's :10256/healthz.
    ccm(
        LbKind::GcpL4,
        Some(Policy::Cluster),
        Probe::ProxyHealthz,
        (8, 1, 1, 3),
        false,
    ),
    // gceLocalHcCheckIntervalSeconds 3, timeout 1, healthy 1, gceLocalHcUnhealthyThreshold 2.
    ccm(
        LbKind::GcpL4,
        Some(Policy::Local),
        Probe::HealthCheckNodePort,
        (3, 1, 1, 2),
        false,
    ),
    // cloud-provider-azure pkg/consts: HealthProbeDefaultProbeInterval 5,
    // HealthProbeDefaultNumOfProbe 2; a probe has no timeout of its own, so one fails by the
    // next (5 s).
    ccm(
        LbKind::Azure,
        Some(Policy::Cluster),
        Probe::TrafficPort,
        (5, 5, 1, 2),
        false,
    ),
    // Local: HTTP healthCheckNodePort, the same numbers.
    ccm(
        LbKind::Azure,
        Some(Policy::Local),
        Probe::HealthCheckNodePort,
        (5, 5, 1, 2),
        false,
    ),
];

/// A row of the AWS Load Balancer Controller, seconds: (interval, timeout, healthy, unhealthy).
const fn lbc(kind: LbKind, policy: Option<Policy>, probe: Probe, n: (i64, i64, u32, u32), target: Target) -> LbProfile {
    LbProfile {
        kind,
        policy,
        probe,
        interval: n.0 * SECOND,
        timeout: n.1 * SECOND,
        healthy: n.2,
        unhealthy: n.3,
        target,
        reset_on_unhealthy: true,
        fails_open: true,
        deregistration: Deregistration::Controller,
        deregistration_delay: AWS_DEREGISTRATION_DELAY,
    }
}

/// A row of a cloud-controller-manager's load balancer (instance targets), seconds.
const fn ccm(kind: LbKind, policy: Option<Policy>, probe: Probe, n: (i64, i64, u32, u32), nlb: bool) -> LbProfile {
    LbProfile {
        kind,
        policy,
        probe,
        interval: n.0 * SECOND,
        timeout: n.1 * SECOND,
        healthy: n.2,
        unhealthy: n.3,
        target: Target::Instance,
        reset_on_unhealthy: nlb,
        fails_open: nlb,
        deregistration: Deregistration::ServiceController,
        deregistration_delay: if nlb { AWS_DEREGISTRATION_DELAY } else { 0 },
    }
}

/// A Service's load balancer as the engine runs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoadBalancerSpec {
    /// The load balancer.
    pub kind: LbKind,
    /// `externalTrafficPolicy`.
    pub policy: Policy,
}

impl LoadBalancerSpec {
    /// Its row of [`PROFILES`].
    pub fn profile(self) -> &'static LbProfile {
        PROFILES
            .iter()
            .find(|p| p.kind == self.kind && p.policy.is_none_or(|q| q == self.policy))
            .expect("every kind has a row for each policy")
    }
}

impl LbProfile {
    /// When a target whose probes fail from `down` on is unhealthy, with the first probe after
    /// it `phase` into an interval: that probe times out, and so do the next `unhealthy − 1`.
    pub fn unhealthy_at(&self, down: Millis, phase: Millis) -> Millis {
        down + phase + (i64::from(self.unhealthy) - 1) * self.interval + self.timeout
    }

    /// When a target that answers again from `up` is healthy, its probes coming every interval
    /// from `first_probe`: the first probe at or after `up` passes, and so do the next
    /// `healthy − 1`.
    pub fn healthy_at(&self, up: Millis, first_probe: Millis) -> Millis {
        let waits = (up - first_probe).max(0);
        let k = (waits + self.interval - 1) / self.interval;
        first_probe + (k + i64::from(self.healthy) - 1) * self.interval
    }
}

/// kube-proxy's `/healthz` on :10256 (`pkg/proxy/healthcheck/proxy_health.go`): 503 when an
/// update has been queued longer than `2 × syncPeriod` (`queued_for`, ms), or the Node is
/// deleted or tainted `ToBeDeletedByClusterAutoscaler`; 200 otherwise, other taints included.
pub fn proxy_healthz(queued_for: Option<Millis>, sync_period: Millis, node_deleted: bool, to_be_deleted: bool) -> u16 {
    let stale = queued_for.is_some_and(|q| q > 2 * sync_period);
    if stale || node_deleted || to_be_deleted {
        503
    } else {
        200
    }
}

/// A Node as the service controller's predicates see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LbNode {
    /// Its Ready condition is True.
    pub ready: bool,
    /// It carries `node.kubernetes.io/exclude-from-external-load-balancers`.
    pub excluded: bool,
    /// It carries the `ToBeDeletedByClusterAutoscaler` taint.
    pub to_be_deleted: bool,
}

/// Whether the service controller of `minor` keeps `n` in the load balancers' node set
/// (`controllers/service/controller.go`): with `StableLoadBalancerNodeSet` only
/// `nodeIncluded` and `nodeUnTainted`; before it Ready is a predicate too.
pub fn in_node_set(minor: u32, n: LbNode) -> bool {
    let stable = !n.excluded && !n.to_be_deleted;
    stable && (minor >= STABLE_NODE_SET_MINOR || n.ready)
}

/// Whether a Node's Ready change alone triggers the service controller's node sync: before
/// `StableLoadBalancerNodeSet` (`shouldSyncNode` compares the Ready status), not after
/// (`shouldSyncUpdatedNode` looks at the exclusion label and the providerID only).
pub fn ready_change_syncs(minor: u32) -> bool {
    minor < STABLE_NODE_SET_MINOR
}

/// An endpoint as the AWS Load Balancer Controller's resolver sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LbEndpoint {
    /// `conditions.ready` is nil or true.
    pub ready: bool,
    /// Its pod's `ContainersReady` is True.
    pub containers_ready: bool,
    /// Its node's Ready is Unknown.
    pub node_unknown: bool,
}

/// The ip targets the controller registers (`pkg/backend/endpoint_resolver.go`): the ready
/// endpoints; when none is ready and `fail_open` (`EndpointsFailOpen`, on by default), the
/// not-ready ones whose containers are still ready on an Unknown node.
pub fn pod_targets(endpoints: &[LbEndpoint], fail_open: bool) -> Vec<usize> {
    let ready: Vec<usize> = (0..endpoints.len()).filter(|&i| endpoints[i].ready).collect();
    if !ready.is_empty() || !fail_open {
        return ready;
    }
    (0..endpoints.len())
        .filter(|&i| endpoints[i].containers_ready && endpoints[i].node_unknown)
        .collect()
}

/// The instance targets the controller registers: the nodes whose Ready is True (`Some(true)`);
/// when none is and `fail_open`, those whose Ready is Unknown (`None`).
pub fn node_targets(nodes: &[Option<bool>], fail_open: bool) -> Vec<usize> {
    let ready: Vec<usize> = (0..nodes.len()).filter(|&i| nodes[i] == Some(true)).collect();
    if !ready.is_empty() || !fail_open {
        return ready;
    }
    (0..nodes.len()).filter(|&i| nodes[i].is_none()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::format_go_duration;

    /// Per row of [`PROFILES`], where its defaults are read from: what only the documentation
    /// shows.
    const SOURCES: [&str; 12] = [
        "aws-load-balancer-controller pkg/service/model_builder.go",
        "aws-load-balancer-controller pkg/service/model_builder.go (Local)",
        "aws-load-balancer-controller pkg/service/model_builder.go",
        "aws-load-balancer-controller pkg/ingress/model_builder.go",
        "cloud-provider-aws aws_loadbalancer.go buildNLBHealthCheckConfiguration",
        "cloud-provider-aws aws_loadbalancer.go buildNLBHealthCheckConfiguration (Local)",
        "cloud-provider-aws aws_loadbalancer.go defaultElbHC*",
        "cloud-provider-aws aws.go EnsureLoadBalancer (healthCheckNodePort)",
        "ingress-gce L4 healthchecks gceSharedHc*",
        "ingress-gce L4 healthchecks gceLocalHc*",
        "cloud-provider-azure pkg/consts HealthProbeDefault*",
        "cloud-provider-azure pkg/consts HealthProbeDefault*",
    ];

    /// The row docs/scenario-format.md shows for row `i`.
    fn doc_row(i: usize) -> String {
        let p = &PROFILES[i];
        let policy = match p.policy {
            None => "both",
            Some(Policy::Cluster) => "Cluster",
            Some(Policy::Local) => "Local",
        };
        let probe = match p.probe {
            Probe::TrafficPort => "traffic port",
            Probe::ProxyHealthz => "kube-proxy `:10256/healthz`",
            Probe::HealthCheckNodePort => "healthCheckNodePort",
        };
        let target = match p.target {
            Target::Instance => "instance (node)",
            Target::Ip => "ip (pod)",
        };
        let by = match p.deregistration {
            Deregistration::Controller => "AWS Load Balancer Controller",
            Deregistration::ServiceController => "service controller",
        };
        let delay = match p.deregistration_delay {
            0 => "none".to_string(),
            d => format_go_duration(d),
        };
        format!(
            "| `{}` | {policy} | {probe} | {} | {} | {} / {} | {target} | {} | {by} | {delay} | {} |",
            p.kind.name(),
            format_go_duration(p.interval),
            format_go_duration(p.timeout),
            p.healthy,
            p.unhealthy,
            if p.reset_on_unhealthy { "yes" } else { "no" },
            SOURCES[i],
        )
    }

    /// docs/scenario-format.md's load balancer table is this one.
    #[test]
    fn the_documented_table_is_this_one() {
        let doc = include_str!("../../../../docs/scenario-format.md");
        for i in 0..PROFILES.len() {
            let row = doc_row(i);
            assert!(doc.contains(&row), "docs/scenario-format.md lacks the row\n{row}");
        }
    }

    #[test]
    fn every_kind_and_policy_has_one_row() {
        for (_, kind) in LbKind::ALL {
            for policy in [Policy::Cluster, Policy::Local] {
                let rows = PROFILES
                    .iter()
                    .filter(|p| p.kind == kind && p.policy.is_none_or(|q| q == policy))
                    .count();
                assert_eq!(rows, 1, "{kind:?} {policy:?}");
            }
            assert_eq!(LbKind::by_name(kind.name()), Some(kind));
        }
    }
}
