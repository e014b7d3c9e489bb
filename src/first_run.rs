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
