//! kube-controller-manager's controllers, kube-scheduler and the cloud-controller-manager's node
//! lifecycle controller, as far as they set the timing of a node failure. Each module follows one upstream controller and names its functions.

pub mod admission;
pub mod attach_detach;
pub mod cloud_node_lifecycle;
pub mod disruption;
pub mod drain;
pub mod endpointslice;
pub mod node_group;
pub mod node_lifecycle;
pub mod podgc;
pub mod rate_limited_queue;
pub mod remediation;
pub mod scheduler;
pub mod scheduler_index;
pub mod taint_eviction;
pub mod workloads;
