//! The share link's tests: round trips and the notices for what a link gets wrong.

use super::*;
use crate::settings::{Fault, PdbChoice, VolumeChoice, ZoneOutage};

#[test]
fn defaults_give_a_short_link() {
    assert_eq!(encode(&Settings::default(), Playback::default()), "v=1");
    let d = decode("");
    assert_eq!(d.settings, Settings::default());
    assert!(d.notices.is_empty());
}

#[test]
fn zone_names_must_be_label_values() {
    for bad in [
        "a,a",
        "-a",
        "a b",
        "a,,b",
        "x".repeat(64).as_str(),
        "a,b,c,d,e,f,g,h,i,j,k",
    ] {
        let d = decode(&format!("?zone-names={}", encode_component(bad)));
        assert!(d.settings.zone_names.is_empty(), "{bad}");
        assert_eq!(d.notices.len(), 1, "{bad}: {:?}", d.notices);
    }
    let d = decode("?zones=3&zone-names=eu-1,eu-2");
    assert!(d.settings.zone_names.is_empty(), "fewer names than zones");
    assert!(d.notices[0]
        .english()
        .contains("fewer names than the cluster's 3 zones"));
    let d = decode("?zones=2&zone-names=eu-1,eu-2&zone-outage=eu-2:1m0s");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert_eq!(d.settings.zone_outage.map(|z| z.zone), Some(1));
}

#[test]
fn a_zone_outage_alone_has_no_single_node_fault() {
    let d = decode("?v=1&fault=none&zone-outage=zone-b:2m0s");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    let s = d.settings;
    assert!(!s.has_fault() && s.failed_nodes().is_empty());
    assert_eq!(s.down_nodes(), s.outage_nodes());
    let q = encode(&s, Playback::default());
    assert!(q.contains("fault=none"), "{q}");
    assert_eq!(decode(&q).settings, s);
    let cfg = s.resolve().0;
    assert!(
        cfg.actions
            .iter()
            .all(|a| a.action == ActionKind::NodeCrash && a.at == 120_000),
        "only the outage's crashes: {:?}",
        cfg.actions
    );
}

#[test]
fn a_tuned_state_reads_like_flags_and_round_trips() {
    let mut s = Settings {
        minor: 31,
        nodes: 5,
        ..Settings::default()
    };
    s.set("node-monitor-grace-period", 20.0);
    s.set("node-eviction-rate", 0.25);
    s.fault = Fault {
        node: 1,
        kind: ActionKind::KubeletStop,
        at_seconds: 45,
        recover_at_seconds: Some(200),
        count: 1,
        notice_seconds: None,
    };
    let p = Playback {
        t: 123_400,
        speed_exp: Some(2.0),
    };
    let q = encode(&s, p);
    assert!(
        q.contains("k=1.31")
            && q.contains("node-monitor-grace-period=20s")
            && q.contains("fault=node-2:KubeletStop:45"),
        "{q}"
    );
    let d = decode(&q);
    assert_eq!(d.settings, s);
    assert_eq!(d.playback, p);
    assert!(d.notices.is_empty(), "{:?}", d.notices);
}

#[test]
fn services_volumes_and_budgets_round_trip() {
    let mut s = Settings::default();
    s.web.service = false;
    s.web.volume = VolumeChoice::RwoShared;
    s.web.pdb = PdbChoice::MinAvailable(2);
    s.db.volume = VolumeChoice::None;
    s.db.pdb = PdbChoice::MaxUnavailable(1);
    s.fault.kind = ActionKind::NodeShutdown;
    s.disable_force_detach = true;
    s.ops.force_delete_db_at_seconds = Some(400);
    let q = encode(&s, Playback::default());
    for part in [
        "web-service=false",
        "web-volume=rwo-shared",
        "web-pdb=min:2",
        "db-volume=none",
        "db-pdb=max:1",
        "fault=node-1:NodeShutdown:30",
        "disable-force-detach-on-timeout=true",
        "force-delete-db=400",
    ] {
        assert!(q.contains(part), "{part} in {q}");
    }
    let d = decode(&q);
    assert_eq!(d.settings, s);
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    let bad = decode("web-volume=floppy&db-pdb=min:x&web-service=maybe&nodes=4");
    assert_eq!(bad.notices.len(), 3, "{:?}", bad.notices);
    assert_eq!(bad.settings.nodes, 4, "the rest still applies");
}

#[test]
fn compare_side_and_layout_round_trip() {
    let a = Settings {
        minor: 12,
        ..Settings::default()
    };
    let b = Settings {
        web_replicas: 6,
        ..Settings::default()
    };
    let display = Display {
        embed: true,
        views: vec!["timeline".into(), "breakdown".into()],
        autoplay: true,
        controls: vec!["node-monitor-grace-period".into()],
        lang: Some(Lang::Zh),
        exercise: Some(3),
        instructor: false,
        solution: true,
        ..Display::default()
    };
    let q = encode_all(&a, Some(&b), Playback::default(), &display);
    assert!(
        q.contains("b.web=6")
            && q.contains("view=timeline,breakdown")
            && q.contains("embed=1")
            && q.contains("solution=1"),
        "{q}"
    );
    let d = decode(&q);
    assert_eq!((d.settings, d.b, d.display), (a, Some(b), display));
    assert!(d.notices.is_empty());
    let preset = decode("preset=rke-1.18-tolerations&b.preset=upstream-1.12&view=maps");
    assert_eq!(preset.settings.minor, 18);
    assert_eq!(preset.b.map(|b| b.minor), Some(12));
    assert!(preset.notices[0].english().contains("maps"));
}

#[test]
fn large_clusters_and_zone_outages_round_trip() {
    let mut s = Settings {
        nodes: 5000,
        zones: 10,
        ..Settings::default()
    };
    s.fault.count = 5000;
    s.zone_outage = Some(ZoneOutage {
        zone: 9,
        at_seconds: 120,
        end_seconds: Some(600),
    });
    let q = encode(&s, Playback::default());
    for part in [
        "nodes=5000",
        "zones=10",
        "fault-nodes=5000",
        "zone-outage=zone-j:2m0s:10m0s",
    ] {
        assert!(q.contains(part), "{part} in {q}");
    }
    let d = decode(&q);
    assert_eq!(d.settings, s);
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    let open = decode("zone-outage=zone-b:2m0s");
    let want = ZoneOutage {
        zone: 1,
        at_seconds: 120,
        end_seconds: None,
    };
    assert_eq!(open.settings.zone_outage, Some(want));
    assert_eq!(
        encode(&open.settings, Playback::default()),
        "v=1&zone-outage=zone-b:2m0s"
    );
}

/// Each size and outage parameter: a good value applies; an out-of-range and a malformed one
/// are named in a notice, and the rest of the link still applies.
#[test]
fn size_and_outage_parameters_name_what_they_refuse() {
    let rest = Settings {
        web_replicas: 5,
        ..Settings::default()
    };
    for (param, good, out_of_range, malformed) in [
        ("nodes", "5000", "5001", "many"),
        ("zones", "10", "11", "ten"),
        ("fault-nodes", "5000", "5001", "all"),
        ("zone-outage", "zone-b:2m0s:10m0s", "zone-k:2m0s", "zone-b"),
        ("zone-outage", "zone-c:0s", "zone-c:2h0m0s", "zone-c:soon"),
    ] {
        let d = decode(&format!("{param}={good}&web=5"));
        assert!(d.notices.is_empty(), "{param}={good}: {:?}", d.notices);
        assert!(
            d.settings != rest && d.settings.web_replicas == 5,
            "{param}={good} applies"
        );
        for bad in [out_of_range, malformed] {
            let d = decode(&format!("{param}={bad}&web=5"));
            assert_eq!(d.notices.len(), 1, "{param}={bad}: {:?}", d.notices);
            let said = d.notices[0].english();
            assert!(said.contains(&format!("{param}={bad}")), "{said}");
            assert_eq!(d.settings, rest, "{param}={bad}: the rest applies");
        }
    }
    let said = |q: &str| {
        decode(q)
            .notices
            .iter()
            .map(Cause::english)
            .collect::<Vec<_>>()
            .join("; ")
    };
    assert!(said("zone-outage=zone-b:10m0s:2m0s").contains("the end not before the start"));
    assert!(said("zone-outage=zone-b:1.5s").contains("whole seconds"));
    assert!(said("zone-outage=zone-k:2m0s").contains("zone-a, zone-b, zone-c, zone-d"));
    let gone = decode("zones=2&zone-outage=zone-c:1m0s&nodes=8");
    assert_eq!((gone.settings.zone_outage, gone.settings.nodes), (None, 8));
    assert!(said("zones=2&zone-outage=zone-c:1m0s")
        .contains("zone-outage=zone-c:1m0s: not a zone of this cluster (zone-a, zone-b)"));
    assert!(said("fault=node-5001:NodeCrash:30").contains("node-1 to node-5000"));
}

/// The cloud, the remediator and its settings, and the instance faults: each round-trips,
/// only what differs from the defaults is written, and a bad value is named in a notice while
/// the rest of the link applies.
#[test]
fn clouds_remediators_and_instance_faults_round_trip() {
    use crate::settings::{Remediation, Remediator};
    use kubelife_engine::scenario::cloud::Provider;
    let q = "v=1&fault=node-1:InstanceTerminated:30&cloud=aws";
    let d = decode(q);
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert_eq!(d.settings.cloud, Some(Provider::Aws));
    assert_eq!(d.settings.fault.kind, ActionKind::InstanceTerminated);
    assert_eq!(encode(&d.settings, Playback::default()), q);
    for kind in ["InstanceStopped", "SpotInterruption"] {
        let q = format!("v=1&fault=node-2:{kind}:45&cloud=gcp");
        assert_eq!(encode(&decode(&q).settings, Playback::default()), q);
    }
    // The spot notice stays the provider's: the scenario leaves it unset.
    let spot = decode("fault=node-1:SpotInterruption:30&cloud=aws").settings.scenario();
    assert!(spot.events.iter().all(|e| e.notice.is_none()));
    assert_eq!(spot.cloud.map(|c| c.provider), Some(Provider::Aws));
    // A notice of its own is the SpotInterruption's `notice`, a Go duration, wherever the
    // link puts it.
    let q = "v=1&fault=node-1:SpotInterruption:30&notice=45s&cloud=aws";
    let d = decode("v=1&notice=45s&fault=node-1:SpotInterruption:30&cloud=aws");
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert_eq!(
        (d.settings.fault.notice_seconds, d.settings.spot_notice_seconds()),
        (Some(45), 45)
    );
    assert_eq!(encode(&d.settings, Playback::default()), q);
    let spot = d.settings.scenario();
    let notices: Vec<_> = spot.events.iter().filter_map(|e| e.notice).collect();
    assert_eq!(notices, [kubelife_engine::scenario::GoDuration(45_000)]);
    assert!(d.settings.resolve().1.is_none());
    // Without one, the page shows the provider's.
    assert_eq!(decode("cloud=gcp").settings.spot_notice_seconds(), 30);
    assert_eq!(decode("").settings.spot_notice_seconds(), 120);
    for (q, want) in [
        (
            "v=1&cloud=aws&remediation=mhc&remediation-timeout=2m0s&max-unhealthy=40%25",
            Remediation {
                kind: Remediator::Mhc,
                timeout_seconds: Some(120),
                max_unhealthy_percent: Some(40),
                ..Remediation::default()
            },
        ),
        (
            "v=1&remediation=snr&strategy=OutOfServiceTaint",
            Remediation {
                kind: Remediator::Snr,
                strategy: Some(1),
                ..Remediation::default()
            },
        ),
        (
            "v=1&cloud=azure&remediation=karpenter&node-repair=false",
            Remediation {
                kind: Remediator::Karpenter,
                node_repair_off: true,
                ..Remediation::default()
            },
        ),
        (
            "v=1&cloud=gcp&remediation=gke&remediation-timeout=20m0s",
            Remediation {
                kind: Remediator::Gke,
                timeout_seconds: Some(1200),
                ..Remediation::default()
            },
        ),
        (
            "v=1&cloud=aws&remediation=eks",
            Remediation {
                kind: Remediator::Eks,
                ..Remediation::default()
            },
        ),
        (
            "v=1&cloud=aws&remediation=eks&max-unhealthy=50%25",
            Remediation {
                kind: Remediator::Eks,
                max_unhealthy_percent: Some(50),
                ..Remediation::default()
            },
        ),
        (
            "v=1&remediation=snr&min-healthy=80%25&strategy=ResourceDeletion",
            Remediation {
                kind: Remediator::Snr,
                min_healthy_percent: Some(80),
                strategy: Some(2),
                ..Remediation::default()
            },
        ),
        (
            "v=1&cloud=azure&remediation=aks&remediation-timeout=5m0s",
            Remediation {
                kind: Remediator::Aks,
                timeout_seconds: Some(300),
                ..Remediation::default()
            },
        ),
    ] {
        let d = decode(q);
        assert!(d.notices.is_empty(), "{q}: {:?}", d.notices);
        assert_eq!(d.settings.remediation, want, "{q}");
        assert_eq!(encode(&d.settings, Playback::default()), q);
        assert!(d.settings.resolve().1.is_none(), "{q} resolves");
    }
}

#[test]
fn cloud_and_remediation_parameters_name_what_they_refuse() {
    use crate::settings::Remediator;
    use kubelife_engine::scenario::cloud::Provider;
    let said = |q: &str| {
        let d = decode(q);
        assert_eq!(d.settings.web_replicas, 5, "{q}: the rest applies");
        d.notices.iter().map(Cause::english).collect::<Vec<_>>().join("; ")
    };
    for (q, param, why) in [
        ("cloud=ibm", "cloud=ibm", "aws, gcp, azure"),
        ("remediation=magic", "remediation=magic", "mhc, snr"),
        ("remediation=mhc&remediation-timeout=5m", "", ""),
        (
            "remediation=mhc&remediation-timeout=2h0m0s",
            "remediation-timeout=2h0m0s",
            "0s to 1h0m0s",
        ),
        (
            "cloud=azure&remediation=aks&remediation-timeout=1m0s",
            "remediation-timeout=1m0s",
            "5m0s to 15m0s",
        ),
        (
            "remediation-timeout=5m0s",
            "remediation-timeout=5m0s",
            "remediation=none",
        ),
        (
            "remediation=mhc&max-unhealthy=140%25",
            "max-unhealthy=140%",
            "percentage",
        ),
        (
            "remediation=snr&max-unhealthy=40%25",
            "max-unhealthy=40%",
            "remediation=snr",
        ),
        ("remediation=snr&strategy=Reboot", "strategy=Reboot", "Automatic"),
        ("remediation=snr&min-healthy=51", "min-healthy=51", "percentage"),
        ("remediation=snr&min-healthy=101%25", "min-healthy=101%", "percentage"),
        (
            "remediation=mhc&min-healthy=51%25",
            "min-healthy=51%",
            "remediation=mhc",
        ),
        (
            "cloud=aws&remediation=eks&max-unhealthy=120%25",
            "max-unhealthy=120%",
            "percentage",
        ),
        (
            "cloud=gcp&remediation=gke&max-unhealthy=20%25",
            "max-unhealthy=20%",
            "remediation=gke",
        ),
        ("fault=node-1:SpotInterruption:30&notice=2m", "", ""),
        (
            "fault=node-1:SpotInterruption:30&notice=soon",
            "notice=soon",
            "0s to 10m0s",
        ),
        (
            "fault=node-1:SpotInterruption:30&notice=1.5s",
            "notice=1.5s",
            "whole seconds",
        ),
        (
            "fault=node-1:SpotInterruption:30&notice=11m0s",
            "notice=11m0s",
            "0s to 10m0s",
        ),
        (
            "fault=node-1:InstanceStopped:30&notice=30s",
            "notice=30s",
            "SpotInterruption",
        ),
        (
            "cloud=aws&remediation=karpenter&node-repair=maybe",
            "node-repair=maybe",
            "true or false",
        ),
        (
            "fault=node-1:InstanceVanished:30",
            "fault=node-1:InstanceVanished:30",
            "SpotInterruption",
        ),
    ] {
        let text = said(&format!("{q}&web=5"));
        if param.is_empty() {
            assert!(text.is_empty(), "{q}: {text}");
            continue;
        }
        assert!(text.contains(param) && text.contains(why), "{q}: {text}");
    }
    // A remediator that runs on certain clouds moves the cluster there, and says so.
    let d = decode("cloud=aws&remediation=gke&web=5");
    assert_eq!(d.settings.cloud, Some(Provider::Gcp));
    assert_eq!(d.settings.remediation.kind, Remediator::Gke);
    assert!(
        d.notices[0].english().contains("the cluster runs on gcp instead"),
        "{:?}",
        d.notices
    );
    let d = decode("remediation=karpenter");
    assert_eq!(d.settings.cloud, Some(Provider::Aws));
    let d = decode("cloud=azure&remediation=karpenter");
    assert!(d.notices.is_empty() && d.settings.cloud == Some(Provider::Azure));
}

#[test]
fn targets_and_the_blip_round_trip_and_bad_ones_are_named() {
    let q = "v=1&target=firstReplacementReady:60s:p95&target=taint:40s&blip=30s&max-writes-per-min=600&writes-at-nodes=5000&nodes=4";
    let d = decode(q);
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert_eq!(d.settings.nodes, 4);
    let names: Vec<_> = d
        .display
        .question
        .targets
        .iter()
        .map(|t| (t.milestone, t.within, t.percentile))
        .collect();
    assert_eq!(names, [("firstReplacementReady", 60_000, 95), ("taint", 40_000, 95)]);
    let q = &d.display.question;
    assert_eq!(
        (q.blip, q.max_writes, q.writes_nodes),
        (Some(30_000), Some(600.0), Some(5000))
    );
    let again = encode_all(&d.settings, None, Playback::default(), &d.display);
    assert!(
        again.contains(
            "target=firstReplacementReady:1m0s:p95&target=taint:40s:p95&blip=30s&max-writes-per-min=600&writes-at-nodes=5000"
        ),
        "{again}"
    );
    assert_eq!(decode(&again).display, d.display);
    // Each bad one is named and skipped; the rest still applies.
    let d = decode("target=soon&target=nope:1s&target=taint:1s:p0&target=taint:-1s&target=unknown:45s:p50&blip=0s&blip=1h&max-writes-per-min=lots&writes-at-nodes=0&nodes=5");
    assert_eq!(d.settings.nodes, 5);
    let q = &d.display.question;
    assert_eq!(q.targets.len(), 1);
    assert_eq!((q.blip, q.max_writes, q.writes_nodes), (None, None, None));
    let said: Vec<String> = d.notices.iter().map(|n| n.english()).collect();
    assert_eq!(said.len(), 8, "{said:#?}");
    assert!(
        said[0].contains("target=soon") && said[0].contains("MILESTONE:DURATION"),
        "{said:#?}"
    );
    assert!(said[1].contains("\"nope\" is not a milestone"), "{said:#?}");
    assert!(
        said[2].contains("p1 to p100") && said[3].contains("negative"),
        "{said:#?}"
    );
    assert!(said[4].contains("blip=0s") && said[5].contains("blip=1h"), "{said:#?}");
    assert!(
        said[6].contains("max-writes-per-min=lots") && said[6].contains("0 or more, not lots"),
        "{said:#?}"
    );
    assert!(
        said[7].contains("writes-at-nodes=0") && said[7].contains("1 or more, not 0"),
        "{said:#?}"
    );
    let many = decode(&"target=taint:1s&".repeat(MAX_TARGETS + 1));
    assert_eq!(
        (many.display.question.targets.len(), many.notices.len()),
        (MAX_TARGETS, 1)
    );
}

#[test]
fn garbage_is_skipped_with_notices() {
    let d = decode("?v=1&k=1.99&node-monitor-grace-period=banana&node-monitor-period=9000s&colour=blue&nodes=0&fault=node-9:Boom:x&%ZZ=1&speed=5000");
    assert_eq!(d.settings, Settings::default(), "nothing usable");
    assert_eq!(d.notices.len(), 8, "{:#?}", d.notices);
    assert!(d.notices.iter().any(|n| n.english().contains("colour")));
    assert!(d.notices.iter().any(|n| n.english().contains("outside")));
    let newer = decode("v=7&nodes=4");
    assert_eq!(newer.settings.nodes, 4);
    assert!(newer.notices[0].english().contains("newer kubelife"));
    let missing = decode("k=1.30&pod-eviction-timeout=30s");
    assert!(
        missing.notices[0]
            .english()
            .contains("--pod-eviction-timeout does not exist there"),
        "{:?}",
        missing.notices
    );
}

/// Every cloud duration of the settings table is a link parameter named after its field: it
/// round-trips, reaches the scenario's `cloud` section, and a bad value is named while the rest
/// of the link applies.
#[test]
fn cloud_durations_round_trip_and_bad_ones_are_named() {
    use kubelife_engine::settings;
    let q = "v=1&cloud=azure&cloud-node-monitor-period=10s&instance-termination-duration=45s&instance-stop-duration=1m0s&instance-deletion-duration=2m0s&node-boot-duration=2m30s&api-call-duration=250ms&vm-cache-ttl=5m0s";
    let d = decode(q);
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert_eq!(encode(&d.settings, Playback::default()), q);
    let sc = d.settings.scenario();
    let cloud = sc.cloud.as_ref().expect("a cloud section");
    assert_eq!(cloud.node_boot_duration.map(|g| g.0), Some(150_000));
    assert_eq!(cloud.api_call_duration.map(|g| g.0), Some(250));
    assert_eq!(cloud.vm_cache_ttl.map(|g| g.0), Some(300_000));
    assert!(d.settings.resolve().1.is_none(), "{:?}", d.settings.resolve().1);
    assert_eq!(d.settings.cloud_duration_ms(&settings::NODE_BOOT_DURATION), 150_000);
    let links: Vec<&str> = crate::settings::cloud_durations().map(|s| s.link).collect();
    assert_eq!(links.len(), 7);
    assert!(links.iter().all(|l| q.contains(&format!("&{l}="))), "{links:?}");
    let said = |q: &str| {
        let d = decode(&format!("{q}&web=5"));
        assert_eq!(d.settings.web_replicas, 5, "{q}: the rest applies");
        assert!(d.settings.cloud_durations.is_empty(), "{q}");
        d.notices.iter().map(Cause::english).collect::<Vec<_>>().join("; ")
    };
    for (q, why) in [
        ("cloud=aws&vm-cache-ttl=5m0s", "only Azure"),
        ("cloud=gcp&node-boot-duration=1s", "10s"),
        ("cloud=gcp&node-boot-duration=soon", "node-boot-duration=soon"),
        ("cloud=aws&api-call-duration=6s", "5s"),
        ("cloud=aws&cloud-node-monitor-period=0s", "1s"),
    ] {
        let text = said(q);
        assert!(text.contains(why), "{q}: {text}");
    }
}

/// AWS's EKS managed node group is a link parameter of the settings table's: it round-trips,
/// reaches the scenario's `cloud` section, and is refused on another cloud or with a name that
/// is none of its choices, while the rest of the link applies.
#[test]
fn the_managed_node_group_round_trips_on_aws_only() {
    let q = "v=1&fault=node-1:SpotInterruption:30&cloud=aws&managed-node-group=SPOT";
    let d = decode(q);
    assert!(d.notices.is_empty(), "{:?}", d.notices);
    assert_eq!(encode(&d.settings, Playback::default()), q);
    let sc = d.settings.scenario();
    let cloud = sc.cloud.as_ref().expect("a cloud section");
    assert_eq!(cloud.managed_node_group.as_deref(), Some("SPOT"));
    assert!(d.settings.resolve().1.is_none(), "{:?}", d.settings.resolve().1);
    for (q, why) in [
        ("cloud=gcp&managed-node-group=SPOT", "only AWS"),
        ("cloud=aws&managed-node-group=spot", "managed-node-group=spot"),
    ] {
        let d = decode(&format!("{q}&web=5"));
        assert_eq!(d.settings.web_replicas, 5, "{q}: the rest applies");
        assert!(d.settings.cloud_choices.is_empty(), "{q}");
        let text = d.notices.iter().map(Cause::english).collect::<Vec<_>>().join("; ");
        assert!(text.contains(why), "{q}: {text}");
    }
}

/// Each remediator's further settings in the settings table (beyond the timeout, the breakers,
/// the strategy and Karpenter's switches) are link parameters too: they round-trip, reach the
/// remediator's entry, and one of another remediator or out of range is named.
#[test]
fn further_remediator_settings_round_trip_and_bad_ones_are_named() {
    use kubelife_engine::scenario::RemediationSection as R;
    assert_eq!(crate::settings::further_links().len(), 6);
    for q in [
        "v=1&remediation=mhc&node-startup-timeout=5m0s&cluster-api-version=1.7&replacement-join-duration=2m0s",
        "v=1&remediation=snr&safe-time-to-assume-node-rebooted=5m0s",
        "v=1&cloud=aws&remediation=karpenter&interruption-message-latency=10s",
        "v=1&cloud=gcp&remediation=gke&drain-timeout=30m0s",
    ] {
        let d = decode(q);
        assert!(d.notices.is_empty(), "{q}: {:?}", d.notices);
        assert_eq!(encode(&d.settings, Playback::default()), q);
        assert!(d.settings.resolve().1.is_none(), "{q}: {:?}", d.settings.resolve().1);
    }
    let mhc = decode("remediation=mhc&node-startup-timeout=5m0s&cluster-api-version=1.7").settings;
    match &mhc.scenario().remediation[..] {
        [R::MachineHealthCheck(m)] => {
            assert_eq!(m.node_startup_timeout.map(|g| g.0), Some(300_000));
            assert_eq!(m.cluster_api_version.as_deref(), Some("1.7"));
        }
        other => panic!("{other:?}"),
    }
    let back = Settings::default().from_preset(&mhc.scenario());
    assert_eq!(back.remediator_settings, mhc.remediator_settings);
    for (q, why) in [
        ("cloud=gcp&remediation=gke&node-startup-timeout=5m0s", "remediation=gke"),
        ("remediation=mhc&cluster-api-version=1.3", "1.4"),
        ("remediation=mhc&node-startup-timeout=2h0m0s", "1h0m0s"),
        ("remediation=mhc&node-startup-timeout=soon", "node-startup-timeout=soon"),
    ] {
        let d = decode(&format!("{q}&web=5"));
        assert_eq!(d.settings.web_replicas, 5, "{q}: the rest applies");
        assert!(d.settings.remediator_settings.is_empty(), "{q}");
        let text = d.notices.iter().map(Cause::english).collect::<Vec<_>>().join("; ");
        assert!(text.contains(why), "{q}: {text}");
    }
}
