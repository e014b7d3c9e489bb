//! "Where does the time go?": the time from the fault to the first replacement Ready (and to the
//! Service whole again) as a stacked bar, each segment labelled with its flag and value; with a
//! StatefulSet pod that has a volume on the failed node, a second bar to that database Ready again,
//! the wait for the old pod object and for the volume as segments of their own.

use crate::explain::Segment;
use crate::i18n::{tr, trf, Lang};
use kubelife_engine::time::format_go_duration_tenths;
use yew::prelude::*;

/// Properties of [`Breakdown`].
#[derive(Properties, PartialEq, Clone)]
pub struct BreakdownProps {
    /// The segments, in order.
    pub segments: Vec<Segment>,
    /// A second bar for a StatefulSet pod with a volume: its name and segments.
    #[prop_or_default]
    pub database: Option<(String, Vec<Segment>)>,
}

/// One stacked bar and its legend.
fn bar(lang: Lang, segments: &[Segment]) -> Html {
    html! { <>
        <div class="breakdown-bar">
        { for segments.iter().enumerate().map(|(i, s)| html! {
            <div class={format!("breakdown-seg breakdown-seg-{i}")} style={format!("flex-grow: {}", s.ms.max(1))}
                title={format!("{}: {} ({})", tr(lang, s.label), format_go_duration_tenths(s.ms), s.flag)}></div>
        }) }
        </div>
        <ol class="breakdown-legend">
        { for segments.iter().enumerate().map(|(i, s)| html! {
            <li><span class={format!("breakdown-swatch breakdown-seg-{i}")}></span>
                <strong>{format_go_duration_tenths(s.ms)}</strong>{" "}{tr(lang, s.label)}{" "}<code>{s.flag.clone()}</code></li>
        }) }
        </ol>
    </> }
}

/// The stacked bar.
#[function_component(Breakdown)]
pub fn breakdown(p: &BreakdownProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let total: i64 = p.segments.iter().map(|s| s.ms).sum::<i64>().max(1);
    html! {
        <div class="breakdown" aria-label={tr(lang, "ui.breakdown.title")}>
            { bar(lang, &p.segments) }
            <p class="breakdown-total">{trf(lang, "ui.breakdown.total", &[("total", &format_go_duration_tenths(total))])}</p>
            if let Some((pod, segs)) = &p.database {
                <h3 class="breakdown-sub" data-testid="breakdown-database">{trf(lang, "ui.breakdown.database", &[("pod", pod)])}</h3>
                { bar(lang, segs) }
                <p class="breakdown-total">{
                    // The chain reaches its last step only when the pod is Ready again.
                    if segs.last().is_some_and(|s| s.label == "ui.seg.started") {
                        trf(lang, "ui.breakdown.total", &[("total", &format_go_duration_tenths(segs.iter().map(|s| s.ms).sum()))])
                    } else {
                        trf(lang, "ui.breakdown.database_never", &[("pod", pod)])
                    }
                }</p>
            }
        </div>
    }
}
