//! The rules: defaults of the chosen version applied to a [`Scenario`], every value checked.
//!
//! [`Scenario::resolve`] gives a [`Config`] or the first [`ScenarioError`], which names the field
//! and the reason in upstream's words where upstream has them (feature-gate and removed-flag
//! errors). Each section of the format has its own function here.

use super::config::{
    ActionSpec, ApiServerConfig, Config, ControllerManagerConfig, KubeProxyConfig, KubeletConfig, NodeSpec, ProxyMode,
    SimulationConfig, WorkloadSpec,
};
use super::format::{
    bad, ActionKind, ActionSection, GoDuration, Scenario, ScenarioError, TolerationSection, WorkloadKind,
    MAX_DURATION_SECONDS, MAX_HEARTBEAT_TICKS, MAX_NODES, MAX_PODS,
};
use super::workload_extras::{resolve_pdb, resolve_volume};
use crate::api::{Effect, Toleration, TolerationSource};
use crate::cause::Cause;
use crate::time::{format_go_duration, Millis, HOUR, SECOND};
use crate::version::{Gate, GateStage, Profile, Version};
use std::collections::BTreeMap;

impl Scenario {
    /// Applies the version's defaults and checks every value.
    pub fn resolve(&self) -> Result<Config, ScenarioError> {
        let version = match &self.version {
            Some(v) => Version::parse(v).map_err(|e| bad("version", e))?,
            None => Version::default(),
        };
        let profile = Profile::of(version);
        let duration_seconds = self.duration_seconds.unwrap_or(900);
        if duration_seconds <= 0 || duration_seconds > MAX_DURATION_SECONDS {
            return Err(bad(
                "durationSeconds",
                format!("must be between 1 and {MAX_DURATION_SECONDS} (6h), got {duration_seconds}"),
            ));
        }
        let duration = duration_seconds * SECOND;
        let mut warnings = Vec::new();
        let gates = resolve_feature_gates(&self.feature_gates, version, &mut warnings)?;
        let mut kubelet = self.resolve_kubelet(&profile, gates.node_lease, &mut warnings)?;
        self.resolve_shutdown(&profile, gates.graceful_shutdown, &mut kubelet, &mut warnings)?;
        let controller_manager = self.resolve_controller_manager(&profile, &gates, &mut warnings)?;
        let api_server = self.resolve_api_server(version)?;
        let kube_proxy = self.resolve_kube_proxy(&profile, &mut warnings)?;
        let simulation = self.resolve_simulation()?;
        let (mut nodes, names) = self.resolve_nodes()?;
        let mut workloads = self.resolve_workloads(nodes.len() as u32, &profile)?;
        let ctx = ActionContext {
            duration,
            names: &names,
            workloads: &workloads,
            version,
            out_of_service: gates.out_of_service,
        };
        let actions = self.resolve_actions(&ctx, &mut nodes, &mut warnings)?;
        // DaemonSets size to the nodes present at the start.
        let initial_nodes = nodes.iter().filter(|n| n.join_at.is_none()).count() as u32;
        for w in workloads.iter_mut().filter(|w| w.kind == WorkloadKind::DaemonSet) {
            w.replicas = initial_nodes;
        }
        check_heartbeat_ticks(nodes.len(), duration, &kubelet)?;
        Ok(Config {
            profile,
            seed: self.seed.unwrap_or(1),
            duration,
            kubelet,
            controller_manager,
            api_server,
            kube_proxy,
            simulation,
            nodes,
            workloads,
            actions,
            out_of_service_volume_detach: gates.out_of_service,
            warnings,
        })
    }

    fn resolve_kubelet(
        &self,
        p: &Profile,
        node_lease: bool,
        warnings: &mut Vec<Cause>,
    ) -> Result<KubeletConfig, ScenarioError> {
        let version = p.version;
        let d = KubeletConfig::defaults(version);
        let k = &self.kubelet;
        if k.node_status_report_frequency.is_some() && !p.has_report_frequency {
            return Err(bad(
                "kubelet.nodeStatusReportFrequency",
                format!("KubeletConfiguration has no nodeStatusReportFrequency before 1.13 (this is {version}): every status tick patches"),
            ));
        }
        if k.node_status_report_frequency.is_some() && !node_lease {
            warnings.push(Cause::new("warn.report_without_lease").text("version", version));
        }
        let update = positive(
            k.node_status_update_frequency,
            d.node_status_update_frequency,
            "kubelet.nodeStatusUpdateFrequency",
        )?;
        // KubeletConfiguration defaulting: when the file sets nodeStatusUpdateFrequency but not
        // nodeStatusReportFrequency, the report frequency takes the update frequency
        // (SetDefaults_KubeletConfiguration).
        let report_default = if k.node_status_update_frequency.is_some() {
            update
        } else {
            d.node_status_report_frequency
        };
        let report = positive(
            k.node_status_report_frequency,
            report_default,
            "kubelet.nodeStatusReportFrequency",
        )?;
        let lease_seconds = k.node_lease_duration_seconds.unwrap_or(d.node_lease_duration_seconds);
        if lease_seconds <= 0 || lease_seconds > 3600 {
            return Err(bad(
                "kubelet.nodeLeaseDurationSeconds",
                format!("must be between 1 and 3600, got {lease_seconds}"),
            ));
        }
        Ok(KubeletConfig {
            node_status_update_frequency: update,
            node_status_report_frequency: report,
            node_lease_duration_seconds: lease_seconds,
            node_lease,
            lease_renew_interval: p.lease_renew_interval(lease_seconds).max(1),
            ..d
        })
    }

    /// `shutdownGracePeriod` and `shutdownGracePeriodCriticalPods`, with the kubelet's own checks
    /// (`ValidateKubeletConfiguration`) and `TestFeatureEnabled`: the feature works with the
    /// `GracefulNodeShutdown` gate on and a grace period over 0.
    fn resolve_shutdown(
        &self,
        p: &Profile,
        gate: bool,
        kubelet: &mut KubeletConfig,
        warnings: &mut Vec<Cause>,
    ) -> Result<(), ScenarioError> {
        let k = &self.kubelet;
        let version = p.version;
        for (set, field) in [
            (k.shutdown_grace_period.is_some(), "kubelet.shutdownGracePeriod"),
            (
                k.shutdown_grace_period_critical_pods.is_some(),
                "kubelet.shutdownGracePeriodCriticalPods",
            ),
        ] {
            if set && !p.has_graceful_shutdown {
                return Err(bad(
                    field,
                    format!("KubeletConfiguration has no graceful node shutdown before 1.20 (this is {version})"),
                ));
            }
        }
        let total = non_negative(k.shutdown_grace_period, 0, "kubelet.shutdownGracePeriod", HOUR)?;
        let critical = non_negative(
            k.shutdown_grace_period_critical_pods,
            0,
            "kubelet.shutdownGracePeriodCriticalPods",
            HOUR,
        )?;
        if critical > total {
            return Err(bad(
                "kubelet.shutdownGracePeriodCriticalPods",
                format!(
                    "invalid configuration: shutdownGracePeriodCriticalPods ({}) must be <= shutdownGracePeriod ({})",
                    format_go_duration(critical),
                    format_go_duration(total)
                ),
            ));
        }
        if total > 0 && !gate {
            warnings.push(Cause::new("warn.shutdown_gate_off").text("version", version));
        }
        kubelet.shutdown_grace_period = total;
        kubelet.shutdown_grace_period_critical_pods = critical;
        kubelet.graceful_shutdown = gate && total > 0;
        Ok(())
    }

    /// kube-proxy's mode and sync periods.
    fn resolve_kube_proxy(&self, p: &Profile, warnings: &mut Vec<Cause>) -> Result<KubeProxyConfig, ScenarioError> {
        let version = p.version;
        let d = KubeProxyConfig::defaults(version);
        let k = &self.kube_proxy;
        let mode = match k.mode.as_deref() {
            None | Some("iptables") => ProxyMode::Iptables,
            Some("ipvs") => {
                if p.ipvs_deprecated {
                    warnings.push(Cause::new("warn.ipvs_deprecated").text("version", version));
                }
                ProxyMode::Ipvs
            }
            Some("nftables") if p.has_nftables => ProxyMode::Nftables,
            Some("nftables") => {
                return Err(bad(
                    "kubeProxy.mode",
                    format!("kube-proxy has no nftables mode before 1.29 (this is {version})"),
                ))
            }
            Some(other) => {
                return Err(bad(
                    "kubeProxy.mode",
                    format!("{other:?} is not a proxy mode; use \"iptables\", \"ipvs\" or \"nftables\""),
                ))
            }
        };
        Ok(KubeProxyConfig {
            mode,
            min_sync_period: non_negative(k.min_sync_period, d.min_sync_period, "kubeProxy.minSyncPeriod", HOUR)?,
            sync_period: positive(k.sync_period, d.sync_period, "kubeProxy.syncPeriod")?,
        })
    }

    fn resolve_controller_manager(
        &self,
        p: &Profile,
        gates: &Gates,
        warnings: &mut Vec<Cause>,
    ) -> Result<ControllerManagerConfig, ScenarioError> {
        let version = p.version;
        let d = ControllerManagerConfig::defaults(version);
        let c = &self.controller_manager;
        if !p.has_legacy_eviction_flags {
            for (set, flag, field) in [
                (
                    c.pod_eviction_timeout.is_some(),
                    "--pod-eviction-timeout",
                    "controllerManager.podEvictionTimeout",
                ),
                (
                    c.enable_taint_manager.is_some(),
                    "--enable-taint-manager",
                    "controllerManager.enableTaintManager",
                ),
            ] {
                if set {
                    return Err(bad(
                        field,
                        format!("{flag} was removed in Kubernetes 1.27; kube-controller-manager {version} refuses to start with it (unknown flag). Tune apiServer.defaultUnreachableTolerationSeconds or pod tolerationSeconds instead"),
                    ));
                }
            }
        }
        let enable_taint_manager = c.enable_taint_manager.unwrap_or(true);
        if c.enable_taint_manager.is_some() && version.minor >= 25 {
            warnings.push(Cause::new("warn.taint_manager_deprecated").text("version", version));
        }
        let taint_based_evictions = gates.taint_based_evictions && enable_taint_manager;
        if c.pod_eviction_timeout.is_some() && taint_based_evictions {
            warnings.push(Cause::new("warn.pod_eviction_timeout_ignored").text("version", version));
        }
        let pod_eviction_timeout = c.pod_eviction_timeout.map_or(d.pod_eviction_timeout, |g| g.0);
        if !(0..=24 * HOUR).contains(&pod_eviction_timeout) {
            return Err(bad(
                "controllerManager.podEvictionTimeout",
                format!(
                    "must be between 0s and 24h0m0s, got {}",
                    format_go_duration(pod_eviction_timeout)
                ),
            ));
        }
        if !gates.taint_based_evictions && enable_taint_manager && version.minor >= 13 {
            warnings.push(Cause::new("warn.tbe_off").text("version", version));
        }
        let threshold = c.unhealthy_zone_threshold.unwrap_or(d.unhealthy_zone_threshold);
        if !threshold.is_finite() || !(0.0..=1.0).contains(&threshold) {
            return Err(bad(
                "controllerManager.unhealthyZoneThreshold",
                format!("must be a fraction between 0 and 1, got {threshold}"),
            ));
        }
        Ok(ControllerManagerConfig {
            node_monitor_period: positive(
                c.node_monitor_period,
                d.node_monitor_period,
                "controllerManager.nodeMonitorPeriod",
            )?,
            node_monitor_grace_period: positive(
                c.node_monitor_grace_period,
                d.node_monitor_grace_period,
                "controllerManager.nodeMonitorGracePeriod",
            )?,
            node_startup_grace_period: positive(
                c.node_startup_grace_period,
                d.node_startup_grace_period,
                "controllerManager.nodeStartupGracePeriod",
            )?,
            node_eviction_rate: rate(
                c.node_eviction_rate,
                d.node_eviction_rate,
                "controllerManager.nodeEvictionRate",
            )?,
            secondary_node_eviction_rate: rate(
                c.secondary_node_eviction_rate,
                d.secondary_node_eviction_rate,
                "controllerManager.secondaryNodeEvictionRate",
            )?,
            large_cluster_size_threshold: c.large_cluster_size_threshold.unwrap_or(d.large_cluster_size_threshold),
            unhealthy_zone_threshold: threshold,
            pod_eviction_timeout,
            enable_taint_manager,
            taint_based_evictions,
            kube_api_qps: qps(c.kube_api_qps, d.kube_api_qps)?,
            kube_api_burst: burst(c.kube_api_burst, d.kube_api_burst)?,
            disable_force_detach_on_timeout: match c.disable_force_detach_on_timeout {
                Some(_) if !p.has_disable_force_detach => {
                    return Err(bad(
                        "controllerManager.disableForceDetachOnTimeout",
                        format!("--disable-force-detach-on-timeout arrived in Kubernetes 1.30; kube-controller-manager {version} refuses to start with it (unknown flag)"),
                    ))
                }
                v => v.unwrap_or(d.disable_force_detach_on_timeout),
            },
            lease_circuit_breaker: gates.lease_circuit_breaker,
        })
    }

    fn resolve_api_server(&self, version: Version) -> Result<ApiServerConfig, ScenarioError> {
        let d = ApiServerConfig::defaults(version);
        let a = &self.api_server;
        let tol = |v: Option<i64>, d: i64, f: &str| -> Result<i64, ScenarioError> {
            let v = v.unwrap_or(d);
            if !(0..=10_000_000).contains(&v) {
                return Err(bad(f, format!("must be between 0 and 10000000 seconds, got {v}")));
            }
            Ok(v)
        };
        Ok(ApiServerConfig {
            default_not_ready_toleration_seconds: tol(
                a.default_not_ready_toleration_seconds,
                d.default_not_ready_toleration_seconds,
                "apiServer.defaultNotReadyTolerationSeconds",
            )?,
            default_unreachable_toleration_seconds: tol(
                a.default_unreachable_toleration_seconds,
                d.default_unreachable_toleration_seconds,
                "apiServer.defaultUnreachableTolerationSeconds",
            )?,
        })
    }

    fn resolve_simulation(&self) -> Result<SimulationConfig, ScenarioError> {
        let s = &self.simulation;
        Ok(SimulationConfig {
            watch_latency: non_negative(s.watch_latency, 10, "simulation.watchLatency", 10 * SECOND)?,
            api_latency: non_negative(s.api_latency, 5, "simulation.apiLatency", 10 * SECOND)?,
            pod_startup: non_negative(s.pod_startup, 5 * SECOND, "simulation.podStartup", HOUR)?,
            monitor_pass_duration: non_negative(
                s.monitor_pass_duration,
                1 + self.nodes.len() as Millis / 100,
                "simulation.monitorPassDuration",
                10 * SECOND,
            )?,
            attach_duration: non_negative(s.attach_duration, 10 * SECOND, "simulation.attachDuration", HOUR)?,
            detach_duration: non_negative(s.detach_duration, 5 * SECOND, "simulation.detachDuration", HOUR)?,
            mount_duration: non_negative(s.mount_duration, 2 * SECOND, "simulation.mountDuration", HOUR)?,
            proxy_sync_duration: non_negative(s.proxy_sync_duration, 100, "simulation.proxySyncDuration", MINUTE_MS)?,
            volumes_in_use_cleared_on_shutdown: s.volumes_in_use_cleared_on_shutdown.unwrap_or(false),
        })
    }

    /// The nodes, and each one's index by name.
    fn resolve_nodes(&self) -> Result<(Vec<NodeSpec>, BTreeMap<String, usize>), ScenarioError> {
        if self.nodes.is_empty() {
            return Err(bad("nodes", "a scenario needs at least one node"));
        }
        if self.nodes.len() > MAX_NODES {
            return Err(bad(
                "nodes",
                format!("at most {MAX_NODES} nodes are supported, got {}", self.nodes.len()),
            ));
        }
        let mut nodes = Vec::with_capacity(self.nodes.len());
        let mut names = BTreeMap::new();
        for (i, n) in self.nodes.iter().enumerate() {
            let field = format!("nodes[{i}]");
            check_name(&n.name, &format!("{field}.name"))?;
            if let Some(prev) = names.insert(n.name.clone(), i) {
                return Err(bad(
                    format!("{field}.name"),
                    format!("{:?} is already the name of nodes[{prev}]", n.name),
                ));
            }
            let max_pods = n.max_pods.unwrap_or(110);
            if max_pods == 0 || max_pods > 10_000 {
                return Err(bad(
                    format!("{field}.maxPods"),
                    format!("must be between 1 and 10000, got {max_pods}"),
                ));
            }
            nodes.push(NodeSpec {
                name: n.name.clone(),
                zone: n.zone.clone().unwrap_or_default(),
                labels: n.labels.clone(),
                max_pods,
                join_at: None,
            });
        }
        Ok((nodes, names))
    }

    fn resolve_workloads(&self, node_count: u32, p: &Profile) -> Result<Vec<WorkloadSpec>, ScenarioError> {
        let mut workloads = Vec::with_capacity(self.workloads.len());
        let mut wnames = BTreeMap::new();
        let mut total_pods: u64 = 0;
        for (i, w) in self.workloads.iter().enumerate() {
            let field = format!("workloads[{i}]");
            check_name(&w.name, &format!("{field}.name"))?;
            if let Some(prev) = wnames.insert(w.name.clone(), i) {
                return Err(bad(
                    format!("{field}.name"),
                    format!("{:?} is already the name of workloads[{prev}]", w.name),
                ));
            }
            let replicas = match (w.kind, w.replicas) {
                (WorkloadKind::DaemonSet, Some(_)) => {
                    return Err(bad(
                        format!("{field}.replicas"),
                        "a DaemonSet runs one pod per node and takes no replicas",
                    ))
                }
                (WorkloadKind::Pod, Some(r)) if r != 1 => {
                    return Err(bad(
                        format!("{field}.replicas"),
                        "a bare Pod is exactly one pod; remove replicas or use a Deployment",
                    ))
                }
                (WorkloadKind::DaemonSet, None) => node_count,
                (WorkloadKind::Pod, _) => 1,
                (_, r) => r.unwrap_or(1),
            };
            total_pods += u64::from(replicas);
            let grace = w.termination_grace_period_seconds.unwrap_or(30);
            if !(0..=86_400).contains(&grace) {
                return Err(bad(
                    format!("{field}.terminationGracePeriodSeconds"),
                    format!("must be between 0 and 86400, got {grace}"),
                ));
            }
            let mut tolerations = Vec::with_capacity(w.tolerations.len());
            for (j, t) in w.tolerations.iter().enumerate() {
                tolerations.push(resolve_toleration(t, &format!("{field}.tolerations[{j}]"))?);
            }
            workloads.push(WorkloadSpec {
                kind: w.kind,
                name: w.name.clone(),
                replicas,
                termination_grace_period_seconds: grace,
                tolerations,
                service: w.service.unwrap_or(false),
                volume: resolve_volume(w, &field)?,
                pdb: resolve_pdb(w, &field, p)?,
                critical: matches!(
                    w.priority_class_name.as_deref(),
                    Some("system-node-critical" | "system-cluster-critical")
                ),
            });
        }
        if total_pods > MAX_PODS {
            return Err(bad(
                "workloads",
                format!("at most {MAX_PODS} pods are supported, the workloads ask for {total_pods}"),
            ));
        }
        check_pod_name_collisions(&workloads)?;
        Ok(workloads)
    }

    /// The actions in time order; a node named by a NodeJoin gets its join time.
    fn resolve_actions(
        &self,
        ctx: &ActionContext,
        nodes: &mut [NodeSpec],
        warnings: &mut Vec<Cause>,
    ) -> Result<Vec<ActionSpec>, ScenarioError> {
        let mut actions = Vec::with_capacity(self.events.len());
        for (i, e) in self.events.iter().enumerate() {
            actions.push(resolve_action(e, &format!("events[{i}]"), ctx, warnings)?);
        }
        let unsorted = actions.clone();
        crate::order::sort_by_key(&mut actions, |a| a.at);
        // A node that joins is absent until its first NodeJoin, and nothing may happen to it before.
        for a in &actions {
            if let (ActionKind::NodeJoin, Some(n)) = (a.action, a.node) {
                if nodes[n].join_at.is_none() {
                    nodes[n].join_at = Some(a.at);
                }
            }
        }
        for (i, a) in unsorted.iter().enumerate() {
            let Some(n) = a.node else { continue };
            let Some(join) = nodes[n].join_at else { continue };
            if a.at < join || (a.action == ActionKind::NodeJoin && a.at > join) {
                return Err(bad(
                    format!("events[{i}]"),
                    format!("node {:?} joins at {} (its first NodeJoin); {:?} at {} cannot happen before it, and a node joins once", nodes[n].name, format_go_duration(join), a.action, format_go_duration(a.at)),
                ));
            }
        }
        Ok(actions)
    }
}

/// Pod names start with their workload's name; refuses names that would collide.
fn check_pod_name_collisions(workloads: &[WorkloadSpec]) -> Result<(), ScenarioError> {
    for w in workloads.iter().filter(|w| w.kind == WorkloadKind::StatefulSet) {
        let prefix = format!("{}-", w.name);
        for (j, o) in workloads.iter().enumerate() {
            if o.kind == WorkloadKind::Pod
                && o.name
                    .strip_prefix(&prefix)
                    .is_some_and(|rest| rest.parse::<u32>().is_ok())
            {
                return Err(bad(
                    format!("workloads[{j}].name"),
                    format!("{:?} collides with a pod of StatefulSet {:?}", o.name, w.name),
                ));
            }
        }
    }
    Ok(())
}

/// Refuses scenarios whose heartbeat loops alone would run too long.
fn check_heartbeat_ticks(nodes: usize, duration: Millis, kubelet: &KubeletConfig) -> Result<(), ScenarioError> {
    let period = kubelet
        .node_status_update_frequency
        .min(kubelet.lease_renew_interval)
        .max(1);
    let ticks = nodes as i64 * (duration + 2 * MINUTE_MS) / period * 2;
    if ticks > MAX_HEARTBEAT_TICKS {
        return Err(bad(
            "",
            format!(
                "scenario too large: {nodes} nodes for {} with heartbeats every {} need about {ticks} heartbeat ticks (limit {MAX_HEARTBEAT_TICKS}); use fewer nodes, a shorter durationSeconds or slower heartbeats",
                format_go_duration(duration),
                format_go_duration(period)
            ),
        ));
    }
    Ok(())
}

/// A duration between 0s and `max`.
fn non_negative(v: Option<GoDuration>, d: Millis, f: &str, max: Millis) -> Result<Millis, ScenarioError> {
    let v = v.map_or(d, |g| g.0);
    if v < 0 || v > max {
        return Err(bad(
            f,
            format!(
                "must be between 0s and {}, got {}",
                format_go_duration(max),
                format_go_duration(v)
            ),
        ));
    }
    Ok(v)
}

/// `--kube-api-qps`.
fn qps(v: Option<f64>, d: f64) -> Result<f64, ScenarioError> {
    let v = v.unwrap_or(d);
    if !v.is_finite() || v <= 0.0 || v > 100_000.0 {
        return Err(bad(
            "controllerManager.kubeApiQps",
            format!("must be a rate above 0 and at most 100000 (requests per second), got {v}"),
        ));
    }
    Ok(v)
}

/// `--kube-api-burst`.
fn burst(v: Option<u32>, d: u32) -> Result<u32, ScenarioError> {
    let v = v.unwrap_or(d);
    if !(1..=100_000).contains(&v) {
        return Err(bad(
            "controllerManager.kubeApiBurst",
            format!("must be between 1 and 100000, got {v}"),
        ));
    }
    Ok(v)
}

fn rate(v: Option<f64>, d: f64, f: &str) -> Result<f64, ScenarioError> {
    let v = v.unwrap_or(d);
    if !v.is_finite() || !(0.0..=1_000_000.0).contains(&v) {
        return Err(bad(
            f,
            format!("must be a rate of at least 0 (nodes per second), got {v}"),
        ));
    }
    Ok(v)
}

/// What an action is checked against.
struct ActionContext<'a> {
    duration: Millis,
    names: &'a BTreeMap<String, usize>,
    workloads: &'a [WorkloadSpec],
    version: Version,
    out_of_service: bool,
}

const MINUTE_MS: Millis = 60 * SECOND;

fn positive(v: Option<GoDuration>, default: Millis, field: &str) -> Result<Millis, ScenarioError> {
    let v = v.map_or(default, |g| g.0);
    if v <= 0 {
        return Err(bad(
            field,
            format!("must be greater than 0s, got {}", format_go_duration(v)),
        ));
    }
    if v > 24 * HOUR {
        return Err(bad(
            field,
            format!("must be at most 24h0m0s, got {}", format_go_duration(v)),
        ));
    }
    Ok(v)
}

fn check_name(name: &str, field: &str) -> Result<(), ScenarioError> {
    let ok = !name.is_empty()
        && name.len() <= 200
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.')
        && name.as_bytes()[0].is_ascii_alphanumeric()
        && name.as_bytes()[name.len() - 1].is_ascii_alphanumeric();
    if ok {
        Ok(())
    } else {
        Err(bad(field, format!("{name:?} is not a valid name: use lowercase letters, digits, '-' and '.', starting and ending with a letter or digit")))
    }
}

fn resolve_toleration(t: &TolerationSection, field: &str) -> Result<Toleration, ScenarioError> {
    // Mirrors ValidateTolerations in pkg/apis/core/validation.
    let exists = match t.operator.as_deref() {
        None | Some("Equal") | Some("") => false,
        Some("Exists") => true,
        Some(other) => {
            return Err(bad(
                format!("{field}.operator"),
                format!("{other:?} is not an operator; use \"Exists\" or \"Equal\""),
            ))
        }
    };
    if t.key.is_empty() && !exists {
        return Err(bad(format!("{field}.operator"), "must be \"Exists\" when key is empty"));
    }
    if exists && !t.value.is_empty() {
        return Err(bad(
            format!("{field}.value"),
            "must be empty when operator is \"Exists\"",
        ));
    }
    let effect = match t.effect.as_str() {
        "" => None,
        "NoSchedule" => Some(Effect::NoSchedule),
        "PreferNoSchedule" => Some(Effect::PreferNoSchedule),
        "NoExecute" => Some(Effect::NoExecute),
        other => {
            return Err(bad(
                format!("{field}.effect"),
                format!("{other:?} is not an effect; use NoSchedule, PreferNoSchedule or NoExecute"),
            ))
        }
    };
    if t.toleration_seconds.is_some() && effect != Some(Effect::NoExecute) {
        return Err(bad(
            format!("{field}.tolerationSeconds"),
            "only applies to effect \"NoExecute\"",
        ));
    }
    Ok(Toleration {
        key: t.key.clone(),
        exists,
        value: t.value.clone(),
        effect,
        toleration_seconds: t.toleration_seconds,
        source: TolerationSource::Spec,
    })
}

/// The modelled feature gates after defaults and overrides.
struct Gates {
    taint_based_evictions: bool,
    node_lease: bool,
    out_of_service: bool,
    graceful_shutdown: bool,
    lease_circuit_breaker: bool,
}

/// Applies `--feature-gates` with upstream's rules: unknown or removed gates are errors, and a GA
/// gate cannot be turned off ("feature is locked to true").
fn resolve_feature_gates(
    set: &BTreeMap<String, bool>,
    version: Version,
    warnings: &mut Vec<Cause>,
) -> Result<Gates, ScenarioError> {
    let mut value = |gate: Gate| -> Result<bool, ScenarioError> {
        let field = format!("featureGates.{}", gate.name());
        let Some(&wanted) = set.get(gate.name()) else {
            return Ok(gate.default_on(version));
        };
        match gate.stage(version) {
            GateStage::NotYet => Err(bad(field, format!("unrecognized feature gate: {} (it arrived in 1.{}; this is {version})", gate.name(), gate.added_in()))),
            GateStage::Removed => Err(bad(field, format!("unrecognized feature gate: {} (removed in 1.{} after graduating; the feature is always on in {version})", gate.name(), gate.removed_in()))),
            GateStage::Ga if !wanted => Err(bad(field, format!("cannot set feature gate {} to false, feature is locked to true (GA in {version})", gate.name()))),
            GateStage::Ga => {
                warnings.push(Cause::new("warn.gate_ga").text("gate", gate.name()).text("version", version));
                Ok(true)
            }
            GateStage::Alpha | GateStage::Beta => Ok(wanted),
        }
    };
    let gates = Gates {
        taint_based_evictions: value(Gate::TaintBasedEvictions)?,
        node_lease: value(Gate::NodeLease)?,
        out_of_service: value(Gate::NodeOutOfServiceVolumeDetach)?,
        graceful_shutdown: value(Gate::GracefulNodeShutdown)?,
        lease_circuit_breaker: value(Gate::NodeControllerLeaseCircuitBreaker)?,
    };
    if let Some(name) = set.keys().find(|k| Gate::by_name(k).is_none()) {
        let known = Gate::ALL.iter().map(|g| g.name()).collect::<Vec<_>>().join(", ");
        return Err(bad(
            format!("featureGates.{name}"),
            format!("kubelife models the feature gates {known}; {name:?} is not one of them"),
        ));
    }
    if gates.node_lease && version.minor == 12 {
        warnings.push(Cause::new("warn.lease_1_12"));
    }
    Ok(gates)
}

fn resolve_action(
    e: &ActionSection,
    field: &str,
    ctx: &ActionContext,
    warnings: &mut Vec<Cause>,
) -> Result<ActionSpec, ScenarioError> {
    let duration = ctx.duration;
    if e.at.0 < 0 {
        return Err(bad(
            format!("{field}.at"),
            format!("must not be negative, got {}", format_go_duration(e.at.0)),
        ));
    }
    if e.at.0 > duration {
        return Err(bad(
            format!("{field}.at"),
            format!(
                "{} is after the end of the run ({})",
                format_go_duration(e.at.0),
                format_go_duration(duration)
            ),
        ));
    }
    let node = match (&e.node, e.action.needs_node()) {
        (Some(name), true) => match ctx.names.get(name) {
            Some(&n) => Some(n),
            None => return Err(bad(format!("{field}.node"), format!("no node is named {name:?}"))),
        },
        (None, true) => {
            return Err(bad(
                format!("{field}.node"),
                format!("{:?} needs the node it happens to", e.action),
            ))
        }
        (Some(_), false) => {
            return Err(bad(
                format!("{field}.node"),
                format!("{:?} does not take a node", e.action),
            ))
        }
        (None, false) => None,
    };
    let mut spec = resolve_action_params(e, field, ctx)?;
    spec.node = node;
    if e.action == ActionKind::OutOfServiceTaint && !ctx.out_of_service {
        warnings.push(Cause::new("warn.out_of_service_no_gc").text("version", ctx.version));
    }
    Ok(spec)
}

/// The parameters only some actions take, each checked against its action.
fn resolve_action_params(e: &ActionSection, field: &str, ctx: &ActionContext) -> Result<ActionSpec, ScenarioError> {
    let only = |set: bool, name: &str, kind: ActionKind| -> Result<(), ScenarioError> {
        if set && e.action != kind {
            return Err(bad(format!("{field}.{name}"), format!("only {kind:?} takes {name}")));
        }
        Ok(())
    };
    only(e.pod.is_some(), "pod", ActionKind::ForceDeletePod)?;
    only(e.latency_ms.is_some(), "latencyMs", ActionKind::ApiServerLatency)?;
    only(e.effect.is_some(), "effect", ActionKind::OutOfServiceTaint)?;
    only(e.duration.is_some(), "duration", ActionKind::ControllerManagerRestart)?;
    only(e.workload.is_some(), "workload", ActionKind::PatchTolerations)?;
    only(
        e.toleration_seconds.is_some(),
        "tolerationSeconds",
        ActionKind::PatchTolerations,
    )?;
    let workload = match (e.action, &e.workload) {
        (ActionKind::PatchTolerations, None) => {
            return Err(bad(
                format!("{field}.workload"),
                "PatchTolerations needs the workload's name",
            ))
        }
        (_, Some(name)) => match ctx.workloads.iter().position(|w| w.name == *name) {
            Some(w) => Some(w),
            None => {
                return Err(bad(
                    format!("{field}.workload"),
                    format!("no workload is named {name:?}"),
                ))
            }
        },
        (_, None) => None,
    };
    let toleration_seconds = match (e.action, e.toleration_seconds) {
        (ActionKind::PatchTolerations, None) => {
            return Err(bad(
                format!("{field}.tolerationSeconds"),
                "PatchTolerations needs tolerationSeconds",
            ))
        }
        (_, Some(s)) if !(0..=31_536_000).contains(&s) => {
            return Err(bad(
                format!("{field}.tolerationSeconds"),
                format!("must be between 0 and 31536000 (a year), got {s}"),
            ))
        }
        (_, s) => s.unwrap_or(0),
    };
    let pod = match (e.action, &e.pod) {
        (ActionKind::ForceDeletePod, None) => {
            return Err(bad(format!("{field}.pod"), "ForceDeletePod needs the pod's name"))
        }
        (ActionKind::ForceDeletePod, Some(p)) => {
            if !ctx.workloads.iter().any(|w| p.starts_with(&w.name)) {
                return Err(bad(
                    format!("{field}.pod"),
                    format!("{p:?} cannot be a pod of this scenario: every pod name starts with its workload's name"),
                ));
            }
            Some(p.clone())
        }
        _ => None,
    };
    let latency = match (e.action, e.latency_ms) {
        (ActionKind::ApiServerLatency, None) => {
            return Err(bad(
                format!("{field}.latencyMs"),
                "ApiServerLatency needs latencyMs (0 ends a spike)",
            ))
        }
        (_, Some(l)) if !(0..=60_000).contains(&l) => {
            return Err(bad(
                format!("{field}.latencyMs"),
                format!("must be between 0 and 60000, got {l}"),
            ))
        }
        (_, l) => l.unwrap_or(0),
    };
    let effect = match e.effect.as_deref() {
        None | Some("NoExecute") => Effect::NoExecute,
        Some("NoSchedule") => Effect::NoSchedule,
        Some(other) => {
            return Err(bad(
                format!("{field}.effect"),
                format!("{other:?} is not an effect for the out-of-service taint; use NoExecute or NoSchedule"),
            ))
        }
    };
    let restart = e.duration.map_or(0, |d| d.0);
    if !(0..=10 * 60 * SECOND).contains(&restart) {
        return Err(bad(
            format!("{field}.duration"),
            format!("must be between 0s and 10m0s, got {}", format_go_duration(restart)),
        ));
    }
    Ok(ActionSpec {
        at: e.at.0,
        action: e.action,
        node: None,
        pod,
        latency,
        effect,
        duration: restart,
        workload,
        toleration_seconds,
    })
}
