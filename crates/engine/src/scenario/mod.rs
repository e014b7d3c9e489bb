//! Scenarios: what a user may write, what the engine runs on, and the rules between the two.
//!
//! - [`format`]: the pinned JSON format ([`Scenario`] and its sections), with serde and nothing else.
//! - [`config`]: the resolved configuration ([`Config`]) and each component's version defaults.
//! - [`flags`]: the flag catalogue, one declaration per tunable, which validation, export, import
//!   and the page read.
//! - [`validate`]: [`Scenario::resolve`], which applies the defaults and checks every value.
//! - [`settings`]: the cloud and remediator settings table, one declaration per field of the
//!   `cloud` section and of each remediator, which validation, import, the page and the documents
//!   read.
//! - [`cloud`]: the `cloud` and `remediation` sections' resolved forms; `cloud_rules` resolves
//!   and checks them from the table.
//! - [`libraries`]: the client libraries' table, one row per library; [`clients`]: the `clients`
//!   section's resolved form; `client_rules` resolves and checks it from the table.
//! - [`load_balancers`]: the cloud load balancers' table, one row per kind and
//!   `externalTrafficPolicy`, for a Service of type `LoadBalancer`.

#[cfg(feature = "clients")]
mod client_rules;
#[cfg(feature = "clients")]
pub use client_rules::with_override;
#[cfg(feature = "clients")]
pub mod clients;
pub mod cloud;
mod cloud_rules;
pub(crate) use cloud_rules::ready_checks;
pub mod config;
pub mod flags;
pub mod format;
pub mod libraries;
#[cfg(feature = "clients")]
pub mod load_balancers;
pub mod settings;
pub mod validate;
mod workload_extras;

pub use config::*;
pub use format::*;
