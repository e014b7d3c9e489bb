//! Workloads from `kubectl get deploy,sts,ds -A -o json` or manifests: Deployments,
//! StatefulSets, DaemonSets and bare Pods, with `spec.replicas`, the pod template's
//! `tolerations` and `terminationGracePeriodSeconds` (apps/v1 and core/v1 field names).

use super::collect::{Collector, ImportedWorkload};
use super::nodes::{is_label, is_label_value, is_qualified_name};
use super::report::EntryKind;
use super::shown::Shown;
use crate::cause::Cause;
use crate::scenario::{TolerationSection, WorkloadKind, WorkloadSection};
use serde_json::Value as Json;

/// The workload kind of an object's `kind`.
pub fn kind(kind: &str) -> Option<WorkloadKind> {
    match kind {
        "Deployment" => Some(WorkloadKind::Deployment),
        "StatefulSet" => Some(WorkloadKind::StatefulSet),
        "DaemonSet" => Some(WorkloadKind::DaemonSet),
        "Pod" => Some(WorkloadKind::Pod),
        _ => None,
    }
}

/// Reads one workload object of kind `k`.
pub fn read(c: &mut Collector, file: &str, doc: &Json, k: WorkloadKind) {
    c.recognise();
    let metadata = c.map(file, "metadata", doc.get("metadata"));
    let meta =
        |c: &mut Collector, key: &str| c.string(file, &format!("metadata.{key}"), metadata.and_then(|m| m.get(key)));
    let name = meta(c, "name").unwrap_or("");
    let namespace = meta(c, "namespace").unwrap_or("");
    if name.is_empty() {
        c.malformed(file, "metadata.name", "", Cause::new("import.value.missing"));
        return;
    }
    // A Pod a controller owns is that controller's; the controller is what to import.
    if k == WorkloadKind::Pod && doc.pointer("/metadata/ownerReferences/0").is_some() {
        let cause = Cause::new("import.ignored.owned_pod")
            .text("file", file)
            .shown("pod", name);
        c.push(EntryKind::Ignored, cause);
        return;
    }
    let spec = match k {
        WorkloadKind::Pod => c.map(file, &format!("{name} spec"), doc.get("spec")),
        _ => {
            let spec = c.map(file, &format!("{name} spec"), doc.get("spec"));
            let template = c.map(
                file,
                &format!("{name} spec.template"),
                spec.and_then(|s| s.get("template")),
            );
            c.map(
                file,
                &format!("{name} spec.template.spec"),
                template.and_then(|t| t.get("spec")),
            )
        }
    };
    let mut section = WorkloadSection::new(k, name);
    if matches!(k, WorkloadKind::Deployment | WorkloadKind::StatefulSet) {
        // apps/v1: replicas defaults to 1 when unset.
        section.replicas = Some(match doc.pointer("/spec/replicas").map(Json::as_u64) {
            Some(Some(n)) => u32::try_from(n).unwrap_or(u32::MAX),
            Some(None) => {
                c.malformed(
                    file,
                    &format!("{name} spec.replicas"),
                    "",
                    Cause::new("import.value.not_count"),
                );
                1
            }
            None => 1,
        });
    }
    if let Some(g) = spec.and_then(|s| s.get("terminationGracePeriodSeconds")) {
        match g.as_i64() {
            Some(s) => section.termination_grace_period_seconds = Some(s),
            None => c.malformed(
                file,
                &format!("{name} terminationGracePeriodSeconds"),
                &g.to_string(),
                Cause::new("import.value.not_seconds"),
            ),
        }
    }
    let tolerations = c.list(
        file,
        &format!("{name} tolerations"),
        spec.and_then(|s| s.get("tolerations")),
    );
    for t in tolerations.into_iter().flatten() {
        let read = serde_json::from_value::<TolerationSection>(t.clone())
            .map_err(|e| Cause::parser(&e.to_string(), None))
            .and_then(|tol| match toleration_problem(&tol) {
                None => Ok(tol),
                Some(key) => Err(Cause::new(key)),
            });
        match read {
            Ok(tol) => section.tolerations.push(tol),
            Err(why) => c.malformed(file, &format!("{name} tolerations"), &t.to_string(), why),
        }
    }
    if !namespace.is_empty() && !is_label(namespace) {
        let why = Cause::new("import.value.not_namespace");
        c.malformed(file, &format!("{name} metadata.namespace"), namespace, why);
        return;
    }
    let namespace = if namespace.is_empty() { "default" } else { namespace };
    c.add_workload(ImportedWorkload {
        section,
        namespace: namespace.to_string(),
        file: file.to_string(),
    });
}

/// What `ValidateTolerations` (pkg/apis/core/validation) refuses in a toleration's key and value,
/// which the scenario keeps as text: a key that is not a qualified name, a value that is not a
/// label value (the message's catalogue key).
fn toleration_problem(t: &TolerationSection) -> Option<&'static str> {
    if !t.key.is_empty() && !is_qualified_name(&t.key) {
        return Some("import.value.toleration_key");
    }
    if !is_label_value(&t.value) {
        return Some("import.value.toleration_value");
    }
    None
}
