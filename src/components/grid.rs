//! The cluster above about 60 nodes: a small cell per node, grouped by zone, each zone under a
//! header with its state (Normal, PartialDisruption, FullDisruption), its nodes per state and its
//! current tainting rate. Cells are drawn on a canvas per zone, coloured and shaped by state so
//! colour is never the only cue. Hovering a cell, or focusing a zone and moving with the arrow
//! keys, shows the node's name, state, taints and pods.

use crate::components::pixels::{fit, use_redraw};
use crate::i18n::{count, tr, trf, Lang};
use crate::model::Run;
use kubelife_engine::Millis;
use kubelife_figures::aggregate::NodeState;
use kubelife_figures::grid::GridZone;
use std::rc::Rc;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use yew::prelude::*;

/// A cell's side and the gap after it, px.
const CELL: f64 = 9.0;
const PITCH: f64 = 11.0;
/// Most pods a tooltip names.
const TIP_PODS: usize = 8;

/// Properties of [`ClusterGrid`].
#[derive(Properties, PartialEq, Clone)]
pub struct ClusterGridProps {
    /// The run, whose per-node histories (`Run::aggregate`) the grid reads at the playhead.
    pub run: Rc<Run>,
    /// The playhead, ms.
    pub now: Millis,
}

/// The grid, a section per zone.
#[function_component(ClusterGrid)]
pub fn cluster_grid(p: &ClusterGridProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let grid = p.run.aggregate.grid_at(p.now);
    html! {
        <div class="grid" aria-label={tr(lang, "ui.cluster.label")}>
            { legend(lang) }
            { for grid.zones.iter().enumerate().map(|(i, z)| zone(lang, p, i, z)) }
        </div>
    }
}

/// A state's name as the page shows it (Kubernetes words stay as they are).
pub fn state_name(lang: Lang, s: NodeState) -> String {
    let key = match s {
        NodeState::Ready => "ui.grid.state.ready",
        NodeState::Cordoned => "ui.grid.state.cordoned",
        NodeState::NotReady => "ui.grid.state.notready",
        NodeState::Unknown => "ui.grid.state.unknown",
        NodeState::Tainted => "ui.grid.state.tainted",
        NodeState::Gone => "ui.grid.state.gone",
    };
    tr(lang, key).to_string()
}

/// A state's CSS class suffix.
fn state_key(s: NodeState) -> &'static str {
    match s {
        NodeState::Ready => "ready",
        NodeState::Cordoned => "cordoned",
        NodeState::NotReady => "notready",
        NodeState::Unknown => "unknown",
        NodeState::Tainted => "tainted",
        NodeState::Gone => "gone",
    }
}

/// The legend: each state's cell as drawn, and its name.
fn legend(lang: Lang) -> Html {
    html! {
        <ul class="grid-legend">
            { for NodeState::ALL.iter().map(|&s| html! {
                <li><span class={format!("grid-swatch grid-swatch-{}", state_key(s))} aria-hidden="true"></span>{state_name(lang, s)}</li>
            }) }
        </ul>
    }
}

/// One zone: its header and its cells.
fn zone(lang: Lang, p: &ClusterGridProps, index: usize, z: &GridZone) -> Html {
    let name = if z.zone.is_empty() {
        tr(lang, "ui.cluster.no_zone").to_string()
    } else {
        z.zone.to_string()
    };
    let counts = NodeState::ALL
        .iter()
        .filter(|&&s| z.nodes.get(s) > 0)
        .map(|&s| format!("{} {}", z.nodes.get(s), state_name(lang, s)))
        .collect::<Vec<_>>()
        .join(" · ");
    let rate = if z.rate > 0.0 {
        trf(lang, "ui.grid.rate", &[("rate", &format!("{:.2}", z.rate))])
    } else {
        tr(lang, "ui.grid.rate_zero").to_string()
    };
    let states: Rc<Vec<NodeState>> = Rc::new(z.cells.iter().map(|c| c.state).collect());
    html! {
        <section class="grid-zone" data-zone={name.clone()}>
            <header class="grid-zone-head">
                <h3 class="grid-zone-name">{name.clone()}</h3>
                <span class={format!("grid-zone-state grid-zone-state-{}", z.state.to_string().to_ascii_lowercase())}
                    data-testid={format!("zone-state-{}", z.zone)}>{z.state.to_string()}</span>
                <span class="grid-zone-rate" data-testid={format!("zone-rate-{}", z.zone)}>{rate}</span>
                <span class="grid-zone-counts">{counts}</span>
            </header>
            <ZoneCells {states} run={p.run.clone()} zone={index} now={p.now} label={trf(lang, "ui.grid.cells_label", &[("zone", &name), ("count", &count(lang, "ui.n.nodes", z.cells.len() as u64))])} />
        </section>
    }
}

/// A cell's tooltip: the node's name, state, taints and pods.
fn tip(lang: Lang, c: &kubelife_figures::grid::Cell) -> String {
    {
        let taints = if c.taints.is_empty() {
            tr(lang, "ui.grid.no_taints").to_string()
        } else {
            c.taints.join(", ")
        };
        let mut pods: Vec<String> = c
            .pods
            .iter()
            .take(TIP_PODS)
            .map(|p| format!("{} ({:?})", p.name, p.state))
            .collect();
        if c.pods.len() > TIP_PODS {
            pods.push(trf(
                lang,
                "ui.grid.more_pods",
                &[("count", &(c.pods.len() - TIP_PODS).to_string())],
            ));
        }
        let pods = if pods.is_empty() {
            tr(lang, "ui.grid.no_pods").to_string()
        } else {
            pods.join(", ")
        };
        trf(
            lang,
            "ui.grid.tip",
            &[
                ("node", &c.node),
                ("state", &state_name(lang, c.state)),
                ("taints", &taints),
                ("pods", &pods),
            ],
        )
    }
}

/// Properties of [`ZoneCells`].
#[derive(Properties, PartialEq, Clone)]
pub struct ZoneCellsProps {
    /// Each node's state, in the zone's order.
    pub states: Rc<Vec<NodeState>>,
    /// The run, whose histories give the tooltip of the one cell shown.
    pub run: Rc<Run>,
    /// The zone's index in the grid.
    pub zone: usize,
    /// The playhead, ms.
    pub now: Millis,
    /// The group's accessible name.
    pub label: String,
}

/// The cells of one zone on a canvas, with a tooltip for the cell under the pointer or the
/// keyboard's cursor.
#[function_component(ZoneCells)]
pub fn zone_cells(p: &ZoneCellsProps) -> Html {
    let canvas = use_node_ref();
    let columns = use_mut_ref(|| 1usize);
    let hover = use_state(|| None::<usize>);
    let cursor = use_state(|| None::<usize>);
    let redraw = use_redraw();
    {
        let (canvas, columns, states, cursor) = (canvas.clone(), columns.clone(), p.states.clone(), *cursor);
        use_effect_with((p.states.clone(), cursor, redraw), move |_| {
            super::pixels::on_next_frame(move || {
                if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                    *columns.borrow_mut() = draw_cells(&c, &states, cursor);
                }
            });
        });
    }
    let at = {
        let columns = columns.clone();
        let n = p.states.len();
        move |e: &MouseEvent| {
            let (col, row) = (
                (e.offset_x() as f64 / PITCH) as usize,
                (e.offset_y() as f64 / PITCH) as usize,
            );
            let cols = *columns.borrow();
            (col < cols).then_some(row * cols + col).filter(|&i| i < n)
        }
    };
    let onmousemove = {
        let hover = hover.clone();
        Callback::from(move |e: MouseEvent| hover.set(at(&e)))
    };
    let onmouseleave = {
        let hover = hover.clone();
        Callback::from(move |_| hover.set(None))
    };
    let onkeydown = {
        let (cursor, columns, n) = (cursor.clone(), columns.clone(), p.states.len());
        Callback::from(move |e: KeyboardEvent| {
            let cols = *columns.borrow() as isize;
            let step = match e.key().as_str() {
                "ArrowRight" => 1,
                "ArrowLeft" => -1,
                "ArrowDown" => cols,
                "ArrowUp" => -cols,
                "Home" => isize::MIN,
                "End" => isize::MAX,
                _ => return,
            };
            e.prevent_default();
            cursor.set(Some(move_cursor(*cursor, step, n)));
        })
    };
    let onfocus = {
        let cursor = cursor.clone();
        Callback::from(move |_| cursor.set(Some(cursor.unwrap_or(0))))
    };
    let onblur = {
        let cursor = cursor.clone();
        Callback::from(move |_| cursor.set(None))
    };
    // Only the cell shown is described: the grid at the playhead, read again for it.
    let lang = use_context::<Lang>().unwrap_or_default();
    let shown = hover.or(*cursor).and_then(|i| {
        let grid = p.run.aggregate.grid_at(p.now);
        grid.zones
            .get(p.zone)
            .and_then(|z| z.cells.get(i))
            .map(|c| tip(lang, c))
    });
    html! {
        <div class="grid-cells" role="group" tabindex="0" aria-label={p.label.clone()} {onkeydown} {onfocus} {onblur}>
            <canvas ref={canvas} class="grid-canvas" aria-hidden="true" {onmousemove} {onmouseleave}></canvas>
            <div class="grid-tip" role="status" aria-live="polite">
                if let Some(t) = shown { {t} }
            </div>
        </div>
    }
}

/// Where the keyboard's cursor goes from `from` by `step` cells, within `n`.
pub fn move_cursor(from: Option<usize>, step: isize, n: usize) -> usize {
    let last = n.saturating_sub(1) as isize;
    let from = from.unwrap_or(0) as isize;
    match step {
        isize::MIN => 0,
        isize::MAX => last as usize,
        s => (from + s).clamp(0, last) as usize,
    }
}

/// Draws the cells at the canvas's CSS width, at the device's pixel ratio; returns the columns
/// used.
fn draw_cells(c: &HtmlCanvasElement, cells: &[NodeState], cursor: Option<usize>) -> usize {
    let width = c.client_width().max(PITCH as i32) as f64;
    let cols = ((width / PITCH) as usize).max(1);
    let rows = cells.len().div_ceil(cols).max(1);
    let Some(ctx) = fit(c, width as u32, (rows as f64 * PITCH) as u32) else {
        return cols;
    };
    for (i, &s) in cells.iter().enumerate() {
        let (x, y) = ((i % cols) as f64 * PITCH, (i / cols) as f64 * PITCH);
        cell(&ctx, x, y, s);
    }
    if let Some(i) = cursor.filter(|&i| i < cells.len()) {
        let (x, y) = ((i % cols) as f64 * PITCH, (i / cols) as f64 * PITCH);
        ctx.set_stroke_style_str("#2f5fd0");
        ctx.set_line_width(2.0);
        ctx.stroke_rect(x - 1.0, y - 1.0, CELL + 2.0, CELL + 2.0);
    }
    cols
}

/// One cell: a colour and a shape per state (filled, striped, hollow, crossed, barred, dotted).
fn cell(ctx: &CanvasRenderingContext2d, x: f64, y: f64, s: NodeState) {
    let line = |ctx: &CanvasRenderingContext2d, pts: &[(f64, f64)]| {
        ctx.begin_path();
        ctx.move_to(x + pts[0].0, y + pts[0].1);
        for p in &pts[1..] {
            ctx.line_to(x + p.0, y + p.1);
        }
        ctx.stroke();
    };
    ctx.set_line_width(1.5);
    match s {
        NodeState::Ready => {
            ctx.set_fill_style_str("#2e8b57");
            ctx.fill_rect(x, y, CELL, CELL);
        }
        NodeState::Cordoned => {
            ctx.set_fill_style_str("#2e8b57");
            ctx.fill_rect(x, y, CELL, CELL);
            ctx.set_stroke_style_str("#fff");
            line(ctx, &[(1.0, CELL / 2.0), (CELL - 1.0, CELL / 2.0)]);
        }
        NodeState::NotReady => {
            ctx.set_fill_style_str("#d67800");
            ctx.fill_rect(x, y, CELL, CELL);
            ctx.set_stroke_style_str("#fff");
            line(ctx, &[(0.0, CELL), (CELL, 0.0)]);
        }
        NodeState::Unknown => {
            ctx.set_stroke_style_str("#d67800");
            ctx.stroke_rect(x + 0.75, y + 0.75, CELL - 1.5, CELL - 1.5);
            ctx.set_fill_style_str("#d67800");
            ctx.fill_rect(x + CELL / 2.0 - 1.0, y + CELL / 2.0 - 1.0, 2.0, 2.0);
        }
        NodeState::Tainted => {
            ctx.set_fill_style_str("#a33a00");
            ctx.fill_rect(x, y, CELL, CELL);
            ctx.set_stroke_style_str("#fff");
            line(ctx, &[(1.5, 1.5), (CELL - 1.5, CELL - 1.5)]);
            line(ctx, &[(1.5, CELL - 1.5), (CELL - 1.5, 1.5)]);
        }
        NodeState::Gone => {
            ctx.set_stroke_style_str("#8c8c8c");
            ctx.set_line_dash(&js_sys::Array::of2(&2.0.into(), &2.0.into())).ok();
            ctx.stroke_rect(x + 0.75, y + 0.75, CELL - 1.5, CELL - 1.5);
            ctx.set_line_dash(&js_sys::Array::new()).ok();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cursor_stays_inside_the_zone() {
        for (from, step, n, want) in [
            (None, 1, 10, 1),
            (Some(9), 1, 10, 9),
            (Some(0), -1, 10, 0),
            (Some(3), 5, 10, 8),
            (Some(8), 5, 10, 9),
            (Some(5), isize::MIN, 10, 0),
            (Some(5), isize::MAX, 10, 9),
            (None, 1, 0, 0),
        ] {
            assert_eq!(move_cursor(from, step, n), want, "{from:?} {step} {n}");
        }
    }
}
