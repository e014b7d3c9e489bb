//! The rules of the `cloud` and `remediation` sections ([`super::cloud`]): defaults applied, every
//! value checked, each managed service's repair on its own cloud. Every default, range and rule
//! is the settings table's ([`super::settings`]); this module pairs each field of a section with
//! its declaration and builds the resolved form.

use super::cloud::{CapacityType, CloudConfig, ConditionCheck, NodeCount, Provider, Remediator, SnrStrategy};
use super::flags::Value;
use super::format::{bad, CloudSection, ConditionSection, GoDuration, IntOrString, RemediationSection, ScenarioError};
use super::settings::{self as table, Applies, Rule, Setting};
use crate::cause::Cause;
use crate::time::Millis;
use crate::version::Version;

/// A span as written, or else the setting's default on `provider`, checked by the setting's rule
/// and refused at `field`.
fn span_at(
    s: &Setting,
    written: Option<GoDuration>,
    provider: Option<Provider>,
    field: impl Into<String>,
) -> Result<Millis, ScenarioError> {
    let ms = written.map_or_else(|| s.default_ms(provider), |g| g.0);
    s.rule.check(Value::Duration(ms)).map_err(|reason| bad(field, reason))?;
    Ok(ms)
}

/// Whether `provider` reads the `cloud` setting.
fn reads(s: &Setting, provider: Provider) -> bool {
    matches!(s.applies, Applies::Cloud { providers, .. } if providers.contains(&provider))
}

/// The resolved `cloud`, with the warnings it calls for. A field the provider does not read is
/// refused before any value is checked; it resolves to 0 when not written.
pub(super) fn resolve_cloud(c: &CloudSection, version: Version) -> Result<CloudConfig, ScenarioError> {
    let p = c.provider;
    let fields = [
        (&table::NODE_MONITOR_PERIOD, c.node_monitor_period),
        (&table::INSTANCE_TERMINATION_DURATION, c.instance_termination_duration),
        (&table::INSTANCE_STOP_DURATION, c.instance_stop_duration),
        (&table::INSTANCE_DELETION_DURATION, c.instance_deletion_duration),
        (&table::NODE_BOOT_DURATION, c.node_boot_duration),
        (&table::API_CALL_DURATION, c.api_call_duration),
        (&table::VM_CACHE_TTL, c.vm_cache_ttl),
    ];
    for (s, written) in fields {
        if let (Some(_), false, Applies::Cloud { refusal: Some(key), .. }) = (written, reads(s, p), s.applies) {
            return Err(bad(s.path, Cause::new(key).text("provider", p.name())));
        }
    }
    let mut ms = [0; 7];
    for (i, (s, written)) in fields.into_iter().enumerate() {
        if reads(s, p) {
            ms[i] = span_at(s, written, Some(p), s.path)?;
        }
    }
    let [node_monitor_period, instance_termination_duration, instance_stop_duration, instance_deletion_duration, node_boot_duration, api_call_duration, vm_cache_ttl] =
        ms;
    let managed_node_group = managed_node_group(c)?;
    Ok(CloudConfig {
        provider: p,
        node_monitor_period,
        instance_termination_duration,
        instance_stop_duration,
        instance_deletion_duration,
        node_boot_duration,
        api_call_duration,
        vm_cache_ttl,
        // cloud-provider-azure added it in v1.29.0 and backported it to release-1.26 and
        // release-1.27 (PRs #4521, #4522).
        automatic_out_of_service: p == Provider::Azure && version.minor >= 26,
        managed_node_group,
    })
}

/// `cloud.managedNodeGroup` as written (refused off AWS, or naming no capacity type), or else
/// its default (`none`).
fn managed_node_group(c: &CloudSection) -> Result<Option<CapacityType>, ScenarioError> {
    let s = &table::MANAGED_NODE_GROUP;
    let Some(name) = c.managed_node_group.as_deref() else {
        let default = s.default_on(Some(c.provider)).map(|v| s.text(v));
        return Ok(default.and_then(|d| CapacityType::by_name(&d)));
    };
    if let (false, Applies::Cloud { refusal: Some(key), .. }) = (reads(s, c.provider), s.applies) {
        return Err(bad(s.path, Cause::new(key).text("provider", c.provider.name())));
    }
    if s.parse(name).is_none() {
        return Err(bad(
            s.path,
            super::format::quoted("scenario.cloud.managed_node_group", name),
        ));
    }
    Ok(CapacityType::by_name(name))
}

/// The default condition checks: `Ready` [`table::READY_STATUSES`] for `timeout`.
pub(crate) fn ready_checks(timeout: Millis) -> Vec<ConditionCheck> {
    table::READY_STATUSES
        .iter()
        .map(|s| ConditionCheck {
            kind: "Ready".to_string(),
            status: s.to_string(),
            timeout,
        })
        .collect()
}

/// A list of condition checks as written, or else `Ready` `Unknown` and `False` for the setting's
/// default timeout on `provider`; each timeout checked by the setting's rule.
fn conditions(
    s: &Setting,
    list: &Option<Vec<ConditionSection>>,
    provider: Option<Provider>,
    field: &str,
) -> Result<Vec<ConditionCheck>, ScenarioError> {
    let Some(list) = list else {
        return Ok(ready_checks(s.default_ms(provider)));
    };
    let mut out = Vec::with_capacity(list.len());
    for (i, c) in list.iter().enumerate() {
        let f = format!("{field}.unhealthyConditions[{i}]");
        if c.kind.is_empty() {
            return Err(bad(format!("{f}.type"), Cause::new("scenario.remediation.no_type")));
        }
        if !["True", "False", "Unknown"].contains(&c.status.as_str()) {
            return Err(bad(
                format!("{f}.status"),
                super::format::quoted("scenario.remediation.status", &c.status),
            ));
        }
        s.rule
            .check(Value::Duration(c.timeout.0))
            .map_err(|reason| bad(format!("{f}.timeout"), reason))?;
        out.push(ConditionCheck {
            kind: c.kind.clone(),
            status: c.status.clone(),
            timeout: c.timeout.0,
        });
    }
    Ok(out)
}

/// A count or a percentage as written, or else the setting's default percentage.
fn node_count(s: &Setting, v: &Option<IntOrString>, field: &str) -> Result<NodeCount, ScenarioError> {
    match v {
        None => {
            let p = s.default_on(None).and_then(Value::int).unwrap_or(0);
            Ok(NodeCount::Percent(p.clamp(0, 100) as u32))
        }
        Some(v) => Rule::node_count(v).map_err(|reason| bad(format!("{field}.{}", s.name), reason)),
    }
}

/// A switch as written, or else the setting's default.
fn switch(s: &Setting, v: Option<bool>) -> bool {
    v.or_else(|| s.default_on(None).and_then(Value::switch))
        .unwrap_or(false)
}

/// Self Node Remediation's strategies, in [`table::SNR_STRATEGIES`]' order.
const STRATEGIES: [SnrStrategy; 3] = [
    SnrStrategy::Automatic,
    SnrStrategy::OutOfServiceTaint,
    SnrStrategy::ResourceDeletion,
];

/// One remediator, checked.
fn resolve_remediator(
    r: &RemediationSection,
    field: &str,
    provider: Option<Provider>,
) -> Result<Remediator, ScenarioError> {
    use table::*;
    use RemediationSection as R;
    let span = |s: &Setting, v: Option<GoDuration>| span_at(s, v, provider, format!("{field}.{}", s.name));
    let set = |s: &Setting, v: Option<GoDuration>| v.map(|v| span(s, Some(v))).transpose();
    Ok(match r {
        R::MachineHealthCheck(m) => Remediator::MachineHealthCheck {
            conditions: conditions(&MHC_CONDITIONS, &m.unhealthy_conditions, provider, field)?,
            node_startup_timeout: span(&MHC_NODE_STARTUP_TIMEOUT, m.node_startup_timeout)?,
            max_unhealthy: node_count(&MHC_MAX_UNHEALTHY, &m.max_unhealthy, field)?,
            cluster_api_minor: match m.cluster_api_version.as_deref() {
                None => MHC_CLUSTER_API_VERSION
                    .default_on(provider)
                    .and_then(Value::int)
                    .map_or(0, |m| m as u32),
                Some(v) => Rule::cluster_api_minor(v)
                    .map_err(|reason| bad(format!("{field}.{}", MHC_CLUSTER_API_VERSION.name), reason))?,
            },
            replacement_join: set(&MHC_REPLACEMENT_JOIN_DURATION, m.replacement_join_duration)?,
        },
        R::SelfNodeRemediation(s) => Remediator::SelfNodeRemediation {
            conditions: conditions(&SNR_CONDITIONS, &s.unhealthy_conditions, provider, field)?,
            min_healthy: node_count(&SNR_MIN_HEALTHY, &s.min_healthy, field)?,
            strategy: match s.strategy.as_deref() {
                None => STRATEGIES[0],
                Some(name) => match SNR_STRATEGIES.iter().position(|k| *k == name) {
                    Some(i) => STRATEGIES[i],
                    None => {
                        return Err(bad(
                            format!("{field}.{}", SNR_STRATEGY.name),
                            super::format::quoted("scenario.remediation.strategy", name),
                        ))
                    }
                },
            },
            safe_time_to_assume_node_rebooted: set(
                &SNR_SAFE_TIME_TO_ASSUME_NODE_REBOOTED,
                s.safe_time_to_assume_node_rebooted,
            )?,
        },
        R::KarpenterNodeRepair(k) => Remediator::KarpenterNodeRepair {
            node_repair: switch(&KARPENTER_NODE_REPAIR, k.node_repair),
            conditions: conditions(&KARPENTER_CONDITIONS, &k.unhealthy_conditions, provider, field)?,
            interruption_queue: switch(&KARPENTER_INTERRUPTION_QUEUE, k.interruption_queue),
            interruption_latency: span(&KARPENTER_INTERRUPTION_MESSAGE_LATENCY, k.interruption_message_latency)?,
        },
        R::GkeAutoRepair(g) => Remediator::GkeAutoRepair {
            not_ready_timeout: span(&GKE_NOT_READY_TIMEOUT, g.not_ready_timeout)?,
            drain_timeout: span(&GKE_DRAIN_TIMEOUT, g.drain_timeout)?,
        },
        R::EksNodeAutoRepair(e) => {
            let ready_timeout = span(&EKS_READY_TIMEOUT, e.ready_timeout)?;
            let s = &EKS_MAX_UNHEALTHY_PERCENTAGE;
            let p = e
                .max_unhealthy_percentage
                .map(i64::from)
                .or_else(|| s.default_on(provider).and_then(Value::int))
                .unwrap_or(0);
            s.rule
                .check(Value::Int(p))
                .map_err(|reason| bad(format!("{field}.{}", s.name), reason))?;
            Remediator::EksNodeAutoRepair {
                ready_timeout,
                max_unhealthy_percentage: p as u32,
            }
        }
        R::AksAutoRepair(a) => Remediator::AksAutoRepair {
            detection_delay: span(&AKS_DETECTION_DELAY, a.detection_delay)?,
        },
    })
}

/// Karpenter listed without `nodeRepair: true`: its node health controller runs only behind the
/// `NodeRepair` feature gate (alpha, off by default; karpenter's `--feature-gates`), so the entry
/// repairs nothing. Said unless the entry is there for its interruption queue and sets no repair
/// policy of its own.
fn karpenter_repair_off(r: &RemediationSection, field: &str) -> Option<Cause> {
    let RemediationSection::KarpenterNodeRepair(k) = r else {
        return None;
    };
    let repairs = switch(&table::KARPENTER_NODE_REPAIR, k.node_repair);
    let for_interruptions =
        switch(&table::KARPENTER_INTERRUPTION_QUEUE, k.interruption_queue) && k.unhealthy_conditions.is_none();
    (!repairs && !for_interruptions).then(|| {
        Cause::new("warn.karpenter_node_repair_off")
            .text("field", format!("{field}.{}", table::KARPENTER_NODE_REPAIR.name))
    })
}

/// The remediators, checked: each kind at most once, each managed service's on its own cloud.
/// Karpenter's `interruptionQueue` is AWS's (an SQS queue fed by EventBridge): on Azure it is
/// kept with a warning that nothing reads it.
pub(super) fn resolve_remediation(
    list: &[RemediationSection],
    provider: Option<Provider>,
    warnings: &mut Vec<Cause>,
) -> Result<Vec<Remediator>, ScenarioError> {
    let mut out = Vec::with_capacity(list.len());
    for (i, r) in list.iter().enumerate() {
        let field = format!("remediation[{i}]");
        if let Some(j) = list[..i].iter().position(|o| o.kind() == r.kind()) {
            return Err(bad(
                format!("{field}.kind"),
                Cause::new("scenario.remediation.twice")
                    .text("kind", r.kind())
                    .text("other", format!("remediation[{j}]")),
            ));
        }
        let kind = r.remediator_kind();
        if !kind.runs_on(provider) {
            let names: Vec<&str> = kind.providers().iter().map(|p| p.name()).collect();
            return Err(bad(
                format!("{field}.kind"),
                Cause::new("scenario.remediation.needs_cloud")
                    .text("kind", kind.name())
                    .text("providers", names.join(", ")),
            ));
        }
        out.push(resolve_remediator(r, &field, provider)?);
        if let Some(w) = karpenter_repair_off(r, &field) {
            warnings.push(w);
        }
    }
    // Karpenter's interruption handling (§5.4) is karpenter-provider-aws's.
    let queue = out.iter().any(|r| {
        matches!(
            r,
            Remediator::KarpenterNodeRepair {
                interruption_queue: true,
                ..
            }
        )
    });
    if queue && provider != Some(Provider::Aws) {
        warnings.push(Cause::new("warn.karpenter_interruption_aws_only"));
    }
    Ok(out)
}
