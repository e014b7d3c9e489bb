//! The rules of the `cloud` and `remediation` sections ([`super::cloud`]): defaults applied, every
//! value checked, each managed service's repair on its own cloud.

use super::cloud::{CloudConfig, ConditionCheck, NodeCount, Provider, Remediator, SnrStrategy};
use super::flags::{Rule, Value};
use super::format::{
    bad, quoted, CloudSection, ConditionSection, GoDuration, IntOrString, RemediationSection, ScenarioError,
};
use crate::cause::Cause;
use crate::time::{Millis, HOUR, MINUTE, SECOND};
use crate::version::Version;

/// The resolved `cloud`, with the warnings it calls for.
pub(super) fn resolve_cloud(c: &CloudSection, version: Version) -> Result<CloudConfig, ScenarioError> {
    let span = |v: Option<GoDuration>, default: Millis, name: &str, rule: Rule| -> Result<Millis, ScenarioError> {
        let ms = v.map_or(default, |g| g.0);
        rule.check(Value::Duration(ms))
            .map_err(|reason| bad(format!("cloud.{name}"), reason))?;
        Ok(ms)
    };
    let azure = c.provider == Provider::Azure;
    if c.vm_cache_ttl.is_some() && !azure {
        return Err(bad(
            "cloud.vmCacheTtl",
            Cause::new("scenario.cloud.azure_only").text("provider", c.provider.name()),
        ));
    }
    Ok(CloudConfig {
        provider: c.provider,
        node_monitor_period: span(c.node_monitor_period, 5 * SECOND, "nodeMonitorPeriod", Rule::Positive)?,
        instance_termination_duration: span(
            c.instance_termination_duration,
            30 * SECOND,
            "instanceTerminationDuration",
            Rule::UpTo(HOUR),
        )?,
        instance_stop_duration: span(
            c.instance_stop_duration,
            30 * SECOND,
            "instanceStopDuration",
            Rule::UpTo(HOUR),
        )?,
        instance_deletion_duration: span(
            c.instance_deletion_duration,
            MINUTE,
            "instanceDeletionDuration",
            Rule::UpTo(HOUR),
        )?,
        node_boot_duration: span(c.node_boot_duration, 90 * SECOND, "nodeBootDuration", Rule::UpTo(HOUR))?,
        api_call_duration: span(c.api_call_duration, 100, "apiCallDuration", Rule::UpTo(MINUTE))?,
        vm_cache_ttl: if azure {
            span(c.vm_cache_ttl, 10 * MINUTE, "vmCacheTtl", Rule::UpTo(HOUR))?
        } else {
            0
        },
        // cloud-provider-azure added it in v1.29.0 and backported it to release-1.26 and
        // release-1.27 (PRs #4521, #4522).
        automatic_out_of_service: azure && version.minor >= 26,
    })
}

/// The default condition checks: `Ready` `Unknown` and `False` for `timeout` ("not Ready", as
/// the health checks' defaults and the managed services' repairs say it).
pub(crate) fn ready_checks(timeout: Millis) -> Vec<ConditionCheck> {
    ["Unknown", "False"]
        .iter()
        .map(|s| ConditionCheck {
            kind: "Ready".to_string(),
            status: s.to_string(),
            timeout,
        })
        .collect()
}

fn conditions(
    list: &Option<Vec<ConditionSection>>,
    default: Millis,
    field: &str,
) -> Result<Vec<ConditionCheck>, ScenarioError> {
    let Some(list) = list else {
        return Ok(ready_checks(default));
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
                quoted("scenario.remediation.status", &c.status),
            ));
        }
        Rule::UpTo(24 * HOUR)
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

fn node_count(v: &Option<IntOrString>, default: NodeCount, field: &str) -> Result<NodeCount, ScenarioError> {
    match v {
        None => Ok(default),
        Some(IntOrString::Int(n)) if (0..=100_000).contains(n) => Ok(NodeCount::Int(*n as u32)),
        Some(IntOrString::String(s)) => match s.strip_suffix('%').map(str::parse::<u32>) {
            Some(Ok(p)) if p <= 100 => Ok(NodeCount::Percent(p)),
            _ => Err(bad(field, quoted("scenario.remediation.not_a_count", s))),
        },
        Some(IntOrString::Int(n)) => Err(bad(field, quoted("scenario.remediation.not_a_count", &n.to_string()))),
    }
}

fn span(v: Option<GoDuration>, default: Millis, field: String, max: Millis) -> Result<Millis, ScenarioError> {
    let ms = v.map_or(default, |g| g.0);
    Rule::UpTo(max)
        .check(Value::Duration(ms))
        .map_err(|reason| bad(field, reason))?;
    Ok(ms)
}

/// One remediator, checked.
fn resolve_remediator(
    r: &RemediationSection,
    field: &str,
    provider: Option<Provider>,
) -> Result<Remediator, ScenarioError> {
    use RemediationSection as R;
    let f = |name: &str| format!("{field}.{name}");
    Ok(match r {
        R::MachineHealthCheck(m) => Remediator::MachineHealthCheck {
            conditions: conditions(&m.unhealthy_conditions, 5 * MINUTE, field)?,
            node_startup_timeout: span(m.node_startup_timeout, 10 * MINUTE, f("nodeStartupTimeout"), 24 * HOUR)?,
            max_unhealthy: node_count(&m.max_unhealthy, NodeCount::Percent(100), &f("maxUnhealthy"))?,
            cluster_api_minor: match m.cluster_api_version.as_deref() {
                None => 11,
                Some(v) => match v.strip_prefix("1.").map(str::parse::<u32>) {
                    Some(Ok(minor)) if minor <= 99 => minor,
                    _ => {
                        return Err(bad(
                            f("clusterApiVersion"),
                            quoted("scenario.remediation.capi_version", v),
                        ))
                    }
                },
            },
            replacement_join: m
                .replacement_join_duration
                .map(|d| span(Some(d), 0, f("replacementJoinDuration"), 24 * HOUR))
                .transpose()?,
        },
        R::SelfNodeRemediation(s) => Remediator::SelfNodeRemediation {
            conditions: conditions(&s.unhealthy_conditions, 5 * MINUTE, field)?,
            min_healthy: node_count(&s.min_healthy, NodeCount::Percent(51), &f("minHealthy"))?,
            strategy: match s.strategy.as_deref() {
                None | Some("Automatic") => SnrStrategy::Automatic,
                Some("OutOfServiceTaint") => SnrStrategy::OutOfServiceTaint,
                Some("ResourceDeletion") => SnrStrategy::ResourceDeletion,
                Some(other) => return Err(bad(f("strategy"), quoted("scenario.remediation.strategy", other))),
            },
            safe_time_to_assume_node_rebooted: s
                .safe_time_to_assume_node_rebooted
                .map(|d| span(Some(d), 0, f("safeTimeToAssumeNodeRebooted"), 24 * HOUR))
                .transpose()?,
        },
        R::KarpenterNodeRepair(k) => {
            let default = if provider == Some(Provider::Azure) {
                10 * MINUTE
            } else {
                30 * MINUTE
            };
            Remediator::KarpenterNodeRepair {
                node_repair: k.node_repair.unwrap_or(false),
                conditions: conditions(&k.unhealthy_conditions, default, field)?,
                interruption_queue: k.interruption_queue.unwrap_or(false),
                interruption_latency: span(
                    k.interruption_message_latency,
                    5 * SECOND,
                    f("interruptionMessageLatency"),
                    HOUR,
                )?,
            }
        }
        R::GkeAutoRepair(g) => Remediator::GkeAutoRepair {
            not_ready_timeout: span(g.not_ready_timeout, 10 * MINUTE, f("notReadyTimeout"), 24 * HOUR)?,
            drain_timeout: span(g.drain_timeout, HOUR, f("drainTimeout"), 24 * HOUR)?,
        },
        R::EksNodeAutoRepair(e) => Remediator::EksNodeAutoRepair {
            ready_timeout: span(e.ready_timeout, 30 * MINUTE, f("readyTimeout"), 24 * HOUR)?,
            max_unhealthy_percentage: match e.max_unhealthy_percentage.unwrap_or(20) {
                p @ 0..=100 => p,
                p => return Err(bad(f("maxUnhealthyPercentage"), super::format::between(0, 100, p))),
            },
        },
        R::AksAutoRepair(a) => {
            let delay = a.detection_delay.map_or(10 * MINUTE, |d| d.0);
            if !(5 * MINUTE..=15 * MINUTE).contains(&delay) {
                return Err(bad(
                    f("detectionDelay"),
                    Cause::new("scenario.remediation.aks_delay").time("value", delay),
                ));
            }
            Remediator::AksAutoRepair { detection_delay: delay }
        }
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
        if let Some(needs) = r.needs() {
            if !provider.is_some_and(|p| needs.contains(&p)) {
                let names: Vec<&str> = needs.iter().map(|p| p.name()).collect();
                return Err(bad(
                    format!("{field}.kind"),
                    Cause::new("scenario.remediation.needs_cloud")
                        .text("kind", r.kind())
                        .text("providers", names.join(", ")),
                ));
            }
        }
        out.push(resolve_remediator(r, &field, provider)?);
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
