//! "Apply this to a cluster": the current settings as configuration, version-aware, each block
//! with a copy button. The YAML comes from the engine's serializer-backed export, made in the
//! files worker (`worker_line`), so the YAML serializer is not in the page's wasm; the panel asks
//! for it when it first comes near the viewport, so a reader who never scrolls there never
//! fetches that worker.

use crate::components::copy::CopyButton;
use crate::hooks::{use_catalogue_part, use_seen};
use crate::i18n::{cause, tr, Lang, Part};
use crate::jobs::{FilesAnswer, FilesJob};
use crate::model::Run;
use crate::settings::Settings;
use crate::worker_line::use_worker_job;
use kubelife_engine::export::{Export, Format};
use std::rc::Rc;
use yew::prelude::*;

/// Properties of [`ExportPanel`].
#[derive(Properties, PartialEq, Clone)]
pub struct ExportProps {
    /// The current settings.
    pub settings: Settings,
    /// The run shown, for the out-of-service taint when it needs one.
    pub run: Rc<Run>,
}

fn title(f: Format) -> &'static str {
    match f {
        Format::Kubelet => "ui.export.kubelet",
        Format::ControllerManager => "ui.export.kcm",
        Format::ApiServer => "ui.export.apiserver",
        Format::Tolerations => "ui.export.tolerations",
        Format::Rke => "ui.export.rke",
        Format::KubeProxy => "ui.export.kube-proxy",
        Format::Pdb => "ui.export.pdb",
        Format::Kubeadm => "ui.export.kubeadm",
    }
}

/// The panel.
#[function_component(ExportPanel)]
pub fn export_panel(p: &ExportProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    // Its notes (`note.*`, `oos.*`) are among the texts fetched once the page is live: the panel
    // renders again when they are in.
    use_catalogue_part(lang, Part::Later, true);
    // The files worker is fetched only once the panel comes near the viewport.
    let node = use_node_ref();
    let seen = use_seen(node.clone());
    let answer = use_worker_job(seen.then_some(FilesJob::Export(Box::new(p.settings.clone()))));
    let blocks = match answer.as_ref().map(|a| &*a.answer) {
        Some(FilesAnswer::Exported(all)) => Format::ALL
            .iter()
            .zip(all)
            .map(|(&(name, f), (yaml, notes))| {
                let notes = kubelife_engine::wire::decode_messages(&notes.0).unwrap_or_default();
                if yaml.is_empty() {
                    // Nothing to write: the notes say so, and there is nothing to copy.
                    let said: Vec<String> = notes.iter().map(|(_, c)| cause(lang, c)).collect();
                    return nothing(lang, name, title(f), said);
                }
                let mut text: String = notes.iter().map(|(_, c)| format!("# {}\n", cause(lang, c))).collect();
                text.push_str(yaml);
                block(lang, name, title(f), text)
            })
            .collect::<Html>(),
        _ => html! {},
    };
    html! {
        <div class="export" ref={node} data-testid="export-panel" data-ready={answer.as_ref().is_some_and(|a| a.current).to_string()}>
            <p class="export-help">{tr(lang, "ui.export.help")}</p>
            { out_of_service(lang, &p.run.out_of_service) }
            {blocks}
        </div>
    }
}

/// The out-of-service taint's commands with when to run them and how to take the taint off,
/// when the run shows a node that stays down with a pod waiting on it; nothing otherwise.
fn out_of_service(lang: Lang, e: &Export) -> Html {
    if e.yaml.is_empty() {
        return html! {};
    }
    let mut shown: String = e.notes.iter().map(|c| format!("# {}\n", cause(lang, c))).collect();
    shown.push_str(&e.yaml);
    block(lang, "out-of-service", "ui.export.out_of_service", shown)
}

/// A format with nothing to write: its title and why, no copy button.
fn nothing(lang: Lang, name: &'static str, title: &'static str, said: Vec<String>) -> Html {
    html! {
        <section class="export-block">
            <header class="export-head"><h3>{tr(lang, title)}</h3></header>
            <p class="export-nothing" data-testid={format!("export-{name}")}>{said.join(" · ")}</p>
        </section>
    }
}

/// One format's block with its copy button.
fn block(lang: Lang, name: &'static str, title: &'static str, text: String) -> Html {
    html! {
        <section class="export-block">
            <header class="export-head"><h3>{tr(lang, title)}</h3><CopyButton text={text.clone()} label={tr(lang, "ui.copy")} aria_label={format!("{} {name}", tr(lang, "ui.copy"))} /></header>
            <pre class="export-yaml" tabindex="0" role="region" aria-label={tr(lang, title)} data-testid={format!("export-{name}")}>{text}</pre>
        </section>
    }
}
