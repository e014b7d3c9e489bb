//! Where the cluster runs and what repairs its nodes: the provider ("Where does it run?": bare
//! metal or kubeadm with no cloud controller, AWS, GCP, Azure), the remediator ("What repairs
//! nodes?") and its main settings. A remediator that runs on certain clouds only moves the
//! cluster there, and one that cannot run where the cluster moves is turned off; a line says so.

use crate::components::filtered;
use crate::i18n::{lookup, tr, trf, Lang};
use crate::model::Edit;
use crate::settings::{
    cloud_choices, cloud_durations, duration_step_ms, further_range, further_value, read_on, Field, Remediator,
    Settings, Switch, PROVIDERS, SNR_STRATEGIES,
};
use kubelife_engine::scenario::cloud::Provider;
use kubelife_engine::settings::{Setting, Unit};
use kubelife_engine::time::format_go_duration_tenths;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Properties of [`CloudPanel`].
#[derive(Properties, PartialEq, Clone)]
pub struct CloudPanelProps {
    /// What the user set.
    pub settings: Settings,
    /// Called with each change.
    pub onedit: Callback<Edit>,
}

/// What the last choice changed besides itself.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Note {
    /// The remediator moved the cluster to this cloud.
    Moved(Remediator, Provider),
    /// The cloud chosen turned this remediator off.
    Dropped(Remediator),
}

fn remediator_label(lang: Lang, r: Remediator) -> &'static str {
    Remediator::ALL.iter().find(|x| x.0 == r).map_or("", |x| tr(lang, x.1))
}

fn provider_label(lang: Lang, p: Provider) -> &'static str {
    PROVIDERS.iter().find(|x| x.0 == p).map_or("", |x| tr(lang, x.2))
}

/// The panel.
#[function_component(CloudPanel)]
pub fn cloud_panel(p: &CloudPanelProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let note = use_state(|| None::<Note>);
    let s = &p.settings;
    // The provider's choice is 0 for none, else its index in PROVIDERS + 1.
    let on_cloud = {
        let (note, s) = (note.clone(), s.clone());
        filtered(&p.onedit, move |e: Event| {
            let v = e
                .target_unchecked_into::<HtmlSelectElement>()
                .value()
                .parse::<u32>()
                .ok()?;
            let cloud = v.checked_sub(1).and_then(|i| PROVIDERS.get(i as usize)).map(|x| x.0);
            note.set(s.clone().set_cloud(cloud).map(Note::Dropped));
            Some(Edit::Number(Field::Cloud, v))
        })
    };
    let on_repair = {
        let (note, s) = (note.clone(), s.clone());
        filtered(&p.onedit, move |e: Event| {
            let v = e
                .target_unchecked_into::<HtmlSelectElement>()
                .value()
                .parse::<u32>()
                .ok()?;
            let kind = Remediator::ALL.get(v as usize)?.0;
            note.set(s.clone().set_remediator(kind).map(|to| Note::Moved(kind, to)));
            Some(Edit::Number(Field::Remediator, v))
        })
    };
    let cloud_pick = s
        .cloud
        .and_then(|c| PROVIDERS.iter().position(|x| x.0 == c))
        .map_or(0, |i| i + 1);
    let said = (*note).map(|n| match n {
        Note::Moved(r, to) => trf(
            lang,
            "ui.repair.moved",
            &[
                ("remediator", &remediator_label(lang, r)),
                ("cloud", &provider_label(lang, to)),
            ],
        ),
        Note::Dropped(r) => trf(lang, "ui.repair.dropped", &[("remediator", &remediator_label(lang, r))]),
    });
    html! {
        <fieldset class="cloud" data-tour="cloud">
            <legend class="cloud-title">{tr(lang, "ui.cloud")}</legend>
            <label class="cloud-field">{tr(lang, "ui.cloud.where")}
                <select data-testid="cloud-provider" onchange={on_cloud}>
                    <option value="0" selected={cloud_pick == 0}>{tr(lang, "ui.cloud.none")}</option>
                    { for PROVIDERS.iter().enumerate().map(|(i, &(_, _, key))| html! {
                        <option value={(i + 1).to_string()} selected={cloud_pick == i + 1}>{tr(lang, key)}</option>
                    }) }
                </select></label>
            { cloud_duration_fields(lang, s, &p.onedit) }
            { cloud_choice_fields(lang, s, &p.onedit) }
            <label class="cloud-field">{tr(lang, "ui.repair.what")}
                <select data-testid="cloud-remediator" onchange={on_repair}>
                    { for Remediator::ALL.iter().enumerate().map(|(i, &(r, key))| html! {
                        <option value={i.to_string()} selected={r == s.remediation.kind}>{tr(lang, key)}</option>
                    }) }
                </select></label>
            <p class="cloud-note" role="status" data-testid="cloud-note">{said.unwrap_or_default()}</p>
            { remediator_fields(lang, s, &p.onedit) }
        </fieldset>
    }
}

/// The cloud's durations it reads, from the settings table: a slider each, showing the Go
/// duration (`data-testid="cloud-node-boot-duration"`, after the link parameter).
fn cloud_duration_fields(lang: Lang, s: &Settings, onedit: &Callback<Edit>) -> Html {
    if s.cloud.is_none() {
        return html! {};
    }
    let field = |d: &'static Setting| {
        let (lo, hi) = ((d.range.0 * 1000.0) as u32, (d.range.1 * 1000.0) as u32);
        let ms = s.cloud_duration_ms(d);
        let label = lookup(lang, &format!("ui.cloud.span.{}", d.name)).unwrap_or(d.name);
        let range = [lo, hi, duration_step_ms(d)];
        let shown = format_go_duration_tenths(ms);
        let input = on_number(onedit, Field::CloudDuration(d.name), range);
        slider(label, format!("cloud-{}", d.link), shown, range, ms.to_string(), input)
    };
    html! { <>{ for cloud_durations().filter(|d| read_on(d, s.cloud)).map(field) }</> }
}

/// The cloud's choices it reads, from the settings table: a list each, of the names the
/// scenario writes (AWS's EKS managed node group: `none`, `ON_DEMAND`, `SPOT`;
/// `data-testid="cloud-managed-node-group"`, after the link parameter).
fn cloud_choice_fields(lang: Lang, s: &Settings, onedit: &Callback<Edit>) -> Html {
    if s.cloud.is_none() {
        return html! {};
    }
    let field = |d: &'static Setting| {
        let Unit::Choice(names) = d.unit else {
            return html! {};
        };
        let picked = s.cloud_choice_index(d);
        let label = lookup(lang, &format!("ui.cloud.choice.{}", d.name)).unwrap_or(d.name);
        let on_pick = filtered(onedit, move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            let i = names.iter().position(|x| *x == v)? as u32;
            Some(Edit::Number(Field::CloudChoice(d.name), i))
        });
        html! {
            <label class="cloud-field">{label}
                <select data-testid={format!("cloud-{}", d.link)} onchange={on_pick}>
                    { for names.iter().enumerate().map(|(i, name)| html! {
                        <option value={*name} selected={i as i64 == picked}>{*name}</option>
                    }) }
                </select></label>
        }
    };
    html! { <>{ for cloud_choices().filter(|d| read_on(d, s.cloud)).map(field) }</> }
}

/// The remediator's further settings in the settings table, a slider each: a span as a Go
/// duration, Cluster API's version as `1.x`, "computed" where the model computes the default
/// (`data-testid="cloud-node-startup-timeout"`, after the link parameter).
fn further_fields(lang: Lang, s: &Settings, onedit: &Callback<Edit>) -> Html {
    let field = |d: &'static Setting| {
        let (lo, hi) = further_range(d);
        let (lo, hi) = (lo as u32, hi as u32);
        let value = s.further_or_default(d);
        let shown = match value {
            Some(ms) if d.unit == Unit::Duration => format_go_duration_tenths(ms),
            Some(n) => d.text(further_value(d, n)),
            None => tr(lang, "ui.repair.computed").to_string(),
        };
        let step = if d.unit == Unit::Duration {
            duration_step_ms(d)
        } else {
            1
        };
        let label = lookup(lang, &format!("ui.repair.setting.{}", d.name)).unwrap_or(d.name);
        let range = [lo, hi, step];
        let input = on_number(onedit, Field::RemediatorSetting(d.link), range);
        let value = value.unwrap_or(i64::from(lo)).to_string();
        slider(label, format!("cloud-{}", d.link), shown, range, value, input)
    };
    html! { <>{ for s.remediation.kind.further().map(field) }</> }
}

/// A slider's input: its whole number, kept within the slider's `[min, max, _]`, as `field`.
fn on_number(onedit: &Callback<Edit>, field: Field, [min, max, _]: [u32; 3]) -> Callback<InputEvent> {
    filtered(onedit, move |e: InputEvent| {
        let v = e
            .target_unchecked_into::<HtmlInputElement>()
            .value()
            .parse::<u32>()
            .ok()?;
        Some(Edit::Number(field, v.clamp(min, max)))
    })
}

/// A slider of the panel labelled `label`, the value `shown` beside it, over `[min, max, step]`
/// at `value`; `testid` is its `data-testid`.
fn slider(
    label: &'static str,
    testid: String,
    shown: String,
    [min, max, step]: [u32; 3],
    value: String,
    oninput: Callback<InputEvent>,
) -> Html {
    html! {
        <label class="cloud-range" data-testid={testid}>{label}{" "}<strong>{shown}</strong>
            <input type="range" min={min.to_string()} max={max.to_string()} step={step.to_string()} {value} aria-label={label} {oninput} /></label>
    }
}

/// The remediator's own settings: its unhealthy timeout, MachineHealthCheck's `maxUnhealthy`,
/// EKS's breaker (`maxUnhealthyPercentage`), Self Node Remediation's `minHealthy` and strategy,
/// Karpenter's `nodeRepair`.
fn remediator_fields(lang: Lang, s: &Settings, onedit: &Callback<Edit>) -> Html {
    let r = &s.remediation;
    let timeout = r.kind.timeout().zip(r.timeout_or_default()).map(|((_, min, max), t)| {
        let range = [min, max, 30];
        let input = on_number(onedit, Field::RemediationTimeout, range);
        let shown = format_go_duration_tenths(i64::from(t) * 1000);
        let label = tr(lang, "ui.repair.timeout");
        slider(label, "cloud-timeout".to_string(), shown, range, t.to_string(), input)
    });
    // The breakers' ranges are the settings table's.
    let range = |link: &str| {
        r.kind
            .setting(link)
            .map_or((0, 0), |d| (d.range.0 as u32, d.range.1 as u32))
    };
    // MachineHealthCheck's maxUnhealthy, EKS's breaker, Self Node Remediation's minHealthy.
    let max_key = if r.kind == Remediator::Eks {
        "ui.repair.eks_breaker"
    } else {
        "ui.repair.max_unhealthy"
    };
    let percent = |key: &'static str, testid: &str, field: Field, (min, max): (u32, u32), step: u32, p: u32| {
        let range = [min, max, step];
        let input = on_number(onedit, field, range);
        slider(
            tr(lang, key),
            testid.to_string(),
            format!("{p}%"),
            range,
            p.to_string(),
            input,
        )
    };
    let max = r.max_unhealthy_or_default().map(|p| {
        let (key, field) = (max_key, Field::MaxUnhealthy);
        percent(key, "cloud-max-unhealthy", field, range("max-unhealthy"), 5, p)
    });
    let min = r.min_healthy_or_default().map(|p| {
        let (key, field) = ("ui.repair.min_healthy", Field::MinHealthy);
        percent(key, "cloud-min-healthy", field, range("min-healthy"), 1, p)
    });
    let on_strategy = filtered(onedit, |e: Event| {
        let v = e.target_unchecked_into::<HtmlSelectElement>().value();
        let i = SNR_STRATEGIES.iter().position(|x| *x == v)? as u32;
        Some(Edit::Number(Field::Strategy, i))
    });
    let on_repair = filtered(onedit, |e: Event| {
        let on = e.target_unchecked_into::<HtmlInputElement>().checked();
        Some(Edit::Switch(Switch::NodeRepair, on))
    });
    let on_queue = filtered(onedit, |e: Event| {
        let on = e.target_unchecked_into::<HtmlInputElement>().checked();
        Some(Edit::Switch(Switch::InterruptionQueue, on))
    });
    let strategy = r.strategy.unwrap_or(0) as usize;
    html! { <>
        { for timeout }
        { for max }
        { for min }
        if r.kind == Remediator::Snr {
            <label class="cloud-field">{tr(lang, "ui.repair.strategy")}
                <select data-testid="cloud-strategy" onchange={on_strategy}>
                    { for SNR_STRATEGIES.iter().enumerate().map(|(i, name)| html! { <option value={*name} selected={i == strategy}>{*name}</option> }) }
                </select></label>
        }
        { further_fields(lang, s, onedit) }
        if r.kind == Remediator::Karpenter {
            <label class="cloud-field"><input type="checkbox" data-testid="cloud-node-repair" checked={!r.node_repair_off} onchange={on_repair} />{" "}{tr(lang, "ui.repair.node_repair")}</label>
            <label class="cloud-field"><input type="checkbox" data-testid="cloud-interruption-queue" checked={r.interruption_queue} onchange={on_queue} />{" "}{tr(lang, "ui.repair.interruption_queue")}</label>
        }
    </> }
}
