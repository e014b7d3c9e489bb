//! EndpointSlices as the apiserver holds them: per pod of a Service, the three conditions
//! `podToEndpoint` writes (`discovery.k8s.io/v1` `EndpointConditions`).

use super::PodId;
use std::collections::BTreeMap;

/// One endpoint's conditions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Endpoint {
    /// `ready`: serving and not terminating (or `publishNotReadyAddresses`).
    pub ready: bool,
    /// `serving`: the pod's Ready condition is True.
    pub serving: bool,
    /// `terminating`: the pod has a deletionTimestamp.
    pub terminating: bool,
}

/// One Service's endpoints, by pod (the engine keeps one slice per Service).
pub type Slice = BTreeMap<PodId, Endpoint>;
