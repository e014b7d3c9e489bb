//! The default page's run, made ahead of time. A page opened without settings of its own (the
//! plain address, or one that only picks a language, panels or the playhead) draws this run at
//! once, so its first render waits for no worker: the worker's script and wasm are fetched after
//! that render, for the first edit.
//!
//! `first_run.wire` is the worker's run of [`Settings::default`] in the engine's wire form
//! (`kubelife_engine::wire`). A test checks that it is still what the engine makes, natively and
//! in the browser's wasm; `UPDATE_EXPECT=1 cargo test -p kubelife first_run` writes it again.

use crate::settings::Settings;
use kubelife_engine::Outcome;

/// The default settings' run, in the engine's wire form (about 7.5 KB).
pub const WIRE: &[u8] = include_bytes!("first_run.wire");

/// The run of `settings`, when it is the one made ahead.
pub fn outcome_for(settings: &Settings) -> Option<Outcome> {
    if *settings != Settings::default() {
        return None;
    }
    kubelife_engine::wire::decode(WIRE).ok()
}

/// What the worker makes for the default settings now, in the wire form.
pub fn current() -> Vec<u8> {
    kubelife_engine::wire::encode(&crate::jobs::engine::run_settings(&Settings::default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_run_is_what_the_engine_makes_now() {
        let now = current();
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/src/first_run.wire"), &now).expect("writes");
            return;
        }
        assert!(
            WIRE == now.as_slice(),
            "src/first_run.wire is stale: the engine's default run changed; \
             run `UPDATE_EXPECT=1 cargo test -p kubelife first_run` to write it again"
        );
    }

    /// The page's own English part (`i18n/en.json`, built into its wasm) holds the texts of
    /// this run's causes and their brief forms, and no other cause's: the rest are in the texts
    /// fetched once the page is live (`i18n/later-en.json`), which every other run waits for
    /// (`bridge::use_engine`). A new cause's texts go there.
    #[test]
    fn the_page_part_holds_this_runs_causes_and_no_others() {
        use kubelife_engine::cause::{parse_catalogue, Arg, Cause};
        use std::collections::BTreeSet;
        fn walk(c: &Cause, out: &mut BTreeSet<String>) {
            out.insert(c.key.to_string());
            for (_, arg) in &c.args {
                if let Arg::Cause(inner) = arg {
                    walk(inner, out);
                }
            }
        }
        let run = kubelife_engine::wire::decode(WIRE).expect("the run made ahead reads");
        let mut used = BTreeSet::new();
        for cause in run.events.iter().map(|e| &e.cause).chain(&run.warnings) {
            walk(cause, &mut used);
        }
        let page = parse_catalogue(include_str!("../i18n/en.json")).expect("en.json");
        let later = parse_catalogue(include_str!("../i18n/later-en.json")).expect("later-en.json");
        let briefs: Vec<String> = used
            .iter()
            .filter_map(|k| k.strip_prefix("cause."))
            .map(|k| format!("seg.{k}"))
            .filter(|s| page.contains_key(s) || later.contains_key(s))
            .collect();
        used.extend(briefs);
        let held: BTreeSet<String> = page
            .keys()
            .filter(|k| k.starts_with("cause.") || k.starts_with("seg."))
            .cloned()
            .collect();
        let missing: Vec<_> = used.difference(&held).collect();
        let extra: Vec<_> = held.difference(&used).collect();
        assert!(
            missing.is_empty(),
            "move these to i18n/en.json, the default run shows them: {missing:?}"
        );
        assert!(
            extra.is_empty(),
            "move these to i18n/later-en.json, the default run never shows them: {extra:?}"
        );
    }

    #[test]
    fn only_the_default_settings_use_it() {
        assert!(outcome_for(&Settings::default()).is_some());
        let other = Settings {
            nodes: 4,
            ..Settings::default()
        };
        assert!(outcome_for(&other).is_none());
    }
}
