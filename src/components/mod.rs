//! The playground's components. Each draws part of the model; none simulates.

pub mod breakdown;
pub mod cluster;
pub mod cost;
pub mod events;
pub mod slider;
pub mod timeline;
