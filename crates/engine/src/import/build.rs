//! From what the files said to a scenario: flags over files, the report frequency rule, nodes
//! and workloads, then the same validation a scenario gets, dropping (and reporting) each value
//! the chosen version refuses so that the rest still imports.

use super::cloud::{CloudId, Repair};
use super::collect::{Collector, Setting};
use super::field::{Field, Layer, Value};
use super::report::EntryKind;
use super::shown::{item, Shown, SENTENCE_CHARS};
use super::Reader;
use crate::cause::Cause;
use crate::scenario::cloud::Provider;
use crate::scenario::{flags, settings};
use crate::scenario::{CloudSection, NodeSection, RemediationSection, Scenario, MAX_NODES};
use crate::version::Version;
use std::collections::{BTreeMap, BTreeSet};

/// The most node names a report line lists.
const LISTED_NODES: usize = 5;

/// Node names for a report line: the first [`LISTED_NODES`], then `…` and how many in all.
fn listed(names: &[&str]) -> String {
    let mut out: Vec<String> = names.iter().take(LISTED_NODES).map(|n| item(n)).collect();
    if names.len() > LISTED_NODES {
        out.push(format!("… ({})", names.len()));
    }
    out.join(", ")
}

/// The most values the validation loop drops before it gives up.
const MAX_DROPS: usize = 256;

/// The value of a field: a flag wins over the configuration file (kubelet docs, "Set Kubelet
/// Parameters Via A Configuration File").
fn value(c: &Collector, f: Field) -> Option<&Setting> {
    c.settings
        .get(&(f, Layer::Flag))
        .or_else(|| c.settings.get(&(f, Layer::File)))
}

fn int(c: &Collector, f: Field) -> Option<i64> {
    match value(c, f)?.value {
        Value::Int(i) => Some(i),
        _ => None,
    }
}

fn boolean(c: &Collector, f: Field) -> Option<bool> {
    match value(c, f)?.value {
        Value::Bool(b) => Some(b),
        _ => None,
    }
}

/// The kubelet's status frequencies. In a `KubeletConfiguration` a file that sets
/// `nodeStatusUpdateFrequency` alone also sets the report frequency to it
/// (`SetDefaults_KubeletConfiguration`), which the scenario format does too; the
/// `--node-status-update-frequency` flag is applied after defaulting and leaves the report
/// frequency at its default, so that default is written out.
fn status_frequencies(c: &Collector, s: &mut Scenario, v: Version) {
    let (update, report) = (
        &flags::NODE_STATUS_UPDATE_FREQUENCY,
        &flags::NODE_STATUS_REPORT_FREQUENCY,
    );
    let has_report = report.exists_in(&v.profile());
    let get = |f, layer| match c.settings.get(&(Field::of(f)?, layer)).map(|s| s.value) {
        Some(Value::Duration(ms)) => Some(ms),
        _ => None,
    };
    let update_flag = get(update, Layer::Flag);
    let update_file = get(update, Layer::File);
    if let Some(ms) = update_flag.or(update_file) {
        update.put(s, Value::Duration(ms));
    }
    let written = match (get(report, Layer::File), update_file) {
        (Some(report), _) => Some(Value::Duration(report)),
        // The file's defaulting ran first: the report frequency is the file's update frequency.
        (None, Some(file)) if has_report && update_flag.is_some_and(|f| f != file) => Some(Value::Duration(file)),
        (None, Some(_)) => None,
        (None, None) if has_report && update_flag.is_some() => Some(report.default_in(v)),
        (None, None) => None,
    };
    if let Some(value) = written {
        report.put(s, value);
    }
}

/// Every other setting of the catalogue the files gave (a flag's value over a file's), and the
/// feature gates.
fn settings(c: &Collector, s: &mut Scenario) {
    let frequencies = [
        flags::NODE_STATUS_UPDATE_FREQUENCY.name,
        flags::NODE_STATUS_REPORT_FREQUENCY.name,
    ];
    for f in flags::ALL.iter().filter(|f| !frequencies.contains(&f.name)) {
        if let Some(setting) = Field::of(f).and_then(|field| value(c, field)) {
            f.put(s, setting.value);
        }
    }
    for gate in crate::version::Gate::ALL {
        if let Some(b) = boolean(c, Field::Gate(gate)) {
            s.feature_gates.insert(gate.name().to_string(), b);
        }
    }
}

/// Nodes, at most the format's limit.
fn nodes(c: &mut Collector, s: &mut Scenario) {
    if c.nodes.len() > MAX_NODES {
        let cause = Cause::new("import.nodes.truncated")
            .text("count", c.nodes.len())
            .text("max", MAX_NODES);
        c.push(EntryKind::Ignored, cause);
        c.truncate_nodes(MAX_NODES);
    }
    s.nodes = c.nodes.iter().map(|n| n.section.clone()).collect();
}

/// `cloud.provider` from the nodes' `spec.providerID`: the provider most nodes name (a tie goes to
/// the provider of the first node read that names one), with a warning naming them all when the
/// nodes name several; a scheme kubelife does not model (`kind://`, `vsphere://`) is reported and
/// counts as none. Nodes without one are named only when others have one.
fn cloud(c: &mut Collector, s: &mut Scenario) {
    let mut by: Vec<(Provider, Vec<&str>)> = Vec::new();
    let mut others: BTreeMap<String, usize> = BTreeMap::new();
    let mut none: Vec<&str> = Vec::new();
    for n in &c.nodes {
        let name = n.section.name.as_str();
        match &n.cloud.id {
            CloudId::Provider(p) => match by.iter_mut().find(|(q, _)| q == p) {
                Some((_, names)) => names.push(name),
                None => by.push((*p, vec![name])),
            },
            CloudId::Other(scheme) => {
                *others.entry(scheme.clone()).or_default() += 1;
                none.push(name);
            }
            CloudId::None => none.push(name),
        }
    }
    let mut lines = Vec::new();
    if !others.is_empty() {
        let schemes: Vec<String> = others.iter().map(|(k, n)| format!("{} ({n})", item(k))).collect();
        lines.push((
            EntryKind::Ignored,
            Cause::new("import.cloud.other").text("schemes", schemes.join(", ")),
        ));
    }
    // `by` is in the order first read: the stable sort keeps the earlier provider first on a tie.
    // The shared sort, so the files worker carries one copy.
    crate::order::sort_by_key(&mut by, |(_, names)| std::cmp::Reverse(names.len()));
    if let Some((provider, names)) = by.first() {
        lines.push((
            EntryKind::Recognised,
            Cause::new("import.cloud.provider")
                .text("provider", provider.name())
                .text("count", names.len())
                .text("nodes", listed(names)),
        ));
        if by.len() > 1 {
            let all: Vec<String> = by
                .iter()
                .map(|(p, names)| format!("{} ({}: {})", p.name(), names.len(), listed(names)))
                .collect();
            lines.push((
                EntryKind::Warning,
                Cause::new("import.cloud.mixed")
                    .text("providers", all.join("; "))
                    .text("provider", provider.name()),
            ));
        }
        if !none.is_empty() {
            lines.push((
                EntryKind::Note,
                Cause::new("import.cloud.without")
                    .text("count", none.len())
                    .text("nodes", listed(&none))
                    .text("provider", provider.name()),
            ));
        }
        s.cloud = Some(CloudSection::new(*provider));
    }
    for (kind, cause) in lines {
        c.push(kind, cause);
    }
}

/// The automatic repairs the nodes' labels say probably apply, each with whether it is on by
/// default, in a note: the import does not add the remediator (whether it is on is not in the
/// files), and the note says how to add it.
fn repairs(c: &mut Collector) {
    let mut lines = Vec::new();
    for r in Repair::ALL {
        let names: Vec<&str> = c
            .nodes
            .iter()
            .filter(|n| n.cloud.repairs.contains(&r))
            .map(|n| n.section.name.as_str())
            .collect();
        if !names.is_empty() {
            let cause = Cause::new(r.key())
                .text("count", names.len())
                .text("nodes", listed(&names))
                .text("label", r.label());
            lines.push(cause);
        }
    }
    for cause in lines {
        c.push(EntryKind::Note, cause);
    }
}

/// The remediators the files gave, Self Node Remediation's with the strategy of its template
/// and the assumed-reboot time of its configuration; the file each came from. A template or a
/// configuration that no NodeHealthCheck uses is said so.
fn remediation(c: &mut Collector, s: &mut Scenario) -> Vec<Option<String>> {
    let found = std::mem::take(&mut c.remediation);
    let mut files = Vec::new();
    let mut snr = false;
    for (mut entry, file) in found.entries {
        if let RemediationSection::SelfNodeRemediation(section) = &mut entry {
            snr = true;
            if let Some((strategy, ..)) = &found.strategy {
                section.strategy = Some(strategy.clone());
            }
            if let Some((safe, ..)) = &found.safe_time {
                section.safe_time_to_assume_node_rebooted = Some(*safe);
            }
        }
        s.remediation.push(entry);
        files.push(Some(file));
    }
    if !snr {
        let unused = [
            found.strategy.map(|(_, file, what)| (file, what)),
            found.safe_time.map(|(_, file, what)| (file, what)),
        ];
        for (file, what) in unused.into_iter().flatten() {
            let cause = Cause::new("import.snr.unused").text("file", file).text("what", what);
            c.push(EntryKind::Note, cause);
        }
    }
    files
}

/// Without nodes in the files, the scenario runs on the default cluster
/// (`presets::default_cluster`: the page's first visit, three nodes in three zones), and on its
/// workloads too when the files give none, so that `kubelife run` takes it as it is. The CLI's
/// report says so; the page keeps its own cluster and says that itself.
fn default_cluster(c: &mut Collector, s: &mut Scenario, v: Version, reader: Reader) {
    if !s.nodes.is_empty() {
        return;
    }
    let cluster = crate::presets::default_cluster(&v.to_string());
    s.nodes = cluster.nodes;
    let workloads = s.workloads.is_empty();
    if workloads {
        s.workloads = cluster.workloads;
    }
    if !matches!(reader, Reader::Cli(_)) {
        return;
    }
    let names: Vec<&str> = s.nodes.iter().map(|n| n.name.as_str()).collect();
    let zones = crate::order::set(s.nodes.iter().filter_map(|n| n.zone.as_deref()));
    let zones: Vec<&str> = zones.into_iter().collect();
    let cause = Cause::new("import.default_cluster")
        .text("count", names.len())
        .text("nodes", names.join(", "))
        .text("zones", zones.join(", "));
    c.push(EntryKind::Note, cause);
    if workloads {
        let listed: Vec<String> = s
            .workloads
            .iter()
            .map(|w| match w.replicas {
                Some(r) => format!("{:?} {} ({r})", w.kind, w.name),
                None => format!("{:?} {}", w.kind, w.name),
            })
            .collect();
        let cause = Cause::new("import.default_workloads").text("workloads", listed.join(", "));
        c.push(EntryKind::Note, cause);
    }
}

/// The kubelet's `maxPods` for every node that has none of its own.
fn max_pods(c: &Collector, s: &mut Scenario) {
    if let Some(m) = int(c, Field::MaxPods).and_then(|i| u32::try_from(i).ok()) {
        s.nodes
            .iter_mut()
            .filter(|n| n.max_pods.is_none())
            .for_each(|n| n.max_pods = Some(m));
    }
}

/// Workloads with names made unique: a name seen in another namespace gets `-<namespace>`.
fn workloads(c: &mut Collector, s: &mut Scenario) {
    let mut taken = BTreeSet::new();
    let mut renamed = Vec::new();
    for w in &c.workloads {
        let mut section = w.section.clone();
        if !taken.insert(section.name.clone()) {
            let name = format!("{}-{}", section.name, w.namespace);
            renamed.push((section.name.clone(), name.clone()));
            taken.insert(name.clone());
            section.name = name;
        }
        s.workloads.push(section);
    }
    for (old, new) in renamed {
        c.push(
            EntryKind::Note,
            Cause::new("import.workload.renamed").text("old", old).text("new", new),
        );
    }
}

/// Reports each value a flag sets over a different one in a configuration file: the kubelet
/// applies its command line after its `--config` file.
fn flags_over_files(c: &mut Collector) {
    let mut pairs = Vec::new();
    for ((field, layer), flag) in &c.settings {
        if *layer != Layer::Flag {
            continue;
        }
        if let Some(file) = c.settings.get(&(*field, Layer::File)).filter(|f| f.value != flag.value) {
            let cause = Cause::new("import.flag_over_file")
                .text("field", field.path())
                .text("value", flag.value)
                .text("file", &flag.file)
                .text("old", file.value)
                .text("previous", &file.file);
            pairs.push(cause);
        }
    }
    for cause in pairs {
        c.push(EntryKind::Overridden, cause);
    }
}

/// Builds the scenario for `version` (none: the format's default, the newest).
pub fn build(c: &mut Collector, version: Option<Version>, reader: Reader) -> Scenario {
    let mut s = Scenario {
        version: version.map(|v| v.to_string()),
        ..Default::default()
    };
    let v = version.unwrap_or_default();
    flags_over_files(c);
    status_frequencies(c, &mut s, v);
    settings(c, &mut s);
    nodes(c, &mut s);
    cloud(c, &mut s);
    repairs(c);
    workloads(c, &mut s);
    let remediation = remediation(c, &mut s);
    // The file each node and workload came from (none: the default cluster's), for the report.
    let mut sources = Sources {
        nodes: c.nodes.iter().map(|n| Some(n.file.clone())).collect(),
        workloads: c.workloads.iter().map(|w| Some(w.file.clone())).collect(),
        remediation,
    };
    default_cluster(c, &mut s, v, reader);
    sources.nodes.resize(s.nodes.len(), None);
    sources.workloads.resize(s.workloads.len(), None);
    max_pods(c, &mut s);
    validate(c, &mut s, &mut sources);
    default_fault(c, &mut s, v, reader);
    s
}

/// No file gives a fault (a real cluster's files never do), so the scenario gets the page's
/// default one, `presets::default_cluster`'s (the page's first visit and any link that names no
/// fault): its first node crashes at 30s. Without it `kubelife run` would show an idle cluster
/// and `kubelife tune` would have nothing to measure from. The CLI's report says so; the page
/// keeps its own fault.
fn default_fault(c: &mut Collector, s: &mut Scenario, v: Version, reader: Reader) {
    let Some(first) = s.nodes.first().filter(|_| s.events.is_empty()) else {
        return;
    };
    let Some(mut fault) = crate::presets::default_cluster(&v.to_string())
        .events
        .into_iter()
        .next()
    else {
        return;
    };
    fault.node = Some(first.name.clone());
    if matches!(reader, Reader::Cli(_)) {
        let cause = Cause::new("import.default_fault")
            .shown("node", &first.name)
            .time("at", fault.at.0)
            .text("action", format!("{:?}", fault.action));
        c.push(EntryKind::Note, cause);
    }
    s.events.push(fault);
}

/// The file each of the scenario's nodes and workloads came from, in the scenario's order.
struct Sources {
    nodes: Vec<Option<String>>,
    workloads: Vec<Option<String>>,
    remediation: Vec<Option<String>>,
}

impl Sources {
    /// The file the value at a scenario path came from, if a file gave it.
    fn file(&self, c: &Collector, path: &str) -> Option<String> {
        let indexed = |prefix: &str, files: &[Option<String>]| {
            let i: usize = path.strip_prefix(prefix)?.split_once(']')?.0.parse().ok()?;
            files.get(i).cloned().flatten()
        };
        if path.starts_with("nodes[") {
            let file = indexed("nodes[", &self.nodes);
            return file.or_else(|| {
                path.ends_with(".maxPods")
                    .then(|| setting_file(c, "nodes[].maxPods"))
                    .flatten()
            });
        }
        if path.starts_with("workloads[") {
            return indexed("workloads[", &self.workloads);
        }
        if path.starts_with("remediation[") {
            return indexed("remediation[", &self.remediation);
        }
        setting_file(c, path)
    }

    /// Follows `drop_field`: a node, workload or remediator (`entry_removed`) removed from the
    /// scenario leaves the list too.
    fn dropped(&mut self, path: &str, entry_removed: bool) {
        let index = |prefix: &str| -> Option<usize> { path.strip_prefix(prefix)?.split_once(']')?.0.parse().ok() };
        if path.starts_with("remediation[") {
            if let Some(i) = index("remediation[").filter(|&i| entry_removed && i < self.remediation.len()) {
                self.remediation.remove(i);
            }
        } else if path == "workloads" {
            self.workloads.pop();
        } else if let Some(i) = index("workloads[").filter(|&i| i < self.workloads.len()) {
            self.workloads.remove(i);
        } else if let Some(i) = index("nodes[").filter(|&i| i < self.nodes.len() && !path.ends_with(".maxPods")) {
            self.nodes.remove(i);
        }
    }
}

/// Resolves the scenario as a run would, with a stand-in node should every node have been
/// dropped; every refused value is dropped and reported, then the warnings are added to the
/// report.
fn validate(c: &mut Collector, s: &mut Scenario, sources: &mut Sources) {
    for _ in 0..MAX_DROPS {
        let mut trial = s.clone();
        if trial.nodes.is_empty() {
            trial.nodes.push(NodeSection {
                name: "node-1".into(),
                ..Default::default()
            });
        }
        match trial.resolve() {
            Ok(cfg) => {
                for w in cfg.warnings {
                    c.push(EntryKind::Warning, w);
                }
                return;
            }
            Err(e) => {
                let cause = match sources.file(c, &e.field) {
                    Some(file) => Cause::new("import.invalid").text("file", file),
                    None => Cause::new("import.invalid.no_file"),
                };
                let cause = match e.field.is_empty() {
                    true => cause.sub("field", Cause::new("import.scenario")),
                    false => cause.shown_up_to("field", &e.field, SENTENCE_CHARS),
                };
                let cause = cause.shown_up_to("reason", &e.reason, SENTENCE_CHARS);
                c.push(EntryKind::Invalid, cause);
                let entries = s.remediation.len();
                if !drop_field(s, &e.field) {
                    return;
                }
                sources.dropped(&e.field, entries != s.remediation.len());
            }
        }
    }
}

/// The file a setting's value came from (the flag's, where a flag wins over a file).
fn setting_file(c: &Collector, path: &str) -> Option<String> {
    c.settings
        .iter()
        .filter(|((f, _), _)| f.path() == path)
        .map(|(_, s)| s.file.clone())
        .next_back()
}

/// Removes the value at a scenario path; false when there is nothing to remove.
fn drop_field(s: &mut Scenario, path: &str) -> bool {
    match flags::by_path(path) {
        Some(f) => f.clear(s),
        None if path == "workloads" => s.workloads.pop().is_some(),
        None => drop_indexed(s, path),
    }
}

/// `featureGates.<gate>`, `nodes[i]...` and `workloads[i]...`: the gate, the node's `maxPods`
/// or the node, the workload.
fn drop_indexed(s: &mut Scenario, path: &str) -> bool {
    if let Some(gate) = path.strip_prefix("featureGates.") {
        return s.feature_gates.remove(gate).is_some();
    }
    let index = |prefix: &str| -> Option<(usize, String)> {
        let rest = path.strip_prefix(prefix)?;
        let (i, tail) = rest.split_once(']')?;
        Some((i.parse().ok()?, tail.to_string()))
    };
    if let Some((i, tail)) = index("nodes[").filter(|(i, _)| *i < s.nodes.len()) {
        if tail == ".maxPods" {
            return s.nodes[i].max_pods.take().is_some();
        }
        s.nodes.remove(i);
        return true;
    }
    if let Some((i, _)) = index("workloads[").filter(|(i, _)| *i < s.workloads.len()) {
        s.workloads.remove(i);
        return true;
    }
    if let Some((i, tail)) = index("remediation[").filter(|(i, _)| *i < s.remediation.len()) {
        // One condition or field goes where the entry can do without it, else the entry.
        if !super::remediation_drop::drop_in(&mut s.remediation[i], &tail) {
            s.remediation.remove(i);
        }
        return true;
    }
    // A refused `cloud` duration goes alone, the provider with it otherwise.
    if let Some(setting) = settings::by_path(path) {
        return setting.clear(s);
    }
    if path == "cloud" || path.starts_with("cloud.") {
        return s.cloud.take().is_some();
    }
    false
}
