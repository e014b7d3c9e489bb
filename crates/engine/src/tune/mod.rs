//! Asking it backwards: from a target ("firstReplacementReady within 60s at p95") to the
//! settings that meet it. `target` reads and judges targets against spreads over seeds.

pub mod target;

pub use target::{Target, Verdict};
