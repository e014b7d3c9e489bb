//! The event log, in the style of `kubectl get events`: each row shows its cause, and clicking a
//! row seeks the playhead to it.

use crate::i18n::{cause, tr, trf, Lang};
use crate::model::Run;
use kubelife_engine::time::format_go_duration_tenths;
use kubelife_engine::{EventKind, Millis, TimelineEvent};
use std::rc::Rc;
use yew::prelude::*;

/// Properties of [`EventLog`].
#[derive(Properties, PartialEq, Clone)]
pub struct EventLogProps {
    /// The run, with the events the log lists picked once (`Run::listed`).
    pub run: Rc<Run>,
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

/// Rows the log shows at once; a larger run's log is shown a page at a time.
pub const PAGE: usize = 100;

/// The page of the log's events, given their `times` (ms, in order), to show with the playhead
/// at `now`: the one shown so far, starting at `shown`, while its rows' times still span the
/// playhead (so clicking a row, which moves the playhead to the row's time, keeps the page even
/// when many events share that time); otherwise the page with the first event at or after the
/// playhead, or the last page once the run has ended.
pub fn page_at(times: &[Millis], now: Millis, shown: usize) -> std::ops::Range<usize> {
    let page = |start: usize| start..(start + PAGE).min(times.len());
    let kept = page(shown.min(times.len()));
    if let (Some(&first), Some(&last)) = (times.get(kept.start), times.get(kept.end.wrapping_sub(1))) {
        if first <= now && now <= last {
            return kept;
        }
    }
    let at = times.partition_point(|&t| t < now).min(times.len().saturating_sub(1));
    page(at / PAGE * PAGE)
}

/// The log.
#[function_component(EventLog)]
pub fn event_log(p: &EventLogProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let (index, times) = (&p.run.listed, &p.run.listed_at);
    let shown = use_mut_ref(|| 0usize);
    let page = page_at(times, p.now, *shown.borrow());
    *shown.borrow_mut() = page.start;
    let rows: Vec<&TimelineEvent> = index[page.clone()].iter().map(|&i| &p.run.outcome.events[i]).collect();
    let window = (times.len() > PAGE).then(|| {
        let count = |n: usize| crate::explain::thousands(n as u64);
        trf(
            lang,
            "ui.events.window",
            &[
                ("from", &count(page.start + 1)),
                ("to", &count(page.end)),
                ("total", &count(times.len())),
            ],
        )
    });
    html! {
        <>
        if let Some(window) = window { <p class="events-window" data-testid="events-window">{window}</p> }
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
        </>
    }
}

#[cfg(test)]
mod tests {
    use super::{page_at, PAGE};
    use kubelife_engine::Millis;

    /// With `count` events in pairs two seconds apart (rows 2k and 2k+1 at 2k s), the playhead
    /// at `now` ms, after the page from row `shown` was shown, shows rows `expect`.
    fn check(count: usize, now: Millis, shown: usize, expect: std::ops::Range<usize>) {
        let times: Vec<Millis> = (0..count).map(|i| (i / 2 * 2000) as Millis).collect();
        assert_eq!(
            page_at(&times, now, shown),
            expect,
            "{count} events, playhead at {now} ms, from row {shown}"
        );
    }

    #[test]
    fn the_log_shows_the_page_at_the_playhead() {
        // Row k is at k / 2 * 2 s: row PAGE, the first of the second page, at PAGE s.
        let (n, s) = (10 * PAGE, |row: usize| (row / 2 * 2000) as Millis);
        for (count, now, shown, expect) in [
            (0, 0, 0, 0..0),
            (10, 0, 0, 0..10),
            (10, 99_000, 0, 0..10),
            (PAGE, 0, 0, 0..PAGE),
            (n, 0, 0, 0..PAGE),
            // Row PAGE is the first at PAGE s or later: the second page.
            (n, s(PAGE), 0, PAGE..2 * PAGE),
            (n, s(PAGE) - 1000, 0, PAGE..2 * PAGE),
            (n, s(PAGE) - 2000, 0, 0..PAGE),
            // A click on the last row of the second page keeps it.
            (n, s(2 * PAGE - 1), PAGE, PAGE..2 * PAGE),
            // Playback past a page's last row moves on.
            (n, s(2 * PAGE - 1) + 1000, PAGE, 2 * PAGE..3 * PAGE),
            // Past the end: the last page.
            (n + PAGE / 2, Millis::MAX, 0, n..n + PAGE / 2),
            // A page shown before a shorter run came is not kept.
            (10, 0, PAGE, 0..10),
        ] {
            check(count, now, shown, expect);
        }
    }
}
