//! The rules: defaults of the chosen version applied to a [`Scenario`], every value checked.
//!
//! [`Scenario::resolve`] gives a [`Config`] or the first [`ScenarioError`], which names the field
//! and the reason in upstream's words where upstream has them (feature-gate and removed-flag
//! errors). Each section of the format has its own function here.

use super::config::{
    ActionSpec, ApiServerConfig, Config, ControllerManagerConfig, KubeProxyConfig, KubeletConfig, NodeSpec, ProxyMode,
    SimulationConfig, WorkloadSpec, DEFAULT_SEED,
};
use super::flags::{self, Component, Flag, Missing, Rule, Value};
use super::format::{
    bad, between, quoted, unique_name, ActionKind, ActionSection, GoDuration, Scenario, ScenarioError,
    TolerationSection, WorkloadKind, MAX_HEARTBEAT_TICKS, MAX_NODES, MAX_PODS,
};
use super::workload_extras::{resolve_pdb, resolve_service, resolve_volume};
use crate::api::{Effect, Toleration, TolerationSource};
use crate::cause::Cause;
use crate::time::{Millis, HOUR, SECOND};
use crate::version::{Gate, GateStage, Profile, Version};
use std::collections::BTreeMap;

impl Scenario {
    /// Applies the version's defaults and checks every value.
    pub fn resolve(&self) -> Result<Config, ScenarioError> {
        let version = match &self.version {
            Some(v) => Version::parse(v).map_err(|why| bad("version", why))?,
            None => Version::default(),
        };
        let profile = Profile::of(version);
        let defaults = Config::defaults(version);
        let duration = int(&flags::DURATION_SECONDS, self, &defaults)? * SECOND;
        let mut warnings = Vec::new();
        let gates = resolve_feature_gates(&self.feature_gates, version, &mut warnings)?;
        let mut kubelet = self.resolve_kubelet(&profile, &defaults, gates.node_lease, &mut warnings)?;
        self.resolve_shutdown(
            &profile,
            &defaults,
            gates.graceful_shutdown,
            &mut kubelet,
            &mut warnings,
        )?;
        let controller_manager = self.resolve_controller_manager(&profile, &defaults, &gates, &mut warnings)?;
        let api_server = self.resolve_api_server(&profile, &defaults)?;
        let kube_proxy = self.resolve_kube_proxy(&profile, &defaults, &mut warnings)?;
        let simulation = self.resolve_simulation(&defaults)?;
        let cloud = self
            .cloud
            .as_ref()
            .map(|c| super::cloud_rules::resolve_cloud(c, version))
            .transpose()?;
        let provider = cloud.as_ref().map(|c| c.provider);
        let remediation = super::cloud_rules::resolve_remediation(&self.remediation, provider, &mut warnings)?;
        let (mut nodes, names) = self.resolve_nodes()?;
        let mut workloads = self.resolve_workloads(nodes.len() as u32, &profile, provider)?;
        let ctx = ActionContext {
            duration,
            names: &names,
            workloads: &workloads,
            version,
            out_of_service: gates.out_of_service,
            provider,
            graceful_shutdown: kubelet.graceful_shutdown,
        };
        let actions = self.resolve_actions(&ctx, &mut nodes, &mut warnings)?;
        // DaemonSets size to the nodes present at the start.
        let initial_nodes = nodes.iter().filter(|n| n.join_at.is_none()).count() as u32;
        for w in workloads.iter_mut().filter(|w| w.kind == WorkloadKind::DaemonSet) {
            w.replicas = initial_nodes;
        }
        check_heartbeat_ticks(nodes.len(), duration, &kubelet)?;
        #[cfg(feature = "clients")]
        let dns = super::client_rules::resolve_dns(self.dns.as_ref(), &self.clients, &nodes, &mut workloads)?;
        #[cfg(feature = "clients")]
        let clients = super::client_rules::resolve_clients(&self.clients, &nodes, &workloads, &actions, dns.as_ref())?;
        // A build without clients (the page's) refuses them rather than run without them.
        #[cfg(not(feature = "clients"))]
        if !self.clients.is_empty() || self.dns.is_some() {
            let field = if self.clients.is_empty() { "dns" } else { "clients" };
            return Err(bad(field, Cause::new("scenario.client.unavailable")));
        }
        Ok(Config {
            profile,
            seed: self.seed.unwrap_or(DEFAULT_SEED),
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
            cloud,
            remediation,
            #[cfg(feature = "clients")]
            clients,
            #[cfg(feature = "clients")]
            dns,
            warnings,
        })
    }

    fn resolve_kubelet(
        &self,
        p: &Profile,
        d: &Config,
        node_lease: bool,
        warnings: &mut Vec<Cause>,
    ) -> Result<KubeletConfig, ScenarioError> {
        use flags::{NODE_LEASE_DURATION_SECONDS, NODE_STATUS_REPORT_FREQUENCY, NODE_STATUS_UPDATE_FREQUENCY};
        refuse_missing(self, p, Component::Kubelet)?;
        if NODE_STATUS_REPORT_FREQUENCY.get(self).is_some() && !node_lease {
            warnings.push(Cause::new("warn.report_without_lease").text("version", p.version));
        }
        let update = millis(&NODE_STATUS_UPDATE_FREQUENCY, self, d)?;
        // KubeletConfiguration defaulting: when the file sets nodeStatusUpdateFrequency but not
        // nodeStatusReportFrequency, the report frequency takes the update frequency
        // (SetDefaults_KubeletConfiguration).
        let report_default = match NODE_STATUS_UPDATE_FREQUENCY.get(self) {
            Some(_) => Value::Duration(update),
            None => NODE_STATUS_REPORT_FREQUENCY.read(d),
        };
        let report = checked(&NODE_STATUS_REPORT_FREQUENCY, self, report_default)?
            .millis()
            .unwrap_or(update);
        let lease_seconds = int(&NODE_LEASE_DURATION_SECONDS, self, d)?;
        Ok(KubeletConfig {
            node_status_update_frequency: update,
            node_status_report_frequency: report,
            node_lease_duration_seconds: lease_seconds,
            node_lease,
            lease_renew_interval: p.lease_renew_interval(lease_seconds).max(1),
            ..d.kubelet.clone()
        })
    }

    /// `shutdownGracePeriod` and `shutdownGracePeriodCriticalPods`, with the kubelet's own checks
    /// (`ValidateKubeletConfiguration`) and `TestFeatureEnabled`: the feature works with the
    /// `GracefulNodeShutdown` gate on and a grace period over 0.
    fn resolve_shutdown(
        &self,
        p: &Profile,
        d: &Config,
        gate: bool,
        kubelet: &mut KubeletConfig,
        warnings: &mut Vec<Cause>,
    ) -> Result<(), ScenarioError> {
        use flags::{SHUTDOWN_GRACE_PERIOD, SHUTDOWN_GRACE_PERIOD_CRITICAL_PODS as CRITICAL};
        let total = millis(&SHUTDOWN_GRACE_PERIOD, self, d)?;
        let critical = millis(&CRITICAL, self, d)?;
        if critical > total {
            return Err(bad(
                CRITICAL.path,
                Cause::new("scenario.shutdown.critical_over_total")
                    .time("critical", critical)
                    .time("total", total),
            ));
        }
        if total > 0 && !gate {
            warnings.push(Cause::new("warn.shutdown_gate_off").text("version", p.version));
        }
        kubelet.shutdown_grace_period = total;
        kubelet.shutdown_grace_period_critical_pods = critical;
        kubelet.graceful_shutdown = gate && total > 0;
        Ok(())
    }

    /// kube-proxy's mode and sync periods.
    fn resolve_kube_proxy(
        &self,
        p: &Profile,
        d: &Config,
        warnings: &mut Vec<Cause>,
    ) -> Result<KubeProxyConfig, ScenarioError> {
        refuse_missing(self, p, Component::KubeProxy)?;
        let version = p.version;
        let field = flags::PROXY_MODE.path;
        let mode = match self.kube_proxy.mode.as_deref() {
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
                    field,
                    Cause::new("scenario.proxy.no_nftables").text("version", version),
                ))
            }
            Some(other) => return Err(bad(field, quoted("scenario.proxy.mode", other))),
        };
        Ok(KubeProxyConfig {
            mode,
            min_sync_period: millis(&flags::IPTABLES_MIN_SYNC_PERIOD, self, d)?,
            sync_period: millis(&flags::IPTABLES_SYNC_PERIOD, self, d)?,
        })
    }

    fn resolve_controller_manager(
        &self,
        p: &Profile,
        d: &Config,
        gates: &Gates,
        warnings: &mut Vec<Cause>,
    ) -> Result<ControllerManagerConfig, ScenarioError> {
        use flags::*;
        refuse_missing(self, p, Component::ControllerManager)?;
        let version = p.version;
        let enable_taint_manager = switch(&ENABLE_TAINT_MANAGER, self, d)?;
        if ENABLE_TAINT_MANAGER.get(self).is_some() && p.taint_manager_deprecated {
            warnings.push(Cause::new("warn.taint_manager_deprecated").text("version", version));
        }
        let taint_based_evictions = gates.taint_based_evictions && enable_taint_manager;
        if POD_EVICTION_TIMEOUT.get(self).is_some() && taint_based_evictions {
            warnings.push(Cause::new("warn.pod_eviction_timeout_ignored").text("version", version));
        }
        let pod_eviction_timeout = millis(&POD_EVICTION_TIMEOUT, self, d)?;
        if !gates.taint_based_evictions && enable_taint_manager && TAINT_BASED_EVICTIONS.exists_in(p) {
            warnings.push(Cause::new("warn.tbe_off").text("version", version));
        }
        let unhealthy_zone_threshold = float(&UNHEALTHY_ZONE_THRESHOLD, self, d)?;
        Ok(ControllerManagerConfig {
            node_monitor_period: millis(&NODE_MONITOR_PERIOD, self, d)?,
            node_monitor_grace_period: millis(&NODE_MONITOR_GRACE_PERIOD, self, d)?,
            node_startup_grace_period: millis(&NODE_STARTUP_GRACE_PERIOD, self, d)?,
            node_eviction_rate: float(&NODE_EVICTION_RATE, self, d)?,
            secondary_node_eviction_rate: float(&SECONDARY_NODE_EVICTION_RATE, self, d)?,
            large_cluster_size_threshold: count(&LARGE_CLUSTER_SIZE_THRESHOLD, self, d)?,
            unhealthy_zone_threshold,
            pod_eviction_timeout,
            enable_taint_manager,
            taint_based_evictions,
            kube_api_qps: float(&KUBE_API_QPS, self, d)?,
            kube_api_burst: count(&KUBE_API_BURST, self, d)?,
            disable_force_detach_on_timeout: switch(&DISABLE_FORCE_DETACH_ON_TIMEOUT, self, d)?,
            lease_circuit_breaker: gates.lease_circuit_breaker,
        })
    }

    fn resolve_api_server(&self, p: &Profile, d: &Config) -> Result<ApiServerConfig, ScenarioError> {
        refuse_missing(self, p, Component::ApiServer)?;
        Ok(ApiServerConfig {
            default_not_ready_toleration_seconds: int(&flags::DEFAULT_NOT_READY_TOLERATION_SECONDS, self, d)?,
            default_unreachable_toleration_seconds: int(&flags::DEFAULT_UNREACHABLE_TOLERATION_SECONDS, self, d)?,
        })
    }

    fn resolve_simulation(&self, d: &Config) -> Result<SimulationConfig, ScenarioError> {
        let s = &self.simulation;
        let base = SimulationConfig::defaults(self.nodes.len());
        Ok(SimulationConfig {
            watch_latency: millis(&flags::WATCH_LATENCY, self, d)?,
            api_latency: millis(&flags::API_LATENCY, self, d)?,
            pod_startup: millis(&flags::POD_STARTUP, self, d)?,
            monitor_pass_duration: non_negative(
                s.monitor_pass_duration,
                base.monitor_pass_duration,
                "simulation.monitorPassDuration",
                10 * SECOND,
            )?,
            attach_duration: non_negative(
                s.attach_duration,
                base.attach_duration,
                "simulation.attachDuration",
                HOUR,
            )?,
            detach_duration: non_negative(
                s.detach_duration,
                base.detach_duration,
                "simulation.detachDuration",
                HOUR,
            )?,
            mount_duration: non_negative(s.mount_duration, base.mount_duration, "simulation.mountDuration", HOUR)?,
            proxy_sync_duration: non_negative(
                s.proxy_sync_duration,
                base.proxy_sync_duration,
                "simulation.proxySyncDuration",
                MINUTE_MS,
            )?,
            volumes_in_use_cleared_on_shutdown: s
                .volumes_in_use_cleared_on_shutdown
                .unwrap_or(base.volumes_in_use_cleared_on_shutdown),
        })
    }

    /// The nodes, and each one's index by name.
    fn resolve_nodes(&self) -> Result<(Vec<NodeSpec>, BTreeMap<String, usize>), ScenarioError> {
        if self.nodes.is_empty() {
            return Err(bad("nodes", Cause::new("scenario.nodes.none")));
        }
        if self.nodes.len() > MAX_NODES {
            return Err(bad(
                "nodes",
                Cause::new("scenario.nodes.too_many")
                    .text("max", MAX_NODES)
                    .text("count", self.nodes.len()),
            ));
        }
        let mut nodes = Vec::with_capacity(self.nodes.len());
        let mut names = BTreeMap::new();
        for (i, n) in self.nodes.iter().enumerate() {
            let field = unique_name("nodes", i, &n.name, names.insert(n.name.clone(), i))?;
            let max_pods = n.max_pods.unwrap_or(110);
            if max_pods == 0 || max_pods > 10_000 {
                return Err(bad(format!("{field}.maxPods"), between(1, 10_000, max_pods)));
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

    fn resolve_workloads(
        &self,
        node_count: u32,
        p: &Profile,
        provider: Option<super::cloud::Provider>,
    ) -> Result<Vec<WorkloadSpec>, ScenarioError> {
        let mut workloads = Vec::with_capacity(self.workloads.len());
        let mut wnames = BTreeMap::new();
        let mut total_pods: u64 = 0;
        for (i, w) in self.workloads.iter().enumerate() {
            let field = unique_name("workloads", i, &w.name, wnames.insert(w.name.clone(), i))?;
            let replicas = match (w.kind, w.replicas) {
                (WorkloadKind::DaemonSet, Some(_)) => {
                    return Err(bad(
                        format!("{field}.replicas"),
                        Cause::new("scenario.workload.daemonset_replicas"),
                    ))
                }
                (WorkloadKind::Pod, Some(r)) if r != 1 => {
                    return Err(bad(
                        format!("{field}.replicas"),
                        Cause::new("scenario.workload.pod_replicas"),
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
                    between(0, 86_400, grace),
                ));
            }
            let mut tolerations = Vec::with_capacity(w.tolerations.len());
            for (j, t) in w.tolerations.iter().enumerate() {
                tolerations.push(resolve_toleration(t, &format!("{field}.tolerations[{j}]"))?);
            }
            #[cfg(feature = "clients")]
            let (service, load_balancer) = resolve_service(w, &field, provider)?;
            #[cfg(not(feature = "clients"))]
            let service = resolve_service(w, &field, provider)?;
            workloads.push(WorkloadSpec {
                kind: w.kind,
                name: w.name.clone(),
                replicas,
                termination_grace_period_seconds: grace,
                tolerations,
                service,
                #[cfg(feature = "clients")]
                service_name: None,
                #[cfg(feature = "clients")]
                load_balancer,
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
                Cause::new("scenario.workloads.too_many_pods")
                    .text("max", MAX_PODS)
                    .text("count", total_pods),
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
                    Cause::new("scenario.event.before_join")
                        .text("node", format!("{:?}", nodes[n].name))
                        .time("join", join)
                        .text("action", format!("{:?}", a.action))
                        .time("at", a.at),
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
                    Cause::new("scenario.workload.collides")
                        .text("name", format!("{:?}", o.name))
                        .text("statefulset", format!("{:?}", w.name)),
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
            Cause::new("scenario.too_large")
                .text("nodes", nodes)
                .time("duration", duration)
                .time("period", period)
                .text("ticks", ticks)
                .text("limit", MAX_HEARTBEAT_TICKS),
        ));
    }
    Ok(())
}

/// A duration between 0s and `max`.
fn non_negative(v: Option<GoDuration>, d: Millis, f: &str, max: Millis) -> Result<Millis, ScenarioError> {
    let v = v.map_or(d, |g| g.0);
    Rule::UpTo(max)
        .check(Value::Duration(v))
        .map_err(|reason| bad(f, reason))?;
    Ok(v)
}

/// Refuses each of a component's settings that the scenario writes and the version lacks, in
/// the catalogue's words. Feature gates have rules of their own ([`resolve_feature_gates`]).
fn refuse_missing(s: &Scenario, p: &Profile, component: Component) -> Result<(), ScenarioError> {
    let lacking = flags::ALL
        .iter()
        .filter(|f| f.component == component && f.missing != Missing::Gate)
        .find(|f| f.get(s).is_some() && !f.exists_in(p));
    match lacking {
        Some(f) => Err(bad(f.path, f.refusal(p.version))),
        None => Ok(()),
    }
}

/// The value a scenario gives `flag`, else `default`, checked by the flag's rule.
fn checked(flag: &Flag, s: &Scenario, default: Value) -> Result<Value, ScenarioError> {
    let v = flag.get(s).unwrap_or(default);
    flag.rule.check(v).map_err(|reason| bad(flag.path, reason))?;
    Ok(v)
}

/// A span the scenario gives `flag`, else the version's default (`d`), checked.
fn millis(flag: &Flag, s: &Scenario, d: &Config) -> Result<Millis, ScenarioError> {
    Ok(checked(flag, s, flag.read(d))?.millis().unwrap_or_default())
}

/// A whole number, likewise.
fn int(flag: &Flag, s: &Scenario, d: &Config) -> Result<i64, ScenarioError> {
    Ok(checked(flag, s, flag.read(d))?.int().unwrap_or_default())
}

/// A count, likewise.
fn count(flag: &Flag, s: &Scenario, d: &Config) -> Result<u32, ScenarioError> {
    Ok(int(flag, s, d)?.clamp(0, i64::from(u32::MAX)) as u32)
}

/// A rate or fraction, likewise.
fn float(flag: &Flag, s: &Scenario, d: &Config) -> Result<f64, ScenarioError> {
    Ok(checked(flag, s, flag.read(d))?.float().unwrap_or_default())
}

/// A switch, likewise.
fn switch(flag: &Flag, s: &Scenario, d: &Config) -> Result<bool, ScenarioError> {
    Ok(checked(flag, s, flag.read(d))?.switch().unwrap_or_default())
}

/// What an action is checked against.
struct ActionContext<'a> {
    duration: Millis,
    names: &'a BTreeMap<String, usize>,
    workloads: &'a [WorkloadSpec],
    version: Version,
    out_of_service: bool,
    provider: Option<super::cloud::Provider>,
    graceful_shutdown: bool,
}

const MINUTE_MS: Millis = 60 * SECOND;

fn resolve_toleration(t: &TolerationSection, field: &str) -> Result<Toleration, ScenarioError> {
    // Mirrors ValidateTolerations in pkg/apis/core/validation.
    let exists = match t.operator.as_deref() {
        None | Some("Equal") | Some("") => false,
        Some("Exists") => true,
        Some(other) => {
            return Err(bad(
                format!("{field}.operator"),
                quoted("scenario.toleration.operator", other),
            ))
        }
    };
    if t.key.is_empty() && !exists {
        return Err(bad(
            format!("{field}.operator"),
            Cause::new("scenario.toleration.exists_without_key"),
        ));
    }
    if exists && !t.value.is_empty() {
        return Err(bad(
            format!("{field}.value"),
            Cause::new("scenario.toleration.value_with_exists"),
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
                quoted("scenario.toleration.effect", other),
            ))
        }
    };
    if t.toleration_seconds.is_some() && effect != Some(Effect::NoExecute) {
        return Err(bad(
            format!("{field}.tolerationSeconds"),
            Cause::new("scenario.toleration.seconds_without_no_execute"),
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
        let refused = |key| Cause::new(key).text("gate", gate.name()).text("version", version);
        match gate.stage(version) {
            GateStage::NotYet => Err(bad(
                field,
                refused("scenario.gate.not_yet").text("added", format!("1.{}", gate.added_in())),
            )),
            GateStage::Removed => Err(bad(
                field,
                refused("scenario.gate.removed").text("removed", format!("1.{}", gate.removed_in())),
            )),
            GateStage::Ga if !wanted => Err(bad(field, refused("scenario.gate.locked"))),
            GateStage::Ga => {
                warnings.push(
                    Cause::new("warn.gate_ga")
                        .text("gate", gate.name())
                        .text("version", version),
                );
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
            Cause::new("scenario.gate.unknown")
                .text("known", known)
                .text("name", format!("{name:?}")),
        ));
    }
    if gates.node_lease && !Profile::of(version).controller_reads_leases {
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
            Cause::new("scenario.event.negative").time("at", e.at.0),
        ));
    }
    if e.at.0 > duration {
        return Err(bad(
            format!("{field}.at"),
            Cause::new("scenario.event.after_end")
                .time("at", e.at.0)
                .time("end", duration),
        ));
    }
    let action = |key| Cause::new(key).text("action", format!("{:?}", e.action));
    let node = match (&e.node, e.action.needs_node()) {
        (Some(name), true) => match ctx.names.get(name) {
            Some(&n) => Some(n),
            None => return Err(bad(format!("{field}.node"), quoted("scenario.event.no_node", name))),
        },
        (None, true) => return Err(bad(format!("{field}.node"), action("scenario.event.needs_node"))),
        (Some(_), false) => return Err(bad(format!("{field}.node"), action("scenario.event.takes_no_node"))),
        (None, false) => None,
    };
    let mut spec = resolve_action_params(e, field, ctx)?;
    spec.node = node;
    if e.action == ActionKind::OutOfServiceTaint && !ctx.out_of_service {
        warnings.push(Cause::new("warn.out_of_service_no_gc").text("version", ctx.version));
    }
    instance_fault_warnings(e, ctx, warnings);
    Ok(spec)
}

/// The parameters only some actions take, each checked against its action.
fn resolve_action_params(e: &ActionSection, field: &str, ctx: &ActionContext) -> Result<ActionSpec, ScenarioError> {
    let only = |set: bool, name: &str, kind: ActionKind| -> Result<(), ScenarioError> {
        if set && e.action != kind {
            return Err(bad(
                format!("{field}.{name}"),
                Cause::new("scenario.event.only")
                    .text("action", format!("{kind:?}"))
                    .text("param", name),
            ));
        }
        Ok(())
    };
    only(e.pod.is_some(), "pod", ActionKind::ForceDeletePod)?;
    only(e.latency_ms.is_some(), "latencyMs", ActionKind::ApiServerLatency)?;
    only(e.effect.is_some(), "effect", ActionKind::OutOfServiceTaint)?;
    only(e.duration.is_some(), "duration", ActionKind::ControllerManagerRestart)?;
    only(e.workload.is_some(), "workload", ActionKind::PatchTolerations)?;
    only(e.notice.is_some(), "notice", ActionKind::SpotInterruption)?;
    only(
        e.toleration_seconds.is_some(),
        "tolerationSeconds",
        ActionKind::PatchTolerations,
    )?;
    let workload = match (e.action, &e.workload) {
        (ActionKind::PatchTolerations, None) => {
            return Err(bad(
                format!("{field}.workload"),
                Cause::new("scenario.event.patch_needs_workload"),
            ))
        }
        (_, Some(name)) => match ctx.workloads.iter().position(|w| w.name == *name) {
            Some(w) => Some(w),
            None => {
                return Err(bad(
                    format!("{field}.workload"),
                    quoted("scenario.event.no_workload", name),
                ))
            }
        },
        (_, None) => None,
    };
    let toleration_seconds = match (e.action, e.toleration_seconds) {
        (ActionKind::PatchTolerations, None) => {
            return Err(bad(
                format!("{field}.tolerationSeconds"),
                Cause::new("scenario.event.patch_needs_seconds"),
            ))
        }
        (_, Some(s)) if !(0..=31_536_000).contains(&s) => {
            return Err(bad(
                format!("{field}.tolerationSeconds"),
                Cause::new("scenario.event.toleration_seconds").text("value", s),
            ))
        }
        (_, s) => s.unwrap_or(0),
    };
    let pod = match (e.action, &e.pod) {
        (ActionKind::ForceDeletePod, None) => {
            return Err(bad(
                format!("{field}.pod"),
                Cause::new("scenario.event.force_delete_needs_pod"),
            ))
        }
        (ActionKind::ForceDeletePod, Some(p)) => {
            if !ctx.workloads.iter().any(|w| p.starts_with(&w.name)) {
                return Err(bad(format!("{field}.pod"), quoted("scenario.event.not_a_pod", p)));
            }
            Some(p.clone())
        }
        _ => None,
    };
    let latency = match (e.action, e.latency_ms) {
        (ActionKind::ApiServerLatency, None) => {
            return Err(bad(
                format!("{field}.latencyMs"),
                Cause::new("scenario.event.latency_needed"),
            ))
        }
        (_, Some(l)) if !(0..=60_000).contains(&l) => {
            return Err(bad(format!("{field}.latencyMs"), between(0, 60_000, l)))
        }
        (_, l) => l.unwrap_or(0),
    };
    let effect = match e.effect.as_deref() {
        None | Some("NoExecute") => Effect::NoExecute,
        Some("NoSchedule") => Effect::NoSchedule,
        Some(other) => {
            return Err(bad(
                format!("{field}.effect"),
                quoted("scenario.event.out_of_service_effect", other),
            ))
        }
    };
    let notice = e.notice.map_or_else(
        || ctx.provider.unwrap_or(super::cloud::Provider::Aws).spot_notice(),
        |d| d.0,
    );
    if !(0..=HOUR).contains(&notice) {
        return Err(bad(format!("{field}.notice"), flags::up_to(HOUR, notice)));
    }
    let restart = e.duration.map_or(0, |d| d.0);
    if !(0..=10 * MINUTE_MS).contains(&restart) {
        return Err(bad(format!("{field}.duration"), flags::up_to(10 * MINUTE_MS, restart)));
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
        notice,
    })
}

/// What an instance fault means where the scenario runs: without a cloud it is a crash whose
/// Node nobody deletes; a GKE Spot VM's kubelet shuts down gracefully only when the scenario
/// gives it a grace period (GKE turns it on for Spot node pools: 30s, 15s of it for critical
/// pods).
fn instance_fault_warnings(e: &ActionSection, ctx: &ActionContext, warnings: &mut Vec<Cause>) {
    let instance = matches!(
        e.action,
        ActionKind::InstanceTerminated | ActionKind::InstanceStopped | ActionKind::SpotInterruption
    );
    if !instance {
        return;
    }
    let action = format!("{:?}", e.action);
    match ctx.provider {
        None => warnings.push(Cause::new("warn.instance_fault_without_cloud").text("action", action)),
        Some(super::cloud::Provider::Gcp) if e.action == ActionKind::SpotInterruption && !ctx.graceful_shutdown => {
            warnings.push(Cause::new("warn.gcp_spot_without_graceful_shutdown").text("action", action))
        }
        _ => {}
    }
}
