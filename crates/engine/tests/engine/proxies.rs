//! The proxies that dial pod IPs (issue 37): an Istio sidecar (`envoy`) and `ingress-nginx`,
//! whose endpoints follow the EndpointSlice, not kube-proxy's rules (the clients spec §2.5,
//! §2.6, §6 T4, T12, T13), as windows over `SEEDS` seeds. Times are relative to the crash of
//! node-1 at t = 30s, in ms.

use crate::clients::{check, client, ended_by, run_seed, scenario, within, CRASH, SEEDS};
use crate::common::of_kind;
use kubelife_engine::scenario::libraries::RETRIES2_BUDGET;
use kubelife_engine::{EventKind, Outcome};

/// The dead pod's `EndpointNotReady` after the crash, relative to it: `T_NR`.
fn not_ready(o: &Outcome) -> i64 {
    of_kind(o, EventKind::EndpointNotReady)
        .iter()
        .find(|e| e.node.as_deref() == Some("node-1") && e.at_ms >= CRASH)
        .map(|e| e.at_ms - CRASH)
        .expect("the slice marks the dead pod not ready")
}

/// The first episode's start, relative to the crash, and its cause.
fn started(o: &Outcome) -> Option<(i64, &str)> {
    of_kind(o, EventKind::ClientErrorsStarted)
        .first()
        .map(|e| (e.at_ms - CRASH, e.cause.key))
}

/// Over the seeds, the least and greatest of `f` (runs where it is `None` left out).
fn spread(json: &str, f: impl Fn(&Outcome) -> Option<i64>) -> (i64, i64, u64) {
    let (mut lo, mut hi, mut n) = (i64::MAX, i64::MIN, 0);
    for seed in 1..=SEEDS {
        if let Some(x) = f(&run_seed(json, seed)) {
            (lo, hi, n) = (lo.min(x), hi.max(x), n + 1);
        }
    }
    (lo, hi, n)
}

/// The pod leaves ingress-nginx's endpoints at most this long after `EndpointNotReady`: the
/// controller's `--sync-rate-limit` 0.3 a second (3.334 s) and the workers' 1 s read.
const NGINX_DELAY: i64 = 3_334 + 1_000;

/// Every episode of a proxy's client starts and ends by a proxy's cause, never kube-proxy's.
fn proxy_causes(o: &Outcome) -> Result<(), String> {
    match o
        .events
        .iter()
        .find(|e| e.kind.is_client() && !e.cause.key.starts_with("cause.client.proxy_"))
    {
        Some(e) => Err(format!("{:?} by {} at {}", e.kind, e.cause.key, e.at_ms)),
        None => Ok(()),
    }
}

/// T12: an Istio sidecar. The first request that picks the dead pod goes into Envoy's kept-alive
/// upstream connection to it (idle for at most a few hundred ms, well under its 1h0m0s idle
/// timeout) and hangs until `tcp_retries2`: Istio sets no route timeout and retries no hang.
/// Every later request that picks it dials its IP, times out after Istio's 10s connect timeout
/// and is retried on another pod (`previous_hosts`): late, never failed.
#[test]
fn t12_an_istio_sidecar_hangs_once_on_its_kept_alive_connection_and_retries_the_rest() {
    let json = scenario(3, r#""library":"envoy""#, "");
    check("T12", &json, |o| {
        let c = client(o);
        within("failed", Some(c.failed as i64), 1, 1)?;
        match started(o) {
            Some((at, "cause.client.proxy_started_pinned")) if (0..=3_000).contains(&at) => {}
            other => return Err(format!("started {other:?}")),
        }
        let last = c.last_error_ms.map(|t| t - CRASH);
        within("last error", last, RETRIES2_BUDGET, RETRIES2_BUDGET + 3_000)?;
        within("worst wait", Some(c.worst_latency_ms), RETRIES2_BUDGET, RETRIES2_BUDGET)?;
        ended_by(o, "cause.client.proxy_retries2")
    });
    let (lo, hi, _) = spread(&json, |o| client(o).last_error_ms.map(|t| t - CRASH));
    eprintln!("T12: the hung request's error at [{lo}, {hi}] ms after the crash");
}

/// T12 without the kept-alive connection (`idleConnTimeout: 100ms` closes it between uses):
/// nothing fails, and the requests that picked the dead pod wait the 10s connect timeout.
#[test]
fn t12_without_a_kept_alive_connection_an_istio_sidecar_only_slows_down() {
    let json = scenario(3, r#""library":"envoy","idleConnTimeout":"100ms""#, "");
    check("T12'", &json, |o| {
        let c = client(o);
        within("failed", Some(c.failed as i64), 0, 0)?;
        within("worst wait", Some(c.worst_latency_ms), 10_000, 10_000)?;
        match o.events.iter().find(|e| e.kind.is_client()) {
            Some(e) => Err(format!("{:?} at {}", e.kind, e.at_ms)),
            None => Ok(()),
        }
    });
}

/// T13: ingress-nginx. Its kept-alive upstream connection to the dead pod holds the first
/// request that picks it for `proxy-read-timeout` (60s), then the next upstream answers it;
/// the others that pick it dial its IP, wait `proxy-connect-timeout` (5s) per try, and fail
/// only when all three tries met it (the balancer's next pick may be the same pod). The pod
/// leaves the endpoints up to 4.334s after `EndpointNotReady`.
#[test]
fn t13_ingress_nginx_tries_the_next_upstream_after_five_and_sixty_seconds() {
    let json = scenario(3, r#""library":"ingress-nginx""#, "");
    check("T13", &json, |o| {
        let c = client(o);
        let t_nr = not_ready(o);
        within("worst wait", Some(c.worst_latency_ms), 60_000, 60_000)?;
        within(
            "last error",
            c.last_error_ms.map(|t| t - CRASH),
            t_nr - 15_000,
            t_nr + NGINX_DELAY + 5_000,
        )?;
        ended_by(o, "cause.client.proxy_connect_timeout")?;
        proxy_causes(o)
    });
    let (lo, hi, _) = spread(&json, |o| client(o).last_error_ms.map(|t| t - CRASH));
    let (f_lo, f_hi, _) = spread(&json, |o| Some(client(o).failed as i64));
    eprintln!("T13: the last error at [{lo}, {hi}] ms after the crash, {f_lo} to {f_hi} failed");
}

/// T4: a new dial to the dead pod. OkHttp goes through kube-proxy: its last error, if its pool
/// dialled again, comes at most 10s after `TrafficStopped`. ingress-nginx dials pod IPs: its last error comes at most 5s after
/// the pod left its endpoints. Envoy's dials never fail a request while another pod answers
/// (T12).
#[test]
fn t4_new_dials_end_by_the_connect_timeout_after_the_endpoints_drop_the_pod() {
    let okhttp = scenario(3, r#""library":"okhttp""#, "");
    check("T4 okhttp", &okhttp, |o| {
        // Its one pooled connection reached a live pod: no dial after the crash.
        let Some(last) = client(o).last_error_ms else {
            return Ok(());
        };
        let ts = crate::clients::traffic_stopped(o);
        within("last error", Some(last - CRASH), 0, ts + 10_000)
    });
    let nginx = scenario(3, r#""library":"ingress-nginx""#, "");
    check("T4 ingress-nginx", &nginx, |o| {
        let last = client(o).last_error_ms.map(|t| t - CRASH);
        within("last error", last, 0, not_ready(o) + NGINX_DELAY + 5_000)
    });
    for (name, json) in [("okhttp", &okhttp), ("ingress-nginx", &nginx)] {
        let (lo, hi, n) = spread(json, |o| client(o).last_error_ms.map(|t| t - CRASH));
        eprintln!("T4 {name}: the last error at [{lo}, {hi}] ms after the crash in {n} runs");
    }
}

/// The proxies dial pod IPs: kube-proxy's rules do not reach them. With kube-proxy syncing at
/// most every 20s (its `TrafficStopped` later), and in ipvs mode, their clients see exactly what
/// they see on defaults, and every cause is a proxy's.
#[test]
fn proxies_never_fail_because_of_kube_proxys_rules() {
    for library in ["envoy", "ingress-nginx"] {
        let client_of = format!(r#""library":"{library}""#);
        let plain = scenario(3, &client_of, "");
        let slow = scenario(3, &client_of, r#""kubeProxy":{"minSyncPeriod":"20s"},"#);
        let ipvs = scenario(3, &client_of, r#""kubeProxy":{"mode":"ipvs"},"#);
        for seed in 1..=40 {
            let a = run_seed(&plain, seed);
            proxy_causes(&a).unwrap_or_else(|why| panic!("{library}, seed {seed}: {why}"));
            let seen = |o: &Outcome| {
                let events: Vec<_> = o
                    .events
                    .iter()
                    .filter(|e| e.kind.is_client())
                    .map(|e| (e.at_ms, e.kind, e.cause.clone()))
                    .collect();
                (client(o).clone(), events)
            };
            for other in [&slow, &ipvs] {
                assert_eq!(seen(&a), seen(&run_seed(other, seed)), "{library}, seed {seed}");
            }
        }
    }
}
