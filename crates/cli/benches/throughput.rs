//! Throughput of whole `kubelife run --json` processes, in release mode.
//!
//! Prints simulated seconds per wall second for 10, 1,000 and 5,000 nodes, and checks the
//! budgets: 1,000 nodes (3,000 pods) for 15 simulated minutes in under 45 ms, and 5,000 nodes for
//! 30 minutes in under 1 s. Each figure is the median of several runs. Run with
//! `cargo bench -p kubelife-cli`; it exits non-zero when a budget is exceeded.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn scenario(nodes: usize, minutes: i64) -> String {
    let zones = ["zone-a", "zone-b", "zone-c"];
    let nodes_json: Vec<String> = (0..nodes)
        .map(|i| format!(r#"{{"name":"node-{i}","zone":"{}"}}"#, zones[i % 3]))
        .collect();
    let deployments = nodes.div_ceil(100).max(1);
    let per = (nodes * 3).div_ceil(deployments);
    let workloads: Vec<String> = (0..deployments)
        .map(|d| format!(r#"{{"kind":"Deployment","name":"app-{d}","replicas":{per}}}"#))
        .collect();
    format!(
        r#"{{"version":"1.32","seed":1,"durationSeconds":{},"nodes":[{}],"workloads":[{}],"events":[{{"at":"60s","action":"NodeCrash","node":"node-0"}}]}}"#,
        minutes * 60,
        nodes_json.join(","),
        workloads.join(",")
    )
}

fn time_run(path: &std::path::Path) -> Duration {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_kubelife"))
        .arg("run")
        .arg(path)
        .arg("--json")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .expect("kubelife runs");
    let took = start.elapsed();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    took
}

fn main() {
    // `cargo bench` passes --bench; `cargo test --benches` would pass nothing useful: accept both.
    let dir = std::env::temp_dir().join("kubelife-bench");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cases: [(usize, i64, Option<Duration>); 3] = [
        (10, 15, None),
        (1_000, 15, Some(Duration::from_millis(45))),
        (5_000, 30, Some(Duration::from_secs(1))),
    ];
    let mut over = Vec::new();
    println!(
        "{:>6} {:>8} {:>10} {:>14} {:>10}",
        "nodes", "sim", "wall (p50)", "sim s / wall s", "budget"
    );
    for (nodes, minutes, budget) in cases {
        let path = dir.join(format!("bench-{nodes}.json"));
        std::fs::write(&path, scenario(nodes, minutes)).expect("write scenario");
        time_run(&path); // Warm the page cache.
        let mut times: Vec<Duration> = (0..7).map(|_| time_run(&path)).collect();
        times.sort();
        let median = times[times.len() / 2];
        let rate = (minutes * 60) as f64 / median.as_secs_f64();
        let verdict = match budget {
            Some(b) if median > b => {
                over.push(format!("{nodes} nodes took {median:?}, budget {b:?}"));
                format!("OVER {b:?}")
            }
            Some(b) => format!("< {b:?}"),
            None => "-".into(),
        };
        println!(
            "{nodes:>6} {:>7}m {:>10.1?} {rate:>14.0} {verdict:>10}",
            minutes, median
        );
    }
    // Distributions: 200 seeds of a 3-node scenario of 15 minutes.
    let path = dir.join("bench-runs.json");
    std::fs::write(&path, scenario(3, 15)).expect("write scenario");
    let budget = Duration::from_millis(200);
    let time_runs = || {
        let start = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_kubelife"))
            .arg("run")
            .arg(&path)
            .args(["--runs", "200", "--json"])
            .stdout(Stdio::null())
            .output()
            .expect("kubelife runs");
        assert!(out.status.success());
        start.elapsed()
    };
    time_runs();
    let mut times: Vec<Duration> = (0..7).map(|_| time_runs()).collect();
    times.sort();
    let median = times[times.len() / 2];
    if median > budget {
        over.push(format!("200 runs took {median:?}, budget {budget:?}"));
    }
    println!("200 runs of 3 nodes for 15m (--runs 200): {median:.1?} (budget {budget:?})");
    if !over.is_empty() {
        eprintln!("budget exceeded: {}", over.join("; "));
        std::process::exit(1);
    }
}
