//! The `kubelife` binary: pinned output shapes and exit codes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[path = "../../engine/tests/support/shared_fixtures.rs"]
mod shared_fixtures;

fn kubelife(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kubelife"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    // The binary may exit before reading (for example on a bad flag): a closed pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
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

#[test]
fn presets_list_and_print_runnable_scenarios() {
    let (code, out, _) = kubelife(&["presets"], "");
    assert_eq!(code, 0);
    let names: Vec<&str> = out.lines().filter_map(|l| l.split_whitespace().next()).collect();
    for want in [
        "upstream-1.12",
        "upstream-1.17",
        "upstream-1.31",
        "upstream-newest",
        "kubespray-medium",
        "kubespray-low",
        "metalk8s-fast-failover",
        "go-client-default",
        "coredns-node-local-cache",
        "aws-nlb-instance",
        "aws-nlb-ip",
    ] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
    for name in names {
        let (code, json, err) = kubelife(&["preset", name], "");
        assert_eq!(code, 0, "{name}: {err}");
        serde_json::from_str::<serde_json::Value>(&json).expect("a preset is JSON");
        let (code, _, err) = kubelife(&["run", "-", "--json"], &json);
        assert_eq!(code, 0, "{name} runs: {err}");
    }
    let (code, _, err) = kubelife(&["preset", "nope"], "");
    assert_eq!(code, 2);
    assert!(err.contains("upstream-newest"), "lists the presets: {err}");
}

#[test]
fn runs_report_the_spread_of_each_milestone() {
    let (code, out, err) = kubelife(&["run", "-", "--json", "--runs", "40"], SCENARIO);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["runs"], 40);
    let unknown = v["milestones"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["milestone"] == "unknown")
        .unwrap();
    let (min, p50, p95, max) = (
        unknown["min"].as_i64().unwrap(),
        unknown["p50"].as_i64().unwrap(),
        unknown["p95"].as_i64().unwrap(),
        unknown["max"].as_i64().unwrap(),
    );
    assert!(
        39_600 < min && min <= p50 && p50 <= p95 && p95 <= max && max <= 60_100,
        "{unknown}"
    );
    assert!(max > min, "different seeds give different phases");
    let (code, text, _) = kubelife(&["run", "-", "--runs", "5"], SCENARIO);
    assert_eq!(code, 0);
    assert!(text.contains("p95") && text.contains("firstDeletion"), "{text}");
    for bad in ["0", "x", "10001"] {
        let (code, _, err) = kubelife(&["run", "-", "--runs", bad], SCENARIO);
        assert_eq!(code, 2, "--runs {bad}");
        assert!(err.contains("--runs"));
    }
}

/// On `eks-instance-terminated` nothing evicts: PodGC force-deletes node-1's orphans once the
/// cloud controller deleted the Node, and that counts as the first deletion; agent's pod is its
/// node's (a DaemonSet), so every replacement is Ready once db-0 is; the Node's deletion has a
/// row, and with no remediator no remediation does.
#[test]
fn runs_count_podgcs_deletions_and_report_the_nodes_deletion() {
    let eks = kubelife_engine::presets::preset("eks-instance-terminated")
        .unwrap()
        .scenario
        .to_json();
    let (code, out, err) = kubelife(&["run", "-", "--json", "--runs", "5"], &eks);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let row = |name: &str| {
        v["milestones"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["milestone"] == name)
            .cloned()
    };
    for name in ["firstDeletion", "replacementsReady", "nodeDeleted"] {
        let r = row(name).unwrap_or_else(|| panic!("no {name}: {out}"));
        assert_eq!(r["never"], 0, "{name}: {r}");
    }
    assert_eq!(
        row("replacementsReady").unwrap()["p50"],
        row("databaseReady").unwrap()["p50"]
    );
    assert!(row("remediationStarted").is_none(), "no remediator: {out}");
    let (code, text, _) = kubelife(&["run", "-", "--runs", "5"], &eks);
    assert_eq!(code, 0);
    let line = text
        .lines()
        .find(|l| l.starts_with("nodeDeleted "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(!line.contains(" - "), "{line}");
    // A remediator's start has its row too.
    let mhc = kubelife_engine::presets::preset("capi-mhc-5m")
        .unwrap()
        .scenario
        .to_json();
    let (code, text, _) = kubelife(&["run", "-", "--runs", "3"], &mhc);
    assert_eq!(code, 0);
    let line = text
        .lines()
        .find(|l| l.starts_with("remediationStarted "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.ends_with(" 0"), "started in every run: {line}");
}

/// A drain is the fault its milestones are measured from: kubectl drain evicts node-1's web pod
/// within a round trip of the drain, its replacement is Ready a podStartup (5s) later, and the
/// run explains where the time goes from the drain.
#[test]
fn runs_measure_a_drains_milestones_from_the_drain() {
    let drain = SCENARIO.replace("NodeCrash", "Drain");
    let (code, out, err) = kubelife(&["run", "-", "--json", "--runs", "3"], &drain);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["node"], "node-1", "{out}");
    let row = |name: &str| {
        let all = v["milestones"].as_array().unwrap();
        let r = all.iter().find(|m| m["milestone"] == name);
        r.cloned().unwrap_or_else(|| panic!("no {name}: {out}"))
    };
    let (deletion, first, all) = (
        row("firstDeletion"),
        row("firstReplacementReady"),
        row("replacementsReady"),
    );
    for r in [&deletion, &first, &all] {
        assert_eq!(r["never"], 0, "{r}");
    }
    assert!(deletion["max"].as_i64().unwrap() < 1_000, "{deletion}");
    let ready = first["p50"].as_i64().unwrap();
    assert!((5_000..6_000).contains(&ready), "{first}");
    assert_eq!(all["p50"], first["p50"], "one web pod on node-1");
    let (code, text, _) = kubelife(&["run", "-", "--runs", "3"], &drain);
    assert_eq!(code, 0);
    assert!(text.contains("milestones of node-1 from its fault"), "{text}");
    let (code, text, _) = kubelife(&["run", "-"], &drain);
    assert_eq!(code, 0);
    let section = text.split("where does the time go? (from the fault at 10s)").nth(1);
    let section = section.unwrap_or_else(|| panic!("{text}"));
    assert!(section.contains("kubectl drain evicts it"), "{section}");
}

#[test]
fn time_prints_the_mean_of_one_run_in_ms() {
    let (code, out, _) = kubelife(&["run", "-", "--time", "3"], SCENARIO);
    assert_eq!(code, 0);
    let ms: f64 = out.trim().parse().expect("one number");
    assert!(ms > 0.0 && ms < 60_000.0, "{out}");
    for bad in ["0", "x", "10001"] {
        let (code, _, err) = kubelife(&["run", "-", "--time", bad], SCENARIO);
        assert_eq!(code, 2, "--time {bad}");
        assert!(err.contains("--time"));
    }
}

#[test]
fn warnings_reach_both_outputs() {
    let scenario =
        r#"{"version": "1.20", "controllerManager": {"podEvictionTimeout": "30s"}, "nodes": [{"name": "n"}]}"#;
    let (_, out, _) = kubelife(&["run", "-", "--json"], scenario);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["warnings"][0]
        .as_str()
        .unwrap()
        .contains("--pod-eviction-timeout has no effect"));
    let (_, text, _) = kubelife(&["run", "-"], scenario);
    assert!(text.contains("warning: --pod-eviction-timeout has no effect"), "{text}");
}

#[test]
fn export_prints_yaml_that_parses_back() {
    let scenario = r#"{"version": "1.31", "kubelet": {"nodeStatusUpdateFrequency": "4s"},
        "controllerManager": {"nodeMonitorGracePeriod": "20s"}, "apiServer": {"defaultUnreachableTolerationSeconds": 30},
        "nodes": [{"name": "n"}]}"#;
    let (code, out, err) = kubelife(&["export", "-", "--format", "kcm"], scenario);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("--node-monitor-grace-period=20s"), "{out}");
    let (_, out, _) = kubelife(&["export", "-", "--format", "kubelet"], scenario);
    assert!(out.starts_with("# nodeStatusReportFrequency is written too"), "{out}");
    assert!(
        out.contains("nodeStatusUpdateFrequency: 4s") && out.contains("nodeStatusReportFrequency: 4s"),
        "{out}"
    );
    for format in ["apiserver", "tolerations", "rke"] {
        let (code, out, err) = kubelife(&["export", "-", "--format", format], scenario);
        assert_eq!(code, 0, "{format}: {err}");
        assert!(out.contains("30"), "{format}: {out}");
    }
    let (code, _, err) = kubelife(&["export", "-", "--format", "helm"], scenario);
    assert_eq!(code, 2);
    assert!(err.contains("kubelet, kcm, apiserver, tolerations, rke"), "{err}");
}

#[test]
fn export_writes_kubeadm_documents_and_the_out_of_service_fix() {
    let scenario = r#"{"version": "1.31", "durationSeconds": 1200, "controllerManager": {"nodeMonitorGracePeriod": "20s"},
        "nodes": [{"name": "node-1"}, {"name": "node-2"}],
        "workloads": [{"kind": "StatefulSet", "name": "db", "replicas": 1, "volume": {"accessMode": "ReadWriteOnce"}}],
        "events": [{"at": "1m", "action": "NodeCrash", "node": "node-1"}]}"#;
    let (code, out, err) = kubelife(&["export", "-", "--format", "kubeadm"], scenario);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("apiVersion: kubeadm.k8s.io/v1beta4"), "{out}");
    assert!(
        out.contains("- name: node-monitor-grace-period\n    value: 20s"),
        "{out}"
    );
    let (code, out, err) = kubelife(&["export", "-", "--format", "out-of-service"], scenario);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("\nkubectl taint nodes node-1 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute\n"),
        "{out}"
    );
    assert!(
        out.contains(
            "remove the taint: kubectl taint nodes node-1 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute-"
        ),
        "{out}"
    );
    let (_, out, _) = kubelife(&["export", "-", "--format", "kube-proxy"], scenario);
    assert_eq!(out, "# nothing to change: every setting here is 1.31's default\n");
}

#[test]
fn import_prints_a_scenario_and_the_report_on_stderr() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/tests/fixtures/import");
    let kubeadm = format!("{dir}/kubeadm-1.31.yaml");
    let nodes = format!("{dir}/nodes-3-zones-30.json");
    let (code, out, err) = kubelife(&["import", &kubeadm, &nodes], "");
    assert_eq!(code, 0, "{err}");
    let s: serde_json::Value = serde_json::from_str(&out).expect("a JSON scenario on stdout");
    assert_eq!(s["version"], "1.31");
    assert_eq!(s["nodes"].as_array().unwrap().len(), 30);
    assert!(
        err.contains("recognised: ") && err.contains("ClusterConfiguration controllerManager.extraArgs"),
        "{err}"
    );
    // The scenario runs as it is.
    let (code, _, err) = kubelife(&["run", "-"], &out);
    assert_eq!(code, 0, "{err}");
    // --version checks against another version; standard input works too.
    let flags = "--pod-eviction-timeout=30s --node-monitor-grace-period=20s";
    let (code, out, err) = kubelife(&["import", "-", "--version", "1.30"], flags);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("invalid: controllerManager.podEvictionTimeout"), "{err}");
    assert!(
        out.contains("\"nodeMonitorGracePeriod\": \"20s\"") && !out.contains("podEvictionTimeout"),
        "{out}"
    );
}

#[test]
fn import_of_nothing_usable_exits_1_with_a_clear_message() {
    let (code, out, err) = kubelife(&["import", "-"], "hello: world\n");
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(
        err.contains("nothing in - is configuration or kubectl output kubelife can import"),
        "{err}"
    );
    let (code, _, err) = kubelife(&["import"], "");
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = kubelife(&["import", "/nonexistent/file.yaml"], "");
    assert_eq!(code, 2);
    assert!(err.contains("cannot read /nonexistent/file.yaml"), "{err}");
}

/// Every file under `dir`, sorted, but SOURCES.md.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            out.extend(files_under(&p));
        } else if p.file_name().is_some_and(|n| n != "SOURCES.md") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// The fixtures from which nothing can be imported: `kubelife import` exits 1 on them.
const NOTHING_TO_IMPORT: [&str; 2] = [
    "openshift-kubeletconfig.yaml",
    "wrong-kind-openshift-kubeletconfig.yaml",
];

/// `kubelife import FILE` prints a scenario that `kubelife run` runs as it is (on the page's
/// default cluster when the file has no nodes), or, for a file with nothing to import, exits 1.
fn check_import_then_run(file: &Path) {
    let name = file.file_name().unwrap().to_string_lossy();
    let (code, out, err) = kubelife(&["import", &file.to_string_lossy()], "");
    if NOTHING_TO_IMPORT.contains(&name.as_ref()) {
        assert_eq!((code, out.as_str()), (1, ""), "{name}: {err}");
        return;
    }
    assert_eq!(code, 0, "{name}: {err}");
    let (code, timeline, run_err) = kubelife(&["run", "-"], &out);
    assert_eq!(
        code, 0,
        "{name}: kubelife run refuses the import: {run_err}\n{out}\n{err}"
    );
    assert!(timeline.contains("initial state"), "{name}: {timeline}");
}

#[test]
fn import_of_each_single_file_fixture_gives_a_scenario_that_runs() {
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = files_under(&checkout.join("crates/engine/tests/fixtures/import"));
    let what = "the shared part of import_of_each_single_file_fixture_gives_a_scenario_that_runs";
    if let Some(dir) = shared_fixtures::shared_import_fixtures(&checkout, what) {
        files.extend(files_under(&dir));
    }
    for file in files {
        check_import_then_run(&file);
    }
}

#[test]
fn import_of_a_file_without_nodes_runs_on_the_pages_default_cluster() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/tests/fixtures/import");
    let (code, out, err) = kubelife(&["import", &format!("{dir}/kubelet-config.yaml")], "");
    assert_eq!(code, 0, "{err}");
    let s: serde_json::Value = serde_json::from_str(&out).unwrap();
    let names: Vec<&str> = s["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["node-1", "node-2", "node-3"]);
    assert_eq!(s["nodes"][0]["maxPods"], 90, "the kubelet's maxPods applies to them");
    assert_eq!(s["workloads"].as_array().unwrap().len(), 3);
    for said in [
        "note: no file gives nodes: the scenario runs on the page's default cluster, 3 nodes (node-1, node-2, node-3) in zone-a, zone-b, zone-c",
        "note: no file gives workloads: the scenario runs the page's default ones, Deployment web (3), StatefulSet db (1), DaemonSet agent",
    ] {
        assert!(err.contains(said), "{said:?} missing from\n{err}");
    }
    assert!(!err.contains("add nodes"), "{err}");
}

/// A directory of its own for one test's files, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("kubelife-cli-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn file(&self, name: &str, bytes: &[u8]) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_string_lossy().into_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Bytes of a report that a terminal would act on: C0 controls but the line end, DEL, and the C1
/// controls as UTF-8 writes them.
fn control_bytes(report: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(report);
    text.chars()
        .filter(|&c| c != '\n' && (c.is_control() || ('\u{202a}'..='\u{202e}').contains(&c)))
        .flat_map(|c| c.to_string().into_bytes())
        .collect()
}

/// `kubelife import` of each hostile input of issue 24's table: it answers within 5 s with a
/// message naming the file.
#[test]
fn import_of_each_hostile_input_returns_quickly_naming_the_file() {
    let scratch = Scratch::new("hostile");
    let big = "x".repeat(1 << 20);
    let sparse = scratch.0.join("huge.yaml");
    std::fs::File::create(&sparse).unwrap().set_len(3 << 30).unwrap();
    let bomb = |n: usize| format!("a: &s {big}\nb: [{}]\n", vec!["*s"; n].join(", "));
    let cases = [
        (
            scratch.file("deep.yaml", format!("a: {}", "[".repeat(200_000)).as_bytes()),
            1,
            "deep.yaml line 1: nested deeper than 64 levels",
        ),
        (
            scratch.file("bomb-4000.yaml", bomb(4_000).as_bytes()),
            1,
            "bomb-4000.yaml: YAML aliases (*name) and merge keys (<<) expand beyond the file's size",
        ),
        (
            scratch.file("bomb-10000.yaml", bomb(10_000).as_bytes()),
            1,
            "bomb-10000.yaml: YAML aliases (*name)",
        ),
        (
            sparse.to_string_lossy().into_owned(),
            1,
            "huge.yaml is 3 GiB (3,221,225,472 B), over the 128 MiB kubelife reads: not read",
        ),
        (
            scratch.file(
                "flag.txt",
                format!("--node-monitor-grace-period={big} --node-monitor-period=2s").as_bytes(),
            ),
            0,
            "flag.txt: cannot read --node-monitor-grace-period \"xxxx",
        ),
    ];
    for (file, want_code, said) in cases {
        let start = std::time::Instant::now();
        let (code, _, err) = kubelife(&["import", &file], "");
        let took = start.elapsed();
        assert!(took < std::time::Duration::from_secs(5), "{file}: {took:?}");
        assert_eq!(code, want_code, "{file}: {err}");
        assert!(err.contains(said), "{said:?} missing from\n{err}");
        assert!(err.len() < 4_000, "{file}: a report of {} bytes", err.len());
    }
}

/// The ANSI-escape file of the issue: the report's bytes hold no control character.
#[test]
fn import_report_of_terminal_escapes_has_no_control_character() {
    let scratch = Scratch::new("ansi");
    let file = scratch.file(
        "ansi\u{1b}]0;x\u{7}.yaml",
        b"apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeStatusUpdateFrequency: \"4s\\e]0;owned\\a\\e[2J\"\nmaxPods: 40\n",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_kubelife"))
        .args(["import", &file])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        control_bytes(&out.stderr),
        b"",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            r#"cannot read nodeStatusUpdateFrequency "4s\x1b]0;owned\a\x1b[2J": the character \x1b at character 3"#
        ),
        "{err}"
    );
    assert!(
        err.contains(r"ansi\x1b]0;x\a.yaml"),
        "the file name is escaped too: {err}"
    );
    // The scenario on stdout is JSON, which escapes control characters itself.
    assert_eq!(control_bytes(&out.stdout), b"");
}

#[test]
fn import_version_outside_the_profiles_exits_2_naming_the_versions() {
    let flow = "{apiVersion: kubelet.config.k8s.io/v1beta1, kind: KubeletConfiguration, nodeStatusUpdateFrequency: 4s}";
    for bad in ["1.99", "", "1.11", "\u{1b}[2J"] {
        let (code, out, err) = kubelife(&["import", "-", "--version", bad], flow);
        assert_eq!((code, out.as_str()), (2, ""), "--version {bad:?}: {err}");
        assert!(
            err.contains("supported versions: 1.12, 1.13") && err.contains("1.36, 1.37"),
            "{err}"
        );
        assert!(!err.contains('\u{1b}'), "{err:?}");
    }
    let (code, out, err) = kubelife(&["import", "-", "--version", "1.20"], flow);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("\"nodeStatusUpdateFrequency\": \"4s\""),
        "a flow mapping is YAML: {out}"
    );
    assert!(
        err.contains("note: --version 1.20 chosen; no file names a version"),
        "{err}"
    );
}

#[test]
fn import_reads_utf16_from_powershell_and_names_other_encodings() {
    let scratch = Scratch::new("encodings");
    let text = "apiVersion: kubelet.config.k8s.io/v1beta1\r\nkind: KubeletConfiguration\r\nmaxPods: 30\r\n";
    let utf16: Vec<u8> = [0xff, 0xfe]
        .into_iter()
        .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let (code, out, err) = kubelife(&["import", &scratch.file("ps.yaml", &utf16)], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("ps.yaml: UTF-16LE with a byte-order mark (as PowerShell's > writes it); read as such"),
        "{err}"
    );
    assert!(out.contains("\"maxPods\": 30"), "{out}");
    let (code, _, err) = kubelife(
        &["import", &scratch.file("latin1.yaml", b"kind: Node\nname: caf\xe9\n")],
        "",
    );
    assert_eq!(code, 1);
    assert!(
        err.contains("latin1.yaml is not UTF-8: byte 0xe9 at offset 20 (Latin-1?); save it as UTF-8"),
        "{err}"
    );
}

#[test]
fn a_cloud_run_names_who_deleted_the_node_in_both_outputs() {
    let scenario = r#"{"version": "1.32", "cloud": {"provider": "aws"},
        "nodes": [{"name": "node-1"}, {"name": "node-2"}],
        "workloads": [{"kind": "Deployment", "name": "web", "replicas": 2}],
        "events": [{"at": "60s", "action": "InstanceTerminated", "node": "node-1"}]}"#;
    let (code, text, err) = kubelife(&["run", "-"], scenario);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("NodeDeleted") && text.contains("cloud-controller-manager"),
        "{text}"
    );
    assert!(text.contains("node node-1: Node deleted "), "{text}");
    let (_, out, _) = kubelife(&["run", "-", "--json"], scenario);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let deleted = v["summary"]["nodes"][0]["deletedAtMs"].as_i64().expect("deletedAtMs");
    assert!(deleted > 60_000);
    assert!(v["summary"]["nodes"][0].get("remediationAtMs").is_none());
}

#[test]
fn remediation_is_checked_and_an_unread_interruption_queue_is_said_so() {
    // Every kind acts; Karpenter's interruption queue is AWS's, and on Azure a warning says
    // nothing reads it.
    let scenario = r#"{"nodes": [{"name": "n"}], "cloud": {"provider": "azure"},
        "remediation": [{"kind": "MachineHealthCheck"}, {"kind": "KarpenterNodeRepair", "interruptionQueue": true}]}"#;
    let (code, text, _) = kubelife(&["run", "-"], scenario);
    assert_eq!(code, 0);
    assert!(
        text.contains("warning: Karpenter's interruptionQueue is karpenter-provider-aws's"),
        "{text}"
    );
    let on_aws = scenario.replace("azure", "aws");
    let (code, text, _) = kubelife(&["run", "-"], &on_aws);
    assert_eq!(code, 0);
    assert!(!text.contains("interruptionQueue"), "{text}");
    let (code, _, err) = kubelife(
        &["run", "-"],
        r#"{"nodes": [{"name": "n"}], "remediation": [{"kind": "EKSNodeAutoRepair"}]}"#,
    );
    assert_eq!(code, 2);
    assert!(err.contains("remediation[0].kind") && err.contains("aws"), "{err}");
}

/// The default cluster on the newest version, its run cut to 2m30s so that a search stays quick
/// in a debug build (every milestone of a fast setting comes within it).
fn tune_scenario() -> String {
    let newest = format!("1.{}", kubelife_engine::version::NEWEST_MINOR);
    let mut s = kubelife_engine::presets::default_cluster(&newest);
    s.duration_seconds = Some(150);
    s.to_json()
}

#[test]
fn tune_prints_the_pinned_json_and_writes_the_best_point_as_a_scenario_that_meets_it() {
    let dir = std::env::temp_dir().join(format!("kubelife-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("best.json");
    let args = [
        "tune",
        "-",
        "--target",
        "firstReplacementReady=60s@p95",
        "--seeds",
        "5",
        "--json",
    ];
    let (code, stdout, err) = kubelife(
        &[&args[..], &["--out", out.to_str().unwrap()]].concat(),
        &tune_scenario(),
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("valid JSON");
    for key in ["front", "best", "references", "candidates"] {
        assert!(v.get(key).is_some(), "no {key}: {stdout}");
    }
    let point_keys = [
        "settings",
        "milestones",
        "targets",
        "writesPerMinute",
        "blipSafe",
        "meets",
    ];
    let front = v["front"].as_array().unwrap();
    assert!(!front.is_empty());
    for p in front.iter().chain([&v["best"]]) {
        for key in point_keys {
            assert!(p.get(key).is_some(), "a point without {key}: {p}");
        }
        let m = &p["milestones"]["firstReplacementReady"];
        assert!(
            m.get("p50").is_some() && m.get("p95").is_some() && m.get("max").is_some(),
            "{m}"
        );
        assert!(p["settings"]["--node-monitor-grace-period"].is_string(), "{p}");
        assert!(p["settings"]["nodeStatusUpdateFrequency"].is_string(), "{p}");
    }
    let names: Vec<&str> = v["references"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["defaults", "kubespray-fast", "kubespray-medium", "kubespray-low"]
    );
    assert!(
        v["references"][0]["writesPerMinute"].is_number(),
        "a reference is a point too"
    );
    check_warnings(&v);
    // The scenario it wrote runs, and on the same seeds meets the target.
    let (code, runs, err) = kubelife(&["run", out.to_str().unwrap(), "--runs", "5", "--json"], "");
    assert_eq!(code, 0, "{err}");
    let d: serde_json::Value = serde_json::from_str(&runs).unwrap();
    let spread = d["milestones"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["milestone"] == "firstReplacementReady")
        .unwrap();
    assert_eq!(spread["never"], 0, "{spread}");
    assert!(spread["p95"].as_i64().unwrap() <= 60_000, "{spread}");
    assert_eq!(spread["p95"], v["best"]["milestones"]["firstReplacementReady"]["p95"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every point carries the page's warnings as `{"key", "text"}`; best has the fewest warnings
/// of the front's points that meet the goal, and every one the goal forces.
fn check_warnings(v: &serde_json::Value) {
    let keys = |p: &serde_json::Value| -> Vec<String> {
        let list = p["warnings"]
            .as_array()
            .unwrap_or_else(|| panic!("no warnings list: {p}"));
        list.iter()
            .map(|w| {
                let (key, text) = (w["key"].as_str().unwrap(), w["text"].as_str().unwrap());
                assert!(
                    key.starts_with("ui.warn.") && !text.is_empty() && !text.contains('{'),
                    "{w}"
                );
                key.to_string()
            })
            .collect()
    };
    let refs = v["references"].as_array().unwrap().iter();
    let front = v["front"].as_array().unwrap();
    for p in front
        .iter()
        .chain(refs)
        .chain([&v["best"]].into_iter().filter(|b| !b.is_null()))
    {
        keys(p);
    }
    let forced: Vec<String> = serde_json::from_value(v["forcedWarnings"].clone()).expect("forcedWarnings");
    let meeting: Vec<Vec<String>> = front.iter().filter(|p| p["meets"] == true).map(keys).collect();
    if v["best"].is_null() {
        assert!(forced.is_empty() && meeting.is_empty(), "{v}");
        return;
    }
    let best = keys(&v["best"]);
    assert_eq!(Some(best.len()), meeting.iter().map(Vec::len).min(), "{v}");
    assert!(
        forced.iter().all(|k| meeting.iter().all(|m| m.contains(k))),
        "{forced:?}"
    );
    assert!(forced.iter().all(|k| best.contains(k)), "{forced:?} {best:?}");
}

/// Issue 36, item 2: at 5,000 nodes the Lease renewals alone are over a ceiling of 600 writes
/// a minute; the answer names the ceiling, the closest candidate and the floor, and so does the
/// text; the 60s target is met.
#[test]
fn tune_names_the_ceiling_no_candidate_meets_and_its_floor() {
    let args = [
        "tune",
        "-",
        "--target",
        "firstReplacementReady=60s@p95",
        "--max-writes-per-min",
        "600",
        "--nodes",
        "5000",
        "--seeds",
        "2",
    ];
    let (code, stdout, err) = kubelife(&[&args[..], &["--json"]].concat(), &tune_scenario());
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("valid JSON");
    let unmet = v["unmet"].as_array().expect("unmet");
    assert_eq!(unmet.len(), 1, "only the ceiling: {unmet:?}");
    assert_eq!(unmet[0]["name"], "maxWritesPerMinute");
    let closest = unmet[0]["closest"].as_f64().unwrap();
    let floor = unmet[0]["floor"].as_f64().unwrap();
    // Lease renewals every 10s, jittered 2% longer, at 5,000 nodes.
    assert!((floor - 5_000.0 * 60.0 / 10.2).abs() < 0.01, "{floor}");
    assert!(closest >= floor && closest < 31_000.0, "{closest}");
    assert!(v["best"].is_null());
    check_warnings(&v);
    let (code, text, err) = kubelife(&args, &tune_scenario());
    assert_eq!(code, 0, "{err}");
    for part in [
        "writes counted at 5000 nodes",
        "no candidate meets maxWritesPerMinute: the closest is 30392.2 writes/min",
        "none can go under 29411.8 writes/min at 5000 nodes",
    ] {
        assert!(text.contains(part), "no {part:?} in:\n{text}");
    }
}

/// A blip longer than every grace period of the space: every candidate taints on it, and the
/// answer says blip safety is what no candidate meets, in JSON and in the text.
#[test]
fn tune_names_the_blip_no_candidate_is_safe_from() {
    let args = [
        "tune",
        "-",
        "--target",
        "firstReplacementReady=10m@p50",
        "--blip",
        "2m",
        "--seeds",
        "2",
    ];
    let (code, stdout, err) = kubelife(&[&args[..], &["--json"]].concat(), &tune_scenario());
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("valid JSON");
    let names: Vec<&str> = v["unmet"]
        .as_array()
        .expect("unmet")
        .iter()
        .filter_map(|u| u["name"].as_str())
        .collect();
    assert_eq!(names, ["blipSafe"]);
    assert_eq!(v["blip"], 120_000);
    assert!(v["best"].is_null());
    let (code, text, err) = kubelife(&args, &tune_scenario());
    assert_eq!(code, 0, "{err}");
    let said = "no candidate is safe from a 2m0s blip: each taints its node NoExecute or deletes a pod in some seed";
    assert!(text.contains(said), "no {said:?} in:\n{text}");
}

#[test]
fn tune_without_a_blip_check_and_its_text() {
    let args = ["tune", "-", "--target", "taint=40s@p50", "--blip", "0", "--seeds", "3"];
    let (code, out, err) = kubelife(&args, &tune_scenario());
    assert_eq!(code, 0, "{err}");
    for part in [
        "front (",
        "references:",
        "  defaults:",
        "  kubespray-fast:",
        "best (",
        "taint p50 ",
        "--node-monitor-grace-period=",
    ] {
        assert!(out.contains(part), "no {part:?} in:\n{out}");
    }
    assert!(out.contains("blip not checked") || out.contains("not checked"), "{out}");
    assert!(!out.contains("taints or evicts"), "no blip was checked:\n{out}");
}

/// `--svg` draws what the search found as the page's Tune panel does: a ring and a number for
/// each point of the front, the references by name, the first target's line (2 px) and the
/// writes limit's (1 px), both purple.
#[test]
fn tune_draws_the_front_and_the_target_line_as_svg() {
    let dir = std::env::temp_dir().join(format!("kubelife-tune-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("front.svg");
    let args = [
        "tune",
        "-",
        "--target",
        "firstReplacementReady=60s@p95",
        "--max-writes-per-min",
        "2000",
        "--seeds",
        "3",
        "--json",
        "--svg",
        file.to_str().unwrap(),
    ];
    let (code, stdout, err) = kubelife(&args, &tune_scenario());
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&stdout).expect("valid JSON");
    let front = v["front"].as_array().unwrap().len();
    assert!(front > 0);
    let svg = std::fs::read_to_string(&file).expect("the SVG is written");
    assert!(svg.starts_with("<svg"), "{svg}");
    assert_eq!(
        svg.matches(r#" r="7""#).count(),
        front,
        "a ring per point of the front:\n{svg}"
    );
    for i in 1..=front {
        assert!(svg.contains(&format!(">\n{i}\n</text>")), "no number {i}:\n{svg}");
    }
    // The references that reached the target within the run, by name (a point that never did has
    // no place on the x axis), and the x axis's name.
    let references = v["references"].as_array().unwrap().iter();
    let reached: Vec<&str> = references
        .filter(|r| !r["targets"][0].is_null())
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert!(!reached.is_empty(), "{stdout}");
    for text in reached.into_iter().chain(["p95 firstReplacementReady →"]) {
        assert!(svg.contains(&format!(">\n{text}\n</text>")), "no {text:?}:\n{svg}");
    }
    let purple: Vec<&str> = svg.lines().filter(|l| l.contains(r##"stroke="#7A1FA2""##)).collect();
    assert_eq!(purple.len(), 2, "the target's line and the limit's:\n{svg}");
    assert!(purple.iter().any(|l| l.contains(r#"stroke-width="2""#)), "{purple:?}");
    // A file it cannot write is named, with exit 1.
    let bad = dir.join("no-such-folder").join("front.svg");
    let args = [
        "tune",
        "-",
        "--target",
        "taint=40s@p50",
        "--seeds",
        "1",
        "--svg",
        bad.to_str().unwrap(),
    ];
    let (code, _, err) = kubelife(&args, &tune_scenario());
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("cannot write") && err.contains("front.svg"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tune_refuses_bad_arguments_naming_them() {
    let cases: [(&[&str], &str); 6] = [
        (&["--target", "soon=1m"], "--target: \"soon\" is not a milestone"),
        (&["--target", "taint"], "--target: invalid target \"taint\""),
        (&["--target", "taint=1m@p0"], "invalid percentile p0"),
        (&[], "at least one --target"),
        (
            &["--target", "taint=1m", "--seeds", "0"],
            "--seeds takes a number from 1 to",
        ),
        (
            &["--target", "taint=1m", "--blip", "soon"],
            "--blip takes a Go duration",
        ),
    ];
    for (args, message) in cases {
        let (code, _, err) = kubelife(&[&["tune", "-"], args].concat(), &tune_scenario());
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
    // A target the scenario cannot reach: no Service, so no traffic to stop.
    let (code, _, err) = kubelife(&["tune", "-", "--target", "trafficStopped=30s"], &tune_scenario());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot reach the target trafficStopped=30s@p95"), "{err}");
    // Nothing deletes the Node or remediates it without a cloud or a remediator.
    for target in ["nodeDeleted=1m", "remediationStarted=6m@p50"] {
        let (code, _, err) = kubelife(&["tune", "-", "--target", target], &tune_scenario());
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("cannot reach the target"), "{target}: {err}");
    }
}

/// A scenario with a client: its events carry `client`, `summary.clients` has the pinned fields,
/// and the text ends with a line for it.
#[test]
fn a_client_shows_in_the_json_and_the_text() {
    let scenario = r#"{"version": "1.32", "durationSeconds": 300, "nodes": [{"name": "node-1"}, {"name": "node-2"}],
      "workloads": [{"kind": "Deployment", "name": "web", "replicas": 1, "service": true}],
      "events": [{"at": "10s", "action": "NodeCrash", "node": "node-1"}],
      "clients": [{"name": "shop", "target": "web", "library": "linux", "connectTimeout": "5s"}]}"#;
    let (code, out, err) = kubelife(&["run", "-", "--json"], scenario);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    let clients = v["summary"]["clients"].as_array().expect("summary.clients");
    let c = &clients[0];
    for key in [
        "name",
        "requests",
        "failed",
        "firstErrorMs",
        "lastErrorMs",
        "worstLatencyMs",
    ] {
        assert!(c.get(key).is_some(), "summary.clients[0] without {key}: {c}");
    }
    assert_eq!(c["name"], "shop");
    assert!(c["failed"].as_u64().unwrap() > 0, "{c}");
    let started = v["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "ClientErrorsStarted")
        .expect("a ClientErrorsStarted");
    assert_eq!(
        (&started["client"], &started["service"]),
        (&"shop".into(), &"web".into())
    );
    let (code, text, err) = kubelife(&["run", "-"], scenario);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("client shop: "), "{text}");
    // Over seeds, the client's last error from the fault: `clientErrorsEnded`.
    let (code, out, err) = kubelife(&["run", "-", "--json", "--runs", "5"], scenario);
    assert_eq!(code, 0, "{err}");
    let d: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    let ended = &d["clientErrorsEnded"][0];
    assert_eq!(ended["milestone"], "shop", "{d}");
    assert_eq!(
        ended["count"].as_u64().unwrap() + ended["never"].as_u64().unwrap(),
        5,
        "{ended}"
    );
    let every = d["milestones"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["milestone"] == "clientErrorsEnded")
        .expect("the milestone clientErrorsEnded");
    // One client: every client's milestone is its own.
    assert_eq!(every["samples"], ended["samples"], "{d}");
    let (code, text, err) = kubelife(&["run", "-", "--runs", "5"], scenario);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("\nshop: clientErrorsEnded "), "{text}");
}

/// With clients, the text says after the clients' summary what to change in each client with
/// errors, and by how much, and the JSON lists it as `clientFixes`; without clients the JSON has
/// no such member.
#[test]
fn a_client_with_errors_is_told_what_to_change() {
    let (_, scenario, _) = kubelife(&["preset", "go-client-default"], "");
    let (code, text, err) = kubelife(&["run", "-"], &scenario);
    assert_eq!(code, 0, "{err}");
    let line = "\ncheckout: set http.Client.Timeout to 10s: errors end 15m24.6s → 10s after the fault\n";
    let (summary, fix) = (text.find("\nclient checkout: "), text.find(line));
    assert!(summary.is_some() && fix > summary, "{text}");
    let (code, out, err) = kubelife(&["run", "-", "--json"], &scenario);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    let fix = &v["clientFixes"][0];
    assert_eq!(fix["client"], "checkout", "{fix}");
    assert_eq!(fix["advice"]["key"], "advice.client.set", "{fix}");
    assert_eq!(fix["advice"]["text"], "set http.Client.Timeout to 10s", "{fix}");
    assert_eq!(
        (fix["beforeMs"].as_i64(), fix["afterMs"].as_i64()),
        (Some(924_642), Some(10_042))
    );
    assert_eq!(
        fix["change"],
        serde_json::json!({"override": {"client": 0, "knob": "requestTimeout", "ms": 10_000}})
    );
    let (code, out, err) = kubelife(&["run", "-", "--json"], SCENARIO);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("clientFixes"), "{out}");
}

/// `kubelife tune` takes the clients' `clientErrorsEnded` as a target: a bare socket's dials
/// reach the dead pod until `TrafficStopped` and fail 5s later (its `connectTimeout`), so a
/// shorter `--node-monitor-grace-period` ends its errors sooner; the defaults miss 50s.
#[test]
fn tune_takes_the_clients_errors_as_a_target() {
    let scenario = r#"{"version": "1.32", "durationSeconds": 150,
      "nodes": [{"name": "node-1"}, {"name": "node-2"}, {"name": "node-3"}],
      "workloads": [{"kind": "Deployment", "name": "web", "replicas": 3, "service": true}],
      "events": [{"at": "10s", "action": "NodeCrash", "node": "node-1"}],
      "clients": [{"name": "shop", "target": "web", "library": "linux", "connectTimeout": "5s"}]}"#;
    let args = [
        "tune",
        "-",
        "--target",
        "clientErrorsEnded=50s@p50",
        "--blip",
        "0",
        "--seeds",
        "3",
        "--json",
    ];
    let (code, out, err) = kubelife(&args, scenario);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    let p50 = |p: &serde_json::Value| p["milestones"]["clientErrorsEnded"]["p50"].as_i64();
    let defaults = &v["references"][0];
    assert_eq!(defaults["name"], "defaults");
    assert!(p50(defaults).is_some_and(|t| t > 50_000), "{defaults}");
    let best = &v["best"];
    assert!(p50(best).is_some_and(|t| t <= 50_000), "{best}");
    assert_eq!(best["meets"], true, "{best}");
}
