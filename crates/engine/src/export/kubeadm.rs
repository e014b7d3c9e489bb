//! The settings as kubeadm takes them: a `ClusterConfiguration` whose `apiServer` and
//! `controllerManager` carry the changed flags as `extraArgs`, then the `KubeletConfiguration`
//! and `KubeProxyConfiguration` documents kubeadm hands to every node, each only when something
//! in it changed.
//!
//! The `ClusterConfiguration` is written in the newest kubeadm API the version's kubeadm reads
//! (the "kubeadm Configuration" reference pages): `kubeadm.k8s.io/v1beta4` from 1.31, whose
//! `extraArgs` is a list of `name`/`value` pairs; `v1beta3` from 1.22, `v1beta2` from 1.15 and
//! `v1beta1` from 1.13, whose `extraArgs` is a map; and `v1alpha3` in 1.12, which keeps
//! `apiServerExtraArgs` and `controllerManagerExtraArgs` at the top level.

use super::{changed_flags, kube_proxy, kubelet_configuration, says_something, yaml, Format};
use crate::cause::Cause;
use crate::scenario::flags::ConfigFile;
use crate::scenario::Config;
use serde_yaml_ng::{Mapping, Value as YamlValue};

/// The kubeadm API a version's kubeadm reads, newest first.
pub fn api_version(minor: u32) -> &'static str {
    match minor {
        31.. => "kubeadm.k8s.io/v1beta4",
        22..=30 => "kubeadm.k8s.io/v1beta3",
        15..=21 => "kubeadm.k8s.io/v1beta2",
        13 | 14 => "kubeadm.k8s.io/v1beta1",
        _ => "kubeadm.k8s.io/v1alpha3",
    }
}

/// One component's flags as `extraArgs`: a list of `name`/`value` pairs in v1beta4, a map
/// before.
fn extra_args(minor: u32, flags: Vec<(String, String)>) -> YamlValue {
    if minor >= 31 {
        let list = flags.into_iter().map(|(name, value)| {
            let mut pair = Mapping::new();
            pair.insert("name".into(), name.into());
            pair.insert("value".into(), value.into());
            YamlValue::Mapping(pair)
        });
        YamlValue::Sequence(list.collect())
    } else {
        YamlValue::Mapping(flags.into_iter().map(|(k, v)| (k.into(), v.into())).collect())
    }
}

/// The `ClusterConfiguration` with the control plane's changed flags, if any changed.
fn cluster_configuration(cfg: &Config, defaults: &Config, notes: &mut Vec<Cause>) -> Option<Mapping> {
    let minor = cfg.profile.version.minor;
    let mut doc = Mapping::new();
    doc.insert("apiVersion".into(), api_version(minor).into());
    doc.insert("kind".into(), "ClusterConfiguration".into());
    let mut any = false;
    for (component, legacy_field, format) in [
        ("apiServer", "apiServerExtraArgs", Format::ApiServer),
        (
            "controllerManager",
            "controllerManagerExtraArgs",
            Format::ControllerManager,
        ),
    ] {
        let flags = changed_flags(cfg, format, defaults, notes);
        if flags.is_empty() {
            continue;
        }
        any = true;
        let args = extra_args(minor, flags);
        if minor <= 12 {
            doc.insert(legacy_field.into(), args);
        } else {
            let mut section = Mapping::new();
            section.insert("extraArgs".into(), args);
            doc.insert(component.into(), YamlValue::Mapping(section));
        }
    }
    any.then_some(doc)
}

/// The kubeadm documents for `cfg`, separated by `---`; empty when nothing differs from the
/// version's defaults.
pub(super) fn kubeadm(cfg: &Config, defaults: &Config, notes: &mut Vec<Cause>) -> String {
    let mut docs = Vec::new();
    if let Some(cluster) = cluster_configuration(cfg, defaults, notes) {
        docs.push(yaml(&cluster));
    }
    let kubelet = kubelet_configuration(cfg, defaults, notes);
    if says_something(&kubelet) {
        docs.push(yaml(&kubelet));
    }
    let proxy = kube_proxy(cfg, defaults);
    if says_something(&proxy) {
        docs.push(yaml(&proxy));
    }
    if !docs.is_empty() {
        notes.push(
            Cause::new("note.kubeadm_apply")
                .text("api", api_version(cfg.profile.version.minor))
                .text("kubelet", ConfigFile::KubeletConfiguration.kind()),
        );
    }
    docs.join("---\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::{export, Format};
    use serde_yaml_ng::Value;

    fn cfg(json: &str) -> Config {
        crate::scenario::Scenario::from_json(json).unwrap().resolve().unwrap()
    }

    fn documents(text: &str) -> Vec<Value> {
        use serde::Deserialize;
        serde_yaml_ng::Deserializer::from_str(text)
            .map(|d| Value::deserialize(d).expect("each document parses"))
            .collect()
    }

    #[test]
    fn the_cluster_configuration_follows_the_version_s_kubeadm_api() {
        let scenario = |v: &str| {
            cfg(&format!(
                r#"{{"version": "{v}", "controllerManager": {{"nodeMonitorGracePeriod": "20s"}}, "apiServer": {{"defaultUnreachableTolerationSeconds": 30}}, "nodes": [{{"name": "n"}}]}}"#
            ))
        };
        let new = documents(&export(&scenario("1.31"), Format::Kubeadm).yaml);
        assert_eq!(new[0]["apiVersion"], "kubeadm.k8s.io/v1beta4");
        assert_eq!(new[0]["kind"], "ClusterConfiguration");
        let args = &new[0]["controllerManager"]["extraArgs"];
        assert_eq!(args[0]["name"], "node-monitor-grace-period");
        assert_eq!(args[0]["value"], "20s");
        assert_eq!(
            new[0]["apiServer"]["extraArgs"][0]["value"], "30",
            "a string, as extraArgs takes"
        );
        let old = documents(&export(&scenario("1.30"), Format::Kubeadm).yaml);
        assert_eq!(old[0]["apiVersion"], "kubeadm.k8s.io/v1beta3");
        assert_eq!(
            old[0]["controllerManager"]["extraArgs"]["node-monitor-grace-period"],
            "20s"
        );
        assert_eq!(
            old[0]["apiServer"]["extraArgs"]["default-unreachable-toleration-seconds"],
            "30"
        );
        let oldest = documents(&export(&scenario("1.12"), Format::Kubeadm).yaml);
        assert_eq!(oldest[0]["apiVersion"], "kubeadm.k8s.io/v1alpha3");
        assert_eq!(
            oldest[0]["controllerManagerExtraArgs"]["node-monitor-grace-period"],
            "20s"
        );
        for (minor, api) in [
            (22, "v1beta3"),
            (21, "v1beta2"),
            (15, "v1beta2"),
            (14, "v1beta1"),
            (13, "v1beta1"),
        ] {
            assert_eq!(api_version(minor), format!("kubeadm.k8s.io/{api}"), "1.{minor}");
        }
    }

    #[test]
    fn the_kubelet_and_kube_proxy_documents_come_only_when_they_change() {
        let c = cfg(r#"{"version": "1.33", "kubelet": {"nodeStatusUpdateFrequency": "4s"}, "nodes": [{"name": "n"}]}"#);
        let docs = documents(&export(&c, Format::Kubeadm).yaml);
        assert_eq!(docs.len(), 1, "only the kubelet changed: {docs:?}");
        assert_eq!(docs[0]["kind"], "KubeletConfiguration");
        assert_eq!(docs[0]["nodeStatusUpdateFrequency"], "4s");
        let e = export(
            &cfg(r#"{"version": "1.33", "nodes": [{"name": "n"}]}"#),
            Format::Kubeadm,
        );
        assert_eq!(e.yaml, "", "nothing changed, nothing to write");
        assert_eq!(
            e.notes.iter().map(|n| n.key).collect::<Vec<_>>(),
            ["note.nothing_changed"]
        );
    }
}
