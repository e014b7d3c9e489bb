//! The timeline, drawn with plotters on a canvas: a lane per node and per pod, coloured by state
//! (with a pattern for Terminating so colour is not the only cue), markers for the events that
//! matter, and the playhead. Hovering a marker shows its cause; clicking seeks.

use crate::i18n::{cause, tr, trf, Lang};
use crate::replay::{Lane, LaneState};
use kubelife_engine::time::format_go_duration_tenths;
use kubelife_engine::Millis;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// Height of one lane, px.
pub const LANE: i32 = 18;
/// Height of the time axis, px.
pub const TOP: i32 = 22;
/// Width of the lane labels, px.
pub const LEFT: i32 = 170;

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
}

fn colour(s: LaneState) -> RGBColor {
    match s {
        LaneState::Ok => RGBColor(46, 139, 87),
        LaneState::Bad => RGBColor(214, 120, 0),
        LaneState::Terminating => RGBColor(140, 140, 140),
        LaneState::Pending => RGBColor(120, 160, 220),
    }
}

fn x_of(t: Millis, duration: Millis, width: i32) -> i32 {
    LEFT + ((width - LEFT - 8) as f64 * t as f64 / duration.max(1) as f64) as i32
}

fn draw(canvas: HtmlCanvasElement, p: &TimelineProps) -> Option<()> {
    let width = canvas.width() as i32;
    let backend = CanvasBackend::with_canvas_object(canvas)?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).ok()?;
    let font = ("sans-serif", 12).into_font();
    // Time axis: a tick per minute (or per 10 minutes for long runs).
    let step = if p.duration > 30 * 60_000 {
        10 * 60_000
    } else if p.duration > 5 * 60_000 {
        60_000
    } else {
        10_000
    };
    let mut t = 0;
    while t <= p.duration {
        let x = x_of(t, p.duration, width);
        root.draw(&PathElement::new(
            vec![(x, TOP - 4), (x, TOP + LANE * p.lanes.len() as i32)],
            RGBColor(230, 230, 230),
        ))
        .ok()?;
        root.draw(&Text::new(format_go_duration_tenths(t), (x + 2, 4), font.clone()))
            .ok()?;
        t += step;
    }
    for (i, lane) in p.lanes.iter().enumerate() {
        let y = TOP + i as i32 * LANE;
        let label = if lane.node {
            format!("▣ {}", lane.name)
        } else {
            format!("  {}", lane.name)
        };
        root.draw(&Text::new(label, (4, y + 3), font.clone())).ok()?;
        for &(a, b, s) in &lane.segments {
            let (x0, x1) = (
                x_of(a, p.duration, width),
                x_of(b, p.duration, width).max(x_of(a, p.duration, width) + 1),
            );
            root.draw(&Rectangle::new([(x0, y + 3), (x1, y + LANE - 3)], colour(s).filled()))
                .ok()?;
            if s == LaneState::Terminating {
                let mut x = x0;
                while x < x1 {
                    root.draw(&PathElement::new(
                        vec![(x, y + LANE - 3), ((x + 6).min(x1), y + 3)],
                        WHITE,
                    ))
                    .ok()?;
                    x += 8;
                }
            }
        }
        for m in &lane.marks {
            let x = x_of(m.at, p.duration, width);
            let shape: Vec<(i32, i32)> = match m.kind.as_str() {
                "NodeUnknown" | "FaultStarted" => vec![(x, y + 1), (x + 5, y + LANE - 2), (x - 5, y + LANE - 2)],
                "LastHeartbeat" => vec![(x, y + LANE - 1), (x + 5, y + 2), (x - 5, y + 2)],
                "TaintAdded" | "TaintRemoved" => vec![
                    (x, y + 1),
                    (x + 5, y + LANE / 2),
                    (x, y + LANE - 1),
                    (x - 5, y + LANE / 2),
                ],
                _ => vec![
                    (x - 4, y + 3),
                    (x + 4, y + 3),
                    (x + 4, y + LANE - 3),
                    (x - 4, y + LANE - 3),
                ],
            };
            root.draw(&Polygon::new(shape, BLACK.mix(0.75))).ok()?;
        }
    }
    let x = x_of(p.now, p.duration, width);
    root.draw(&PathElement::new(
        vec![(x, 0), (x, TOP + LANE * p.lanes.len() as i32)],
        ShapeStyle::from(&RED).stroke_width(2),
    ))
    .ok()?;
    root.present().ok()
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
        .map(|(_, m)| {
            (
                m.at,
                trf(
                    lang,
                    "ui.timeline.tip",
                    &[
                        ("name", &lane.name),
                        ("kind", &m.kind),
                        ("at", &format_go_duration_tenths(m.at)),
                        ("cause", &cause(lang, &m.cause)),
                    ],
                ),
            )
        })
}

/// The timeline component.
#[function_component(Timeline)]
pub fn timeline(p: &TimelineProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let canvas = use_node_ref();
    let tip = use_state(|| None::<(i32, i32, String)>);
    {
        let canvas = canvas.clone();
        let props = p.clone();
        use_effect_with((Rc::as_ptr(&p.lanes) as usize, p.now, p.duration), move |_| {
            if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                let w = c.client_width().max(320) as u32;
                if c.width() != w {
                    c.set_width(w);
                }
                c.set_height((TOP + LANE * props.lanes.len() as i32 + 4) as u32);
                draw(c, &props);
            }
        });
    }
    let onmousemove = {
        let tip = tip.clone();
        let lanes = p.lanes.clone();
        let duration = p.duration;
        let canvas = canvas.clone();
        Callback::from(move |e: MouseEvent| {
            let width = canvas.cast::<HtmlCanvasElement>().map_or(800, |c| c.width() as i32);
            tip.set(
                hit(lang, &lanes, duration, width, e.offset_x(), e.offset_y())
                    .map(|(_, text)| (e.offset_x(), e.offset_y(), text)),
            );
        })
    };
    let onclick = {
        let lanes = p.lanes.clone();
        let duration = p.duration;
        let seek = p.onseek.clone();
        let canvas = canvas.clone();
        Callback::from(move |e: MouseEvent| {
            let width = canvas.cast::<HtmlCanvasElement>().map_or(800, |c| c.width() as i32);
            let t = match hit(lang, &lanes, duration, width, e.offset_x(), e.offset_y()) {
                Some((t, _)) => t,
                None => {
                    ((e.offset_x() - LEFT).max(0) as f64 / (width - LEFT - 8).max(1) as f64 * duration as f64) as Millis
                }
            };
            seek.emit(t.clamp(0, duration));
        })
    };
    let onmouseleave = {
        let tip = tip.clone();
        Callback::from(move |_| tip.set(None))
    };
    html! {
        <div class="timeline">
            <canvas ref={canvas} role="img" aria-label={tr(lang, "ui.timeline.label")} {onmousemove} {onclick} {onmouseleave}></canvas>
            if let Some((x, y, text)) = &*tip {
                <div class="tip" role="tooltip" style={format!("left: {}px; top: {}px", x + 12, y + 12)}>{text.clone()}</div>
            }
            <p class="legend">
                <span class="sw ok"></span>{"Ready / Running "}
                <span class="sw bad"></span>{"Unknown / NotReady "}
                <span class="sw term"></span>{tr(lang, "ui.timeline.terminating")}
                <span class="sw pend"></span>{"Pending "}
                {tr(lang, "ui.timeline.marks")}
            </p>
        </div>
    }
}
