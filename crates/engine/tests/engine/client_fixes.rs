//! What to change in a client to cut its errors (`advice::client_fixes`): the presets with
//! clients as golden cases (the change in the library's words, and when the client's errors
//! ended after the crash before and after it), each library's causes over `SEEDS` seeds (the
//! setting they call for, offered only where it cuts, and the same when written into the
//! scenario), and the bound on the clients advised. Times are relative to the crash of node-1
//! at t = 30s, in ms.

use crate::clients::{check, scenario, CRASH};
use kubelife_engine::advice::clients::{MAX_ADVISED, MIN_CUT};
use kubelife_engine::advice::{client_fixes, Change, ClientFix};
use kubelife_engine::milestones::client_errors_ended;
use kubelife_engine::scenario::libraries::{Knob, RETRIES2_BUDGET};
use kubelife_engine::{run, Config, Outcome, RunOptions, Scenario};

/// A preset's one client: the advice it gets (`None`: none) and when its errors ended after the
/// crash before it and after it, each within `[lo, hi]`, ms.
struct Golden {
    preset: &'static str,
    advice: Option<&'static str>,
    before: (i64, i64),
    after: (i64, i64),
}

const GRPC_KEEPALIVE: &str = "set keepalive.ClientParameters.Time to 10s; gRPC then sets TCP_USER_TIMEOUT to its keepalive.ClientParameters.Timeout, 20s";
const NODE_LOCAL: &str =
    "turn on NodeLocal DNSCache (dns.nodeLocalDnsCache: true), which asks CoreDNS over TCP and retries another pod";
/// Linux's `tcp_retries2` budget after the request written at the crash.
const HANG: (i64, i64) = (RETRIES2_BUDGET, RETRIES2_BUDGET + 100);

const GOLDEN: [Golden; 9] = [
    // The request written into the pinned keep-alive connection hangs 15m24.6s; with
    // http.Client.Timeout 10s it fails after 10s and the next dial reaches a live pod.
    Golden {
        preset: "go-client-default",
        advice: Some("set http.Client.Timeout to 10s"),
        before: HANG,
        after: (10_000, 10_100),
    },
    // Already 10s: nothing shorter is advised.
    Golden {
        preset: "go-client-timeout",
        advice: None,
        before: (10_000, 10_100),
        after: (0, 0),
    },
    // Every RPC rides the one connection until tcp_retries2 kills it; keepalive sets
    // TCP_USER_TIMEOUT 20s, which ends it 20s after the first RPC written after the crash.
    Golden {
        preset: "grpc-default",
        advice: Some(GRPC_KEEPALIVE),
        before: HANG,
        after: (20_000, 20_100),
    },
    // Keepalive Time 30s: TCP_USER_TIMEOUT (20s) ends the connection first, and would at 10s too.
    Golden {
        preset: "grpc-keepalive",
        advice: None,
        before: (20_000, 20_100),
        after: (0, 0),
    },
    // Half the lookups time out until kube-proxy drops the dead CoreDNS pod; through NodeLocal
    // DNSCache none fails while the other pod answers.
    Golden {
        preset: "coredns-dead-node-glibc",
        advice: Some(NODE_LOCAL),
        before: (40_000, 60_000),
        after: (0, 0),
    },
    Golden {
        preset: "coredns-dead-node-musl",
        advice: Some(NODE_LOCAL),
        before: (40_000, 60_000),
        after: (0, 0),
    },
    // No error after the crash: no advice.
    Golden {
        preset: "coredns-node-local-cache",
        advice: None,
        before: (0, 0),
        after: (0, 0),
    },
    // The NLB resets the pinned flow 51.0s after the crash (its health checks cannot be set in
    // the engine); the client's own timeout ends the request after 10s.
    Golden {
        preset: "aws-nlb-instance",
        advice: Some("set http.Client.Timeout to 10s"),
        before: (51_000, 51_100),
        after: (10_000, 10_100),
    },
    Golden {
        preset: "aws-nlb-ip",
        advice: Some("set http.Client.Timeout to 10s"),
        before: (51_000, 51_100),
        after: (10_000, 10_100),
    },
];

fn inside(what: &str, t: Option<i64>, (lo, hi): (i64, i64)) -> Result<(), String> {
    match t {
        Some(t) if (lo..=hi).contains(&t) => Ok(()),
        other => Err(format!("{what} {other:?}, expected within [{lo}, {hi}]")),
    }
}

/// The same change written into the scenario resolves to the configuration it made, and runs to
/// the same end of the client's errors.
fn same_when_written(s: &Scenario, cfg: &Config, fix: &ClientFix, rerun: bool) -> Result<(), String> {
    let (mut written, mut applied) = (s.clone(), cfg.clone());
    if !(fix.change.apply_to_scenario(&mut written) && fix.change.apply(&mut applied)) {
        return Err(format!("{:?} does not apply", fix.change));
    }
    let resolved = written.resolve().map_err(|e| format!("{}: {e}", fix.change.field()))?;
    if resolved != applied {
        return Err(format!(
            "{} written is not {:?} applied",
            fix.change.field(),
            fix.change
        ));
    }
    if rerun {
        let o = run(&resolved, &RunOptions::default());
        let i = cfg
            .clients
            .iter()
            .position(|c| c.name == fix.client)
            .expect("its client");
        let end = client_errors_ended(&o, CRASH)[i];
        if end != fix.after {
            return Err(format!("written, its errors end at {end:?}, not {:?}", fix.after));
        }
    }
    Ok(())
}

#[test]
fn each_client_preset_gets_the_change_its_causes_call_for() {
    for g in &GOLDEN {
        let s = kubelife_engine::presets::preset(g.preset).expect("a preset").scenario;
        let cfg = s.resolve().expect("valid");
        let o = run(&cfg, &RunOptions::default());
        let fixes = client_fixes(&cfg, &o);
        let checked = (|| {
            inside("before", client_errors_ended(&o, CRASH)[0], g.before)?;
            let fix = match (fixes.as_slice(), g.advice) {
                ([], None) => return Ok(()),
                ([fix], Some(advice)) if fix.advice.english() == advice => fix,
                _ => return Err(format!("advised {fixes:?}, expected {:?}", g.advice)),
            };
            inside("before", fix.before, g.before)?;
            inside("after", fix.after, g.after)?;
            same_when_written(&s, &cfg, fix, true)
        })();
        if let Err(why) = checked {
            panic!("{}: {why}", g.preset);
        }
    }
}

/// The CLI's line for the Go preset.
#[test]
fn a_fix_reads_as_one_line() {
    let s = kubelife_engine::presets::preset("go-client-default")
        .expect("a preset")
        .scenario;
    let cfg = s.resolve().expect("valid");
    let fixes = client_fixes(&cfg, &run(&cfg, &RunOptions::default()));
    assert_eq!(
        kubelife_engine::render::render_client_fixes(&fixes),
        "checkout: set http.Client.Timeout to 10s: errors end 15m24.6s → 10s after the fault\n"
    );
    let never = ClientFix {
        before: None,
        ..fixes[0].clone()
    };
    assert_eq!(
        never.line().english(),
        "checkout: set http.Client.Timeout to 10s: errors end never → 10s after the fault"
    );
}

/// Per library (and an override of it), and for a client outside the cluster the load balancer
/// it calls through, the setting its client's causes call for, if any, which some seed gets.
const LIBRARIES: [(&str, Option<&str>, Option<Knob>); 14] = [
    // Dials that raced the proxies' update wait Linux's SYN budget.
    (r#""library":"linux""#, None, Some(Knob::ConnectTimeout)),
    // A request on a pinned keep-alive connection hangs; a request timeout also bounds the
    // dials that race the update, which a TCP_USER_TIMEOUT does not.
    (r#""library":"go-http""#, None, Some(Knob::RequestTimeout)),
    (
        r#""library":"go-http","tcpUserTimeout":"30s""#,
        None,
        Some(Knob::RequestTimeout),
    ),
    (r#""library":"grpc-go""#, None, Some(Knob::KeepaliveTime)),
    // With keepalive, TCP_USER_TIMEOUT (20s) ends the connection; the dials that race the
    // update wait MinConnectTimeout (20s).
    (
        r#""library":"grpc-go","keepaliveTime":"1m""#,
        None,
        Some(Knob::ConnectTimeout),
    ),
    (r#""library":"java-httpclient""#, None, Some(Knob::RequestTimeout)),
    // OkHttp's 10s timeouts leave nothing worth a second to cut; without a read timeout, a
    // pinned request hangs.
    (r#""library":"okhttp""#, None, None),
    (
        r#""library":"okhttp","requestTimeout":"0s""#,
        None,
        Some(Knob::RequestTimeout),
    ),
    // Istio sets no route timeout and retries no hang.
    (r#""library":"envoy""#, None, Some(Knob::RequestTimeout)),
    // ingress-nginx retries a dead pod's 5s connect timeouts on others until it drops the pod.
    (r#""library":"ingress-nginx""#, None, None),
    (
        r#""library":"ingress-nginx","connectTimeout":"10s""#,
        None,
        Some(Knob::ConnectTimeout),
    ),
    // An ALB holds a request for a dead target 60s; the client's connection to it lives.
    (r#""library":"linux""#, Some("aws-alb"), Some(Knob::RequestTimeout)),
    // An NLB resets a dial to a dead node once its health checks call it unhealthy.
    (
        r#""library":"linux""#,
        Some("aws-nlb-instance"),
        Some(Knob::ConnectTimeout),
    ),
    (r#""library":"grpc-go""#, Some("aws-nlb-ip"), Some(Knob::KeepaliveTime)),
];

/// The case's scenario: the client on node-2, or outside the cluster through `lb`.
fn case(client: &str, lb: Option<&str>) -> String {
    let json = scenario(3, client, "");
    let Some(lb) = lb else { return json };
    let service = format!(r#""service":{{"type":"LoadBalancer","loadBalancer":"{lb}"}}"#);
    let external = json
        .replace(r#""service":true"#, &service)
        .replace(r#""from":"node-2""#, r#""from":"external""#);
    assert!(external.contains(lb) && external.contains("external"), "{external}");
    external
}

/// Over the seeds, each library's client is advised only the setting its causes call for,
/// only where that ends its errors at least `MIN_CUT` sooner, and the same change written into
/// the scenario is the same configuration.
#[test]
fn each_library_is_advised_its_own_setting_only_where_it_cuts() {
    for (client, lb, knob) in LIBRARIES {
        let json = case(client, lb);
        let advised = std::cell::Cell::new(0);
        check(client, &json, |o: &Outcome| {
            let mut s = Scenario::from_json(&json).expect("valid JSON");
            s.seed = Some(o.summary.seed);
            let cfg = s.resolve().expect("valid scenario");
            for fix in client_fixes(&cfg, o) {
                let Change::Override { knob: got, .. } = fix.change else {
                    return Err(format!("advised {:?}", fix.change));
                };
                if Some(got) != knob {
                    return Err(format!("advised {got:?}, expected {knob:?}"));
                }
                match (fix.before, fix.after) {
                    (Some(b), Some(a)) if a <= b - MIN_CUT => {}
                    (None, Some(_)) => {}
                    other => return Err(format!("offered without a cut: {other:?}")),
                }
                same_when_written(&s, &cfg, &fix, false)?;
                advised.set(advised.get() + 1);
            }
            Ok(())
        });
        let n = advised.get();
        assert_eq!(n > 0, knob.is_some(), "{client} through {lb:?}: {n} seeds advised");
    }
}

/// A client with no error after the fault gets no advice, and at most `MAX_ADVISED` clients
/// are advised: those whose errors lasted longest.
#[test]
fn no_error_no_advice_and_at_most_eight_clients() {
    let crashing = scenario(3, r#""library":"go-http""#, "");
    let quiet = crashing.replace(r#""events":[{"at":"30s","action":"NodeCrash","node":"node-1"}],"#, "");
    assert_ne!(quiet, crashing, "the crash left out");
    let cfg = Scenario::from_json(&quiet).unwrap().resolve().unwrap();
    assert_eq!(client_fixes(&cfg, &run(&cfg, &RunOptions::default())), vec![]);
    let clients: Vec<String> = (0..10)
        .map(|i| format!(r#"{{"name":"c{i}","target":"web","from":"node-2","library":"linux"}}"#))
        .collect();
    let many = scenario(3, r#""library":"linux""#, "").replace(
        r#""clients":[{"name":"c","target":"web","from":"node-2","library":"linux"}]"#,
        &format!(r#""clients":[{}]"#, clients.join(",")),
    );
    assert!(many.contains("c9"), "ten clients");
    let cfg = Scenario::from_json(&many).unwrap().resolve().unwrap();
    let o = run(&cfg, &RunOptions::default());
    let before = client_errors_ended(&o, CRASH);
    let fixes = client_fixes(&cfg, &o);
    assert_eq!(fixes.len(), MAX_ADVISED, "{fixes:?}");
    let worst = |f: &ClientFix| f.before.unwrap_or(i64::MAX);
    let least = fixes.iter().map(worst).min().unwrap();
    let left_out = cfg
        .clients
        .iter()
        .zip(&before)
        .filter(|(c, _)| fixes.iter().all(|f| f.client != c.name));
    for (c, end) in left_out {
        assert!(end.unwrap_or(i64::MAX) <= least, "{} left out with {end:?}", c.name);
    }
}
