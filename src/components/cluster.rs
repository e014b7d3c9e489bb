//! Nodes as cards grouped by zone, pods as chips on them. States read as text and shape, not
//! only colour.

use crate::i18n::{tr, trf, Lang};
use crate::replay::ClusterView;
use kubelife_engine::time::format_go_duration_tenths;
use kubelife_engine::Millis;
use yew::prelude::*;

/// Properties of [`Cluster`].
#[derive(Properties, PartialEq, Clone)]
pub struct ClusterProps {
    /// The cluster at the playhead.
    pub view: ClusterView,
    /// The playhead, ms.
    pub now: Millis,
    /// `--node-monitor-grace-period`, ms, for the heartbeat gauge.
    pub grace: Millis,
    /// Each zone's state at the playhead (`Normal`, `PartialDisruption`, `FullDisruption`).
    pub zone_states: Vec<(String, String)>,
}

fn glyph(phase: &str) -> &'static str {
    match phase {
        "Running" => "●",
        "NotReady" => "◐",
        "Terminating" => "✕",
        _ => "○",
    }
}

/// The cluster view.
#[function_component(Cluster)]
pub fn cluster(p: &ClusterProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let mut zones: Vec<String> = p.view.nodes.iter().map(|n| n.zone.clone()).collect();
    zones.dedup();
    kubelife_engine::order::sort(&mut zones);
    zones.dedup();
    html! {
        <div class="cluster" aria-label={tr(lang, "ui.cluster.label")}>
            { for zones.iter().map(|z| html! {
                <section class="cluster-zone">
                    <h3 class="cluster-zone-name">{ if z.is_empty() { tr(lang, "ui.cluster.no_zone").to_string() } else { z.clone() } }
                        if let Some((_, state)) = p.zone_states.iter().find(|(name, _)| name == z) {
                            <span class="cluster-zone-state" data-testid={format!("zone-state-{z}")}>{state.clone()}</span>
                        }
                    </h3>
                    <div class="cluster-nodes">
                    { for p.view.nodes.iter().filter(|n| &n.zone == z).map(|n| {
                        let age = n.last_heartbeat.map(|h| (p.now - h).max(0));
                        let ratio = age.map_or(0.0, |a| (a as f64 / p.grace.max(1) as f64).min(1.0));
                        html! {
                            <article class={format!("cluster-node cluster-node-{}", n.ready.to_ascii_lowercase())} data-node={n.name.clone()}>
                                <header class="cluster-node-head">
                                    <strong>{n.name.clone()}</strong>
                                    <span class="cluster-ready" data-testid={format!("node-state-{}", n.name)}>{n.ready}</span>
                                </header>
                                if let Some(f) = &n.fault { <div class="cluster-fault">{"⚠ "}{f.clone()}</div> }
                                if let Some(a) = age {
                                    <div class="cluster-lease" title={tr(lang, "ui.cluster.heartbeat_title")}>
                                        <span>{trf(lang, "ui.cluster.heartbeat_ago", &[("ago", &format_go_duration_tenths(a))])}</span>
                                        <meter min="0" max="1" low="0.5" high="0.9" optimum="0" value={ratio.to_string()}></meter>
                                    </div>
                                }
                                <div class="cluster-taints">{ for n.taints.iter().map(|t| html!{ <span class="cluster-chip cluster-taint">{t.clone()}</span> }) }</div>
                                <div class="cluster-pods">
                                { for p.view.pods.iter().filter(|pod| pod.node.as_deref() == Some(n.name.as_str())).map(|pod| html! {
                                    <span class={format!("cluster-chip cluster-pod-{}", pod.phase.to_ascii_lowercase())} title={format!("{} {}", pod.name, pod.phase)}>
                                        {glyph(pod.phase)}{" "}{pod.name.clone()}<small>{" "}{pod.phase}</small>
                                    </span>
                                }) }
                                </div>
                            </article>
                        }
                    }) }
                    </div>
                </section>
            }) }
            { for p.view.pods.iter().filter(|pod| pod.node.is_none()).map(|pod| html! {
                <span class="cluster-chip cluster-pod-pending">{"○ "}{pod.name.clone()}<small>{" Pending"}</small></span>
            }) }
        </div>
    }
}
