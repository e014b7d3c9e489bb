//! The `kubelife` binary: pinned output shapes and exit codes.

use std::io::Write;
use std::process::{Command, Stdio};

fn kubelife(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kubelife"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const SCENARIO: &str = r#"{"version": "1.32", "durationSeconds": 400, "nodes": [{"name": "node-1"}, {"name": "node-2"}],
  "workloads": [{"kind": "Deployment", "name": "web", "replicas": 2}],
  "events": [{"at": "10s", "action": "NodeCrash", "node": "node-1"}]}"#;

#[test]
fn json_output_has_the_pinned_shape() {
    let (code, out, err) = kubelife(&["run", "-", "--json"], SCENARIO);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    let events = v["events"].as_array().unwrap();
    assert!(!events.is_empty());
    for e in events {
        for key in ["atMs", "kind", "node", "pod", "taint", "cause"] {
            assert!(e.get(key).is_some(), "event without {key}: {e}");
        }
        assert!(!e["cause"].as_str().unwrap().is_empty());
    }
    let kinds: Vec<&str> = events.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    for k in [
        "FaultStarted",
        "NodeUnknown",
        "TaintAdded",
        "PodNotReady",
        "PodDeletionRequested",
        "PodCreated",
        "PodScheduled",
        "PodReady",
    ] {
        assert!(kinds.contains(&k), "missing {k}");
    }
    assert!(!kinds.contains(&"LeaseRenewed"), "heartbeats only with --heartbeats");
    let writes = &v["summary"]["apiWrites"];
    assert!(writes["leaseUpdates"].as_u64().unwrap() > 0);
    assert!(writes["nodeStatusPatches"].as_u64().is_some());
    let node = &v["summary"]["nodes"][0];
    assert_eq!(node["node"], "node-1");
    for key in [
        "unknownAtMs",
        "taintAtMs",
        "firstDeletionAtMs",
        "lastDeletionAtMs",
        "replacementsReadyAtMs",
    ] {
        assert!(node[key].as_i64().is_some(), "{key} missing in {node}");
    }
    assert!(v["summary"]["workloads"][0]["notFullyReadyMs"].as_i64().unwrap() > 0);
}

#[test]
fn heartbeats_appear_on_request() {
    let (code, out, _) = kubelife(&["run", "-", "--json", "--heartbeats"], SCENARIO);
    assert_eq!(code, 0);
    assert!(out.contains("\"LeaseRenewed\""));
}

#[test]
fn readable_timeline_shows_causes() {
    let (code, out, _) = kubelife(&["run", "-"], SCENARIO);
    assert_eq!(code, 0);
    assert!(
        out.contains("NodeUnknown") && out.contains("node-monitor-grace-period 50s"),
        "{out}"
    );
    assert!(out.contains("tolerationSeconds 300"));
}

#[test]
fn invalid_scenario_exits_2_with_the_reason() {
    let (code, out, err) = kubelife(
        &["run", "-", "--json"],
        r#"{"nodes": [{"name": "n"}], "controllerManager": {"nodeMonitorPeriod": "0s"}}"#,
    );
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("controllerManager.nodeMonitorPeriod"), "{err}");
    let (code, _, err) = kubelife(&["run", "/no/such/file.json"], "");
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"));
    let (code, _, _) = kubelife(&["frobnicate"], "");
    assert_eq!(code, 2);
}
