//! The node-side data plane, as far as it sets the timing of a failure: kube-proxy, and what the
//! Services' clients see through it.

mod client_summary;
#[cfg(feature = "clients")]
pub mod clients;
pub mod kube_proxy;

pub use client_summary::ClientSummary;
