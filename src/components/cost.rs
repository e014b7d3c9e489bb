//! The control-plane cost of the heartbeats: lease updates and status patches per minute for a
//! cluster size the user picks, beside the version defaults' figure.

use crate::explain::writes_per_minute;
use crate::i18n::{tr, Lang};
use kubelife_engine::Config;
use kubelife_playground::decimal::{log10, pow10};
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Properties of [`Cost`].
#[derive(Properties, PartialEq, Clone)]
pub struct CostProps {
    /// The current configuration.
    pub cfg: super::Same<Config>,
    /// The version's defaults.
    pub defaults: super::Same<Config>,
    /// Cluster size to price.
    pub nodes: u32,
    /// Called with a new size.
    pub onnodes: Callback<u32>,
}

/// A rate or a count, rounded, as a reader writes it: 6,078.
fn fmt(v: f64) -> String {
    crate::explain::thousands(v.round().max(0.0) as u64)
}

/// The readout.
#[function_component(Cost)]
pub fn cost(p: &CostProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let (lease, status) = writes_per_minute(&p.cfg, p.nodes);
    let (dl, ds) = writes_per_minute(&p.defaults, p.nodes);
    let oninput = {
        let cb = p.onnodes.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Some(v) = crate::browser::decimal(&input.value()) {
                // The slider is logarithmic: 10^v nodes.
                cb.emit(pow10(v).round().clamp(10.0, 5000.0) as u32);
            }
        })
    };
    html! {
        <div class="cost">
            <label class="cost-size">{tr(lang, "ui.cost.size")}<strong>{fmt(f64::from(p.nodes))}{tr(lang, "ui.cost.nodes")}</strong>
                <input type="range" min="1" max="3.699" step="0.01" value={log10(f64::from(p.nodes)).to_string()} aria-label={tr(lang, "ui.cost.size_label")} oninput={oninput} />
            </label>
            <table class="cost-table">
                <thead><tr><th><span class="visually-hidden">{tr(lang, "ui.cost.kind")}</span></th><th>{tr(lang, "ui.cost.these")}</th><th>{tr(lang, "ui.cost.defaults")}</th></tr></thead>
                <tbody>
                    <tr><th>{tr(lang, "ui.cost.lease")}</th><td data-testid="cost-lease">{fmt(lease)}</td><td>{fmt(dl)}</td></tr>
                    <tr><th>{tr(lang, "ui.cost.status")}</th><td data-testid="cost-status">{fmt(status)}</td><td>{fmt(ds)}</td></tr>
                    <tr><th>{tr(lang, "ui.cost.total")}</th><td data-testid="cost-total"><strong>{fmt(lease + status)}</strong></td><td>{fmt(dl + ds)}</td></tr>
                </tbody>
            </table>
        </div>
    }
}
