//! The page's half of the flag catalogue's check (the engine's half, from the scenario format to
//! export and import, is `crates/engine/tests/engine/flags.rs`): every tunable of the engine's
//! catalogue has a control on the page, reaches the scenario from it, and travels in the link;
//! and a flag's name is written in code once, in the catalogue.

use kubelife::knobs::KNOBS;
use kubelife::link::{decode, encode, Playback};
use kubelife::settings::{Settings, TOGGLES};
use kubelife_engine::flags::{self, Flag, Value};
use kubelife_engine::Version;
use std::path::Path;

// The shared source walker (the layering checker's, which allows its unused parts).
#[path = "../crates/engine/tests/support/layering.rs"]
mod layering;

/// Tunables the page has no control for, each with the reason; `check` asserts the link does
/// not carry them either, so an entry is removed once the page has the control.
const NOT_ON_THE_PAGE: &[(&str, &str)] = &[(
    flags::PROXY_MODE.name,
    "the page runs kube-proxy in its default mode (iptables); no control picks another",
)];

/// The newest version 1.N that offers `f`.
fn minor_of(f: &Flag) -> u32 {
    Version::supported()
        .filter(|v| f.offered(&v.profile()))
        .last()
        .unwrap_or_else(|| panic!("{}: no version offers it", f.name))
        .minor
}

/// The settings and what `f` resolves to in them, with `f` moved off the version's default by its
/// control: a slider to a point of its range, a switch to its other side.
fn moved(f: &Flag, minor: u32) -> Option<(Settings, Value)> {
    let mut s = Settings {
        minor,
        ..Settings::default()
    };
    let shown = s.resolve().0;
    if let Some(k) = KNOBS.iter().find(|k| k.flag == f.name) {
        let default = (k.read)(&shown);
        let x = [0.3, 0.6]
            .iter()
            .map(|t| k.min + ((k.max - k.min) * t / k.step).round() * k.step)
            .find(|x| (x - default).abs() > 1e-9)?;
        s.set(k.flag, x);
        let value = f.value_of(x)?;
        return Some((s, value));
    }
    let t = TOGGLES.iter().find(|t| t.def.name == f.name)?;
    let on = !(t.get)(&s);
    (t.set)(&mut s, on);
    Some((s, Value::Bool(on)))
}

/// One tunable: a control for it, from which it reaches the scenario, and the link carries it.
fn check(f: &Flag) {
    let minor = minor_of(f);
    let Some((s, value)) = moved(f, minor) else {
        let why = NOT_ON_THE_PAGE.iter().find(|(name, _)| *name == f.name);
        assert!(why.is_some(), "{}: the page has no control for it", f.name);
        let d = decode(&format!("k=1.{minor}&{}=1", f.name));
        assert_eq!(
            d.notices.len(),
            1,
            "{}: a link does not carry it either ({why:?})",
            f.name
        );
        return;
    };
    let (cfg, refused) = s.resolve();
    assert_eq!(refused, None, "{}", f.name);
    let read = f.read(&cfg);
    match (read.number(), value.number()) {
        (Some(got), Some(want)) => assert!((got - want).abs() < 1e-9, "{}: {got} for {want}", f.name),
        _ => assert_eq!(read, value, "{}", f.name),
    }
    let query = encode(&s, Playback::default());
    let carried = query.split('&').any(|p| p.starts_with(&format!("{}=", f.name)));
    assert!(carried, "{}: the link does not carry it: ?{query}", f.name);
    let d = decode(&query);
    assert!(d.notices.is_empty(), "{}: {:?}", f.name, d.notices);
    assert_eq!(d.settings, s, "{}: the link gives the settings back", f.name);
}

#[test]
fn every_tunable_of_the_catalogue_has_a_control_and_travels_in_the_link() {
    for f in flags::ALL.iter() {
        check(f);
    }
    // And the page offers nothing the catalogue lacks.
    for name in KNOBS.iter().map(|k| k.flag).chain(TOGGLES.iter().map(|t| t.def.name)) {
        assert!(flags::by_name(name).is_some(), "{name} is not in the catalogue");
    }
}

/// A source file's code, line for line: comments blanked, its `#[cfg(test)] mod tests` left out.
fn code_of(text: &str) -> String {
    let text = text.split("\n#[cfg(test)]\nmod tests").next().unwrap_or(text);
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) if l[..i].matches('"').count() % 2 == 0 => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Where code (not tests, comments, documentation or the message catalogues) writes `name`.
fn written(name: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    layering::walk(&root.join("src"), &mut files);
    for krate in std::fs::read_dir(root.join("crates")).expect("crates") {
        layering::walk(&krate.expect("a crate").path().join("src"), &mut files);
    }
    files.sort();
    let mut at = Vec::new();
    // A test module in a file of its own (`link/tests.rs`, `link/preset_tests.rs`: a name ending
    // in `tests.rs`) is a test too. The page's preset table (`settings/preset_table.rs`) is data
    // derived from the engine's presets, which a test keeps equal to them, so its links declare
    // no flag either.
    let derived = |p: &Path| {
        p.file_name().is_some_and(|n| n.to_string_lossy().ends_with("tests.rs")) || p.ends_with("preset_table.rs")
    };
    for path in files.into_iter().filter(|p| !derived(p)) {
        let code = code_of(&std::fs::read_to_string(&path).expect("readable"));
        for (i, line) in code.lines().enumerate().filter(|(_, l)| l.contains(name)) {
            at.push(format!(
                "{}:{}: {}",
                path.strip_prefix(root).unwrap_or(&path).display(),
                i + 1,
                line.trim()
            ));
        }
    }
    at
}

#[test]
fn a_flags_name_is_written_in_code_at_most_twice() {
    let at = written("node-monitor-grace-period");
    assert!(!at.is_empty() && at.len() <= 2, "{at:#?}");
    // The counter sees a name in code, and not in a comment or a test.
    let code = code_of("let a = \"x-y\"; // \"x-y\"\n/// x-y\nfn f() {}\n#[cfg(test)]\nmod tests {\n    \"x-y\"\n}\n");
    assert_eq!(code.matches("x-y").count(), 1, "{code}");
}
