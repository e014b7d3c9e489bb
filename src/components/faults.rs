//! The fault panel: which node fails, how, when it starts and ends, how many fail together, a
//! zone outage (every node of one zone losing power, from a start to an optional end), and the
//! operator's actions (out-of-service taint, controller restart, latency spike, toleration patch).

use super::number::NumberField;
use crate::components::filtered;
use crate::i18n::{tr, Lang};
use crate::model::Edit;
use crate::settings::{Field, Settings, MAX_NOTICE_SECONDS, MAX_OP_SECONDS};
use kubelife_engine::scenario::ActionKind;
use kubelife_engine::time::format_go_duration_tenths;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Properties of [`FaultPanel`].
#[derive(Properties, PartialEq, Clone)]
pub struct FaultPanelProps {
    /// What the user set.
    pub settings: Settings,
    /// How many nodes the cluster has.
    pub nodes: u32,
    /// Called with each change.
    pub onedit: Callback<Edit>,
}

/// The panel.
#[function_component(FaultPanel)]
pub fn fault_panel(p: &FaultPanelProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    html! {
        <fieldset class="faults" data-tour="faults">
            <legend class="faults-title">{tr(lang, "ui.faults")}</legend>
            { fault_fields(lang, &p.settings, p.nodes, &p.onedit) }
            <h2 class="faults-heading">{tr(lang, "ui.outage")}</h2>
            { outage_fields(lang, &p.settings, &p.onedit) }
            <h2 class="faults-heading">{tr(lang, "ui.ops")}</h2>
            { operator_fields(lang, &p.settings, &p.onedit) }
        </fieldset>
    }
}

/// A Go duration for whole seconds.
fn secs(s: u32) -> String {
    format_go_duration_tenths(i64::from(s) * 1000)
}

/// A time in seconds, or "off".
fn secs_or_off(lang: Lang, v: Option<u32>) -> String {
    v.map_or_else(|| tr(lang, "ui.off").to_string(), secs)
}

/// The failing node, the kind of fault, and its times.
fn fault_fields(lang: Lang, s: &Settings, nodes: u32, onedit: &Callback<Edit>) -> Html {
    let f = &s.fault;
    // A list for a small cluster; a number field (node-N as N) for one of thousands.
    let listed = nodes <= LISTED_NODES;
    // The node as its list's position, or as the number typed after "node-".
    let node = move |v: String| {
        let v = v.trim().parse::<u32>().ok()?;
        let index = if listed { v } else { v.clamp(1, nodes.max(1)) - 1 };
        Some(Edit::Number(Field::FaultNode, index))
    };
    let on_node = filtered(onedit, move |e: Event| {
        node(e.target_unchecked_into::<HtmlSelectElement>().value())
    });
    let on_node_number = filtered(onedit, node);
    const KINDS: [(ActionKind, &str, &str); 8] = [
        (ActionKind::NodeCrash, "NodeCrash", "ui.fault.crash"),
        (ActionKind::KubeletStop, "KubeletStop", "ui.fault.kubelet_stop"),
        (ActionKind::NetworkPartition, "NetworkPartition", "ui.fault.partition"),
        (ActionKind::NodeShutdown, "NodeShutdown", "ui.fault.shutdown"),
        (ActionKind::Drain, "Drain", "ui.fault.drain"),
        (
            ActionKind::InstanceTerminated,
            "InstanceTerminated",
            "ui.fault.instance_terminated",
        ),
        (
            ActionKind::InstanceStopped,
            "InstanceStopped",
            "ui.fault.instance_stopped",
        ),
        (ActionKind::SpotInterruption, "SpotInterruption", "ui.fault.spot"),
    ];
    // "none" leaves no single-node fault (count 0); a kind brings one node back if there was none.
    let on_kind = filtered(onedit, |e: Event| {
        let picked = e.target_unchecked_into::<HtmlSelectElement>().value();
        if picked == NONE {
            return Some(Edit::Number(Field::FaultCount, 0));
        }
        let kind = KINDS.iter().find(|(_, v, _)| *v == picked)?.0;
        Some(Edit::FaultKind(kind))
    });
    let count = if f.count == 0 {
        tr(lang, "ui.fault.none").to_string()
    } else {
        f.count.to_string()
    };
    let recover = f
        .recover_at_seconds
        .map_or_else(|| tr(lang, "ui.fault.never").to_string(), secs);
    html! { <>
        if listed {
            <label class="faults-field">{tr(lang, "ui.fault.node")}<select aria-label={tr(lang, "ui.fault.node_label")} onchange={on_node}>
                { for (0..nodes).map(|i| html!{ <option value={i.to_string()} selected={i == f.node}>{format!("node-{}", i + 1)}</option> }) }
            </select></label>
        } else {
            <label class="faults-field">{tr(lang, "ui.fault.node")}{"node-"}<NumberField min="1" max={nodes.to_string()} value={(f.node + 1).to_string()}
                label={tr(lang, "ui.fault.node_label")} onchange={on_node_number} /></label>
        }
        <label class="faults-field">{tr(lang, "ui.fault.kind")}<select aria-label={tr(lang, "ui.fault.kind_label")} onchange={on_kind}>
            <option value={NONE} selected={f.count == 0}>{tr(lang, "ui.fault.none")}</option>
            { for KINDS.iter().map(|&(k, v, l)| html!{ <option value={v} selected={f.count > 0 && k == f.kind}>{tr(lang, crash_on_cloud(s, k).unwrap_or(l))}</option> }) }
        </select></label>
        { range(lang, Range { key: "ui.fault.at", testid: "fault-at", value: f.at_seconds, max: 600, step: 5, shown: secs(f.at_seconds) },
            onedit, Field::FaultAt) }
        { range(lang, Range { key: "ui.fault.recover", testid: "fault-recover", value: f.recover_at_seconds.unwrap_or(0), max: 900, step: 5, shown: recover },
            onedit, Field::FaultRecover) }
        { range(lang, Range { key: "ui.fault.count", testid: "fault-count", value: f.count, max: nodes.max(1), step: 1, shown: count },
            onedit, Field::FaultCount) }
        if f.count > 0 && f.kind == ActionKind::SpotInterruption {
            { range(lang, Range { key: "ui.fault.notice", testid: "fault-notice", value: s.spot_notice_seconds(), max: MAX_NOTICE_SECONDS, step: 5,
                shown: secs(s.spot_notice_seconds()) }, onedit, Field::FaultNotice) }
        }
    </> }
}

/// On a cloud a crash is a hung VM (its instance keeps running, so the cloud controller keeps
/// the Node): the label says so.
fn crash_on_cloud(s: &Settings, kind: ActionKind) -> Option<&'static str> {
    (kind == ActionKind::NodeCrash && s.cloud.is_some()).then_some("ui.fault.crash_cloud")
}

/// The fault kind choice that leaves no single-node fault.
const NONE: &str = "none";

/// The most nodes the fault's node picker lists; a larger cluster gets a number field.
const LISTED_NODES: u32 = 50;

/// The zone outage: which of the cluster's zones loses power (or none), when, and until when.
fn outage_fields(lang: Lang, s: &Settings, onedit: &Callback<Edit>) -> Html {
    let outage = s.zone_outage;
    // The choice is 0 for none, else the zone's index + 1.
    let on_zone = filtered(onedit, |e: Event| {
        let v = e
            .target_unchecked_into::<HtmlSelectElement>()
            .value()
            .parse::<u32>()
            .ok()?;
        Some(Edit::Number(Field::OutageZone, v))
    });
    let picked = outage.map_or(0, |z| z.zone + 1);
    html! { <>
        <label class="faults-field">{tr(lang, "ui.outage.zone")}{" "}<select data-testid="outage-zone" aria-label={tr(lang, "ui.outage.zone")} onchange={on_zone}>
            <option value="0" selected={picked == 0}>{tr(lang, "ui.off")}</option>
            { for s.zone_list().into_iter().enumerate().map(|(i, z)| {
                let v = i as u32 + 1;
                html!{ <option value={v.to_string()} selected={v == picked}>{z.to_string()}</option> }
            }) }
        </select></label>
        if let Some(z) = outage {
            { range(lang, Range { key: "ui.outage.at", testid: "outage-at", value: z.at_seconds, max: MAX_OP_SECONDS, step: 10, shown: secs(z.at_seconds) },
                onedit, Field::OutageAt) }
            { range(lang, Range { key: "ui.outage.end", testid: "outage-end", value: z.end_seconds.unwrap_or(0), max: MAX_OP_SECONDS, step: 10,
                shown: z.end_seconds.map_or_else(|| tr(lang, "ui.fault.never").to_string(), secs) },
                onedit, Field::OutageEnd) }
        }
    </> }
}

/// The operator's actions; a time or size of 0 turns an action off.
fn operator_fields(lang: Lang, s: &Settings, onedit: &Callback<Edit>) -> Html {
    let o = &s.ops;
    let (spike, patch) = (o.latency, o.toleration_patch);
    let spike_ms = spike.map_or_else(|| tr(lang, "ui.off").to_string(), |l| format!("{}ms", l.ms));
    let patch_to = patch.map_or_else(|| tr(lang, "ui.off").to_string(), |p| secs(p.seconds));
    html! { <>
        { typed(lang, Range { key: "ui.ops.out_of_service", testid: "ops-out-of-service", value: o.out_of_service_at_seconds.unwrap_or(0),
            max: 900, step: 1, shown: secs_or_off(lang, o.out_of_service_at_seconds) },
            onedit, Field::OutOfService) }
        { typed(lang, Range { key: "ui.ops.force_delete_db", testid: "ops-force-delete-db", value: o.force_delete_db_at_seconds.unwrap_or(0),
            max: 900, step: 1, shown: secs_or_off(lang, o.force_delete_db_at_seconds) },
            onedit, Field::ForceDeleteDb) }
        { range(lang, Range { key: "ui.ops.kcm_restart", testid: "ops-kcm-restart", value: o.kcm_restart_at_seconds.unwrap_or(0),
            max: 900, step: 5, shown: secs_or_off(lang, o.kcm_restart_at_seconds) },
            onedit, Field::KcmRestart) }
        { range(lang, Range { key: "ui.ops.latency_ms", testid: "ops-latency-ms", value: spike.map_or(0, |l| l.ms), max: 5000, step: 100, shown: spike_ms },
            onedit, Field::LatencyMs) }
        if let Some(l) = spike {
            { range(lang, Range { key: "ui.ops.latency_from", testid: "ops-latency-from", value: l.from_seconds, max: 900, step: 5, shown: secs(l.from_seconds) },
                onedit, Field::LatencyFrom) }
            { range(lang, Range { key: "ui.ops.latency_until", testid: "ops-latency-until", value: l.until_seconds, max: 900, step: 5, shown: secs(l.until_seconds) },
                onedit, Field::LatencyUntil) }
        }
        { range(lang, Range { key: "ui.ops.patch_seconds", testid: "ops-patch-seconds", value: patch.map_or(0, |p| p.seconds), max: 3600, step: 60, shown: patch_to },
            onedit, Field::PatchSeconds) }
        if let Some(p) = patch {
            { range(lang, Range { key: "ui.ops.patch_at", testid: "ops-patch-at", value: p.at_seconds, max: 900, step: 5, shown: secs(p.at_seconds) },
                onedit, Field::PatchAt) }
        }
    </> }
}

/// A slider over whole seconds (or ms), with the value as it reads.
struct Range {
    key: &'static str,
    testid: &'static str,
    value: u32,
    max: u32,
    step: u32,
    shown: String,
}

/// A labelled range input whose value sets `field`.
fn range(lang: Lang, r: Range, onedit: &Callback<Edit>, field: Field) -> Html {
    range_and_number(lang, r, onedit, field, false)
}

/// A labelled range input with a number field beside it to type the value in, as a flag's slider
/// has (`crate::components::slider`).
fn typed(lang: Lang, r: Range, onedit: &Callback<Edit>, field: Field) -> Html {
    range_and_number(lang, r, onedit, field, true)
}

/// A labelled range input, and a number field when `number`, whose value sets `field`.
fn range_and_number(lang: Lang, r: Range, onedit: &Callback<Edit>, field: Field, number: bool) -> Html {
    let max = r.max;
    let read =
        move |input: HtmlInputElement| Some(Edit::Number(field, input.value().trim().parse::<u32>().ok()?.min(max)));
    let oninput = filtered(onedit, move |e: InputEvent| read(e.target_unchecked_into()));
    let onchange = filtered(onedit, move |text: String| {
        Some(Edit::Number(field, text.trim().parse::<u32>().ok()?.min(max)))
    });
    let (label, max, step, value) = (
        tr(lang, r.key),
        r.max.to_string(),
        r.step.to_string(),
        r.value.to_string(),
    );
    html! {
        <label class="faults-range" data-testid={r.testid}>{label}{" "}<strong>{r.shown}</strong>
            <input type="range" min="0" max={max.clone()} step={step.clone()} value={value.clone()} aria-label={label} {oninput} />
            if number {
                <span class="faults-number"><NumberField min="0" {max} {step} {value}
                    label={format!("{label} {}", tr(lang, "ui.slider.value"))} {onchange} /></span>
            }
        </label>
    }
}
