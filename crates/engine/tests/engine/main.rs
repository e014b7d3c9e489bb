//! Integration tests of the engine, one binary with a module per topic.

mod actions;
#[cfg(feature = "clients")]
mod client_errors;
#[cfg(feature = "clients")]
mod client_fixes;
#[cfg(feature = "clients")]
mod clients;
mod cloud;
mod cloud_presets;
mod common;
#[cfg(feature = "clients")]
mod conntrack_golden;
#[path = "../support/default_forms.rs"]
mod default_forms;
#[cfg(feature = "clients")]
mod dns;
#[cfg(feature = "clients")]
mod dns_golden;
mod endtoend;
mod explanations;
mod flags;
mod import;
#[path = "../support/layering.rs"]
mod layering;
#[cfg(feature = "clients")]
mod load_balancers;
mod messages;
mod properties;
#[cfg(feature = "clients")]
mod proxies;
mod remediation;
mod remediation_limits;
mod scenario_errors;
#[path = "../support/scenarios.rs"]
mod scenarios;
mod seeded;
mod service_storage;
mod settings_table;
mod snapshots;
mod tidy;
#[cfg(feature = "clients")]
mod timelines_golden;
mod tune;
mod volume_properties;
mod windows;
