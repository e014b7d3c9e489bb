//! The flag catalogue: every setting kubelife models, declared once.
//!
//! One [`Flag`] per tunable: its name as its component spells it, the component, whether it is a
//! command-line flag and/or a configuration-file field (and which), its path in the scenario
//! JSON, its unit, the range a control offers and the rule validation applies, the versions that
//! have it (through the version's [`Profile`] and feature gates), and how to read it from a
//! resolved [`Config`] and write it into a [`Scenario`]. A version's default is the same read on
//! [`Config::defaults`]. Kubernetes keeps a component's settings the same way: `config/types.go`
//! (the fields), `defaults.go` (their defaults) and `AddFlags` (the flags).
//!
//! Validation ([`Scenario::resolve`]), export, import, the page's controls and its links read
//! their flags here; a flag's name is written nowhere else.

use super::config::{Config, ProxyMode};
use super::format::{GoDuration, Scenario, MAX_DURATION_SECONDS};
use crate::cause::Cause;
use crate::time::{format_go_duration, Millis, HOUR, SECOND};
use crate::version::{Gate, GateStage, Profile, Version};
use std::fmt;

/// The process a setting belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Component {
    /// The kubelet.
    Kubelet,
    /// kube-controller-manager.
    ControllerManager,
    /// kube-apiserver.
    ApiServer,
    /// kube-scheduler: an import recognises its flags and files; nothing of it is modelled.
    Scheduler,
    /// kube-proxy.
    KubeProxy,
    /// etcd: an import recognises its flags and files; nothing of it is modelled.
    Etcd,
    /// None: a timing of the simulation that no Kubernetes flag sets (`simulation.*`,
    /// `durationSeconds`).
    Simulation,
}

impl Component {
    /// The binary's name (`kubelife` for the simulation's own timings).
    pub fn name(self) -> &'static str {
        match self {
            Component::Kubelet => "kubelet",
            Component::ControllerManager => "kube-controller-manager",
            Component::ApiServer => "kube-apiserver",
            Component::Scheduler => "kube-scheduler",
            Component::KubeProxy => "kube-proxy",
            Component::Etcd => "etcd",
            Component::Simulation => "kubelife",
        }
    }

    /// The component a binary name (or a hyperkube subcommand) runs.
    pub fn by_binary(name: &str) -> Option<Component> {
        let base = name.rsplit('/').next().unwrap_or(name);
        match base {
            "kubelet" => Some(Component::Kubelet),
            "kube-controller-manager" | "controller-manager" => Some(Component::ControllerManager),
            "kube-apiserver" | "apiserver" => Some(Component::ApiServer),
            "kube-scheduler" | "scheduler" => Some(Component::Scheduler),
            "kube-proxy" | "proxy" => Some(Component::KubeProxy),
            "etcd" => Some(Component::Etcd),
            _ => None,
        }
    }
}

/// A component's configuration file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfigFile {
    /// `kubelet.config.k8s.io/v1beta1` `KubeletConfiguration`.
    KubeletConfiguration,
    /// `kubeproxy.config.k8s.io/v1alpha1` `KubeProxyConfiguration`.
    KubeProxyConfiguration,
}

impl ConfigFile {
    /// The file's `kind`.
    pub fn kind(self) -> &'static str {
        match self {
            ConfigFile::KubeletConfiguration => "KubeletConfiguration",
            ConfigFile::KubeProxyConfiguration => "KubeProxyConfiguration",
        }
    }
}

/// A field of a configuration file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileField {
    /// The file.
    pub file: ConfigFile,
    /// The field's JSON name, dotted below the top (`iptables.minSyncPeriod`).
    pub field: &'static str,
}

/// How a setting is written on its component's command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommandLine {
    /// It is not: a configuration-file field only, or no flag at all.
    None,
    /// `--<name>=<value>`.
    Flag,
    /// `--feature-gates=<name>=<value>`.
    FeatureGate,
}

/// What a setting's number means, and so how it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A span of time, a Go duration (`40s`).
    Duration,
    /// Whole seconds, written as a number (`300`).
    Seconds,
    /// A whole number.
    Count,
    /// Requests per second.
    PerSecond,
    /// Nodes per second.
    NodesPerSecond,
    /// A fraction between 0 and 1.
    Fraction,
    /// On or off.
    Switch,
    /// One of kube-proxy's modes.
    Mode,
}

/// A setting's value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// A span, ms.
    Duration(Millis),
    /// A whole number.
    Int(i64),
    /// A rate or a fraction.
    Float(f64),
    /// A switch.
    Bool(bool),
    /// kube-proxy's mode.
    Mode(ProxyMode),
}

impl Value {
    /// The span, if it is one.
    pub fn millis(self) -> Option<Millis> {
        match self {
            Value::Duration(ms) => Some(ms),
            _ => None,
        }
    }

    /// The whole number, if it is one.
    pub fn int(self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(i),
            _ => None,
        }
    }

    /// The rate or fraction, if it is one.
    pub fn float(self) -> Option<f64> {
        match self {
            Value::Float(x) => Some(x),
            _ => None,
        }
    }

    /// The switch's position, if it is one.
    pub fn switch(self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The mode, if it is one.
    pub fn mode(self) -> Option<ProxyMode> {
        match self {
            Value::Mode(m) => Some(m),
            _ => None,
        }
    }

    /// The value as a number in its unit: seconds for a span, 0 or 1 for a switch; `None` for a
    /// mode.
    pub fn number(self) -> Option<f64> {
        match self {
            Value::Duration(ms) => Some(ms as f64 / SECOND as f64),
            Value::Int(i) => Some(i as f64),
            Value::Float(x) => Some(x),
            Value::Bool(b) => Some(if b { 1.0 } else { 0.0 }),
            Value::Mode(_) => None,
        }
    }
}

/// The value as its component's flag and configuration file take it: a Go duration, a number,
/// `true` or `false`, a mode's name.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Duration(ms) => f.write_str(&format_go_duration(*ms)),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Mode(m) => f.write_str(m.name()),
        }
    }
}

/// What validation accepts of a value, with the reason it gives otherwise.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rule {
    /// A span over 0s and at most 24h.
    Positive,
    /// A span from 0s up to this.
    UpTo(Millis),
    /// A whole number in this range.
    Whole(i64, i64),
    /// Whole seconds in this range.
    Seconds(i64, i64),
    /// The run's length, 1 to [`MAX_DURATION_SECONDS`] seconds.
    RunLength,
    /// A fraction between 0 and 1.
    Fraction,
    /// Nodes per second, at least 0.
    NodeRate,
    /// Requests per second, above 0 and at most 100000.
    RequestRate,
    /// Any value of its type.
    Any,
}

impl Rule {
    /// Why `v` breaks the rule, if it does.
    pub fn check(self, v: Value) -> Result<(), Cause> {
        let between = |key, lo: i64, hi: i64, i: i64| Cause::new(key).text("min", lo).text("max", hi).text("value", i);
        let reason = match (self, v) {
            (Rule::Positive, Value::Duration(ms)) if ms <= 0 => Cause::new("scenario.rule.positive").time("value", ms),
            (Rule::Positive, Value::Duration(ms)) if ms > 24 * HOUR => Cause::new("scenario.rule.at_most")
                .time("max", 24 * HOUR)
                .time("value", ms),
            (Rule::UpTo(max), Value::Duration(ms)) if ms < 0 || ms > max => up_to(max, ms),
            (Rule::Whole(lo, hi), Value::Int(i)) if !(lo..=hi).contains(&i) => between("scenario.between", lo, hi, i),
            (Rule::Seconds(lo, hi), Value::Int(i)) if !(lo..=hi).contains(&i) => {
                between("scenario.rule.seconds", lo, hi, i)
            }
            (Rule::RunLength, Value::Int(i)) if i <= 0 || i > MAX_DURATION_SECONDS => {
                between("scenario.rule.run_length", 1, MAX_DURATION_SECONDS, i)
            }
            (Rule::Fraction, Value::Float(x)) if !x.is_finite() || !(0.0..=1.0).contains(&x) => {
                Cause::new("scenario.rule.fraction").text("value", x)
            }
            (Rule::NodeRate, Value::Float(x)) if !x.is_finite() || !(0.0..=1_000_000.0).contains(&x) => {
                Cause::new("scenario.rule.node_rate").text("value", x)
            }
            (Rule::RequestRate, Value::Float(x)) if !x.is_finite() || x <= 0.0 || x > 100_000.0 => {
                Cause::new("scenario.rule.request_rate").text("value", x)
            }
            _ => return Ok(()),
        };
        Err(reason)
    }
}

/// Why a span `ms` is refused that must lie between 0s and `max`.
pub fn up_to(max: Millis, ms: Millis) -> Cause {
    Cause::new("scenario.rule.up_to").time("max", max).time("value", ms)
}

/// How a version without a setting refuses it, in upstream's words where it has them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// Every supported version has it.
    Never,
    /// A KubeletConfiguration field that arrived in a version: the catalogue key of the
    /// refusal, which names the field or its feature (the field's name is `{field}`) and what
    /// happens without it.
    KubeletField {
        /// The refusal's catalogue key.
        key: &'static str,
    },
    /// A flag removed in a version, which the component then refuses (unknown flag).
    Removed {
        /// The catalogue key of what to tune instead.
        instead: &'static str,
    },
    /// A flag that arrived in a version, which older components refuse (unknown flag).
    Arrived,
    /// A feature gate: the feature-gate rules refuse it (`featureGates`).
    Gate,
}

/// How a setting is read from a resolved configuration and a scenario, and written into one.
#[derive(Debug, Clone, Copy)]
pub struct Access {
    /// The resolved value.
    pub read: fn(&Config) -> Value,
    /// The value a scenario writes, if it writes one.
    pub get: fn(&Scenario) -> Option<Value>,
    /// Writes a value into a scenario (a value of another kind is not written).
    pub put: fn(&mut Scenario, Value),
    /// Removes the scenario's value; whether it had one.
    pub clear: fn(&mut Scenario) -> bool,
}

/// One tunable.
#[derive(Debug, Clone, Copy)]
pub struct Flag {
    /// The name as its component spells it: the flag without dashes
    /// (`node-monitor-grace-period`), the gate (`TaintBasedEvictions`), or for a field that is
    /// not a flag, the field's name in the flags' spelling (`node-status-report-frequency`).
    pub name: &'static str,
    /// Its component.
    pub component: Component,
    /// How its command line takes it.
    pub command_line: CommandLine,
    /// Its configuration-file field, if a file has it.
    pub file: Option<FileField>,
    /// Its path in the scenario JSON (`controllerManager.nodeMonitorGracePeriod`).
    pub path: &'static str,
    /// What its number means.
    pub unit: Unit,
    /// The range a control offers, in the unit's number (seconds for a span).
    pub range: (f64, f64),
    /// What validation accepts.
    pub rule: Rule,
    /// Whether a version has it.
    pub exists: fn(&Profile) -> bool,
    /// How a version without it refuses it.
    pub missing: Missing,
    /// The feature gate it works under, if any: without the gate on, it is accepted and inert.
    pub needs: Option<Gate>,
    /// How it is read and written.
    pub access: Access,
}

impl Flag {
    /// The resolved value.
    pub fn read(&self, cfg: &Config) -> Value {
        (self.access.read)(cfg)
    }

    /// The value the scenario writes, if any.
    pub fn get(&self, s: &Scenario) -> Option<Value> {
        (self.access.get)(s)
    }

    /// Writes a value into the scenario.
    pub fn put(&self, s: &mut Scenario, v: Value) {
        (self.access.put)(s, v)
    }

    /// Removes the scenario's value; whether it had one.
    pub fn clear(&self, s: &mut Scenario) -> bool {
        (self.access.clear)(s)
    }

    /// The default of version `v`.
    pub fn default_in(&self, v: Version) -> Value {
        self.read(&Config::defaults(v))
    }

    /// Whether the version's components have it.
    pub fn exists_in(&self, p: &Profile) -> bool {
        (self.exists)(p)
    }

    /// Whether the version has it and it works without turning a feature gate on: what a
    /// control offers.
    pub fn offered(&self, p: &Profile) -> bool {
        self.exists_in(p) && self.needs.is_none_or(|g| g.default_on(p.version))
    }

    /// The value of a number in the unit (seconds for a span, rounded to whole milliseconds;
    /// whole numbers rounded); `None` for a switch or a mode.
    pub fn value_of(&self, x: f64) -> Option<Value> {
        match self.unit {
            Unit::Duration => Some(Value::Duration((x * SECOND as f64).round() as Millis)),
            Unit::Seconds | Unit::Count => Some(Value::Int(x.round() as i64)),
            Unit::PerSecond | Unit::NodesPerSecond | Unit::Fraction => Some(Value::Float(x)),
            Unit::Switch | Unit::Mode => None,
        }
    }

    /// Why the version refuses it, when it lacks it.
    pub fn refusal(&self, v: Version) -> Cause {
        let first = Version::supported().find(|s| self.exists_in(&s.profile()));
        let gone = Version::supported()
            .skip_while(|s| !self.exists_in(&s.profile()))
            .find(|s| !self.exists_in(&s.profile()));
        let at = |s: Option<Version>| s.map_or_else(String::new, |s| s.to_string());
        let refusal = |key| {
            Cause::new(key)
                .text("name", format!("--{}", self.name))
                .text("component", self.component.name())
                .text("version", v)
        };
        match self.missing {
            Missing::KubeletField { key } => Cause::new(key)
                .text("field", self.file.map_or(self.name, |f| f.field))
                .text("first", at(first))
                .text("version", v),
            Missing::Removed { instead } => refusal("scenario.missing.removed")
                .text("gone", at(gone))
                .sub("instead", Cause::new(instead)),
            Missing::Arrived => refusal("scenario.missing.arrived").text("first", at(first)),
            Missing::Never | Missing::Gate => Cause::new("scenario.missing.never")
                .text("component", self.component.name())
                .text("name", self.name)
                .text("version", v),
        }
    }
}

/// The flag called `name`.
pub fn by_name(name: &str) -> Option<&'static Flag> {
    ALL.iter().find(|f| f.name == name)
}

/// The flag at a scenario path (`controllerManager.nodeMonitorGracePeriod`).
pub fn by_path(path: &str) -> Option<&'static Flag> {
    ALL.iter().find(|f| f.path == path)
}

/// The flags a component's command line takes as `--<name>`.
pub fn command_line(component: Component) -> impl Iterator<Item = &'static Flag> {
    ALL.iter()
        .filter(move |f| f.component == component && f.command_line == CommandLine::Flag)
}

/// The fields of a configuration file, in the catalogue's order.
pub fn file_fields(file: ConfigFile) -> impl Iterator<Item = (&'static Flag, &'static str)> {
    ALL.iter()
        .filter_map(move |f| f.file.filter(|x| x.file == file).map(|x| (f, x.field)))
}

fn always(_: &Profile) -> bool {
    true
}

fn clamp_u32(i: i64) -> u32 {
    i.clamp(0, i64::from(u32::MAX)) as u32
}

/// A span: `Option<GoDuration>` in the scenario, `Millis` resolved.
macro_rules! duration {
    ($section:ident . $field:ident) => {
        Access {
            read: |c| Value::Duration(c.$section.$field),
            get: |s| s.$section.$field.map(|g| Value::Duration(g.0)),
            put: |s, v| {
                if let Some(ms) = v.millis() {
                    s.$section.$field = Some(GoDuration(ms));
                }
            },
            clear: |s| s.$section.$field.take().is_some(),
        }
    };
}

/// A whole number: `Option<i64>` in the scenario, `i64` resolved.
macro_rules! int {
    ($section:ident . $field:ident) => {
        Access {
            read: |c| Value::Int(c.$section.$field),
            get: |s| s.$section.$field.map(Value::Int),
            put: |s, v| {
                if let Some(i) = v.int() {
                    s.$section.$field = Some(i);
                }
            },
            clear: |s| s.$section.$field.take().is_some(),
        }
    };
}

/// A count: `Option<u32>` in the scenario, `u32` resolved.
macro_rules! count {
    ($section:ident . $field:ident) => {
        Access {
            read: |c| Value::Int(i64::from(c.$section.$field)),
            get: |s| s.$section.$field.map(|n| Value::Int(i64::from(n))),
            put: |s, v| {
                if let Some(i) = v.int() {
                    s.$section.$field = Some(clamp_u32(i));
                }
            },
            clear: |s| s.$section.$field.take().is_some(),
        }
    };
}

/// A rate or fraction: `Option<f64>` in the scenario, `f64` resolved.
macro_rules! float {
    ($section:ident . $field:ident) => {
        Access {
            read: |c| Value::Float(c.$section.$field),
            get: |s| s.$section.$field.map(Value::Float),
            put: |s, v| {
                if let Some(x) = v.float() {
                    s.$section.$field = Some(x);
                }
            },
            clear: |s| s.$section.$field.take().is_some(),
        }
    };
}

/// A switch: `Option<bool>` in the scenario, `bool` resolved.
macro_rules! switch {
    ($section:ident . $field:ident) => {
        Access {
            read: |c| Value::Bool(c.$section.$field),
            get: |s| s.$section.$field.map(Value::Bool),
            put: |s, v| {
                if let Some(b) = v.switch() {
                    s.$section.$field = Some(b);
                }
            },
            clear: |s| s.$section.$field.take().is_some(),
        }
    };
}

const fn kubelet_file(field: &'static str) -> Option<FileField> {
    Some(FileField {
        file: ConfigFile::KubeletConfiguration,
        field,
    })
}

const fn proxy_file(field: &'static str) -> Option<FileField> {
    Some(FileField {
        file: ConfigFile::KubeProxyConfiguration,
        field,
    })
}

/// `nodeStatusUpdateFrequency` (`--node-status-update-frequency`): how often the kubelet's status
/// loop runs.
pub const NODE_STATUS_UPDATE_FREQUENCY: Flag = Flag {
    name: "node-status-update-frequency",
    component: Component::Kubelet,
    command_line: CommandLine::Flag,
    file: kubelet_file("nodeStatusUpdateFrequency"),
    path: "kubelet.nodeStatusUpdateFrequency",
    unit: Unit::Duration,
    range: (1.0, 120.0),
    rule: Rule::Positive,
    exists: always,
    missing: Missing::Never,
    needs: None,
    access: duration!(kubelet.node_status_update_frequency),
};

/// `nodeStatusReportFrequency` (1.13+, KEP-0009; no flag): how often an unchanged status is still
/// patched.
pub const NODE_STATUS_REPORT_FREQUENCY: Flag = Flag {
    name: "node-status-report-frequency",
    component: Component::Kubelet,
    command_line: CommandLine::None,
    file: kubelet_file("nodeStatusReportFrequency"),
    path: "kubelet.nodeStatusReportFrequency",
    unit: Unit::Duration,
    range: (1.0, 900.0),
    rule: Rule::Positive,
    exists: |p| p.has_report_frequency,
    missing: Missing::KubeletField {
        key: "scenario.missing.report_frequency",
    },
    needs: None,
    access: duration!(kubelet.node_status_report_frequency),
};

/// `nodeLeaseDurationSeconds` (no flag): the Lease's duration.
pub const NODE_LEASE_DURATION_SECONDS: Flag = Flag {
    name: "node-lease-duration-seconds",
    component: Component::Kubelet,
    command_line: CommandLine::None,
    file: kubelet_file("nodeLeaseDurationSeconds"),
    path: "kubelet.nodeLeaseDurationSeconds",
    unit: Unit::Count,
    range: (4.0, 300.0),
    rule: Rule::Whole(1, 3600),
    exists: always,
    missing: Missing::Never,
    needs: None,
    access: int!(kubelet.node_lease_duration_seconds),
};

const SHUTDOWN: Missing = Missing::KubeletField {
    key: "scenario.missing.graceful_shutdown",
};

/// `shutdownGracePeriod` (1.20+, no flag): how long a graceful node shutdown holds the power-off;
/// it works under the `GracefulNodeShutdown` gate (beta and on from 1.21).
pub const SHUTDOWN_GRACE_PERIOD: Flag = Flag {
    name: "shutdown-grace-period",
    component: Component::Kubelet,
    command_line: CommandLine::None,
    file: kubelet_file("shutdownGracePeriod"),
    path: "kubelet.shutdownGracePeriod",
    unit: Unit::Duration,
    range: (0.0, 600.0),
    rule: Rule::UpTo(HOUR),
    exists: |p| p.has_graceful_shutdown,
    missing: SHUTDOWN,
    needs: Some(Gate::GracefulNodeShutdown),
    access: duration!(kubelet.shutdown_grace_period),
};

/// `shutdownGracePeriodCriticalPods` (1.20+, no flag): the part of it kept for critical pods.
pub const SHUTDOWN_GRACE_PERIOD_CRITICAL_PODS: Flag = Flag {
    name: "shutdown-grace-period-critical-pods",
    file: kubelet_file("shutdownGracePeriodCriticalPods"),
    path: "kubelet.shutdownGracePeriodCriticalPods",
    access: duration!(kubelet.shutdown_grace_period_critical_pods),
    ..SHUTDOWN_GRACE_PERIOD
};

/// A kube-controller-manager flag every supported version has.
const CONTROLLER_MANAGER: Flag = Flag {
    name: "",
    component: Component::ControllerManager,
    command_line: CommandLine::Flag,
    file: None,
    path: "",
    unit: Unit::Duration,
    range: (0.0, 0.0),
    rule: Rule::Positive,
    exists: always,
    missing: Missing::Never,
    needs: None,
    access: duration!(controller_manager.node_monitor_period),
};

/// `--node-monitor-period`: how long the node lifecycle controller waits between passes.
pub const NODE_MONITOR_PERIOD: Flag = Flag {
    name: "node-monitor-period",
    path: "controllerManager.nodeMonitorPeriod",
    range: (1.0, 60.0),
    access: duration!(controller_manager.node_monitor_period),
    ..CONTROLLER_MANAGER
};

/// `--node-monitor-grace-period`: silence tolerated before a node is marked Unknown.
pub const NODE_MONITOR_GRACE_PERIOD: Flag = Flag {
    name: "node-monitor-grace-period",
    path: "controllerManager.nodeMonitorGracePeriod",
    range: (2.0, 600.0),
    access: duration!(controller_manager.node_monitor_grace_period),
    ..CONTROLLER_MANAGER
};

/// `--node-startup-grace-period`: the same for a node that never posted a status.
pub const NODE_STARTUP_GRACE_PERIOD: Flag = Flag {
    name: "node-startup-grace-period",
    path: "controllerManager.nodeStartupGracePeriod",
    range: (10.0, 600.0),
    access: duration!(controller_manager.node_startup_grace_period),
    ..CONTROLLER_MANAGER
};

/// `--node-eviction-rate`: nodes tainted per second in a healthy zone.
pub const NODE_EVICTION_RATE: Flag = Flag {
    name: "node-eviction-rate",
    path: "controllerManager.nodeEvictionRate",
    unit: Unit::NodesPerSecond,
    range: (0.0, 1.0),
    rule: Rule::NodeRate,
    access: float!(controller_manager.node_eviction_rate),
    ..CONTROLLER_MANAGER
};

/// `--secondary-node-eviction-rate`: the rate in a partially disrupted large zone.
pub const SECONDARY_NODE_EVICTION_RATE: Flag = Flag {
    name: "secondary-node-eviction-rate",
    path: "controllerManager.secondaryNodeEvictionRate",
    access: float!(controller_manager.secondary_node_eviction_rate),
    ..NODE_EVICTION_RATE
};

/// `--large-cluster-size-threshold`: zones with more nodes use the secondary rate.
pub const LARGE_CLUSTER_SIZE_THRESHOLD: Flag = Flag {
    name: "large-cluster-size-threshold",
    path: "controllerManager.largeClusterSizeThreshold",
    unit: Unit::Count,
    range: (0.0, 200.0),
    rule: Rule::Any,
    access: count!(controller_manager.large_cluster_size_threshold),
    ..CONTROLLER_MANAGER
};

/// `--unhealthy-zone-threshold`: the share of not-Ready nodes that makes a zone disrupted.
pub const UNHEALTHY_ZONE_THRESHOLD: Flag = Flag {
    name: "unhealthy-zone-threshold",
    path: "controllerManager.unhealthyZoneThreshold",
    unit: Unit::Fraction,
    range: (0.05, 1.0),
    rule: Rule::Fraction,
    access: float!(controller_manager.unhealthy_zone_threshold),
    ..CONTROLLER_MANAGER
};

const REMOVED_IN_1_27: Missing = Missing::Removed {
    instead: "scenario.instead.toleration_seconds",
};

/// `--enable-taint-manager` (up to 1.26, #115840): `false` turns taint-based eviction off and
/// the legacy path on.
pub const ENABLE_TAINT_MANAGER: Flag = Flag {
    name: "enable-taint-manager",
    path: "controllerManager.enableTaintManager",
    unit: Unit::Switch,
    range: (0.0, 1.0),
    rule: Rule::Any,
    exists: |p| p.has_legacy_eviction_flags,
    missing: REMOVED_IN_1_27,
    access: switch!(controller_manager.enable_taint_manager),
    ..CONTROLLER_MANAGER
};

/// `--pod-eviction-timeout` (up to 1.26): how long after the last heartbeat the legacy path
/// deletes pods.
pub const POD_EVICTION_TIMEOUT: Flag = Flag {
    name: "pod-eviction-timeout",
    path: "controllerManager.podEvictionTimeout",
    range: (0.0, 900.0),
    rule: Rule::UpTo(24 * HOUR),
    exists: |p| p.has_legacy_eviction_flags,
    missing: REMOVED_IN_1_27,
    access: duration!(controller_manager.pod_eviction_timeout),
    ..CONTROLLER_MANAGER
};

/// `--kube-api-qps`: requests per second of each controller's API client.
pub const KUBE_API_QPS: Flag = Flag {
    name: "kube-api-qps",
    path: "controllerManager.kubeApiQps",
    unit: Unit::PerSecond,
    range: (1.0, 500.0),
    rule: Rule::RequestRate,
    access: float!(controller_manager.kube_api_qps),
    ..CONTROLLER_MANAGER
};

/// `--kube-api-burst`: the burst of each controller's API client.
pub const KUBE_API_BURST: Flag = Flag {
    name: "kube-api-burst",
    path: "controllerManager.kubeApiBurst",
    unit: Unit::Count,
    range: (1.0, 1000.0),
    rule: Rule::Whole(1, 100_000),
    access: count!(controller_manager.kube_api_burst),
    ..CONTROLLER_MANAGER
};

/// `--disable-force-detach-on-timeout` (1.30+, #120344): the attach-detach controller never
/// force-detaches after the 6-minute wait.
pub const DISABLE_FORCE_DETACH_ON_TIMEOUT: Flag = Flag {
    name: "disable-force-detach-on-timeout",
    path: "controllerManager.disableForceDetachOnTimeout",
    unit: Unit::Switch,
    range: (0.0, 1.0),
    rule: Rule::Any,
    exists: |p| p.has_disable_force_detach,
    missing: Missing::Arrived,
    access: switch!(controller_manager.disable_force_detach_on_timeout),
    ..CONTROLLER_MANAGER
};

/// `--feature-gates=TaintBasedEvictions=false`, while the gate is beta (on, and may be turned
/// off): the node lifecycle controller deletes pods itself after `--pod-eviction-timeout`
/// instead of tainting. Read from a configuration, it is on unless taint-based eviction is off
/// while the taint manager runs (with the taint manager off the gate changes nothing).
pub const TAINT_BASED_EVICTIONS: Flag = Flag {
    name: Gate::TaintBasedEvictions.name(),
    command_line: CommandLine::FeatureGate,
    path: "featureGates.TaintBasedEvictions",
    unit: Unit::Switch,
    range: (0.0, 1.0),
    rule: Rule::Any,
    exists: |p| Gate::TaintBasedEvictions.stage(p.version) == GateStage::Beta,
    missing: Missing::Gate,
    access: Access {
        read: |c| {
            let m = &c.controller_manager;
            Value::Bool(m.taint_based_evictions || !m.enable_taint_manager)
        },
        get: |s| {
            s.feature_gates
                .get(Gate::TaintBasedEvictions.name())
                .copied()
                .map(Value::Bool)
        },
        put: |s, v| {
            if let Some(b) = v.switch() {
                s.feature_gates.insert(Gate::TaintBasedEvictions.name().to_string(), b);
            }
        },
        clear: |s| s.feature_gates.remove(Gate::TaintBasedEvictions.name()).is_some(),
    },
    ..CONTROLLER_MANAGER
};

/// A kube-apiserver flag of the `DefaultTolerationSeconds` admission plugin.
const TOLERATION_SECONDS: Flag = Flag {
    component: Component::ApiServer,
    unit: Unit::Seconds,
    range: (0.0, 900.0),
    rule: Rule::Seconds(0, 10_000_000),
    ..CONTROLLER_MANAGER
};

/// `--default-not-ready-toleration-seconds`.
pub const DEFAULT_NOT_READY_TOLERATION_SECONDS: Flag = Flag {
    name: "default-not-ready-toleration-seconds",
    path: "apiServer.defaultNotReadyTolerationSeconds",
    access: int!(api_server.default_not_ready_toleration_seconds),
    ..TOLERATION_SECONDS
};

/// `--default-unreachable-toleration-seconds`.
pub const DEFAULT_UNREACHABLE_TOLERATION_SECONDS: Flag = Flag {
    name: "default-unreachable-toleration-seconds",
    path: "apiServer.defaultUnreachableTolerationSeconds",
    access: int!(api_server.default_unreachable_toleration_seconds),
    ..TOLERATION_SECONDS
};

/// `--proxy-mode` (`mode`): `iptables`, `ipvs` or `nftables` (1.29+). Which modes a version
/// has is a rule of the value ([`Profile::has_nftables`]).
pub const PROXY_MODE: Flag = Flag {
    name: "proxy-mode",
    component: Component::KubeProxy,
    command_line: CommandLine::Flag,
    file: proxy_file("mode"),
    path: "kubeProxy.mode",
    unit: Unit::Mode,
    range: (0.0, 0.0),
    rule: Rule::Any,
    exists: always,
    missing: Missing::Never,
    needs: None,
    access: Access {
        read: |c| Value::Mode(c.kube_proxy.mode),
        get: |s| {
            s.kube_proxy
                .mode
                .as_deref()
                .and_then(ProxyMode::by_name)
                .map(Value::Mode)
        },
        put: |s, v| {
            if let Some(m) = v.mode() {
                s.kube_proxy.mode = Some(m.name().to_string());
            }
        },
        clear: |s| s.kube_proxy.mode.take().is_some(),
    },
};

/// `--iptables-min-sync-period` (`iptables.minSyncPeriod`; the ipvs and nftables modes have
/// their own, which the scenario's one value sets): the least time between two syncs.
pub const IPTABLES_MIN_SYNC_PERIOD: Flag = Flag {
    name: "iptables-min-sync-period",
    file: proxy_file("iptables.minSyncPeriod"),
    path: "kubeProxy.minSyncPeriod",
    unit: Unit::Duration,
    range: (0.0, 60.0),
    rule: Rule::UpTo(HOUR),
    access: duration!(kube_proxy.min_sync_period),
    ..PROXY_MODE
};

/// `--iptables-sync-period` (`iptables.syncPeriod`, likewise): the periodic full sync.
pub const IPTABLES_SYNC_PERIOD: Flag = Flag {
    name: "iptables-sync-period",
    file: proxy_file("iptables.syncPeriod"),
    path: "kubeProxy.syncPeriod",
    unit: Unit::Duration,
    range: (1.0, 600.0),
    rule: Rule::Positive,
    access: duration!(kube_proxy.sync_period),
    ..PROXY_MODE
};

/// A timing of the simulation that no Kubernetes flag sets.
const SIMULATION: Flag = Flag {
    component: Component::Simulation,
    command_line: CommandLine::None,
    file: None,
    ..IPTABLES_SYNC_PERIOD
};

/// `simulation.podStartup`: binding to Ready.
pub const POD_STARTUP: Flag = Flag {
    name: "pod-startup",
    path: "simulation.podStartup",
    range: (0.0, 120.0),
    rule: Rule::UpTo(HOUR),
    access: duration!(simulation.pod_startup),
    ..SIMULATION
};

/// `simulation.watchLatency`: a write's way to the watching controllers.
pub const WATCH_LATENCY: Flag = Flag {
    name: "watch-latency",
    path: "simulation.watchLatency",
    range: (0.0, 2.0),
    rule: Rule::UpTo(10 * SECOND),
    access: duration!(simulation.watch_latency),
    ..SIMULATION
};

/// `simulation.apiLatency`: one API request's round trip.
pub const API_LATENCY: Flag = Flag {
    name: "api-latency",
    path: "simulation.apiLatency",
    range: (0.0, 5.0),
    rule: Rule::UpTo(10 * SECOND),
    access: duration!(simulation.api_latency),
    ..SIMULATION
};

/// `durationSeconds`: the run's length.
pub const DURATION_SECONDS: Flag = Flag {
    name: "duration-seconds",
    path: "durationSeconds",
    unit: Unit::Seconds,
    range: (60.0, 3600.0),
    rule: Rule::RunLength,
    access: Access {
        read: |c| Value::Int(c.duration / SECOND),
        get: |s| s.duration_seconds.map(Value::Int),
        put: |s, v| {
            if let Some(i) = v.int() {
                s.duration_seconds = Some(i);
            }
        },
        clear: |s| s.duration_seconds.take().is_some(),
    },
    ..SIMULATION
};

/// Every tunable, by component; within one, in the order a command line or a file lists them.
pub static ALL: [Flag; 27] = [
    NODE_STATUS_UPDATE_FREQUENCY,
    NODE_STATUS_REPORT_FREQUENCY,
    NODE_LEASE_DURATION_SECONDS,
    SHUTDOWN_GRACE_PERIOD,
    SHUTDOWN_GRACE_PERIOD_CRITICAL_PODS,
    NODE_MONITOR_PERIOD,
    NODE_MONITOR_GRACE_PERIOD,
    NODE_STARTUP_GRACE_PERIOD,
    NODE_EVICTION_RATE,
    SECONDARY_NODE_EVICTION_RATE,
    LARGE_CLUSTER_SIZE_THRESHOLD,
    UNHEALTHY_ZONE_THRESHOLD,
    ENABLE_TAINT_MANAGER,
    POD_EVICTION_TIMEOUT,
    KUBE_API_QPS,
    KUBE_API_BURST,
    DISABLE_FORCE_DETACH_ON_TIMEOUT,
    TAINT_BASED_EVICTIONS,
    DEFAULT_NOT_READY_TOLERATION_SECONDS,
    DEFAULT_UNREACHABLE_TOLERATION_SECONDS,
    PROXY_MODE,
    IPTABLES_MIN_SYNC_PERIOD,
    IPTABLES_SYNC_PERIOD,
    POD_STARTUP,
    WATCH_LATENCY,
    API_LATENCY,
    DURATION_SECONDS,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_paths_are_unique() {
        for (i, f) in ALL.iter().enumerate() {
            assert!(
                ALL[i + 1..].iter().all(|g| g.name != f.name && g.path != f.path),
                "{}",
                f.name
            );
            assert_eq!(by_name(f.name).map(|g| g.path), Some(f.path));
        }
    }

    #[test]
    fn refusals_name_the_version_that_changed() {
        let v = |minor| Version { minor };
        assert_eq!(
            NODE_STATUS_REPORT_FREQUENCY.refusal(v(12)).english(),
            "KubeletConfiguration has no nodeStatusReportFrequency before 1.13 (this is 1.12): every status tick patches"
        );
        assert_eq!(
            SHUTDOWN_GRACE_PERIOD.refusal(v(19)).english(),
            "KubeletConfiguration has no graceful node shutdown before 1.20 (this is 1.19)"
        );
        assert_eq!(
            POD_EVICTION_TIMEOUT.refusal(v(30)).english(),
            "--pod-eviction-timeout was removed in Kubernetes 1.27; kube-controller-manager 1.30 refuses to start with it (unknown flag). Tune apiServer.defaultUnreachableTolerationSeconds or pod tolerationSeconds instead"
        );
        assert!(DISABLE_FORCE_DETACH_ON_TIMEOUT
            .refusal(v(29))
            .english()
            .starts_with("--disable-force-detach-on-timeout arrived in Kubernetes 1.30;"));
    }

    #[test]
    fn the_shutdown_pair_is_offered_where_its_gate_is_on() {
        let p = |minor| Version { minor }.profile();
        assert!(SHUTDOWN_GRACE_PERIOD.exists_in(&p(20)) && !SHUTDOWN_GRACE_PERIOD.offered(&p(20)));
        assert!(SHUTDOWN_GRACE_PERIOD.offered(&p(21)));
        assert!(!TAINT_BASED_EVICTIONS.offered(&p(12)) && TAINT_BASED_EVICTIONS.offered(&p(13)));
        assert!(TAINT_BASED_EVICTIONS.offered(&p(17)) && !TAINT_BASED_EVICTIONS.offered(&p(18)));
    }
}
