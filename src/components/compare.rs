//! Compare mode: a second configuration B beside A, with its own version, preset and every
//! control of A's panel (under the same flag names, below a heading "B"); milestone deltas between the sides, counted from one origin that the table names
//! ([`crate::compare`]); both timelines on one axis; and, over 200 seeds,
//! a histogram of each milestone card for both sides ([`Seeds`]).

use crate::compare::{delta_rows, from_origin, origin};
use crate::components::controls::control_groups;
use crate::components::filtered;
use crate::components::header::{preset_choices, preset_edit, version_choices, version_edit};
use crate::components::picker::Picker;
use crate::components::seeds::Seeds;
use crate::components::slider::KnobSide;
use crate::components::timeline::Timeline;
use crate::i18n::{tr, Lang};
use crate::model::{Edit, Run};
use kubelife_engine::Millis;
use std::rc::Rc;
use yew::prelude::*;

/// What the compare section asks for.
pub enum CompareAction {
    /// Turn compare mode on (B starts as a copy of A) or off.
    Compare(bool),
    /// A on 1.12's legacy path, B on the newest version, same cluster and fault.
    Classic,
    /// Give B A's settings; B keeps its own fault and zone outage ([`crate::compare::copy_a_to_b`]).
    CopyAToB,
    /// Exchange A and B.
    Swap,
    /// Run the distribution view's seeds.
    RunSpreads,
    /// Change B's settings.
    EditB(Edit),
}

pub use crate::components::seeds::Spreads;

/// Properties of [`CompareSection`].
#[derive(Properties, PartialEq, Clone)]
pub struct CompareSectionProps {
    /// Side A's run.
    pub a: Rc<Run>,
    /// Side B's run, when comparing.
    pub b: Option<Rc<Run>>,
    /// The seeds' spreads, once run.
    pub spreads: Option<Spreads>,
    /// Whether the seeds are being run.
    pub running: bool,
    /// The playhead, ms.
    pub now: Millis,
    /// Cluster size for the write rates.
    pub nodes: u32,
    /// Called with each action.
    pub onaction: Callback<CompareAction>,
    /// Called with a time to seek to.
    pub onseek: Callback<Millis>,
}

/// The section: buttons to start comparing, and, while comparing, everything about B.
#[function_component(CompareSection)]
pub fn compare_section(p: &CompareSectionProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let on = p.b.is_some();
    let act = |a: fn() -> CompareAction| p.onaction.reform(move |_: MouseEvent| a());
    let toggle = p.onaction.reform(move |_: MouseEvent| CompareAction::Compare(!on));
    html! {
        <section class="compare" aria-label={tr(lang, "ui.compare")} data-tour="compare">
            <div class="compare-head">
                <button onclick={toggle} aria-pressed={on.to_string()}>{ tr(lang, if on { "ui.compare.stop" } else { "ui.compare.start" }) }</button>
                <button onclick={act(|| CompareAction::Classic)}>{tr(lang, "ui.compare.classic")}</button>
            </div>
            if let Some(b) = &p.b {
                { side_b_controls(lang, b, &p.onaction) }
                { deltas(lang, &p.a, b, p.nodes) }
                <h3 class="compare-side">{format!("A (Kubernetes 1.{})", p.a.settings.minor)}</h3>
                <Timeline lanes={p.a.lanes.clone()} duration={p.a.cfg.duration.max(b.cfg.duration)} now={p.now} onseek={p.onseek.clone()} />
                <h3 class="compare-side">{format!("B (Kubernetes 1.{})", b.settings.minor)}</h3>
                <Timeline lanes={b.lanes.clone()} duration={p.a.cfg.duration.max(b.cfg.duration)} now={p.now} onseek={p.onseek.clone()} />
                <h3 class="compare-side">{tr(lang, "ui.seeds_title")}</h3>
                <Seeds spreads={p.spreads.as_ref().map(|s| same_origin(s, &p.a, b))} running={p.running} onrun={p.onaction.reform(|()| CompareAction::RunSpreads)} />
            }
        </section>
    }
}

/// Both sides' spreads counted from the table's origin.
fn same_origin(s: &Spreads, a: &Run, b: &Run) -> Spreads {
    let origin = origin(a, b);
    if [a, b].iter().all(|r| r.milestones.fault.unwrap_or(0) == origin.at()) {
        return s.clone();
    }
    let b_side = s.1.as_ref().map(|d| from_origin(d, b.milestones.fault, origin));
    Rc::new((from_origin(&s.0, a.milestones.fault, origin), b_side))
}

/// B's own version and preset, the copy and swap buttons, and B's control panel: every control
/// side A has, for B's settings.
fn side_b_controls(lang: Lang, b: &Run, onaction: &Callback<CompareAction>) -> Html {
    let onedit = onaction.reform(CompareAction::EditB);
    let side = KnobSide {
        settings: &b.settings,
        cfg: &b.cfg,
        defaults: &b.defaults,
        b: true,
    };
    let on_version = filtered(onaction, |v: String| version_edit(&v).map(CompareAction::EditB));
    let on_preset = filtered(onaction, |name: String| preset_edit(name).map(CompareAction::EditB));
    let copy = onaction.reform(|_: MouseEvent| CompareAction::CopyAToB);
    let swap = onaction.reform(|_: MouseEvent| CompareAction::Swap);
    html! {
        <div class="compare-controls">
            { Picker { name: tr(lang, "ui.b_version_label").into(), lead: "B: Kubernetes ".into(), choices: version_choices(),
                selected: b.settings.minor.to_string().into(), testid: None, onpick: on_version }.view() }
            { Picker { name: tr(lang, "ui.b_preset_label").into(), lead: tr(lang, "ui.b_preset").into(), choices: preset_choices(lang, "ui.choose"),
                selected: AttrValue::default(), testid: None, onpick: on_preset }.view() }
            <button onclick={copy}>{tr(lang, "ui.copy_a_to_b")}</button>
            <button onclick={swap}>{tr(lang, "ui.swap")}</button>
            <h3 class="compare-side">{tr(lang, "ui.compare.b_settings")}</h3>
            <div class="compare-knobs" data-testid="compare-b-controls">
                { control_groups(lang, &side, &onedit) }
            </div>
        </div>
    }
}

/// The delta table between side A (`a`) and side B, write rates for `nodes` nodes.
fn deltas(lang: Lang, a: &Run, b: &Run, nodes: u32) -> Html {
    let origin = origin(a, b);
    let rows = delta_rows(lang, a, b, origin, nodes);
    html! { <>
        <p class="compare-origin" data-testid="compare-origin">{origin.text(lang)}</p>
        <table class="compare-deltas" data-testid="compare-deltas">
            <thead><tr><th><span class="visually-hidden">{tr(lang, "ui.compare.milestone")}</span></th><th>{"A"}</th><th>{"B"}</th><th>{"B − A"}</th></tr></thead>
            <tbody>
            { for rows.into_iter().map(|(id, name, a, b, d)| html! {
                <tr data-row={id}><th>{name}</th><td>{a}</td><td>{b}</td><td class="compare-delta">{d}</td></tr>
            }) }
            </tbody>
        </table>
    </> }
}
