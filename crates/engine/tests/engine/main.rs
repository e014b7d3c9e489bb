//! Integration tests of the engine, one binary with a module per topic.

mod common;
mod golden;
mod properties;
mod scenario_errors;
mod snapshots;
mod tidy;
mod windows;
