//! "Apply this to a cluster": the settings of a scenario as configuration a real cluster takes.
//!
//! Five forms: a `KubeletConfiguration` fragment, kube-controller-manager and kube-apiserver
//! flags (as a static pod's `command`), a pod `tolerations:` snippet, and an rke `cluster.yml`
//! `services:` fragment shaped like rke's `cluster.yml` examples. Every document is written by a YAML
//! serializer. Only values that differ from the version's defaults are written; a flag the
//! version rejects is never written, and one it ignores is left out with a note saying why.

use crate::cause::Cause;
use crate::scenario::Config;
use crate::time::format_go_duration;
use serde::Serialize;
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
}

impl Format {
    /// Every form, with its CLI name.
    pub const ALL: [(&'static str, Format); 5] = [
        ("kubelet", Format::Kubelet),
        ("kcm", Format::ControllerManager),
        ("apiserver", Format::ApiServer),
        ("tolerations", Format::Tolerations),
        ("rke", Format::Rke),
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
#[serde(rename_all = "camelCase")]
struct KubeletConfiguration {
    api_version: &'static str,
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    node_status_update_frequency: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    node_status_report_frequency: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    node_lease_duration_seconds: Option<i64>,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    feature_gates: BTreeMap<&'static str, bool>,
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

/// Flags (name without dashes, value) for one component that differ from the version's defaults.
fn changed_flags(cfg: &Config, component: Format, notes: &mut Vec<Cause>) -> Vec<(String, String)> {
    let v = cfg.profile.version;
    let p = &crate::scenario::Defaults::of(v);
    let mut out: Vec<(String, String)> = Vec::new();
    let mut flag = |name: &str, value: String, differs: bool| {
        if differs {
            out.push((name.to_string(), value));
        }
    };
    match component {
        Format::ControllerManager => {
            let c = &cfg.controller_manager;
            flag(
                "node-monitor-period",
                format_go_duration(c.node_monitor_period),
                c.node_monitor_period != p.controller_manager.node_monitor_period,
            );
            flag(
                "node-monitor-grace-period",
                format_go_duration(c.node_monitor_grace_period),
                c.node_monitor_grace_period != p.controller_manager.node_monitor_grace_period,
            );
            flag(
                "node-startup-grace-period",
                format_go_duration(c.node_startup_grace_period),
                c.node_startup_grace_period != p.controller_manager.node_startup_grace_period,
            );
            flag(
                "node-eviction-rate",
                c.node_eviction_rate.to_string(),
                c.node_eviction_rate != p.controller_manager.node_eviction_rate,
            );
            flag(
                "secondary-node-eviction-rate",
                c.secondary_node_eviction_rate.to_string(),
                c.secondary_node_eviction_rate != p.controller_manager.secondary_node_eviction_rate,
            );
            flag(
                "large-cluster-size-threshold",
                c.large_cluster_size_threshold.to_string(),
                c.large_cluster_size_threshold != p.controller_manager.large_cluster_size_threshold,
            );
            flag(
                "unhealthy-zone-threshold",
                c.unhealthy_zone_threshold.to_string(),
                c.unhealthy_zone_threshold != p.controller_manager.unhealthy_zone_threshold,
            );
            if cfg.profile.has_legacy_eviction_flags {
                if !c.enable_taint_manager {
                    flag("enable-taint-manager", "false".into(), true);
                }
                let timeout_changed = c.pod_eviction_timeout != p.controller_manager.pod_eviction_timeout;
                if timeout_changed && c.taint_based_evictions {
                    notes.push(
                        Cause::new("note.timeout_left_out")
                            .time("timeout", c.pod_eviction_timeout)
                            .text("version", v),
                    );
                } else {
                    flag(
                        "pod-eviction-timeout",
                        format_go_duration(c.pod_eviction_timeout),
                        timeout_changed,
                    );
                }
            }
            if !c.taint_based_evictions && c.enable_taint_manager && (13..=17).contains(&v.minor) {
                flag("feature-gates", "TaintBasedEvictions=false".into(), true);
            }
        }
        Format::ApiServer => {
            let a = &cfg.api_server;
            flag(
                "default-not-ready-toleration-seconds",
                a.default_not_ready_toleration_seconds.to_string(),
                a.default_not_ready_toleration_seconds != p.api_server.default_not_ready_toleration_seconds,
            );
            flag(
                "default-unreachable-toleration-seconds",
                a.default_unreachable_toleration_seconds.to_string(),
                a.default_unreachable_toleration_seconds != p.api_server.default_unreachable_toleration_seconds,
            );
            if !cfg.controller_manager.taint_based_evictions && !out.is_empty() {
                notes.push(Cause::new("note.tolerations_unread").text("version", v));
            }
        }
        Format::Kubelet => {
            let k = &cfg.kubelet;
            flag(
                "node-status-update-frequency",
                format_go_duration(k.node_status_update_frequency),
                k.node_status_update_frequency != p.kubelet.node_status_update_frequency,
            );
        }
        Format::Tolerations | Format::Rke => {}
    }
    out
}

fn command(binary: &str, flags: &[(String, String)]) -> Command {
    let mut command = vec![binary.to_string()];
    command.extend(flags.iter().map(|(k, v)| format!("--{k}={v}")));
    Command { command }
}

fn yaml<T: Serialize>(doc: &T) -> String {
    serde_yaml_ng::to_string(doc).expect("plain data always serializes")
}

/// Exports `cfg` in one form.
pub fn export(cfg: &Config, format: Format) -> Export {
    let v = cfg.profile.version;
    let p = &crate::scenario::Defaults::of(v);
    let mut notes = Vec::new();
    let yaml = match format {
        Format::Kubelet => {
            let k = &cfg.kubelet;
            let update_changed = k.node_status_update_frequency != p.kubelet.node_status_update_frequency;
            // In a config file, setting the update frequency alone also sets the report frequency:
            // write the report frequency whenever the update frequency is written.
            let report_changed = k.node_status_report_frequency != p.kubelet.node_status_report_frequency;
            let report = (cfg.profile.has_report_frequency && (update_changed || report_changed))
                .then(|| format_go_duration(k.node_status_report_frequency));
            if update_changed && cfg.profile.has_report_frequency {
                notes.push(Cause::new("note.report_written"));
            }
            let mut feature_gates = BTreeMap::new();
            if k.node_lease != crate::version::Gate::NodeLease.default_on(v) {
                feature_gates.insert("NodeLease", k.node_lease);
            }
            let doc = KubeletConfiguration {
                api_version: "kubelet.config.k8s.io/v1beta1",
                kind: "KubeletConfiguration",
                node_status_update_frequency: update_changed
                    .then(|| format_go_duration(k.node_status_update_frequency)),
                node_status_report_frequency: report,
                node_lease_duration_seconds: (k.node_lease_duration_seconds != p.kubelet.node_lease_duration_seconds)
                    .then_some(k.node_lease_duration_seconds),
                feature_gates,
            };
            yaml(&doc)
        }
        Format::ControllerManager => yaml(&command(
            "kube-controller-manager",
            &changed_flags(cfg, format, &mut notes),
        )),
        Format::ApiServer => yaml(&command("kube-apiserver", &changed_flags(cfg, format, &mut notes))),
        Format::Tolerations => {
            let a = &cfg.api_server;
            notes.push(Cause::new("note.pod_tolerations"));
            yaml(&Tolerations {
                tolerations: vec![
                    Toleration {
                        key: "node.kubernetes.io/not-ready",
                        operator: "Exists",
                        effect: "NoExecute",
                        toleration_seconds: a.default_not_ready_toleration_seconds,
                    },
                    Toleration {
                        key: "node.kubernetes.io/unreachable",
                        operator: "Exists",
                        effect: "NoExecute",
                        toleration_seconds: a.default_unreachable_toleration_seconds,
                    },
                ],
            })
        }
        Format::Rke => {
            let mut services = BTreeMap::new();
            for (service, component) in [
                ("kube-api", Format::ApiServer),
                ("kube-controller", Format::ControllerManager),
                ("kubelet", Format::Kubelet),
            ] {
                let flags = changed_flags(cfg, component, &mut notes);
                if !flags.is_empty() {
                    services.insert(
                        service,
                        ExtraArgs {
                            extra_args: flags.into_iter().collect(),
                        },
                    );
                }
            }
            if services.contains_key("kubelet") {
                notes.push(Cause::new("note.rke_flag"));
            }
            yaml(&RkeServices { services })
        }
    };
    Export { yaml, notes }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::preset;
    use serde_yaml_ng::Value;

    fn cfg(json: &str) -> Config {
        crate::Scenario::from_json(json).unwrap().resolve().unwrap()
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

    #[test]
    fn defaults_export_nothing_but_the_skeleton() {
        let c = cfg(r#"{"nodes": [{"name": "n"}]}"#);
        assert_eq!(
            parse(&export(&c, Format::ControllerManager))["command"]
                .as_sequence()
                .unwrap()
                .len(),
            1
        );
        let k = parse(&export(&c, Format::Kubelet));
        assert!(k.get("nodeStatusUpdateFrequency").is_none());
    }
}
