//! The control panel: every knob grouped by component (kubelet, kube-controller-manager,
//! kube-apiserver, workloads, cluster), the switches, and the cluster's counts. What a version
//! offers is the engine's flag catalogue's to say; the panel only asks.

use crate::components::filtered;
use crate::components::slider::{knob_slider, KnobSide};
use crate::i18n::{tr, Lang};
use crate::knobs::{flag_text, not_in, Group, KNOBS};
use crate::model::Edit;
use crate::settings::{
    PdbChoice, Settings, Toggle, VolumeChoice, WorkloadExtras, PAGE_MAX_DB, PAGE_MAX_NODES, PAGE_MAX_WEB, TOGGLES,
    ZONES,
};
use kubelife_engine::{Config, Version};
use std::rc::Rc;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Properties of [`ControlPanel`].
#[derive(Properties, PartialEq, Clone)]
pub struct ControlPanelProps {
    /// What the user set.
    pub settings: Settings,
    /// The resolved configuration.
    pub cfg: Rc<Config>,
    /// The version's defaults.
    pub defaults: Rc<Config>,
    /// Called with each change.
    pub onedit: Callback<Edit>,
}

/// The groups of controls, each a disclosure (the cluster group starts closed).
#[function_component(ControlPanel)]
pub fn control_panel(p: &ControlPanelProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let side = KnobSide {
        settings: &p.settings,
        cfg: &p.cfg,
        defaults: &p.defaults,
        b: false,
    };
    html! {
        { for Group::ALL.iter().map(|&g| html! {
            <details open={g != Group::Cluster} class="controls-group" data-tour={format!("group-{}", g.slug())}>
                <summary class="controls-title">{g.title(lang)}</summary>
                { for KNOBS.iter().filter(|k| k.group == g).map(|k| knob_slider(lang, k, &side, &p.onedit)) }
                { extras(lang, g, &p.settings, &p.onedit) }
            </details>
        }) }
    }
}

/// What a group holds beside its knobs: toggles and counts.
fn extras(lang: Lang, g: Group, s: &Settings, onedit: &Callback<Edit>) -> Html {
    let toggles = html! {
        { for TOGGLES.iter().filter(|t| t.group == g).map(|t| toggle(lang, s, t, onedit)) }
    };
    let counts = match g {
        Group::Workloads => html! { <>
            { count(lang, Count { key: "ui.count.web", value: s.web_replicas, min: 0, max: PAGE_MAX_WEB, set: |s, v| s.web_replicas = v }, onedit) }
            { workload_extras(lang, &WEB, s.web, onedit) }
            { count(lang, Count { key: "ui.count.db", value: s.db_replicas, min: 0, max: PAGE_MAX_DB, set: |s, v| s.db_replicas = v }, onedit) }
            { workload_extras(lang, &DB, s.db, onedit) }
        </> },
        Group::Cluster => html! { <>
            { count(lang, Count { key: "ui.count.nodes", value: s.nodes, min: 1, max: PAGE_MAX_NODES, set: |s, v| s.nodes = v }, onedit) }
            { count(lang, Count { key: "ui.count.zones", value: s.zones, min: 1, max: ZONES.len() as u32, set: Settings::set_zones }, onedit) }
            { count(lang, Count { key: "ui.count.seed", value: s.seed as u32, min: 1, max: 1000, set: |s, v| s.seed = u64::from(v) }, onedit) }
        </> },
        _ => html! {},
    };
    html! { <>{toggles}{counts}</> }
}

/// Where a workload's Service, volume and budget are stored.
struct ExtrasOf {
    /// Its name, as in `data-testid="web-volume"`.
    name: &'static str,
    service: fn(&mut Settings, bool),
    volume: fn(&mut Settings, u32),
    pdb_kind: fn(&mut Settings, u32),
    pdb_n: fn(&mut Settings, u32),
}

/// The PodDisruptionBudget a kind index (0 none, 1 minAvailable, 2 maxUnavailable) and a count
/// stand for.
fn pdb(kind: u32, n: u32) -> PdbChoice {
    match kind {
        1 => PdbChoice::MinAvailable(n),
        2 => PdbChoice::MaxUnavailable(n),
        _ => PdbChoice::None,
    }
}

/// The budget's count, or 1 where there is none yet.
fn pdb_count(p: PdbChoice) -> u32 {
    match p {
        PdbChoice::MinAvailable(n) | PdbChoice::MaxUnavailable(n) => n,
        PdbChoice::None => 1,
    }
}

fn pdb_kind(p: PdbChoice) -> u32 {
    match p {
        PdbChoice::None => 0,
        PdbChoice::MinAvailable(_) => 1,
        PdbChoice::MaxUnavailable(_) => 2,
    }
}

fn volume_of(i: u32) -> VolumeChoice {
    VolumeChoice::ALL.get(i as usize).map_or(VolumeChoice::None, |c| c.0)
}

const WEB: ExtrasOf = ExtrasOf {
    name: "web",
    service: |s, v| s.web.service = v,
    volume: |s, i| s.web.volume = volume_of(i),
    pdb_kind: |s, k| s.web.pdb = pdb(k, pdb_count(s.web.pdb)),
    pdb_n: |s, n| s.web.pdb = pdb(pdb_kind(s.web.pdb), n),
};

const DB: ExtrasOf = ExtrasOf {
    name: "db",
    service: |s, v| s.db.service = v,
    volume: |s, i| s.db.volume = volume_of(i),
    pdb_kind: |s, k| s.db.pdb = pdb(k, pdb_count(s.db.pdb)),
    pdb_n: |s, n| s.db.pdb = pdb(pdb_kind(s.db.pdb), n),
};

/// A workload's Service switch, volume and PodDisruptionBudget.
fn workload_extras(lang: Lang, of: &ExtrasOf, x: WorkloadExtras, onedit: &Callback<Edit>) -> Html {
    let (service, volume, kind, n) = (of.service, of.volume, of.pdb_kind, of.pdb_n);
    let index = |e: &Event| {
        e.target_unchecked_into::<HtmlSelectElement>()
            .value()
            .parse::<u32>()
            .ok()
    };
    let on_service =
        onedit.reform(move |e: Event| Edit::Switch(service, e.target_unchecked_into::<HtmlInputElement>().checked()));
    let on_volume = filtered(onedit, move |e: Event| Some(Edit::Number(volume, index(&e)?)));
    let on_kind = filtered(onedit, move |e: Event| Some(Edit::Number(kind, index(&e)?)));
    let on_n = filtered(onedit, move |e: Event| {
        let v = e
            .target_unchecked_into::<HtmlInputElement>()
            .value()
            .trim()
            .parse::<u32>()
            .ok()?;
        Some(Edit::Number(n, v.min(30)))
    });
    let id = |what: &str| format!("{}-{what}", of.name);
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
                    <option value={i.to_string()} selected={i as u32 == pdb_kind(x.pdb)}>{tr(lang, key)}</option>
                }) }
            </select></label>
            if x.pdb != PdbChoice::None {
                <input type="number" class="controls-number" min="0" max="30" value={pdb_count(x.pdb).to_string()} data-testid={id("pdb-n")}
                    aria-label={format!("{} PodDisruptionBudget", of.name)} onchange={on_n} />
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
    set: fn(&mut Settings, u32),
}

/// A count as a slider and a number field.
fn count(lang: Lang, c: Count, onedit: &Callback<Edit>) -> Html {
    let label = tr(lang, c.key);
    let Count { min, max, set, .. } = c;
    let edit = move |text: String| {
        let v = text.trim().parse::<u32>().ok()?;
        Some(Edit::Number(set, v.clamp(min, max)))
    };
    let oninput = filtered(onedit, move |e: InputEvent| {
        edit(e.target_unchecked_into::<HtmlInputElement>().value())
    });
    let onchange = filtered(onedit, move |e: Event| {
        edit(e.target_unchecked_into::<HtmlInputElement>().value())
    });
    html! {
        <div class="controls-count">
            <label>{label}{" "}<strong>{c.value}</strong></label>
            <div class="controls-row">
                <input type="range" class="controls-range" min={min.to_string()} max={max.to_string()} step="1" value={c.value.to_string()} aria-label={label} {oninput} />
                <input type="number" class="controls-number" min={min.to_string()} max={max.to_string()} value={c.value.to_string()}
                    aria-label={format!("{label} {}", tr(lang, "ui.slider.value"))} {onchange} />
            </div>
        </div>
    }
}

/// A switch as a checkbox with its flag, what it does, and why a version lacks it (the
/// catalogue's availability).
fn toggle(lang: Lang, s: &Settings, t: &Toggle, onedit: &Callback<Edit>) -> Html {
    let minor = s.minor;
    let enabled = t.def.offered(&Version { minor }.profile());
    let flag = flag_text(t.def);
    let set = t.set;
    let onchange = onedit.reform(move |e: Event| {
        let v = e.target_unchecked_into::<HtmlInputElement>().checked();
        Edit::Switch(set, v)
    });
    html! {
        <div class={if enabled { "controls-toggle" } else { "controls-toggle controls-disabled" }}>
            <label><input type="checkbox" checked={(t.get)(s)} disabled={!enabled} aria-label={flag.clone()} {onchange} />{" "}<code>{flag}</code></label>
            <p class="controls-help">{tr(lang, t.help)}</p>
            if !enabled { <p class="controls-why-disabled">{not_in(lang, minor, tr(lang, t.why))}</p> }
        </div>
    }
}
