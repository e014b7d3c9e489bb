//! The page's preset table (`crate::settings::PRESETS`) against the engine's presets: every
//! preset, in the engine's order, with its description in the catalogue, and a link query that gives exactly the
//! settings the preset's scenario gives (`Settings::from_preset`), on a first visit and on a page
//! already changed. On a mismatch the test prints the table as it should read.

use super::*;
use crate::settings::{Fault, PresetLink, PRESETS};
use kubelife_engine::presets::{presets, Preset};

/// A preset's settings on a first visit, from its scenario.
fn first_visit(p: &Preset) -> Settings {
    Settings::default().from_preset(&p.scenario)
}

/// The table's entry for a preset, as it should read.
fn entry(p: &Preset) -> PresetLink {
    let settings = first_visit(p);
    let link = encode(&settings, Playback::default());
    let head = format!("v={FORMAT}");
    let query = link
        .strip_prefix(&head)
        .expect("a versioned link")
        .trim_start_matches('&');
    // A preset brings its own cluster when a changed page does not keep its own with it.
    let mine = Settings {
        nodes: 7,
        web_replicas: 5,
        ..Settings::default()
    };
    let cluster = mine.from_preset(&p.scenario) != mine.with_preset(&settings, false);
    PresetLink {
        name: p.name,
        query: query.to_string().leak(),
        cluster,
    }
}

/// The pages a preset is applied to: the first visit, and pages changed in what a preset keeps
/// (the cluster, the seed, the fault, the zone names) and in what it replaces.
fn bases() -> Vec<Settings> {
    let changed = Settings {
        nodes: 7,
        seed: 9,
        web_replicas: 5,
        fault: Fault {
            at_seconds: 45,
            ..Settings::default().fault
        },
        ..Settings::default()
    };
    let named = Settings {
        zone_names: vec!["east".into(), "west".into(), "north".into()],
        ..Settings::default()
    };
    let mut tuned = Settings {
        minor: 20,
        enable_taint_manager: false,
        ..changed.clone()
    };
    tuned
        .overrides
        .insert(kubelife_engine::flags::NODE_MONITOR_GRACE_PERIOD.name.into(), 20.0);
    let eks = presets()
        .into_iter()
        .find(|p| p.name == "eks-instance-terminated")
        .expect("a preset");
    vec![Settings::default(), changed, named, tuned, first_visit(&eks)]
}

#[test]
fn the_preset_table_is_the_engines_presets() {
    let engine = presets();
    let expected: Vec<PresetLink> = engine.iter().map(entry).collect();
    let table: String = expected.iter().map(|e| format!("{e:#?},\n")).collect();
    assert_eq!(
        PRESETS,
        expected.as_slice(),
        "crate::settings::PRESETS should read:\n{table}"
    );
}

#[test]
fn each_presets_english_description_is_the_engines() {
    // The page's picker reads a preset's description from the catalogue only (`preset.<name>`).
    for p in presets() {
        let key = format!("preset.{}", p.name);
        assert_eq!(
            crate::i18n::lookup(crate::i18n::Lang::En, &key),
            Some(p.description),
            "{key}"
        );
    }
}

#[test]
fn each_preset_link_gives_the_presets_settings() {
    let bases = bases();
    for p in presets() {
        let entry = preset_link(p.name).expect("the page offers every preset");
        let read = decode(entry.query);
        assert!(read.notices.is_empty(), "{}: {:?}", p.name, read.notices);
        assert_eq!(read.settings, first_visit(&p), "{}: its link", p.name);
        for (i, base) in bases.iter().enumerate() {
            let want = base.from_preset(&p.scenario);
            assert_eq!(preset(base, p.name).as_ref(), Some(&want), "{} on page {i}", p.name);
        }
        let link = format!("preset={}", p.name);
        assert_eq!(decode(&link).settings, first_visit(&p), "{link}");
    }
    assert_eq!(preset(&Settings::default(), "no-such-preset"), None);
}

/// A preset whose scenario fails one node opens as that node's fault, never as a zone outage:
/// on a page grown to six nodes (two a zone) it still fails that one node, not every node of
/// its zone.
#[test]
fn a_preset_failing_one_node_opens_as_that_nodes_fault() {
    let faults = |s: &kubelife_engine::scenario::Scenario| {
        s.events
            .iter()
            .filter(|e| e.action.is_fault())
            .map(|e| (e.node.clone(), e.action, e.at))
            .collect::<Vec<_>>()
    };
    let mut single = 0;
    for p in presets() {
        let want = faults(&p.scenario);
        if want.len() != 1 {
            continue;
        }
        single += 1;
        let entry = preset_link(p.name).expect("the page offers every preset");
        assert!(!entry.query.contains("zone-outage"), "{}: {}", p.name, entry.query);
        let opened = decode(entry.query).settings;
        assert_eq!(opened.zone_outage, None, "{}", p.name);
        let six = Settings { nodes: 6, ..opened };
        assert_eq!(faults(&six.scenario()), want, "{} on six nodes", p.name);
    }
    assert!(single >= 8, "the cloud and remediator presets fail one node each");
}

/// A link's `preset=` names its preset (the picker shows it) while the link's other parameters
/// leave the preset's settings as they are, and names none once they change them.
#[test]
fn a_preset_link_names_its_preset_until_its_settings_change() {
    for p in presets() {
        let link = format!("preset={}", p.name);
        assert_eq!(decode(&link).preset, Some(p.name), "{link}");
        assert_eq!(
            decode(&format!("{link}&seed=9")).preset,
            Some(p.name),
            "{link}: the seed is the page's"
        );
        let changed = format!("{link}&node-monitor-grace-period=37s");
        assert_eq!(decode(&changed).preset, None, "{changed}");
    }
    assert_eq!(decode("preset=no-such-preset").preset, None);
    assert_eq!(decode("v=1").preset, None);
}
