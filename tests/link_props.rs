//! Share links, checked over random states: encoding then decoding gives the same settings (and
//! so the same scenario), and decoding any text never panics.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../crates/engine/tests/engine/seeded.rs"]
mod seeded;

use kubelife::i18n::Lang;
use kubelife::knobs::{Unit, KNOBS};
use kubelife::link::{decode, encode, encode_all, Display, Playback};
use kubelife::settings::{further_range, read_on, Remediation, Remediator};
use kubelife::settings::{
    Fault, LatencySpike, Operations, PdbChoice, Settings, TolerationPatch, VolumeChoice, WorkloadExtras, ZoneOutage,
    MAX_NOTICE_SECONDS, PAGE_MAX_DB, PAGE_MAX_NODES, PAGE_MAX_WEB, ZONES,
};
use kubelife::tune::Question;
use kubelife_engine::scenario::cloud::Provider;
use kubelife_engine::scenario::ActionKind;
use kubelife_engine::settings::Setting;
use kubelife_engine::Millis;
use proptest::prelude::*;
use std::collections::BTreeMap;

fn operations() -> impl Strategy<Value = (u32, Operations)> {
    use proptest::option::of;
    (
        prop_oneof![1u32..=50, 1u32..=PAGE_MAX_NODES],
        of((0u32..=3600, 0u32..=3600, 0u32..=60_000)),
        of(0u32..=3600),
        of(0u32..=3600),
        of((0u32..=3600, 0u32..=86_400)),
        of(0u32..=3600),
    )
        .prop_map(|(count, latency, oos, kcm, patch, force)| {
            let ops = Operations {
                latency: latency.map(|(from_seconds, until_seconds, ms)| LatencySpike {
                    from_seconds,
                    until_seconds,
                    ms,
                }),
                out_of_service_at_seconds: oos,
                kcm_restart_at_seconds: kcm,
                toleration_patch: patch.map(|(at_seconds, seconds)| TolerationPatch { at_seconds, seconds }),
                force_delete_db_at_seconds: force,
            };
            (count, ops)
        })
}

/// Where it runs and what repairs it: a cloud, or none, and some of the settings table's cloud
/// durations it reads, each a whole number of milliseconds within the range its control offers;
/// a remediator that runs there, or none, with some of its further settings within theirs.
fn cloud_durations() -> impl Strategy<
    Value = (
        Option<Provider>,
        BTreeMap<String, Millis>,
        Remediator,
        BTreeMap<String, i64>,
    ),
> {
    let all: Vec<&'static Setting> = kubelife::settings::cloud_durations().collect();
    (
        0usize..4,
        proptest::collection::vec((0usize..all.len(), 0.0f64..=1.0), 0..8),
        0usize..Remediator::ALL.len(),
        proptest::collection::vec((0usize..4, 0.0f64..=1.0), 0..4),
    )
        .prop_map(move |(cloud, picks, kind, further)| {
            let cloud = [None, Some(Provider::Aws), Some(Provider::Gcp), Some(Provider::Azure)][cloud];
            let durations = picks
                .into_iter()
                .map(|(i, x)| (all[i], x))
                .filter(|(s, _)| read_on(s, cloud))
                .map(|(s, x)| {
                    let (lo, hi) = (s.range.0 * 1000.0, s.range.1 * 1000.0);
                    (s.name.to_string(), (lo + (hi - lo) * x).round() as Millis)
                })
                .collect();
            let kind = Remediator::ALL[kind].0;
            let needs = kind.providers();
            let kind = if needs.is_empty() || cloud.is_some_and(|p| needs.contains(&p)) {
                kind
            } else {
                Remediator::None
            };
            let mine: Vec<&'static Setting> = kind.further().collect();
            let further = further
                .into_iter()
                .filter(|_| !mine.is_empty())
                .map(|(i, x)| {
                    let s = mine[i % mine.len()];
                    let (lo, hi) = further_range(s);
                    (s.link.to_string(), lo + ((hi - lo) as f64 * x).round() as i64)
                })
                .collect();
            (cloud, durations, kind, further)
        })
}

fn extras() -> impl Strategy<Value = WorkloadExtras> {
    (any::<bool>(), 0usize..4, 0u32..3, 0u32..=30).prop_map(|(service, volume, pdb, n)| WorkloadExtras {
        service,
        volume: VolumeChoice::ALL[volume].0,
        pdb: [
            PdbChoice::None,
            PdbChoice::MinAvailable(n),
            PdbChoice::MaxUnavailable(n),
        ][pdb as usize],
    })
}

/// A zone outage (its zone taken modulo the cluster's zones), its start and its end after it.
fn zone_outage() -> impl Strategy<Value = Option<(u32, u32, Option<u32>)>> {
    proptest::option::of((0u32..ZONES.len() as u32, 0u32..=3600, proptest::option::of(0u32..=3600)))
}

fn settings() -> impl Strategy<Value = (Settings, Playback)> {
    (
        (
            12u32..=35,
            any::<u64>(),
            prop_oneof![1u32..=50, 1u32..=PAGE_MAX_NODES],
            1u32..=ZONES.len() as u32,
            prop_oneof![0u32..=30, 0u32..=PAGE_MAX_WEB],
            prop_oneof![0u32..=10, 0u32..=PAGE_MAX_DB],
            any::<bool>(),
            any::<bool>(),
        ),
        (
            0u32..PAGE_MAX_NODES,
            0usize..6,
            0u32..=3600,
            proptest::option::of(0u32..=3600),
            zone_outage(),
            proptest::option::of(0u32..=MAX_NOTICE_SECONDS),
        ),
        proptest::collection::vec((0usize..KNOBS.len(), 0.0f64..1.0), 0..6),
        (0i64..=3_600_000, proptest::option::of(1u32..=1000)),
        operations(),
        (extras(), extras(), any::<bool>()),
        cloud_durations(),
    )
        .prop_map(
            |(
                (minor, seed, nodes, zones, web, db, tm, tbe),
                (node, kind, at, recover, outage, notice),
                knobs,
                (t, speed),
                (count, ops),
                (web_extras, db_extras, no_force_detach),
                (cloud, durations, remediator, further),
            )| {
                let kind = [
                    ActionKind::NodeCrash,
                    ActionKind::KubeletStop,
                    ActionKind::NetworkPartition,
                    ActionKind::NodeShutdown,
                    ActionKind::Drain,
                    ActionKind::SpotInterruption,
                ][kind];
                let mut s = Settings {
                    minor,
                    seed,
                    nodes,
                    zones,
                    web_replicas: web,
                    db_replicas: db,
                    enable_taint_manager: tm,
                    taint_based_evictions: tbe,
                    fault: Fault {
                        node: node % nodes,
                        kind,
                        at_seconds: at,
                        recover_at_seconds: recover.map(|r| r.max(at)),
                        count,
                        // A notice is the spot interruption's only.
                        notice_seconds: notice.filter(|_| kind == ActionKind::SpotInterruption),
                    },
                    zone_outage: outage.map(|(zone, at_seconds, end)| ZoneOutage {
                        zone: zone % zones,
                        at_seconds,
                        end_seconds: end.map(|e| e.max(at_seconds)),
                    }),
                    ops,
                    web: web_extras,
                    db: db_extras,
                    disable_force_detach: no_force_detach,
                    cloud,
                    cloud_durations: durations,
                    remediation: Remediation {
                        kind: remediator,
                        ..Remediation::default()
                    },
                    remediator_settings: further,
                    ..Settings::default()
                };
                for (i, x) in knobs {
                    let k = &KNOBS[i];
                    if !k.available(minor) {
                        continue;
                    }
                    let raw = k.min + (k.max - k.min) * x;
                    // Values a control can hold: whole milliseconds, whole counts, any rate or fraction.
                    let v = match k.unit {
                        Unit::Seconds => (raw * 1000.0).round() / 1000.0,
                        Unit::Count => raw.round(),
                        Unit::Rate | Unit::Fraction => raw,
                    };
                    s.overrides.insert(k.flag.to_string(), v.clamp(k.min, k.max));
                }
                (
                    s,
                    Playback {
                        t,
                        speed_exp: speed.map(|n| f64::from(n).log10()),
                    },
                )
            },
        )
}

proptest! {
    #![proptest_config(seeded::config(2000))]

    #[test]
    fn encoding_then_decoding_gives_the_same_state((s, p) in settings()) {
        let q = encode(&s, p);
        let d = decode(&q);
        prop_assert!(d.notices.is_empty(), "{q}: {:?}", d.notices);
        prop_assert_eq!(&d.settings, &s);
        prop_assert_eq!(d.settings.scenario(), s.scenario());
        prop_assert_eq!(d.playback, p);
    }

    #[test]
    fn the_compare_side_and_the_layout_round_trip(((a, p), (b, _)) in (settings(), settings()), embed in any::<bool>(), autoplay in any::<bool>(), views in proptest::sample::subsequence(kubelife::link::VIEWS.to_vec(), 0..=4), controls in proptest::sample::subsequence(KNOBS.iter().map(|k| k.flag).collect::<Vec<_>>(), 0..=3)) {
        let lang = if embed { Some(Lang::Zh) } else if autoplay { Some(Lang::En) } else { None };
        let exercise = (views.len() as u32).checked_sub(1).map(|n| n + 1);
        let targets = views.iter().map(|v| kubelife_engine::tune::Target::parse_link(&format!("{}:{}s:p{}", kubelife_engine::stats::MILESTONES[v.len() % 11], v.len() * 7, 50 + v.len())).unwrap()).collect();
        let question = Question { targets, blip: autoplay.then_some(30_000), max_writes: embed.then_some(controls.len() as f64 * 150.5), writes_nodes: (views.len() > 1).then_some(5000) };
        let display = Display { embed, autoplay, views: views.iter().map(|v| v.to_string()).collect(), controls: controls.iter().map(|c| c.to_string()).collect(), lang, exercise, instructor: controls.len() == 2, solution: views.len() == 1, question };
        let q = encode_all(&a, Some(&b), p, &display);
        let d = decode(&q);
        prop_assert!(d.notices.is_empty(), "{q}: {:?}", d.notices);
        prop_assert_eq!(d.settings, a);
        prop_assert_eq!(d.b, Some(b));
        prop_assert_eq!(d.display, display);
    }

    #[test]
    fn decoding_any_text_never_panics(q in "\\PC{0,300}") {
        let _ = decode(&q);
    }

    #[test]
    fn decoding_mangled_links_never_panics((s, p) in settings(), cut in 0usize..400, junk in "[=&%:a-zA-Z0-9.-]{0,24}") {
        let q = encode(&s, p);
        let cut = cut.min(q.len());
        let d = decode(&format!("{}{}{}", &q[..cut], junk, &q[cut..]));
        // Whatever survives still resolves to a runnable scenario.
        prop_assert!(!d.settings.resolve().0.nodes.is_empty());
    }
}
