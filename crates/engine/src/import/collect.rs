//! What the files said, gathered before it becomes a scenario: settings with where each came from,
//! version claims, nodes and workloads. A later file replaces an earlier one's value for the same
//! setting, and the report says so.

use super::cloud::NodeCloud;
use super::field::{Field, Layer, Value};
use super::place::Place;
use super::report::{EntryKind, Report};
use super::shown::{item, Named, Shown, SENTENCE_CHARS};
use super::version_text::{self as versions, VersionText};
use crate::cause::Cause;
use crate::scenario::{GoDuration, NodeSection, RemediationSection, WorkloadKind, WorkloadSection};
use crate::version::Version;
use serde_json::{Map, Value as Json};
use std::collections::{BTreeMap, BTreeSet};

/// A value and where it was read.
#[derive(Debug, Clone, PartialEq)]
pub struct Setting {
    /// The value.
    pub value: Value,
    /// The file it was read from.
    pub file: String,
    /// Where it lives in that distribution.
    pub place: Place,
}

/// A version a file names, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct VersionClaim {
    /// The version.
    pub version: Version,
    /// The file.
    pub file: String,
}

/// A node as read.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedNode {
    /// The node, named as in the cluster.
    pub section: NodeSection,
    /// Its `spec.providerID` and the repairs its labels name.
    pub cloud: NodeCloud,
    /// The file it was read from.
    pub file: String,
}

/// A workload as read, before names are made unique.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedWorkload {
    /// The workload with its name as in the cluster.
    pub section: WorkloadSection,
    /// Its namespace.
    pub namespace: String,
    /// The file it was read from.
    pub file: String,
}

/// What the remediation objects said, until the scenario is built (`remediation`).
#[derive(Debug, Default)]
pub struct RemediationFound {
    /// The entries, one of each kind, each with the file it came from.
    pub entries: Vec<(RemediationSection, String)>,
    /// A `SelfNodeRemediationTemplate`'s `remediationStrategy`, its file and the object.
    pub strategy: Option<(String, String, String)>,
    /// A `SelfNodeRemediationConfig`'s `safeTimeToAssumeNodeRebootedSeconds`, its file and the
    /// object.
    pub safe_time: Option<(GoDuration, String, String)>,
}

/// What the current file contributed, summarised when it is done.
#[derive(Debug, Default)]
struct Tally {
    nodes: usize,
    zones: BTreeMap<String, usize>,
    no_zone: usize,
    max_pods: BTreeSet<u32>,
    labels: BTreeSet<String>,
    kinds: BTreeMap<String, usize>,
}

/// Everything read so far.
#[derive(Debug, Default)]
pub struct Collector {
    /// Settings by field and layer.
    pub settings: BTreeMap<(Field, Layer), Setting>,
    /// The control plane's version, as the last file naming one says.
    pub version: Option<VersionClaim>,
    /// Kubelet minor versions of the imported nodes, with how many nodes run each.
    pub kubelet_minors: BTreeMap<u32, usize>,
    /// Nodes in the order read; a later node of the same name replaces the earlier one.
    pub nodes: Vec<ImportedNode>,
    node_index: BTreeMap<String, usize>,
    /// Workloads in the order read.
    pub workloads: Vec<ImportedWorkload>,
    /// Remediators from MachineHealthCheck and NodeHealthCheck objects.
    pub remediation: RemediationFound,
    /// The report so far.
    pub report: Report,
    /// How many documents were recognised as a format kubelife imports.
    pub recognised: usize,
    /// Whether the file being read holds kubeadm configuration (so a `KubeletConfiguration` in it
    /// is kubeadm's, which `kubeadm init` uploads to the `kubelet-config` ConfigMap).
    pub kubeadm_file: bool,
    tally: Tally,
}

impl Collector {
    /// Adds a report entry.
    pub fn push(&mut self, kind: EntryKind, cause: Cause) {
        self.report.push(kind, cause);
    }

    /// Counts a document recognised as a format kubelife imports.
    pub fn recognise(&mut self) {
        self.recognised += 1;
    }

    /// Counts a configuration document and names its format in the report: a Kubernetes kind or
    /// a distribution's file (`KubeletConfiguration`, `rke cluster.yml`).
    pub fn recognise_format(&mut self, file: &str, format: &str) {
        self.recognise_as(file, Cause::new("import.document").text("format", format));
    }

    /// Counts a document and says in the report what it was read as, in a message of its own
    /// (`import.document.*`: an environment file, a command line).
    pub fn recognise_as(&mut self, file: &str, message: Cause) {
        self.recognise();
        self.push(EntryKind::Recognised, message.text("file", file));
    }

    /// Records a setting; a different earlier value of the same field and layer is replaced, and
    /// the report says which file won.
    pub fn set(&mut self, field: Field, layer: Layer, value: Value, file: &str, place: Place) {
        self.push(
            EntryKind::Recognised,
            Cause::new("import.recognised")
                .text("file", file)
                .text("field", field.path())
                .text("value", value)
                .sub("where", place.cause()),
        );
        let new = Setting {
            value,
            file: file.to_string(),
            place,
        };
        if let Some(old) = self.settings.insert((field, layer), new) {
            if old.value != value {
                self.push(
                    EntryKind::Overridden,
                    Cause::new("import.overridden")
                        .text("file", file)
                        .text("field", field.path())
                        .text("value", value)
                        .text("old", old.value)
                        .text("previous", old.file),
                );
            }
        }
    }

    /// Records the control plane's version as `source` in `file` gives it (`raw`).
    pub fn claim_version(&mut self, file: &str, source: &str, raw: &str) {
        // An empty version (rke's `kubernetes_version: ""`) means the tool's default: no claim.
        if raw.trim().is_empty() {
            return;
        }
        let version = match versions::read(raw) {
            VersionText::Version(v) => v,
            problem => {
                self.push(EntryKind::Ignored, problem.cause(file, source, raw));
                return;
            }
        };
        self.push(
            EntryKind::Recognised,
            Cause::new("import.version.claim")
                .text("file", file)
                .text("version", version)
                .text("source", source)
                .shown("value", raw),
        );
        if let Some(old) = &self.version {
            if old.version != version {
                let cause = Cause::new("import.overridden")
                    .text("file", file)
                    .text("field", "version")
                    .text("value", version)
                    .text("old", old.version)
                    .text("previous", &old.file);
                self.push(EntryKind::Overridden, cause);
            }
        }
        self.version = Some(VersionClaim {
            version,
            file: file.to_string(),
        });
    }

    /// Adds a node; one of the same name read earlier is replaced.
    pub fn add_node(&mut self, section: NodeSection, cloud: NodeCloud, file: &str, kubelet_version: Option<&str>) {
        match &section.zone {
            Some(z) => *self.tally.zones.entry(z.clone()).or_default() += 1,
            None => self.tally.no_zone += 1,
        }
        self.tally.nodes += 1;
        self.tally.max_pods.extend(section.max_pods);
        self.tally.labels.extend(section.labels.keys().cloned());
        if let Some(VersionText::Version(v)) = kubelet_version.map(versions::read) {
            *self.kubelet_minors.entry(v.minor).or_default() += 1;
        }
        let node = ImportedNode {
            section,
            cloud,
            file: file.to_string(),
        };
        match self.node_index.get(&node.section.name) {
            Some(&i) => {
                let cause = Cause::new("import.node.replaced")
                    .text("file", file)
                    .text("node", &node.section.name)
                    .text("previous", &self.nodes[i].file);
                self.push(EntryKind::Overridden, cause);
                self.nodes[i] = node;
            }
            None => {
                self.node_index.insert(node.section.name.clone(), self.nodes.len());
                self.nodes.push(node);
            }
        }
    }

    /// Drops the nodes from index `keep` on.
    pub fn truncate_nodes(&mut self, keep: usize) {
        self.nodes.truncate(keep);
        self.node_index.retain(|_, i| *i < keep);
    }

    /// Adds a workload.
    pub fn add_workload(&mut self, w: ImportedWorkload) {
        let details = match w.section.kind {
            WorkloadKind::DaemonSet => Cause::new("import.workload.per_node"),
            _ => Cause::new("import.workload.replicas").text("replicas", w.section.replicas.unwrap_or(1)),
        };
        let cause = Cause::new("import.workload")
            .text("file", &w.file)
            .text("kind", format!("{:?}", w.section.kind))
            .shown("object", &format!("{}/{}", w.namespace, w.section.name))
            .sub("pods", details)
            .text("grace", w.section.termination_grace_period_seconds.unwrap_or(30))
            .text("tolerations", w.section.tolerations.len());
        self.push(EntryKind::Recognised, cause);
        self.workloads.push(w);
    }

    /// Adds a remediator; one of the same kind read earlier is replaced, and the report says so.
    pub fn add_remediation(&mut self, entry: RemediationSection, file: &str) {
        let found = &mut self.remediation.entries;
        match found.iter().position(|(e, _)| e.kind() == entry.kind()) {
            Some(i) => {
                let cause = Cause::new("import.remediation.replaced")
                    .text("file", file)
                    .text("kind", entry.kind())
                    .text("previous", &found[i].1);
                found[i] = (entry, file.to_string());
                self.push(EntryKind::Overridden, cause);
            }
            None => found.push((entry, file.to_string())),
        }
    }

    /// Counts an object of a kind kubelife does not import.
    pub fn ignore_kind(&mut self, kind: &str) {
        *self.tally.kinds.entry(kind.to_string()).or_default() += 1;
    }

    /// Writes the summary of the file just read.
    pub fn finish_file(&mut self, file: &str) {
        let t = std::mem::take(&mut self.tally);
        let counted = |m: &BTreeMap<String, usize>| {
            m.iter()
                .map(|(k, n)| format!("{} ({n})", item(k)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if t.nodes > 0 {
            let cause = Cause::new("import.nodes")
                .text("file", file)
                .text("count", t.nodes)
                .text("zones", counted(&t.zones));
            self.push(EntryKind::Recognised, cause);
        }
        if t.no_zone > 0 {
            let cause = Cause::new("import.nodes.no_zone")
                .text("file", file)
                .text("count", t.no_zone);
            self.push(EntryKind::Note, cause);
        }
        if !t.max_pods.is_empty() {
            let values: Vec<String> = t.max_pods.iter().map(u32::to_string).collect();
            let cause = Cause::new("import.nodes.max_pods")
                .text("file", file)
                .text("values", values.join(", "));
            self.push(EntryKind::Recognised, cause);
        }
        if !t.labels.is_empty() {
            let labels: Vec<String> = t.labels.into_iter().collect();
            let cause = Cause::new("import.nodes.labels")
                .text("file", file)
                .text("labels", labels.join(", "));
            self.push(EntryKind::Recognised, cause);
        }
        if !t.kinds.is_empty() {
            let cause = Cause::new("import.ignored.kinds")
                .text("file", file)
                .text("kinds", counted(&t.kinds));
            self.push(EntryKind::Ignored, cause);
        }
    }

    /// Reports names a source lists but the model does not use (`key` names the message; `what`
    /// is the component or the section that lists them).
    pub fn ignore_names(&mut self, key: &'static str, file: &str, what: &str, names: &[String]) {
        if names.is_empty() {
            return;
        }
        let names: Vec<String> = names.iter().map(|n| item(n)).collect();
        let cause = Cause::new(key)
            .text("file", file)
            .text("what", what)
            .text("names", names.join(", "));
        self.push(EntryKind::Ignored, cause);
    }

    /// Reports a value that could not be read, and why (`import.value.*`, a duration's reason, a
    /// parser's words).
    pub fn malformed(&mut self, file: &str, setting: &(impl Named + ?Sized), value: &str, error: Cause) {
        let cause = Cause::new("import.malformed")
            .text("file", file)
            .shown_up_to("setting", setting, SENTENCE_CHARS)
            .shown("value", value)
            .shown_up_to("error", &error, SENTENCE_CHARS);
        self.push(EntryKind::Unreadable, cause);
    }

    /// Reports a value that is a template nobody rendered.
    pub fn template(&mut self, file: &str, setting: &(impl Named + ?Sized), value: &str) {
        let cause = Cause::new("import.template")
            .text("file", file)
            .shown_up_to("setting", setting, SENTENCE_CHARS)
            .shown("value", value);
        self.push(EntryKind::Ignored, cause);
    }

    /// Reports that `setting` holds `found`, of another type than `expected` (a catalogue key
    /// such as `import.type.map`): the value is ignored.
    pub fn wrong_type(&mut self, file: &str, setting: &(impl Named + ?Sized), found: &Json, expected: &'static str) {
        let cause = Cause::new("import.wrong_type")
            .text("file", file)
            .shown_up_to("setting", setting, SENTENCE_CHARS)
            .sub("found", type_of(found))
            .sub("expected", Cause::new(expected));
        self.push(EntryKind::Ignored, cause);
    }

    /// `v` as a map: `None` when absent or empty (null), and when of another type, which is
    /// reported.
    pub fn map<'v>(
        &mut self,
        file: &str,
        setting: &(impl Named + ?Sized),
        v: Option<&'v Json>,
    ) -> Option<&'v Map<String, Json>> {
        match v? {
            Json::Object(m) => Some(m),
            Json::Null => None,
            other => {
                self.wrong_type(file, setting, other, "import.type.map");
                None
            }
        }
    }

    /// `v` as a list: `None` when absent or empty (null), and when of another type, which is
    /// reported.
    pub fn list<'v>(&mut self, file: &str, setting: &(impl Named + ?Sized), v: Option<&'v Json>) -> Option<&'v [Json]> {
        match v? {
            Json::Array(items) => Some(items),
            Json::Null => None,
            other => {
                self.wrong_type(file, setting, other, "import.type.list");
                None
            }
        }
    }

    /// `v` as text: `None` when absent or null, and when of another type, which is reported.
    pub fn string<'v>(&mut self, file: &str, setting: &(impl Named + ?Sized), v: Option<&'v Json>) -> Option<&'v str> {
        match v? {
            Json::String(s) => Some(s),
            Json::Null => None,
            other => {
                self.wrong_type(file, setting, other, "import.type.text");
                None
            }
        }
    }

    /// `v` as the text a flag carries (a string, a number or a boolean): `None` when absent or
    /// null, and for a map or a list, which is reported.
    pub fn scalar(&mut self, file: &str, setting: &(impl Named + ?Sized), v: Option<&Json>) -> Option<String> {
        match v? {
            Json::Null => None,
            Json::Object(_) | Json::Array(_) => {
                self.wrong_type(file, setting, v?, "import.type.text");
                None
            }
            other => super::field::scalar(other),
        }
    }
}

/// A value's type as a report names it.
pub fn type_of(v: &Json) -> Cause {
    Cause::new(match v {
        Json::Object(_) => "import.type.map",
        Json::Array(_) => "import.type.list",
        Json::String(_) => "import.type.text",
        Json::Number(_) => "import.type.number",
        Json::Bool(_) => "import.type.bool",
        Json::Null => "import.type.null",
    })
}
