//! The flag catalogue (`kubelife_engine::flags`): every setting the engine models is declared
//! there, and from there reaches the scenario format, validation, export and import. The flags are
//! listed independently of the catalogue, from the scenario format itself; one `check` walks each
//! through every place. The page's half (its controls and its links) is the root package's
//! `tests/flag_catalogue.rs`.

use kubelife_engine::export::{export, Format};
use kubelife_engine::flags::{self, CommandLine, Component, ConfigFile, Flag, Missing, Rule, Unit, Value};
use kubelife_engine::import::Reader;
use kubelife_engine::scenario::{Config, ProxyMode, Scenario};
use kubelife_engine::version::{Gate, Version};
use serde_yaml_ng::Value as Yaml;

/// Places a flag of the catalogue does not reach yet, each with the reason; `check` asserts the
/// reason still holds, so an entry here is removed once the place carries the flag.
const NOT_IMPORTED: &[(Component, &str)] = &[(
    Component::KubeProxy,
    "kubelife import reads no kube-proxy flag or KubeProxyConfiguration yet (it reports the file as ignored)",
)];

/// The fields of one section of the scenario format, as serde lists them when it refuses an
/// unknown one (``unknown field `?`, expected one of `a`, `b`, …`` or ``expected `a` or `b` ``).
fn section_fields(section: &str) -> Vec<String> {
    let json = format!(r#"{{"{section}": {{"?": 1}}}}"#);
    let e = Scenario::from_json(&json).expect_err("an unknown field is refused");
    let reason = e.reason.english();
    assert!(reason.starts_with("unknown field `?`, expected"), "{e}");
    let quoted: Vec<&str> = reason.split('`').skip(1).step_by(2).collect();
    quoted[1..].iter().map(|field| format!("{section}.{field}")).collect()
}

/// Every flag the engine models: the fields of the scenario format's component sections.
fn modelled_flags() -> Vec<String> {
    let all: Vec<String> = ["kubelet", "controllerManager", "apiServer", "kubeProxy"]
        .iter()
        .flat_map(|s| section_fields(s))
        .collect();
    assert!(all.len() >= 20, "the format lists its fields: {all:?}");
    all
}

/// The newest version that offers `f` (has it, with its feature gate on by default).
fn version_of(f: &Flag) -> Version {
    Version::supported()
        .filter(|v| f.offered(&v.profile()))
        .last()
        .unwrap_or_else(|| panic!("{}: no version offers it", f.name))
}

/// A value of `f` other than version `v`'s default, inside the range a control offers.
fn other_value(f: &Flag, v: Version) -> Value {
    let default = f.default_in(v);
    let (lo, hi) = f.range;
    let candidates: Vec<Value> = match f.unit {
        Unit::Switch => vec![Value::Bool(default.switch() != Some(true))],
        Unit::Mode => ProxyMode::ALL.iter().map(|&m| Value::Mode(m)).collect(),
        Unit::NodesPerSecond | Unit::Fraction => [0.3, 0.6]
            .iter()
            .map(|t| Value::Float(((lo + (hi - lo) * t) * 100.0).round() / 100.0))
            .collect(),
        _ => [0.3, 0.6]
            .iter()
            .filter_map(|t| f.value_of((lo + (hi - lo) * t).round()))
            .collect(),
    };
    candidates
        .into_iter()
        .find(|c| *c != default && f.rule.check(*c).is_ok())
        .unwrap_or_else(|| panic!("{}: no value but the default", f.name))
}

/// What `f` needs beside it for its value to be written and read back: the critical pods'
/// share may not exceed the whole shutdown grace period, and only the legacy path (the taint
/// manager off) reads `--pod-eviction-timeout`.
fn companions(f: &Flag) -> Vec<(&'static Flag, Value)> {
    if f.name == flags::SHUTDOWN_GRACE_PERIOD_CRITICAL_PODS.name {
        return vec![(&flags::SHUTDOWN_GRACE_PERIOD, Value::Duration(600_000))];
    }
    if f.name == flags::POD_EVICTION_TIMEOUT.name {
        return vec![(&flags::ENABLE_TAINT_MANAGER, Value::Bool(false))];
    }
    Vec::new()
}

/// A value as the scenario's JSON, and as a flag's text or a YAML file, writes it.
fn json_of(v: Value) -> serde_json::Value {
    match v {
        Value::Duration(_) | Value::Mode(_) => serde_json::Value::String(v.to_string()),
        Value::Int(i) => i.into(),
        Value::Float(x) => x.into(),
        Value::Bool(b) => b.into(),
    }
}

fn yaml_matches(y: &Yaml, v: Value) -> bool {
    match v {
        Value::Duration(_) | Value::Mode(_) => y.as_str() == Some(v.to_string().as_str()),
        Value::Bool(b) => y.as_bool() == Some(b),
        Value::Int(_) | Value::Float(_) => y.as_f64().is_some() && y.as_f64() == v.number(),
    }
}

/// The scenario's value at a path (`controllerManager.nodeMonitorGracePeriod`).
fn at_path<'a>(json: &'a serde_json::Value, path: &str) -> Option<&'a serde_json::Value> {
    path.split('.').try_fold(json, |j, key| j.get(key))
}

/// A value the flag's rule refuses, if the rule refuses any.
fn refused_value(rule: Rule) -> Option<Value> {
    Some(match rule {
        Rule::Positive => Value::Duration(0),
        Rule::UpTo(max) => Value::Duration(max + 1),
        Rule::Whole(_, hi) | Rule::Seconds(_, hi) => Value::Int(hi + 1),
        Rule::RunLength => Value::Int(0),
        Rule::Fraction => Value::Float(1.5),
        Rule::NodeRate => Value::Float(-1.0),
        Rule::RequestRate => Value::Float(0.0),
        Rule::Any => return None,
    })
}

/// The scenario of the default cluster on version `v` with `f` (and its companions) set.
fn scenario_with(f: &Flag, v: Version, value: Value) -> Scenario {
    let mut s = kubelife_engine::presets::default_cluster(&v.to_string());
    for (g, x) in companions(f) {
        g.put(&mut s, x);
    }
    f.put(&mut s, value);
    s
}

/// The format and validation: written into a scenario, the value sits at the flag's path in the
/// JSON, reads back through it, and resolves to itself; a value the rule refuses, or a version
/// without the flag, is refused naming the path.
fn check_format_and_validation(f: &Flag, v: Version, value: Value) -> Config {
    let s = scenario_with(f, v, value);
    let json: serde_json::Value = serde_json::from_str(&s.to_json()).expect("a scenario is JSON");
    assert_eq!(
        at_path(&json, f.path),
        Some(&json_of(value)),
        "{}: at {}",
        f.name,
        f.path
    );
    let read = Scenario::from_json(&s.to_json()).unwrap_or_else(|e| panic!("{}: {e}", f.name));
    let cfg = read.resolve().unwrap_or_else(|e| panic!("{}: {e}", f.name));
    assert_eq!(f.read(&cfg), value, "{}: resolves to the value written", f.name);
    if let Some(bad) = refused_value(f.rule) {
        let e = scenario_with(f, v, bad).resolve().expect_err(f.name);
        assert_eq!(e.field, f.path, "{}: {e}", f.name);
    }
    let lacking = Version::supported().find(|w| !f.exists_in(&w.profile()));
    if let Some(w) = lacking.filter(|_| !matches!(f.missing, Missing::Never | Missing::Gate)) {
        let mut s = kubelife_engine::presets::default_cluster(&w.to_string());
        f.put(&mut s, value);
        let e = s.resolve().expect_err(f.name);
        assert_eq!(
            (e.field.as_str(), e.reason.clone()),
            (f.path, f.refusal(w)),
            "{}",
            f.name
        );
    }
    cfg
}

/// The command line and the text `kubelife import` reads back: `binary --a=b …`.
fn command_text(e: &kubelife_engine::export::Export) -> String {
    let doc: Yaml = serde_yaml_ng::from_str(&e.yaml).expect("the export is YAML");
    let words: Vec<&str> = doc["command"]
        .as_sequence()
        .expect("a command")
        .iter()
        .filter_map(Yaml::as_str)
        .collect();
    words.join(" ")
}

/// Export: every form the flag has writes it, as its unit writes it. Returns the files that carry
/// it (name, text), for the import.
fn check_export(f: &Flag, cfg: &Config, value: Value) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let text = value.to_string();
    let format = match f.component {
        Component::Kubelet => Some(Format::Rke),
        Component::ControllerManager => Some(Format::ControllerManager),
        Component::ApiServer => Some(Format::ApiServer),
        Component::KubeProxy | Component::Scheduler | Component::Etcd | Component::Simulation => None,
    };
    match (f.command_line, format) {
        (CommandLine::Flag, Some(Format::Rke)) => {
            let e = export(cfg, Format::Rke);
            let doc: Yaml = serde_yaml_ng::from_str(&e.yaml).expect("YAML");
            let arg = &doc["services"]["kubelet"]["extra_args"][f.name];
            assert_eq!(
                arg.as_str(),
                Some(text.as_str()),
                "{}: rke's kubelet extra_args",
                f.name
            );
            files.push(("kubelet.flags".to_string(), format!("kubelet --{}={text}", f.name)));
        }
        (CommandLine::Flag | CommandLine::FeatureGate, Some(format)) => {
            let e = export(cfg, format);
            let command = command_text(&e);
            let want = match f.command_line {
                CommandLine::FeatureGate => format!("--feature-gates={}={text}", f.name),
                _ => format!("--{}={text}", f.name),
            };
            assert!(command.split(' ').any(|w| w == want), "{}: {want} in {command}", f.name);
            files.push(("command-line".to_string(), command));
        }
        _ => {}
    }
    if let Some(file) = f.file {
        let form = match file.file {
            ConfigFile::KubeletConfiguration => Format::Kubelet,
            ConfigFile::KubeProxyConfiguration => Format::KubeProxy,
        };
        let e = export(cfg, form);
        let doc: Yaml = serde_yaml_ng::from_str(&e.yaml).expect("YAML");
        // kube-proxy's per-mode fields sit under the mode in use.
        let at = match file.field.split_once('.') {
            Some((_, key)) => &doc[cfg.kube_proxy.mode.name()][key],
            None => &doc[file.field],
        };
        assert!(yaml_matches(at, value), "{}: {} in\n{}", f.name, file.field, e.yaml);
        files.push((format!("{}.yaml", file.file.kind()), e.yaml));
    }
    let exported = f.command_line != CommandLine::None || f.file.is_some();
    assert_eq!(
        !files.is_empty(),
        exported,
        "{}: export writes every flag and file field",
        f.name
    );
    files
}

/// Import: what export wrote reads back to the same value.
fn check_import(f: &Flag, v: Version, value: Value, files: &[(String, String)]) {
    let version = v.to_string();
    for (name, text) in files {
        let read = kubelife_engine::import::import(&[(name.as_str(), text.as_str())], Reader::Cli(Some(&version)));
        let cfg = read.scenario.resolve().unwrap_or_else(|e| panic!("{}: {e}", f.name));
        let not_imported = NOT_IMPORTED.iter().find(|(c, _)| *c == f.component);
        match not_imported {
            None => assert_eq!(f.read(&cfg), value, "{}: import reads {name} back", f.name),
            Some((_, why)) => assert_ne!(f.read(&cfg), value, "{}: the exception ({why}) no longer holds", f.name),
        }
    }
}

/// One flag through every place: the catalogue, the format and validation, export, import.
fn check(path: &str) {
    let f = flags::by_path(path).unwrap_or_else(|| panic!("{path} is not in the flag catalogue"));
    let kubernetes = f.component != Component::Simulation;
    assert_eq!(
        kubernetes,
        f.command_line != CommandLine::None || f.file.is_some(),
        "{}: a component's setting is a flag or a file's field, and only it",
        f.name
    );
    let v = version_of(f);
    let value = other_value(f, v);
    let cfg = check_format_and_validation(f, v, value);
    let files = check_export(f, &cfg, value);
    check_import(f, v, value, &files);
}

#[test]
fn every_modelled_flag_is_in_the_catalogue_and_reaches_every_place_from_there() {
    for path in modelled_flags() {
        check(&path);
    }
}

/// The catalogue declares nothing else: beside the format's flags, the feature gate a version
/// lets one turn off and the simulation's own timings, each checked the same way.
#[test]
fn the_catalogue_holds_the_modelled_flags_the_gates_and_the_simulations_timings() {
    let modelled = modelled_flags();
    let timings: Vec<String> = section_fields("simulation");
    for f in flags::ALL.iter() {
        let gate = f.path.strip_prefix("featureGates.").and_then(Gate::by_name);
        let known = modelled.iter().any(|p| p == f.path)
            || (gate.is_some() && f.command_line == CommandLine::FeatureGate)
            || (f.component == Component::Simulation
                && (timings.iter().any(|p| p == f.path) || f.path == "durationSeconds"));
        assert!(known, "{}: {} is no field of the scenario format", f.name, f.path);
        check(f.path);
    }
}

#[test]
fn the_check_fails_for_a_flag_the_catalogue_lacks() {
    let missing = std::panic::catch_unwind(|| check("controllerManager.nodeMonitorGracePeriodTypo"));
    assert!(missing.is_err());
}
