//! The timing rules a client's connection follows (the spec's §2), as pure functions, ms.

use crate::scenario::clients::{ClientParams, Resolver};
use crate::scenario::libraries::{Style, GRPC_KEEPALIVE_TIMEOUT, RETRIES2_BUDGET, SYN_BUDGET};
use crate::time::Millis;

/// What ended a request or a connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mech {
    /// Linux gave up retransmitting unacknowledged data (`tcp_retries2`).
    Retries2,
    /// `TCP_USER_TIMEOUT` aborted the connection.
    UserTimeout,
    /// The library's request timeout.
    RequestTimeout,
    /// gRPC's keepalive ping went unacknowledged.
    GrpcKeepalive,
    /// The library's connect timeout ended a dial.
    ConnectTimeout,
    /// Linux gave up retransmitting the SYN (`tcp_syn_retries`).
    SynRetries,
    /// kube-proxy's reject rule refused the dial: the Service had no endpoint.
    NoEndpoints,
    /// The dead pod's machine came back, and its kernel answered a retransmission with a reset.
    Reset,
    /// A lookup's queries went to a dead CoreDNS pod until the resolver gave up.
    DnsTimeout(Resolver),
    /// kube-dns had no endpoint: the reject rule's ICMP error (musl waits its timeout instead).
    DnsRefused(Resolver),
    /// An NLB called the flow's target unhealthy and reset the flow (TCP RST).
    LbReset,
    /// An ALB could not connect to the target within its connect timeout: 504.
    Alb504,
    /// An ALB's request in flight to a target whose machine died got no answer within the
    /// ALB's idle timeout: 504.
    AlbIdle504,
}

impl Mech {
    /// Its cause's catalogue key.
    pub fn key(self) -> &'static str {
        match self {
            Mech::Retries2 => "cause.client.retries2",
            Mech::UserTimeout => "cause.client.user_timeout",
            Mech::RequestTimeout => "cause.client.request_timeout",
            Mech::GrpcKeepalive => "cause.client.grpc_keepalive",
            Mech::ConnectTimeout => "cause.client.connect_timeout",
            Mech::SynRetries => "cause.client.syn_retries",
            Mech::NoEndpoints => "cause.client.no_endpoints",
            Mech::Reset => "cause.client.reset",
            Mech::DnsTimeout(Resolver::Glibc) => "cause.client.dns_glibc",
            Mech::DnsTimeout(Resolver::Musl) => "cause.client.dns_musl",
            Mech::DnsTimeout(Resolver::Go) => "cause.client.dns_go",
            Mech::DnsRefused(Resolver::Musl) => "cause.client.dns_refused_musl",
            Mech::DnsRefused(_) => "cause.client.dns_refused",
            Mech::LbReset => "cause.lb.reset",
            Mech::Alb504 => "cause.lb.alb_504",
            Mech::AlbIdle504 => "cause.lb.alb_504_idle",
        }
    }
}

/// When a connection whose peer died silently ends, after a request was written into it at
/// `written` and its last segment was received at `last_rx`, and what ends it: the earliest of
/// the request timeout, `TCP_USER_TIMEOUT`, gRPC's keepalive ping (`last_rx` + `Time` +
/// `Timeout`) and `tcp_retries2`. TCP keepalive does not run while data is unacknowledged.
pub fn stuck_until(p: &ClientParams, written: Millis, last_rx: Millis) -> (Millis, Mech) {
    let mut best = (written + RETRIES2_BUDGET, Mech::Retries2);
    let mut offer = |at: Millis, m: Mech| {
        if at < best.0 {
            best = (at, m);
        }
    };
    if p.tcp_user_timeout > 0 {
        offer(written + p.tcp_user_timeout, Mech::UserTimeout);
    }
    if p.style == Style::Multiplexed && p.keepalive_time > 0 {
        let timeout = if p.tcp_user_timeout > 0 {
            p.tcp_user_timeout
        } else {
            GRPC_KEEPALIVE_TIMEOUT
        };
        offer((last_rx + p.keepalive_time + timeout).max(written), Mech::GrpcKeepalive);
    }
    if p.request_timeout > 0 {
        offer(written + p.request_timeout, Mech::RequestTimeout);
    }
    best
}

/// How long a dial to a pod that does not answer lasts, and what ends it: the connect timeout,
/// the request timeout, or Linux's SYN budget, whichever comes first.
pub fn dial_budget(p: &ClientParams) -> (Millis, Mech) {
    let mut best = (SYN_BUDGET, Mech::SynRetries);
    for (ms, m) in [
        (p.connect_timeout, Mech::ConnectTimeout),
        (p.request_timeout, Mech::RequestTimeout),
    ] {
        if ms > 0 && ms < best.0 {
            best = (ms, m);
        }
    }
    best
}

/// Linux's first retransmission timeout for data (`TCP_TIMEOUT_INIT` after a measured RTT: the
/// 200 ms `TCP_RTO_MIN`), ms.
pub const DATA_RTO: Millis = 200;
/// The first SYN retransmission timeout (`TCP_TIMEOUT_INIT`, 1 s), ms.
pub const SYN_RTO: Millis = 1_000;
/// `TCP_RTO_MAX`, ms.
const RTO_MAX: Millis = 120_000;

/// The first retransmission at or after `back` of a segment sent at `sent` whose first timeout
/// is `rto`, doubling up to `TCP_RTO_MAX`: when a peer whose machine came back answers it (with
/// a reset, the connection being unknown to its new kernel).
pub fn first_retransmission(sent: Millis, rto: Millis, back: Millis) -> Millis {
    let (mut at, mut step) = (sent + rto, rto);
    while at < back {
        step = (step * 2).min(RTO_MAX);
        at += step;
    }
    at
}

/// How long after its last received segment an idle connection to a dead peer dies by TCP
/// keepalive: idle time, then every probe unanswered; `None` when keepalive is off.
pub fn keepalive_dead_after(p: &ClientParams) -> Option<Millis> {
    (p.keepalive_time > 0).then(|| p.keepalive_time + p.keepalive_interval * p.keepalive_probes)
}

/// A client's request times: `phase + k × gap` for k = 0, 1, …, ms (fractional).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slots {
    /// The first request, ms.
    pub phase: f64,
    /// Between requests, ms.
    pub gap: f64,
}

impl Slots {
    /// The slots of a client sending `rate` requests a second from `phase` × the gap.
    pub fn new(rate: f64, phase: f64) -> Slots {
        let gap = 1000.0 / rate;
        Slots {
            phase: phase * gap,
            gap,
        }
    }

    /// The index of the first slot at or after `t`.
    #[inline(never)]
    pub fn index_from(&self, t: Millis) -> u64 {
        let k = ((t as f64 - self.phase) / self.gap).ceil();
        if k <= 0.0 {
            0
        } else {
            let k = k as u64;
            // Floating point may land one short.
            if self.at(k) < t {
                k + 1
            } else {
                k
            }
        }
    }

    /// Slot `k`'s time, ms.
    pub fn at(&self, k: u64) -> Millis {
        (self.phase + k as f64 * self.gap).floor() as Millis
    }

    /// The slots in `[a, b)`, as indices `[from, to)`.
    pub fn between(&self, a: Millis, b: Millis) -> (u64, u64) {
        let from = self.index_from(a);
        (from, self.index_from(b).max(from))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::libraries::{KERNEL_KEEPALIVE, LIBRARIES};

    fn params(style: Style) -> ClientParams {
        ClientParams::bare(style)
    }

    #[test]
    fn a_stuck_request_ends_at_its_earliest_term() {
        let mut p = params(Style::Pool);
        assert_eq!(stuck_until(&p, 1_000, 900), (925_600, Mech::Retries2));
        p.tcp_user_timeout = 20_000;
        assert_eq!(stuck_until(&p, 1_000, 900), (21_000, Mech::UserTimeout));
        p.request_timeout = 10_000;
        assert_eq!(stuck_until(&p, 1_000, 900), (11_000, Mech::RequestTimeout));
        // TCP keepalive does not end a connection with data in flight.
        p = params(Style::Pool);
        p.keepalive_time = 1;
        assert_eq!(stuck_until(&p, 1_000, 900).1, Mech::Retries2);
    }

    #[test]
    fn grpc_keepalive_ends_an_idle_channel_and_user_timeout_a_busy_one() {
        let mut p = params(Style::Multiplexed);
        p.keepalive_time = 30_000;
        p.tcp_user_timeout = 20_000;
        // An RPC right after the last receive: TCP_USER_TIMEOUT first, at write + 20 s.
        assert_eq!(stuck_until(&p, 100, 0), (20_100, Mech::UserTimeout));
        // An idle channel: the ping after 30 s, unanswered 20 s later: 50 s (T9).
        p.tcp_user_timeout = 0;
        assert_eq!(stuck_until(&p, 0, 0), (50_000, Mech::GrpcKeepalive));
    }

    #[test]
    fn a_dial_to_a_dead_pod_ends_at_its_budget() {
        let mut p = params(Style::PerRequest);
        assert_eq!(dial_budget(&p), (127_000, Mech::SynRetries));
        p.connect_timeout = 30_000;
        assert_eq!(dial_budget(&p), (30_000, Mech::ConnectTimeout));
        p.request_timeout = 10_000;
        assert_eq!(dial_budget(&p), (10_000, Mech::RequestTimeout));
    }

    /// C11, C12: the constants of Go's keepalive, Linux's SYN and retransmission budgets, and the
    /// kernel's keepalive (spec §7).
    #[test]
    fn c11_c12_the_constants() {
        let go = &LIBRARIES[1];
        let idle = |k| go.default(k).expect("go-http has it");
        use crate::scenario::libraries::Knob::*;
        let mut p = params(Style::Pool);
        (p.keepalive_time, p.keepalive_interval, p.keepalive_probes) =
            (idle(KeepaliveTime), idle(KeepaliveInterval), idle(KeepaliveProbes));
        assert_eq!(keepalive_dead_after(&p), Some(165_000), "Go ≥ 1.23: 30 s + 15 s × 9");
        p.keepalive_interval = go.older_go_interval.expect("go-http before 1.23");
        assert_eq!(keepalive_dead_after(&p), Some(300_000), "Go 1.13–1.22: 30 s + 30 s × 9");
        (p.keepalive_time, p.keepalive_interval) = (15_000, 15_000);
        assert_eq!(
            keepalive_dead_after(&p),
            Some(150_000),
            "a zero KeepAliveConfig: 15 s + 15 s × 9"
        );
        let (t, i, n) = KERNEL_KEEPALIVE;
        (p.keepalive_time, p.keepalive_interval, p.keepalive_probes) = (t, i, n);
        assert_eq!(keepalive_dead_after(&p), Some(7_875_000));
        assert_eq!(SYN_BUDGET, 127_000);
        assert_eq!(RETRIES2_BUDGET, 924_600);
        // 200 ms doubling ten times to 102.4 s, then six times TCP_RTO_MAX (120 s).
        let doubling: i64 = (0..10).map(|i| 200 << i).sum();
        assert_eq!(doubling + 6 * 120_000, 924_600);
        assert_eq!(keepalive_dead_after(&params(Style::Pool)), None);
    }

    #[test]
    fn a_machine_back_answers_the_next_retransmission() {
        // Data: 200 ms, 400, 800, … after the send: 0.2, 0.6, 1.4, 3, 6.2, 12.6, 25.4, 51, 102.2 s.
        assert_eq!(first_retransmission(0, DATA_RTO, 60_000), 102_200);
        assert_eq!(first_retransmission(0, DATA_RTO, 0), 200);
        // SYN: 1, 3, 7, 15, 31, 63 s; the seventh try would be at 127 s, the budget.
        assert_eq!(first_retransmission(0, SYN_RTO, 40_000), 63_000);
        // Past 102.4 s the timeout stays at 120 s.
        assert_eq!(first_retransmission(0, DATA_RTO, 400_000), 444_600);
    }

    #[test]
    fn slots_are_counted_by_arithmetic() {
        let s = Slots::new(10.0, 0.5);
        assert_eq!(s.at(0), 50);
        assert_eq!(s.index_from(50), 0);
        assert_eq!(s.index_from(51), 1);
        assert_eq!(s.between(0, 1_000), (0, 10));
        assert_eq!(s.between(1_000, 1_000), (10, 10));
    }
}
