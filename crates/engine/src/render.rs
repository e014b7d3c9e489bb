//! The readable timeline that `kubelife run FILE` prints.

use crate::outcome::{Outcome, TimelineEvent};
use crate::summary::Summary;
use crate::time::format_go_duration;
use crate::timeline::EventKind;
use std::fmt::Write;

/// Renders events and summary as aligned text, one event per line.
pub fn render_timeline(o: &Outcome) -> String {
    let mut out = String::new();
    let s = &o.summary;
    let _ = writeln!(
        out,
        "kubelife: Kubernetes {} · seed {} · {}",
        s.version,
        s.seed,
        format_go_duration(s.duration_ms)
    );
    for w in &o.warnings {
        let _ = writeln!(out, "warning: {w}");
    }
    render_events(&mut out, o);
    render_summary(&mut out, s);
    out
}

/// The events: the initial state in one line, then each event with its subject and its cause.
fn render_events(out: &mut String, o: &Outcome) {
    let initial = o
        .events
        .iter()
        .take_while(|e| e.at_ms == 0 && e.cause.is_initial())
        .count();
    if initial > 0 {
        let nodes = o.events[..initial]
            .iter()
            .filter(|e| e.kind == EventKind::NodeRegistered)
            .count();
        let pods = o.events[..initial]
            .iter()
            .filter(|e| e.kind == EventKind::PodCreated)
            .count();
        let _ = writeln!(
            out,
            "{:>10}  initial state: {nodes} nodes Ready, {pods} pods running",
            "0s"
        );
    }
    for e in &o.events[initial..] {
        let _ = writeln!(
            out,
            "{:>10}  {:<20}  {}",
            format_go_duration(e.at_ms),
            e.kind.to_string(),
            subject(e)
        );
        let _ = writeln!(out, "{:>10}  {:<20}  ↳ {}", "", "", e.cause);
    }
}

/// What an event is about: its node, pod, taint, Service, volume and remediator, or its zone.
fn subject(e: &TimelineEvent) -> String {
    let mut subject = String::new();
    if let Some(n) = &e.node {
        subject.push_str(n);
    }
    if let Some(p) = &e.pod {
        if !subject.is_empty() {
            subject.push(' ');
        }
        subject.push_str(p);
    }
    if let Some(t) = &e.taint {
        if !subject.is_empty() {
            subject.push(' ');
        }
        subject.push_str(t);
    }
    for (label, name) in [
        ("service", &e.service),
        ("volume", &e.volume),
        ("remediator", &e.remediator),
        ("client", &e.client),
    ] {
        if let Some(name) = name {
            if !subject.is_empty() {
                subject.push(' ');
            }
            let _ = write!(subject, "{label} {name}");
        }
    }
    if let (Some(z), Some(st)) = (&e.zone, &e.state) {
        subject = format!("zone {z:?} → {st}");
    }
    subject
}

/// The summary: API writes, then each node, workload, Service and volume.
fn render_summary(out: &mut String, s: &Summary) {
    let w = &s.api_writes;
    let _ = writeln!(
        out,
        "\nAPI writes: {} lease updates ({}/min), {} node status patches ({}/min)",
        w.lease_updates, w.lease_updates_per_minute, w.node_status_patches, w.node_status_patches_per_minute
    );
    let ms = |v: Option<i64>| v.map_or("never".to_string(), format_go_duration);
    for n in &s.nodes {
        let _ = writeln!(
            out,
            "node {}: fault {}, Unknown {}, pods NotReady {}, NoExecute taint {}, deletions {}..{}, replacements Ready {} ({} of {} deleted pods replaced)",
            n.node,
            ms(n.fault_at_ms),
            ms(n.unknown_at_ms),
            ms(n.pods_not_ready_at_ms),
            ms(n.taint_at_ms),
            ms(n.first_deletion_at_ms),
            ms(n.last_deletion_at_ms),
            ms(n.replacements_ready_at_ms),
            n.pods_replaced,
            n.pods_deleted
        );
        // Only a cloud or a remediator gives these; a run without them reads as before.
        let mut more = Vec::new();
        if let Some(t) = n.deleted_at_ms {
            more.push(format!("Node deleted {}", format_go_duration(t)));
        }
        if let Some(t) = n.remediation_at_ms {
            more.push(format!("remediation started {}", format_go_duration(t)));
        }
        if !more.is_empty() {
            let _ = writeln!(out, "node {}: {}", n.node, more.join(", "));
        }
    }
    for wl in &s.workloads {
        let _ = writeln!(
            out,
            "workload {} ({:?}): {} desired, fewer Ready for {}, at least {} Ready, {} Ready at the end",
            wl.workload,
            wl.kind,
            wl.desired,
            format_go_duration(wl.not_fully_ready_ms),
            wl.min_ready,
            wl.ready_at_end
        );
    }
    for sv in &s.services {
        let _ = writeln!(
            out,
            "service {}: traffic stopped {}..{}, blackhole {} ({}..{}), fewer serving {}, fewer ready endpoints {}",
            sv.service,
            ms(sv.first_traffic_stopped_at_ms),
            ms(sv.last_traffic_stopped_at_ms),
            format_go_duration(sv.blackhole_ms),
            ms(sv.blackhole_from_ms),
            ms(sv.blackhole_until_ms),
            format_go_duration(sv.fewer_serving_ms),
            format_go_duration(sv.fewer_ready_endpoints_ms)
        );
    }
    for v in &s.volumes {
        // A volume that came back to the node it was detached from is not said to have moved.
        let attached = match (v.attached_elsewhere_at_ms, v.attached_again_at_ms) {
            (None, Some(again)) => format!("attached again on the same node {}", ms(Some(again))),
            (elsewhere, _) => format!("attached elsewhere {}", ms(elsewhere)),
        };
        let _ = writeln!(
            out,
            "volume {}: detach requested {}, detached {}{}, {attached}, mounted {}, {} Multi-Attach errors",
            v.volume,
            ms(v.detach_requested_at_ms),
            ms(v.detached_at_ms),
            if v.force_detached { " (forced)" } else { "" },
            ms(v.mounted_at_ms),
            v.multi_attach_errors
        );
    }
    #[cfg(feature = "clients")]
    for c in &s.clients {
        let _ = writeln!(
            out,
            "client {}: {} of {} requests failed, errors {}..{}, worst wait {}",
            c.name,
            c.failed,
            c.requests,
            ms(c.first_error_ms),
            ms(c.last_error_ms),
            format_go_duration(c.worst_latency_ms)
        );
    }
}

/// The advice on the clients (`advice::client_fixes`), one line each, for after the summary:
/// `checkout: set http.Client.Timeout to 10s: errors end 15m24.6s → 10s after the fault`.
#[cfg(feature = "clients")]
pub fn render_client_fixes(fixes: &[crate::advice::ClientFix]) -> String {
    fixes.iter().map(|f| format!("{}\n", f.line())).collect()
}
