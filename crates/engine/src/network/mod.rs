//! The node-side data plane, as far as it sets the timing of a failure: kube-proxy.

pub mod kube_proxy;
