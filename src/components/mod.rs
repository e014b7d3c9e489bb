//! The playground's components. Each draws part of the model; none simulates.

pub mod breakdown;
pub mod cluster;
pub mod compare;
pub mod cost;
pub mod events;
pub mod export;
pub mod slider;
pub mod timeline;
pub mod tour;
pub mod workshop;
