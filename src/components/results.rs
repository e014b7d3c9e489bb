//! The results at a glance: the failed node's milestones, each measured from the fault
//! (Unknown, the NoExecute taint, the first deletion, the first replacement Ready; with a Service,
//! traffic stopped and the Service whole again; with a cloud or a remediator, the Node deleted
//! and the remediation started or held back; with a volume, the volume free; with a StatefulSet
//! on a volume, the database Ready again), as the core's `cards` words them, and the time
//! controls (Play/Pause, restart, next event, a logarithmic speed, the playhead). The playhead
//! reads both clocks: the run's time and the time since the fault the milestones count from.

use crate::cards::more;
use crate::components::filtered;
use crate::i18n::{tr, trf, Lang};
use crate::model::Run;
use kubelife_engine::time::format_go_duration_tenths;
use kubelife_engine::Millis;
use kubelife_playground::decimal::pow10;
use std::rc::Rc;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// What the time controls ask for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TransportAction {
    /// Play or pause.
    Toggle,
    /// Back to the start.
    Restart,
    /// Jump to the next event.
    Next,
    /// Playback speed as a power of ten.
    Speed(f64),
    /// Move the playhead, ms.
    Seek(Millis),
}

/// Properties of [`Results`].
#[derive(Properties, PartialEq, Clone)]
pub struct ResultsProps {
    /// The run, with its milestones read once.
    pub run: Rc<Run>,
    /// Whether playback runs.
    pub playing: bool,
    /// The playhead, ms.
    pub t: Millis,
    /// Playback speed as a power of ten (0 = 1x, 3 = 1000x).
    pub speed_exp: f64,
    /// Called with each action of the time controls.
    pub onaction: Callback<TransportAction>,
    /// Whether the milestone cards show (an embed may ask for the time controls alone).
    #[prop_or(true)]
    pub cards: bool,
    /// Whether the time controls show (an embed may ask for the cards alone).
    #[prop_or(true)]
    pub controls: bool,
}

/// The playhead against the fault: "fault + 5m49.6s", or "fault − 30s" before it.
pub fn since_fault(lang: Lang, t: Millis, fault: Millis) -> String {
    let (key, d) = if t >= fault {
        ("ui.playhead.after_fault", t - fault)
    } else {
        ("ui.playhead.before_fault", fault - t)
    };
    trf(lang, key, &[("d", &format_go_duration_tenths(d))])
}

pub use crate::cards::headline;

/// The milestone cards and the time controls.
#[function_component(Results)]
pub fn results(p: &ResultsProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let ms = &p.run.milestones;
    // Each card's id is both its tour anchor and its stable test id. A many-node outage shows
    // its spread; one node shows its own milestones.
    let mut cards = headline(lang, &p.run);
    let since = match &p.run.outage {
        Some(o) => trf(lang, "ui.milestone.outage_since", &[("nodes", &o.nodes)]),
        None => tr(lang, "ui.milestone.after_fault").to_string(),
    };
    cards.extend(more(lang, &p.run));
    html! { <>
        if p.cards {
        <div class="results-milestones" role="group" aria-label={tr(lang, "ui.milestones")} data-tour="milestones">
        { for cards.into_iter().map(|c| html! {
            <div class="results-card" data-tour={c.id}>
                <span class="results-name">{tr(lang, c.key)}</span>
                <strong class="results-value" data-testid={c.id}>{c.text}</strong>
                if let Some(why) = c.why {
                    <span class="results-why" data-testid={format!("{}-why", c.id)}>{why}</span>
                } else {
                    <span class="results-since">{since.clone()}</span>
                }
            </div>
        }) }
        </div>
        }
        if p.controls { { transport(lang, p, ms.fault) } }
    </> }
}

/// The time controls; the playhead also reads as the time since the fault, if there is one.
fn transport(lang: Lang, p: &ResultsProps, fault: Option<Millis>) -> Html {
    let act = |a: TransportAction| p.onaction.reform(move |_: MouseEvent| a);
    let read = |e: InputEvent| e.target_unchecked_into::<HtmlInputElement>().value();
    let speed = filtered(&p.onaction, move |e: InputEvent| {
        crate::browser::decimal(&read(e)).map(TransportAction::Speed)
    });
    let scrub = filtered(&p.onaction, move |e: InputEvent| {
        read(e).parse::<i64>().ok().map(TransportAction::Seek)
    });
    let label = tr(lang, if p.playing { "ui.pause" } else { "ui.play" });
    html! {
        <div class="results-transport" data-tour="transport">
            <button onclick={act(TransportAction::Toggle)} aria-label={label} class="results-play">{ if p.playing { "❚❚ " } else { "▶ " } }{label}</button>
            <button onclick={act(TransportAction::Restart)} aria-label={tr(lang, "ui.restart")}>{"↺ "}{tr(lang, "ui.restart")}</button>
            <button onclick={act(TransportAction::Next)} aria-label={tr(lang, "ui.next_event")}>{"→ "}{tr(lang, "ui.next_event")}</button>
            <label class="results-speed">{trf(lang, "ui.speed", &[("x", &format!("{:.0}", pow10(p.speed_exp)))])}
                <input type="range" min="0" max="3" step="0.01" value={p.speed_exp.to_string()} aria-label={tr(lang, "ui.speed_label")} oninput={speed} /></label>
            <label class="results-scrub">
                <span class="results-clock">{"t = "}<strong data-testid="playhead">{format_go_duration_tenths(p.t)}</strong>
                    if let Some(f) = fault { {" · "}<span data-testid="playhead-fault">{since_fault(lang, p.t, f)}</span> }
                </span>
                <input type="range" min="0" max={p.run.cfg.duration.to_string()} step="100" value={p.t.to_string()} aria-label={tr(lang, "ui.playhead")} oninput={scrub} />
            </label>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_playhead_reads_the_milestones_clock() {
        // The default crash at 30s and its first eviction 5m49.6s later.
        assert_eq!(since_fault(Lang::En, 379_600, 30_000), "fault + 5m49.6s");
        assert_eq!(since_fault(Lang::En, 0, 30_000), "fault − 30s");
        assert_eq!(since_fault(Lang::Zh, 379_600, 30_000), "故障后 5m49.6s");
    }
}
