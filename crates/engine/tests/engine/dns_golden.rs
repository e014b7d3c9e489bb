//! The stub side of a lookup (issue 37; the clients spec's DNS1–DNS3 and DNS9–DNS12): the
//! resolv.conf the kubelet writes (`pkg/kubelet/network/dns/dns_test.go`), whose search list
//! the DNS clients take, and the resolver rules they follow, through
//! `upstream::resolv_conf` and `upstream::lookup_rule`.

use kubelife_engine::scenario::clients::{DnsClient, Lookup, Resolver};
use kubelife_engine::upstream::lookup_rule;
use kubelife_engine::upstream::resolv_conf::{base, pod_resolv_conf, Base, Kubelet, Pod, ResolvConf};

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn conf(nameservers: &[&str], search: &[&str], options: &[&str]) -> ResolvConf {
    ResolvConf {
        nameservers: strings(nameservers),
        search: strings(search),
        options: strings(options),
    }
}

/// One pod: its spec number and case, the kubelet, the pod, and the file expected (options
/// compared as a set, as upstream does).
fn check(spec: &str, k: &Kubelet<'_>, pod: &Pod<'_>, want: &ResolvConf) {
    let mut got = pod_resolv_conf(k, pod);
    let mut want = want.clone();
    got.options.sort();
    want.options.sort();
    assert_eq!(got, want, "{spec}: {pod:?}");
}

fn pod<'a>(namespace: &'a str, policy: &'a str, host_network: bool) -> Pod<'a> {
    Pod {
        namespace,
        policy,
        host_network,
        config: None,
    }
}

/// DNS1 (`TestGetPodDNS`): without a node resolv.conf, ClusterFirstWithHostNet and
/// ClusterFirst off the host network get the cluster nameserver only and a search list that
/// starts `<ns>.svc.<domain>` (an empty namespace: `.svc.kubernetes.io`); a hostNetwork
/// ClusterFirst pod and Default get localhost and search `.`. With the node's file the search
/// list is the host's plus 3, at most 6 before the expanded limits.
#[test]
fn dns1_cluster_first_gets_the_cluster_nameserver_and_search_list() {
    let k = Kubelet {
        cluster_dns: &["203.0.113.1"],
        cluster_domain: "kubernetes.io",
        host: None,
        minor: 25,
    };
    let cluster = conf(
        &["203.0.113.1"],
        &[".svc.kubernetes.io", "svc.kubernetes.io", "kubernetes.io"],
        &["ndots:5"],
    );
    let local = conf(&["127.0.0.1"], &["."], &[]);
    check(
        "DNS1 WithHostNet",
        &k,
        &pod("", "ClusterFirstWithHostNet", true),
        &cluster,
    );
    check("DNS1 hostNetwork", &k, &pod("", "ClusterFirst", true), &local);
    check("DNS1 ClusterFirst", &k, &pod("", "ClusterFirst", false), &cluster);
    check("DNS1 Default", &k, &pod("", "Default", true), &local);
    // The search list's cap: 6 domains before 1.26, 32 after (`ExpandedDNSConfig`).
    for (hosts, minor, len) in [(1, 25, 4), (3, 25, 6), (5, 25, 6), (5, 26, 8), (40, 37, 32)] {
        let host = ResolvConf {
            search: (0..hosts).map(|i| format!("h{i}.example")).collect(),
            ..conf(&["8.8.8.8"], &[], &["timeout:1"])
        };
        let k = Kubelet {
            host: Some(&host),
            minor,
            ..k
        };
        let got = pod_resolv_conf(&k, &pod("", "ClusterFirst", false));
        assert_eq!(
            (got.search.len(), &got.search[0][..]),
            (len, ".svc.kubernetes.io"),
            "DNS1 {hosts} host domains on 1.{minor}"
        );
        assert_eq!(
            (got.nameservers, got.options),
            (strings(&["203.0.113.1"]), strings(&["ndots:5"])),
            "DNS1: the host's options are dropped"
        );
    }
}

/// DNS2 (`TestGetPodDNSCustom`): the node's file has `nameserver 8.8.8.8` and `search
/// host.domain`; `dnsConfig` adds a nameserver and a domain and merges `ndots:3` and `debug`.
#[test]
fn dns2_dns_config_is_merged_into_each_policys_file() {
    let host = conf(&["8.8.8.8"], &["host.domain"], &[]);
    let k = Kubelet {
        cluster_dns: &["10.0.0.10"],
        cluster_domain: "kubernetes.io",
        host: Some(&host),
        minor: 25,
    };
    let extra = conf(&["10.0.0.11"], &["my.domain"], &["ndots:3", "debug"]);
    let none_extra = conf(&["203.0.113.1"], &["my.domain", "second.domain"], &["ndots:3", "debug"]);
    let with = |policy, host_network, config| Pod {
        config,
        ..pod("testNS", policy, host_network)
    };
    let cluster = conf(
        &["10.0.0.10", "10.0.0.11"],
        &[
            "testNS.svc.kubernetes.io",
            "svc.kubernetes.io",
            "kubernetes.io",
            "host.domain",
            "my.domain",
        ],
        &["ndots:3", "debug"],
    );
    check("DNS2 None", &k, &with("None", false, None), &ResolvConf::default());
    check(
        "DNS2 None + dnsConfig",
        &k,
        &with("None", false, Some(&none_extra)),
        &none_extra,
    );
    check(
        "DNS2 ClusterFirst",
        &k,
        &with("ClusterFirst", false, Some(&extra)),
        &cluster,
    );
    check(
        "DNS2 WithHostNet",
        &k,
        &with("ClusterFirstWithHostNet", true, Some(&extra)),
        &cluster,
    );
    let default = conf(
        &["8.8.8.8", "10.0.0.11"],
        &["host.domain", "my.domain"],
        &["ndots:3", "debug"],
    );
    check("DNS2 Default", &k, &with("Default", false, Some(&extra)), &default);
    // At most 3 nameservers (`TestFormDNSNameserversFitsLimits`).
    let four = conf(&["10.0.0.11", "8.8.8.8", "1.2.3.4"], &[], &[]);
    let got = pod_resolv_conf(&k, &with("ClusterFirst", false, Some(&four)));
    assert_eq!(got.nameservers, strings(&["10.0.0.10", "10.0.0.11", "8.8.8.8"]));
}

/// DNS3 (`TestGetPodDNSType`): the base of each policy, a hostNetwork ClusterFirst pod falling
/// back to Default, an unknown policy an error.
#[test]
fn dns3_each_policy_picks_its_base() {
    let table = [
        ("ClusterFirst", false, Ok(Base::Cluster)),
        ("ClusterFirstWithHostNet", true, Ok(Base::Cluster)),
        ("ClusterFirstWithHostNet", false, Ok(Base::Cluster)),
        ("Default", false, Ok(Base::Host)),
        ("Default", true, Ok(Base::Host)),
        ("ClusterFirst", true, Ok(Base::Host)),
        ("None", false, Ok(Base::Empty)),
    ];
    for (policy, host_network, want) in table {
        assert_eq!(
            base(policy, host_network),
            want,
            "DNS3 {policy} hostNetwork={host_network}"
        );
    }
    assert!(base("invalidPolicy", false).is_err(), "DNS3 invalid policy");
}

fn client(resolver: Resolver, lookup: Lookup) -> DnsClient {
    DnsClient {
        resolver,
        lookup,
        node_local: false,
    }
}

/// One resolver rule per row: the client, the dead share `p`, the release, and the chance a
/// lookup fails and how long a failing one takes when every query meets a dead pod, ms.
fn check_rules(spec: &str, rows: &[(DnsClient, f64, u32, (f64, i64))]) {
    for &(c, p, minor, want) in rows {
        let (chance, latency) = lookup_rule(&c, p, minor);
        assert!(
            (chance - want.0).abs() < 1e-12 && latency == want.1,
            "{spec}: {c:?} p={p} 1.{minor}: ({chance}, {latency}), expected {want:?}"
        );
    }
}

/// DNS9 (`TestStrictErrorsLookupIP`, lax): Go goes on to the next name after a candidate timed
/// out, so an external name, whose three search candidates come first, fails no more often
/// than a short one: both attempts of the name that answers must reach a dead pod, p². musl
/// instead ends the lookup at the first timed-out candidate: 1 − (1 − p)^4.
#[test]
fn dns9_go_continues_the_search_after_a_timeout() {
    let (go, musl) = (Resolver::Go, Resolver::Musl);
    let mut rows = Vec::new();
    for p in [0.25_f64, 0.5, 1.0] {
        for minor in [18, 31, 32, 37] {
            rows.push((client(go, Lookup::Short), p, minor, (p * p, 10_000)));
            rows.push((client(go, Lookup::External), p, minor, (p * p, 10_000)));
            rows.push((
                client(musl, Lookup::External),
                p,
                minor,
                (1.0 - (1.0 - p).powi(4), 5_000),
            ));
        }
    }
    check_rules("DNS9", &rows);
}

/// DNS11 (`TestNoSuchHost`): NXDOMAIN answers end a query at once, one query each: a failing
/// Go lookup takes its one timed-out name's 2 × 5 s and nothing for the other candidates,
/// whatever the search list's length; glibc's two names' (the candidate's and the bare
/// name's) 2 × 2 × 5 s.
#[test]
fn dns11_nxdomain_costs_no_wait() {
    check_rules(
        "DNS11",
        &[
            (client(Resolver::Go, Lookup::External), 1.0, 32, (1.0, 10_000)),
            (client(Resolver::Glibc, Lookup::Short), 1.0, 32, (1.0, 20_000)),
            (client(Resolver::Glibc, Lookup::External), 1.0, 32, (1.0, 20_000)),
        ],
    );
}

/// DNS12 (`tst-getaddrinfo-eai-again-timeout.c`), as far as the model goes: a server that drops
/// every query fails every lookup of every resolver once its tries ran out (musl after its
/// 5 s timeout). The error code (`EAI_AGAIN`) is not modelled.
#[test]
fn dns12_every_lookup_fails_when_every_query_is_dropped() {
    check_rules(
        "DNS12",
        &[
            (client(Resolver::Glibc, Lookup::Short), 1.0, 37, (1.0, 20_000)),
            (client(Resolver::Musl, Lookup::Short), 1.0, 37, (1.0, 5_000)),
            (client(Resolver::Go, Lookup::Short), 1.0, 37, (1.0, 10_000)),
        ],
    );
}
