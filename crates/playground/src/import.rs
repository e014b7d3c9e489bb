//! "Bring your own cluster" in the page: the engine's import (`kubelife_engine::import`, the
//! one `kubelife import` calls) reads the files; this module maps the scenario it gives onto the
//! page's [`Settings`]. The page draws a smaller cluster than a scenario may hold (node-1 to
//! node-5000 over zone-a to zone-j, one `web` Deployment and one `db` StatefulSet), so everything
//! it cannot show becomes a line of its own in the report instead of being lost without a word.
//!
//! What the page can show resolves to what the CLI's scenario resolves to: the settings are
//! read as a preset's are (`Settings::from_preset`), which keeps every value the page's own
//! scenario would otherwise resolve differently.

use crate::knobs::KNOBS;
use crate::link::knob_text;
use crate::settings::{Settings, PAGE_MAX_DB, PAGE_MAX_NODES, PAGE_MAX_WEB, ZONES};
use kubelife_engine::import::Imported;
use kubelife_engine::scenario::{Scenario, WorkloadKind, WorkloadSection};
use kubelife_engine::Cause;

/// The settings that show `imported` (read by the engine for `Reader::Page`), starting from
/// `base` (whose fault, zone outage and operator actions stay, and whose nodes and workloads stay
/// where the files give none), and one line for each thing the page cannot show or keeps.
pub fn settings_from_import(base: &Settings, imported: &Imported) -> (Settings, Vec<Cause>) {
    let mut lines = Vec::new();
    let scenario = &imported.scenario;
    // The knobs are read against the version's bare default cluster, on that cluster, so that
    // neither the imported cluster's size nor a missing node list changes what they read.
    let version = scenario.version.clone().unwrap_or_else(|| format!("1.{}", base.minor));
    let bare = kubelife_engine::presets::default_cluster(&version);
    let probe = Scenario {
        nodes: bare.nodes,
        workloads: bare.workloads,
        events: bare.events,
        duration_seconds: bare.duration_seconds,
        ..scenario.clone()
    };
    let mut out = base.from_preset(&probe);
    clamp_knobs(&mut out, &mut lines);
    if imported.nodes_read {
        cluster(&mut out, scenario, &mut lines);
        node_groups(&mut out, scenario, &mut lines);
    } else {
        lines.push(
            Cause::new("ui.import.page.nodes_kept")
                .text("nodes", out.nodes)
                .text("zones", out.zone_list().join(", ")),
        );
    }
    max_pods(scenario, &mut lines);
    if imported.workloads_read {
        workloads(&mut out, scenario, &mut lines);
    } else if !imported.nodes_read {
        // Where `kubelife import` fills in the default cluster's workloads, the page keeps its own.
        lines.push(
            Cause::new("ui.import.page.workloads_kept")
                .text("web", out.web_replicas)
                .text("db", out.db_replicas),
        );
    }
    (out, lines)
}

/// Values beyond a control's range are set to its nearest end, and said so.
fn clamp_knobs(out: &mut Settings, lines: &mut Vec<Cause>) {
    for k in KNOBS {
        let Some(v) = out.overrides.get_mut(k.flag) else {
            continue;
        };
        let clamped = v.clamp(k.min, k.max);
        if clamped != *v {
            lines.push(
                Cause::new("ui.import.limit.knob")
                    .text("flag", format!("--{}", k.flag))
                    .text("value", knob_text(k.unit, *v))
                    .text("min", knob_text(k.unit, k.min))
                    .text("max", knob_text(k.unit, k.max))
                    .text("shown", knob_text(k.unit, clamped)),
            );
            *v = clamped;
        }
    }
}

/// The node count and the zones, when the files gave nodes.
fn cluster(out: &mut Settings, imported: &Scenario, lines: &mut Vec<Cause>) {
    let count = imported.nodes.len() as u32;
    if count == 0 {
        return;
    }
    out.nodes = count.clamp(1, PAGE_MAX_NODES);
    if count > PAGE_MAX_NODES {
        lines.push(
            Cause::new("ui.import.limit.nodes")
                .text("max", thousands(PAGE_MAX_NODES))
                .text("count", thousands(count)),
        );
    }
    let zones = kubelife_engine::order::set(imported.nodes.iter().map(|n| n.zone.as_deref().unwrap_or("")));
    let max_zones = ZONES.len() as u32;
    out.set_zones((zones.len() as u32).clamp(1, max_zones));
    // The cluster's own zone names are kept (up to ten) when every node has a zone.
    let names: Vec<String> = zones.iter().take(ZONES.len()).map(|z| z.to_string()).collect();
    out.zone_names = crate::link::parse_zone_names(&names.join(",")).unwrap_or_default();
    if zones.len() as u32 > max_zones {
        lines.push(
            Cause::new("ui.import.limit.zones")
                .text("max", max_zones)
                .text("count", zones.len()),
        );
    }
    lines.push(
        Cause::new("ui.import.page.names")
            .text("nodes", out.nodes)
            .text("zones", out.zone_list().join(", ")),
    );
    out.fault.node = out.fault.node.min(out.nodes - 1);
    out.fault.count = out.fault.count.min(out.nodes);
}

/// The EKS managed node groups the imported nodes' `eks.amazonaws.com/capacityType` labels name
/// (AWS): the page gives all its nodes one, the most nodes' capacity type (Spot on a tie), and
/// says so; nodes without the label keep the page's choice.
fn node_groups(out: &mut Settings, imported: &Scenario, lines: &mut Vec<Cause>) {
    use kubelife_engine::scenario::cloud::LABEL_CAPACITY_TYPE;
    let setting = &kubelife_engine::settings::MANAGED_NODE_GROUP;
    if out.cloud != Some(kubelife_engine::scenario::cloud::Provider::Aws) {
        return;
    }
    let labelled = |v: &str| {
        imported
            .nodes
            .iter()
            .filter(|n| {
                n.labels
                    .get(LABEL_CAPACITY_TYPE)
                    .is_some_and(|l| (l == "SPOT") == (v == "SPOT"))
            })
            .count()
    };
    let (spot, on_demand) = (labelled("SPOT"), labelled("ON_DEMAND"));
    if spot + on_demand == 0 {
        return;
    }
    let chosen = if spot >= on_demand { "SPOT" } else { "ON_DEMAND" };
    if let Some(i) = setting.parse(chosen).and_then(kubelife_engine::flags::Value::int) {
        out.cloud_choices.insert(setting.name.to_string(), i);
    }
    lines.push(
        Cause::new("ui.import.page.node_group")
            .text("spot", spot)
            .text("on_demand", on_demand)
            .text("chosen", chosen),
    );
}

/// Every node in the page has the default `maxPods`: the imported nodes' own, or the kubelet's
/// for every node, are not shown.
fn max_pods(imported: &Scenario, lines: &mut Vec<Cause>) {
    let max_pods = kubelife_engine::order::set(imported.nodes.iter().filter_map(|n| n.max_pods));
    if !max_pods.is_empty() {
        let values: Vec<String> = max_pods.iter().map(u32::to_string).collect();
        lines.push(Cause::new("ui.import.limit.max_pods").text("values", values.join(", ")));
    }
}

/// The first Deployment's replicas become `web`'s and the first StatefulSet's `db`'s; the rest
/// of the workloads and what the page does not model of these two are listed.
fn workloads(out: &mut Settings, imported: &Scenario, lines: &mut Vec<Cause>) {
    let first = |kind: WorkloadKind| imported.workloads.iter().find(|w| w.kind == kind);
    let mut shown: Vec<&WorkloadSection> = Vec::new();
    for (kind, page, max, set) in [
        (
            WorkloadKind::Deployment,
            "web",
            PAGE_MAX_WEB,
            set_web as fn(&mut Settings, u32),
        ),
        (WorkloadKind::StatefulSet, "db", PAGE_MAX_DB, set_db),
    ] {
        let Some(w) = first(kind) else { continue };
        shown.push(w);
        let replicas = w.replicas.unwrap_or(1);
        set(out, replicas.min(max));
        lines.push(
            Cause::new("ui.import.page.workload")
                .text("kind", format!("{kind:?}"))
                .text("name", &w.name)
                .text("page", page)
                .text("replicas", replicas.min(max)),
        );
        if replicas > max {
            lines.push(
                Cause::new("ui.import.limit.replicas")
                    .text("name", &w.name)
                    .text("max", thousands(max))
                    .text("count", thousands(replicas)),
            );
        }
        if !w.tolerations.is_empty() || w.termination_grace_period_seconds.is_some() {
            lines.push(Cause::new("ui.import.limit.pod_spec").text("name", &w.name));
        }
    }
    let rest: Vec<String> = imported
        .workloads
        .iter()
        .filter(|w| !shown.iter().any(|s| std::ptr::eq(*s, *w)))
        .map(|w| format!("{:?} {}", w.kind, w.name))
        .collect();
    if !rest.is_empty() {
        lines.push(Cause::new("ui.import.limit.workloads").text("names", rest.join(", ")));
    }
}

/// A count as a reader writes it: 3,000.
fn thousands(n: u32) -> String {
    crate::explain::thousands(u64::from(n))
}

fn set_web(s: &mut Settings, v: u32) {
    s.web_replicas = v;
}

fn set_db(s: &mut Settings, v: u32) {
    s.db_replicas = v;
}

#[cfg(test)]
mod tests {
    use super::*;
    use kubelife_engine::import::{import, Reader};

    /// The page's import of `files` on `base`, as the files worker does it.
    fn page(files: &[(&str, &str)], base: &Settings) -> (Settings, Vec<Cause>) {
        let read = import(files, Reader::Page(kubelife_engine::Version { minor: base.minor }));
        settings_from_import(base, &read)
    }

    const KUBEADM: &str = include_str!("../../engine/tests/fixtures/import/kubeadm-1.31.yaml");

    fn nodes_json(zones: &[&str]) -> String {
        let items: Vec<String> = zones
            .iter()
            .enumerate()
            .map(|(i, z)| {
                format!(
                    r#"{{"apiVersion":"v1","kind":"Node","metadata":{{"name":"n{i}","labels":{{"topology.kubernetes.io/zone":"{z}"}}}}}}"#
                )
            })
            .collect();
        format!(r#"{{"apiVersion":"v1","kind":"List","items":[{}]}}"#, items.join(","))
    }

    #[test]
    fn counts_read_with_separators() {
        assert_eq!(thousands(3000), "3,000");
        assert_eq!(thousands(50), "50");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn a_kubeadm_configuration_sets_the_version_and_the_flags() {
        let (s, lines) = page(&[("kubeadm.yaml", KUBEADM)], &Settings::default());
        assert_eq!(s.minor, 31);
        assert_eq!(s.overrides.get("node-monitor-grace-period"), Some(&20.0));
        assert_eq!(s.overrides.get("node-monitor-period"), Some(&2.0));
        assert_eq!(s.overrides.get("default-unreachable-toleration-seconds"), Some(&60.0));
        // No nodes in the file: the page keeps its own cluster.
        assert_eq!((s.nodes, s.zones), (3, 3));
        assert!(lines.iter().all(|c| c.key != "ui.import.limit.nodes"), "{lines:?}");
        assert!(s.resolve().1.is_none());
    }

    #[test]
    fn the_report_speaks_of_the_page() {
        const KUBELET: &str = include_str!("../../engine/tests/fixtures/import/kubelet-config.yaml");
        let base = Settings {
            minor: 29,
            nodes: 7,
            zones: 2,
            web_replicas: 5,
            ..Settings::default()
        };
        let read = import(
            &[("kubelet.yaml", KUBELET)],
            Reader::Page(kubelife_engine::Version { minor: 29 }),
        );
        let (s, lines) = settings_from_import(&base, &read);
        assert_eq!((s.minor, s.nodes, s.zones, s.web_replicas), (29, 7, 2, 5));
        let mut text: Vec<String> = read.report.entries.iter().map(|e| e.cause.english()).collect();
        text.extend(lines.iter().map(Cause::english));
        for said in [
            "no file names a version: checked against 1.29, the version the page shows",
            "no file gives nodes: the page keeps its own 7 nodes over zone-a, zone-b",
            "no file gives workloads: the page keeps its own web and db (replicas: 5 and 1)",
            "the imported maxPods 90 is not shown",
        ] {
            assert!(text.iter().any(|l| l.contains(said)), "{said:?} missing from {text:#?}");
        }
        for never in ["--version", "add nodes", "the scenario runs on"] {
            assert!(text.iter().all(|l| !l.contains(never)), "{never:?} in {text:#?}");
        }
        // A file that names a version: the page checks against it and shows it.
        let read = import(
            &[("kubeadm.yaml", KUBEADM)],
            Reader::Page(kubelife_engine::Version { minor: 29 }),
        );
        let (s, _) = settings_from_import(&base, &read);
        assert_eq!(s.minor, 31);
        let said = "checked against 1.31, the version the files name, which the page now shows";
        assert!(
            read.report.entries.iter().any(|e| e.cause.english() == said),
            "{}",
            read.report.text()
        );
    }

    /// k3s passes `kubelet-arg` to the kubelet as flags, and a `--node-status-update-frequency`
    /// flag leaves the report frequency at 5m0s: the page keeps 5m0s, and so does its export.
    #[test]
    fn a_kubelet_flag_keeps_the_report_frequency_in_the_page_and_its_export() {
        const K3S: &str = include_str!("../../engine/tests/fixtures/import/k3s-config.yaml");
        let (s, _) = page(&[("config.yaml", K3S)], &Settings::default());
        let (cfg, refused) = s.resolve();
        assert_eq!(refused, None);
        let k = &cfg.kubelet;
        assert_eq!(
            (k.node_status_update_frequency, k.node_status_report_frequency),
            (4_000, 300_000)
        );
        let yaml = kubelife_engine::export::export(&cfg, kubelife_engine::export::Format::Kubelet).yaml;
        assert!(
            yaml.contains("nodeStatusUpdateFrequency: 4s") && yaml.contains("nodeStatusReportFrequency: 5m0s"),
            "{yaml}"
        );
    }

    /// The default settings with zone-c out from 1m0s.
    fn with_outage_in_zone_c() -> Settings {
        Settings {
            zone_outage: Some(crate::settings::ZoneOutage {
                zone: 2,
                at_seconds: 60,
                end_seconds: None,
            }),
            ..Settings::default()
        }
    }

    #[test]
    fn nodes_set_the_count_and_the_zones() {
        let nodes = nodes_json(&["a", "b", "a", "b", "b"]);
        let (s, lines) = page(&[("nodes.json", &nodes)], &Settings::default());
        assert_eq!((s.nodes, s.zones), (5, 2));
        assert!(lines.iter().any(|c| c.key == "ui.import.page.names"));
        // A zone outage in a zone the imported cluster lacks moves to its last zone.
        let base = with_outage_in_zone_c();
        let (s, _) = page(&[("nodes.json", &nodes)], &base);
        assert_eq!(s.zone_outage.map(|z| z.zone_name()), Some("zone-b"));
    }

    #[test]
    fn the_cluster_s_own_zone_names_are_kept() {
        let nodes = nodes_json(&["us-east-1b", "us-east-1a", "us-east-1b"]);
        let (s, lines) = page(&[("nodes.json", &nodes)], &Settings::default());
        assert_eq!(s.zone_list(), ["us-east-1a", "us-east-1b"]);
        let cfg = s.resolve().0;
        assert_eq!(cfg.nodes[1].zone, "us-east-1b", "the run uses them");
        let said: Vec<String> = lines.iter().map(Cause::english).collect();
        assert!(
            said.iter()
                .any(|l| l.contains("spread evenly over us-east-1a, us-east-1b")),
            "{said:?}"
        );
        // They travel in the link, and a zone outage names its zone by them.
        let mut s = s;
        s.zone_outage = Some(crate::settings::ZoneOutage {
            zone: 1,
            at_seconds: 60,
            end_seconds: None,
        });
        let q = crate::link::encode(&s, crate::link::Playback::default());
        assert!(
            q.contains("zone-names=us-east-1a,us-east-1b") && q.contains("zone-outage=us-east-1b:1m0s"),
            "{q}"
        );
        let back = crate::link::decode(&q);
        assert!(back.notices.is_empty(), "{:?}", back.notices);
        assert_eq!(back.settings, s);
        // A node without a zone label: the page's own names.
        let nodes = nodes_json(&["us-east-1a", ""]);
        let (s, _) = page(&[("nodes.json", &nodes)], &Settings::default());
        assert!(
            s.zone_names.is_empty() && s.zone_list() == ["zone-a", "zone-b"],
            "{:?}",
            s.zone_list()
        );
    }

    #[test]
    fn what_the_page_cannot_show_is_reported() {
        let zones: Vec<String> = (0..5001).map(|i| format!("z{}", i % 40)).collect();
        let refs: Vec<&str> = zones.iter().map(String::as_str).collect();
        let nodes = nodes_json(&refs);
        let base = with_outage_in_zone_c();
        let (s, lines) = page(&[("nodes.json", &nodes)], &base);
        assert_eq!((s.nodes, s.zones), (PAGE_MAX_NODES, 10));
        assert_eq!(s.zone_outage, base.zone_outage, "the zone outage stays");
        let text: Vec<String> = lines.iter().map(Cause::english).collect();
        assert!(
            text.iter()
                .any(|l| l.contains("at most 5,000 nodes") && l.contains("5,001")),
            "{text:?}"
        );
        assert!(
            text.iter().any(|l| l.contains("at most 10 zones") && l.contains("40")),
            "{text:?}"
        );
        // A grace period beyond the slider is set to its end, and said so.
        let flags = "--node-monitor-grace-period=5h\n";
        let (s, lines) = page(&[("kcm.txt", flags)], &Settings::default());
        let max = KNOBS
            .iter()
            .find(|k| k.flag == "node-monitor-grace-period")
            .unwrap()
            .max;
        assert_eq!(s.overrides.get("node-monitor-grace-period"), Some(&max));
        assert!(lines.iter().any(|c| c.key == "ui.import.limit.knob"), "{lines:?}");
    }

    /// EKS managed node groups' nodes: the page runs its nodes as the most nodes' capacity
    /// type (Spot on a tie), so an imported Spot group is drained on its notice in the page too,
    /// and says so; a cluster without the label keeps the page's choice.
    #[test]
    fn eks_capacity_types_set_the_pages_managed_node_group() {
        let nodes = include_str!("../../engine/tests/fixtures/import/eks-spot-nodes.yaml");
        let (s, lines) = page(&[("nodes.yaml", nodes)], &Settings::default());
        assert_eq!(s.cloud, Some(kubelife_engine::scenario::cloud::Provider::Aws));
        let written = s.scenario().cloud.and_then(|c| c.managed_node_group);
        assert_eq!(written.as_deref(), Some("SPOT"));
        let text: Vec<String> = lines.iter().map(Cause::english).collect();
        assert!(
            text.iter()
                .any(|l| l.contains("1 of the nodes are Spot and 1 On-Demand") && l.contains("SPOT")),
            "{text:?}"
        );
        let (plain, lines) = page(&[("nodes.json", &nodes_json(&["a", "b"]))], &Settings::default());
        assert!(plain.cloud_choices.is_empty());
        assert!(lines.iter().all(|c| c.key != "ui.import.page.node_group"));
    }

    #[test]
    fn workloads_set_the_replicas_and_the_rest_is_listed() {
        let list = r#"{"apiVersion":"v1","kind":"List","items":[
          {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"api","namespace":"prod"},"spec":{"replicas":160000,"template":{"spec":{}}}},
          {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"cache","namespace":"prod"},"spec":{"replicas":2,"template":{"spec":{}}}},
          {"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"pg","namespace":"prod"},"spec":{"replicas":4,"template":{"spec":{}}}}]}"#;
        let (s, lines) = page(&[("workloads.json", list)], &Settings::default());
        assert_eq!((s.web_replicas, s.db_replicas), (PAGE_MAX_WEB, 4));
        let text: Vec<String> = lines.iter().map(Cause::english).collect();
        assert!(text.iter().any(|l| l.contains("cache")), "{text:?}");
        assert!(text.iter().any(|l| l.contains("160,000")), "{text:?}");
    }

    #[test]
    fn the_link_carries_the_import() {
        let nodes = nodes_json(&["a", "b", "a", "b"]);
        let (s, _) = page(
            &[("kubeadm.yaml", KUBEADM), ("nodes.json", &nodes)],
            &Settings::default(),
        );
        let link = crate::link::encode(&s, crate::link::Playback::default());
        assert!(link.contains("node-monitor-grace-period=20s"), "{link}");
        assert!(
            link.contains("nodes=4") && link.contains("zones=2") && link.contains("k=1.31"),
            "{link}"
        );
        assert_eq!(crate::link::decode(&link).settings, s);
    }
}
