//! `kubelife`: run a scenario file and print its timeline, its spread over seeds, or a preset.
//!
//! ```text
//! kubelife run FILE [--json] [--heartbeats] [--runs N] [--time N]
//! kubelife import FILE... [--version V] > scenario.json
//! kubelife render FILE --format svg|png [--view timeline|breakdown|cluster] [--at T] [--lang en|zh]
//! kubelife tune FILE --target MILESTONE=DURATION[@pNN]... [--max-writes-per-min N --nodes N]
//!               [--blip DURATION] [--seeds N] [--json] [--out FILE] [--svg FILE]
//! kubelife presets
//! kubelife preset NAME
//! ```
//! An invalid scenario exits with status 2 and the reason on stderr.

use kubelife_engine::advice::{client_fixes, ClientFix};
use kubelife_engine::presets::{every_preset, preset};
use kubelife_engine::render::{render_client_fixes, render_timeline};
use kubelife_engine::{distribution, run, Distribution, RunOptions, Scenario};
use std::io::Write;
use std::process::ExitCode;

mod explain;
mod fonts;
mod render;
mod tune;

const USAGE: &str = "usage: kubelife run FILE [--json] [--heartbeats] [--runs N] [--time N]
       kubelife export FILE --format kubelet|kcm|apiserver|tolerations|rke|kube-proxy|pdb|kubeadm|out-of-service
       kubelife import FILE... [--version V] > scenario.json
       kubelife render FILE --format svg|png [--view timeline|breakdown|cluster] [--at T] [--lang en|zh]
       kubelife tune FILE --target MILESTONE=DURATION[@pNN]... [--max-writes-per-min N --nodes N]
                     [--blip DURATION] [--seeds N] [--json] [--out FILE] [--svg FILE]
       kubelife presets
       kubelife preset NAME

  run FILE       simulate the scenario in FILE (JSON; '-' reads standard input)
  --json         print {\"events\": [...], \"summary\": {...}, \"warnings\": [...]}, and with
                 clients \"clientFixes\": [...]: what to change in each client to cut its
                 errors, measured by one more run per client (the text prints a line each
                 after the clients' summary)
  --heartbeats   also record LeaseRenewed and NodeStatusPatched events
  --runs N       run N seeds (the scenario's seed and the next N-1) and report min, p50, p95
                 and max of each milestone, measured from the first fault
  --time N       run the scenario N times and print the mean wall time of one run in ms
                 (the engine alone: no reading or printing), for comparing with the page
  export FILE    print the scenario's settings as configuration for a real cluster: a
                 KubeletConfiguration, kube-controller-manager or kube-apiserver flags, a pod
                 tolerations snippet, an rke cluster.yml services fragment, a
                 KubeProxyConfiguration, the workloads' PodDisruptionBudgets, or kubeadm's
                 ClusterConfiguration, KubeletConfiguration and KubeProxyConfiguration (YAML;
                 notes about ignored or left-out flags come first as # comments; a form with
                 nothing to change says so); out-of-service runs the scenario and prints the
                 kubectl command that puts node.kubernetes.io/out-of-service on a node that
                 stays down, with when to run it and how to remove it
  import FILE... read a cluster's configuration and kubectl output (KubeletConfiguration,
                 flags, static pod manifests, kubeadm, kubespray group_vars, rke cluster.yml,
                 RKE2/k3s config.yaml, kubectl get nodes / deploy,sts,ds -o json|yaml) into one
                 scenario on stdout that kubelife run takes as it is: without nodes in the
                 files it is on the page's default cluster (3 nodes in 3 zones), and without
                 workloads either on its web, db and agent; the report (recognised, ignored,
                 invalid, notes) goes to stderr. Files of up to 128 MiB, UTF-8 or UTF-16
                 with a byte-order mark
  --version V    the Kubernetes version to check against (default: the one the files name)
  render FILE    draw the scenario's timeline (a lane per node and pod, with a legend), its
                 \"where does the time go?\" breakdown or its cluster (node cards by zone)
                 as SVG or PNG on stdout, for docs
  --view V       timeline (default), breakdown or cluster
  --at T         draw the playhead at T (a Go duration such as 1m30s); the cluster view
                 shows the cluster at T (default: the end of the run)
  --lang L       en (default) or zh; PNG is English only for now
  --width N      width in pixels (default 900)
  tune FILE      search the settings that move the chain (nodeStatusUpdateFrequency,
                 --node-monitor-period, --node-monitor-grace-period, the default tolerations)
                 for the Pareto front of the targets, heartbeat writes, blip safety and the
                 page's warnings, and print it with the version's defaults and kubespray's
                 profiles; each point with the warnings the page shows for its settings. Best
                 meets the goal with the fewest warnings, then the fewest writes; the answer
                 names the warnings every point meeting the goal has, and each target or the
                 writes ceiling no candidate meets, with the closest one came (and the writes
                 no candidate can go under: with Leases, their renewals alone)
  --target T     MILESTONE=DURATION[@pNN], repeatable: the milestone (as --runs names it)
                 within DURATION of the fault in NN% of the seeds (default p95)
  --max-writes-per-min N   at most N Lease updates and status patches per minute at
                 --nodes N nodes (default: the scenario's)
  --blip D       a partition of D on the faulted node must not taint or evict (default 20s;
                 0 checks nothing)
  --seeds N      seeds for the front and the references (default 200); every candidate
                 first runs on 25 of them, and those on the front then run on all
  --out FILE     write the best point as a scenario kubelife run reads
  --svg FILE     draw the candidates, the front and the references as the page's Tune panel
                 does, with the first target and the writes limit as lines, as SVG
  presets        list the named scenarios
  preset NAME    print a named scenario as JSON";

/// The most seeds `--runs` takes.
const MAX_RUNS: u32 = 10_000;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("run") => run_command(&args[1..]),
        Some("export") => export_command(&args[1..]),
        Some("import") => import_command(&args[1..]),
        Some("render") => render_command(&args[1..]),
        Some("tune") => tune_command(&args[1..]),
        Some("presets") if args.len() == 1 => {
            let list = every_preset();
            let width = list.iter().map(|p| p.name.len()).max().unwrap_or(0);
            let text: String = list
                .iter()
                .map(|p| format!("{:width$}  {}\n", p.name, p.description))
                .collect();
            print(&text)
        }
        Some("preset") if args.len() == 2 => match preset(&args[1]) {
            Some(p) => print(&format!("{}\n", p.scenario.to_json())),
            None => {
                let names: Vec<&str> = every_preset().iter().map(|p| p.name).collect();
                eprintln!("kubelife: no preset named {:?}; presets: {}", args[1], names.join(", "));
                ExitCode::from(2)
            }
        },
        Some("-h") | Some("--help") | Some("help") => print(&format!("{USAGE}\n")),
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// Writes to stdout; a closed pipe (for example `| head`) is not an error worth a panic.
fn print(text: &str) -> ExitCode {
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    ExitCode::SUCCESS
}

/// Reads and resolves a scenario file ('-' for standard input); on failure prints why and gives
/// the exit code.
fn load(file: &str) -> Result<kubelife_engine::Config, ExitCode> {
    let text = read_text(file)?;
    Scenario::from_json(&text).and_then(|s| s.resolve()).map_err(|e| {
        eprintln!("kubelife: invalid scenario: {}", shown_line(&e.to_string(), 400));
        ExitCode::from(2)
    })
}

/// Text from a file or an argument, escaped (no control character reaches the terminal) and cut
/// to `max` characters with its length.
fn shown_line(text: &str, max: usize) -> String {
    kubelife_engine::import::shown::line(text, max)
}

/// What reading a file gave: its bytes, or, for a file over the import's size limit, its size
/// (`None` for standard input, which is read no further than the limit).
enum Contents {
    Bytes(Vec<u8>),
    TooLarge(Option<u64>),
}

/// Reads at most `limit` bytes of `r`; `None` when it holds more.
fn read_at_most(r: impl std::io::Read, limit: usize) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::Read;
    let mut out = Vec::new();
    let n = r.take(limit as u64 + 1).read_to_end(&mut out)?;
    Ok((n <= limit).then_some(out))
}

/// A file's bytes ('-' for standard input), read no further than
/// `import::limits::MAX_FILE_BYTES`: a file's length is looked at before it is read. On a read
/// error prints why and gives the exit code.
fn read_contents(file: &str) -> Result<Contents, ExitCode> {
    use kubelife_engine::import::limits::MAX_FILE_BYTES;
    let fail = |e: std::io::Error| {
        let what = if file == "-" {
            "standard input".to_string()
        } else {
            shown_line(file, 200)
        };
        eprintln!("kubelife: cannot read {what}: {e}");
        ExitCode::from(2)
    };
    let read = if file == "-" {
        read_at_most(std::io::stdin().lock(), MAX_FILE_BYTES)
    } else {
        let f = std::fs::File::open(file).map_err(fail)?;
        match f.metadata().map(|m| m.len()) {
            Ok(len) if len > MAX_FILE_BYTES as u64 => return Ok(Contents::TooLarge(Some(len))),
            _ => read_at_most(f, MAX_FILE_BYTES),
        }
    };
    Ok(match read.map_err(fail)? {
        Some(bytes) => Contents::Bytes(bytes),
        None => Contents::TooLarge(None),
    })
}

/// A file's text ('-' for standard input); on failure prints why and gives the exit code.
fn read_text(file: &str) -> Result<String, ExitCode> {
    let refuse = |why: String| {
        eprintln!("kubelife: {why}");
        ExitCode::from(2)
    };
    match read_contents(file)? {
        Contents::Bytes(bytes) => {
            String::from_utf8(bytes).map_err(|e| refuse(format!("{} is not UTF-8 text: {e}", shown_line(file, 200))))
        }
        Contents::TooLarge(size) => Err(refuse(kubelife_engine::import::limits::too_large(file, size).english())),
    }
}

fn export_command(args: &[String]) -> ExitCode {
    use kubelife_engine::export::{export, Format};
    /// The form that reads a run rather than the settings alone.
    const OUT_OF_SERVICE: &str = "out-of-service";
    let mut names: Vec<&str> = Format::ALL.iter().map(|(n, _)| *n).collect();
    names.push(OUT_OF_SERVICE);
    let (file, format) = match args {
        [file, flag, name] if flag == "--format" => (file, name),
        [flag, name, file] if flag == "--format" => (file, name),
        _ => {
            eprintln!("kubelife: usage: kubelife export FILE --format {}", names.join("|"));
            return ExitCode::from(2);
        }
    };
    let form = Format::by_name(format);
    if form.is_none() && format != OUT_OF_SERVICE {
        eprintln!("kubelife: unknown format {format:?}; formats: {}", names.join(", "));
        return ExitCode::from(2);
    }
    let cfg = match load(file) {
        Ok(cfg) => cfg,
        Err(code) => return code,
    };
    let e = match form {
        Some(form) => export(&cfg, form),
        None => {
            let outcome = kubelife_engine::run(&cfg, &kubelife_engine::RunOptions::default());
            kubelife_engine::export::out_of_service(&cfg, &outcome)
        }
    };
    print(&e.with_comments())
}

/// `kubelife import FILE... [--version V]`: the scenario on stdout, the report on stderr; exit 0
/// when anything was recognised, 1 when nothing was, 2 on a usage or read error or a version
/// outside the supported ones. The scenario is the one the page's Import panel reads from the
/// same files (the same `import`), and it runs as it is: without nodes in the files it is on the
/// page's default cluster. No file is read past the import's size limit; one over it is reported
/// like a file that cannot be read.
fn import_command(args: &[String]) -> ExitCode {
    use kubelife_engine::import::{import, limits, EntryKind, Reader, Report};
    let (names, version) = match import_args(args) {
        Ok(parsed) => parsed,
        Err(code) => return code,
    };
    let mut files = Vec::new();
    let mut refused = Report::default();
    for name in &names {
        match read_contents(name) {
            Ok(Contents::Bytes(bytes)) => files.push((name.as_str(), bytes)),
            Ok(Contents::TooLarge(size)) => refused.push(EntryKind::Unreadable, limits::too_large(name, size)),
            Err(code) => return code,
        }
    }
    let imported = import(&files, Reader::Cli(version.as_deref()));
    let (scenario, report) = (imported.scenario, imported.report);
    eprint!("{}{}", refused.text(), report.text());
    if !kubelife_engine::import::recognised_anything(&report) {
        let names: Vec<String> = names.iter().map(|n| shown_line(n, 200)).collect();
        eprintln!(
            "kubelife: nothing in {} is configuration or kubectl output kubelife can import",
            names.join(", ")
        );
        return ExitCode::from(1);
    }
    print(&format!("{}\n", scenario.to_json()))
}

/// `import`'s files and `--version`, which must be a supported version; on a usage error prints
/// why and gives the exit code.
fn import_args(args: &[String]) -> Result<(Vec<String>, Option<String>), ExitCode> {
    let mut names = Vec::new();
    let mut version = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--version" => {
                match it.next() {
                    Some(v) => version = Some(v.clone()),
                    None => {
                        let supported = kubelife_engine::Version::supported_list();
                        eprintln!("kubelife: --version takes a Kubernetes version such as 1.31; supported versions: {supported}");
                        return Err(ExitCode::from(2));
                    }
                }
            }
            f if f == "-" || !f.starts_with('-') => names.push(f.to_string()),
            other => {
                eprintln!(
                    "kubelife: unexpected argument {}\n{USAGE}",
                    shown_line(&format!("{other:?}"), 200)
                );
                return Err(ExitCode::from(2));
            }
        }
    }
    if let Some(Err(e)) = version.as_deref().map(kubelife_engine::Version::parse) {
        eprintln!("kubelife: --version: {}", shown_line(&e.english(), 400));
        return Err(ExitCode::from(2));
    }
    if names.is_empty() {
        eprintln!("kubelife: import needs at least one file\n{USAGE}");
        return Err(ExitCode::from(2));
    }
    Ok((names, version))
}

/// `kubelife render`: the picture on stdout; exit 2 on a usage, read or scenario error.
fn render_command(args: &[String]) -> ExitCode {
    let opts = match render::parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("kubelife: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    // Without a font for Chinese a PNG cannot be drawn: the message says how to get one (the
    // usage would not help).
    if opts.png && opts.zh {
        if let Err(why) = fonts::cjk() {
            eprintln!("kubelife: {why}");
            return ExitCode::from(2);
        }
    }
    let cfg = match load(&opts.file) {
        Ok(cfg) => cfg,
        Err(code) => return code,
    };
    if let Some(at) = opts.at.filter(|&t| !(0..=cfg.duration).contains(&t)) {
        eprintln!(
            "kubelife: --at {} is outside the run (0s to {})",
            kubelife_engine::time::format_go_duration_tenths(at),
            kubelife_engine::time::format_go_duration_tenths(cfg.duration)
        );
        return ExitCode::from(2);
    }
    match render::figure(&cfg, &opts) {
        Ok(bytes) => {
            let _ = std::io::stdout().lock().write_all(&bytes);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("kubelife: cannot draw the figure: {e}");
            ExitCode::from(1)
        }
    }
}

/// `kubelife tune`: exit 2 on a bad argument, an invalid scenario or a goal it cannot have.
fn tune_command(args: &[String]) -> ExitCode {
    let opts = match tune::parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("kubelife: {}\n{USAGE}", shown_line(&e, 400));
            return ExitCode::from(2);
        }
    };
    let scenario = match read_text(&opts.file).map(|t| Scenario::from_json(&t)) {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => {
            eprintln!("kubelife: invalid scenario: {}", shown_line(&e.to_string(), 400));
            return ExitCode::from(2);
        }
        Err(code) => return code,
    };
    tune::command(opts, &scenario)
}

fn run_command(args: &[String]) -> ExitCode {
    let mut file = None;
    let mut json = false;
    let mut runs: Option<u32> = None;
    let mut time: Option<u32> = None;
    let mut opts = RunOptions::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--json" => json = true,
            "--heartbeats" => opts.heartbeats = true,
            "--runs" => match it
                .next()
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|n| (1..=MAX_RUNS).contains(n))
            {
                Some(n) => runs = Some(n),
                None => {
                    eprintln!("kubelife: --runs takes a number from 1 to {MAX_RUNS}");
                    return ExitCode::from(2);
                }
            },
            "--time" => match it
                .next()
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|n| (1..=MAX_RUNS).contains(n))
            {
                Some(n) => time = Some(n),
                None => {
                    eprintln!("kubelife: --time takes a number from 1 to {MAX_RUNS}");
                    return ExitCode::from(2);
                }
            },
            f if file.is_none() && (f == "-" || !f.starts_with('-')) => file = Some(f.to_string()),
            other => {
                eprintln!("kubelife: unexpected argument {other:?}\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let Some(file) = file else {
        eprintln!("kubelife: run needs a scenario file\n{USAGE}");
        return ExitCode::from(2);
    };
    let cfg = match load(&file) {
        Ok(cfg) => cfg,
        Err(code) => return code,
    };
    if let Some(n) = time {
        let start = std::time::Instant::now();
        for _ in 0..n {
            std::hint::black_box(run(&cfg, &opts));
        }
        return print(&format!(
            "{:.3}\n",
            start.elapsed().as_secs_f64() * 1000.0 / f64::from(n)
        ));
    }
    if let Some(n) = runs {
        let d = distribution(&cfg, n);
        let out = if json {
            serde_json::to_string(&d).expect("a Distribution always serializes") + "\n"
        } else {
            render_distribution(&d)
        };
        return print(&out);
    }
    let outcome = run(&cfg, &opts);
    // Each client with errors after the fault costs one more run (`advice::client_fixes`).
    let fixes = client_fixes(&cfg, &outcome);
    let out = if json {
        with_client_fixes(outcome.to_json(), &cfg, &fixes) + "\n"
    } else {
        render_timeline(&outcome) + &render_client_fixes(&fixes) + &explain::where_the_time_goes(&outcome, &cfg)
    };
    print(&out)
}

/// The run's JSON with a last member `clientFixes`, the advice on its clients, when the scenario
/// has clients (a run without them reads as before). The run's JSON is one object, so the list
/// goes before its closing brace.
fn with_client_fixes(json: String, cfg: &kubelife_engine::Config, fixes: &[ClientFix]) -> String {
    if cfg.clients.is_empty() {
        return json;
    }
    let list = serde_json::to_string(fixes).expect("the advice always serializes");
    match json.strip_suffix('}') {
        Some(members) => format!("{members},\"clientFixes\":{list}}}"),
        None => json,
    }
}

fn render_distribution(d: &Distribution) -> String {
    let mut out = format!(
        "{} runs, seeds {}..{}; milestones of {} from its fault\n{:<20} {:>10} {:>10} {:>10} {:>10} {:>6}\n",
        d.runs,
        d.first_seed,
        d.first_seed.wrapping_add(u64::from(d.runs) - 1),
        d.node.as_deref().unwrap_or("(no faulted node)"),
        "milestone",
        "min",
        "p50",
        "p95",
        "max",
        "never"
    );
    for s in d.milestones.iter().chain(&d.not_fully_ready) {
        out.push_str(&spread_line(s, &s.milestone));
    }
    for s in &d.client_errors_ended {
        out.push_str(&spread_line(s, &format!("{}: clientErrorsEnded", s.milestone)));
    }
    out
}

/// One row of the `--runs` table: `name`, then the spread's min, p50, p95, max and never.
fn spread_line(s: &kubelife_engine::Spread, name: &str) -> String {
    let ms = |v: Option<i64>| v.map_or("-".to_string(), kubelife_engine::time::format_go_duration_tenths);
    format!(
        "{:<20} {:>10} {:>10} {:>10} {:>10} {:>6}\n",
        name,
        ms(s.min),
        ms(s.p50),
        ms(s.p95),
        ms(s.max),
        s.never
    )
}

#[cfg(test)]
mod tests {
    use super::read_at_most;

    #[test]
    fn input_is_read_no_further_than_the_limit() {
        assert_eq!(read_at_most(&b"12345"[..], 5).unwrap(), Some(b"12345".to_vec()));
        assert_eq!(read_at_most(&b"123456"[..], 5).unwrap(), None);
        // An endless input stops one byte past the limit.
        let endless = std::io::repeat(b'x');
        assert_eq!(read_at_most(endless, 1 << 10).unwrap(), None);
    }
}
