//! The kubelife playground: a Yew app around the lifecycle engine and the playground's core.
//!
//! The core (`kubelife_playground`: settings, links, exercises, explanations, the model) is plain
//! Rust with no web dependency that tests run natively; this crate is its shell: the components
//! draw it, the hooks carry its effects, and the workers run the engine and read files. The
//! engine runs in a Web Worker (`worker`, reached through `bridge`) on every change of a control,
//! so the page never waits on a run.

pub mod app;
pub mod bridge;
pub mod browser;
pub mod components;
pub mod first_run;
pub mod first_view;
pub mod hooks;
pub mod i18n;
pub mod worker;
pub mod worker_line;

// The page's core, with no web dependency, under the paths the page and its tests use.
pub use kubelife_playground::{
    cards, compare, decimal, exercises, explain, import, jobs, knobs, link, model, replay, settings, slo, tune,
};
