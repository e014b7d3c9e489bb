//! "Apply this to a cluster": the settings of a scenario as configuration a real cluster takes.
//!
//! Eight forms: a `KubeletConfiguration` fragment, kube-controller-manager and kube-apiserver
//! flags (as a static pod's `command`), a pod `tolerations:` snippet, an rke `cluster.yml`
//! `services:` fragment shaped like rke's `cluster.yml` examples, a `KubeProxyConfiguration`, a
//! `PodDisruptionBudget` manifest per workload that has one, and kubeadm's documents
//! (`kubeadm`). Every document is written by a YAML serializer. Only values that differ from
//! the version's defaults are written (a form with nothing to write is empty, with a note
//! saying so); a flag the version rejects is never written, and one it ignores is left out with
//! a note saying why. Beside them, [`out_of_service`] reads a run for the operator's fix of a
//! node that stays down.

mod kubeadm;
mod out_of_service;

pub use kubeadm::api_version as kubeadm_api_version;
pub use out_of_service::out_of_service;

use crate::cause::Cause;
use crate::scenario::flags::{self, CommandLine, Component, ConfigFile, Flag, Value};
use crate::scenario::{Config, IntOrPercent, ProxyMode};
use crate::version::Gate;
use serde::Serialize;
use serde_yaml_ng::{Mapping, Value as YamlValue};
use std::collections::BTreeMap;

/// The export forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `KubeletConfiguration` YAML.
    Kubelet,
    /// kube-controller-manager flags.
    ControllerManager,
    /// kube-apiserver flags.
    ApiServer,
    /// A pod `tolerations:` snippet.
    Tolerations,
    /// An rke `cluster.yml` `services:` fragment.
    Rke,
    /// kube-proxy's `KubeProxyConfiguration` YAML.
    KubeProxy,
    /// The workloads' `PodDisruptionBudget` manifests.
    Pdb,
    /// kubeadm's `ClusterConfiguration`, `KubeletConfiguration` and `KubeProxyConfiguration`.
    Kubeadm,
}

impl Format {
    /// Every form, with its CLI name.
    pub const ALL: [(&'static str, Format); 8] = [
        ("kubelet", Format::Kubelet),
        ("kcm", Format::ControllerManager),
        ("apiserver", Format::ApiServer),
        ("tolerations", Format::Tolerations),
        ("rke", Format::Rke),
        ("kube-proxy", Format::KubeProxy),
        ("pdb", Format::Pdb),
        ("kubeadm", Format::Kubeadm),
    ];

    /// The form with this CLI name.
    pub fn by_name(name: &str) -> Option<Format> {
        Format::ALL.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
    }
}

/// One exported document and the notes that go with it.
#[derive(Debug, Clone, PartialEq)]
pub struct Export {
    /// The YAML document.
    pub yaml: String,
    /// Sentences about what was left out or deserves attention.
    pub notes: Vec<Cause>,
}

impl Export {
    /// The document with its notes as leading `#` comment lines, in English.
    pub fn with_comments(&self) -> String {
        self.with_comments_in(&|k| crate::cause::english(k))
    }

    /// The document with its notes rendered through `lookup` (a language's catalogue).
    pub fn with_comments_in(&self, lookup: &dyn Fn(&str) -> Option<&str>) -> String {
        let mut out: String = self.notes.iter().map(|n| format!("# {}\n", n.render(lookup))).collect();
        out.push_str(&self.yaml);
        out
    }
}

#[derive(Serialize)]
#[serde(untagged)]
enum IntOrString {
    Int(u32),
    String(String),
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MatchLabels {
    match_labels: BTreeMap<&'static str, String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PdbSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    min_available: Option<IntOrString>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_unavailable: Option<IntOrString>,
    selector: MatchLabels,
    #[serde(skip_serializing_if = "Option::is_none")]
    unhealthy_pod_eviction_policy: Option<&'static str>,
}

#[derive(Serialize)]
struct Metadata {
    name: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PodDisruptionBudget {
    api_version: &'static str,
    kind: &'static str,
    metadata: Metadata,
    spec: PdbSpec,
}

#[derive(Serialize)]
struct Command {
    command: Vec<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Toleration {
    key: &'static str,
    operator: &'static str,
    effect: &'static str,
    toleration_seconds: i64,
}

#[derive(Serialize)]
struct Tolerations {
    tolerations: Vec<Toleration>,
}

#[derive(Serialize)]
struct ExtraArgs {
    extra_args: BTreeMap<String, String>,
}

#[derive(Serialize)]
struct RkeServices {
    services: BTreeMap<&'static str, ExtraArgs>,
}

impl Format {
    /// The component whose command line the form writes.
    fn component(self) -> Option<Component> {
        match self {
            Format::Kubelet => Some(Component::Kubelet),
            Format::ControllerManager => Some(Component::ControllerManager),
            Format::ApiServer => Some(Component::ApiServer),
            Format::Tolerations | Format::Rke | Format::KubeProxy | Format::Pdb | Format::Kubeadm => None,
        }
    }
}

/// Flags (name without dashes, value) for one component that differ from the version's
/// defaults, in the catalogue's order: each as its unit writes it, a feature gate as
/// `feature-gates=<gate>=<value>`. A flag the version lacks is never written.
fn changed_flags(cfg: &Config, format: Format, defaults: &Config, notes: &mut Vec<Cause>) -> Vec<(String, String)> {
    let v = cfg.profile.version;
    let Some(component) = format.component() else {
        return Vec::new();
    };
    let c = &cfg.controller_manager;
    let mut out: Vec<(String, String)> = Vec::new();
    for f in flags::ALL
        .iter()
        .filter(|f| f.component == component && f.exists_in(&cfg.profile))
    {
        let value = f.read(cfg);
        if value == f.read(defaults) {
            continue;
        }
        match f.command_line {
            CommandLine::None => {}
            // The legacy path alone reads --pod-eviction-timeout.
            CommandLine::Flag if f.name == flags::POD_EVICTION_TIMEOUT.name && c.taint_based_evictions => notes.push(
                Cause::new("note.timeout_left_out")
                    .time("timeout", c.pod_eviction_timeout)
                    .text("version", v),
            ),
            CommandLine::Flag => out.push((f.name.to_string(), value.to_string())),
            CommandLine::FeatureGate => out.push(("feature-gates".to_string(), format!("{}={value}", f.name))),
        }
    }
    if component == Component::ApiServer && !c.taint_based_evictions && !out.is_empty() {
        notes.push(Cause::new("note.tolerations_unread").text("version", v));
    }
    out
}

/// A setting's value in a YAML document: a span as a Go duration, a mode by name.
fn yaml_value(v: Value) -> YamlValue {
    match v {
        Value::Duration(_) | Value::Mode(_) => YamlValue::String(v.to_string()),
        Value::Int(i) => YamlValue::Number(i.into()),
        Value::Float(x) => YamlValue::Number(x.into()),
        Value::Bool(b) => YamlValue::Bool(b),
    }
}

/// A configuration file's `apiVersion` and `kind`.
fn file_header(api_version: &str, file: ConfigFile) -> Mapping {
    let mut doc = Mapping::new();
    doc.insert("apiVersion".into(), api_version.into());
    doc.insert("kind".into(), file.kind().into());
    doc
}

/// The `KubeletConfiguration` (`kubelet.config.k8s.io/v1beta1`): the catalogue's fields of the
/// file that differ from the defaults, and the feature gates the scenario turns.
fn kubelet_configuration(cfg: &Config, defaults: &Config, notes: &mut Vec<Cause>) -> Mapping {
    let (p, k, v) = (&cfg.profile, &cfg.kubelet, cfg.profile.version);
    let changed = |f: &Flag| f.exists_in(p) && f.read(cfg) != f.read(defaults);
    let update_changed = changed(&flags::NODE_STATUS_UPDATE_FREQUENCY);
    let report = &flags::NODE_STATUS_REPORT_FREQUENCY;
    let mut doc = file_header("kubelet.config.k8s.io/v1beta1", ConfigFile::KubeletConfiguration);
    for (f, field) in flags::file_fields(ConfigFile::KubeletConfiguration) {
        // In a config file, setting the update frequency alone also sets the report frequency:
        // write the report frequency whenever the update frequency is written.
        let follows = f.name == report.name && update_changed && f.exists_in(p);
        if changed(f) || follows {
            doc.insert(field.into(), yaml_value(f.read(cfg)));
        }
    }
    if update_changed && report.exists_in(p) {
        notes.push(Cause::new("note.report_written"));
    }
    let mut feature_gates = Mapping::new();
    if k.node_lease != Gate::NodeLease.default_on(v) {
        feature_gates.insert(Gate::NodeLease.name().into(), k.node_lease.into());
    }
    // shutdownGracePeriod and shutdownGracePeriodCriticalPods (1.20+), with the
    // GracefulNodeShutdown gate where its default differs from the scenario's.
    let graceful = Gate::GracefulNodeShutdown;
    if changed(&flags::SHUTDOWN_GRACE_PERIOD) && k.graceful_shutdown != graceful.default_on(v) {
        feature_gates.insert(graceful.name().into(), k.graceful_shutdown.into());
    }
    if !feature_gates.is_empty() {
        doc.insert("featureGates".into(), YamlValue::Mapping(feature_gates));
    }
    doc
}

/// A PDB's `minAvailable` or `maxUnavailable` as the API takes it.
fn int_or_string(v: IntOrPercent) -> IntOrString {
    match v {
        IntOrPercent::Int(n) => IntOrString::Int(n),
        IntOrPercent::Percent(p) => IntOrString::String(format!("{p}%")),
    }
}

/// kube-proxy's `KubeProxyConfiguration` (`kubeproxy.config.k8s.io/v1alpha1`): the catalogue's
/// fields of the file that differ from the defaults: the mode when it is not iptables, and the
/// mode's `minSyncPeriod` and `syncPeriod`, under the mode in use.
fn kube_proxy(cfg: &Config, defaults: &Config) -> Mapping {
    let mode = cfg.kube_proxy.mode;
    let mut doc = file_header("kubeproxy.config.k8s.io/v1alpha1", ConfigFile::KubeProxyConfiguration);
    let mut periods = Mapping::new();
    for (f, field) in flags::file_fields(ConfigFile::KubeProxyConfiguration) {
        let value = f.read(cfg);
        // The v1alpha1 file never defaults ipvs.minSyncPeriod (it stays 0s), unlike
        // --ipvs-min-sync-period's 1s: an ipvs export always writes it.
        let ipvs_floor = mode == ProxyMode::Ipvs && f.name == flags::IPTABLES_MIN_SYNC_PERIOD.name;
        if value == f.read(defaults) && !ipvs_floor {
            continue;
        }
        match field.split_once('.') {
            // `iptables.syncPeriod` is `ipvs.syncPeriod` in ipvs mode, and so on.
            Some((_, key)) => periods.insert(key.into(), yaml_value(value)),
            None => doc.insert(field.into(), yaml_value(value)),
        };
    }
    if !periods.is_empty() {
        doc.insert(mode.name().into(), YamlValue::Mapping(periods));
    }
    doc
}

/// A `PodDisruptionBudget` per workload with one: `policy/v1` from 1.21 (`policy/v1beta1`
/// before), selecting the workload's pods by an `app` label, with
/// `unhealthyPodEvictionPolicy: AlwaysAllow` where the version has the field and it is set.
fn pdbs(cfg: &Config, notes: &mut Vec<Cause>) -> String {
    let v = cfg.profile.version;
    let docs: Vec<String> = cfg
        .workloads
        .iter()
        .filter_map(|w| w.pdb.map(|pdb| (w, pdb)))
        .map(|(w, pdb)| {
            yaml(&PodDisruptionBudget {
                api_version: if v.minor >= 21 { "policy/v1" } else { "policy/v1beta1" },
                kind: "PodDisruptionBudget",
                metadata: Metadata { name: w.name.clone() },
                spec: PdbSpec {
                    min_available: pdb.min_available.map(int_or_string),
                    max_unavailable: pdb.max_unavailable.map(int_or_string),
                    selector: MatchLabels {
                        match_labels: crate::order::map([("app", w.name.clone())]),
                    },
                    unhealthy_pod_eviction_policy: (cfg.profile.has_unhealthy_pod_eviction_policy
                        && pdb.always_allow_unhealthy)
                        .then_some("AlwaysAllow"),
                },
            })
        })
        .collect();
    notes.push(Cause::new(if docs.is_empty() {
        "note.pdb_none"
    } else {
        "note.pdb_selector"
    }));
    docs.join("---\n")
}

fn command(binary: &str, flags: &[(String, String)]) -> Command {
    let mut command = vec![binary.to_string()];
    command.extend(flags.iter().map(|(k, v)| format!("--{k}={v}")));
    Command { command }
}

fn yaml<T: Serialize>(doc: &T) -> String {
    serde_yaml_ng::to_string(doc).expect("plain data always serializes")
}

/// Whether a configuration document says more than its `apiVersion` and `kind`.
fn says_something(doc: &Mapping) -> bool {
    doc.len() > 2
}

/// A command line with the changed flags, and whether any changed.
fn flags_form(cfg: &Config, format: Format, binary: &str, defaults: &Config, notes: &mut Vec<Cause>) -> (String, bool) {
    let flags = changed_flags(cfg, format, defaults, notes);
    (yaml(&command(binary, &flags)), !flags.is_empty())
}

/// The pod `tolerations:` snippet with the apiserver's default tolerationSeconds.
fn tolerations(cfg: &Config, notes: &mut Vec<Cause>) -> String {
    let a = &cfg.api_server;
    notes.push(Cause::new("note.pod_tolerations"));
    let toleration = |key, toleration_seconds| Toleration {
        key,
        operator: "Exists",
        effect: "NoExecute",
        toleration_seconds,
    };
    yaml(&Tolerations {
        tolerations: vec![
            toleration("node.kubernetes.io/not-ready", a.default_not_ready_toleration_seconds),
            toleration(
                "node.kubernetes.io/unreachable",
                a.default_unreachable_toleration_seconds,
            ),
        ],
    })
}

/// rke's `services:` with each component's changed flags as `extra_args`.
fn rke(cfg: &Config, defaults: &Config, notes: &mut Vec<Cause>) -> (String, bool) {
    let mut services = BTreeMap::new();
    for (service, component) in [
        ("kube-api", Format::ApiServer),
        ("kube-controller", Format::ControllerManager),
        ("kubelet", Format::Kubelet),
    ] {
        let flags = changed_flags(cfg, component, defaults, notes);
        if !flags.is_empty() {
            services.insert(
                service,
                ExtraArgs {
                    extra_args: crate::order::map(flags),
                },
            );
        }
    }
    if services.contains_key("kubelet") {
        notes.push(Cause::new("note.rke_flag"));
    }
    let said = !services.is_empty();
    (yaml(&RkeServices { services }), said)
}

/// Exports `cfg` in one form. A form in which nothing differs from the version's defaults is
/// empty, with a note saying so.
pub fn export(cfg: &Config, format: Format) -> Export {
    let defaults = Config::defaults(cfg.profile.version);
    let mut notes = Vec::new();
    let document = |doc: Mapping| {
        let said = says_something(&doc);
        (yaml(&doc), said)
    };
    let (yaml, said) = match format {
        Format::Kubelet => document(kubelet_configuration(cfg, &defaults, &mut notes)),
        Format::ControllerManager => flags_form(cfg, format, "kube-controller-manager", &defaults, &mut notes),
        Format::ApiServer => flags_form(cfg, format, "kube-apiserver", &defaults, &mut notes),
        Format::Tolerations => (tolerations(cfg, &mut notes), true),
        Format::Rke => rke(cfg, &defaults, &mut notes),
        Format::KubeProxy => document(kube_proxy(cfg, &defaults)),
        Format::Pdb => (pdbs(cfg, &mut notes), true),
        Format::Kubeadm => {
            let docs = kubeadm::kubeadm(cfg, &defaults, &mut notes);
            let said = !docs.is_empty();
            (docs, said)
        }
    };
    if said {
        return Export { yaml, notes };
    }
    notes.push(Cause::new("note.nothing_changed").text("version", cfg.profile.version));
    Export {
        yaml: String::new(),
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::preset;
    use serde_yaml_ng::Value;

    fn cfg(json: &str) -> Config {
        crate::scenario::Scenario::from_json(json).unwrap().resolve().unwrap()
    }

    fn parse(e: &Export) -> Value {
        serde_yaml_ng::from_str(&e.with_comments()).expect("exported YAML parses")
    }

    #[test]
    fn kubelet_configuration_parses_back_to_the_values_set() {
        let c = cfg(
            r#"{"version": "1.31", "kubelet": {"nodeStatusUpdateFrequency": "4s", "nodeLeaseDurationSeconds": 20}, "nodes": [{"name": "n"}]}"#,
        );
        let v = parse(&export(&c, Format::Kubelet));
        assert_eq!(v["kind"], "KubeletConfiguration");
        assert_eq!(v["nodeStatusUpdateFrequency"], "4s");
        assert_eq!(v["nodeStatusReportFrequency"], "4s", "file semantics: R follows U");
        assert_eq!(v["nodeLeaseDurationSeconds"], 20);
    }

    #[test]
    fn controller_manager_flags_follow_the_version() {
        let c = cfg(
            r#"{"version": "1.20", "controllerManager": {"nodeMonitorGracePeriod": "30s", "podEvictionTimeout": "30s"}, "nodes": [{"name": "n"}]}"#,
        );
        let e = export(&c, Format::ControllerManager);
        let v = parse(&e);
        let command: Vec<&str> = v["command"]
            .as_sequence()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        assert_eq!(command, ["kube-controller-manager", "--node-monitor-grace-period=30s"]);
        assert!(e
            .notes
            .iter()
            .any(|n| n.english().contains("--pod-eviction-timeout=30s is left out")));
        let legacy = cfg(
            r#"{"version": "1.17", "featureGates": {"TaintBasedEvictions": false}, "controllerManager": {"podEvictionTimeout": "1m0s"}, "nodes": [{"name": "n"}]}"#,
        );
        let text = export(&legacy, Format::ControllerManager).yaml;
        assert!(
            text.contains("--pod-eviction-timeout=1m0s") && text.contains("--feature-gates=TaintBasedEvictions=false"),
            "{text}"
        );
        // 1.27 and later never get the removed flags, whatever the preset.
        for p in crate::presets::presets() {
            let c = p.scenario.resolve().unwrap();
            let text = export(&c, Format::ControllerManager).yaml + &export(&c, Format::Rke).yaml;
            if c.profile.version.minor >= 27 {
                assert!(
                    !text.contains("pod-eviction-timeout") && !text.contains("enable-taint-manager"),
                    "{}: {text}",
                    p.name
                );
            }
        }
    }

    #[test]
    fn apiserver_tolerations_and_rke_match_the_seed_examples() {
        let c = preset("rke-1.18-tolerations").unwrap().scenario.resolve().unwrap();
        let api = parse(&export(&c, Format::ApiServer));
        assert_eq!(api["command"][1], "--default-not-ready-toleration-seconds=60");
        assert_eq!(api["command"][2], "--default-unreachable-toleration-seconds=30");
        let tol = parse(&export(&c, Format::Tolerations));
        assert_eq!(tol["tolerations"][1]["key"], "node.kubernetes.io/unreachable");
        assert_eq!(tol["tolerations"][1]["tolerationSeconds"], 30);
        let rke = parse(&export(&c, Format::Rke));
        assert_eq!(
            rke["services"]["kube-api"]["extra_args"]["default-unreachable-toleration-seconds"],
            "30"
        );
        assert_eq!(
            rke["services"]["kube-controller"]["extra_args"]["node-monitor-grace-period"],
            "30s"
        );
        assert!(rke["services"].get("kubelet").is_none());
    }

    fn command(e: &Export) -> Vec<String> {
        parse(e)["command"]
            .as_sequence()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect()
    }

    #[test]
    fn kubelet_configuration_writes_the_shutdown_grace_periods() {
        let c = cfg(
            r#"{"version": "1.35", "kubelet": {"shutdownGracePeriod": "30s", "shutdownGracePeriodCriticalPods": "10s"}, "nodes": [{"name": "n"}]}"#,
        );
        let v = parse(&export(&c, Format::Kubelet));
        assert_eq!(v["shutdownGracePeriod"], "30s");
        assert_eq!(v["shutdownGracePeriodCriticalPods"], "10s");
        assert!(
            v.get("featureGates").is_none(),
            "the gate is on by default on 1.35: {v:?}"
        );
        // On 1.20 the GracefulNodeShutdown gate is alpha and off: it is written when turned on.
        let alpha = cfg(
            r#"{"version": "1.20", "featureGates": {"GracefulNodeShutdown": true}, "kubelet": {"shutdownGracePeriod": "1m0s"}, "nodes": [{"name": "n"}]}"#,
        );
        let v = parse(&export(&alpha, Format::Kubelet));
        assert_eq!(v["shutdownGracePeriod"], "1m0s");
        assert!(v.get("shutdownGracePeriodCriticalPods").is_none());
        assert_eq!(v["featureGates"]["GracefulNodeShutdown"], true);
    }

    #[test]
    fn controller_manager_writes_its_client_limits_and_the_force_detach_switch_from_1_30() {
        let c = cfg(
            r#"{"version": "1.30", "controllerManager": {"kubeApiQps": 50, "kubeApiBurst": 100, "disableForceDetachOnTimeout": true}, "nodes": [{"name": "n"}]}"#,
        );
        assert_eq!(
            command(&export(&c, Format::ControllerManager)),
            [
                "kube-controller-manager",
                "--kube-api-qps=50",
                "--kube-api-burst=100",
                "--disable-force-detach-on-timeout=true"
            ]
        );
        let rke = parse(&export(&c, Format::Rke));
        assert_eq!(rke["services"]["kube-controller"]["extra_args"]["kube-api-qps"], "50");
        // 1.29 has no --disable-force-detach-on-timeout; a fractional rate keeps its decimals.
        let old = cfg(r#"{"version": "1.29", "controllerManager": {"kubeApiQps": 7.5}, "nodes": [{"name": "n"}]}"#);
        assert_eq!(
            command(&export(&old, Format::ControllerManager)),
            ["kube-controller-manager", "--kube-api-qps=7.5"]
        );
    }

    #[test]
    fn kube_proxy_configuration_writes_the_modes_sync_periods() {
        let c = cfg(
            r#"{"version": "1.33", "kubeProxy": {"mode": "ipvs", "minSyncPeriod": "2s", "syncPeriod": "45s"}, "nodes": [{"name": "n"}]}"#,
        );
        let v = parse(&export(&c, Format::KubeProxy));
        assert_eq!(v["apiVersion"], "kubeproxy.config.k8s.io/v1alpha1");
        assert_eq!(v["kind"], "KubeProxyConfiguration");
        assert_eq!(v["mode"], "ipvs");
        assert_eq!(v["ipvs"]["minSyncPeriod"], "2s");
        assert_eq!(v["ipvs"]["syncPeriod"], "45s");
        assert!(v.get("iptables").is_none());
        // iptables is the default mode: only the changed period is written.
        let c = cfg(r#"{"version": "1.33", "kubeProxy": {"minSyncPeriod": "5s"}, "nodes": [{"name": "n"}]}"#);
        let v = parse(&export(&c, Format::KubeProxy));
        assert!(v.get("mode").is_none());
        assert_eq!(v["iptables"]["minSyncPeriod"], "5s");
        assert!(v["iptables"].get("syncPeriod").is_none());
        // The file leaves ipvs.minSyncPeriod at 0s unless written, so ipvs always gets it.
        let c = cfg(r#"{"version": "1.33", "kubeProxy": {"mode": "ipvs"}, "nodes": [{"name": "n"}]}"#);
        assert_eq!(parse(&export(&c, Format::KubeProxy))["ipvs"]["minSyncPeriod"], "1s");
    }

    fn documents(e: &Export) -> Vec<Value> {
        use serde::Deserialize;
        serde_yaml_ng::Deserializer::from_str(&e.with_comments())
            .map(|d| Value::deserialize(d).expect("each document parses"))
            .collect()
    }

    #[test]
    fn pdb_manifests_follow_the_version() {
        let json = r#"{"version": "VERSION", "nodes": [{"name": "n"}], "workloads": [
            {"kind": "Deployment", "name": "web", "replicas": 3, "pdb": {"minAvailable": 2}},
            {"kind": "Deployment", "name": "plain"},
            {"kind": "StatefulSet", "name": "db", "replicas": 4, "pdb": {"maxUnavailable": "25%"POLICY}}]}"#;
        let c = cfg(&json
            .replace("VERSION", "1.35")
            .replace("POLICY", r#", "unhealthyPodEvictionPolicy": "AlwaysAllow""#));
        let docs = documents(&export(&c, Format::Pdb));
        assert_eq!(docs.len(), 2, "{docs:?}");
        assert_eq!(docs[0]["apiVersion"], "policy/v1");
        assert_eq!(docs[0]["kind"], "PodDisruptionBudget");
        assert_eq!(docs[0]["metadata"]["name"], "web");
        assert_eq!(docs[0]["spec"]["minAvailable"], 2);
        assert_eq!(docs[0]["spec"]["selector"]["matchLabels"]["app"], "web");
        assert!(docs[0]["spec"].get("unhealthyPodEvictionPolicy").is_none());
        assert_eq!(docs[1]["spec"]["maxUnavailable"], "25%");
        assert_eq!(docs[1]["spec"]["unhealthyPodEvictionPolicy"], "AlwaysAllow");
        // policy/v1beta1 before 1.21, and no unhealthyPodEvictionPolicy before 1.27.
        let c = cfg(&json.replace("VERSION", "1.20").replace("POLICY", ""));
        let docs = documents(&export(&c, Format::Pdb));
        assert_eq!(docs[0]["apiVersion"], "policy/v1beta1");
        assert!(docs[1]["spec"].get("unhealthyPodEvictionPolicy").is_none());
        let none = export(&cfg(r#"{"nodes": [{"name": "n"}]}"#), Format::Pdb);
        assert_eq!(none.yaml, "");
        assert!(none.notes[0]
            .english()
            .contains("no workload has a PodDisruptionBudget"));
    }

    #[test]
    fn defaults_export_nothing_and_say_so() {
        let c = cfg(r#"{"nodes": [{"name": "n"}]}"#);
        for (name, form) in Format::ALL {
            let e = export(&c, form);
            match form {
                Format::Tolerations => assert!(e.yaml.contains("tolerationSeconds: 300"), "{}", e.yaml),
                Format::Pdb => assert_eq!(e.notes[0].key, "note.pdb_none"),
                _ => {
                    assert_eq!(e.yaml, "", "{name}: nothing differs from the defaults");
                    let last = e.notes.last().map(|n| n.english());
                    assert!(
                        last.as_deref().is_some_and(|n| n.starts_with("nothing to change")),
                        "{name}: {last:?}"
                    );
                }
            }
        }
    }
}
