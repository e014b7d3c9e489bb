//! Scenarios: what a user may write, what the engine runs on, and the rules between the two.
//!
//! - [`format`]: the pinned JSON format ([`Scenario`] and its sections), with serde and nothing else.
//! - [`config`]: the resolved configuration ([`Config`]) and each component's version defaults.
//! - [`validate`]: [`Scenario::resolve`], which applies the defaults and checks every value.

pub mod config;
pub mod format;
pub mod validate;
mod workload_extras;

pub use config::*;
pub use format::*;
