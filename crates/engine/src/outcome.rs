//! What a run gives its readers: the options that choose what is recorded ([`RunOptions`]), the
//! events with names instead of indices ([`TimelineEvent`], the pinned JSON form), and the whole
//! [`Outcome`] (events, summary, warnings). The milestones, the chains, the renderings and the
//! wire form read these types; [`crate::run::run`] produces them.

use crate::cause::Cause;
use crate::summary::Summary;
use crate::time::Millis;
use crate::timeline::{EventKind, ZoneState};
use serde::Serialize;

/// Options of a run that do not change what happens, only what is recorded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// Record `LeaseRenewed` and `NodeStatusPatched` events.
    pub heartbeats: bool,
}

/// One event with names instead of indices: the pinned JSON form.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TimelineEvent {
    /// Its place in [`Outcome::events`], which other events' `after` name.
    pub id: usize,
    /// When, ms from the start of the run.
    pub at_ms: Millis,
    /// What.
    pub kind: EventKind,
    /// The node, if any.
    pub node: Option<String>,
    /// The pod, if any.
    pub pod: Option<String>,
    /// The taint, as `key:Effect`, if any.
    pub taint: Option<String>,
    /// The zone, for zone events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zone: Option<String>,
    /// The zone's new state, for zone events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<ZoneState>,
    /// The Service, for endpoint and traffic events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub service: Option<String>,
    /// The volume, for volume events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub volume: Option<String>,
    /// The remediator, for `RemediationStarted` and `RemediationBlocked`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remediator: Option<String>,
    /// The client, for `ClientErrorsStarted` and `ClientErrorsEnded`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client: Option<String>,
    /// Why it happened (serialized as its English text).
    pub cause: Cause,
    /// The event that made this one possible (its `id`), if any: following `after` back walks
    /// the chain that led here, to a fault or an operator's action.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<usize>,
}

/// What a run produced.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Outcome {
    /// Events in time order.
    pub events: Vec<TimelineEvent>,
    /// Figures over the run.
    pub summary: Summary,
    /// Messages about settings worth a second look (serialized as their English text).
    pub warnings: Vec<Cause>,
}

impl Outcome {
    /// The pinned JSON form: `{"events": [...], "summary": {...}, "warnings": [...]}`.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("an Outcome always serializes")
    }
}
