//! "Tune for a target": the reader's targets (a milestone, a duration, a percentile; the link's
//! `target=`), a writes ceiling at a cluster size and the blip to ride out (`blip=`); the engine's
//! search runs in a worker of its own (`hooks::use_search`) with a progress bar and a stop; then
//! a scatter of every candidate (x: the first target's percentile, y: heartbeat writes per
//! minute; blip-safe points are dots, the others crosses; the front ringed and numbered, the
//! reference profiles triangles with their names) and the front as a list, each point a button
//! that applies its settings to the page.

use crate::components::pixels::{fit, use_redraw};
use crate::hooks::{use_search, Search, Searching};
use crate::i18n::{cause, tr, trf, Lang};
use crate::model::Edit;
use crate::settings::Settings;
use crate::tune::{apply, setting_text, Ask, Found, DEFAULT_BLIP};
use kubelife_engine::stats::MILESTONES;
use kubelife_engine::time::{format_go_duration, format_go_duration_tenths, parse_go_duration};
use kubelife_engine::tune::{Point, Target};
use kubelife_engine::{Config, Millis};
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use std::rc::Rc;
use web_sys::{HtmlCanvasElement, HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// The percentiles a target offers.
const PERCENTILES: [u8; 5] = [50, 90, 95, 99, 100];

/// The scatter's height, px.
const PLOT_HEIGHT: u32 = 280;

/// Properties of [`TunePanel`].
#[derive(Properties, PartialEq, Clone)]
pub struct TuneProps {
    /// The targets (the link's).
    pub targets: Vec<Target>,
    /// The blip to ride out, ms (`None`: the default 20s).
    pub blip: Option<Millis>,
    /// The configuration shown, which the search varies.
    pub cfg: Rc<Config>,
    /// The settings shown, which a point is applied to.
    pub settings: Settings,
    /// Called with new targets and blip.
    pub onslo: Callback<(Vec<Target>, Option<Millis>)>,
    /// Called to apply a point.
    pub onedit: Callback<Edit>,
}

/// The value of the input or select an event came from.
fn value_of(e: &Event) -> String {
    let target = e.target();
    let input = target
        .clone()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<HtmlInputElement>(t).ok())
        .map(|i| i.value());
    input
        .or_else(|| {
            target
                .and_then(|t| wasm_bindgen::JsCast::dyn_into::<HtmlSelectElement>(t).ok())
                .map(|s| s.value())
        })
        .unwrap_or_default()
}

/// The panel.
#[function_component(TunePanel)]
pub fn tune_panel(p: &TuneProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let max_writes = use_state(|| None::<f64>);
    let nodes = use_state(|| None::<u32>);
    let Searching {
        state: search,
        run,
        stop,
    } = use_search();
    let running = matches!(search, Search::Running { .. });
    let onrun = {
        let (cfg, targets, blip) = (p.cfg.clone(), p.targets.clone(), p.blip);
        let (max_writes, nodes) = (*max_writes, *nodes);
        run.reform(move |_: MouseEvent| (cfg.clone(), Ask::new(&targets, max_writes, nodes, blip)))
    };
    let blip = format_go_duration(p.blip.unwrap_or(DEFAULT_BLIP));
    let onblip = {
        let (onslo, targets) = (p.onslo.clone(), p.targets.clone());
        Callback::from(move |e: Event| {
            if let Some(b) = parse_go_duration(&value_of(&e))
                .ok()
                .filter(|b| (1_000..=crate::link::MAX_BLIP).contains(b))
            {
                onslo.emit((targets.clone(), (b != DEFAULT_BLIP).then_some(b)));
            }
        })
    };
    let number = |set: UseStateHandle<Option<f64>>| {
        Callback::from(move |e: Event| set.set(crate::decimal::decimal(&value_of(&e)).filter(|v| *v > 0.0)))
    };
    let onwrites = number(max_writes.clone());
    let onnodes = {
        let nodes = nodes.clone();
        Callback::from(move |e: Event| nodes.set(value_of(&e).parse::<u32>().ok().filter(|n| *n > 0)))
    };
    html! {
        <section class="tune" data-testid="tune-panel" aria-label={tr(lang, "ui.tune.title")}>
            <p class="tune-intro">{tr(lang, "ui.tune.intro")}</p>
            { targets(lang, &p.targets, p.blip, &p.onslo) }
            <div class="tune-limits">
                <label>{tr(lang, "ui.tune.max_writes")}
                    <input type="number" min="1" step="10" inputmode="numeric" value={max_writes.map(|w| w.to_string()).unwrap_or_default()} onchange={onwrites} data-testid="tune-max-writes" /></label>
                <label>{tr(lang, "ui.tune.nodes")}
                    <input type="number" min="1" step="1" inputmode="numeric" value={nodes.map(|n| n.to_string()).unwrap_or_default()} placeholder={p.cfg.nodes.len().to_string()} onchange={onnodes} /></label>
                <label>{tr(lang, "ui.tune.blip")}
                    <input type="text" size="6" value={blip} onchange={onblip} data-testid="tune-blip" /></label>
            </div>
            <div class="tune-actions">
                <button class="tune-run" data-testid="tune-run" onclick={onrun} disabled={running || p.targets.is_empty()}>{tr(lang, "ui.tune.run")}</button>
                if let Search::Running { done, total } = search {
                    <progress class="tune-progress" data-testid="tune-progress" aria-label={tr(lang, "ui.tune.progress")}
                        max={total.max(1).to_string()} value={done.to_string()}></progress>
                    <span class="tune-count">{trf(lang, "ui.tune.count", &[("done", &done), ("total", &total)])}</span>
                    <button class="tune-stop" data-testid="tune-cancel" onclick={stop.reform(|_: MouseEvent| ())}>{tr(lang, "ui.tune.cancel")}</button>
                }
            </div>
            <p class="tune-status" aria-live="polite">{ status(lang, &search) }</p>
            if let Search::Found(found) = &search {
                <Scatter found={found.clone()} first={p.targets.first().copied()} max_writes={*max_writes} />
                { front(lang, found, &p.settings, &p.onedit) }
            }
        </section>
    }
}

/// What the status line says.
fn status(lang: Lang, search: &Search) -> String {
    match search {
        Search::Idle | Search::Running { .. } => String::new(),
        Search::Found(f) if f.best.is_some() => trf(
            lang,
            "ui.tune.found",
            &[("front", &f.front.len()), ("candidates", &f.candidates.len())],
        ),
        Search::Found(f) => trf(
            lang,
            "ui.tune.none_meets",
            &[("front", &f.front.len()), ("candidates", &f.candidates.len())],
        ),
        Search::Refused(why) => cause(lang, why),
        Search::Stopped => tr(lang, "ui.tune.stopped").to_string(),
    }
}

/// The targets' rows (milestone, duration, percentile, remove) and the button that adds one.
fn targets(lang: Lang, list: &[Target], blip: Option<Millis>, onslo: &Callback<(Vec<Target>, Option<Millis>)>) -> Html {
    let edit = |i: usize, f: fn(&mut Target, &str) -> bool| {
        let (list, onslo) = (list.to_vec(), onslo.clone());
        Callback::from(move |e: Event| {
            let mut list = list.clone();
            if list.get_mut(i).is_some_and(|t| f(t, &value_of(&e))) {
                onslo.emit((list, blip));
            }
        })
    };
    let add = {
        let (list, onslo) = (list.to_vec(), onslo.clone());
        let next = Target {
            milestone: "firstReplacementReady",
            within: 60_000,
            percentile: 95,
        };
        Callback::from(move |_: MouseEvent| {
            let mut list = list.clone();
            list.push(next);
            onslo.emit((list, blip));
        })
    };
    html! {
        <fieldset class="tune-targets">
            <legend>{tr(lang, "ui.tune.targets")}</legend>
            { for list.iter().enumerate().map(|(i, t)| {
                let remove = {
                    let (list, onslo) = (list.to_vec(), onslo.clone());
                    Callback::from(move |_: MouseEvent| {
                        let mut list = list.clone();
                        list.remove(i);
                        onslo.emit((list, blip));
                    })
                };
                html! {
                    <div class="tune-target" data-testid="tune-target">
                        <select aria-label={tr(lang, "ui.tune.milestone")} onchange={edit(i, set_milestone)} data-testid="tune-milestone">
                            { for MILESTONES.iter().map(|m| html! { <option value={*m} selected={*m == t.milestone}>{*m}</option> }) }
                        </select>
                        <span aria-hidden="true">{"≤"}</span>
                        <input type="text" size="6" aria-label={tr(lang, "ui.tune.within")} value={format_go_duration(t.within)}
                            onchange={edit(i, set_within)} data-testid="tune-within" />
                        <select aria-label={tr(lang, "ui.tune.percentile")} onchange={edit(i, set_percentile)}>
                            { for PERCENTILES.iter().map(|n| html! { <option value={n.to_string()} selected={*n == t.percentile}>{format!("p{n}")}</option> }) }
                        </select>
                        <button class="tune-remove" onclick={remove} aria-label={trf(lang, "ui.tune.remove", &[("target", &t.milestone)])}>{tr(lang, "ui.tune.remove_short")}</button>
                    </div>
                }
            }) }
            if list.len() < crate::link::MAX_TARGETS {
                <button class="tune-add" onclick={add} data-testid="tune-add">{tr(lang, "ui.tune.add")}</button>
            }
        </fieldset>
    }
}

fn set_milestone(t: &mut Target, v: &str) -> bool {
    MILESTONES.iter().find(|m| **m == v).map(|m| t.milestone = m).is_some()
}

fn set_within(t: &mut Target, v: &str) -> bool {
    parse_go_duration(v)
        .ok()
        .filter(|w| *w >= 0)
        .map(|w| t.within = w)
        .is_some()
}

fn set_percentile(t: &mut Target, v: &str) -> bool {
    v.parse::<u8>()
        .ok()
        .filter(|p| (1..=100).contains(p))
        .map(|p| t.percentile = p)
        .is_some()
}

/// The front as a list: each point's settings, its targets' percentiles, writes per minute and
/// blip safety, as a button that applies it.
fn front(lang: Lang, found: &Found, settings: &Settings, onedit: &Callback<Edit>) -> Html {
    html! {
        <ol class="tune-front" data-testid="tune-front" aria-label={tr(lang, "ui.tune.front")}>
        { for found.front.iter().enumerate().map(|(i, point)| {
            // A setting the page has no control for (a workload's own tolerationSeconds) stays
            // as it is here, and the point says so.
            let (s, left) = apply(settings, &point.settings);
            let onclick = {
                let onedit = onedit.clone();
                Callback::from(move |_: MouseEvent| onedit.emit(Edit::Import(Rc::new(s.clone()))))
            };
            let best = found.best.as_ref() == Some(point);
            html! {
                <li class="tune-item">
                    <button class={classes!("tune-point", best.then_some("tune-point-best"))} data-testid="tune-point" {onclick}
                        title={tr(lang, "ui.tune.apply")}>
                        <span class="tune-number">{format!("{}", i + 1)}</span>
                        if best { <span class="tune-best">{tr(lang, "ui.tune.best")}</span> }
                        <span class="tune-settings">{ for point.settings.iter().map(|(k, v)| html! { <code>{setting_text(k, v)}</code> }) }</span>
                        <span class="tune-measured">{ measured(lang, point) }</span>
                        if !left.is_empty() { <span class="tune-left">{ trf(lang, "ui.tune.left", &[("names", &left.join(", "))]) }</span> }
                    </button>
                </li>
            }
        }) }
        </ol>
    }
}

/// A point's measurements: each target's percentile, writes per minute, blip safety.
fn measured(lang: Lang, point: &Point) -> String {
    let targets: Vec<String> = point
        .targets
        .iter()
        .map(|v| v.map_or_else(|| tr(lang, "ui.never").to_string(), format_go_duration_tenths))
        .collect();
    let blip = tr(
        lang,
        if point.blip_safe {
            "ui.tune.blip_safe"
        } else {
            "ui.tune.blip_unsafe"
        },
    );
    trf(
        lang,
        "ui.tune.measured",
        &[
            ("targets", &targets.join(", ")),
            ("writes", &format!("{:.0}", point.writes_per_minute)),
            ("blip", &blip),
        ],
    )
}

/// Properties of [`Scatter`].
#[derive(Properties, PartialEq, Clone)]
pub struct ScatterProps {
    /// What the search found.
    pub found: Rc<Found>,
    /// The first target (its duration is a line).
    pub first: Option<Target>,
    /// The writes ceiling (a line), if any.
    pub max_writes: Option<f64>,
}

/// The candidates on a canvas, with its legend in HTML.
#[function_component(Scatter)]
pub fn scatter(p: &ScatterProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let canvas = use_node_ref();
    let redraw = use_redraw();
    {
        let (canvas, props) = (canvas.clone(), p.clone());
        use_effect_with(
            (
                Rc::as_ptr(&p.found) as usize,
                p.first,
                p.max_writes.map(f64::to_bits),
                redraw,
                lang,
            ),
            move |_| {
                if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                    let w = c.client_width().max(280) as u32;
                    draw(c, &props, w, lang);
                }
            },
        );
    }
    let first = p
        .first
        .map(|t| format!("p{} {}", t.percentile, t.milestone))
        .unwrap_or_default();
    html! {
        <figure class="tune-figure">
            <canvas class="tune-canvas" ref={canvas} role="img" style={format!("height: {PLOT_HEIGHT}px")}
                aria-label={trf(lang, "ui.tune.scatter", &[("x", &first)])}></canvas>
            <figcaption class="tune-legend">
                <span><span class="tune-key tune-key-safe"></span>{tr(lang, "ui.tune.key_safe")}</span>
                <span><span class="tune-key tune-key-unsafe">{"×"}</span>{tr(lang, "ui.tune.key_unsafe")}</span>
                <span><span class="tune-key tune-key-front"></span>{tr(lang, "ui.tune.key_front")}</span>
                <span><span class="tune-key tune-key-ref">{"▲"}</span>{tr(lang, "ui.tune.key_ref")}</span>
            </figcaption>
        </figure>
    }
}

/// Left and bottom margins of the scatter, px.
const MARGIN: (i32, i32) = (52, 34);

/// Draws the scatter on `canvas`, `width` CSS px wide.
fn draw(canvas: HtmlCanvasElement, p: &ScatterProps, width: u32, lang: Lang) -> Option<()> {
    fit(&canvas, width, PLOT_HEIGHT)?;
    let backend = CanvasBackend::with_canvas_object(canvas)?;
    let root = backend.into_drawing_area().shrink((0, 0), (width, PLOT_HEIGHT));
    root.fill(&WHITE).ok()?;
    let f = &p.found;
    let refs = f.references.iter().map(|(_, pt)| pt);
    let all: Vec<&Point> = f.candidates.iter().chain(refs).chain(&f.front).collect();
    let xs = all.iter().filter_map(|pt| pt.targets.first().copied().flatten());
    let within = p.first.map(|t| t.within);
    let (x_lo, x_hi) = span(xs.chain(within).map(|x| x as f64))?;
    let ys = all.iter().map(|pt| pt.writes_per_minute).chain(p.max_writes);
    let (y_lo, y_hi) = span(ys)?;
    let (w, h) = (width as i32, PLOT_HEIGHT as i32);
    let plot = Plot {
        x: (x_lo, x_hi),
        y: (y_lo, y_hi),
        left: MARGIN.0,
        right: w - 12,
        top: 10,
        bottom: h - MARGIN.1,
    };
    axes(&root, &plot, p, lang).ok()?;
    marks(&root, &plot, f).ok()?;
    root.present().ok()
}

/// The smallest and largest of `values`, a little apart when equal.
fn span(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if !lo.is_finite() {
        return None;
    }
    let pad = ((hi - lo) * 0.05).max(1.0);
    Some(((lo - pad).max(0.0), hi + pad))
}

/// The plot's data ranges and its area on the canvas, px.
struct Plot {
    x: (f64, f64),
    y: (f64, f64),
    left: i32,
    right: i32,
    top: i32,
    bottom: i32,
}

impl Plot {
    fn at(&self, x: f64, y: f64) -> (i32, i32) {
        let fx = (x - self.x.0) / (self.x.1 - self.x.0);
        let fy = (y - self.y.0) / (self.y.1 - self.y.0);
        (
            self.left + (fx * f64::from(self.right - self.left)) as i32,
            self.bottom - (fy * f64::from(self.bottom - self.top)) as i32,
        )
    }
}

type Area = DrawingArea<CanvasBackend, plotters::coord::Shift>;
type Drawn = Result<(), DrawingAreaErrorKind<<CanvasBackend as DrawingBackend>::ErrorType>>;

/// The axes, their ends' labels, the first target's line and the writes ceiling's.
fn axes(root: &Area, plot: &Plot, p: &ScatterProps, lang: Lang) -> Drawn {
    let ink = RGBColor(0x1d, 0x23, 0x30);
    let font = (FontFamily::SansSerif, 11).into_font().color(&ink);
    let (l, r, t, b) = (plot.left, plot.right, plot.top, plot.bottom);
    root.draw(&PathElement::new(vec![(l, t), (l, b), (r, b)], ink.stroke_width(1)))?;
    let x_text = |x: f64| format_go_duration_tenths(x as Millis);
    root.draw(&Text::new(x_text(plot.x.0), (l, b + 4), font.clone()))?;
    let right = x_text(plot.x.1);
    root.draw(&Text::new(
        right.clone(),
        (r - 7 * right.len() as i32, b + 4),
        font.clone(),
    ))?;
    root.draw(&Text::new(format!("{:.0}", plot.y.1), (4, t), font.clone()))?;
    root.draw(&Text::new(format!("{:.0}", plot.y.0), (4, b - 12), font.clone()))?;
    let axis = p
        .first
        .map(|t| format!("p{} {} →", t.percentile, t.milestone))
        .unwrap_or_default();
    root.draw(&Text::new(axis, (l + 60, b + 18), font.clone()))?;
    root.draw(&Text::new(tr(lang, "ui.tune.y_axis"), (4, t + 16), font))?;
    let purple = RGBColor(0x7a, 0x1f, 0xa2);
    if let Some(t) = p.first {
        let (x, _) = plot.at(t.within as f64, plot.y.0);
        root.draw(&PathElement::new(
            vec![(x, plot.top), (x, plot.bottom)],
            purple.stroke_width(2),
        ))?;
    }
    if let Some(w) = p.max_writes {
        let (_, y) = plot.at(plot.x.0, w);
        root.draw(&PathElement::new(
            vec![(plot.left, y), (plot.right, y)],
            purple.stroke_width(1),
        ))?;
    }
    Ok(())
}

/// Where a label of `text` goes beside a mark at `at` on a canvas `width` px wide: the first of
/// right-below, left-below, right-above and left-above that stays on the canvas and clear of the
/// labels placed so far (their boxes in `placed`), above the x axis at `bottom`.
fn place_label(placed: &mut Vec<[i32; 4]>, at: (i32, i32), text: &str, (width, bottom): (i32, i32)) -> (i32, i32) {
    // About 7 px a character in the 11 px font; the labels are names and numbers.
    let (w, h) = (7 * text.chars().count() as i32, 12);
    let spots = [
        (at.0 + 8, at.1 + 2),
        (at.0 - 8 - w, at.1 + 2),
        (at.0 + 8, at.1 - 14),
        (at.0 - 8 - w, at.1 - 14),
    ];
    let clear = |&(x, y): &(i32, i32)| {
        x >= 0
            && x + w <= width
            && y + h <= bottom
            && !placed
                .iter()
                .any(|b| x < b[0] + b[2] && b[0] < x + w && y < b[1] + b[3] && b[1] < y + h)
    };
    let on_canvas = if at.0 + 8 + w > width { spots[1] } else { spots[0] };
    let spot = spots.iter().copied().find(clear).unwrap_or(on_canvas);
    placed.push([spot.0, spot.1, w, h]);
    spot
}

/// Every candidate (a dot if blip-safe, else a cross), the references (triangles with their
/// names) and the front (ringed, numbered as the list is), each label clear of the others.
fn marks(root: &Area, plot: &Plot, f: &Found) -> Drawn {
    let safe = RGBColor(0x2f, 0x5f, 0xd0);
    let unsafe_ = RGBColor(0xd6, 0x78, 0x00);
    let ink = RGBColor(0x1d, 0x23, 0x30);
    let font = (FontFamily::SansSerif, 11).into_font().color(&ink);
    let bounds = (plot.right + 12, plot.bottom);
    let place = |pt: &Point| Some(plot.at(pt.targets.first().copied().flatten()? as f64, pt.writes_per_minute));
    let dot = |root: &Area, at: (i32, i32), pt: &Point, size: i32| -> Drawn {
        if pt.blip_safe {
            root.draw(&Circle::new(at, size, safe.filled()))
        } else {
            root.draw(&Cross::new(at, size, unsafe_.stroke_width(2)))
        }
    };
    for pt in &f.candidates {
        if let Some(at) = place(pt) {
            dot(root, at, pt, 3)?;
        }
    }
    // The front's numbers first: they are what the list refers to.
    let mut placed = Vec::new();
    for (i, pt) in f.front.iter().enumerate() {
        if let Some(at) = place(pt) {
            dot(root, at, pt, 4)?;
            root.draw(&Circle::new(at, 7, ink.stroke_width(1)))?;
            let number = format!("{}", i + 1);
            let spot = place_label(&mut placed, at, &number, bounds);
            root.draw(&Text::new(number, spot, font.clone()))?;
        }
    }
    for (name, pt) in &f.references {
        if let Some(at) = place(pt) {
            root.draw(&TriangleMarker::new(at, 6, ink.filled()))?;
            let spot = place_label(&mut placed, at, name, bounds);
            root.draw(&Text::new(name.clone(), spot, font.clone()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_stay_on_the_canvas_and_clear_of_each_other() {
        let mut placed = Vec::new();
        // Near the right edge, a name goes to the left of its mark.
        assert_eq!(
            place_label(&mut placed, (390, 100), "defaults", (400, 200)),
            (390 - 8 - 56, 102)
        );
        // A second label at the same mark takes the next free spot: left, above.
        assert_eq!(
            place_label(&mut placed, (390, 100), "kubespray-low", (400, 200)),
            (390 - 8 - 91, 86)
        );
        let a = place_label(&mut placed, (50, 50), "1", (400, 200));
        let b = place_label(&mut placed, (52, 50), "2", (400, 200));
        assert_ne!(a, b);
        // A mark on the x axis has its label above it.
        assert_eq!(place_label(&mut placed, (200, 195), "x", (400, 200)), (208, 181));
        assert_eq!(placed.len(), 5);
    }
}
