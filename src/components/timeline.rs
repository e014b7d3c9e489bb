//! The timeline, drawn with plotters on a canvas by kubelife-figures' shared drawing code: a lane
//! per node and per pod, coloured by state and patterned too so colour is not the only cue, markers for the events that
//! matter, and the playhead. Hovering a marker shows its cause; clicking seeks. For the keyboard,
//! a button sits over each marker: one of them takes Tab, the arrow keys move between them, the
//! focused marker's cause is shown and announced, and Enter moves the playhead there.
//!
//! The canvas is drawn at the device's pixel ratio (`pixels`). On a narrow canvas (a phone) the
//! lane labels take less room and long pod names are shortened; each lane's full name is its
//! label's title, and what a screen reader reads.

use crate::components::pixels::{fit, use_redraw};
use crate::i18n::{cause, tr, trf, Lang};
use crate::replay::{Lane, LaneKind, Mark};
use kubelife_engine::time::format_go_duration_tenths;
use kubelife_engine::Millis;
use kubelife_figures::{draw_timeline, TimelineFigure};
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use std::rc::Rc;
use web_sys::{HtmlCanvasElement, HtmlElement};
use yew::prelude::*;

pub use kubelife_figures::timeline::{left, tick_step, x_of, LANE, LEFT, TOP};

/// Properties of [`Timeline`].
#[derive(Properties, PartialEq, Clone)]
pub struct TimelineProps {
    /// Lanes to draw.
    pub lanes: Rc<Vec<Lane>>,
    /// Run length, ms.
    pub duration: Millis,
    /// The playhead, ms.
    pub now: Millis,
    /// Called with a time to seek to.
    pub onseek: Callback<Millis>,
    /// The SLO targets' lines: each target's text (`firstReplacementReady ≤ 1m0s @ p95`) and
    /// where it falls (the fault plus the target's duration), ms.
    #[prop_or_default]
    pub slo: Rc<Vec<(String, Millis)>>,
}

/// Draws the lanes and the playhead with the figures' shared drawing code (the one `kubelife
/// render` uses for SVG and PNG) on a canvas `width` px wide (CSS), at the device's pixel ratio;
/// the legend is the HTML one under the canvas.
fn draw(canvas: HtmlCanvasElement, p: &TimelineProps, width: u32) -> Option<()> {
    let height = plot_height(&p.lanes);
    fit(&canvas, width, height)?;
    // The backing store is `width` × `height` times the ratio, and the context is scaled: the
    // figure is drawn in CSS pixels, in the area's top left `width` × `height`.
    let backend = CanvasBackend::with_canvas_object(canvas)?;
    let root = backend.into_drawing_area().shrink((0, 0), (width, height));
    let figure = TimelineFigure {
        lanes: &p.lanes,
        duration: p.duration,
        now: Some(p.now),
        legend: None,
    };
    draw_timeline(&root, &figure).ok()?;
    root.present().ok()
}

/// The tooltip of a marker: what happened to which lane, when, and why.
fn tip_text(lang: Lang, lane: &Lane, m: &Mark) -> String {
    trf(
        lang,
        "ui.timeline.tip",
        &[
            ("name", &lane.name),
            ("kind", &m.kind),
            ("at", &format_go_duration_tenths(m.at)),
            ("cause", &cause(lang, &m.cause)),
        ],
    )
}

/// The marker under a pointer position, if any: (time, text).
pub fn hit(lang: Lang, lanes: &[Lane], duration: Millis, width: i32, x: i32, y: i32) -> Option<(Millis, String)> {
    if y < TOP {
        return None;
    }
    let lane = lanes.get(((y - TOP) / LANE) as usize)?;
    lane.marks
        .iter()
        .map(|m| ((x_of(m.at, duration, width) - x).abs(), m))
        .filter(|(d, _)| *d <= 6)
        .min_by_key(|(d, _)| *d)
        .map(|(_, m)| (m.at, tip_text(lang, lane, m)))
}

/// The time under a pointer at `x` on a canvas `width` px wide whose labels take `left` px,
/// within the run (the inverse of [`x_of`]).
pub fn time_at(x: i32, duration: Millis, width: i32, left: i32) -> Millis {
    let t = ((x - left).max(0) as f64 / (width - left - 8).max(1) as f64 * duration as f64) as Millis;
    t.clamp(0, duration)
}

/// Every marker as (lane, index in the lane), in the order the keyboard visits them: by time,
/// then from the top lane down.
pub fn marker_order(lanes: &[Lane]) -> Vec<(usize, usize)> {
    // Each lane's marks are in time order: merge them, taking the earliest next mark (the upper
    // lane on a tie) each time.
    let mut next = vec![0usize; lanes.len()];
    let mut out = Vec::new();
    while let Some(l) = (0..lanes.len())
        .filter(|&l| next[l] < lanes[l].marks.len())
        .min_by_key(|&l| (lanes[l].marks[next[l]].at, l))
    {
        out.push((l, next[l]));
        next[l] += 1;
    }
    out
}

/// The marker a key moves to from marker `from` (a position in `order`): Left and Right step
/// through time, Up and Down go to the nearest marker in time on the closest lane above or below
/// that has one, Home and End to the first and last.
pub fn step(lanes: &[Lane], order: &[(usize, usize)], from: usize, key: &str) -> Option<usize> {
    let last = order.len().checked_sub(1)?;
    let at = |k: usize| lanes[order[k].0].marks[order[k].1].at;
    let lane = order.get(from)?.0;
    let nearest_on = |pick: &dyn Fn(usize) -> bool| {
        let target = (0..order.len()).map(|k| order[k].0).filter(|&l| pick(l));
        let l = if key == "ArrowDown" { target.min() } else { target.max() }?;
        (0..order.len())
            .filter(|&k| order[k].0 == l)
            .min_by_key(|&k| (at(k) - at(from)).abs())
    };
    match key {
        "ArrowRight" => Some((from + 1).min(last)),
        "ArrowLeft" => Some(from.saturating_sub(1)),
        "Home" => Some(0),
        "End" => Some(last),
        "ArrowDown" => nearest_on(&|l| l > lane),
        "ArrowUp" => nearest_on(&|l| l < lane),
        _ => None,
    }
}

/// Where a marker sits over the canvas, in CSS: the canvas is drawn at its own CSS width, so its
/// plot area spans from `left` px (the labels') to 8 px before the right edge.
fn marker_style(at: Millis, duration: Millis, lane: usize, left: i32) -> String {
    let frac = at as f64 / duration.max(1) as f64;
    format!(
        "left: calc({left}px + (100% - {}px) * {frac:.5}); top: {}px; height: {LANE}px",
        left + 8,
        TOP + lane as i32 * LANE
    )
}

/// The SLO targets' lines over the canvas (the fault plus each target's duration), each labelled
/// with its target; a line past the run's end is not drawn.
fn slo_lines(slo: &[(String, Millis)], duration: Millis, lanes: usize, left: i32) -> Html {
    let height = LANE * lanes as i32;
    slo.iter().filter(|(_, at)| *at <= duration).map(|(text, at)| {
        let frac = *at as f64 / duration.max(1) as f64;
        let style = format!("left: calc({left}px + (100% - {}px) * {frac:.5}); top: {TOP}px; height: {height}px", left + 8);
        html! {
            // A line in the right half has its label on its left, so it stays on the canvas.
            <div class={classes!("timeline-slo", (frac > 0.5).then_some("timeline-slo-end"))} {style} title={text.clone()} data-testid="timeline-slo">
                <span class="timeline-slo-label">{text.clone()}</span>
            </div>
        }
    }).collect()
}

/// Where the tooltip of a focused marker goes: beside it, on the side with more room.
fn focused_tip_style(at: Millis, duration: Millis, lane: usize, left: i32) -> String {
    let frac = at as f64 / duration.max(1) as f64;
    let top = TOP + (lane as i32 + 1) * LANE;
    if frac <= 0.5 {
        format!(
            "left: calc({left}px + (100% - {}px) * {frac:.5} + 8px); top: {top}px",
            left + 8
        )
    } else {
        format!(
            "right: calc((100% - {}px) * {:.5} + 16px); top: {top}px",
            left + 8,
            1.0 - frac
        )
    }
}

/// The lanes' labels over the canvas's label column (`left` px wide): each lane's full name as
/// its title, for the pointer, and as text for screen readers; the canvas draws what fits.
fn lane_labels(lanes: &[Lane], left: i32) -> Html {
    html! {
        <ul class="timeline-lanes" style={format!("top: {TOP}px; width: {left}px")} data-testid="timeline-lanes">
        { for lanes.iter().map(|lane| html! {
            <li class="timeline-lane" title={lane.name.clone()} style={format!("height: {LANE}px")}>
                <span class="visually-hidden">{lane.name.clone()}</span>
            </li>
        }) }
        </ul>
    }
}

/// The marker button an event happened on: its position in the keyboard order.
fn marker_of(e: &Event) -> Option<usize> {
    let el: web_sys::Element = wasm_bindgen::JsCast::dyn_into(e.target()?).ok()?;
    el.get_attribute("data-k")?.parse().ok()
}

/// Lanes, equal to others only when they are the same ones (a run's, or an opened row's, laid out
/// once): the keyboard's order of their markers is worked out once for them, not at each tick.
#[derive(Clone)]
struct SameLanes(Rc<Vec<Lane>>);

impl PartialEq for SameLanes {
    fn eq(&self, other: &SameLanes) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// The canvas's height for `lanes`, px: set in the markup too, so the first view (which has no
/// canvas drawn) takes the same room as the page.
fn plot_height(lanes: &[Lane]) -> u32 {
    (TOP + LANE * lanes.len() as i32 + 4) as u32
}

/// The timeline component.
#[function_component(Timeline)]
pub fn timeline(p: &TimelineProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let canvas = use_node_ref();
    let keys = use_node_ref();
    // The tooltip (its CSS position and text), and the marker that takes Tab.
    let tip = use_state(|| None::<(String, String)>);
    let active = use_state(|| 0usize);
    // The canvas's CSS width, px, once drawn (0 before: the labels are taken as wide).
    let width = use_state(|| 0i32);
    let redraw = use_redraw();
    {
        let (canvas, props, width) = (canvas.clone(), p.clone(), width.clone());
        use_effect_with((Rc::as_ptr(&p.lanes) as usize, p.now, p.duration, redraw), move |_| {
            if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                let w = c.client_width().max(320);
                if *width != w {
                    width.set(w);
                }
                draw(c, &props, w as u32);
            }
        });
    }
    let left = if *width == 0 { LEFT } else { left(*width) };
    let order = use_memo(SameLanes(p.lanes.clone()), |lanes| marker_order(&lanes.0));
    let pointer = pointer_handlers(lang, p, &canvas, &tip);
    let onkeydown = {
        let (lanes, order, keys) = (p.lanes.clone(), order.clone(), keys.clone());
        let active = *active;
        Callback::from(move |e: KeyboardEvent| {
            let Some(to) = step(&lanes, &order, active, &e.key()) else {
                return;
            };
            e.prevent_default();
            let button = keys
                .cast::<web_sys::Element>()
                .and_then(|k| k.children().item(to as u32))
                .and_then(|b| wasm_bindgen::JsCast::dyn_into::<HtmlElement>(b).ok());
            if let Some(b) = button {
                let _ = b.focus();
            }
        })
    };
    // One handler each for the markers' focus and click (Enter or Space), reading the marker's
    // position from the button.
    let onfocusin = {
        let (tip, active, lanes, order, duration) =
            (tip.clone(), active.clone(), p.lanes.clone(), order.clone(), p.duration);
        Callback::from(move |e: FocusEvent| {
            let Some(k) = marker_of(&e) else { return };
            let (l, i) = order[k];
            active.set(k);
            tip.set(Some((
                focused_tip_style(lanes[l].marks[i].at, duration, l, left),
                tip_text(lang, &lanes[l], &lanes[l].marks[i]),
            )));
        })
    };
    let onclick = {
        let (lanes, order, seek) = (p.lanes.clone(), order.clone(), p.onseek.clone());
        Callback::from(move |e: MouseEvent| {
            if let Some(k) = marker_of(&e) {
                let (l, i) = order[k];
                seek.emit(lanes[l].marks[i].at);
            }
        })
    };
    let onfocusout = {
        let tip = tip.clone();
        Callback::from(move |_: FocusEvent| tip.set(None))
    };
    let focused_text = tip.as_ref().map(|(_, text)| text.clone()).unwrap_or_default();
    html! {
        <div class="timeline">
            <div class="timeline-plot">
                <canvas class="timeline-canvas" ref={canvas} role="img" aria-label={tr(lang, "ui.timeline.label")}
                    style={format!("height: {}px", plot_height(&p.lanes))}
                    onmousemove={pointer.0} onclick={pointer.1} onmouseleave={pointer.2}></canvas>
                { lane_labels(&p.lanes, left) }
                { slo_lines(&p.slo, p.duration, p.lanes.len(), left) }
                <div class="timeline-marks" ref={keys} role="group" aria-label={tr(lang, "ui.timeline.marks_label")} {onkeydown} {onfocusin} {onfocusout} {onclick}>
                { for order.iter().enumerate().map(|(k, &(l, i))| {
                    let (lane, m) = (&p.lanes[l], &p.lanes[l].marks[i]);
                    let name = trf(lang, "ui.timeline.mark", &[("name", &lane.name), ("kind", &m.kind), ("at", &format_go_duration_tenths(m.at))]);
                    html! {
                        <button class="timeline-mark" style={marker_style(m.at, p.duration, l, left)} tabindex={if k == *active { "0" } else { "-1" }}
                            aria-label={name} data-k={k.to_string()}></button>
                    }
                }) }
                </div>
                if let Some((style, text)) = &*tip {
                    <div class="timeline-tip" role="tooltip" style={style.clone()}>{text.clone()}</div>
                }
            </div>
            <p class="visually-hidden" aria-live="polite" data-testid="timeline-announce">{focused_text}</p>
            <ul class="timeline-legend">
                <li><span class="timeline-swatch timeline-ok"></span>{"Ready / Running"}</li>
                <li><span class="timeline-swatch timeline-bad"></span>{"Unknown / NotReady"}</li>
                <li><span class="timeline-swatch timeline-term"></span>{tr(lang, "ui.timeline.terminating")}</li>
                <li><span class="timeline-swatch timeline-pend"></span>{"Pending"}</li>
                if p.lanes.iter().any(|l| l.kind == LaneKind::Service) {
                    <li><span class="timeline-swatch timeline-partial"></span>{tr(lang, "ui.timeline.partial")}</li>
                }
                if p.lanes.iter().any(|l| l.kind == LaneKind::Volume) {
                    <li><span class="timeline-swatch timeline-moved"></span>{tr(lang, "ui.timeline.moved")}</li>
                }
                // Each marker with its meaning stays on one line; the list wraps between them.
                { for tr(lang, "ui.timeline.marks").split(" · ").map(|m| html! { <li>{m.to_string()}</li> }) }
            </ul>
        </div>
    }
}

/// The canvas's pointer handlers: hover shows a marker's cause, a click seeks (to the marker,
/// or to the time under the pointer), leaving hides the tooltip.
fn pointer_handlers(
    lang: Lang,
    p: &TimelineProps,
    canvas: &NodeRef,
    tip: &UseStateHandle<Option<(String, String)>>,
) -> (Callback<MouseEvent>, Callback<MouseEvent>, Callback<MouseEvent>) {
    let width = {
        let canvas = canvas.clone();
        move || canvas.cast::<HtmlCanvasElement>().map_or(800, |c| c.client_width())
    };
    let onmousemove = {
        let (tip, lanes, duration, width) = (tip.clone(), p.lanes.clone(), p.duration, width.clone());
        Callback::from(move |e: MouseEvent| {
            let (x, y) = (e.offset_x(), e.offset_y());
            tip.set(
                hit(lang, &lanes, duration, width(), x, y)
                    .map(|(_, text)| (format!("left: {}px; top: {}px", x + 12, y + 12), text)),
            );
        })
    };
    let onclick = {
        let (lanes, duration, seek) = (p.lanes.clone(), p.duration, p.onseek.clone());
        Callback::from(move |e: MouseEvent| {
            let w = width();
            let t = match hit(lang, &lanes, duration, w, e.offset_x(), e.offset_y()) {
                Some((t, _)) => t,
                None => time_at(e.offset_x(), duration, w, left(w)),
            };
            seek.emit(t);
        })
    };
    let onmouseleave = {
        let tip = tip.clone();
        Callback::from(move |_: MouseEvent| tip.set(None))
    };
    (onmousemove, onclick, onmouseleave)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;

    fn default_lanes() -> Vec<Lane> {
        let (cfg, _) = Settings::default().resolve();
        let o = kubelife_engine::run(&cfg, &kubelife_engine::RunOptions::default());
        crate::replay::lanes(&o, cfg.duration, crate::model::MAX_LANES)
    }

    #[test]
    fn the_keyboard_visits_every_marker_in_time_order() {
        let lanes = default_lanes();
        let order = marker_order(&lanes);
        let total: usize = lanes.iter().map(|l| l.marks.len()).sum();
        assert!(total > 5, "the default crash has markers");
        // Right arrow from the first marker reaches every marker once, in time order.
        let mut seen = vec![0];
        while let Some(next) = step(&lanes, &order, *seen.last().unwrap(), "ArrowRight").filter(|n| !seen.contains(n)) {
            seen.push(next);
        }
        assert_eq!(seen.len(), total);
        let times: Vec<Millis> = order.iter().map(|&(l, i)| lanes[l].marks[i].at).collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(step(&lanes, &order, 0, "End"), Some(total - 1));
        assert_eq!(step(&lanes, &order, total - 1, "Home"), Some(0));
        assert_eq!(step(&lanes, &order, 0, "ArrowLeft"), Some(0));
        assert_eq!(step(&lanes, &order, 0, "a"), None);
    }

    #[test]
    fn ticks_leave_room_for_their_labels() {
        // 15 minutes on a wide canvas: a tick a minute, as before; on a phone, every 3 minutes
        // beside the narrow labels (five labelled ticks).
        assert_eq!(tick_step(15 * 60_000, 1200), 60_000);
        assert_eq!(tick_step(15 * 60_000, 340), 180_000);
        assert_eq!(tick_step(60_000, 1200), 10_000);
        assert_eq!(tick_step(6 * 3_600_000, 400), 3_600_000);
    }

    #[test]
    fn up_and_down_change_lanes() {
        let lanes = default_lanes();
        let order = marker_order(&lanes);
        let first_lane = order[0].0;
        let down = step(&lanes, &order, 0, "ArrowDown").expect("a lane below has markers");
        assert!(order[down].0 > first_lane);
        let up = step(&lanes, &order, down, "ArrowUp").expect("and back up");
        assert!(order[up].0 < order[down].0);
    }
}
