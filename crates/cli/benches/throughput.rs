//! Engine speed, as ratios to a calibration workload timed in the same process.
//!
//! Machines differ about twofold, so no budget here is an absolute time. Each case times the
//! engine on a scenario (parse, resolve, simulate and summarise: everything `kubelife run`
//! computes) and the calibration floor ([`kubelife_engine::calibration::heartbeat_floor`]) on the
//! same number of nodes for the same simulated time, interleaved so that both see the same
//! machine, and compares the medians. Writing the outcome as JSON (`--json`) is timed and printed
//! on its own: it grows with the events written, not with the simulation. The absolute figures
//! (median, min and max) are printed too. Run with `cargo bench -p kubelife-cli` (or
//! `./scripts/bench`); it exits non-zero when a ratio is over its budget.
//!
//! Each run also writes its results to `target/perf/engine.json` (in the Cargo target directory):
//! every case with its `name`, `budget` (null when printed only), and, when it ran (arguments may
//! filter the cases), the medians `measured` and `floor` in milliseconds and their `ratio`.
//! `./scripts/bench` writes docs/performance.md's engine table from it, and
//! `tests/performance_doc.rs` checks that table lists [`cases`] with their budgets.

use kubelife_engine::calibration::heartbeat_floor;
use kubelife_engine::time::{Millis, MINUTE};
use kubelife_engine::{distribution, run_json, RunOptions, Scenario};
use serde_json::json;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

/// One benchmark: a scenario, the floor it is compared with, and the largest ratio allowed.
pub(crate) struct Case {
    pub(crate) name: String,
    json: String,
    /// Nodes and simulated time of the floor run(s).
    floor_nodes: usize,
    floor_duration: Millis,
    /// How many floor runs one engine run is compared with (200 for `--runs 200`).
    floor_repeats: u32,
    /// Seeds per engine run (`--runs N`); 1 for a single timeline.
    runs: u32,
    pub(crate) budget: Option<f64>,
    samples: usize,
    /// A `kubelife tune` target: the case times the whole search and is compared with one
    /// 200-seed `--runs` of the same scenario rather than with the floor.
    tune: Option<&'static str>,
    /// A scenario whose run the case is compared with rather than with the floor: the same
    /// scenario without what the case measures (its clients).
    baseline: Option<String>,
}

/// The seeds of the distribution a search is compared with, and of each of its candidates.
const TUNE_SEEDS: u32 = 200;

/// Nodes spread round-robin over `zones`, named `node-1` … and `zone-a` ….
fn nodes_json(nodes: usize, zones: usize) -> String {
    (0..nodes)
        .map(|i| {
            let zone = (b'a' + (i % zones) as u8) as char;
            format!(r#"{{"name":"node-{}","zone":"zone-{zone}"}}"#, i + 1)
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn scenario(nodes: usize, zones: usize, minutes: i64, workloads: &[String], crashes: &[usize]) -> String {
    let events: Vec<String> = crashes
        .iter()
        .map(|n| format!(r#"{{"at":"60s","action":"NodeCrash","node":"node-{n}"}}"#))
        .collect();
    format!(
        r#"{{"version":"1.32","seed":1,"durationSeconds":{},"nodes":[{}],"workloads":[{}],"events":[{}]}}"#,
        minutes * 60,
        nodes_json(nodes, zones),
        workloads.join(","),
        events.join(",")
    )
}

/// A StatefulSet of one pod per ten nodes, each pod with its own ReadWriteOnce volume, behind a
/// Service: the database beside the Deployments.
fn database(nodes: usize) -> String {
    format!(
        r#"{{"kind":"StatefulSet","name":"db","replicas":{},"service":true,"volume":{{"accessMode":"ReadWriteOnce","perPod":true}}}}"#,
        nodes.div_ceil(10)
    )
}

/// The usual shape: three pods per node in Deployments of about 300, each behind a Service, and a
/// database with a volume per pod; one node crashing.
fn usual_shape(nodes: usize, minutes: i64) -> String {
    let deployments = nodes.div_ceil(100).max(1);
    let per = (nodes * 3).div_ceil(deployments);
    let mut workloads: Vec<String> = (0..deployments)
        .map(|d| format!(r#"{{"kind":"Deployment","name":"app-{d}","replicas":{per},"service":true}}"#))
        .collect();
    workloads.push(database(nodes));
    scenario(nodes, 3, minutes, &workloads, &[1])
}

/// One large Deployment behind a Service, a DaemonSet and a database with a volume per pod, with
/// `crashes` nodes crashing together.
fn big_deployment(nodes: usize, zones: usize, replicas: usize, crashed: Vec<usize>) -> String {
    let workloads = vec![
        format!(r#"{{"kind":"Deployment","name":"web","replicas":{replicas},"service":true}}"#),
        r#"{"kind":"DaemonSet","name":"agent"}"#.to_string(),
        database(nodes),
    ];
    scenario(nodes, zones, 30, &workloads, &crashed)
}

/// `json` with `count` clients of its `web` Service, each library in turn, on the nodes after the
/// first 50 (which the cases crash), ten requests a second each.
fn with_clients(json: &str, count: usize) -> String {
    const LIBRARIES: [&str; 5] = ["linux", "go-http", "grpc-go", "java-httpclient", "okhttp"];
    let clients: Vec<String> = (0..count)
        .map(|i| {
            let (library, node) = (LIBRARIES[i % LIBRARIES.len()], 51 + i);
            format!(r#"{{"name":"c-{i}","target":"web","library":"{library}","from":"node-{node}"}}"#)
        })
        .collect();
    format!(r#"{},"clients":[{}]}}"#, &json[..json.len() - 1], clients.join(","))
}

/// The usual shape of 1,000 nodes on AWS with a Cluster API MachineHealthCheck: ten instances
/// terminated (the cloud controller deletes their Nodes) and ten VMs hung (the health check
/// replaces their Machines), at 60 s.
fn on_a_cloud(nodes: usize, minutes: i64) -> String {
    let usual = usual_shape(nodes, minutes);
    let events: Vec<String> = (1..=20)
        .map(|i| {
            let action = if i <= 10 { "InstanceTerminated" } else { "NodeCrash" };
            format!(r#"{{"at":"60s","action":"{action}","node":"node-{}"}}"#, i * 37)
        })
        .collect();
    let head = r#"{"cloud":{"provider":"aws"},"remediation":[{"kind":"MachineHealthCheck","maxUnhealthy":"100%"}],"#;
    let body = &usual[1..usual.find(r#","events":"#).expect("events")];
    format!(r#"{head}{body},"events":[{}]}}"#, events.join(","))
}

/// The cases and their budgets. Budgets sit about 1.7 times above the ratios measured when they
/// were set (docs/performance.md), so a machine's noise passes and a real twofold slowdown of the
/// engine fails; the issue targets (1.5× the floor for the usual shape, 2× for the many-node
/// crash) hold inside them. The 1,000-node budget moved once, from 1.4× to 1.6×: with the causal
/// chain (every event naming the one that made it possible, and its index) that case measured
/// 1.34–1.46× against 0.92–0.97× just before it, the two builds alternating on one machine, and
/// alone it ranges from 0.96× to 1.46× as its allocations meet a busy machine; a twofold slowdown
/// still fails. The case on a cloud (issue 27) measured 0.89× when its budget was set.
pub(crate) fn cases() -> Vec<Case> {
    let case = |name: &str, json: String, nodes: usize, minutes: i64, budget: Option<f64>, samples| Case {
        name: name.to_string(),
        json,
        floor_nodes: nodes,
        floor_duration: minutes * MINUTE,
        floor_repeats: 1,
        runs: 1,
        budget,
        samples,
        tune: None,
        baseline: None,
    };
    let zone_b: Vec<usize> = (1..=10_000).filter(|i| (i - 1) % 3 == 1).collect();
    vec![
        case("10 nodes, 15m", usual_shape(10, 15), 10, 15, None, 9),
        case(
            "1,000 nodes, 15m (Deployments of 300)",
            usual_shape(1_000, 15),
            1_000,
            15,
            Some(1.6),
            9,
        ),
        case(
            "1,000 nodes on AWS with a MachineHealthCheck, 20 failing, 30m",
            on_a_cloud(1_000, 30),
            1_000,
            30,
            Some(1.5),
            5,
        ),
        case(
            "5,000 nodes, 30m (Deployments of 300)",
            usual_shape(5_000, 30),
            5_000,
            30,
            Some(0.65),
            5,
        ),
        case(
            "5,000 nodes, 15,000-pod Deployment + DaemonSet, 50 crash",
            big_deployment(5_000, 3, 15_000, (1..=50).collect()),
            5_000,
            30,
            Some(0.8),
            3,
        ),
        case(
            "10,000 nodes, zone-b (3,334 nodes) lost",
            big_deployment(10_000, 3, 30_000, zone_b),
            10_000,
            30,
            Some(1.5),
            3,
        ),
        Case {
            name: "200 seeds of 3 nodes, 15m (--runs 200)".to_string(),
            json: usual_shape(3, 15),
            floor_nodes: 3,
            floor_duration: 15 * MINUTE,
            floor_repeats: 200,
            runs: 200,
            // Its ratio varied most (5.5× to 8.8× across clean-clone runs): 200 small runs
            // allocate far more than the floor's one loop, so a busy allocator weighs on them.
            budget: Some(10.5),
            samples: 7,
            tune: None,
            baseline: None,
        },
        Case {
            name: "kubelife tune, default cluster (÷ one --runs 200)".to_string(),
            json: kubelife_engine::presets::default_cluster(&format!("1.{}", kubelife_engine::version::NEWEST_MINOR))
                .to_json(),
            floor_nodes: 3,
            floor_duration: 15 * MINUTE,
            floor_repeats: 1,
            runs: 1,
            // The issue's budget: the whole search (414 candidates, 25 seeds each, then the front on
            // 200, with a blip run per seed, and the four references) within 600 times one
            // 200-seed distribution of the same scenario.
            budget: Some(600.0),
            samples: 3,
            tune: Some("firstReplacementReady=60s@p95"),
            baseline: None,
        },
        Case {
            name: "1,000 clients at 5,000 nodes, 50 crash (÷ no clients)".to_string(),
            json: with_clients(&big_deployment(5_000, 3, 15_000, (1..=50).collect()), 1_000),
            floor_nodes: 5_000,
            floor_duration: 30 * MINUTE,
            floor_repeats: 1,
            runs: 1,
            // The issue's budget: the clients may at most double the run they observe.
            budget: Some(2.0),
            samples: 3,
            tune: None,
            baseline: Some(big_deployment(5_000, 3, 15_000, (1..=50).collect())),
        },
    ]
}

/// What `kubelife run` (or `--runs N`) computes from a scenario, and how long writing it as
/// JSON then takes.
fn engine(json: &str, runs: u32, tune: Option<&str>) -> (Duration, Duration) {
    let start = Instant::now();
    if let Some(target) = tune {
        let cfg = Scenario::from_json(json).and_then(|s| s.resolve()).expect("valid");
        let target = kubelife_engine::tune::Target::parse_cli(target).expect("a target");
        let goal = kubelife_engine::tune::Goal::new(vec![target]);
        let tuned = kubelife_engine::tune::tune(&cfg, goal).expect("a goal the scenario fits");
        let computed = start.elapsed();
        let t = Instant::now();
        black_box(serde_json::to_string(&tuned).expect("serializes"));
        (computed, t.elapsed())
    } else if runs > 1 {
        let cfg = Scenario::from_json(json).and_then(|s| s.resolve()).expect("valid");
        let d = distribution(&cfg, runs);
        let computed = start.elapsed();
        let t = Instant::now();
        black_box(serde_json::to_string(&d).expect("serializes"));
        (computed, t.elapsed())
    } else {
        let outcome = run_json(json, &RunOptions::default()).expect("valid");
        let computed = start.elapsed();
        let t = Instant::now();
        black_box(outcome.to_json());
        (computed, t.elapsed())
    }
}

/// A search step by step: how many steps, and the longest.
fn longest_step(json: &str, target: &str) -> (u32, Duration) {
    let cfg = Scenario::from_json(json).and_then(|s| s.resolve()).expect("valid");
    let target = kubelife_engine::tune::Target::parse_cli(target).expect("a target");
    let mut search =
        kubelife_engine::tune::Search::new(&cfg, kubelife_engine::tune::Goal::new(vec![target])).expect("a goal");
    let (mut steps, mut longest) = (0, Duration::ZERO);
    loop {
        let start = Instant::now();
        let more = search.step();
        longest = longest.max(start.elapsed());
        steps += 1;
        if !more {
            return (steps, longest);
        }
    }
}

fn floor(c: &Case) -> u64 {
    if let Some(json) = &c.baseline {
        return run_json(json, &RunOptions::default()).expect("valid").events.len() as u64;
    }
    if c.tune.is_some() {
        let cfg = Scenario::from_json(&c.json).and_then(|s| s.resolve()).expect("valid");
        return distribution(&cfg, TUNE_SEEDS).runs.into();
    }
    (0..c.floor_repeats)
        .map(|i| heartbeat_floor(c.floor_nodes, c.floor_duration, 1 + u64::from(i)))
        .fold(0, u64::wrapping_add)
}

fn time<T>(f: impl FnOnce() -> T) -> Duration {
    let start = Instant::now();
    black_box(f());
    start.elapsed()
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// One case's timings: the samples of the engine and of the floor, and the medians of writing JSON.
struct Measured {
    engine: Vec<Duration>,
    floor: Vec<Duration>,
    json: Duration,
}

impl Measured {
    fn ratio(&self) -> f64 {
        self.engine[self.engine.len() / 2].as_secs_f64() / self.floor[self.floor.len() / 2].as_secs_f64()
    }
}

/// Times a case: engine and floor interleaved, each sample sorted; `slowdown` repeats each engine run.
fn measure(c: &Case, slowdown: u32) -> Measured {
    // Warm caches and the allocator once.
    engine(&c.json, c.runs, c.tune);
    floor(c);
    let (mut e, mut f, mut j) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..c.samples {
        let (computed, json) = (0..slowdown)
            .map(|_| engine(&c.json, c.runs, c.tune))
            .fold((Duration::ZERO, Duration::ZERO), |a, b| (a.0 + b.0, a.1 + b.1));
        e.push(computed);
        j.push(json);
        f.push(time(|| floor(c)));
    }
    e.sort();
    f.sort();
    Measured {
        engine: e,
        floor: f,
        json: median(&mut j),
    }
}

/// The Cargo target directory: cargo gives benchmarks `<target>/tmp`.
fn perf_dir() -> std::path::PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    tmp.parent().unwrap_or(tmp).join("perf")
}

/// Writes `target/perf/engine.json`: every case, with its figures when it ran.
fn write_results(results: &[(&Case, Option<Measured>)], slowdown: u32, only: &[String]) {
    let at = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    let cases: Vec<_> = results
        .iter()
        .map(|(c, m)| {
            let (measured, floor, ratio, json) = match m {
                Some(m) => (
                    Some(ms(m.engine[m.engine.len() / 2])),
                    Some(ms(m.floor[m.floor.len() / 2])),
                    Some(m.ratio()),
                    Some(ms(m.json)),
                ),
                None => (None, None, None, None),
            };
            json!({"name": c.name, "measured": measured, "floor": floor, "ratio": ratio, "budget": c.budget,
                   "samples": c.samples, "writing_json": json})
        })
        .collect();
    let doc = json!({"at": at, "slowdown": slowdown, "only": only, "unit": "ms", "cases": cases});
    let dir = perf_dir();
    let file = dir.join("engine.json");
    let written = std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::write(&file, serde_json::to_string_pretty(&doc).expect("serializes") + "\n"));
    match written {
        Ok(()) => println!("results in {}", file.display()),
        Err(e) => eprintln!("could not write {}: {e}", file.display()),
    }
}

fn main() {
    // Slow everything down by an injected factor: a check that the budgets catch a regression.
    let slowdown: u32 = std::env::var("KUBELIFE_BENCH_SLOWDOWN")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    println!(
        "{:<58} {:>22} {:>22} {:>7} {:>7} {:>9}",
        "case", "engine ms (min–max)", "floor ms (min–max)", "ratio", "budget", "+JSON ms"
    );
    // `cargo bench -p kubelife-cli -- WORD…` runs only the cases whose names contain a WORD.
    let only: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let cases = cases();
    let mut over = Vec::new();
    let mut results = Vec::new();
    for c in &cases {
        if !(only.is_empty() || only.iter().any(|w| c.name.contains(w.as_str()))) {
            results.push((c, None));
            continue;
        }
        let m = measure(c, slowdown);
        let ratio = m.ratio();
        let verdict = match c.budget {
            Some(b) if ratio > b => {
                over.push(format!("{}: {ratio:.2}× the floor, budget {b}×", c.name));
                format!("OVER {b}")
            }
            Some(b) => format!("≤ {b}"),
            None => "-".to_string(),
        };
        let (e, f) = (&m.engine, &m.floor);
        println!(
            "{:<58} {:>8.1} ({:>5.1}–{:>5.1}) {:>8.1} ({:>5.1}–{:>5.1}) {:>6.2}× {:>7} {:>9.1}",
            c.name,
            ms(e[e.len() / 2]),
            ms(e[0]),
            ms(e[e.len() - 1]),
            ms(f[f.len() / 2]),
            ms(f[0]),
            ms(f[f.len() - 1]),
            ratio,
            verdict,
            ms(m.json)
        );
        if let Some(target) = c.tune {
            let (steps, longest) = longest_step(&c.json, target);
            println!(
                "  {steps} steps, the longest {:.1} ms (a page runs one at a time)",
                ms(longest)
            );
        }
        results.push((c, Some(m)));
    }
    write_results(&results, slowdown, &only);
    if !over.is_empty() {
        eprintln!("speed budget exceeded: {}", over.join("; "));
        std::process::exit(1);
    }
}
