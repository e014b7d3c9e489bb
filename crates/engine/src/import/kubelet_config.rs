//! A `KubeletConfiguration` (kubelet.config.k8s.io/v1beta1), on its own, inside a kubeadm file or
//! in the `kubelet-config` ConfigMap. Field names are the v1beta1 type's JSON names
//! (staging/src/k8s.io/kubelet/config/v1beta1/types.go), as the flag catalogue lists them
//! ([`Field::by_kubelet_field`]). A zero duration or `0` lease means "use the default"
//! (`SetDefaults_KubeletConfiguration`), so it sets nothing.

use super::collect::Collector;
use super::field::{Component, Field, Layer, Value};
use super::place::Place;
use super::report::EntryKind;
use super::version_text::is_template;
use crate::cause::Cause;
use crate::version::Gate;
use serde_json::Value as Json;

pub use super::field::scalar;

/// Reads one `KubeletConfiguration` object; `place` turns a field name into where it lives.
pub fn read(c: &mut Collector, file: &str, doc: &Json, place: &dyn Fn(&str) -> Place) {
    c.recognise_format(file, "KubeletConfiguration");
    let Some(map) = doc.as_object() else { return };
    let mut unused = Vec::new();
    for (key, value) in map {
        if matches!(key.as_str(), "apiVersion" | "kind") {
            continue;
        }
        if key == "featureGates" {
            feature_gates(c, file, value, place);
            continue;
        }
        let Some(field) = Field::by_kubelet_field(key) else {
            unused.push(key.clone());
            continue;
        };
        let Some(text) = scalar(value) else {
            c.malformed(file, key, &value.to_string(), Cause::new("import.value.not_single"));
            continue;
        };
        if is_template(&text) {
            c.template(file, key, &text);
            continue;
        }
        match field.parse(&text) {
            Ok(Value::Duration(0)) | Ok(Value::Int(0)) => {
                let cause = Cause::new("import.zero_default").text("file", file).text("field", key);
                c.push(EntryKind::Note, cause);
            }
            Ok(v) => c.set(field, Layer::File, v, file, place(key)),
            Err(e) => c.malformed(file, key, &text, e),
        }
    }
    c.ignore_names("import.ignored.fields", file, "KubeletConfiguration", &unused);
}

/// `featureGates: {Name: bool}`: the kubelet's gates; others are the kubelet's to ignore.
fn feature_gates(c: &mut Collector, file: &str, value: &Json, place: &dyn Fn(&str) -> Place) {
    let Some(map) = value.as_object() else {
        c.malformed(
            file,
            "featureGates",
            &value.to_string(),
            Cause::new("import.value.not_gate_map"),
        );
        return;
    };
    let mut unused = Vec::new();
    for (name, v) in map {
        let gate = Gate::by_name(name).filter(|g| Field::gate_owner(*g) == Component::Kubelet);
        match (gate, v.as_bool()) {
            (Some(g), Some(b)) => {
                let key = format!("featureGates.{name}");
                c.set(Field::Gate(g), Layer::File, Value::Bool(b), file, place(&key));
            }
            (Some(_), None) => c.malformed(
                file,
                &format!("featureGates.{name}"),
                &v.to_string(),
                Cause::new("import.value.not_bool"),
            ),
            (None, _) => unused.push(name.clone()),
        }
    }
    c.ignore_names("import.ignored.gates", file, "featureGates", &unused);
}
