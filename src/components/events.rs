//! The event log, in the style of `kubectl get events`: each row shows its cause, and clicking a
//! row seeks the playhead to it.

use crate::i18n::{cause, tr, Lang};
use kubelife_engine::time::format_go_duration_tenths;
use kubelife_engine::{EventKind, Millis, Outcome, TimelineEvent};
use std::rc::Rc;
use yew::prelude::*;

/// Properties of [`EventLog`].
#[derive(Properties, PartialEq, Clone)]
pub struct EventLogProps {
    /// The run.
    pub outcome: Rc<Outcome>,
    /// The playhead, ms.
    pub now: Millis,
    /// Called with the time of a clicked row.
    pub onseek: Callback<Millis>,
}

fn warning(kind: EventKind) -> bool {
    matches!(
        kind,
        EventKind::FaultStarted
            | EventKind::NodeUnknown
            | EventKind::NodeNotReady
            | EventKind::PodNotReady
            | EventKind::PodDeletionRequested
            | EventKind::TaintAdded
            | EventKind::PodUnschedulable
    )
}

/// The log.
#[function_component(EventLog)]
pub fn event_log(p: &EventLogProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let rows: Vec<&TimelineEvent> = p
        .outcome
        .events
        .iter()
        .filter(|e| !e.kind.is_heartbeat() && !e.cause.is_initial())
        .take(400)
        .collect();
    html! {
        <div class="events" role="region" aria-label={tr(lang, "ui.events.label")} tabindex="0">
            <table class="events-table">
                <thead><tr>
                    <th>{tr(lang, "ui.events.at")}</th><th>{tr(lang, "ui.events.type")}</th><th>{tr(lang, "ui.events.reason")}</th>
                    <th>{tr(lang, "ui.events.object")}</th><th>{tr(lang, "ui.events.message")}</th>
                </tr></thead>
                <tbody>
                { for rows.iter().map(|e| {
                    let at = e.at_ms;
                    let seek = p.onseek.clone();
                    let object = match (&e.pod, &e.node, &e.zone) {
                        (Some(pod), _, _) => format!("pod/{pod}"),
                        (None, Some(n), _) => format!("node/{n}"),
                        (None, None, Some(z)) => format!("zone/{z}"),
                        _ => tr(lang, "ui.events.cluster").to_string(),
                    };
                    let onclick = Callback::from(move |_| seek.emit(at));
                    let onkeydown = { let seek = p.onseek.clone(); Callback::from(move |k: KeyboardEvent| if k.key() == "Enter" { seek.emit(at) }) };
                    html! {
                        <tr class={if at <= p.now { "events-row events-past" } else { "events-row" }} onclick={onclick} onkeydown={onkeydown} tabindex="0">
                            <td>{format_go_duration_tenths(at)}</td>
                            <td>{ if warning(e.kind) { "Warning" } else { "Normal" } }</td>
                            <td>{e.kind.to_string()}</td>
                            <td>{object}{ e.taint.as_ref().map(|t| format!(" {t}")).unwrap_or_default() }</td>
                            <td class="events-cause">{cause(lang, &e.cause)}</td>
                        </tr>
                    }
                }) }
                </tbody>
            </table>
        </div>
    }
}
