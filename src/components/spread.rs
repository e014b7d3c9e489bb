//! The spread of a many-node outage: one node's chain ("where does the time go?") is not the
//! whole story when hundreds of nodes fail, because the node lifecycle controller taints them one
//! at a time (`--node-eviction-rate` per zone, or the secondary rate). This panel shows the first
//! and last node tainted, the first and last pod deleted from a faulted node and by whom, how many
//! each deleter deleted, and when each workload had all its Ready pods back, measured from the
//! fault; a click on a time moves the playhead there.

use crate::i18n::{cause, count, tr, trf, Lang};
use kubelife_engine::time::format_go_duration_tenths;
use kubelife_engine::Millis;
use kubelife_figures::spread::{Named, Spread};
use std::rc::Rc;
use yew::prelude::*;

/// Properties of [`SpreadPanel`].
#[derive(Properties, PartialEq, Clone)]
pub struct SpreadPanelProps {
    /// The outage's spread.
    pub spread: Rc<Spread>,
    /// Called with a time to seek to.
    pub onseek: Callback<Millis>,
}

/// The panel: a row of milestones, then one line per workload.
#[function_component(SpreadPanel)]
pub fn spread_panel(p: &SpreadPanelProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let s = &p.spread;
    let from = s.fault.unwrap_or(0);
    let card = |id: &'static str, key: &'static str, named: &Option<Named>| {
        let (text, who, at) = match named {
            Some(n) => {
                let who = match &n.by {
                    Some(by) => trf(lang, "ui.spread.who_by", &[("pod", &n.name), ("by", &cause(lang, by))]),
                    None => n.name.clone(),
                };
                (format_go_duration_tenths(n.at - from), who, Some(n.at))
            }
            None => (tr(lang, "ui.never").to_string(), String::new(), None),
        };
        let onclick = p.onseek.reform(move |_: MouseEvent| at.unwrap_or(0));
        html! {
            <button class="spread-card" disabled={at.is_none()} {onclick}>
                <span class="spread-name">{tr(lang, key)}</span>
                <strong class="spread-value" data-testid={id}>{text}</strong>
                <span class="spread-who">{who}</span>
            </button>
        }
    };
    html! {
        <section class="spread" data-testid="spread" aria-label={tr(lang, "ui.spread.title")}>
            <h3 class="spread-title">{trf(lang, "ui.spread.title_counts", &[("nodes", &count(lang, "ui.n.nodes", s.nodes_tainted as u64)), ("pods", &count(lang, "ui.n.pods", s.pods_deleted as u64))])}</h3>
            <div class="spread-cards">
                { card("spread-first-tainted", "ui.spread.first_tainted", &s.first_tainted) }
                { card("spread-last-tainted", "ui.spread.last_tainted", &s.last_tainted) }
                { card("spread-first-evicted", "ui.spread.first_evicted", &s.first_deleted) }
                { card("spread-last-evicted", "ui.spread.last_evicted", &s.last_deleted) }
            </div>
            <ul class="spread-workloads" data-testid="spread-deleted-by">
            { for s.deleted_by.iter().map(|(by, n)| html! {
                <li>{trf(lang, "ui.spread.deleted_by", &[("pods", &count(lang, "ui.n.pods", *n as u64)), ("by", &cause(lang, by))])}</li>
            }) }
            </ul>
            <ul class="spread-workloads">
            { for s.workloads.iter().map(|w| {
                let text = match (w.short_at, w.back_at) {
                    (None, _) => tr(lang, "ui.spread.never_short").to_string(),
                    (Some(_), Some(back)) => trf(lang, "ui.spread.back", &[("at", &format_go_duration_tenths(back - from))]),
                    (Some(_), None) => match &w.blocked {
                        Some(node) => trf(lang, "ui.spread.still_short_blocked", &[("node", node)]),
                        None => tr(lang, "ui.spread.still_short").to_string(),
                    },
                };
                html! {
                    <li><strong>{w.workload.clone()}</strong>{" "}{trf(lang, "ui.spread.desired", &[("desired", &w.desired.to_string())])}{": "}
                        <span data-testid={format!("spread-back-{}", w.workload)}>{text}</span></li>
                }
            }) }
            </ul>
        </section>
    }
}
