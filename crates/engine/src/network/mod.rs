//! The node-side data plane, as far as it sets the timing of a failure: kube-proxy, and what the
//! Services' clients see through it.

mod client_summary;
#[cfg(feature = "clients")]
pub mod clients;
#[cfg(feature = "clients")]
pub mod conntrack;
pub mod kube_proxy;
#[cfg(feature = "clients")]
pub mod resolv_conf;

pub use client_summary::ClientSummary;
