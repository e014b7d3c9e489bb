//! The fault panel: which node fails, how, when it starts and ends, how many fail together, a
//! zone outage (every node of one zone losing power, from a start to an optional end), and the
//! operator's actions (out-of-service taint, controller restart, latency spike, toleration patch).

use crate::components::filtered;
use crate::i18n::{tr, Lang};
use crate::model::Edit;
use crate::settings::{LatencySpike, Settings, TolerationPatch, ZoneOutage, MAX_NOTICE_SECONDS, MAX_OP_SECONDS};
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
    let on_node = filtered(onedit, move |e: Event| {
        let v = if listed {
            e.target_unchecked_into::<HtmlSelectElement>().value()
        } else {
            e.target_unchecked_into::<HtmlInputElement>().value()
        };
        let v = v.trim().parse::<u32>().ok()?;
        let index = if listed { v } else { v.clamp(1, nodes.max(1)) - 1 };
        Some(Edit::Number(|s, v| s.fault.node = v, index))
    });
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
            return Some(Edit::Number(|s, _| s.fault.count = 0, 0));
        }
        let i = KINDS.iter().position(|(_, v, _)| *v == picked)?;
        Some(Edit::Number(
            |s, i| {
                s.fault.kind = KINDS[i as usize].0;
                s.fault.count = s.fault.count.max(1);
            },
            i as u32,
        ))
    });
    let count = if f.count == 0 {
        tr(lang, "ui.fault.none").to_string()
    } else {
        f.count.to_string()
    };
    let recover = f
        .recover_at_seconds
        .map_or_else(|| tr(lang, "ui.never").to_string(), secs);
    html! { <>
        if listed {
            <label class="faults-field">{tr(lang, "ui.fault.node")}<select aria-label={tr(lang, "ui.fault.node_label")} onchange={on_node}>
                { for (0..nodes).map(|i| html!{ <option value={i.to_string()} selected={i == f.node}>{format!("node-{}", i + 1)}</option> }) }
            </select></label>
        } else {
            <label class="faults-field">{tr(lang, "ui.fault.node")}{"node-"}<input type="number" min="1" max={nodes.to_string()} value={(f.node + 1).to_string()}
                aria-label={tr(lang, "ui.fault.node_label")} onchange={on_node} /></label>
        }
        <label class="faults-field">{tr(lang, "ui.fault.kind")}<select aria-label={tr(lang, "ui.fault.kind_label")} onchange={on_kind}>
            <option value={NONE} selected={f.count == 0}>{tr(lang, "ui.fault.none")}</option>
            { for KINDS.iter().map(|&(k, v, l)| html!{ <option value={v} selected={f.count > 0 && k == f.kind}>{tr(lang, l)}</option> }) }
        </select></label>
        { range(lang, Range { key: "ui.fault.at", testid: "fault-at", value: f.at_seconds, max: 600, step: 5, shown: secs(f.at_seconds) },
            onedit, |s, v| s.fault.at_seconds = v) }
        { range(lang, Range { key: "ui.fault.recover", testid: "fault-recover", value: f.recover_at_seconds.unwrap_or(0), max: 900, step: 5, shown: recover },
            onedit, |s, v| s.fault.recover_at_seconds = (v > 0).then_some(v)) }
        { range(lang, Range { key: "ui.fault.count", testid: "fault-count", value: f.count, max: nodes.max(1), step: 1, shown: count },
            onedit, |s, v| s.fault.count = v) }
        if f.count > 0 && f.kind == ActionKind::SpotInterruption {
            { range(lang, Range { key: "ui.fault.notice", testid: "fault-notice", value: s.spot_notice_seconds(), max: MAX_NOTICE_SECONDS, step: 5,
                shown: secs(s.spot_notice_seconds()) }, onedit, |s, v| s.fault.notice_seconds = Some(v)) }
        }
    </> }
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
        Some(Edit::Number(
            |s, v| {
                s.zone_outage = v.checked_sub(1).map(|zone| ZoneOutage {
                    zone,
                    ..s.zone_outage.unwrap_or(ZoneOutage {
                        zone,
                        at_seconds: 120,
                        end_seconds: None,
                    })
                })
            },
            v,
        ))
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
                onedit, |s, v| if let Some(z) = s.zone_outage.as_mut() { z.at_seconds = v; z.end_seconds = z.end_seconds.map(|e| e.max(v)) }) }
            { range(lang, Range { key: "ui.outage.end", testid: "outage-end", value: z.end_seconds.unwrap_or(0), max: MAX_OP_SECONDS, step: 10,
                shown: z.end_seconds.map_or_else(|| tr(lang, "ui.never").to_string(), secs) },
                onedit, |s, v| if let Some(z) = s.zone_outage.as_mut() { z.end_seconds = (v > 0).then(|| v.max(z.at_seconds)) }) }
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
        { range(lang, Range { key: "ui.ops.out_of_service", testid: "ops-out-of-service", value: o.out_of_service_at_seconds.unwrap_or(0),
            max: 900, step: 5, shown: secs_or_off(lang, o.out_of_service_at_seconds) },
            onedit, |s, v| s.ops.out_of_service_at_seconds = (v > 0).then_some(v)) }
        { range(lang, Range { key: "ui.ops.force_delete_db", testid: "ops-force-delete-db", value: o.force_delete_db_at_seconds.unwrap_or(0),
            max: 900, step: 5, shown: secs_or_off(lang, o.force_delete_db_at_seconds) },
            onedit, |s, v| s.ops.force_delete_db_at_seconds = (v > 0).then_some(v)) }
        { range(lang, Range { key: "ui.ops.kcm_restart", testid: "ops-kcm-restart", value: o.kcm_restart_at_seconds.unwrap_or(0),
            max: 900, step: 5, shown: secs_or_off(lang, o.kcm_restart_at_seconds) },
            onedit, |s, v| s.ops.kcm_restart_at_seconds = (v > 0).then_some(v)) }
        { range(lang, Range { key: "ui.ops.latency_ms", testid: "ops-latency-ms", value: spike.map_or(0, |l| l.ms), max: 5000, step: 100, shown: spike_ms },
            onedit, |s, v| s.ops.latency = (v > 0).then(|| LatencySpike { ms: v, ..s.ops.latency.unwrap_or(LatencySpike { from_seconds: 120, until_seconds: 300, ms: v }) })) }
        if let Some(l) = spike {
            { range(lang, Range { key: "ui.ops.latency_from", testid: "ops-latency-from", value: l.from_seconds, max: 900, step: 5, shown: secs(l.from_seconds) },
                onedit, |s, v| if let Some(l) = s.ops.latency.as_mut() { l.from_seconds = v }) }
            { range(lang, Range { key: "ui.ops.latency_until", testid: "ops-latency-until", value: l.until_seconds, max: 900, step: 5, shown: secs(l.until_seconds) },
                onedit, |s, v| if let Some(l) = s.ops.latency.as_mut() { l.until_seconds = v }) }
        }
        { range(lang, Range { key: "ui.ops.patch_seconds", testid: "ops-patch-seconds", value: patch.map_or(0, |p| p.seconds), max: 3600, step: 60, shown: patch_to },
            onedit, |s, v| s.ops.toleration_patch = (v > 0).then(|| TolerationPatch { seconds: v, at_seconds: s.ops.toleration_patch.map_or(200, |p| p.at_seconds) })) }
        if let Some(p) = patch {
            { range(lang, Range { key: "ui.ops.patch_at", testid: "ops-patch-at", value: p.at_seconds, max: 900, step: 5, shown: secs(p.at_seconds) },
                onedit, |s, v| if let Some(p) = s.ops.toleration_patch.as_mut() { p.at_seconds = v }) }
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

/// A labelled range input whose value goes through `set`.
fn range(lang: Lang, r: Range, onedit: &Callback<Edit>, set: fn(&mut Settings, u32)) -> Html {
    let max = r.max;
    let oninput = filtered(onedit, move |e: InputEvent| {
        let v = e
            .target_unchecked_into::<HtmlInputElement>()
            .value()
            .parse::<u32>()
            .ok()?;
        Some(Edit::Number(set, v.min(max)))
    });
    html! {
        <label class="faults-range" data-testid={r.testid}>{tr(lang, r.key)}{" "}<strong>{r.shown}</strong>
            <input type="range" min="0" max={r.max.to_string()} step={r.step.to_string()} value={r.value.to_string()} aria-label={tr(lang, r.key)} {oninput} /></label>
    }
}
