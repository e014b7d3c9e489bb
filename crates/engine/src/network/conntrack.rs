//! Which conntrack entries kube-proxy deletes after a sync (`pkg/proxy/conntrack/cleanup.go`,
//! the clients spec's part A §1.2 and part B §2.2), as one pure rule: given an entry and its
//! Service's UDP port as the sync sees it, is the entry deleted? Only UDP entries ever are; a
//! TCP or SCTP flow keeps the pod its first packet reached, whatever the rules say later.

/// An entry's protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proto {
    /// TCP: never cleaned (a graceful shutdown would break).
    Tcp,
    /// UDP: the only protocol cleaned.
    Udp,
    /// SCTP: never cleaned by the forms read (≤ 1.26 exec'd `conntrack` for it too).
    Sctp,
}

/// Where an entry's first packet was sent (its `--orig-dst`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Frontend {
    /// The Service's ClusterIP.
    ClusterIp,
    /// One of its load balancer IPs.
    LoadBalancerIp,
    /// One of its external IPs.
    ExternalIp,
    /// A node's IP at the Service's node port (matched on the port alone).
    NodePort,
}

/// A pod's address as conntrack's reply source (`--reply-src`, `--reply-port-src`): an IP
/// (any number naming one) and a port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Endpoint {
    /// The pod's IP.
    pub ip: u32,
    /// The pod's port.
    pub port: u16,
}

/// One conntrack entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flow {
    /// Its protocol.
    pub proto: Proto,
    /// Where it was sent.
    pub to: Frontend,
    /// Whether it was sent to the Service's port (for `NodePort`: its node port); `false`: to
    /// another port of the same IP, which kube-proxy does not own.
    pub service_port: bool,
    /// The endpoint it was DNATed to; `None`: not DNATed (the reply comes from the frontend,
    /// as when no rule matched).
    pub target: Option<Endpoint>,
}

/// A Service's UDP port as one sync sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Service<'a> {
    /// Its serving endpoints now; `None`: the Service was deleted.
    pub serving: Option<&'a [Endpoint]>,
    /// Its ready endpoints at the previous sync (the event-based form compares the two).
    pub before: &'a [Endpoint],
}

/// The form of kube-proxy's cleanup a release runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cleanup {
    /// ≤ 1.31: per sync, entries to the frontends' IPs whose reply source is an endpoint that
    /// left (`deleteStaleEndpointConntrackEntries`), and all entries to a Service that had no
    /// endpoint or was deleted (`deleteStaleServiceConntrackEntries`); any port of those IPs.
    Event,
    /// 1.32–1.36 (PR #127318): every UDP entry to a frontend `IP:port` whose reply source is
    /// not a serving endpoint's `IP:port`; a Service without serving endpoints is skipped.
    Reconciler,
    /// ≥ 1.37 (PRs #139629 and #141371, release taken as 1.37): the reconciler with an empty
    /// set for a Service without serving endpoints or deleted, except its node port.
    Fixed,
}

impl Cleanup {
    /// The form run by Kubernetes `1.minor`.
    pub fn of_minor(minor: u32) -> Cleanup {
        match minor {
            0..=31 => Cleanup::Event,
            32..=36 => Cleanup::Reconciler,
            _ => Cleanup::Fixed,
        }
    }
}

/// Whether the sync's cleanup deletes `flow`, an entry to `svc`'s frontends (or to another port
/// of their IPs), under `form`.
pub fn deletes(form: Cleanup, flow: &Flow, svc: &Service<'_>) -> bool {
    if flow.proto != Proto::Udp {
        return false;
    }
    match form {
        Cleanup::Event => event_deletes(flow, svc),
        Cleanup::Reconciler | Cleanup::Fixed => reconciler_deletes(form, flow, svc),
    }
}

/// The event-based form: an endpoint that was ready and is no longer (its `IP:port` gone) is
/// stale, and entries replying from its IP are deleted; a Service deleted or newly active
/// (from no endpoint to some) has every entry to its IPs deleted (node port: a newly active
/// one only; a deleted one's ClusterIP only).
fn event_deletes(flow: &Flow, svc: &Service<'_>) -> bool {
    let to_ip = flow.to != Frontend::NodePort;
    let Some(serving) = svc.serving else {
        return flow.to == Frontend::ClusterIp;
    };
    if svc.before.is_empty() && !serving.is_empty() {
        return to_ip || flow.service_port;
    }
    let stale = |e: &Endpoint| !serving.contains(e);
    let from_stale = flow
        .target
        .is_some_and(|t| svc.before.iter().any(|b| b.ip == t.ip && stale(b)));
    from_stale && (to_ip || flow.service_port)
}

/// The reconciler: an entry to a frontend at the Service's port whose reply source is not a
/// serving endpoint is deleted; the forms differ only for a Service with no serving endpoint.
fn reconciler_deletes(form: Cleanup, flow: &Flow, svc: &Service<'_>) -> bool {
    let serving = svc.serving.unwrap_or(&[]);
    if !flow.service_port || (svc.serving.is_none() && form == Cleanup::Reconciler) {
        return false;
    }
    if serving.is_empty() {
        // 1.32 skips the Service ("a Service without endpoints does not require to clean");
        // the fix cleans its IPs but not its node port, matched on the port alone.
        return form == Cleanup::Fixed && flow.to != Frontend::NodePort;
    }
    !flow.target.is_some_and(|t| serving.contains(&t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tcp_is_never_cleaned_and_forms_follow_the_release() {
        let dead = Endpoint { ip: 1, port: 53 };
        let flow = |proto| Flow {
            proto,
            to: Frontend::ClusterIp,
            service_port: true,
            target: Some(dead),
        };
        let svc = Service {
            serving: Some(&[]),
            before: &[dead],
        };
        for form in [Cleanup::Event, Cleanup::Reconciler, Cleanup::Fixed] {
            assert!(!deletes(form, &flow(Proto::Tcp), &svc));
        }
        assert_eq!(
            [31, 32, 36, 37].map(Cleanup::of_minor),
            [Cleanup::Event, Cleanup::Reconciler, Cleanup::Reconciler, Cleanup::Fixed]
        );
    }
}
