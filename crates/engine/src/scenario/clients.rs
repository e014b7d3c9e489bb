//! The `clients` section as the engine runs on it: each client's Service, node, rate and its
//! library's settings merged with the overrides, ms. The pinned JSON is `format`'s
//! (`ClientSection`); `client_rules` resolves and checks it; `network::clients` runs it.

use super::libraries::Style;
use crate::time::Millis;
use serde::{Deserialize, Serialize};

/// A resolved client.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClientSpec {
    /// Its name.
    pub name: String,
    /// The Service it calls (by workload index).
    pub service: usize,
    /// Its library's name (a row of `libraries::LIBRARIES`).
    pub library: String,
    /// The node it runs on.
    pub from: usize,
    /// Requests a second.
    pub rate: f64,
    /// Its settings, ms; 0 is none.
    pub params: ClientParams,
}

/// A client's settings after its library's defaults and its overrides, ms (0: none).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct ClientParams {
    /// How it keeps connections.
    pub style: Style,
    /// How long a dial may take.
    pub connect_timeout: Millis,
    /// How long a request may take.
    pub request_timeout: Millis,
    /// TCP keepalive's idle time (grpc-go: its ping's `Time`).
    pub keepalive_time: Millis,
    /// TCP keepalive's interval.
    pub keepalive_interval: Millis,
    /// TCP keepalive's probes.
    pub keepalive_probes: i64,
    /// `TCP_USER_TIMEOUT` in force (grpc-go: 0 unless `keepaliveTime` is set).
    pub tcp_user_timeout: Millis,
    /// An idle pooled connection is closed after this.
    pub idle_conn_timeout: Millis,
}
