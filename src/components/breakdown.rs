//! "Where does the time go?": the time from the fault to the first replacement Ready as a
//! stacked bar, each segment labelled with its flag and value.

use crate::explain::Segment;
use crate::i18n::{tr, trf, Lang};
use kubelife_engine::time::format_go_duration_tenths;
use yew::prelude::*;

/// Properties of [`Breakdown`].
#[derive(Properties, PartialEq, Clone)]
pub struct BreakdownProps {
    /// The segments, in order.
    pub segments: Vec<Segment>,
}

/// The stacked bar.
#[function_component(Breakdown)]
pub fn breakdown(p: &BreakdownProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let total: i64 = p.segments.iter().map(|s| s.ms).sum::<i64>().max(1);
    html! {
        <div class="breakdown" aria-label={tr(lang, "ui.breakdown.title")}>
            <div class="breakdown-bar">
            { for p.segments.iter().enumerate().map(|(i, s)| html! {
                <div class={format!("breakdown-seg breakdown-seg-{i}")} style={format!("flex-grow: {}", s.ms.max(1))}
                    title={format!("{}: {} ({})", tr(lang, s.label), format_go_duration_tenths(s.ms), s.flag)}></div>
            }) }
            </div>
            <ol class="breakdown-legend">
            { for p.segments.iter().enumerate().map(|(i, s)| html! {
                <li><span class={format!("breakdown-swatch breakdown-seg-{i}")}></span>
                    <strong>{format_go_duration_tenths(s.ms)}</strong>{" "}{tr(lang, s.label)}{" "}<code>{s.flag.clone()}</code></li>
            }) }
            </ol>
            <p class="breakdown-total">{trf(lang, "ui.breakdown.total", &[("total", &format_go_duration_tenths(total))])}</p>
        </div>
    }
}
