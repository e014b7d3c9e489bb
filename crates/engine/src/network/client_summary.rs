//! What each client saw over a run, for `summary.clients`: outside `clients`, which only the
//! engine's `clients` feature builds, because the summary's type names it.

use crate::time::Millis;
use serde::{Deserialize, Serialize};

/// One client's requests and errors.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClientSummary {
    /// The client's name.
    pub name: String,
    /// Requests it sent over the run.
    pub requests: u64,
    /// Of them, those that failed (or still hung at the end).
    pub failed: u64,
    /// The first error returned, ms.
    pub first_error_ms: Option<Millis>,
    /// The last error returned within the run, ms.
    pub last_error_ms: Option<Millis>,
    /// The longest a failing request waited, ms.
    pub worst_latency_ms: Millis,
}
