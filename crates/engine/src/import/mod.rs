//! "Import your cluster": configuration files and `kubectl` output in the formats real clusters
//! produce, read into one [`Scenario`] and a [`Report`] of what was recognised (and where each
//! setting lives in its distribution), what was ignored and why, and what the chosen version
//! refuses or warns about.
//!
//! Pure: the caller reads the files; nothing here touches a file system or a clock. Unknown or
//! malformed input never panics and never loses what was recognised before it.
//!
//! - `input`: a file's bytes as text (its size and encoding); `text`: environment files,
//!   command lines, and YAML/JSON documents (`parse`, which `scan`s YAML first and builds
//!   values with `tree`), with salvage. [`limits`] bounds the time and memory any file may
//!   take; [`shown`] escapes and cuts what a report quotes from a file.
//! - `documents`: tells formats apart; `kubelet_config`, `kubeadm`, `static_pod`,
//!   `distros` (rke, RKE2/k3s, kubespray), `nodes` (with `cloud`: `spec.providerID` and
//!   the node-pool labels), `workloads` and `remediation` (Cluster API MachineHealthCheck,
//!   medik8s NodeHealthCheck and Self Node Remediation) read them.
//! - `flags`: pflag's rules; [`field`]: the fields and flags kubelife models.
//! - `collect`, `versions`, `build`: combining files, choosing the version, validating,
//!   and the default cluster where the files give no nodes.
//! - `place`, `report`: where a setting lives, and the report.
//!
//! `kubelife import` and the page's Import panel both call [`import`]: for the same files and
//! version they get the same scenario. Only the [`Reader`] differs: which version it checks
//! against when no file names one, and how the report speaks (of `--version` and the scenario's
//! nodes, or of the page's version and the page's own nodes).

pub(crate) mod build;
pub(crate) mod cloud;
pub(crate) mod collect;
pub(crate) mod distros;
pub(crate) mod documents;
pub mod field;
pub(crate) mod flags;
pub(crate) mod input;
pub(crate) mod kubeadm;
pub(crate) mod kubelet_config;
pub mod limits;
pub(crate) mod nodes;
pub(crate) mod parse;
pub(crate) mod place;
pub(crate) mod remediation;
mod remediation_drop;
pub(crate) mod report;
pub(crate) mod scan;
pub mod shown;
pub(crate) mod static_pod;
pub(crate) mod text;
pub(crate) mod tree;
pub(crate) mod version_text;
pub(crate) mod versions;
pub(crate) mod workloads;

pub use collect::type_of;
pub use report::{Entry, EntryKind, Report};

use crate::cause::Cause;
use crate::scenario::Scenario;
use crate::version::Version;
use collect::Collector;
use field::Component;
use place::Place;
use text::Parsed;

/// Who an import is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reader<'a> {
    /// `kubelife import [--version V]`: the version `V` when given (over the one the files
    /// name), else the files' version, else the newest. The report speaks of `--version` and of
    /// the scenario's nodes.
    Cli(Option<&'a str>),
    /// The page's Import panel, on the version it shows: the files' version, else the page's.
    /// The report says which it checked against; the page speaks of its own nodes itself.
    Page(Version),
}

/// What an import gives.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// The scenario. It always runs: where the files give no nodes it has the default cluster's
    /// (`presets::default_cluster`, the page's first visit), and that cluster's workloads too
    /// where they give none either; and, as no file gives a fault, that cluster's fault on its
    /// first node.
    pub scenario: Scenario,
    /// What was recognised, ignored, refused and filled in, and why.
    pub report: Report,
    /// Whether the scenario's nodes are the files' (else the default cluster's).
    pub nodes_read: bool,
    /// Whether the files gave workloads.
    pub workloads_read: bool,
}

/// Imports files (name, contents) in order, a later file's value replacing an earlier one's, for
/// `reader`. The contents are bytes: UTF-8, or UTF-16 with a byte-order mark (`input`); a file
/// over [`limits::MAX_FILE_BYTES`] or in another encoding is reported and left out.
pub fn import<T: AsRef<[u8]>>(files: &[(&str, T)], reader: Reader) -> Imported {
    let mut c = Collector::default();
    for (name, contents) in files {
        match input::decode(name, contents.as_ref()) {
            Ok((text, note)) => {
                if let Some(note) = note {
                    c.push(EntryKind::Note, note);
                }
                if let Some(nul) = input::nul_bytes(name, &text) {
                    c.push(EntryKind::Unreadable, nul);
                }
                read_file(&mut c, name, &text);
            }
            Err(refused) => c.push(EntryKind::Unreadable, refused),
        }
        c.finish_file(name);
    }
    let chosen = versions::choose(&mut c, reader);
    let (nodes_read, workloads_read) = (!c.nodes.is_empty(), !c.workloads.is_empty());
    let scenario = build::build(&mut c, chosen, reader);
    Imported {
        scenario,
        report: c.report,
        nodes_read,
        workloads_read,
    }
}

/// Whether a report recognised anything a scenario can use.
pub fn recognised_anything(report: &Report) -> bool {
    report.of(EntryKind::Recognised).next().is_some()
}

fn read_file(c: &mut Collector, file: &str, text: &str) {
    match text::read(c, file, text) {
        Parsed::Env(vars) => {
            c.recognise_as(file, Cause::new("import.document.env_file"));
            for (var, words) in vars {
                env_var(c, file, &var, &words);
            }
        }
        Parsed::CommandLine(component, words) => {
            let read_as = match component {
                Some(comp) => Cause::new("import.document.command_line").text("component", comp.name()),
                None => Cause::new("import.document.flag_list"),
            };
            c.recognise_as(file, read_as);
            let place = |comp: Component, flag: &str| Place::CommandLine {
                component: comp,
                flag: flag.to_string(),
            };
            flags::apply_words(c, file, component, &words, &place);
        }
        Parsed::Documents(docs) => {
            c.kubeadm_file = docs.iter().any(|d| {
                d.get("apiVersion")
                    .and_then(|v| v.as_str())
                    .is_some_and(|v| v.starts_with("kubeadm.k8s.io/"))
            });
            for doc in &docs {
                documents::read(c, file, doc);
            }
        }
    }
}

/// One variable of an environment file: kubeadm's `/var/lib/kubelet/kubeadm-flags.env`
/// (`KUBELET_KUBEADM_ARGS`, "Configuring each kubelet in your cluster using kubeadm") or a
/// packaged unit's `/etc/default/kubelet` and `/etc/kubernetes/*` (`KUBELET_EXTRA_ARGS`,
/// `KUBE_CONTROLLER_MANAGER_ARGS`, ...).
fn env_var(c: &mut Collector, file: &str, var: &str, words: &[String]) {
    let component = if var.contains("KUBELET") {
        Some(Component::Kubelet)
    } else if var.contains("CONTROLLER_MANAGER") {
        Some(Component::ControllerManager)
    } else if var.contains("APISERVER") {
        Some(Component::ApiServer)
    } else {
        None
    };
    let place = |comp: Component, flag: &str| match var {
        "KUBELET_KUBEADM_ARGS" => Place::KubeadmFlagsEnv { flag: flag.to_string() },
        _ => Place::EnvFile {
            component: comp,
            flag: flag.to_string(),
            var: var.to_string(),
        },
    };
    flags::apply_words(c, file, component, words, &place);
}
