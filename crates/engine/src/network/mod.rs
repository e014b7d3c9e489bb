//! The node-side data plane, as far as it sets the timing of a failure: kube-proxy, and what the
//! Services' clients see through it.

#[cfg(feature = "clients")]
pub mod clients;
pub mod kube_proxy;
