//! "Apply this to a cluster": the current settings as configuration, version-aware, each block
//! with a copy button. The YAML comes from the engine's serializer-backed export.

use kubelife_engine::export::{export, Format};
use kubelife_engine::Config;
use std::rc::Rc;
use yew::prelude::*;

/// Properties of [`ExportPanel`].
#[derive(Properties, PartialEq, Clone)]
pub struct ExportProps {
    /// The current configuration.
    pub cfg: Rc<Config>,
}

fn title(f: Format) -> &'static str {
    match f {
        Format::Kubelet => "KubeletConfiguration (config file on every node)",
        Format::ControllerManager => "kube-controller-manager flags",
        Format::ApiServer => "kube-apiserver flags",
        Format::Tolerations => "pod tolerations (per workload)",
        Format::Rke => "rke cluster.yml services",
    }
}

/// The panel.
#[function_component(ExportPanel)]
pub fn export_panel(p: &ExportProps) -> Html {
    html! {
        <div class="export">
            <p class="help">{"Only values that differ from this version's defaults are written; flags the version rejects are never written."}</p>
            { for Format::ALL.iter().map(|&(name, f)| {
                let e = export(&p.cfg, f);
                let text = e.with_comments();
                let copy = {
                    let text = text.clone();
                    Callback::from(move |_| {
                        if let Some(w) = web_sys::window() {
                            let _ = w.navigator().clipboard().write_text(&text);
                        }
                    })
                };
                html! {
                    <section class="export-block">
                        <header><h3>{title(f)}</h3><button onclick={copy} aria-label={format!("copy {name}")}>{"Copy"}</button></header>
                        <pre data-testid={format!("export-{name}")}>{text}</pre>
                    </section>
                }
            }) }
        </div>
    }
}
