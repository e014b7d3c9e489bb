//! A client of `kube-dns`: its lookups through kube-proxy's rules for CoreDNS's pods (the spec's
//! part B). A lookup's UDP socket is DNATed to one CoreDNS pod by its first packet; the resends on
//! the same socket follow that conntrack entry until kube-proxy deletes the entries to an
//! endpoint that left the rules (every version, while another endpoint is left: §2.2), and
//! then go through the new rules. Per stretch of constant rules the doomed lookups are drawn as
//! the first and the last and a count between, as `walk` draws a racing client's dials.

use super::history::Segment;
use super::rules::{Mech, Slots};
use super::walk::{self, Failure, Start};
use crate::network::conntrack::{self, Cleanup, Endpoint, Flow, Frontend, Proto, Service};
use crate::network::resolv_conf::{self, Kubelet, Pod, ResolvConf};
use crate::rng::{Rng, Stream};
use crate::scenario::clients::{DnsClient, Lookup, Resolver};
use crate::time::Millis;
use crate::timeline::EventId;

/// glibc's `RES_TIMEOUT`, musl's and Go's `timeout` default: the kubelet's resolv.conf sets
/// only `ndots:5`, so every resolver keeps its own, ms (§1.1–1.4).
pub const DNS_TIMEOUT: Millis = 5_000;
/// glibc's `RES_DFLRETRY`, musl's and Go's `attempts` default.
pub const DNS_ATTEMPTS: i64 = 2;
/// What a release gives every lookup: kube-proxy's conntrack cleanup, and the search list's
/// length in the pod's resolv.conf (the candidates an external name tries first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setup {
    /// The cleanup form the release runs.
    pub cleanup: Cleanup,
    /// Search domains in the pod's resolv.conf.
    pub search: i32,
}

impl Setup {
    /// The setup of Kubernetes `1.minor`: the search list the kubelet writes for a
    /// `ClusterFirst` pod in `default` with `clusterDomain: cluster.local`, on a node whose own
    /// resolv.conf lists no search domain (`h` = 0: `default.svc.cluster.local`,
    /// `svc.cluster.local`, `cluster.local`).
    pub fn of_minor(minor: u32) -> Setup {
        let host = ResolvConf::default();
        let kubelet = Kubelet {
            cluster_dns: &["10.96.0.10"],
            cluster_domain: "cluster.local",
            host: Some(&host),
            minor,
        };
        let pod = Pod {
            namespace: "default",
            policy: "ClusterFirst",
            host_network: false,
            config: None,
        };
        let search = resolv_conf::pod_resolv_conf(&kubelet, &pod).search.len();
        Setup {
            cleanup: Cleanup::of_minor(minor),
            search: i32::try_from(search).unwrap_or(i32::MAX),
        }
    }
}

/// How a resolver's lookup fares with `p` of the CoreDNS pods in the rules dead.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Fate {
    /// The chance that a lookup fails.
    chance: f64,
    /// How long before the dead pod's entries are deleted a lookup must begin to fail: its
    /// last query on a dead 5-tuple goes out this long after it began, ms.
    tail: Millis,
    /// Lookups begun this long before that limit fail with this lesser chance instead: a path
    /// through a later query reaches the new rules (glibc's external name).
    late: Option<(Millis, f64)>,
}

fn fate(c: &DnsClient, p: f64, search: i32) -> Fate {
    // NodeLocal DNSCache asks CoreDNS over TCP and retries another connection, and the stub
    // retries it: a lookup fails only when no CoreDNS pod answers (§3.1).
    let p = if c.node_local && p < 1.0 { 0.0 } else { p };
    let (chance, tail, late) = match (c.resolver, c.lookup) {
        // Both tries of one candidate go to the same pod; after a timed-out search candidate
        // glibc still tries the bare name (`__res_context_search`), which a short name does not
        // have (NXDOMAIN): it fails with its first candidate.
        (Resolver::Glibc, Lookup::Short) => (p, DNS_TIMEOUT, None),
        // An external name fails when its last query, the name itself, times out: at once when
        // the search candidates answered, 10 s later after a timed-out one, so a lookup begun
        // in the last 10 s fails only by the first path.
        (Resolver::Glibc, Lookup::External) => {
            let first_path = p * (1.0 - p).powi(search);
            (p, DNS_TIMEOUT, Some((DNS_TIMEOUT * DNS_ATTEMPTS, first_path)))
        }
        // One socket per candidate, resent every timeout/attempts; a timeout ends the lookup.
        (Resolver::Musl, Lookup::Short) => (p, DNS_TIMEOUT / DNS_ATTEMPTS, None),
        (Resolver::Musl, Lookup::External) => (1.0 - (1.0 - p).powi(search + 1), DNS_TIMEOUT / DNS_ATTEMPTS, None),
        // A new socket per attempt: the A query fails only if both attempts reach a dead pod.
        (Resolver::Go, _) => (p * p, DNS_TIMEOUT, None),
    };
    Fate { chance, tail, late }
}

/// How long a failing lookup sent at `t` takes, ms: `clean` is when the dead pod's entries go.
fn failed_after(c: &DnsClient, (p, search): (f64, i32), t: Millis, clean: Millis, rng: &mut Rng) -> Millis {
    let two = DNS_TIMEOUT * DNS_ATTEMPTS;
    match (c.resolver, c.lookup) {
        // The bare name's query, sent once the candidate timed out, hits a dead pod too: it
        // answers NXDOMAIN at its second try, through the new rules when they came first.
        (Resolver::Glibc, Lookup::Short) if t + two < clean && rng.unit() < p => {
            if t + two + DNS_TIMEOUT < clean {
                2 * two
            } else {
                two + DNS_TIMEOUT
            }
        }
        // A search candidate timed out first (10 s), then the name itself did.
        (Resolver::Glibc, Lookup::External)
            if t + two + DNS_TIMEOUT < clean && rng.unit() < 1.0 - (1.0 - p).powi(search) =>
        {
            2 * two
        }
        (Resolver::Musl, _) => DNS_TIMEOUT,
        _ => two,
    }
}

/// Lookups refused while kube-dns has no endpoint in the rules: glibc's and Go's connected
/// sockets see the reject rule's ICMP error at once; musl's unconnected one waits its timeout.
fn refused(
    c: &DnsClient,
    slots: &Slots,
    (a, b): (Millis, Millis),
    by: (Option<EventId>, Option<EventId>),
) -> Option<Failure> {
    let (from, to) = slots.between(a, b);
    let wait = if c.resolver == Resolver::Musl { DNS_TIMEOUT } else { 0 };
    (to > from).then(|| Failure {
        sent: slots.at(from),
        first: slots.at(from) + wait,
        last: slots.at(to - 1) + wait,
        last_sent: slots.at(to - 1),
        count: to - from,
        latency: wait,
        mech: Mech::DnsRefused(c.resolver),
        start: Start::NoEndpoints,
        pod: None,
        cause: by.0,
        ended_by: by.1,
        share: (0, 0),
    })
}

/// Whether the sync that takes a dead CoreDNS pod out of the rules, leaving `after` of the
/// `before` pods, deletes the UDP entries DNATed to it ([`conntrack::deletes`]): every form
/// does while a pod is left; the 1.32 reconciler skips a Service left without one until PR
/// #139629 (§2.2).
fn entries_deleted(form: Cleanup, before: usize, after: usize) -> bool {
    // The dead pod is number 0; those left follow it.
    let pod = |i: usize| Endpoint {
        ip: u32::try_from(i).unwrap_or(u32::MAX),
        port: 53,
    };
    let left: Vec<Endpoint> = (1..=after).map(pod).collect();
    let was: Vec<Endpoint> = (0..before.max(1)).map(pod).collect();
    let flow = Flow {
        proto: Proto::Udp,
        to: Frontend::ClusterIp,
        service_port: true,
        target: Some(pod(0)),
    };
    let svc = Service {
        serving: Some(&left),
        before: &was,
    };
    conntrack::deletes(form, &flow, &svc)
}

/// The resolver rule of `c` in Kubernetes `1.minor` with `p` of the CoreDNS pods in the rules
/// dead: the chance that a lookup fails, and how long a failing one takes when every query
/// reaches a dead pod and no cleanup comes, ms (for the golden tests).
pub fn lookup_rule(c: &DnsClient, p: f64, minor: u32) -> (f64, Millis) {
    let search = Setup::of_minor(minor).search;
    let mut rng = Rng::stream(0, Stream::Client(0));
    let chance = fate(c, p, search).chance;
    (chance, failed_after(c, (1.0, search), 0, Millis::MAX, &mut rng))
}

/// A `kube-dns` client's failed lookups until `end` under the release's `setup`.
pub fn lookups(
    c: &DnsClient,
    segs: &[Segment],
    slots: &Slots,
    end: Millis,
    setup: Setup,
    rng: &mut Rng,
) -> Vec<Failure> {
    let mut out = Vec::new();
    for (i, seg) in segs.iter().enumerate() {
        let next = segs.get(i + 1);
        let (a, b) = (seg.at.max(0), next.map_or(end, |s| s.at).min(end));
        if a >= b {
            continue;
        }
        if seg.size == 0 {
            let by = (walk::emptied_by(segs, i), next.and_then(|s| s.by));
            out.extend(refused(c, slots, (a, b), by));
            continue;
        }
        let mut x = a;
        for y in seg.cuts((a, b)) {
            let dead: Vec<_> = seg.dead_at(x).collect();
            // The sync that ends the stretch takes a dead pod out: its entries are deleted then,
            // unless it left the Service without endpoints on a release that keeps them.
            let ends_it = next.filter(|n| y == b && n.by.is_some() && dead.iter().any(|d| d.stopped == n.by));
            let emptied = ends_it.is_some_and(|n| n.size == 0);
            let cleaned = ends_it.is_some_and(|n| entries_deleted(setup.cleanup, seg.size, n.size));
            let clean = match ends_it {
                Some(n) if cleaned => n.at,
                _ => Millis::MAX,
            };
            if let Some(d) = dead.first() {
                let p = dead.len() as f64 / seg.size as f64;
                let f = fate(c, p, setup.search);
                let until = if clean < Millis::MAX { (y - f.tail).max(x) } else { y };
                let mut stretch = |(from, to), chance, mech, latency: &Latency<'_>, rng: &mut Rng| {
                    if let Some(mut failure) = doomed(slots, (from, to), chance, (mech, latency), rng) {
                        failure.pod = Some(d.pod);
                        failure.cause = Some(d.fault);
                        failure.ended_by = ends_it.and_then(|n| n.by);
                        failure.share = (dead.len(), seg.size);
                        out.push(failure);
                    }
                };
                let timed_out = |t, rng: &mut Rng| failed_after(c, (p, setup.search), t, clean, rng);
                match f.late.filter(|_| clean < Millis::MAX) {
                    Some((before, chance)) => {
                        let split = (until - before).max(x);
                        stretch((x, split), f.chance, Mech::DnsTimeout(c.resolver), &timed_out, rng);
                        stretch((split, until), chance, Mech::DnsTimeout(c.resolver), &timed_out, rng);
                    }
                    None => stretch((x, until), f.chance, Mech::DnsTimeout(c.resolver), &timed_out, rng),
                }
                // Entries deleted as the rules emptied: a resend after that meets the reject rule.
                if emptied && cleaned {
                    stretch(
                        (until, y),
                        f.chance,
                        Mech::DnsRefused(c.resolver),
                        &|_, _| DNS_TIMEOUT,
                        rng,
                    );
                }
            }
            x = y;
        }
    }
    out
}

/// How long a failing lookup sent at a time takes, ms.
type Latency<'a> = dyn Fn(Millis, &mut Rng) -> Millis + 'a;

/// The doomed lookups among those sent in `[x, y)`, each failing with `chance`, after
/// `latency(sent)`.
fn doomed(
    slots: &Slots,
    (x, y): (Millis, Millis),
    chance: f64,
    (mech, latency): (Mech, &Latency<'_>),
    rng: &mut Rng,
) -> Option<Failure> {
    if x >= y || chance <= 0.0 {
        return None;
    }
    let (from, to) = slots.between(x, y);
    let m = to - from;
    let i1 = walk::geometric(rng, chance);
    if m == 0 || i1 >= m {
        return None;
    }
    let i2 = m - 1 - walk::geometric(rng, chance).min(m - 1 - i1);
    let count = if i2 > i1 {
        2 + walk::stochastic_round(rng, (i2 - i1 - 1) as f64 * chance)
    } else {
        1
    };
    let (sent, last_sent) = (slots.at(from + i1), slots.at(from + i2));
    let early = latency(sent, rng);
    let late = latency(last_sent, rng);
    Some(Failure {
        sent,
        first: sent + early,
        last: (last_sent + late).max(sent + early),
        last_sent,
        count,
        latency: early.max(late),
        mech,
        start: Start::Race,
        pod: None,
        cause: None,
        ended_by: None,
        share: (0, 0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::clients::history::Death;
    use crate::rng::Stream;

    fn client(resolver: Resolver, lookup: Lookup) -> DnsClient {
        DnsClient {
            resolver,
            lookup,
            node_local: false,
        }
    }

    #[test]
    fn dns17_the_share_of_failed_lookups_with_one_of_two_coredns_pods_dead() {
        let short = |r| fate(&client(r, Lookup::Short), 0.5, 3).chance;
        let external = |r| fate(&client(r, Lookup::External), 0.5, 3).chance;
        assert_eq!(
            [short(Resolver::Glibc), short(Resolver::Musl), short(Resolver::Go)],
            [0.5, 0.5, 0.25]
        );
        assert_eq!(
            [
                external(Resolver::Glibc),
                external(Resolver::Musl),
                external(Resolver::Go)
            ],
            [0.5, 15.0 / 16.0, 0.25]
        );
        let cached = DnsClient {
            node_local: true,
            ..client(Resolver::Glibc, Lookup::Short)
        };
        assert_eq!((fate(&cached, 0.5, 3).chance, fate(&cached, 1.0, 3).chance), (0.0, 1.0));
    }

    /// Both CoreDNS pods die at 1s; a sync at 40s empties the rules, one at 300s adds a pod.
    fn both_dead() -> Vec<Segment> {
        let death = |pod| Death {
            pod,
            at: 1_000,
            fault: 1,
            stopped: Some(7),
            back: None,
        };
        vec![
            Segment {
                at: 0,
                size: 2,
                mortal: vec![death(0), death(1)],
                by: None,
            },
            Segment {
                at: 40_000,
                size: 0,
                mortal: Vec::new(),
                by: Some(7),
            },
            Segment {
                at: 300_000,
                size: 1,
                mortal: Vec::new(),
                by: Some(9),
            },
        ]
    }

    #[test]
    fn with_no_endpoint_left_1_32_keeps_the_dead_pods_entries_and_1_31_rejects_the_resends() {
        let deleted = |minor| entries_deleted(Cleanup::of_minor(minor), 2, 0);
        assert!(deleted(31) && !deleted(32));
        let c = client(Resolver::Glibc, Lookup::Short);
        let slots = Slots::new(10.0, 0.0);
        let run = |minor| {
            lookups(
                &c,
                &both_dead(),
                &slots,
                400_000,
                Setup::of_minor(minor),
                &mut Rng::stream(1, Stream::Client(0)),
            )
        };
        let mechs = |f: &[Failure]| f.iter().map(|f| (f.mech, f.sent, f.last_sent)).collect::<Vec<_>>();
        let (kept, cleaned) = (run(32), run(31));
        let glibc = (Mech::DnsTimeout(Resolver::Glibc), Mech::DnsRefused(Resolver::Glibc));
        // Every lookup fails either way: 10 a second from 1s to 300s.
        for f in [&kept, &cleaned] {
            assert_eq!(f.iter().map(|f| f.count).sum::<u64>(), 2_990, "{:?}", mechs(f));
        }
        // 1.32: the resends of the lookups begun in [35s, 40s) still reach the dead pods.
        assert_eq!(mechs(&kept[..1]), [(glibc.0, 1_000, 39_900)]);
        assert_eq!(kept[0].last, 39_900 + 20_000);
        // 1.31: the entries go at 40s; those resends meet the reject rule at once.
        assert_eq!(
            mechs(&cleaned[..2]),
            [(glibc.0, 1_000, 34_900), (glibc.1, 35_000, 39_900)]
        );
        assert_eq!(cleaned[1].last, 44_900);
    }

    #[test]
    fn lookups_refused_without_endpoints_fail_at_once_except_musls() {
        let slots = Slots::new(10.0, 0.0);
        let glibc = refused(
            &client(Resolver::Glibc, Lookup::Short),
            &slots,
            (0, 1_000),
            (None, None),
        );
        let musl = refused(&client(Resolver::Musl, Lookup::Short), &slots, (0, 1_000), (None, None));
        assert_eq!(glibc.map(|f| (f.count, f.latency)), Some((10, 0)));
        assert_eq!(musl.map(|f| (f.count, f.latency, f.last)), Some((10, 5_000, 5_900)));
    }
}
