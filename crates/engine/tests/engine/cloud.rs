//! Clouds and instance faults (issue 27): the `cloud` and `remediation` sections, the three
//! instance faults, and the cloud node lifecycle controller
//! (`k8s.io/cloud-provider` `controllers/nodelifecycle`).

use kubelife_engine::scenario::{NodeCount, Provider, Remediator, SnrStrategy};
use kubelife_engine::{time::MINUTE, time::SECOND, Scenario};

fn resolve(json: &str) -> kubelife_engine::Config {
    Scenario::from_json(json)
        .and_then(|s| s.resolve())
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_sections_read_back_as_written_and_take_their_documented_defaults() {
    let json = r#"{"nodes": [{"name": "n1"}],
        "cloud": {"provider": "azure", "nodeMonitorPeriod": "7s"},
        "remediation": [{"kind": "SelfNodeRemediation", "strategy": "ResourceDeletion"},
                        {"kind": "AKSAutoRepair"}],
        "events": [{"at": "10s", "action": "SpotInterruption", "node": "n1"},
                   {"at": "20s", "action": "SpotInterruption", "node": "n1", "notice": "5s"}]}"#;
    let s = Scenario::from_json(json).unwrap();
    assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
    let cfg = s.resolve().unwrap();
    let cloud = cfg.cloud.as_ref().expect("a cloud");
    assert_eq!(cloud.provider, Provider::Azure);
    assert_eq!(cloud.node_monitor_period, 7 * SECOND);
    assert_eq!(cloud.instance_termination_duration, 30 * SECOND);
    assert_eq!(cloud.vm_cache_ttl, 10 * MINUTE);
    assert!(cloud.automatic_out_of_service);
    assert_eq!(cfg.actions[0].notice, 30 * SECOND, "Azure's Scheduled Events notice");
    assert_eq!(cfg.actions[1].notice, 5 * SECOND);
    match &cfg.remediation[0] {
        Remediator::SelfNodeRemediation {
            conditions,
            min_healthy,
            strategy,
            safe_time_to_assume_node_rebooted,
        } => {
            assert_eq!(conditions.len(), 2);
            assert!(conditions.iter().all(|c| c.kind == "Ready" && c.timeout == 5 * MINUTE));
            assert_eq!(*min_healthy, NodeCount::Percent(51));
            assert_eq!(*strategy, SnrStrategy::ResourceDeletion);
            assert_eq!(*safe_time_to_assume_node_rebooted, None);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        cfg.remediation[1],
        Remediator::AksAutoRepair {
            detection_delay: 10 * MINUTE
        }
    );
    let said: Vec<String> = cfg.warnings.iter().map(|w| w.english()).collect();
    assert!(said.iter().any(|w| w.contains("does not act on it yet")), "{said:?}");
}

#[test]
fn spot_notices_default_to_each_providers() {
    for (provider, notice) in [("aws", 2 * MINUTE), ("gcp", 30 * SECOND), ("azure", 30 * SECOND)] {
        let cfg = resolve(&format!(
            r#"{{"nodes": [{{"name": "n1"}}], "cloud": {{"provider": "{provider}"}},
                "events": [{{"at": "10s", "action": "SpotInterruption", "node": "n1"}}]}}"#
        ));
        assert_eq!(cfg.actions[0].notice, notice, "{provider}");
    }
}

#[test]
fn without_cloud_or_remediation_the_configuration_is_todays() {
    let cfg = resolve(r#"{"nodes": [{"name": "n1"}]}"#);
    assert_eq!(cfg.cloud, None);
    assert!(cfg.remediation.is_empty());
    assert!(cfg.warnings.is_empty());
}

#[test]
fn a_managed_services_repair_needs_its_cloud() {
    let e = Scenario::from_json(
        r#"{"nodes": [{"name": "n1"}], "cloud": {"provider": "aws"}, "remediation": [{"kind": "GKEAutoRepair"}]}"#,
    )
    .unwrap()
    .resolve()
    .unwrap_err();
    assert_eq!(e.field, "remediation[0].kind");
    assert!(e.reason.english().contains("gcp"), "{e}");
}
