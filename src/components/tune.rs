//! "Tune for a target": the reader's targets (a milestone, a duration, a percentile; the link's
//! `target=`), a writes ceiling at a cluster size and the blip to ride out (`blip=`); the engine's
//! search runs in a worker of its own (`hooks::use_search`) with a progress bar and a stop; then
//! a scatter of every candidate (`kubelife_figures::scatter`, drawn on a canvas, with its legend
//! in HTML) and the front as a list, each point a button that applies its settings to the page.

use crate::components::number::TextField;
use crate::components::pixels::{fit, use_redraw};
use crate::hooks::{use_catalogue_part, use_search, Search, Searching};
use crate::i18n::{cause, tr, trf, truncate, Lang, Part};
use crate::model::Edit;
use crate::settings::Settings;
use crate::slo::MILESTONE_LABELS;
use crate::tune::{
    apply, measured_on, seeds_text, setting_text, unmet_text, without_defaults, Field, Found, Question, Refusals,
    Refused, DEFAULT_BLIP, MAX_TARGETS,
};
use kubelife_engine::stats::measurable;
use kubelife_engine::time::{format_go_duration, format_go_duration_tenths};
use kubelife_engine::tune::{Point, Target};
use kubelife_engine::Config;
use kubelife_figures::{draw_scatter, ScatterFigure, SCATTER_HEIGHT};
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use std::rc::Rc;
use web_sys::{HtmlCanvasElement, HtmlSelectElement};
use yew::prelude::*;

/// The percentiles a target offers.
const PERCENTILES: [u8; 5] = [50, 90, 95, 99, 100];

/// Properties of [`TunePanel`].
#[derive(Properties, PartialEq, Clone)]
pub struct TuneProps {
    /// The targets and constraints (the link's).
    pub question: Question,
    /// The configuration shown, which the search varies.
    pub cfg: super::Same<Config>,
    /// The settings shown, which a point is applied to.
    pub settings: Settings,
    /// Side B's settings, when comparing: a point can be applied to both sides at once.
    pub b_settings: Option<Settings>,
    /// Called with new targets and constraints.
    pub onquestion: Callback<Question>,
    /// Called to apply a point.
    pub onedit: Callback<Edit>,
    /// Called to apply a point to side B.
    pub onedit_b: Callback<Edit>,
}

/// The value of the select an event came from.
fn value_of(e: &Event) -> String {
    e.target_unchecked_into::<HtmlSelectElement>().value()
}

/// An edit of a field: the question with the typed text read in, or the text refused with why
/// (`Refusals`: each field keeps its own until it takes a value).
#[derive(Clone)]
struct Editor {
    question: Question,
    onquestion: Callback<Question>,
    refused: UseStateHandle<Refusals>,
}

impl Editor {
    /// The field's change handler: the typed text goes into the question, or is refused.
    fn on(&self, field: Field) -> Callback<String> {
        let me = self.clone();
        Callback::from(move |text: String| {
            let mut r = (*me.refused).clone();
            let q = r.typed(&me.question, field, &text);
            me.refused.set(r);
            if let Some(q) = q {
                me.onquestion.emit(q);
            }
        })
    }

    /// A new question from a button (a target added, or row `removed` taken out).
    fn set(&self, q: Question, removed: Option<usize>) {
        let mut r = (*self.refused).clone();
        if let Some(i) = removed {
            r.remove_row(i);
        }
        self.refused.set(r);
        self.onquestion.emit(q);
    }

    /// What a field shows: the text refused, while it is, so it stays there to correct; else
    /// the question's value.
    fn shown(&self, field: Field, value: String) -> String {
        self.refused.get(field).map_or(value, |r| r.typed.clone())
    }

    fn invalid(&self, field: Field) -> bool {
        self.refused.get(field).is_some()
    }

    /// A select's change handler.
    fn on_select(&self, field: Field) -> Callback<Event> {
        self.on(field).reform(|e: Event| value_of(&e))
    }
}

/// The panel.
#[function_component(TunePanel)]
pub fn tune_panel(p: &TuneProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let refused = use_state(Refusals::default);
    let Searching {
        state: search,
        run,
        stop,
    } = use_search();
    let running = matches!(search, Search::Running { .. });
    // What a search shows (its progress, answer and front) is among the texts fetched once the
    // page is live (`Part::Later`): until they are in, the panel shows it as idle.
    let texts = use_catalogue_part(lang, Part::Later, !matches!(search, Search::Idle));
    let search = if texts { search } else { Search::Idle };
    let onrun = |confirmed: bool| {
        let (cfg, ask) = (p.cfg.0.clone(), p.question.ask());
        run.reform(move |_: MouseEvent| (cfg.clone(), ask.clone(), confirmed))
    };
    let ed = Editor {
        question: p.question.clone(),
        onquestion: p.onquestion.clone(),
        refused: refused.clone(),
    };
    let q = &p.question;
    html! {
        <section class="tune" data-testid="tune-panel" aria-label={tr(lang, "ui.tune.title")}>
            <p class="tune-intro">{cause(lang, &seeds_text())}</p>
            { targets(lang, &ed) }
            <div class="tune-limits">
                <label>{tr(lang, "ui.tune.max_writes")}
                    <TextField size={7} inputmode="decimal" value={ed.shown(Field::Writes, q.max_writes.map(|w| w.to_string()).unwrap_or_default())}
                        placeholder={tr(lang, "ui.tune.no_limit")} onchange={ed.on(Field::Writes)}
                        invalid={ed.invalid(Field::Writes)} testid="tune-max-writes" /></label>
                <label>{tr(lang, "ui.tune.nodes")}
                    <TextField size={6} inputmode="numeric" value={ed.shown(Field::Nodes, q.writes_nodes.map(|n| n.to_string()).unwrap_or_default())}
                        placeholder={p.cfg.nodes.len().to_string()} onchange={ed.on(Field::Nodes)}
                        label={tr(lang, "ui.tune.nodes_field")} invalid={ed.invalid(Field::Nodes)} testid="tune-writes-nodes" /></label>
                <label>{tr(lang, "ui.tune.blip")}
                    <TextField size={6} value={ed.shown(Field::Blip, format_go_duration(q.blip.unwrap_or(DEFAULT_BLIP)))} onchange={ed.on(Field::Blip)}
                        invalid={ed.invalid(Field::Blip)} testid="tune-blip" /></label>
            </div>
            if let Some(on) = measured_on(&p.cfg, q) {
                <p class="tune-on" data-testid="tune-measured-on">{cause(lang, &on)}</p>
            }
            { for refused.0.iter().map(|r| html! {
                <p class="tune-refused" role="alert" data-testid="tune-refused">{ refused_text(lang, r, q, p.cfg.nodes.len()) }</p>
            }) }
            <div class="tune-actions">
                <button class="tune-run" data-testid="tune-run" onclick={onrun(false)} disabled={running || q.targets.is_empty()}>{tr(lang, "ui.tune.run")}</button>
                if let Search::Running { done, total, left } = search {
                    <progress class="tune-progress" data-testid="tune-progress" aria-label={tr(lang, "ui.tune.progress")}
                        max={total.max(1).to_string()} value={done.to_string()}></progress>
                    <span class="tune-count" data-testid="tune-count">{trf(lang, "ui.tune.count", &[("done", &done), ("total", &total)])}
                        { for left.map(|l| format!(" · {}", trf(lang, "ui.tune.eta", &[("left", &format_go_duration(l / 1000 * 1000))]))) }</span>
                    <button class="tune-stop" data-testid="tune-cancel" onclick={stop.reform(|_: MouseEvent| ())}>{tr(lang, "ui.tune.cancel")}</button>
                }
                if let Search::Long { estimate, total } = search {
                    <span class="tune-count" data-testid="tune-long">{trf(lang, "ui.tune.long", &[("time", &format_go_duration(estimate / 1000 * 1000)), ("total", &total)])}</span>
                    <button class="tune-run" data-testid="tune-run-anyway" onclick={onrun(true)}>{tr(lang, "ui.tune.run_anyway")}</button>
                }
            </div>
            <p class="tune-status" aria-live="polite">{ status(lang, &search) }</p>
            if let Search::Found(found) = &search {
                { for found.unmet.iter().map(|u| html! { <p class="tune-unmet" data-testid="tune-unmet">{cause(lang, &unmet_text(u, found.nodes, found.blip.unwrap_or(0)))}</p> }) }
                if !found.forced_warnings.is_empty() {
                    <div class="tune-forced" data-testid="tune-forced">{tr(lang, "ui.tune.forced")}{ warnings(lang, found.forced()) }</div>
                }
                <Scatter found={found.clone()} first={q.targets.first().copied()} max_writes={q.max_writes} />
                { front(lang, found, p) }
            }
        </section>
    }
}

/// What the refusal says: the field, the text typed, why, and what the search keeps instead.
fn refused_text(lang: Lang, r: &Refused, q: &Question, scenario_nodes: usize) -> String {
    let (field, kept) = match r.field {
        Field::Milestone(i) | Field::Within(i) | Field::Percentile(i) => {
            let t = q.targets.get(i);
            (
                t.map_or_else(String::new, |t| t.milestone.to_string()),
                t.map_or_else(String::new, |t| format_go_duration(t.within)),
            )
        }
        Field::Blip => (
            tr(lang, "ui.tune.blip").to_string(),
            format_go_duration(q.blip.unwrap_or(DEFAULT_BLIP)),
        ),
        Field::Writes => (
            tr(lang, "ui.tune.max_writes").to_string(),
            q.max_writes
                .map_or_else(|| tr(lang, "ui.tune.no_limit").to_string(), |w| w.to_string()),
        ),
        Field::Nodes => (
            tr(lang, "ui.tune.nodes_field").to_string(),
            q.writes_nodes.map_or_else(
                || trf(lang, "ui.tune.scenario_nodes", &[("count", &scenario_nodes)]),
                |n| n.to_string(),
            ),
        ),
    };
    trf(
        lang,
        "ui.tune.bad",
        &[
            ("field", &field),
            ("typed", &truncate(&r.typed)),
            ("why", &cause(lang, &r.why)),
            ("kept", &kept),
        ],
    )
}

/// What the status line says.
fn status(lang: Lang, search: &Search) -> String {
    match search {
        Search::Idle | Search::Running { .. } | Search::Long { .. } => String::new(),
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
fn targets(lang: Lang, ed: &Editor) -> Html {
    let list = &ed.question.targets;
    let add = {
        let ed = ed.clone();
        let next = Target {
            milestone: "firstReplacementReady",
            within: 60_000,
            percentile: 95,
        };
        Callback::from(move |_: MouseEvent| {
            let mut q = ed.question.clone();
            q.targets.push(next);
            ed.set(q, None);
        })
    };
    html! {
        <fieldset class="tune-targets">
            <legend>{tr(lang, "ui.tune.targets")}</legend>
            { for list.iter().enumerate().map(|(i, t)| {
                let remove = {
                    let ed = ed.clone();
                    Callback::from(move |_: MouseEvent| {
                        let mut q = ed.question.clone();
                        q.targets.remove(i);
                        ed.set(q, Some(i));
                    })
                };
                html! {
                    <div class="tune-target" data-testid="tune-target">
                        <select aria-label={tr(lang, "ui.tune.milestone")} onchange={ed.on_select(Field::Milestone(i))} data-testid="tune-milestone">
                            { for MILESTONE_LABELS.iter().filter(|(m, _)| measurable(m)).map(|&(m, k)| html! { <option value={m} selected={m == t.milestone}>{format!("{m} · {}", tr(lang, k))}</option> }) }
                        </select>
                        <span aria-hidden="true">{"≤"}</span>
                        <TextField size={6} label={tr(lang, "ui.tune.within")} value={ed.shown(Field::Within(i), format_go_duration(t.within))}
                            onchange={ed.on(Field::Within(i))} invalid={ed.invalid(Field::Within(i))} testid="tune-within" />
                        <select aria-label={tr(lang, "ui.tune.percentile")} onchange={ed.on_select(Field::Percentile(i))}>
                            { for PERCENTILES.iter().map(|n| html! { <option value={n.to_string()} selected={*n == t.percentile}>{format!("p{n}")}</option> }) }
                        </select>
                        <button class="tune-remove" onclick={remove} aria-label={trf(lang, "ui.tune.remove", &[("target", &t.milestone)])}>{tr(lang, "ui.tune.remove_short")}</button>
                    </div>
                }
            }) }
            if list.len() < MAX_TARGETS {
                <button class="tune-add" onclick={add} data-testid="tune-add">{tr(lang, "ui.tune.add")}</button>
            }
        </fieldset>
    }
}

/// The front as a list: each point's settings, its targets' percentiles, writes per minute and
/// blip safety, as a button that applies it; when comparing, a second button applies it to both
/// sides, each keeping its own cluster and fault.
fn front(lang: Lang, found: &Found, p: &TuneProps) -> Html {
    let (settings, onedit) = (&p.settings, &p.onedit);
    html! {
        <ol class="tune-front" data-testid="tune-front" aria-label={tr(lang, "ui.tune.front")}>
        { for found.front.iter().enumerate().map(|(i, point)| {
            // A setting the page has no control for (a workload's own tolerationSeconds) stays
            // as it is here, and the point says so.
            let (s, left) = apply(settings, &point.settings);
            let onclick = {
                let onedit = onedit.clone();
                Callback::from(move |_: MouseEvent| onedit.emit(Edit::Import(Rc::new(without_defaults(&s)))))
            };
            let best = found.best.as_ref() == Some(point);
            let both = p.b_settings.as_ref().map(|b| {
                let (a, b) = (apply(settings, &point.settings).0, apply(b, &point.settings).0);
                let (onedit, onedit_b) = (onedit.clone(), p.onedit_b.clone());
                Callback::from(move |_: MouseEvent| {
                    onedit.emit(Edit::Import(Rc::new(without_defaults(&a))));
                    onedit_b.emit(Edit::Import(Rc::new(without_defaults(&b))));
                })
            });
            html! {
                <li class="tune-item">
                    <button class={classes!("tune-point", best.then_some("tune-point-best"))} data-testid="tune-point" {onclick}
                        title={tr(lang, "ui.tune.apply")}>
                        <span class="tune-number">{format!("{}", i + 1)}</span>
                        if best { <span class="tune-best">{tr(lang, "ui.tune.best")}</span> }
                        <span class="tune-settings">{ for point.settings.iter().map(|(k, v)| html! { <code>{setting_text(k, v)}</code> }) }</span>
                        <span class="tune-measured">{ measured(lang, point) }</span>
                        if !left.is_empty() { <span class="tune-left">{ trf(lang, "ui.tune.left", &[("names", &left.join(", "))]) }</span> }
                        if !point.warnings.is_empty() {
                            <span class="tune-warns" data-testid="tune-warns">{tr(lang, "ui.tune.warns")}{ warnings(lang, point.warnings.iter().map(|w| &w.0).collect()) }</span>
                        }
                    </button>
                    if let Some(onclick) = both {
                        <button class="tune-both" data-testid="tune-point-both" {onclick}
                            aria-label={trf(lang, "ui.tune.apply_both_point", &[("n", &(i + 1))])}>{tr(lang, "ui.tune.apply_both")}</button>
                    }
                </li>
            }
        }) }
        </ol>
    }
}

/// The page's warnings, each in a span of its own.
fn warnings(lang: Lang, list: Vec<&kubelife_engine::Cause>) -> Html {
    list.into_iter()
        .map(|w| html! { <span class="tune-warn">{cause(lang, w)}</span> })
        .collect()
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
            <canvas class="tune-canvas" ref={canvas} role="img" style={format!("height: {SCATTER_HEIGHT}px")}
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

/// Draws the scatter on `canvas`, `width` CSS px wide.
fn draw(canvas: HtmlCanvasElement, p: &ScatterProps, width: u32, lang: Lang) -> Option<()> {
    fit(&canvas, width, SCATTER_HEIGHT)?;
    let backend = CanvasBackend::with_canvas_object(canvas)?;
    let root = backend.into_drawing_area().shrink((0, 0), (width, SCATTER_HEIGHT));
    let f = &p.found;
    let figure = ScatterFigure {
        candidates: &f.candidates,
        front: &f.front,
        references: &f.references,
        first: p.first,
        max_writes: p.max_writes,
        floor: f.floor(),
        y_axis: tr(lang, "ui.tune.y_axis"),
    };
    draw_scatter(&root, &figure).ok()?;
    root.present().ok()
}
