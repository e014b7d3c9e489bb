//! The cloud and remediator settings, declared once: every field of the scenario's `cloud`
//! section a user can give, and every field of a `remediation` entry.
//!
//! One [`Setting`] per field, shaped like the flag catalogue's [`Flag`](super::flags::Flag): its
//! JSON name and path, its link parameter, its unit, its default (per provider where it differs),
//! the range a control offers, what it applies to (the providers for a `cloud` field, the
//! remediator kind for a `remediation` field) and the rule validation applies, and how to read
//! it from a scenario and write it into one. Which providers each remediator runs on is
//! [`RemediatorKind::providers`]. No setting here depends on the Kubernetes version.
//!
//! Validation and the defaults (`cloud_rules`, which builds the resolved
//! [`CloudConfig`](super::cloud::CloudConfig) and [`Remediator`](super::cloud::Remediator)s),
//! import, the page's controls and links, and docs/scenario-format.md read them here; a default,
//! a range or a rule is written nowhere else. Kubernetes keeps its configuration the same way
//! (`types.go` with `defaults.go` beside it).

use super::cloud::{NodeCount, Provider};
use super::flags::{self, Value};
use super::format::{quoted, ConditionSection, GoDuration, IntOrString, RemediationSection, Scenario};
use crate::cause::Cause;
use crate::time::{parse_go_duration, Millis, HOUR, MINUTE, SECOND};

/// A remediator kind, as a `remediation` entry's `kind` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum RemediatorKind {
    /// Cluster API `MachineHealthCheck`.
    MachineHealthCheck,
    /// medik8s `NodeHealthCheck` with Self Node Remediation.
    SelfNodeRemediation,
    /// Karpenter's node repair and interruption handling.
    KarpenterNodeRepair,
    /// GKE node auto-repair.
    GkeAutoRepair,
    /// EKS node auto repair.
    EksNodeAutoRepair,
    /// AKS node auto-repair.
    AksAutoRepair,
}

impl RemediatorKind {
    /// Every kind, in the order the documents and the page list them.
    pub const ALL: [RemediatorKind; 6] = [
        RemediatorKind::MachineHealthCheck,
        RemediatorKind::SelfNodeRemediation,
        RemediatorKind::KarpenterNodeRepair,
        RemediatorKind::GkeAutoRepair,
        RemediatorKind::EksNodeAutoRepair,
        RemediatorKind::AksAutoRepair,
    ];

    /// The `kind` the scenario writes.
    pub fn name(self) -> &'static str {
        match self {
            RemediatorKind::MachineHealthCheck => "MachineHealthCheck",
            RemediatorKind::SelfNodeRemediation => "SelfNodeRemediation",
            RemediatorKind::KarpenterNodeRepair => "KarpenterNodeRepair",
            RemediatorKind::GkeAutoRepair => "GKEAutoRepair",
            RemediatorKind::EksNodeAutoRepair => "EKSNodeAutoRepair",
            RemediatorKind::AksAutoRepair => "AKSAutoRepair",
        }
    }

    /// The kind a scenario's `kind` names.
    pub fn by_name(name: &str) -> Option<RemediatorKind> {
        RemediatorKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The value of the link's `remediation=` parameter.
    pub fn link(self) -> &'static str {
        match self {
            RemediatorKind::MachineHealthCheck => "mhc",
            RemediatorKind::SelfNodeRemediation => "snr",
            RemediatorKind::KarpenterNodeRepair => "karpenter",
            RemediatorKind::GkeAutoRepair => "gke",
            RemediatorKind::EksNodeAutoRepair => "eks",
            RemediatorKind::AksAutoRepair => "aks",
        }
    }

    /// The kind a link's `remediation=` value names.
    pub fn by_link(link: &str) -> Option<RemediatorKind> {
        RemediatorKind::ALL.into_iter().find(|k| k.link() == link)
    }

    /// The providers it runs on; empty when any will do, bare metal too. A managed service's
    /// repair runs on its own cloud; Karpenter on AWS (karpenter-provider-aws) and Azure
    /// (AKS node auto-provisioning).
    pub fn providers(self) -> &'static [Provider] {
        match self {
            RemediatorKind::GkeAutoRepair => &[Provider::Gcp],
            RemediatorKind::EksNodeAutoRepair => &[Provider::Aws],
            RemediatorKind::AksAutoRepair => &[Provider::Azure],
            RemediatorKind::KarpenterNodeRepair => &[Provider::Aws, Provider::Azure],
            RemediatorKind::MachineHealthCheck | RemediatorKind::SelfNodeRemediation => &[],
        }
    }

    /// Whether it runs on `provider` (`None`: no cloud).
    pub fn runs_on(self, provider: Option<Provider>) -> bool {
        let needs = self.providers();
        needs.is_empty() || provider.is_some_and(|p| needs.contains(&p))
    }

    /// Its settings, in the table's order.
    pub fn settings(self) -> impl Iterator<Item = &'static Setting> {
        ALL.iter()
            .copied()
            .filter(move |s| s.applies == Applies::Remediator(self))
    }

    /// Its unhealthy timeout: the setting of the time a node must be not Ready before it is
    /// repaired (the health checks' `unhealthyConditions`, GKE's `notReadyTimeout`, EKS's
    /// `readyTimeout`, AKS's `detectionDelay`).
    pub fn timeout(self) -> &'static Setting {
        match self {
            RemediatorKind::MachineHealthCheck => &MHC_CONDITIONS,
            RemediatorKind::SelfNodeRemediation => &SNR_CONDITIONS,
            RemediatorKind::KarpenterNodeRepair => &KARPENTER_CONDITIONS,
            RemediatorKind::GkeAutoRepair => &GKE_NOT_READY_TIMEOUT,
            RemediatorKind::EksNodeAutoRepair => &EKS_READY_TIMEOUT,
            RemediatorKind::AksAutoRepair => &AKS_DETECTION_DELAY,
        }
    }

    /// Its breaker, if the user sets one: MachineHealthCheck's `maxUnhealthy`, NodeHealthCheck's
    /// `minHealthy`, EKS's `maxUnhealthyPercentage`.
    pub fn breaker(self) -> Option<&'static Setting> {
        match self {
            RemediatorKind::MachineHealthCheck => Some(&MHC_MAX_UNHEALTHY),
            RemediatorKind::SelfNodeRemediation => Some(&SNR_MIN_HEALTHY),
            RemediatorKind::EksNodeAutoRepair => Some(&EKS_MAX_UNHEALTHY_PERCENTAGE),
            _ => None,
        }
    }
}

impl super::cloud::Remediator {
    /// The resolved remediator's kind.
    pub fn kind(&self) -> RemediatorKind {
        use super::cloud::Remediator as R;
        match self {
            R::MachineHealthCheck { .. } => RemediatorKind::MachineHealthCheck,
            R::SelfNodeRemediation { .. } => RemediatorKind::SelfNodeRemediation,
            R::KarpenterNodeRepair { .. } => RemediatorKind::KarpenterNodeRepair,
            R::GkeAutoRepair { .. } => RemediatorKind::GkeAutoRepair,
            R::EksNodeAutoRepair { .. } => RemediatorKind::EksNodeAutoRepair,
            R::AksAutoRepair { .. } => RemediatorKind::AksAutoRepair,
        }
    }
}

impl RemediationSection {
    /// The kind, as the scenario writes it.
    pub fn kind(&self) -> &'static str {
        self.remediator_kind().name()
    }

    /// The entry's kind.
    pub fn remediator_kind(&self) -> RemediatorKind {
        match self {
            RemediationSection::MachineHealthCheck(_) => RemediatorKind::MachineHealthCheck,
            RemediationSection::SelfNodeRemediation(_) => RemediatorKind::SelfNodeRemediation,
            RemediationSection::KarpenterNodeRepair(_) => RemediatorKind::KarpenterNodeRepair,
            RemediationSection::GkeAutoRepair(_) => RemediatorKind::GkeAutoRepair,
            RemediationSection::EksNodeAutoRepair(_) => RemediatorKind::EksNodeAutoRepair,
            RemediationSection::AksAutoRepair(_) => RemediatorKind::AksAutoRepair,
        }
    }
}

/// What a setting's number means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A span of time: a Go duration in the scenario and the link, seconds on a control.
    Duration,
    /// A percentage of the nodes, 0 to 100 (`"40%"` in the scenario).
    Percent,
    /// A whole number.
    Count,
    /// On or off.
    Switch,
    /// One of these names, by its index (the first is the default).
    Choice(&'static [&'static str]),
    /// A minor version `x` of a 1.x release (`"1.8"` in the scenario).
    Minor,
}

/// What a setting applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applies {
    /// A `cloud` field, read on these providers.
    Cloud {
        /// The providers that read it.
        providers: &'static [Provider],
        /// The message that refuses it on another provider (`{provider}`), if one does.
        refusal: Option<&'static str>,
    },
    /// A field of this remediator's `remediation` entry.
    Remediator(RemediatorKind),
}

/// A setting's default.
#[derive(Debug, Clone, Copy)]
pub enum DefaultValue {
    /// This value.
    Is(Value),
    /// The value on each provider; the first is the one on a provider not listed.
    ByProvider(&'static [(Provider, Value)]),
    /// Another setting's value (the cloud's, or its default without a cloud).
    Follows(&'static Setting),
    /// What the model computes when it is not set (described in the setting's documentation).
    Computed,
}

/// What validation accepts of a value, with the reason it gives otherwise.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rule {
    /// The flag catalogue's rule of a span or a whole number.
    Flag(flags::Rule),
    /// A span from `min` to `max`, refused with the message `key` (`{value}`).
    Window {
        /// The least, ms.
        min: Millis,
        /// The most, ms.
        max: Millis,
        /// The refusal's catalogue key.
        key: &'static str,
    },
    /// A count of nodes up to 100000 or a percentage up to `100%`.
    NodeCount,
    /// One of the unit's choices.
    OneOf,
    /// A Cluster API version `1.x`, `x` up to 99.
    ClusterApiMinor,
    /// Any value of its type.
    Any,
}

/// The most nodes a count may name.
const MAX_NODE_COUNT: i64 = 100_000;

impl Rule {
    /// Why the value `v` breaks the rule, if it does (a span's or a whole number's rule).
    pub fn check(self, v: Value) -> Result<(), Cause> {
        match (self, v) {
            (Rule::Flag(rule), v) => rule.check(v),
            (Rule::Window { min, max, key }, Value::Duration(ms)) if !(min..=max).contains(&ms) => {
                Err(Cause::new(key).time("value", ms))
            }
            _ => Ok(()),
        }
    }

    /// A count or a percentage as the scenario writes it, read.
    pub fn node_count(v: &IntOrString) -> Result<NodeCount, Cause> {
        match v {
            IntOrString::Int(n) if (0..=MAX_NODE_COUNT).contains(n) => Ok(NodeCount::Int(*n as u32)),
            IntOrString::String(s) => match percent(s) {
                Some(p) => Ok(NodeCount::Percent(p)),
                None => Err(quoted("scenario.remediation.not_a_count", s)),
            },
            IntOrString::Int(n) => Err(quoted("scenario.remediation.not_a_count", &n.to_string())),
        }
    }

    /// A Cluster API version (`"1.8"`), as its minor version.
    pub fn cluster_api_minor(v: &str) -> Result<u32, Cause> {
        match v.strip_prefix("1.").map(str::parse::<u32>) {
            Some(Ok(minor)) if minor <= 99 => Ok(minor),
            _ => Err(quoted("scenario.remediation.capi_version", v)),
        }
    }
}

/// A percentage as the scenario writes it (`"40%"`), 0 to 100.
pub fn percent(text: &str) -> Option<u32> {
    text.strip_suffix('%')?.parse().ok().filter(|p| *p <= 100)
}

/// Which field of the scenario holds a setting: one of the `cloud` section's, or one of a
/// remediator's entry. Reading, writing and removing go through one shared function each
/// ([`Setting::get`], [`Setting::put`], [`Setting::clear`]), by the kind of value the field
/// holds, so that a new setting is one variant and one line of [`slot`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// `cloud.nodeMonitorPeriod`.
    NodeMonitorPeriod,
    /// `cloud.instanceTerminationDuration`.
    InstanceTerminationDuration,
    /// `cloud.instanceStopDuration`.
    InstanceStopDuration,
    /// `cloud.instanceDeletionDuration`.
    InstanceDeletionDuration,
    /// `cloud.nodeBootDuration`.
    NodeBootDuration,
    /// `cloud.apiCallDuration`.
    ApiCallDuration,
    /// `cloud.vmCacheTtl`.
    VmCacheTtl,
    /// `cloud.managedNodeGroup`.
    ManagedNodeGroup,
    /// MachineHealthCheck's `unhealthyConditions`.
    MhcConditions,
    /// MachineHealthCheck's `nodeStartupTimeout`.
    MhcNodeStartupTimeout,
    /// MachineHealthCheck's `maxUnhealthy`.
    MhcMaxUnhealthy,
    /// MachineHealthCheck's `clusterApiVersion`.
    MhcClusterApiVersion,
    /// MachineHealthCheck's `replacementJoinDuration`.
    MhcReplacementJoinDuration,
    /// Self Node Remediation's `unhealthyConditions`.
    SnrConditions,
    /// Self Node Remediation's `minHealthy`.
    SnrMinHealthy,
    /// Self Node Remediation's `strategy`.
    SnrStrategy,
    /// Self Node Remediation's `safeTimeToAssumeNodeRebooted`.
    SnrSafeTimeToAssumeNodeRebooted,
    /// Karpenter's `nodeRepair`.
    KarpenterNodeRepair,
    /// Karpenter's `unhealthyConditions`.
    KarpenterConditions,
    /// Karpenter's `interruptionQueue`.
    KarpenterInterruptionQueue,
    /// Karpenter's `interruptionMessageLatency`.
    KarpenterInterruptionMessageLatency,
    /// GKE's `notReadyTimeout`.
    GkeNotReadyTimeout,
    /// GKE's `drainTimeout`.
    GkeDrainTimeout,
    /// EKS's `readyTimeout`.
    EksReadyTimeout,
    /// EKS's `maxUnhealthyPercentage`.
    EksMaxUnhealthyPercentage,
    /// AKS's `detectionDelay`.
    AksDetectionDelay,
}

/// One setting of the `cloud` section or of a remediator.
#[derive(Debug, Clone, Copy)]
pub struct Setting {
    /// The field's JSON name (`nodeBootDuration`, `maxUnhealthy`).
    pub name: &'static str,
    /// Its path in the scenario JSON: `cloud.nodeBootDuration`,
    /// `remediation[MachineHealthCheck].maxUnhealthy`.
    pub path: &'static str,
    /// Its link parameter, in kebab case (`node-boot-duration`). Remediators share one for the
    /// same meaning (`remediation-timeout`, `max-unhealthy`), since a link has one remediator.
    pub link: &'static str,
    /// What its number means.
    pub unit: Unit,
    /// Its default.
    pub default: DefaultValue,
    /// The range a control offers, in the unit's number (seconds for a span).
    pub range: (f64, f64),
    /// What it applies to.
    pub applies: Applies,
    /// What validation accepts.
    pub rule: Rule,
    /// How it is read and written.
    pub access: Access,
}

impl Setting {
    /// The default on `provider` (`None`: no cloud); `None` when the model computes it.
    pub fn default_on(&self, provider: Option<Provider>) -> Option<Value> {
        match self.default {
            DefaultValue::Is(v) => Some(v),
            DefaultValue::ByProvider(list) => list
                .iter()
                .find(|(p, _)| Some(*p) == provider)
                .or(list.first())
                .map(|(_, v)| *v),
            DefaultValue::Follows(other) => other.default_on(provider),
            DefaultValue::Computed => None,
        }
    }

    /// The default span on `provider`, ms; 0 for a setting that is no span or has no default.
    pub fn default_ms(&self, provider: Option<Provider>) -> Millis {
        self.default_on(provider).and_then(Value::millis).unwrap_or(0)
    }

    /// The value the scenario writes, if it writes one in the setting's unit.
    pub fn get(&self, s: &Scenario) -> Option<Value> {
        match slot(s, self.access)? {
            Slot::Span(g) => g.map(|g| Value::Duration(g.0)),
            Slot::Switch(b) => b.map(Value::Bool),
            Slot::Percent(v) => v.as_ref().and_then(percent_of),
            Slot::Whole(n) => n.map(|n| Value::Int(i64::from(n))),
            Slot::Ready(list) => list.as_deref().and_then(ready_timeout_of),
            Slot::Minor(v) => v.as_deref().and_then(minor_of),
            Slot::Choice(v, names) => v.as_deref().and_then(|v| choice_of(v, names)),
        }
    }

    /// Writes a value into the scenario's `cloud` section or its entry of the remediator, if it
    /// has one (a value of another kind is not written).
    pub fn put(&self, s: &mut Scenario, v: Value) {
        match slot_mut(s, self.access) {
            Some(Slot::Span(x)) => put(x, v.millis().map(GoDuration)),
            Some(Slot::Switch(x)) => put(x, v.switch()),
            Some(Slot::Percent(x)) => put(x, percent_to(v)),
            Some(Slot::Whole(x)) => put(x, v.int().map(|i| i.clamp(0, i64::from(u32::MAX)) as u32)),
            Some(Slot::Ready(x)) => put(x, ready_timeout_to(v)),
            Some(Slot::Minor(x)) => put(x, minor_to(v)),
            Some(Slot::Choice(x, names)) => put(x, choice_to(v, names)),
            None => {}
        }
    }

    /// Removes the scenario's value; whether it had one.
    pub fn clear(&self, s: &mut Scenario) -> bool {
        match slot_mut(s, self.access) {
            Some(Slot::Span(x)) => x.take().is_some(),
            Some(Slot::Switch(x)) => x.take().is_some(),
            Some(Slot::Percent(x)) => x.take().is_some(),
            Some(Slot::Whole(x)) => x.take().is_some(),
            Some(Slot::Ready(x)) => x.take().is_some(),
            Some(Slot::Minor(x) | Slot::Choice(x, _)) => x.take().is_some(),
            None => false,
        }
    }

    /// The whole list of condition checks this setting reads (a remediator's
    /// `unhealthyConditions`), if the scenario writes one; `None` for any other setting.
    pub fn conditions<'a>(&self, s: &'a Scenario) -> Option<&'a [ConditionSection]> {
        match slot(s, self.access)? {
            Slot::Ready(list) => list.as_deref(),
            _ => None,
        }
    }

    /// [`Setting::conditions`], to change in place.
    pub fn conditions_mut<'a>(&self, s: &'a mut Scenario) -> Option<&'a mut Vec<ConditionSection>> {
        match slot_mut(s, self.access)? {
            Slot::Ready(list) => list.as_mut(),
            _ => None,
        }
    }

    /// The JSON name of the field it reads in its section (`nodeStartupTimeout`,
    /// `unhealthyConditions`): its path's first step after the section.
    pub fn field(&self) -> &'static str {
        let after = self.path.split_once("].").or_else(|| self.path.split_once('.'));
        after.map_or(self.path, |(_, f)| f.split(['.', '[']).next().unwrap_or(f))
    }

    /// The value the scenario writes, or else the default on its provider.
    pub fn get_or_default(&self, s: &Scenario) -> Option<Value> {
        self.get(s)
            .or_else(|| self.default_on(s.cloud.as_ref().map(|c| c.provider)))
    }

    /// Whether it applies where the scenario runs: a `cloud` field on its providers, a
    /// remediator's field when the scenario lists the remediator.
    pub fn applies_to(&self, s: &Scenario) -> bool {
        match self.applies {
            Applies::Cloud { providers, .. } => s.cloud.as_ref().is_some_and(|c| providers.contains(&c.provider)),
            Applies::Remediator(kind) => s.remediation.iter().any(|r| r.remediator_kind() == kind),
        }
    }

    /// The value of a number in the unit (seconds for a span, rounded to whole milliseconds;
    /// a switch on above one half; the others rounded).
    pub fn value_of(&self, x: f64) -> Value {
        match self.unit {
            Unit::Duration => Value::Duration((x * SECOND as f64).round() as Millis),
            Unit::Switch => Value::Bool(x > 0.5),
            Unit::Percent | Unit::Count | Unit::Choice(_) | Unit::Minor => Value::Int(x.round() as i64),
        }
    }

    /// The value as the link writes it (and the scenario, but for EKS's percentage, a number
    /// there): a Go duration, `40%`, a number, `true`, a choice's name, `1.8`.
    pub fn text(&self, v: Value) -> String {
        match (self.unit, v) {
            (Unit::Percent, Value::Int(p)) => format!("{p}%"),
            (Unit::Choice(names), Value::Int(i)) => names
                .get(usize::try_from(i).unwrap_or(usize::MAX))
                .map_or_else(|| i.to_string(), |n| (*n).to_string()),
            (Unit::Minor, Value::Int(m)) => format!("1.{m}"),
            _ => v.to_string(),
        }
    }

    /// The value [`Setting::text`] writes, read back (a percentage with or without its `%`);
    /// `None` for text of another form. Whether it is accepted is [`Setting::check`]'s.
    pub fn parse(&self, text: &str) -> Option<Value> {
        match self.unit {
            Unit::Duration => parse_go_duration(text).ok().map(Value::Duration),
            Unit::Percent => text.strip_suffix('%').unwrap_or(text).parse().ok().map(Value::Int),
            Unit::Count => text.parse().ok().map(Value::Int),
            Unit::Switch => text.parse().ok().map(Value::Bool),
            Unit::Choice(names) => names.iter().position(|n| *n == text).map(|i| Value::Int(i as i64)),
            Unit::Minor => Rule::cluster_api_minor(text).ok().map(|m| Value::Int(i64::from(m))),
        }
    }

    /// Why validation refuses the value, if it does, with the message it gives: the rule's,
    /// a percentage outside 0% to 100%, a choice or a minor version out of the list.
    pub fn check(&self, v: Value) -> Result<(), Cause> {
        match (self.rule, self.unit, v) {
            (Rule::NodeCount, _, Value::Int(p)) if !(0..=100).contains(&p) => {
                Err(quoted("scenario.remediation.not_a_count", &format!("{p}%")))
            }
            (Rule::OneOf, Unit::Choice(names), Value::Int(i))
                if usize::try_from(i).map_or(true, |i| i >= names.len()) =>
            {
                let key = match self.access {
                    Access::ManagedNodeGroup => "scenario.cloud.managed_node_group",
                    _ => "scenario.remediation.strategy",
                };
                Err(quoted(key, &i.to_string()))
            }
            (Rule::ClusterApiMinor, _, Value::Int(m)) if !(0..=99).contains(&m) => {
                Err(quoted("scenario.remediation.capi_version", &format!("1.{m}")))
            }
            (rule, _, v) => rule.check(v),
        }
    }
}

/// The setting at a scenario path (`cloud.nodeBootDuration`,
/// `remediation[MachineHealthCheck].maxUnhealthy`).
pub fn by_path(path: &str) -> Option<&'static Setting> {
    ALL.iter().copied().find(|s| s.path == path)
}

/// A remediator's setting called `name`.
pub fn of(kind: RemediatorKind, name: &str) -> Option<&'static Setting> {
    kind.settings().find(|s| s.name == name)
}

/// The `cloud` field called `name`.
pub fn cloud(name: &str) -> Option<&'static Setting> {
    ALL.iter()
        .copied()
        .find(|s| s.name == name && matches!(s.applies, Applies::Cloud { .. }))
}

/// The settings a link parameter names: one `cloud` field, or one field of each remediator
/// that has it.
pub fn by_link(link: &str) -> impl Iterator<Item = &'static Setting> + '_ {
    ALL.iter().copied().filter(move |s| s.link == link)
}

/// The settings read on every provider: each `cloud` duration but Azure's VM cache.
const EVERY_CLOUD: Applies = Applies::Cloud {
    providers: &Provider::ALL,
    refusal: None,
};

/// A `cloud` span read on every provider, with a control from 0 to `max` seconds.
const CLOUD_SPAN: Setting = Setting {
    name: "",
    path: "",
    link: "",
    unit: Unit::Duration,
    default: DefaultValue::Computed,
    range: (0.0, 600.0),
    applies: EVERY_CLOUD,
    rule: Rule::Flag(flags::Rule::UpTo(HOUR)),
    access: Access::NodeMonitorPeriod,
};

/// `cloud.nodeMonitorPeriod`: the cloud-controller-manager's `--node-monitor-period`, the
/// sliding period of its `MonitorNodes` (`SetDefaults_KubeCloudSharedConfiguration`: 5s). Its
/// link parameter says whose, since kube-controller-manager has a flag of the same name.
pub static NODE_MONITOR_PERIOD: Setting = Setting {
    name: "nodeMonitorPeriod",
    path: "cloud.nodeMonitorPeriod",
    link: "cloud-node-monitor-period",
    default: DefaultValue::Is(Value::Duration(5 * SECOND)),
    range: (1.0, 60.0),
    rule: Rule::Flag(flags::Rule::Positive),
    access: Access::NodeMonitorPeriod,
    ..CLOUD_SPAN
};

/// `cloud.instanceTerminationDuration` (`E`): a termination until the provider reports the
/// instance gone.
const INSTANCE_TERMINATION_DURATION_DECL: Setting = Setting {
    name: "instanceTerminationDuration",
    path: "cloud.instanceTerminationDuration",
    link: "instance-termination-duration",
    default: DefaultValue::Is(Value::Duration(30 * SECOND)),
    access: Access::InstanceTerminationDuration,
    ..CLOUD_SPAN
};

/// The declaration above, as the one copy that the table and every reader share (other
/// settings start from the declaration).
pub static INSTANCE_TERMINATION_DURATION: Setting = INSTANCE_TERMINATION_DURATION_DECL;

/// `cloud.instanceStopDuration`: a stop until the provider reports the instance stopped.
pub static INSTANCE_STOP_DURATION: Setting = Setting {
    name: "instanceStopDuration",
    path: "cloud.instanceStopDuration",
    link: "instance-stop-duration",
    access: Access::InstanceStopDuration,
    ..INSTANCE_TERMINATION_DURATION_DECL
};

/// `cloud.instanceDeletionDuration` (`V`): a remediator's deletion of a machine until the VM is
/// gone.
pub static INSTANCE_DELETION_DURATION: Setting = Setting {
    name: "instanceDeletionDuration",
    path: "cloud.instanceDeletionDuration",
    link: "instance-deletion-duration",
    default: DefaultValue::Is(Value::Duration(MINUTE)),
    access: Access::InstanceDeletionDuration,
    ..CLOUD_SPAN
};

/// `cloud.nodeBootDuration` (`B`): a new or rebooted instance's boot until its kubelet
/// registers; also the boot without a cloud.
pub static NODE_BOOT_DURATION: Setting = Setting {
    name: "nodeBootDuration",
    path: "cloud.nodeBootDuration",
    link: "node-boot-duration",
    default: DefaultValue::Is(Value::Duration(90 * SECOND)),
    range: (10.0, 900.0),
    access: Access::NodeBootDuration,
    ..CLOUD_SPAN
};

/// `cloud.apiCallDuration`: one cloud API call of a `MonitorNodes` pass (cloud-provider-aws's
/// DescribeInstances batcher waits its `IdleTimeout` of 100ms before each call).
pub static API_CALL_DURATION: Setting = Setting {
    name: "apiCallDuration",
    path: "cloud.apiCallDuration",
    link: "api-call-duration",
    default: DefaultValue::Is(Value::Duration(100)),
    range: (0.0, 5.0),
    rule: Rule::Flag(flags::Rule::UpTo(MINUTE)),
    access: Access::ApiCallDuration,
    ..CLOUD_SPAN
};

/// `cloud.vmCacheTtl`, Azure only: the VM cache's TTL (`vmssVirtualMachinesCacheTTLInSeconds`,
/// 600 s), so a stop or a deletion is seen up to this late.
pub static VM_CACHE_TTL: Setting = Setting {
    name: "vmCacheTtl",
    path: "cloud.vmCacheTtl",
    link: "vm-cache-ttl",
    default: DefaultValue::Is(Value::Duration(10 * MINUTE)),
    range: (0.0, 1800.0),
    applies: Applies::Cloud {
        providers: &[Provider::Azure],
        refusal: Some("scenario.cloud.azure_only"),
    },
    access: Access::VmCacheTtl,
    ..CLOUD_SPAN
};

/// `cloud.managedNodeGroup`, AWS only: the capacity type of the EKS managed node group the
/// nodes are in (`eks.amazonaws.com/capacityType`), for nodes without that label of their own:
/// `none` (self-managed instances, or Karpenter's), `ON_DEMAND` or `SPOT`. In a managed node
/// group the Auto Scaling group launches an instance for a terminated one; a Spot group is
/// drained on the two-minute interruption notice and launches its replacement then (the EKS
/// user guide, "Managed node group capacity types"; `control_plane::node_group`).
pub static MANAGED_NODE_GROUP: Setting = Setting {
    name: "managedNodeGroup",
    path: "cloud.managedNodeGroup",
    link: "managed-node-group",
    unit: Unit::Choice(MANAGED_NODE_GROUPS),
    default: DefaultValue::Is(Value::Int(0)),
    range: (0.0, (MANAGED_NODE_GROUPS.len() - 1) as f64),
    applies: Applies::Cloud {
        providers: &[Provider::Aws],
        refusal: Some("scenario.cloud.aws_only"),
    },
    rule: Rule::OneOf,
    access: Access::ManagedNodeGroup,
};

/// `cloud.managedNodeGroup`'s values, as the scenario writes them; the first is the default.
pub const MANAGED_NODE_GROUPS: &[&str] = &["none", "ON_DEMAND", "SPOT"];

/// A setting's field in a scenario, by the kind of value it holds (`&` or `&mut`).
enum Slot<Span, Switch, Percent, Whole, Ready, Text> {
    /// A span.
    Span(Span),
    /// A switch.
    Switch(Switch),
    /// A count or a percentage; a percentage is the unit's value.
    Percent(Percent),
    /// A whole number.
    Whole(Whole),
    /// A list of condition checks, whose `Ready` timeout is the value.
    Ready(Ready),
    /// A Cluster API version `1.x`.
    Minor(Text),
    /// One of these names (the value is its index).
    Choice(Text, &'static [&'static str]),
}

/// The field `$access` of the scenario `$s`, borrowed with `$as`/`$iter` (`as_ref`, `iter` to
/// read; `as_mut`, `iter_mut` and `mut` to write): in its `cloud` section, or in its first entry
/// of the remediator, if it has one. Written once for both borrows.
macro_rules! slot {
    ($s:expr, $access:expr, $as:ident, $iter:ident, $Slot:ident, $($m:tt)?) => {{
        use Access as A;
        use RemediationSection as R;
        let (s, access) = ($s, $access);
        let cloud = s.cloud.$as().and_then(|c| {
            Some(match access {
                A::NodeMonitorPeriod => $Slot::Span(&$($m)? c.node_monitor_period),
                A::InstanceTerminationDuration => $Slot::Span(&$($m)? c.instance_termination_duration),
                A::InstanceStopDuration => $Slot::Span(&$($m)? c.instance_stop_duration),
                A::InstanceDeletionDuration => $Slot::Span(&$($m)? c.instance_deletion_duration),
                A::NodeBootDuration => $Slot::Span(&$($m)? c.node_boot_duration),
                A::ApiCallDuration => $Slot::Span(&$($m)? c.api_call_duration),
                A::VmCacheTtl => $Slot::Span(&$($m)? c.vm_cache_ttl),
                A::ManagedNodeGroup => $Slot::Choice(&$($m)? c.managed_node_group, MANAGED_NODE_GROUPS),
                _ => return None,
            })
        });
        match cloud {
            Some(x) => Some(x),
            None => s.remediation.$iter().find_map(|r| {
                Some(match (r, access) {
                    (R::MachineHealthCheck(x), A::MhcConditions) => $Slot::Ready(&$($m)? x.unhealthy_conditions),
                    (R::MachineHealthCheck(x), A::MhcNodeStartupTimeout) => $Slot::Span(&$($m)? x.node_startup_timeout),
                    (R::MachineHealthCheck(x), A::MhcMaxUnhealthy) => $Slot::Percent(&$($m)? x.max_unhealthy),
                    (R::MachineHealthCheck(x), A::MhcClusterApiVersion) => $Slot::Minor(&$($m)? x.cluster_api_version),
                    (R::MachineHealthCheck(x), A::MhcReplacementJoinDuration) => {
                        $Slot::Span(&$($m)? x.replacement_join_duration)
                    }
                    (R::SelfNodeRemediation(x), A::SnrConditions) => $Slot::Ready(&$($m)? x.unhealthy_conditions),
                    (R::SelfNodeRemediation(x), A::SnrMinHealthy) => $Slot::Percent(&$($m)? x.min_healthy),
                    (R::SelfNodeRemediation(x), A::SnrStrategy) => $Slot::Choice(&$($m)? x.strategy, SNR_STRATEGIES),
                    (R::SelfNodeRemediation(x), A::SnrSafeTimeToAssumeNodeRebooted) => {
                        $Slot::Span(&$($m)? x.safe_time_to_assume_node_rebooted)
                    }
                    (R::KarpenterNodeRepair(x), A::KarpenterNodeRepair) => $Slot::Switch(&$($m)? x.node_repair),
                    (R::KarpenterNodeRepair(x), A::KarpenterConditions) => $Slot::Ready(&$($m)? x.unhealthy_conditions),
                    (R::KarpenterNodeRepair(x), A::KarpenterInterruptionQueue) => {
                        $Slot::Switch(&$($m)? x.interruption_queue)
                    }
                    (R::KarpenterNodeRepair(x), A::KarpenterInterruptionMessageLatency) => {
                        $Slot::Span(&$($m)? x.interruption_message_latency)
                    }
                    (R::GkeAutoRepair(x), A::GkeNotReadyTimeout) => $Slot::Span(&$($m)? x.not_ready_timeout),
                    (R::GkeAutoRepair(x), A::GkeDrainTimeout) => $Slot::Span(&$($m)? x.drain_timeout),
                    (R::EksNodeAutoRepair(x), A::EksReadyTimeout) => $Slot::Span(&$($m)? x.ready_timeout),
                    (R::EksNodeAutoRepair(x), A::EksMaxUnhealthyPercentage) => {
                        $Slot::Whole(&$($m)? x.max_unhealthy_percentage)
                    }
                    (R::AksAutoRepair(x), A::AksDetectionDelay) => $Slot::Span(&$($m)? x.detection_delay),
                    _ => return None,
                })
            }),
        }
    }};
}

/// A setting's field, to read.
type SlotRef<'a> = Slot<
    &'a Option<GoDuration>,
    &'a Option<bool>,
    &'a Option<IntOrString>,
    &'a Option<u32>,
    &'a Option<Vec<ConditionSection>>,
    &'a Option<String>,
>;

/// A setting's field, to write.
type SlotMut<'a> = Slot<
    &'a mut Option<GoDuration>,
    &'a mut Option<bool>,
    &'a mut Option<IntOrString>,
    &'a mut Option<u32>,
    &'a mut Option<Vec<ConditionSection>>,
    &'a mut Option<String>,
>;

/// The field `access` names in the scenario, to read.
fn slot(s: &Scenario, access: Access) -> Option<SlotRef<'_>> {
    slot!(s, access, as_ref, iter, Slot,)
}

/// The field `access` names in the scenario, to write (one copy for writing and removing).
fn slot_mut(s: &mut Scenario, access: Access) -> Option<SlotMut<'_>> {
    slot!(s, access, as_mut, iter_mut, Slot, mut)
}

/// Writes `value` into `field` if there is one.
fn put<T>(field: &mut Option<T>, value: Option<T>) {
    if value.is_some() {
        *field = value;
    }
}

/// A percentage (a count is no value of the unit).
fn percent_of(v: &IntOrString) -> Option<Value> {
    match v {
        IntOrString::String(s) => percent(s).map(|p| Value::Int(i64::from(p))),
        IntOrString::Int(_) => None,
    }
}

fn percent_to(v: Value) -> Option<IntOrString> {
    v.int().map(|p| IntOrString::String(format!("{}%", p.clamp(0, 100))))
}

/// The first `Ready` condition's timeout.
fn ready_timeout_of(list: &[ConditionSection]) -> Option<Value> {
    list.iter()
        .find(|c| c.kind == "Ready")
        .map(|c| Value::Duration(c.timeout.0))
}

/// The statuses of `Ready` a remediator's timeout stands for: its default checks, and what the
/// link's `remediation-timeout=` writes (not Ready, as the health checks' defaults and the
/// managed services' repairs say it).
pub const READY_STATUSES: [&str; 2] = ["Unknown", "False"];

/// `Ready` [`READY_STATUSES`] for the span: the conditions a timeout stands for.
fn ready_timeout_to(v: Value) -> Option<Vec<ConditionSection>> {
    let ms = v.millis()?;
    let check = |status: &str| ConditionSection {
        kind: "Ready".to_string(),
        status: status.to_string(),
        timeout: GoDuration(ms),
    };
    Some(READY_STATUSES.into_iter().map(check).collect())
}

fn minor_of(v: &str) -> Option<Value> {
    Rule::cluster_api_minor(v).ok().map(|m| Value::Int(i64::from(m)))
}

fn minor_to(v: Value) -> Option<String> {
    v.int().map(|m| format!("1.{}", m.clamp(0, 99)))
}

/// Self Node Remediation's strategies, as the scenario writes them; the first is the default.
pub const SNR_STRATEGIES: &[&str] = &["Automatic", "OutOfServiceTaint", "ResourceDeletion"];

/// A choice's name, as its index.
fn choice_of(v: &str, names: &[&str]) -> Option<Value> {
    names.iter().position(|s| *s == v).map(|i| Value::Int(i as i64))
}

/// The name of the choice at the value's index.
fn choice_to(v: Value, names: &[&str]) -> Option<String> {
    let i = usize::try_from(v.int()?).ok()?;
    names.get(i).map(|s| (*s).to_string())
}

/// The longest span a remediator's timeout may be.
const DAY: Millis = 24 * HOUR;

/// A remediator's span, from 0s up to a day, with a control up to an hour.
const REMEDIATOR_SPAN: Setting = Setting {
    name: "",
    path: "",
    link: "",
    unit: Unit::Duration,
    default: DefaultValue::Computed,
    range: (0.0, 3600.0),
    applies: Applies::Remediator(RemediatorKind::MachineHealthCheck),
    rule: Rule::Flag(flags::Rule::UpTo(DAY)),
    access: Access::MhcNodeStartupTimeout,
};

/// A percentage breaker.
const BREAKER: Setting = Setting {
    unit: Unit::Percent,
    range: (0.0, 100.0),
    rule: Rule::NodeCount,
    ..REMEDIATOR_SPAN
};

/// MachineHealthCheck's `unhealthyConditions`: `Ready` `Unknown` and `False` for 5m0s (the
/// Cluster API book's example); the link and a control set the `Ready` checks' timeout.
const MHC_CONDITIONS_DECL: Setting = Setting {
    name: "unhealthyConditions",
    path: "remediation[MachineHealthCheck].unhealthyConditions[].timeout",
    link: "remediation-timeout",
    default: DefaultValue::Is(Value::Duration(5 * MINUTE)),
    access: Access::MhcConditions,
    ..REMEDIATOR_SPAN
};

/// The declaration above, as the one copy that the table and every reader share (other
/// settings start from the declaration).
pub static MHC_CONDITIONS: Setting = MHC_CONDITIONS_DECL;

/// MachineHealthCheck's `nodeStartupTimeout`: a Machine without a Node this long is remediated
/// (Cluster API's default 10m0s; `0s` turns it off).
pub static MHC_NODE_STARTUP_TIMEOUT: Setting = Setting {
    name: "nodeStartupTimeout",
    path: "remediation[MachineHealthCheck].nodeStartupTimeout",
    link: "node-startup-timeout",
    default: DefaultValue::Is(Value::Duration(10 * MINUTE)),
    access: Access::MhcNodeStartupTimeout,
    ..REMEDIATOR_SPAN
};

/// MachineHealthCheck's `maxUnhealthy`: a count or a percentage of the machines, 100% by
/// default (no limit).
pub static MHC_MAX_UNHEALTHY: Setting = Setting {
    name: "maxUnhealthy",
    path: "remediation[MachineHealthCheck].maxUnhealthy",
    link: "max-unhealthy",
    default: DefaultValue::Is(Value::Int(100)),
    access: Access::MhcMaxUnhealthy,
    ..BREAKER
};

/// Cluster API's version (`"1.8"`): an unreachable node's drain changed in 1.8. The default is
/// the newest release modelled, 1.11.
pub static MHC_CLUSTER_API_VERSION: Setting = Setting {
    name: "clusterApiVersion",
    path: "remediation[MachineHealthCheck].clusterApiVersion",
    link: "cluster-api-version",
    unit: Unit::Minor,
    default: DefaultValue::Is(Value::Int(11)),
    range: (4.0, 11.0),
    rule: Rule::ClusterApiMinor,
    access: Access::MhcClusterApiVersion,
    ..REMEDIATOR_SPAN
};

/// A replacement Machine's creation until its Node registers: the cloud's `nodeBootDuration`
/// unless set.
pub static MHC_REPLACEMENT_JOIN_DURATION: Setting = Setting {
    name: "replacementJoinDuration",
    path: "remediation[MachineHealthCheck].replacementJoinDuration",
    link: "replacement-join-duration",
    default: DefaultValue::Follows(&NODE_BOOT_DURATION),
    access: Access::MhcReplacementJoinDuration,
    ..REMEDIATOR_SPAN
};

/// The NodeHealthCheck's `unhealthyConditions`: `Ready` `False` and `Unknown` for 5m0s, as
/// Cluster API's.
pub static SNR_CONDITIONS: Setting = Setting {
    path: "remediation[SelfNodeRemediation].unhealthyConditions[].timeout",
    applies: Applies::Remediator(RemediatorKind::SelfNodeRemediation),
    default: DefaultValue::Follows(&MHC_CONDITIONS),
    access: Access::SnrConditions,
    ..MHC_CONDITIONS_DECL
};

/// The NodeHealthCheck's `minHealthy`: a count or a percentage of the nodes, 51% by default.
pub static SNR_MIN_HEALTHY: Setting = Setting {
    name: "minHealthy",
    path: "remediation[SelfNodeRemediation].minHealthy",
    link: "min-healthy",
    default: DefaultValue::Is(Value::Int(51)),
    applies: Applies::Remediator(RemediatorKind::SelfNodeRemediation),
    access: Access::SnrMinHealthy,
    ..BREAKER
};

/// Self Node Remediation's strategy: `Automatic` (`OutOfServiceTaint` on 1.28+, else
/// `ResourceDeletion`), `OutOfServiceTaint` or `ResourceDeletion`.
pub static SNR_STRATEGY: Setting = Setting {
    name: "strategy",
    path: "remediation[SelfNodeRemediation].strategy",
    link: "strategy",
    unit: Unit::Choice(SNR_STRATEGIES),
    default: DefaultValue::Is(Value::Int(0)),
    range: (0.0, (SNR_STRATEGIES.len() - 1) as f64),
    applies: Applies::Remediator(RemediatorKind::SelfNodeRemediation),
    rule: Rule::OneOf,
    access: Access::SnrStrategy,
};

/// `safeTimeToAssumeNodeRebootedSeconds`, as a span: unless set, the computed minimum (180s for
/// up to six workers with the 60 s watchdog); a lower value is ignored, as upstream does.
pub static SNR_SAFE_TIME_TO_ASSUME_NODE_REBOOTED: Setting = Setting {
    name: "safeTimeToAssumeNodeRebooted",
    path: "remediation[SelfNodeRemediation].safeTimeToAssumeNodeRebooted",
    link: "safe-time-to-assume-node-rebooted",
    applies: Applies::Remediator(RemediatorKind::SelfNodeRemediation),
    access: Access::SnrSafeTimeToAssumeNodeRebooted,
    ..REMEDIATOR_SPAN
};

/// Karpenter's `NodeRepair` feature gate (alpha, off by default).
const KARPENTER_NODE_REPAIR_DECL: Setting = Setting {
    name: "nodeRepair",
    path: "remediation[KarpenterNodeRepair].nodeRepair",
    link: "node-repair",
    unit: Unit::Switch,
    default: DefaultValue::Is(Value::Bool(false)),
    range: (0.0, 1.0),
    applies: Applies::Remediator(RemediatorKind::KarpenterNodeRepair),
    rule: Rule::Any,
    access: Access::KarpenterNodeRepair,
};

/// The declaration above, as the one copy that the table and every reader share (other
/// settings start from the declaration).
pub static KARPENTER_NODE_REPAIR: Setting = KARPENTER_NODE_REPAIR_DECL;

/// Karpenter's repair policies (the cloud provider's `RepairPolicies`): `Ready` `False` and
/// `Unknown` for 30m0s on AWS, 10m0s on Azure.
pub static KARPENTER_CONDITIONS: Setting = Setting {
    path: "remediation[KarpenterNodeRepair].unhealthyConditions[].timeout",
    default: DefaultValue::ByProvider(&[
        (Provider::Aws, Value::Duration(30 * MINUTE)),
        (Provider::Azure, Value::Duration(10 * MINUTE)),
    ]),
    applies: Applies::Remediator(RemediatorKind::KarpenterNodeRepair),
    access: Access::KarpenterConditions,
    ..MHC_CONDITIONS_DECL
};

/// Karpenter's `--interruption-queue` (AWS): it acts on EC2's Spot warnings and state changes.
pub static KARPENTER_INTERRUPTION_QUEUE: Setting = Setting {
    name: "interruptionQueue",
    path: "remediation[KarpenterNodeRepair].interruptionQueue",
    link: "interruption-queue",
    access: Access::KarpenterInterruptionQueue,
    ..KARPENTER_NODE_REPAIR_DECL
};

/// The instance event until Karpenter acts on its SQS message (EventBridge's delivery and the
/// long poll).
pub static KARPENTER_INTERRUPTION_MESSAGE_LATENCY: Setting = Setting {
    name: "interruptionMessageLatency",
    path: "remediation[KarpenterNodeRepair].interruptionMessageLatency",
    link: "interruption-message-latency",
    default: DefaultValue::Is(Value::Duration(5 * SECOND)),
    range: (0.0, 60.0),
    applies: Applies::Remediator(RemediatorKind::KarpenterNodeRepair),
    rule: Rule::Flag(flags::Rule::UpTo(HOUR)),
    access: Access::KarpenterInterruptionMessageLatency,
    ..REMEDIATOR_SPAN
};

/// GKE's not-Ready time before a repair ("approximately 10 minutes").
const GKE_NOT_READY_TIMEOUT_DECL: Setting = Setting {
    name: "notReadyTimeout",
    path: "remediation[GKEAutoRepair].notReadyTimeout",
    link: "remediation-timeout",
    default: DefaultValue::Is(Value::Duration(10 * MINUTE)),
    applies: Applies::Remediator(RemediatorKind::GkeAutoRepair),
    access: Access::GkeNotReadyTimeout,
    ..REMEDIATOR_SPAN
};

/// The declaration above, as the one copy that the table and every reader share (other
/// settings start from the declaration).
pub static GKE_NOT_READY_TIMEOUT: Setting = GKE_NOT_READY_TIMEOUT_DECL;

/// How long GKE's repair waits for the drain (one hour).
pub static GKE_DRAIN_TIMEOUT: Setting = Setting {
    name: "drainTimeout",
    path: "remediation[GKEAutoRepair].drainTimeout",
    link: "drain-timeout",
    default: DefaultValue::Is(Value::Duration(HOUR)),
    range: (0.0, 7200.0),
    access: Access::GkeDrainTimeout,
    ..GKE_NOT_READY_TIMEOUT_DECL
};

/// EKS's not-Ready time before a replacement (30 minutes).
pub static EKS_READY_TIMEOUT: Setting = Setting {
    name: "readyTimeout",
    path: "remediation[EKSNodeAutoRepair].readyTimeout",
    link: "remediation-timeout",
    default: DefaultValue::Is(Value::Duration(30 * MINUTE)),
    applies: Applies::Remediator(RemediatorKind::EksNodeAutoRepair),
    access: Access::EksReadyTimeout,
    ..REMEDIATOR_SPAN
};

/// EKS's breaker: no repair in a group of more than five nodes with more than this percentage
/// of them unhealthy (20).
pub static EKS_MAX_UNHEALTHY_PERCENTAGE: Setting = Setting {
    name: "maxUnhealthyPercentage",
    path: "remediation[EKSNodeAutoRepair].maxUnhealthyPercentage",
    link: "max-unhealthy",
    default: DefaultValue::Is(Value::Int(20)),
    applies: Applies::Remediator(RemediatorKind::EksNodeAutoRepair),
    rule: Rule::Flag(flags::Rule::Whole(0, 100)),
    access: Access::EksMaxUnhealthyPercentage,
    ..BREAKER
};

/// AKS's detection: from not Ready to the first reboot, 5 to 15 minutes.
const AKS_WINDOW: (Millis, Millis) = (5 * MINUTE, 15 * MINUTE);

/// AKS's time from `Ready` not True to the first reboot: 10 minutes, within its 5 to 15.
pub static AKS_DETECTION_DELAY: Setting = Setting {
    name: "detectionDelay",
    path: "remediation[AKSAutoRepair].detectionDelay",
    link: "remediation-timeout",
    default: DefaultValue::Is(Value::Duration(10 * MINUTE)),
    range: (AKS_WINDOW.0 as f64 / SECOND as f64, AKS_WINDOW.1 as f64 / SECOND as f64),
    applies: Applies::Remediator(RemediatorKind::AksAutoRepair),
    rule: Rule::Window {
        min: AKS_WINDOW.0,
        max: AKS_WINDOW.1,
        key: "scenario.remediation.aks_delay",
    },
    access: Access::AksDetectionDelay,
    ..REMEDIATOR_SPAN
};

/// Every setting: the `cloud` fields, then each remediator's in [`RemediatorKind::ALL`]'s order.
pub static ALL: [&Setting; 26] = [
    &NODE_MONITOR_PERIOD,
    &INSTANCE_TERMINATION_DURATION,
    &INSTANCE_STOP_DURATION,
    &INSTANCE_DELETION_DURATION,
    &NODE_BOOT_DURATION,
    &API_CALL_DURATION,
    &VM_CACHE_TTL,
    &MANAGED_NODE_GROUP,
    &MHC_CONDITIONS,
    &MHC_NODE_STARTUP_TIMEOUT,
    &MHC_MAX_UNHEALTHY,
    &MHC_CLUSTER_API_VERSION,
    &MHC_REPLACEMENT_JOIN_DURATION,
    &SNR_CONDITIONS,
    &SNR_MIN_HEALTHY,
    &SNR_STRATEGY,
    &SNR_SAFE_TIME_TO_ASSUME_NODE_REBOOTED,
    &KARPENTER_NODE_REPAIR,
    &KARPENTER_CONDITIONS,
    &KARPENTER_INTERRUPTION_QUEUE,
    &KARPENTER_INTERRUPTION_MESSAGE_LATENCY,
    &GKE_NOT_READY_TIMEOUT,
    &GKE_DRAIN_TIMEOUT,
    &EKS_READY_TIMEOUT,
    &EKS_MAX_UNHEALTHY_PERCENTAGE,
    &AKS_DETECTION_DELAY,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_unique_and_links_are_kebab_case() {
        for (i, s) in ALL.iter().enumerate() {
            assert!(ALL[i + 1..].iter().all(|o| o.path != s.path), "{}", s.path);
            assert!(s.link.chars().all(|c| c.is_ascii_lowercase() || c == '-'), "{}", s.link);
            assert_eq!(by_path(s.path).map(|o| o.name), Some(s.name));
        }
        // A link parameter names one setting of a remediator at most.
        for kind in RemediatorKind::ALL {
            let links: Vec<&str> = kind.settings().map(|s| s.link).collect();
            for (i, l) in links.iter().enumerate() {
                assert!(!links[i + 1..].contains(l), "{} {l}", kind.name());
            }
        }
    }

    #[test]
    fn defaults_follow_the_provider_and_other_settings() {
        let ms = |s: &Setting, p| s.default_ms(p);
        assert_eq!(ms(&KARPENTER_CONDITIONS, Some(Provider::Azure)), 10 * MINUTE);
        assert_eq!(ms(&KARPENTER_CONDITIONS, Some(Provider::Aws)), 30 * MINUTE);
        assert_eq!(ms(&MHC_REPLACEMENT_JOIN_DURATION, None), ms(&NODE_BOOT_DURATION, None));
        assert_eq!(ms(&SNR_CONDITIONS, None), ms(&MHC_CONDITIONS, None));
        assert_eq!(SNR_SAFE_TIME_TO_ASSUME_NODE_REBOOTED.default_on(None), None);
        assert_eq!(AKS_DETECTION_DELAY.range, (300.0, 900.0));
    }

    #[test]
    fn values_are_read_from_and_written_into_a_scenario() {
        let mut s =
            Scenario::from_json(r#"{"cloud": {"provider": "aws"}, "remediation": [{"kind": "SelfNodeRemediation"}]}"#)
                .expect("a scenario");
        assert_eq!(SNR_MIN_HEALTHY.get_or_default(&s), Some(Value::Int(51)));
        SNR_MIN_HEALTHY.put(&mut s, Value::Int(40));
        SNR_STRATEGY.put(&mut s, Value::Int(2));
        SNR_CONDITIONS.put(&mut s, Value::Duration(2 * MINUTE));
        NODE_BOOT_DURATION.put(&mut s, Value::Duration(MINUTE));
        MHC_MAX_UNHEALTHY.put(&mut s, Value::Int(10));
        let back = Scenario::from_json(&s.to_json()).expect("it reads back");
        assert_eq!(SNR_MIN_HEALTHY.get(&back), Some(Value::Int(40)));
        assert_eq!(SNR_STRATEGY.text(SNR_STRATEGY.get(&back).unwrap()), "ResourceDeletion");
        assert_eq!(SNR_CONDITIONS.get(&back), Some(Value::Duration(2 * MINUTE)));
        assert_eq!(NODE_BOOT_DURATION.get(&back), Some(Value::Duration(MINUTE)));
        assert_eq!(
            MHC_MAX_UNHEALTHY.get(&back),
            None,
            "no MachineHealthCheck to write into"
        );
        assert!(NODE_BOOT_DURATION.clear(&mut s) && !NODE_BOOT_DURATION.clear(&mut s));
        assert!(!VM_CACHE_TTL.applies_to(&s) && SNR_STRATEGY.applies_to(&s));
    }

    #[test]
    fn every_default_reads_back_from_its_text_and_passes_its_rule() {
        for s in &ALL {
            for p in [None, Some(Provider::Aws), Some(Provider::Gcp), Some(Provider::Azure)] {
                let Some(v) = s.default_on(p) else { continue };
                assert_eq!(s.parse(&s.text(v)), Some(v), "{}", s.path);
                assert_eq!(s.check(v), Ok(()), "{}", s.path);
                let (lo, hi) = s.range;
                let x = v.number().expect("a number");
                assert!(lo <= x && x <= hi, "{}: {x} outside the control's {lo}..{hi}", s.path);
                assert_eq!(s.check(s.value_of(lo)), Ok(()), "{}", s.path);
                assert_eq!(s.check(s.value_of(hi)), Ok(()), "{}", s.path);
            }
        }
        assert!(AKS_DETECTION_DELAY.check(Value::Duration(MINUTE)).is_err());
        assert!(SNR_MIN_HEALTHY.check(Value::Int(101)).is_err());
        assert!(SNR_STRATEGY.check(Value::Int(3)).is_err());
        assert!(EKS_MAX_UNHEALTHY_PERCENTAGE.check(Value::Int(101)).is_err());
    }
}
