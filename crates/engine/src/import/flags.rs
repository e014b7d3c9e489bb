//! Flags as a component reads them, from a command line, a flag list or a distribution's
//! name/value map. Parsing follows pflag (`--name=value`, `--name value`, a bare boolean
//! `--name`) and `--feature-gates` follows component-base's `featuregate.Set`
//! (`Name=true,Other=false`).

use super::collect::Collector;
use super::field::{parse_bool, Component, Field, Layer};
use super::place::Place;
use super::report::EntryKind;
use super::shown::Shown;
use super::text::is_flag;
use super::version_text::is_template;
use crate::cause::Cause;
use crate::version::Gate;

/// One flag: its name without dashes and its text, if it has one.
pub type Flag = (String, Option<String>);

/// Splits command-line words into flags as pflag does: `--a=b`, `--a b` (unless `a` is a boolean
/// flag kubelife models), `--a`; and the words that are neither a long flag nor a flag's value
/// (shorthand flags such as `-v=2`, stray words).
pub fn from_words(words: &[String]) -> (Vec<Flag>, Vec<String>) {
    let mut out = Vec::new();
    let mut stray = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        i += 1;
        if !is_flag(w) {
            stray.push(w.clone());
            continue;
        }
        let body = &w[2..];
        if let Some((name, value)) = body.split_once('=') {
            out.push((name.to_string(), Some(value.to_string())));
            continue;
        }
        let bool_flag = Field::by_flag(body).is_some_and(|(_, f)| f.is_bool());
        match words.get(i) {
            Some(next) if !bool_flag && !next.starts_with('-') => {
                out.push((body.to_string(), Some(next.clone())));
                i += 1;
            }
            _ => out.push((body.to_string(), None)),
        }
    }
    (out, stray)
}

/// Applies the flags of command-line words ([`from_words`]), as [`apply`] does, and reports the
/// words that are not flags.
pub fn apply_words(
    c: &mut Collector,
    file: &str,
    component: Option<Component>,
    words: &[String],
    place: &dyn Fn(Component, &str) -> Place,
) {
    let (flags, stray) = from_words(words);
    apply(c, file, component, &flags, place);
    match component {
        Some(comp) => c.ignore_names("import.ignored.words", file, comp.name(), &stray),
        None => c.ignore_names("import.ignored.words.listed", file, "", &stray),
    }
}

/// A `name=value` entry of a distribution's argument list (rke2/k3s `kubelet-arg`); a leading
/// `--` is accepted, as k3s's `pkg/util/args.go` strips it.
pub fn from_entry(entry: &str) -> Flag {
    let e = entry.trim().trim_start_matches("--");
    match e.split_once('=') {
        Some((n, v)) => (n.to_string(), Some(v.to_string())),
        None => (e.to_string(), None),
    }
}

/// Applies flags read from `file`. `component` is the process they are given to (`None`: a plain
/// flag list, where each modelled flag goes to the component that owns it); `place` says where a
/// flag lives in this distribution. Flags the model does not use are reported together.
pub fn apply(
    c: &mut Collector,
    file: &str,
    component: Option<Component>,
    flags: &[Flag],
    place: &dyn Fn(Component, &str) -> Place,
) {
    let mut unused = Vec::new();
    for (name, value) in flags {
        if name == "feature-gates" {
            gates(c, file, component, value.as_deref().unwrap_or(""), place);
            continue;
        }
        let Some((owner, field)) = Field::by_flag(name) else {
            unused.push(format!("--{name}"));
            continue;
        };
        if let Some(given) = component.filter(|&g| g != owner) {
            let cause = Cause::new("import.ignored.wrong_component")
                .text("file", file)
                .shown("flag", &format!("--{name}"))
                .text("component", given.name())
                .text("owner", owner.name());
            c.push(EntryKind::Ignored, cause);
            continue;
        }
        let text = match value {
            Some(v) => v.as_str(),
            // pflag: a boolean flag given bare is `true`.
            None if field.is_bool() => "true",
            None => {
                c.malformed(file, &format!("--{name}"), "", Cause::new("import.value.needs_value"));
                continue;
            }
        };
        if is_template(text) {
            c.template(file, &format!("--{name}"), text);
            continue;
        }
        match field.parse(text) {
            Ok(v) => c.set(field, Layer::Flag, v, file, place(owner, &format!("--{name}"))),
            Err(e) => c.malformed(file, &format!("--{name}"), text, e),
        }
    }
    match component {
        Some(comp) => c.ignore_names("import.ignored.flags", file, comp.name(), &unused),
        None => c.ignore_names("import.ignored.flags.listed", file, "", &unused),
    }
}

/// `--feature-gates=A=true,B=false`: each gate kubelife models counts only on the component that
/// reads it (the same rule as [`Field::gate_owner`]).
fn gates(
    c: &mut Collector,
    file: &str,
    component: Option<Component>,
    text: &str,
    place: &dyn Fn(Component, &str) -> Place,
) {
    let mut unused = Vec::new();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (name, value) = item.split_once('=').unwrap_or((item, ""));
        let (name, value) = (name.trim(), value.trim());
        let Some(gate) = Gate::by_name(name) else {
            unused.push(name.to_string());
            continue;
        };
        let owner = Field::gate_owner(gate);
        if component.is_some_and(|g| g != owner) {
            unused.push(name.to_string());
            continue;
        }
        match parse_bool(value) {
            Some(b) => {
                let flag = format!("--feature-gates={name}");
                c.set(
                    Field::Gate(gate),
                    Layer::Flag,
                    super::field::Value::Bool(b),
                    file,
                    place(owner, &flag),
                );
            }
            None => c.malformed(
                file,
                &format!("--feature-gates {name}"),
                value,
                Cause::new("import.value.not_bool"),
            ),
        }
    }
    c.ignore_names("import.ignored.gates", file, "--feature-gates", &unused);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn splits_like_pflag() {
        let (f, stray) = from_words(&words(
            "--node-monitor-period 2s --enable-taint-manager --leader-elect=false x --max-pods=30 -v=2",
        ));
        assert_eq!(stray, ["x", "-v=2"]);
        assert_eq!(
            f,
            [
                ("node-monitor-period".to_string(), Some("2s".to_string())),
                ("enable-taint-manager".to_string(), None),
                ("leader-elect".to_string(), Some("false".to_string())),
                ("max-pods".to_string(), Some("30".to_string())),
            ]
        );
        assert_eq!(from_entry("--node-monitor-period=4s").1.as_deref(), Some("4s"));
    }
}
