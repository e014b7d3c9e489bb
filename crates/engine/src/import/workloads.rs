//! Workloads from `kubectl get deploy,sts,ds -A -o json` or manifests: Deployments,
//! StatefulSets, DaemonSets and bare Pods, with `spec.replicas`, the pod template's
//! `tolerations` and `terminationGracePeriodSeconds` (apps/v1 and core/v1 field names).

use super::collect::{Collector, ImportedWorkload};
use super::report::EntryKind;
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
    let meta = |p: &str| doc.pointer(p).and_then(Json::as_str).unwrap_or("");
    let (name, namespace) = (meta("/metadata/name"), meta("/metadata/namespace"));
    if name.is_empty() {
        c.malformed(file, "metadata.name", "", "missing");
        return;
    }
    // A Pod a controller owns is that controller's; the controller is what to import.
    if k == WorkloadKind::Pod && doc.pointer("/metadata/ownerReferences/0").is_some() {
        let cause = Cause::new("import.ignored.owned_pod")
            .text("file", file)
            .text("pod", name);
        c.push(EntryKind::Ignored, cause);
        return;
    }
    let spec = match k {
        WorkloadKind::Pod => doc.get("spec"),
        _ => doc.pointer("/spec/template/spec"),
    };
    let mut section = WorkloadSection::new(k, name);
    if matches!(k, WorkloadKind::Deployment | WorkloadKind::StatefulSet) {
        // apps/v1: replicas defaults to 1 when unset.
        section.replicas = Some(match doc.pointer("/spec/replicas").map(Json::as_u64) {
            Some(Some(n)) => u32::try_from(n).unwrap_or(u32::MAX),
            Some(None) => {
                c.malformed(file, &format!("{name} spec.replicas"), "", "not a count");
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
                "not seconds",
            ),
        }
    }
    for t in spec
        .and_then(|s| s.get("tolerations"))
        .and_then(Json::as_array)
        .into_iter()
        .flatten()
    {
        match serde_json::from_value::<TolerationSection>(t.clone()) {
            Ok(tol) => section.tolerations.push(tol),
            Err(e) => c.malformed(file, &format!("{name} tolerations"), &t.to_string(), &e.to_string()),
        }
    }
    let namespace = if namespace.is_empty() { "default" } else { namespace };
    c.add_workload(ImportedWorkload {
        section,
        namespace: namespace.to_string(),
        file: file.to_string(),
    });
}
