//! The scenario fields an import can set, the components whose flags set them, and how a flag's
//! text becomes a value.
//!
//! Flag names and types follow each component's flag definitions: the kubelet's
//! `AddKubeletConfigFlags` (cmd/kubelet/app/options), the node lifecycle controller's `AddFlags`
//! (cmd/kube-controller-manager/app/options/nodelifecyclecontroller.go) and kube-apiserver's
//! `DefaultTolerationSeconds` admission flags (plugin/pkg/admission/defaulttolerationseconds).

use super::shown::{escape, is_unsafe};
use crate::time::{format_go_duration, parse_go_duration, Millis};
use crate::version::Gate;
use std::fmt;

/// A process whose flags or configuration an import reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Component {
    /// The kubelet.
    Kubelet,
    /// kube-controller-manager.
    ControllerManager,
    /// kube-apiserver.
    ApiServer,
    /// kube-scheduler (nothing of it is modelled).
    Scheduler,
    /// kube-proxy (nothing of it is modelled).
    Proxy,
    /// etcd (nothing of it is modelled).
    Etcd,
}

impl Component {
    /// The binary's name.
    pub fn name(self) -> &'static str {
        match self {
            Component::Kubelet => "kubelet",
            Component::ControllerManager => "kube-controller-manager",
            Component::ApiServer => "kube-apiserver",
            Component::Scheduler => "kube-scheduler",
            Component::Proxy => "kube-proxy",
            Component::Etcd => "etcd",
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
            "kube-proxy" | "proxy" => Some(Component::Proxy),
            "etcd" => Some(Component::Etcd),
            _ => None,
        }
    }
}

/// A scenario field that imported configuration sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Field {
    /// `kubelet.nodeStatusUpdateFrequency`.
    NodeStatusUpdateFrequency,
    /// `kubelet.nodeStatusReportFrequency`.
    NodeStatusReportFrequency,
    /// `kubelet.nodeLeaseDurationSeconds`.
    NodeLeaseDurationSeconds,
    /// `kubelet.shutdownGracePeriod`.
    ShutdownGracePeriod,
    /// `kubelet.shutdownGracePeriodCriticalPods`.
    ShutdownGracePeriodCriticalPods,
    /// The kubelet's `maxPods`, for every node without its own.
    MaxPods,
    /// `controllerManager.nodeMonitorPeriod`.
    NodeMonitorPeriod,
    /// `controllerManager.nodeMonitorGracePeriod`.
    NodeMonitorGracePeriod,
    /// `controllerManager.nodeStartupGracePeriod`.
    NodeStartupGracePeriod,
    /// `controllerManager.nodeEvictionRate`.
    NodeEvictionRate,
    /// `controllerManager.secondaryNodeEvictionRate`.
    SecondaryNodeEvictionRate,
    /// `controllerManager.largeClusterSizeThreshold`.
    LargeClusterSizeThreshold,
    /// `controllerManager.unhealthyZoneThreshold`.
    UnhealthyZoneThreshold,
    /// `controllerManager.podEvictionTimeout`.
    PodEvictionTimeout,
    /// `controllerManager.enableTaintManager`.
    EnableTaintManager,
    /// `controllerManager.kubeApiQps`.
    KubeApiQps,
    /// `controllerManager.kubeApiBurst`.
    KubeApiBurst,
    /// `controllerManager.disableForceDetachOnTimeout`.
    DisableForceDetachOnTimeout,
    /// `apiServer.defaultNotReadyTolerationSeconds`.
    DefaultNotReadyTolerationSeconds,
    /// `apiServer.defaultUnreachableTolerationSeconds`.
    DefaultUnreachableTolerationSeconds,
    /// `featureGates.<gate>`.
    Gate(Gate),
}

/// The type of a field's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Duration,
    Int,
    Float,
    Bool,
}

/// The modelled flags: name, owning component, field.
const FLAGS: [(&str, Component, Field); 16] = [
    (
        "node-status-update-frequency",
        Component::Kubelet,
        Field::NodeStatusUpdateFrequency,
    ),
    ("max-pods", Component::Kubelet, Field::MaxPods),
    (
        "node-monitor-period",
        Component::ControllerManager,
        Field::NodeMonitorPeriod,
    ),
    (
        "node-monitor-grace-period",
        Component::ControllerManager,
        Field::NodeMonitorGracePeriod,
    ),
    (
        "node-startup-grace-period",
        Component::ControllerManager,
        Field::NodeStartupGracePeriod,
    ),
    (
        "node-eviction-rate",
        Component::ControllerManager,
        Field::NodeEvictionRate,
    ),
    (
        "secondary-node-eviction-rate",
        Component::ControllerManager,
        Field::SecondaryNodeEvictionRate,
    ),
    (
        "large-cluster-size-threshold",
        Component::ControllerManager,
        Field::LargeClusterSizeThreshold,
    ),
    (
        "unhealthy-zone-threshold",
        Component::ControllerManager,
        Field::UnhealthyZoneThreshold,
    ),
    (
        "pod-eviction-timeout",
        Component::ControllerManager,
        Field::PodEvictionTimeout,
    ),
    (
        "enable-taint-manager",
        Component::ControllerManager,
        Field::EnableTaintManager,
    ),
    // kube-controller-manager's generic --kube-api-qps and --kube-api-burst, and the
    // attach-detach controller's --disable-force-detach-on-timeout (1.30+).
    ("kube-api-qps", Component::ControllerManager, Field::KubeApiQps),
    ("kube-api-burst", Component::ControllerManager, Field::KubeApiBurst),
    (
        "disable-force-detach-on-timeout",
        Component::ControllerManager,
        Field::DisableForceDetachOnTimeout,
    ),
    (
        "default-not-ready-toleration-seconds",
        Component::ApiServer,
        Field::DefaultNotReadyTolerationSeconds,
    ),
    (
        "default-unreachable-toleration-seconds",
        Component::ApiServer,
        Field::DefaultUnreachableTolerationSeconds,
    ),
];

impl Field {
    /// The modelled flag called `name` (without dashes), with the component that owns it.
    /// `--feature-gates` is every component's and is handled on its own.
    pub fn by_flag(name: &str) -> Option<(Component, Field)> {
        FLAGS.iter().find(|(n, _, _)| *n == name).map(|(_, c, f)| (*c, *f))
    }

    /// The component that reads a feature gate: the kubelet renews Leases (`NodeLease`); the node
    /// lifecycle controller taints (`TaintBasedEvictions`) and PodGC force-deletes
    /// (`NodeOutOfServiceVolumeDetach`) inside kube-controller-manager.
    pub fn gate_owner(gate: Gate) -> Component {
        match gate {
            Gate::NodeLease | Gate::GracefulNodeShutdown => Component::Kubelet,
            Gate::TaintBasedEvictions
            | Gate::NodeOutOfServiceVolumeDetach
            | Gate::NodeControllerLeaseCircuitBreaker => Component::ControllerManager,
        }
    }

    /// The field's path in the scenario format.
    pub fn path(self) -> String {
        let p = match self {
            Field::NodeStatusUpdateFrequency => "kubelet.nodeStatusUpdateFrequency",
            Field::NodeStatusReportFrequency => "kubelet.nodeStatusReportFrequency",
            Field::NodeLeaseDurationSeconds => "kubelet.nodeLeaseDurationSeconds",
            Field::ShutdownGracePeriod => "kubelet.shutdownGracePeriod",
            Field::ShutdownGracePeriodCriticalPods => "kubelet.shutdownGracePeriodCriticalPods",
            Field::MaxPods => "nodes[].maxPods",
            Field::NodeMonitorPeriod => "controllerManager.nodeMonitorPeriod",
            Field::NodeMonitorGracePeriod => "controllerManager.nodeMonitorGracePeriod",
            Field::NodeStartupGracePeriod => "controllerManager.nodeStartupGracePeriod",
            Field::NodeEvictionRate => "controllerManager.nodeEvictionRate",
            Field::SecondaryNodeEvictionRate => "controllerManager.secondaryNodeEvictionRate",
            Field::LargeClusterSizeThreshold => "controllerManager.largeClusterSizeThreshold",
            Field::UnhealthyZoneThreshold => "controllerManager.unhealthyZoneThreshold",
            Field::PodEvictionTimeout => "controllerManager.podEvictionTimeout",
            Field::EnableTaintManager => "controllerManager.enableTaintManager",
            Field::KubeApiQps => "controllerManager.kubeApiQps",
            Field::KubeApiBurst => "controllerManager.kubeApiBurst",
            Field::DisableForceDetachOnTimeout => "controllerManager.disableForceDetachOnTimeout",
            Field::DefaultNotReadyTolerationSeconds => "apiServer.defaultNotReadyTolerationSeconds",
            Field::DefaultUnreachableTolerationSeconds => "apiServer.defaultUnreachableTolerationSeconds",
            Field::Gate(g) => return format!("featureGates.{}", g.name()),
        };
        p.to_string()
    }

    fn kind(self) -> Kind {
        match self {
            Field::NodeStatusUpdateFrequency
            | Field::NodeStatusReportFrequency
            | Field::ShutdownGracePeriod
            | Field::ShutdownGracePeriodCriticalPods
            | Field::NodeMonitorPeriod
            | Field::NodeMonitorGracePeriod
            | Field::NodeStartupGracePeriod
            | Field::PodEvictionTimeout => Kind::Duration,
            Field::NodeLeaseDurationSeconds
            | Field::MaxPods
            | Field::LargeClusterSizeThreshold
            | Field::KubeApiBurst
            | Field::DefaultNotReadyTolerationSeconds
            | Field::DefaultUnreachableTolerationSeconds => Kind::Int,
            Field::NodeEvictionRate
            | Field::SecondaryNodeEvictionRate
            | Field::UnhealthyZoneThreshold
            | Field::KubeApiQps => Kind::Float,
            Field::EnableTaintManager | Field::DisableForceDetachOnTimeout | Field::Gate(_) => Kind::Bool,
        }
    }

    /// Whether a bare `--flag` (no value) sets it: pflag's boolean flags take `true` then.
    pub fn is_bool(self) -> bool {
        self.kind() == Kind::Bool
    }

    /// Reads a flag's text as this field's value, as the flag package would: Go durations
    /// (`time.ParseDuration`), decimal integers, floats, and `strconv.ParseBool`'s spellings. Like
    /// them it trims nothing: a space, a tab or a control character anywhere is an error that
    /// says which and where, and a value too long to be one is refused without being repeated.
    pub fn parse(self, text: &str) -> Result<Value, String> {
        let reader = match self.kind() {
            Kind::Duration => "Go's time.ParseDuration",
            Kind::Int => "strconv.ParseInt",
            Kind::Float => "strconv.ParseFloat",
            Kind::Bool => "strconv.ParseBool",
        };
        if let Some((i, ch)) = text.char_indices().find(|(_, c)| c.is_whitespace() || is_unsafe(*c)) {
            let what = match ch {
                ' ' => "a space".to_string(),
                c => format!("the character {}", escape(&c.to_string())),
            };
            let at = text[..i].chars().count() + 1;
            return Err(format!(
                "{what} at character {at}: {reader} reads no spaces or control characters"
            ));
        }
        let length = text.chars().count();
        if length > MAX_VALUE_CHARS {
            return Err(format!("{length} characters long: not a value {reader} reads"));
        }
        let t = text;
        match self.kind() {
            Kind::Duration => parse_go_duration(t).map(Value::Duration).map_err(|e| {
                // The report quotes the value already: only the reason.
                let prefix = format!("invalid duration {t:?}: ");
                e.0.strip_prefix(&prefix).map_or(e.0.clone(), str::to_string)
            }),
            Kind::Int => t
                .parse::<i64>()
                .map(Value::Int)
                .map_err(|_| "not a whole number".to_string()),
            Kind::Float => match t.parse::<f64>() {
                Ok(f) if f.is_finite() => Ok(Value::Float(f)),
                _ => Err("not a number".to_string()),
            },
            Kind::Bool => parse_bool(t).map(Value::Bool).ok_or_else(|| {
                "not true or false (strconv.ParseBool: 1, t, T, true, TRUE, True, 0, f, F, false, FALSE, False)"
                    .to_string()
            }),
        }
    }
}

/// The longest text a setting's value may be: longer ones are no duration, number or switch.
pub const MAX_VALUE_CHARS: usize = 64;

/// A JSON scalar as the text a flag would carry; `None` for objects, arrays and null.
pub fn scalar(v: &serde_json::Value) -> Option<String> {
    use serde_json::Value as Json;
    match v {
        Json::String(s) => Some(s.clone()),
        Json::Number(n) => Some(n.to_string()),
        Json::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Go's `strconv.ParseBool`.
pub fn parse_bool(t: &str) -> Option<bool> {
    match t {
        "1" | "t" | "T" | "true" | "TRUE" | "True" => Some(true),
        "0" | "f" | "F" | "false" | "FALSE" | "False" => Some(false),
        _ => None,
    }
}

/// A setting's value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// A span, ms.
    Duration(Millis),
    /// A whole number.
    Int(i64),
    /// A fraction or rate.
    Float(f64),
    /// A switch.
    Bool(bool),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Duration(ms) => f.write_str(&format_go_duration(*ms)),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Bool(b) => write!(f, "{b}"),
        }
    }
}

/// Where a kubelet value came from: its configuration file or its command line, which wins
/// (kubelet docs, "Set Kubelet Parameters Via A Configuration File": flags take precedence).
/// Other components' values are all flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Layer {
    /// A `KubeletConfiguration` file (file semantics for the report frequency).
    File,
    /// A command-line flag.
    Flag,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_map_to_their_component_and_parse_like_go() {
        assert_eq!(
            Field::by_flag("node-monitor-grace-period"),
            Some((Component::ControllerManager, Field::NodeMonitorGracePeriod))
        );
        assert_eq!(Field::by_flag("feature-gates"), None);
        assert_eq!(Field::by_flag("cluster-cidr"), None);
        assert_eq!(Field::NodeMonitorGracePeriod.parse("2m"), Ok(Value::Duration(120_000)));
        assert!(
            Field::NodeMonitorGracePeriod.parse("16").is_err(),
            "a duration needs a unit"
        );
        assert!(Field::DefaultUnreachableTolerationSeconds.parse("30s").is_err());
        assert_eq!(Field::NodeEvictionRate.parse("0.5"), Ok(Value::Float(0.5)));
        assert!(Field::NodeEvictionRate.parse("NaN").is_err());
        // Go's parsers trim nothing, and neither does the import.
        let tab = Field::NodeStatusUpdateFrequency.parse("\t5s").unwrap_err();
        assert_eq!(
            tab,
            "the character \\t at character 1: Go's time.ParseDuration reads no spaces or control characters"
        );
        assert!(Field::MaxPods
            .parse("50 ")
            .unwrap_err()
            .starts_with("a space at character 3"));
        assert!(Field::NodeStatusUpdateFrequency
            .parse("4s\u{0}")
            .unwrap_err()
            .contains("\\x00 at character 3"));
        let long = Field::NodeMonitorGracePeriod.parse(&"x".repeat(1 << 20)).unwrap_err();
        assert_eq!(
            long,
            "1048576 characters long: not a value Go's time.ParseDuration reads"
        );
        assert_eq!(
            Field::NodeMonitorGracePeriod.parse("16").unwrap_err(),
            "missing unit; use h, m, s or ms (as in \"40s\")"
        );
        assert_eq!(Field::EnableTaintManager.parse("F"), Ok(Value::Bool(false)));
        assert_eq!(
            Component::by_binary("/usr/local/bin/kube-apiserver"),
            Some(Component::ApiServer)
        );
    }
}
