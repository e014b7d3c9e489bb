//! "Where does the time go?": for each milestone the run reaches (the first replacement Ready,
//! the Service whole again, a StatefulSet pod with a volume Ready again), the chain of events
//! that led to it from the fault as a stacked bar, each segment labelled with the cause of the
//! event that ends it; a milestone not reached says where its way stopped. Everything is read off
//! the run (`kubelife_figures::explain`).

use crate::explain::{figure_bars, Bar, Goal};
use crate::i18n::{lookup, trf, Lang};
use crate::model::Run;
use kubelife_engine::time::{format_go_duration, format_go_duration_span};
use kubelife_engine::Outcome;
use std::rc::Rc;
use yew::prelude::*;

/// Properties of [`Breakdown`].
#[derive(Properties, PartialEq, Clone)]
pub struct BreakdownProps {
    /// The run, with its bars read off it once.
    pub run: Rc<Run>,
}

/// The test id of a bar's title.
fn test_id(goal: &Goal) -> &'static str {
    match goal {
        Goal::Replacement => "breakdown-replacement",
        Goal::ServiceRestored => "breakdown-service",
        Goal::Database(_) => "breakdown-database",
    }
}

/// One bar: its title, the stacked segments, and a legend line per segment with its length,
/// what happened and the event that ends it.
fn bar(lang: Lang, bar: &Bar, drawn: &kubelife_figures::Bar, o: &Outcome) -> Html {
    let passes = drawn.passes.clone();
    html! { <>
        <h3 class="breakdown-sub" data-testid={test_id(&bar.goal)}>{drawn.title.clone()}</h3>
        if bar.reached() {
            <div class="breakdown-bar" aria-hidden="true">
            { for bar.segments.iter().zip(&drawn.pieces).enumerate().map(|(i, (s, piece))| html! {
                <div class={format!("breakdown-seg breakdown-seg-{}", i % 6)} style={format!("flex-grow: {}", s.ms.max(1))}
                    title={format!("{}: {}", format_go_duration_span(s.ms), piece.label)}></div>
            }) }
            </div>
            <ol class="breakdown-legend">
            { for bar.segments.iter().zip(&drawn.pieces).enumerate().map(|(i, (s, piece))| {
                let e = &o.events[s.event];
                let ends = trf(lang, "ui.breakdown.ends", &[("kind", &e.kind), ("at", &format_go_duration(e.at_ms))]);
                html! { <>
                    <li><span class={format!("breakdown-swatch breakdown-seg-{}", i % 6)}></span>
                        <strong>{format_go_duration_span(s.ms)}</strong>{" "}{piece.label.clone()}
                        {" "}<span class="breakdown-event">{ends}</span></li>
                    if let Some((_, text)) = passes.as_ref().filter(|(after, _)| *after == i + 1) {
                        <li class="breakdown-passes">{text.clone()}</li>
                    }
                </> }
            }) }
            </ol>
        }
        <p class="breakdown-total">{drawn.total.clone()}</p>
    </> }
}

/// The bars, drawn again only when the run or the language changes (the props of one run are
/// equal, so the playhead moving renders nothing here).
#[function_component(Breakdown)]
pub fn breakdown(p: &BreakdownProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let run = &p.run;
    let drawn = figure_bars(&run.bars, &run.outcome.events, &|k| lookup(lang, k));
    html! {
        <div class="breakdown" aria-label={crate::i18n::tr(lang, "ui.breakdown.title")}>
            { for run.bars.iter().zip(&drawn).map(|(b, d)| bar(lang, b, d, &run.outcome)) }
        </div>
    }
}
