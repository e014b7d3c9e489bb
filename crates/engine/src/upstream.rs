//! Upstream constants and rules that explanations quote, for the page and its tests: the same
//! values the controllers use, so a text that names one cannot drift from the model.

pub use crate::control_plane::attach_detach::MAX_WAIT_FOR_UNMOUNT;
pub use crate::control_plane::node_lifecycle::zone_state;
pub use crate::control_plane::podgc::QUARANTINE as PODGC_QUARANTINE;
pub use crate::kubelet::volume_manager::{INITIAL_BACKOFF, MAX_BACKOFF};
#[cfg(feature = "clients")]
pub use crate::network::clients::lookup_rule;
#[cfg(feature = "clients")]
pub use crate::network::{conntrack, resolv_conf};
