//! "Apply this to a cluster": the current settings as configuration, version-aware, each block
//! with a copy button. The YAML comes from the engine's serializer-backed export.

use crate::i18n::{lookup, tr, Lang};
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
        Format::Kubelet => "ui.export.kubelet",
        Format::ControllerManager => "ui.export.kcm",
        Format::ApiServer => "ui.export.apiserver",
        Format::Tolerations => "ui.export.tolerations",
        Format::Rke => "ui.export.rke",
        Format::KubeProxy => "ui.export.kube-proxy",
        Format::Pdb => "ui.export.pdb",
    }
}

/// The panel.
#[function_component(ExportPanel)]
pub fn export_panel(p: &ExportProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    html! {
        <div class="export">
            <p class="export-help">{tr(lang, "ui.export.help")}</p>
            { for Format::ALL.iter().map(|&(name, f)| {
                let e = export(&p.cfg, f);
                let text = e.with_comments_in(&|k| lookup(lang, k));
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
                        <header class="export-head"><h3>{tr(lang, title(f))}</h3><button onclick={copy} aria-label={format!("{} {name}", tr(lang, "ui.copy"))}>{tr(lang, "ui.copy")}</button></header>
                        <pre class="export-yaml" tabindex="0" role="region" aria-label={tr(lang, title(f))} data-testid={format!("export-{name}")}>{text}</pre>
                    </section>
                }
            }) }
        </div>
    }
}
