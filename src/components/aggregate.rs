//! The timeline of a large cluster, aggregated: per zone, how many nodes are in each state over
//! time, with the zone's state in a band under it; per workload, its Ready, NotReady,
//! Terminating and Pending pods over time. Stacked areas drawn by kubelife-figures' shared
//! `draw_aggregate`. Opening a zone or a workload (a click on its row, or its button) shows its
//! nodes' or pods' own lanes below, on the ordinary timeline.

use crate::components::pixels::{fit, use_redraw};
use crate::components::timeline::Timeline;
use crate::i18n::{tr, trf, Lang};
use crate::model::{Run, MAX_LANES};
use crate::replay::Lane;
use kubelife_engine::Millis;
use kubelife_figures::aggregate::{NodeState, PodState};
use kubelife_figures::areas::{draw_aggregate, AggregateFigure, AggregateTexts, RowKind};
use kubelife_figures::lanes::lanes_of;
use kubelife_figures::timeline::LEFT;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// Properties of [`AggregateTimeline`].
#[derive(Properties, PartialEq, Clone)]
pub struct AggregateTimelineProps {
    /// The run: its counts over time, and its events for the lanes of an opened zone or workload.
    pub run: Rc<Run>,
    /// The playhead, ms.
    pub now: Millis,
    /// Called with a time to seek to.
    pub onseek: Callback<Millis>,
}

/// The figure's texts in `lang`.
pub fn texts(lang: Lang) -> AggregateTexts {
    let node = |s: NodeState| crate::components::grid::state_name(lang, s);
    let pod = |s: PodState| {
        let key = match s {
            PodState::Ready => "ui.aggregate.pod.ready",
            PodState::NotReady => "ui.aggregate.pod.notready",
            PodState::Terminating => "ui.aggregate.pod.terminating",
            PodState::Pending => "ui.aggregate.pod.pending",
        };
        tr(lang, key).to_string()
    };
    AggregateTexts {
        zones: tr(lang, "ui.aggregate.zones").to_string(),
        workloads: tr(lang, "ui.aggregate.workloads").to_string(),
        no_zone: tr(lang, "ui.cluster.no_zone").to_string(),
        node_states: NodeState::ALL.map(node),
        pod_states: PodState::ALL.map(pod),
        zone_nodes: tr(lang, "ui.aggregate.zone_nodes").to_string(),
        workload_ready: tr(lang, "ui.aggregate.workload_ready").to_string(),
        zone_state: tr(lang, "ui.aggregate.zone_state").to_string(),
    }
}

/// The aggregated timeline, and the lanes of the zone or workload opened.
#[function_component(AggregateTimeline)]
pub fn aggregate_timeline(p: &AggregateTimelineProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let canvas = use_node_ref();
    let open = use_state(|| None::<(RowKind, usize)>);
    // An opened row's lanes, laid out once per run and row rather than at every playback tick.
    let opened_lanes = use_memo((p.run.clone(), *open), |(run, open)| {
        open.and_then(|(kind, index)| Opened::of(run, kind, index))
    });
    let texts = Rc::new(texts(lang));
    let duration = p.run.cfg.duration;
    let redraw = use_redraw();
    {
        let (canvas, props, texts) = (canvas.clone(), p.clone(), texts.clone());
        use_effect_with((p.run.clone(), p.now, lang, redraw), move |_| {
            super::pixels::on_next_frame(move || {
                if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                    draw(c, &props, &texts);
                }
            });
        });
    }
    let figure = AggregateFigure {
        aggregate: &p.run.aggregate,
        duration,
        now: Some(p.now),
        texts: &texts,
        legend: true,
    };
    let rows = figure.rows();
    let onclick = {
        let (open, rows, onseek, canvas) = (open.clone(), rows.clone(), p.onseek.clone(), canvas.clone());
        Callback::from(move |e: MouseEvent| {
            let (x, y) = (e.offset_x(), e.offset_y());
            if let Some(r) = rows.iter().find(|r| (r.y0..r.y1).contains(&y)) {
                open.set(Some((r.kind, r.index)));
            } else if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                let t = crate::components::timeline::time_at(x, duration, c.client_width(), LEFT);
                onseek.emit(t);
            }
        })
    };
    let buttons = rows.iter().map(|r| {
        let (open, kind, index) = (open.clone(), r.kind, r.index);
        let pressed = *open == Some((kind, index));
        html! {
            <button class="aggregate-open" aria-pressed={pressed.to_string()} data-testid={format!("aggregate-open-{}", r.name)}
                onclick={Callback::from(move |_| open.set((!pressed).then_some((kind, index))))}>{r.name.clone()}</button>
        }
    });
    html! {
        <div class="aggregate" data-testid="aggregate-timeline">
            <canvas class="aggregate-canvas" ref={canvas} role="img" aria-label={tr(lang, "ui.aggregate.label")} {onclick}></canvas>
            <div class="aggregate-rows" role="group" aria-label={tr(lang, "ui.aggregate.open_label")}>{ for buttons }</div>
            if let Some(lanes) = &*opened_lanes { { opened(lang, p, lanes, &open) } }
        </div>
    }
}

/// Draws the figure at the canvas's CSS width, at the device's pixel ratio.
fn draw(c: HtmlCanvasElement, p: &AggregateTimelineProps, texts: &AggregateTexts) -> Option<()> {
    let w = c.client_width().max(320) as u32;
    let figure = AggregateFigure {
        aggregate: &p.run.aggregate,
        duration: p.run.cfg.duration,
        now: Some(p.now),
        texts,
        legend: true,
    };
    let h = figure.height(w);
    fit(&c, w, h)?;
    let root = CanvasBackend::with_canvas_object(c)?
        .into_drawing_area()
        .shrink((0, 0), (w, h));
    draw_aggregate(&root, &figure).ok()?;
    root.present().ok()
}

/// The lanes of an opened zone (its nodes) or workload (its pods), the first [`MAX_LANES`].
struct Opened {
    /// Whether a zone or a workload.
    kind: RowKind,
    /// The zone's or workload's name.
    name: String,
    /// How many nodes or pods it has.
    total: usize,
    /// Their lanes, the first [`MAX_LANES`].
    lanes: Rc<Vec<Lane>>,
}

impl Opened {
    /// The lanes of row `index` of `kind` in `run`, if it has that row.
    fn of(run: &Run, kind: RowKind, index: usize) -> Option<Opened> {
        let a = &run.aggregate;
        let (name, names) = match kind {
            RowKind::Zone => (a.zones.get(index).map(|z| z.name.clone()), a.zone_nodes(index)),
            RowKind::Workload => (a.workloads.get(index).map(|w| w.name.clone()), a.workload_pods(index)),
        };
        let name = name?.to_string();
        let total = names.len();
        let shown: Vec<&str> = names.into_iter().take(MAX_LANES).collect();
        let (outcome, duration) = (&run.outcome, run.cfg.duration);
        let lanes = match kind {
            RowKind::Zone => lanes_of(outcome, duration, &shown, &[]),
            RowKind::Workload => lanes_of(outcome, duration, &[], &shown),
        };
        Some(Opened {
            kind,
            name,
            total,
            lanes: Rc::new(lanes),
        })
    }
}

/// The opened zone's or workload's lanes on the ordinary timeline, under its name.
fn opened(lang: Lang, p: &AggregateTimelineProps, o: &Opened, open: &UseStateHandle<Option<(RowKind, usize)>>) -> Html {
    let key = if o.kind == RowKind::Zone {
        "ui.aggregate.opened_zone"
    } else {
        "ui.aggregate.opened_workload"
    };
    let close = {
        let open = open.clone();
        Callback::from(move |_| open.set(None))
    };
    html! {
        <section class="aggregate-opened" data-testid="aggregate-opened">
            <h3 class="aggregate-opened-title">
                {trf(lang, key, &[("name", &o.name), ("shown", &o.lanes.len()), ("total", &o.total)])}
                <button class="aggregate-close" onclick={close}>{tr(lang, "ui.aggregate.close")}</button>
            </h3>
            <Timeline lanes={o.lanes.clone()} duration={p.run.cfg.duration} now={p.now} onseek={p.onseek.clone()} />
        </section>
    }
}
