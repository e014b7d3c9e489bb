//! The page's import and `kubelife import` agree, over every import fixture (the project's own
//! and, beside the checkout, the shared ones), alone and in every ordered pair: for the same
//! files and version both get the same scenario from the engine's one `import`, and the settings
//! the page makes of it (`settings_from_import`) resolve to the CLI scenario's values wherever the
//! page can show them; where it cannot, its report says so.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../crates/engine/tests/support/shared_fixtures.rs"]
mod shared_fixtures;

use kubelife::import::settings_from_import;
use kubelife::knobs::KNOBS;
use kubelife::settings::Settings;
use kubelife_engine::import::{import, Reader};
use kubelife_engine::{Config, Version};
use std::path::{Path, PathBuf};

/// Every file under `dir`, sorted, but SOURCES.md.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            out.extend(files_under(&p));
        } else if p.file_name().is_some_and(|n| n != "SOURCES.md") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// The fixtures as (name, text): the project's own, then the shared ones when they are there
/// (else one line says that `test` skipped them).
fn fixtures(test: &str) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = files_under(&root.join("crates/engine/tests/fixtures/import"));
    let what = format!("the shared part of import_props::{test}");
    if let Some(dir) = shared_fixtures::shared_import_fixtures(root, &what) {
        paths.extend(files_under(&dir));
    }
    paths
        .iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let text = String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned();
            (name, text)
        })
        .collect()
}

/// Checks the page's import of `files` on `base` against the CLI's.
fn check(files: &[(&str, &str)], base: &Settings) {
    let names: Vec<&str> = files.iter().map(|(n, _)| *n).collect();
    let page_read = import(files, Reader::Page(Version { minor: base.minor }));
    let (shown, lines) = settings_from_import(base, &page_read);
    let version = format!("1.{}", shown.minor);
    let cli_read = import(files, Reader::Cli(Some(&version)));
    let report = cli_read.report.text();
    assert_eq!(
        page_read.scenario, cli_read.scenario,
        "{names:?} on 1.{}: the page and `kubelife import --version {version}` read different scenarios\n{report}",
        base.minor
    );
    let cli = cli_read
        .scenario
        .resolve()
        .unwrap_or_else(|e| panic!("{names:?}: the CLI's scenario does not run: {e}\n{report}"));
    let (page, refused) = shown.resolve();
    assert_eq!(refused, None, "{names:?}: the page's settings do not resolve");
    let said: Vec<String> = lines.iter().map(|c| c.english()).collect();
    let mut all_shown = true;
    for k in KNOBS.iter().filter(|k| k.available(shown.minor)) {
        let (want, got) = ((k.read)(&cli), (k.read)(&page));
        let clamped = want.clamp(k.min, k.max);
        assert!(
            (got - clamped).abs() < 1e-9,
            "{names:?} on {version}: --{} resolves to {got} in the page and {want} in the CLI\n{said:#?}\n{report}",
            k.flag
        );
        if clamped != want {
            all_shown = false;
            let flag = format!("--{} ", k.flag);
            assert!(
                said.iter().any(|l| l.starts_with(&flag)),
                "{names:?}: --{} is clamped without a word\n{said:#?}",
                k.flag
            );
        }
    }
    assert_eq!(components(&page), components(&cli), "{names:?} on {version}\n{report}");
    if all_shown {
        // Then every component resolves alike, not only what the knobs read.
        assert_eq!(page.profile, cli.profile, "{names:?}");
        assert_eq!(page.kubelet, cli.kubelet, "{names:?} on {version}\n{report}");
        assert_eq!(
            page.controller_manager, cli.controller_manager,
            "{names:?} on {version}\n{report}"
        );
        assert_eq!(page.api_server, cli.api_server, "{names:?} on {version}\n{report}");
        assert_eq!(page.kube_proxy, cli.kube_proxy, "{names:?} on {version}\n{report}");
    }
}

/// What the page's toggles stand for beside its knobs: the legacy eviction switches, the
/// force-detach switch and the kubelets' heartbeat mode.
fn components(cfg: &Config) -> (bool, bool, bool, bool) {
    let m = &cfg.controller_manager;
    (
        m.enable_taint_manager,
        m.taint_based_evictions,
        m.disable_force_detach_on_timeout,
        cfg.kubelet.node_lease,
    )
}

#[test]
fn the_page_and_the_cli_import_every_fixture_alike() {
    let all = fixtures("the_page_and_the_cli_import_every_fixture_alike");
    let file = |i: usize| (all[i].0.as_str(), all[i].1.as_str());
    let older = |minor| Settings {
        minor,
        ..Settings::default()
    };
    for i in 0..all.len() {
        for base in [Settings::default(), older(17), older(26)] {
            check(&[file(i)], &base);
        }
        for j in (0..all.len()).filter(|&j| j != i) {
            check(&[file(i), file(j)], &Settings::default());
        }
    }
}

/// On the page's default version the page's import is the CLI's without `--version`: the same
/// version, and the same configuration.
#[test]
fn on_the_default_version_the_page_reads_what_kubelife_import_prints() {
    for (name, text) in fixtures("on_the_default_version_the_page_reads_what_kubelife_import_prints") {
        let files = [(name.as_str(), text.as_str())];
        let base = Settings::default();
        let (shown, _) = settings_from_import(&base, &import(&files, Reader::Page(Version { minor: base.minor })));
        let printed = import(&files, Reader::Cli(None)).scenario;
        let cli = printed.resolve().expect("kubelife import prints a scenario that runs");
        assert_eq!(cli.profile.version.minor, shown.minor, "{name}");
        let with_version = import(&files, Reader::Cli(Some(&format!("1.{}", shown.minor))));
        assert_eq!(Ok(cli), with_version.scenario.resolve(), "{name}");
    }
}
