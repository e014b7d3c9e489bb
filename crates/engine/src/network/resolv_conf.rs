//! The resolv.conf the kubelet writes for a pod (`pkg/kubelet/network/dns/dns.go`,
//! `GetPodDNS`; the clients spec's part B §1.1): its nameservers, search list and options from
//! the pod's `dnsPolicy`, `hostNetwork` and `dnsConfig`, and the kubelet's `clusterDNS`,
//! `clusterDomain` and node resolv.conf, cut to the limits of the release.

/// The file a pod's resolv.conf starts from (`getPodDNSType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    /// The cluster's nameservers and search list.
    Cluster,
    /// The node's resolv.conf.
    Host,
    /// Nothing: only the pod's `dnsConfig`.
    Empty,
}

/// The base for `policy` (the API's spelling) on a pod with `host_network`; an unknown policy
/// is an error (the kubelet then takes `Cluster`).
pub fn base(policy: &str, host_network: bool) -> Result<Base, String> {
    match policy {
        "None" => Ok(Base::Empty),
        "ClusterFirstWithHostNet" => Ok(Base::Cluster),
        "ClusterFirst" if !host_network => Ok(Base::Cluster),
        // A hostNetwork pod with ClusterFirst falls back to Default.
        "ClusterFirst" | "Default" => Ok(Base::Host),
        other => Err(format!("invalid DNSPolicy={other}")),
    }
}

/// A resolv.conf: nameservers, search domains and options (`ndots:5`, `debug`), in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResolvConf {
    /// The `nameserver` lines.
    pub nameservers: Vec<String>,
    /// The `search` line.
    pub search: Vec<String>,
    /// The `options` line.
    pub options: Vec<String>,
}

/// The kubelet's DNS settings.
#[derive(Debug, Clone, Copy)]
pub struct Kubelet<'a> {
    /// `clusterDNS`: the kube-dns Service's IPs.
    pub cluster_dns: &'a [&'a str],
    /// `clusterDomain` (`cluster.local`); empty: none.
    pub cluster_domain: &'a str,
    /// The node's resolv.conf as `resolvConf` names it; `None`: `resolvConf` is empty.
    pub host: Option<&'a ResolvConf>,
    /// The release, `1.minor`: it sets the search list's limits.
    pub minor: u32,
}

/// A pod's DNS fields.
#[derive(Debug, Clone, Copy)]
pub struct Pod<'a> {
    /// Its namespace.
    pub namespace: &'a str,
    /// `dnsPolicy`.
    pub policy: &'a str,
    /// `hostNetwork`.
    pub host_network: bool,
    /// `dnsConfig`: appended nameservers and searches; options as `name` or `name:value`.
    pub config: Option<&'a ResolvConf>,
}

/// The kubelet's only option for a cluster base (`defaultDNSOptions`).
pub const DEFAULT_OPTIONS: [&str; 1] = ["ndots:5"];
/// At most this many nameservers (`MaxDNSNameservers`).
pub const MAX_NAMESERVERS: usize = 3;
/// A search domain longer than this is dropped, chars (`DNS1123SubdomainMaxLength`).
const MAX_DOMAIN: usize = 253;

/// The search list's limits in `1.minor`: domains and chars of the joined line. The expanded
/// limits (`ExpandedDNSConfig`, on by default from its beta) are taken from 1.26.
pub fn search_limits(minor: u32) -> (usize, usize) {
    if minor >= 26 {
        (32, 2048)
    } else {
        (6, 256)
    }
}

/// The resolv.conf the kubelet writes for `pod`.
pub fn pod_resolv_conf(k: &Kubelet<'_>, pod: &Pod<'_>) -> ResolvConf {
    let mut conf = k.host.cloned().unwrap_or_default();
    match base(pod.policy, pod.host_network).unwrap_or(Base::Cluster) {
        Base::Empty => conf = ResolvConf::default(),
        Base::Cluster if !k.cluster_dns.is_empty() => {
            conf.nameservers = k.cluster_dns.iter().map(|s| s.to_string()).collect();
            conf.search = cluster_search(k.cluster_domain, pod.namespace, &conf.search);
            conf.options = DEFAULT_OPTIONS.iter().map(|s| s.to_string()).collect();
        }
        // Without `clusterDNS` a cluster base falls back to the host's.
        Base::Cluster | Base::Host => {
            if k.host.is_none() {
                // "The nameserver on the local machine": localhost, and no search.
                conf.nameservers = vec!["127.0.0.1".to_string()];
                conf.search = vec![".".to_string()];
            }
        }
    }
    if let Some(extra) = pod.config {
        conf.nameservers = unique(conf.nameservers.iter().chain(&extra.nameservers));
        conf.search = unique(conf.search.iter().chain(&extra.search));
        conf.options = merged_options(&conf.options, &extra.options);
    }
    conf.nameservers.truncate(MAX_NAMESERVERS);
    conf.search = fit_search(conf.search, search_limits(k.minor));
    conf
}

/// `<ns>.svc.<domain>`, `svc.<domain>`, `<domain>`, then the host's, once each.
fn cluster_search(domain: &str, namespace: &str, host: &[String]) -> Vec<String> {
    if domain.is_empty() {
        return host.to_vec();
    }
    let own = [
        format!("{namespace}.svc.{domain}"),
        format!("svc.{domain}"),
        domain.to_string(),
    ];
    unique(own.iter().chain(host))
}

/// The strings in order, each once.
fn unique<'a>(all: impl Iterator<Item = &'a String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in all {
        if !out.contains(s) {
            out.push(s.clone());
        }
    }
    out
}

/// `old` with `new` merged in by option name (`ndots` of `ndots:5`), a new value replacing the
/// old in its place.
fn merged_options(old: &[String], new: &[String]) -> Vec<String> {
    let name = |o: &String| o.split(':').next().unwrap_or_default().to_string();
    let mut out: Vec<String> = old.to_vec();
    for o in new {
        match out.iter().position(|x| name(x) == name(o)) {
            Some(i) => out[i] = o.clone(),
            None => out.push(o.clone()),
        }
    }
    out
}

/// The search list cut to `(paths, chars)`: the first `paths` domains, less those too long,
/// less the last ones until the joined line fits.
fn fit_search(mut search: Vec<String>, (paths, chars): (usize, usize)) -> Vec<String> {
    search.truncate(paths);
    search.retain(|s| s.len() <= MAX_DOMAIN);
    while !search.is_empty() && search.join(" ").len() > chars {
        search.pop();
    }
    search
}
