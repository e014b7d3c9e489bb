//! The rules for what sits around a workload's pods: its Service and load balancer, its volume
//! and its PodDisruptionBudget.

use super::cloud::Provider;
use super::config::{IntOrPercent, PdbSpec, VolumeSpec};
use super::format::{bad, between, quoted, IntOrString, ScenarioError, ServiceField, WorkloadKind, WorkloadSection};
#[cfg(feature = "clients")]
use super::load_balancers::{LbKind, LoadBalancerSpec, Policy};
use crate::cause::Cause;
use crate::version::Profile;

/// A workload's Service in a build without clients (the page's): `true` or `false`. A Service
/// object is refused rather than run without what it asks for: its load balancer is observed
/// with the clients.
#[cfg(not(feature = "clients"))]
pub fn resolve_service(w: &WorkloadSection, field: &str, _: Option<Provider>) -> Result<bool, ScenarioError> {
    match &w.service {
        None => Ok(false),
        Some(ServiceField::Enabled(on)) => Ok(*on),
        Some(ServiceField::Object(_)) => Err(bad(
            format!("{field}.service"),
            Cause::new("scenario.client.unavailable"),
        )),
    }
}

/// A workload's Service: whether there is one, and its load balancer for type `LoadBalancer`
/// (written, or the cloud provider's default).
#[cfg(feature = "clients")]
pub fn resolve_service(
    w: &WorkloadSection,
    field: &str,
    provider: Option<Provider>,
) -> Result<(bool, Option<LoadBalancerSpec>), ScenarioError> {
    let s = match &w.service {
        None => return Ok((false, None)),
        Some(ServiceField::Enabled(on)) => return Ok((*on, None)),
        Some(ServiceField::Object(s)) => s,
    };
    let at = |member: &str| format!("{field}.service.{member}");
    let balanced = match s.kind.as_deref() {
        None | Some("ClusterIP") => false,
        Some("LoadBalancer") => true,
        Some(other) => return Err(bad(at("type"), quoted("scenario.service.type", other))),
    };
    let policy = match s.external_traffic_policy.as_deref() {
        None | Some("Cluster") => Policy::Cluster,
        Some("Local") => Policy::Local,
        Some(other) => {
            return Err(bad(
                at("externalTrafficPolicy"),
                quoted("scenario.service.policy", other),
            ))
        }
    };
    let kind = match s.load_balancer.as_deref() {
        None => None,
        Some(name) => Some(LbKind::by_name(name).ok_or_else(|| {
            bad(
                at("loadBalancer"),
                quoted("scenario.service.load_balancer", name).text("names", LbKind::names()),
            )
        })?),
    };
    if !balanced {
        let written = [
            ("loadBalancer", s.load_balancer.is_some()),
            ("externalTrafficPolicy", s.external_traffic_policy.is_some()),
        ];
        if let Some((member, _)) = written.iter().find(|m| m.1) {
            return Err(bad(
                at(member),
                Cause::new("scenario.service.needs_load_balancer").text("field", member),
            ));
        }
        return Ok((true, None));
    }
    let kind = match (kind, provider) {
        (Some(k), Some(p)) if k.provider() != p => {
            return Err(bad(
                at("loadBalancer"),
                quoted("scenario.service.provider", k.name())
                    .text("lbProvider", k.provider().name())
                    .text("provider", p.name()),
            ))
        }
        (Some(k), _) => k,
        (None, Some(p)) => LbKind::default_for(p),
        (None, None) => return Err(bad(at("loadBalancer"), Cause::new("scenario.service.no_provider"))),
    };
    Ok((true, Some(LoadBalancerSpec { kind, policy })))
}

/// A workload's volume: `ReadWriteOnce` or `ReadWriteMany`, one claim per pod (StatefulSets
/// only, their default) or one shared claim.
pub fn resolve_volume(w: &WorkloadSection, field: &str) -> Result<Option<VolumeSpec>, ScenarioError> {
    let Some(v) = &w.volume else { return Ok(None) };
    let many = match v.access_mode.as_deref() {
        None | Some("ReadWriteOnce") => false,
        Some("ReadWriteMany") => true,
        Some(other) => {
            return Err(bad(
                format!("{field}.volume.accessMode"),
                quoted("scenario.volume.access_mode", other),
            ))
        }
    };
    let per_pod = v.per_pod.unwrap_or(w.kind == WorkloadKind::StatefulSet);
    if per_pod && w.kind != WorkloadKind::StatefulSet {
        return Err(bad(
            format!("{field}.volume.perPod"),
            Cause::new("scenario.volume.per_pod").text("kind", format!("{:?}", w.kind)),
        ));
    }
    if w.kind == WorkloadKind::DaemonSet {
        return Err(bad(format!("{field}.volume"), Cause::new("scenario.volume.daemonset")));
    }
    Ok(Some(VolumeSpec { many, per_pod }))
}

fn int_or_percent(v: &IntOrString, field: &str) -> Result<IntOrPercent, ScenarioError> {
    match v {
        IntOrString::Int(n) if (0..=1_000_000).contains(n) => Ok(IntOrPercent::Int(*n as u32)),
        IntOrString::String(s) => match s.strip_suffix('%').map(str::parse::<u32>) {
            Some(Ok(p)) if p <= 100 => Ok(IntOrPercent::Percent(p)),
            _ => Err(bad(field, quoted("scenario.pdb.not_a_count", s))),
        },
        IntOrString::Int(n) => Err(bad(field, between(0, 1_000_000, *n))),
    }
}

/// A workload's PodDisruptionBudget (`ValidatePodDisruptionBudgetSpec`: one of `minAvailable`
/// and `maxUnavailable`; `unhealthyPodEvictionPolicy` where the version has it).
pub fn resolve_pdb(w: &WorkloadSection, field: &str, p: &Profile) -> Result<Option<PdbSpec>, ScenarioError> {
    let Some(pdb) = &w.pdb else { return Ok(None) };
    let f = format!("{field}.pdb");
    let min_available = pdb
        .min_available
        .as_ref()
        .map(|v| int_or_percent(v, &format!("{f}.minAvailable")))
        .transpose()?;
    let max_unavailable = pdb
        .max_unavailable
        .as_ref()
        .map(|v| int_or_percent(v, &format!("{f}.maxUnavailable")))
        .transpose()?;
    match (min_available, max_unavailable) {
        (Some(_), Some(_)) => return Err(bad(f, Cause::new("scenario.pdb.both"))),
        (None, None) => return Err(bad(f, Cause::new("scenario.pdb.neither"))),
        _ => {}
    }
    let always_allow_unhealthy = match pdb.unhealthy_pod_eviction_policy.as_deref() {
        None => false,
        Some(_) if !p.has_unhealthy_pod_eviction_policy => {
            return Err(bad(
                format!("{f}.unhealthyPodEvictionPolicy"),
                Cause::new("scenario.pdb.policy_version").text("version", p.version),
            ))
        }
        Some("IfHealthyBudget") => false,
        Some("AlwaysAllow") => true,
        Some(other) => {
            return Err(bad(
                format!("{f}.unhealthyPodEvictionPolicy"),
                quoted("scenario.pdb.policy", other),
            ))
        }
    };
    Ok(Some(PdbSpec {
        min_available,
        max_unavailable,
        always_allow_unhealthy,
    }))
}
