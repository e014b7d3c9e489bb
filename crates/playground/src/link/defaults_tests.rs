//! What a link carries and names, from the tables that hold it: a Tune point applied links only
//! what differs from each side's defaults, and an unknown version is refused with the range of
//! the engine's version table.

use super::*;

/// A version the engine does not model is refused with the range its version table holds, so the
/// notice never goes stale when a version is added.
#[test]
fn an_unknown_version_names_the_range_of_the_version_table() {
    use kubelife_engine::version::{NEWEST_MINOR, OLDEST_MINOR};
    let range = format!("(1.{OLDEST_MINOR} to 1.{NEWEST_MINOR})");
    for bad in ["k=1.99", "k=1.11", "k=2.0"] {
        let d = decode(bad);
        assert_eq!(d.settings.minor, Settings::default().minor, "{bad}");
        assert!(
            d.notices[0].english().contains(&range),
            "{bad}: {}",
            d.notices[0].english()
        );
    }
}

/// A Tune point applied to side A and side B puts into the link only what differs from each
/// side's version defaults, as a slider does; a value another setting leans on stays (a kubelet
/// file's `nodeStatusReportFrequency` follows `nodeStatusUpdateFrequency` when left out).
#[test]
fn a_tune_point_applied_to_both_sides_links_only_what_differs_from_the_defaults() {
    use crate::tune::{apply, without_defaults};
    let point: std::collections::BTreeMap<String, String> = [
        ("--node-monitor-grace-period", "40s"),
        ("--node-monitor-period", "5s"),
        ("--default-unreachable-toleration-seconds", "300"),
        ("nodeStatusUpdateFrequency", "4s"),
        ("nodeStatusReportFrequency", "5m0s"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let a = Settings::default();
    let b = Settings {
        minor: 31,
        ..Settings::default()
    };
    let (a, b) = (
        without_defaults(&apply(&a, &point).0),
        without_defaults(&apply(&b, &point).0),
    );
    let q = encode_all(&a, Some(&b), Playback::default(), &Display::default());
    for part in [
        "&node-monitor-grace-period=40s",
        "&node-status-update-frequency=4s",
        "&node-status-report-frequency=5m0s",
    ] {
        assert!(q.contains(part), "{part} in {q}");
    }
    for default in ["node-monitor-period", "default-unreachable-toleration-seconds"] {
        assert!(!q.contains(default), "{default} is each side's default: {q}");
    }
    // 40s is 1.37's grace changed, and 1.31's default.
    assert!(!q.contains("b.node-monitor-grace-period"), "{q}");
    let d = decode(&q);
    assert_eq!((d.settings, d.b), (a.clone(), Some(b.clone())), "{q}");
    for (side, applied) in [
        (Settings::default(), &a),
        (
            Settings {
                minor: 31,
                ..Settings::default()
            },
            &b,
        ),
    ] {
        let full = apply(&side, &point).0;
        assert_eq!(
            applied.resolve().0,
            full.resolve().0,
            "the same configuration as the point's"
        );
    }
}
