//! `kubelife`: run a scenario file and print its timeline.
//!
//! ```text
//! kubelife run FILE [--json] [--heartbeats]
//! ```
//! An invalid scenario exits with status 2 and the reason on stderr.

use kubelife_engine::{render::render_timeline, run_json, RunOptions};
use std::process::ExitCode;

const USAGE: &str = "usage: kubelife run FILE [--json] [--heartbeats]

  run FILE       simulate the scenario in FILE (JSON; '-' reads standard input)
  --json         print {\"events\": [...], \"summary\": {...}, \"warnings\": [...]}
  --heartbeats   also record LeaseRenewed and NodeStatusPatched events";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("run") => run(&args[1..]),
        Some("-h") | Some("--help") | Some("help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> ExitCode {
    let mut file = None;
    let mut json = false;
    let mut opts = RunOptions::default();
    for a in args {
        match a.as_str() {
            "--json" => json = true,
            "--heartbeats" => opts.heartbeats = true,
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
    let text = if file == "-" {
        let mut s = String::new();
        if let Err(e) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut s) {
            eprintln!("kubelife: cannot read standard input: {e}");
            return ExitCode::from(2);
        }
        s
    } else {
        match std::fs::read_to_string(&file) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("kubelife: cannot read {file}: {e}");
                return ExitCode::from(2);
            }
        }
    };
    match run_json(&text, &opts) {
        Ok(outcome) => {
            let out = if json {
                outcome.to_json()
            } else {
                render_timeline(&outcome)
            };
            let mut stdout = std::io::stdout().lock();
            // A closed pipe (for example `| head`) is not an error worth a panic.
            let _ = std::io::Write::write_all(&mut stdout, out.as_bytes());
            if json {
                let _ = std::io::Write::write_all(&mut stdout, b"\n");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("kubelife: invalid scenario: {e}");
            ExitCode::from(2)
        }
    }
}
