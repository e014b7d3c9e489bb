//! The scenario fields an import can set, the components whose flags set them, and how a flag's
//! text becomes a value.
//!
//! The flags and fields are the engine's flag catalogue's ([`crate::scenario::flags`]), whose
//! names and types follow each component's flag definitions: the kubelet's
//! `AddKubeletConfigFlags` (cmd/kubelet/app/options), the node lifecycle controller's `AddFlags`
//! (cmd/kube-controller-manager/app/options/nodelifecyclecontroller.go) and kube-apiserver's
//! `DefaultTolerationSeconds` admission flags (plugin/pkg/admission/defaulttolerationseconds).
//! Only the kubelet's `--max-pods`, which the scenario keeps per node, is this module's own.

use super::shown::{escape, is_unsafe, thousands};
use crate::cause::{Arg, Cause};
use crate::scenario::flags::{self, CommandLine, ConfigFile, Flag, Unit};
use crate::scenario::ProxyMode;
use crate::time::parse_go_duration;
use crate::version::Gate;
use std::fmt;

/// A process whose flags or configuration an import reads: the catalogue's components, whose
/// kube-scheduler and etcd an import recognises and sets aside.
pub use crate::scenario::flags::Component;

/// A tunable of the flag catalogue ([`crate::scenario::flags`]), ordered as the catalogue lists
/// them.
#[derive(Clone, Copy)]
pub struct Tunable(pub &'static Flag);

impl Tunable {
    fn index(self) -> usize {
        flags::ALL
            .iter()
            .position(|f| f.name == self.0.name)
            .unwrap_or(usize::MAX)
    }
}

impl PartialEq for Tunable {
    fn eq(&self, other: &Self) -> bool {
        self.0.name == other.0.name
    }
}

impl Eq for Tunable {}

impl PartialOrd for Tunable {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Tunable {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.index().cmp(&other.index())
    }
}

impl fmt::Debug for Tunable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tunable({})", self.0.name)
    }
}

/// A scenario field that imported configuration sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Field {
    /// A tunable of the catalogue that an import reads: a flag or `KubeletConfiguration` field of
    /// the kubelet, kube-controller-manager or kube-apiserver ([`Field::reads`]).
    Setting(Tunable),
    /// The kubelet's `maxPods`, for every node without its own (`--max-pods`).
    MaxPods,
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
    Mode,
}

/// The kubelet's `--max-pods` (`maxPods`), which the scenario keeps per node.
pub const MAX_PODS: &str = "max-pods";

impl Field {
    /// Whether an import reads a catalogue flag: the kubelet's, kube-controller-manager's and
    /// kube-apiserver's flags and `KubeletConfiguration` fields (feature gates are read as
    /// [`Field::Gate`]). kube-proxy's flags and `KubeProxyConfiguration` are not read yet.
    pub fn reads(f: &Flag) -> bool {
        matches!(
            f.component,
            flags::Component::Kubelet | flags::Component::ControllerManager | flags::Component::ApiServer
        ) && f.command_line != CommandLine::FeatureGate
    }

    /// The field of a catalogue flag an import reads.
    pub fn of(f: &'static Flag) -> Option<Field> {
        Field::reads(f).then_some(Field::Setting(Tunable(f)))
    }

    /// The modelled flag called `name` (without dashes), with the component that owns it.
    /// `--feature-gates` is every component's and is handled on its own.
    pub fn by_flag(name: &str) -> Option<(Component, Field)> {
        if name == MAX_PODS {
            return Some((Component::Kubelet, Field::MaxPods));
        }
        let f = flags::ALL
            .iter()
            .find(|f| f.name == name && f.command_line == CommandLine::Flag && Field::reads(f))?;
        Some((
            Some(f.component).filter(|c| *c != Component::Simulation)?,
            Field::Setting(Tunable(f)),
        ))
    }

    /// The modelled `KubeletConfiguration` field called `name`.
    pub fn by_kubelet_field(name: &str) -> Option<Field> {
        if name == "maxPods" {
            return Some(Field::MaxPods);
        }
        flags::file_fields(ConfigFile::KubeletConfiguration)
            .find(|(f, field)| *field == name && Field::reads(f))
            .and_then(|(f, _)| Field::of(f))
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
        match self {
            Field::Setting(t) => t.0.path.to_string(),
            Field::MaxPods => "nodes[].maxPods".to_string(),
            Field::Gate(g) => format!("featureGates.{}", g.name()),
        }
    }

    fn kind(self) -> Kind {
        match self {
            Field::Setting(t) => match t.0.unit {
                Unit::Duration => Kind::Duration,
                Unit::Seconds | Unit::Count => Kind::Int,
                Unit::PerSecond | Unit::NodesPerSecond | Unit::Fraction => Kind::Float,
                Unit::Switch => Kind::Bool,
                Unit::Mode => Kind::Mode,
            },
            Field::MaxPods => Kind::Int,
            Field::Gate(_) => Kind::Bool,
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
    /// The error is a message (`import.value.*`, or a duration's reason).
    pub fn parse(self, text: &str) -> Result<Value, Cause> {
        let reader = match self.kind() {
            Kind::Duration => Arg::Cause(Box::new(Cause::new("import.reader.duration"))),
            Kind::Int => Arg::Text("strconv.ParseInt".into()),
            Kind::Float => Arg::Text("strconv.ParseFloat".into()),
            Kind::Bool => Arg::Text("strconv.ParseBool".into()),
            Kind::Mode => Arg::Text("kube-proxy".into()),
        };
        if let Some((i, ch)) = text.char_indices().find(|(_, c)| c.is_whitespace() || is_unsafe(*c)) {
            let at = text[..i].chars().count() + 1;
            let cause = match ch {
                ' ' => Cause::new("import.value.space"),
                c => Cause::new("import.value.control").text("char", escape(&c.to_string())),
            };
            return Err(cause.text("at", at).with("reader", reader));
        }
        let length = text.chars().count();
        if length > MAX_VALUE_CHARS {
            return Err(Cause::new("import.value.too_long")
                .text("length", thousands(length))
                .with("reader", reader));
        }
        let t = text;
        let said = |key: &'static str| Cause::new(key);
        match self.kind() {
            // The report quotes the value already: only the reason.
            Kind::Duration => parse_go_duration(t).map(Value::Duration).map_err(|e| e.reason()),
            Kind::Int => t
                .parse::<i64>()
                .map(Value::Int)
                .map_err(|_| said("import.value.not_whole")),
            Kind::Float => match t.parse::<f64>() {
                Ok(f) if f.is_finite() => Ok(Value::Float(f)),
                _ => Err(said("import.value.not_number")),
            },
            Kind::Bool => parse_bool(t)
                .map(Value::Bool)
                .ok_or_else(|| said("import.value.not_bool_go")),
            Kind::Mode => ProxyMode::by_name(t)
                .map(Value::Mode)
                .ok_or_else(|| said("import.value.not_mode")),
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

/// A setting's value: the catalogue's.
pub use crate::scenario::flags::Value;

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
        let grace = Field::Setting(Tunable(&flags::NODE_MONITOR_GRACE_PERIOD));
        assert_eq!(
            Field::by_flag("node-monitor-grace-period"),
            Some((Component::ControllerManager, grace))
        );
        assert_eq!(Field::by_flag("feature-gates"), None);
        assert_eq!(Field::by_flag("cluster-cidr"), None);
        assert_eq!(grace.parse("2m"), Ok(Value::Duration(120_000)));
        assert!(grace.parse("16").is_err(), "a duration needs a unit");
        assert!(Field::Setting(Tunable(&flags::DEFAULT_UNREACHABLE_TOLERATION_SECONDS))
            .parse("30s")
            .is_err());
        assert_eq!(
            Field::Setting(Tunable(&flags::NODE_EVICTION_RATE)).parse("0.5"),
            Ok(Value::Float(0.5))
        );
        assert!(Field::Setting(Tunable(&flags::NODE_EVICTION_RATE))
            .parse("NaN")
            .is_err());
        // Go's parsers trim nothing, and neither does the import.
        let tab = Field::Setting(Tunable(&flags::NODE_STATUS_UPDATE_FREQUENCY))
            .parse("\t5s")
            .unwrap_err()
            .english();
        assert_eq!(
            tab,
            "the character \\t at character 1: Go's time.ParseDuration reads no spaces or control characters"
        );
        assert!(Field::MaxPods
            .parse("50 ")
            .unwrap_err()
            .english()
            .starts_with("a space at character 3"));
        assert!(Field::Setting(Tunable(&flags::NODE_STATUS_UPDATE_FREQUENCY))
            .parse("4s\u{0}")
            .unwrap_err()
            .english()
            .contains("\\x00 at character 3"));
        let long = grace.parse(&"x".repeat(1 << 20)).unwrap_err().english();
        assert_eq!(
            long,
            "1,048,576 characters long: not a value Go's time.ParseDuration reads"
        );
        assert_eq!(
            grace.parse("16").unwrap_err().english(),
            "missing unit; use h, m, s or ms (as in \"40s\")"
        );
        assert_eq!(
            Field::Setting(Tunable(&flags::ENABLE_TAINT_MANAGER)).parse("F"),
            Ok(Value::Bool(false))
        );
        assert_eq!(
            Component::by_binary("/usr/local/bin/kube-apiserver"),
            Some(Component::ApiServer)
        );
    }
}
