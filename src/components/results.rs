//! The results at a glance: the failed node's milestones, each measured from the fault
//! (Unknown, the NoExecute taint, the first eviction, the first replacement Ready; with a Service,
//! traffic stopped and the Service whole again; with a volume, the volume free; with a cloud or a
//! remediator, the Node deleted and the remediation started), and the time
//! controls (Play/Pause, restart, next event, a logarithmic speed, the playhead). The playhead
//! reads both clocks: the run's time and the time since the fault the milestones count from.

use crate::components::filtered;
use crate::explain::{milestone_text, range_text, restored_text, Milestones, Outage};
use crate::i18n::{tr, trf, Lang};
use crate::model::Run;
use kubelife_engine::time::format_go_duration_tenths;
use kubelife_engine::Millis;
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

/// The Service and volume cards: (test id, label key, text), each only where it applies (a
/// Service in the run; a workload with a volume).
fn service_cards(lang: Lang, run: &Run) -> Vec<(&'static str, &'static str, String)> {
    let ms = &run.milestones;
    let mut out = Vec::new();
    if !run.outcome.summary.services.is_empty() {
        out.push((
            "milestone-traffic-stopped",
            "ui.milestone.traffic_stopped",
            milestone_text(lang, ms.traffic_stopped),
        ));
        let restored = restored_text(lang, ms.service_restored);
        out.push(("milestone-service-restored", "ui.milestone.service_restored", restored));
    }
    // With a cloud controller or a remediator: the failed node's deletion and its remediation.
    if run.cfg.cloud.is_some() || !run.cfg.remediation.is_empty() {
        let node = run.outcome.summary.nodes.first();
        let since = |at: Option<Millis>| {
            let fault = node.and_then(|n| n.fault_at_ms).unwrap_or(0);
            milestone_text(lang, at.filter(|&t| t >= fault).map(|t| t - fault))
        };
        out.push((
            "milestone-node-deleted",
            "ui.milestone.node_deleted",
            since(node.and_then(|n| n.deleted_at_ms)),
        ));
        out.push((
            "milestone-remediation",
            "ui.milestone.remediation",
            since(node.and_then(|n| n.remediation_at_ms)),
        ));
    }
    if run.volumes {
        out.push((
            "milestone-volume-free",
            "ui.milestone.volume_free",
            milestone_text(lang, ms.volume_free),
        ));
    }
    out
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

/// The headline cards (test id, label key, text): a many-node outage's spread, else the failed
/// node's own milestones. The phone strip shows the same ones.
pub fn headline(lang: Lang, run: &Run) -> Vec<(&'static str, &'static str, String)> {
    match &run.outage {
        Some(o) => outage_cards(lang, o),
        None => node_cards(lang, &run.milestones),
    }
}

/// The headline cards of one failed node: its milestones after its fault.
fn node_cards(lang: Lang, ms: &Milestones) -> Vec<(&'static str, &'static str, String)> {
    [
        ("milestone-unknown", "ui.milestone.unknown", ms.unknown),
        ("milestone-taint", "ui.milestone.taint", ms.taint),
        ("milestone-eviction", "ui.milestone.eviction", ms.eviction),
        ("milestone-replacement", "ui.milestone.replacement", ms.replacement),
    ]
    .into_iter()
    .map(|(id, key, at)| (id, key, milestone_text(lang, at)))
    .collect()
}

/// The headline cards of a many-node outage: the first and last of each milestone, and when
/// every workload was whole again.
fn outage_cards(lang: Lang, o: &Outage) -> Vec<(&'static str, &'static str, String)> {
    let replaced = restored_text(lang, o.replaced);
    vec![
        ("milestone-unknown", "ui.milestone.unknown", range_text(lang, o.unknown)),
        ("milestone-taint", "ui.milestone.taint", range_text(lang, o.taint)),
        (
            "milestone-eviction",
            "ui.milestone.evictions",
            range_text(lang, o.eviction),
        ),
        ("milestone-replacement", "ui.milestone.all_replaced", replaced),
    ]
}

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
    cards.extend(service_cards(lang, &p.run));
    html! { <>
        if p.cards {
        <div class="results-milestones" role="group" aria-label={tr(lang, "ui.milestones")} data-tour="milestones">
        { for cards.into_iter().map(|(id, key, text)| html! {
            <div class="results-card" data-tour={id}>
                <span class="results-name">{tr(lang, key)}</span>
                <strong class="results-value" data-testid={id}>{text}</strong>
                <span class="results-since">{since.clone()}</span>
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
            <label class="results-speed">{trf(lang, "ui.speed", &[("x", &format!("{:.0}", 10f64.powf(p.speed_exp)))])}
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
