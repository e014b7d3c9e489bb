//! A static pod manifest (`/etc/kubernetes/manifests/*.yaml`) or its mirror pod from
//! `kubectl get pod -o yaml`: a Pod whose container runs a Kubernetes component, its flags in
//! `command` and `args` (core/v1 Container), its version in the image tag.

use super::collect::Collector;
use super::field::Component;
use super::flags;
use super::place::Place;
use super::version_text::image_tag;
use crate::cause::Cause;
use serde_json::Value as Json;

/// The component a Pod's first container runs, if it runs one.
pub fn component(doc: &Json) -> Option<Component> {
    if let Some(first) = doc.pointer("/spec/containers/0/command/0").and_then(Json::as_str) {
        return Component::by_binary(first);
    }
    // Containers, or the first one's command, of another type than core/v1's lists: still a
    // component's manifest when its name says so (kubeadm names a static pod
    // `<component>-<node name>`, and its mirror pod keeps the name), so that `read` reports the
    // block it drops rather than the pod being taken for a workload.
    let containers = doc.pointer("/spec/containers")?;
    let command = containers.pointer("/0/command");
    if containers.is_array() && command.is_none_or(Json::is_array) {
        return None;
    }
    let name = doc.pointer("/metadata/name").and_then(Json::as_str)?;
    let binary = [
        "kube-apiserver",
        "kube-controller-manager",
        "kube-scheduler",
        "kube-proxy",
        "etcd",
    ]
    .into_iter()
    .find(|b| {
        name.strip_prefix(b)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('-'))
    })?;
    Component::by_binary(binary)
}

/// Reads the flags of every container that runs a component.
pub fn read(c: &mut Collector, file: &str, doc: &Json) {
    c.recognise_as(file, Cause::new("import.document.static_pod"));
    let containers = c.list(file, "spec.containers", doc.pointer("/spec/containers"));
    for (i, container) in containers.into_iter().flatten().enumerate() {
        container_flags(c, file, &format!("spec.containers[{i}]"), container);
    }
}

/// A `command:` (and `args:`) fragment on its own, as kubelife's export writes it; false when
/// its first word is no component.
pub fn read_fragment(c: &mut Collector, file: &str, doc: &Json) -> bool {
    let first = doc.pointer("/command/0").and_then(Json::as_str).unwrap_or("");
    if Component::by_binary(first).is_none() {
        return false;
    }
    c.recognise_as(file, Cause::new("import.document.container_command"));
    container_flags(c, file, "", doc);
    true
}

/// A container's `command` and `args` as one command line; the image tag names the version.
/// A word that is not text is reported.
fn container_flags(c: &mut Collector, file: &str, at: &str, container: &Json) {
    let mut words = Vec::new();
    for key in ["command", "args"] {
        let what = if at.is_empty() {
            key.to_string()
        } else {
            format!("{at}.{key}")
        };
        for (i, w) in c
            .list(file, &what, container.get(key))
            .into_iter()
            .flatten()
            .enumerate()
        {
            words.extend(c.string(file, &format!("{what}[{i}]"), Some(w)).map(str::to_string));
        }
    }
    let Some(comp) = words.first().and_then(|w| Component::by_binary(w)) else {
        return;
    };
    let image = container.get("image").and_then(Json::as_str).unwrap_or("");
    if let Some(tag) = image_tag(image) {
        c.claim_version(file, "image", tag);
    }
    let place = |comp: Component, flag: &str| Place::StaticPod {
        component: comp,
        flag: flag.to_string(),
    };
    flags::apply_words(c, file, Some(comp), &words[1..], &place);
}
