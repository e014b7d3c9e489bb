//! The kubelife playground: a Yew app around the lifecycle engine.
//!
//! The model (settings, replay, explanations) is plain Rust that tests run natively; the
//! components only draw it. The engine runs in a Web Worker (`worker`, reached through
//! `bridge`) on every change of a control, so the page never waits on a run.

pub mod app;
pub mod bridge;
pub mod browser;
pub mod components;
pub mod exercises;
pub mod explain;
pub mod first_run;
pub mod first_view;
pub mod hooks;
pub mod i18n;
pub mod import;
pub mod knobs;
pub mod link;
pub mod model;
pub mod replay;
pub mod settings;
pub mod worker;
pub mod worker_line;
