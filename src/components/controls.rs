//! The control panel: every knob grouped by component (kubelet, kube-controller-manager,
//! kube-apiserver, workloads, cluster), the switches, and the cluster's counts. What a version
//! offers is the engine's flag catalogue's to say; the panel only asks. Compare side B shows the
//! same panel for its own settings: the same controls under the same flag names, told apart by
//! the section they are in, their ids (`b-`) and their accessible names ("B ").

use super::number::NumberField;
use crate::components::filtered;
use crate::components::slider::{knob_slider, KnobSide};
use crate::i18n::{tr, Lang};
use crate::knobs::{flag_text, not_in, Group, KNOBS};
use crate::model::Edit;
use crate::settings::{
    Field, PdbChoice, Settings, Switch, Toggle, VolumeChoice, Workload, WorkloadExtras, PAGE_MAX_DB, PAGE_MAX_NODES,
    PAGE_MAX_WEB, TOGGLES, ZONES,
};
use kubelife_engine::{Config, Version};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Properties of [`ControlPanel`].
#[derive(Properties, PartialEq, Clone)]
pub struct ControlPanelProps {
    /// What the user set.
    pub settings: Settings,
    /// The resolved configuration.
    pub cfg: super::Same<Config>,
    /// The version's defaults.
    pub defaults: super::Same<Config>,
    /// Called with each change.
    pub onedit: Callback<Edit>,
}

/// Side A's groups of controls.
#[function_component(ControlPanel)]
pub fn control_panel(p: &ControlPanelProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let side = KnobSide {
        settings: &p.settings,
        cfg: &p.cfg.0,
        defaults: &p.defaults.0,
        b: false,
    };
    control_groups(lang, &side, &p.onedit)
}

/// One side's groups of controls, each a disclosure (the cluster group starts closed); side B's
/// (in compare mode) are the same controls for its settings.
pub fn control_groups(lang: Lang, side: &KnobSide, onedit: &Callback<Edit>) -> Html {
    // The tour points at side A's groups.
    let tour = |g: Group| (!side.b).then(|| format!("group-{}", g.slug()));
    html! {
        { for Group::ALL.iter().map(|&g| html! {
            <details open={g != Group::Cluster} class="controls-group" data-tour={tour(g)}>
                <summary class="controls-title">{g.title(lang)}</summary>
                { for KNOBS.iter().filter(|k| k.group == g).map(|k| knob_slider(lang, k, side, onedit)) }
                { extras(lang, g, side, onedit) }
            </details>
        }) }
    }
}

/// What a group holds beside its knobs: toggles and counts.
fn extras(lang: Lang, g: Group, side: &KnobSide, onedit: &Callback<Edit>) -> Html {
    let (s, b) = (side.settings, side.b);
    let toggles = html! {
        { for TOGGLES.iter().filter(|t| t.group == g).map(|t| toggle(lang, s, t, b, onedit)) }
    };
    let counts = match g {
        Group::Workloads => html! { <>
            { count(lang, Count { key: "ui.count.web", value: s.web_replicas, min: 0, max: PAGE_MAX_WEB, field: Field::Replicas(Workload::Web) }, b, onedit) }
            { workload_extras(lang, Workload::Web, s.web, b, onedit) }
            { count(lang, Count { key: "ui.count.db", value: s.db_replicas, min: 0, max: PAGE_MAX_DB, field: Field::Replicas(Workload::Db) }, b, onedit) }
            { workload_extras(lang, Workload::Db, s.db, b, onedit) }
        </> },
        Group::Cluster => html! { <>
            { count(lang, Count { key: "ui.count.nodes", value: s.nodes, min: 1, max: PAGE_MAX_NODES, field: Field::Nodes }, b, onedit) }
            { count(lang, Count { key: "ui.count.zones", value: s.zones, min: 1, max: ZONES.len() as u32, field: Field::Zones }, b, onedit) }
            { count(lang, Count { key: "ui.count.seed", value: s.seed as u32, min: 1, max: 1000, field: Field::Seed }, b, onedit) }
        </> },
        _ => html! {},
    };
    html! { <>{toggles}{counts}</> }
}

/// A workload's Service switch, volume and PodDisruptionBudget (side B's test ids start with `b-`).
fn workload_extras(lang: Lang, w: Workload, x: WorkloadExtras, b: bool, onedit: &Callback<Edit>) -> Html {
    let index = |e: &Event| {
        e.target_unchecked_into::<HtmlSelectElement>()
            .value()
            .parse::<u32>()
            .ok()
    };
    let on_service = onedit.reform(move |e: Event| {
        Edit::Switch(
            Switch::Service(w),
            e.target_unchecked_into::<HtmlInputElement>().checked(),
        )
    });
    let on_volume = filtered(onedit, move |e: Event| Some(Edit::Number(Field::Volume(w), index(&e)?)));
    let on_kind = filtered(onedit, move |e: Event| {
        Some(Edit::Number(Field::PdbKind(w), index(&e)?))
    });
    let on_n = filtered(onedit, move |text: String| {
        let v = text.trim().parse::<u32>().ok()?;
        Some(Edit::Number(Field::PdbCount(w), v.min(30)))
    });
    let id = |what: &str| format!("{}{}-{what}", if b { "b-" } else { "" }, w.name());
    let pdb_names = ["ui.extras.pdb_none", "ui.extras.pdb_min", "ui.extras.pdb_max"];
    html! {
        <div class="controls-extras" data-testid={id("extras")}>
            <label><input type="checkbox" checked={x.service} data-testid={id("service")} onchange={on_service} />{" "}{tr(lang, "ui.extras.service")}</label>
            <label>{tr(lang, "ui.extras.volume")}{" "}<select data-testid={id("volume")} onchange={on_volume}>
                { for VolumeChoice::ALL.iter().enumerate().map(|(i, &(c, _, key))| html! {
                    <option value={i.to_string()} selected={c == x.volume}>{tr(lang, key)}</option>
                }) }
            </select></label>
            <label>{"PodDisruptionBudget "}<select data-testid={id("pdb")} onchange={on_kind}>
                { for pdb_names.iter().enumerate().map(|(i, key)| html! {
                    <option value={i.to_string()} selected={i as u32 == x.pdb.kind()}>{tr(lang, key)}</option>
                }) }
            </select></label>
            if x.pdb != PdbChoice::None {
                <NumberField min="0" max="30" value={x.pdb.count().to_string()} testid={id("pdb-n")}
                    label={format!("{}{} PodDisruptionBudget", side(b), w.name())} onchange={on_n} />
            }
        </div>
    }
}

/// A whole number the cluster group or the workloads group sets.
struct Count {
    key: &'static str,
    value: u32,
    min: u32,
    max: u32,
    field: Field,
}

/// The start of side B's accessible names.
fn side(b: bool) -> &'static str {
    if b {
        "B "
    } else {
        ""
    }
}

/// A count as a slider and a number field.
fn count(lang: Lang, c: Count, b: bool, onedit: &Callback<Edit>) -> Html {
    let label = tr(lang, c.key);
    let name = format!("{}{label}", side(b));
    let Count { min, max, field, .. } = c;
    let edit = move |text: String| {
        let v = text.trim().parse::<u32>().ok()?;
        Some(Edit::Number(field, v.clamp(min, max)))
    };
    let oninput = filtered(onedit, move |e: InputEvent| {
        edit(e.target_unchecked_into::<HtmlInputElement>().value())
    });
    let onchange = filtered(onedit, edit);
    html! {
        <div class="controls-count">
            <label>{label}{" "}<strong>{c.value}</strong></label>
            <div class="controls-row">
                <input type="range" class="controls-range" min={min.to_string()} max={max.to_string()} step="1" value={c.value.to_string()} aria-label={name.clone()} {oninput} />
                <NumberField min={min.to_string()} max={max.to_string()} value={c.value.to_string()}
                    label={format!("{name} {}", tr(lang, "ui.slider.value"))} {onchange} />
            </div>
        </div>
    }
}

/// A switch as a checkbox with its flag, what it does, and why a version lacks it (the
/// catalogue's availability).
fn toggle(lang: Lang, s: &Settings, t: &Toggle, b: bool, onedit: &Callback<Edit>) -> Html {
    let minor = s.minor;
    let enabled = t.def.offered(&Version { minor }.profile());
    let flag = flag_text(t.def);
    let name = t.def.name;
    let onchange = onedit.reform(move |e: Event| {
        let v = e.target_unchecked_into::<HtmlInputElement>().checked();
        Edit::Switch(Switch::Toggle(name), v)
    });
    html! {
        <div class={if enabled { "controls-toggle" } else { "controls-toggle controls-disabled" }}>
            <label><input type="checkbox" checked={(t.get)(s)} disabled={!enabled} aria-label={format!("{}{flag}", side(b))} {onchange} />{" "}<code>{flag}</code></label>
            <p class="controls-help">{tr(lang, t.help)}</p>
            if !enabled { <p class="controls-why-disabled">{not_in(lang, minor, tr(lang, t.why))}</p> }
        </div>
    }
}
