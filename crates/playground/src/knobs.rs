//! The playground's sliders: a view of the engine's flag catalogue (`kubelife_engine::flags`).
//!
//! The catalogue says what each tunable is: its flag and configuration field, unit, range,
//! default and the versions that have it. The page adds only what is its own: where a slider
//! goes (its [`Group`]), its step, and how its number reads. A knob's value lives in
//! [`crate::settings::Settings::overrides`] only when the user changed it; otherwise the
//! version's default (as the engine resolves it) is shown.

use crate::i18n::{tr, tr_built, trf, Lang};
use kubelife_engine::flags::{self, CommandLine, Flag};
use kubelife_engine::scenario::{Config, Scenario};
use kubelife_engine::Version;

/// Which component a knob belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// KubeletConfiguration.
    Kubelet,
    /// kube-controller-manager.
    ControllerManager,
    /// kube-apiserver.
    ApiServer,
    /// kube-proxy.
    KubeProxy,
    /// The workloads.
    Workloads,
    /// Cluster shape.
    Cluster,
}

impl Group {
    /// Heading shown above the group; component names stay as upstream spells them.
    pub fn title(self, lang: Lang) -> &'static str {
        match self {
            Group::Kubelet => "kubelet",
            Group::ControllerManager => "kube-controller-manager",
            Group::ApiServer => "kube-apiserver",
            Group::KubeProxy => "kube-proxy",
            Group::Workloads => tr(lang, "ui.group.workloads"),
            Group::Cluster => tr(lang, "ui.group.cluster"),
        }
    }

    /// The group's name in page anchors (`group-kubelet`), one word.
    pub fn slug(self) -> &'static str {
        match self {
            Group::Kubelet => "kubelet",
            Group::ControllerManager => "controllermanager",
            Group::ApiServer => "apiserver",
            Group::KubeProxy => "kubeproxy",
            Group::Workloads => "workloads",
            Group::Cluster => "cluster",
        }
    }

    /// Every group, in display order.
    pub const ALL: [Group; 6] = [
        Group::Kubelet,
        Group::ControllerManager,
        Group::ApiServer,
        Group::KubeProxy,
        Group::Workloads,
        Group::Cluster,
    ];
}

/// How a knob's number reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Seconds, shown as a Go duration.
    Seconds,
    /// A plain count.
    Count,
    /// Nodes per second.
    Rate,
    /// A fraction between 0 and 1.
    Fraction,
}

impl Unit {
    /// How the page shows a number of the catalogue's unit: spans and whole seconds as Go
    /// durations, requests per second as a whole count.
    pub const fn of(unit: flags::Unit) -> Unit {
        match unit {
            flags::Unit::Duration | flags::Unit::Seconds => Unit::Seconds,
            flags::Unit::NodesPerSecond => Unit::Rate,
            flags::Unit::Fraction => Unit::Fraction,
            flags::Unit::Count | flags::Unit::PerSecond | flags::Unit::Switch | flags::Unit::Mode => Unit::Count,
        }
    }
}

/// One slider: a catalogue flag, where the page puts it, and its step. The other fields are the
/// catalogue's, read once.
#[derive(Debug, Clone, Copy)]
pub struct Knob {
    /// The catalogue's declaration.
    pub def: &'static Flag,
    /// Flag name without dashes; the slider's accessible name contains it.
    pub flag: &'static str,
    /// Its group.
    pub group: Group,
    /// Its unit.
    pub unit: Unit,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Step.
    pub step: f64,
    /// The resolved value in this knob's unit.
    pub read: fn(&Config) -> f64,
    /// Writes a value into the scenario.
    pub write: fn(&mut Scenario, f64),
}

/// A catalogue value as a slider's number.
fn number(v: flags::Value) -> f64 {
    v.number().unwrap_or_default()
}

/// Writes a slider's number into the scenario; a count is a whole number.
fn write(def: &Flag, s: &mut Scenario, v: f64) {
    let v = if Unit::of(def.unit) == Unit::Count {
        v.round()
    } else {
        v
    };
    if let Some(value) = def.value_of(v) {
        def.put(s, value);
    }
}

/// A knob of the catalogue's `$def`, in `$group`, moving by `$step`.
macro_rules! knob {
    ($def:ident, $group:expr, $step:expr) => {
        Knob {
            def: &flags::$def,
            flag: flags::$def.name,
            group: $group,
            unit: Unit::of(flags::$def.unit),
            min: flags::$def.range.0,
            max: flags::$def.range.1,
            step: $step,
            read: |c| number(flags::$def.read(c)),
            write: |s, v| write(&flags::$def, s, v),
        }
    };
}

/// How the page names a flag on its command line: `--<name>`, or `--feature-gates=<gate>`.
pub fn flag_text(def: &Flag) -> String {
    match def.command_line {
        CommandLine::FeatureGate => format!("--feature-gates={}", def.name),
        CommandLine::Flag | CommandLine::None => format!("--{}", def.name),
    }
}

impl Knob {
    /// Where it lives in configuration: the file's field
    /// (`KubeletConfiguration.nodeStatusUpdateFrequency`), else the flag
    /// (`--node-monitor-grace-period`), else the scenario's field (`simulation.podStartup`).
    pub fn field(&self) -> String {
        let d = self.def;
        match (d.file, d.command_line) {
            (Some(f), _) => format!("{}.{}", f.file.kind(), f.field),
            (None, CommandLine::None) => d.path.to_string(),
            (None, _) => flag_text(d),
        }
    }

    /// One line on what it does, in `lang` (catalogue key `knob.<flag>.help`).
    pub fn help(&self, lang: Lang) -> &'static str {
        tr_built(lang, &format!("knob.{}.help", self.flag))
    }

    /// Why an unavailable version lacks it, in `lang` (catalogue key `knob.<flag>.missing`).
    pub fn missing(&self, lang: Lang) -> &'static str {
        tr_built(lang, &format!("knob.{}.missing", self.flag))
    }

    /// Whether version 1.`minor` offers it: its components have it, and it works without
    /// turning a feature gate on (the catalogue's [`Flag::offered`]).
    pub fn available(&self, minor: u32) -> bool {
        self.def.offered(&Version { minor }.profile())
    }

    /// Why version 1.`minor` has no such control, in `lang`; `None` when it has.
    pub fn unavailable(&self, lang: Lang, minor: u32) -> Option<String> {
        (!self.available(minor)).then(|| not_in(lang, minor, self.missing(lang)))
    }
}

/// "Not in 1.N: why", for a control version 1.`minor` lacks.
pub fn not_in(lang: Lang, minor: u32, why: &str) -> String {
    trf(lang, "ui.not_in", &[("minor", &minor), ("why", &why)])
}

/// The knobs, in display order.
pub const KNOBS: &[Knob] = &[
    knob!(NODE_STATUS_UPDATE_FREQUENCY, Group::Kubelet, 1.0),
    knob!(NODE_STATUS_REPORT_FREQUENCY, Group::Kubelet, 1.0),
    knob!(NODE_LEASE_DURATION_SECONDS, Group::Kubelet, 1.0),
    knob!(SHUTDOWN_GRACE_PERIOD, Group::Kubelet, 5.0),
    knob!(SHUTDOWN_GRACE_PERIOD_CRITICAL_PODS, Group::Kubelet, 5.0),
    knob!(NODE_MONITOR_PERIOD, Group::ControllerManager, 1.0),
    knob!(NODE_MONITOR_GRACE_PERIOD, Group::ControllerManager, 1.0),
    knob!(NODE_STARTUP_GRACE_PERIOD, Group::ControllerManager, 1.0),
    knob!(NODE_EVICTION_RATE, Group::ControllerManager, 0.01),
    knob!(SECONDARY_NODE_EVICTION_RATE, Group::ControllerManager, 0.01),
    knob!(LARGE_CLUSTER_SIZE_THRESHOLD, Group::ControllerManager, 1.0),
    knob!(UNHEALTHY_ZONE_THRESHOLD, Group::ControllerManager, 0.05),
    knob!(POD_EVICTION_TIMEOUT, Group::ControllerManager, 1.0),
    knob!(DEFAULT_NOT_READY_TOLERATION_SECONDS, Group::ApiServer, 1.0),
    knob!(DEFAULT_UNREACHABLE_TOLERATION_SECONDS, Group::ApiServer, 1.0),
    knob!(KUBE_API_QPS, Group::ControllerManager, 1.0),
    knob!(KUBE_API_BURST, Group::ControllerManager, 1.0),
    knob!(IPTABLES_MIN_SYNC_PERIOD, Group::KubeProxy, 1.0),
    knob!(IPTABLES_SYNC_PERIOD, Group::KubeProxy, 1.0),
    knob!(POD_STARTUP, Group::Workloads, 1.0),
    knob!(WATCH_LATENCY, Group::Cluster, 0.005),
    knob!(API_LATENCY, Group::Cluster, 0.005),
    knob!(DURATION_SECONDS, Group::Cluster, 60.0),
];

/// The knob with this flag name.
pub fn knob(flag: &str) -> Option<&'static Knob> {
    KNOBS.iter().find(|k| k.flag == flag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_knob_round_trips_through_a_scenario() {
        for k in KNOBS {
            let minor = (20..).find(|&m| k.available(m)).unwrap_or(20);
            let mut s = kubelife_engine::presets::default_cluster(&format!("1.{minor}"));
            let v = if k.min > 0.0 { k.min + k.step } else { k.step };
            if k.flag == flags::SHUTDOWN_GRACE_PERIOD_CRITICAL_PODS.name {
                // The critical pods' share may not exceed the whole.
                (knob(flags::SHUTDOWN_GRACE_PERIOD.name).unwrap().write)(&mut s, 600.0);
            }
            (k.write)(&mut s, v);
            let cfg = s.resolve().unwrap_or_else(|e| panic!("{}: {e}", k.flag));
            assert!(((k.read)(&cfg) - v).abs() < 1e-9, "{}", k.flag);
        }
        assert!(knob(flags::NODE_MONITOR_GRACE_PERIOD.name).is_some());
    }
}
