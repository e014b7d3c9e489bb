//! `kubelife tune`: from targets to the settings that meet them. Reads its arguments, runs the
//! engine's search and prints the front, the references and the best point, writes the best
//! point as a scenario, and draws the Tune panel's scatter of what it found as SVG
//! (`kubelife_figures::scatter`, the page's own drawing).

use kubelife_engine::time::{format_go_duration, format_go_duration_tenths, parse_go_duration};
use kubelife_engine::tune::goal::MAX_SEEDS;
use kubelife_engine::tune::unmet::{BLIP_SAFE, MAX_WRITES, TOGETHER};
use kubelife_engine::tune::{apply, Goal, Point, Target, Tuned, SCREEN_SEEDS};
use kubelife_engine::{Millis, Scenario};
use kubelife_figures::{draw_scatter, ScatterFigure, SCATTER_HEIGHT};
use plotters::prelude::*;
use std::process::ExitCode;

/// Width of the `--svg` scatter, px (the page's follows its panel; its height is the page's).
pub const SVG_WIDTH: u32 = 640;

/// What the command line asks for.
#[derive(Debug)]
pub struct Options {
    /// The scenario file ('-' for standard input).
    pub file: String,
    /// The goal.
    pub goal: Goal,
    /// Print the JSON form.
    pub json: bool,
    /// Where to write the best point as a scenario.
    pub out: Option<String>,
    /// Where to write the scatter of the candidates and the front, as SVG.
    pub svg: Option<String>,
}

/// The value after a flag, or why it is missing.
fn value<'a>(it: &mut impl Iterator<Item = &'a String>, flag: &str, what: &str) -> Result<&'a str, String> {
    it.next()
        .map(String::as_str)
        .ok_or_else(|| format!("{flag} takes {what}"))
}

/// Reads `kubelife tune`'s arguments; on a bad one, the message naming it.
pub fn parse(args: &[String]) -> Result<Options, String> {
    let (mut file, mut json, mut out, mut svg) = (None, false, None, None);
    let mut goal = Goal::new(Vec::new());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--target" => {
                let text = value(&mut it, a, "a target such as firstReplacementReady=60s@p95")?;
                let t = Target::parse_cli(text).map_err(|e| format!("--target: {}", e.english()))?;
                goal.targets.push(t);
            }
            "--max-writes-per-min" => {
                let text = value(&mut it, a, "a number of writes per minute")?;
                let n = text.parse::<f64>().ok().filter(|n| n.is_finite() && *n >= 0.0);
                let n = n.ok_or_else(|| {
                    format!("--max-writes-per-min takes a number of writes per minute, 0 or more, not {text:?}")
                })?;
                goal.max_writes_per_minute = Some(n);
            }
            "--nodes" => {
                let text = value(&mut it, a, "a number of nodes")?;
                let n = text.parse::<u32>().ok().filter(|n| *n >= 1);
                goal.nodes =
                    Some(n.ok_or_else(|| format!("--nodes takes a number of nodes, 1 or more, not {text:?}"))?);
            }
            "--blip" => {
                let text = value(&mut it, a, "a Go duration such as 20s (0 for no blip check)")?;
                let ms = parse_go_duration(text).ok().filter(|ms| *ms >= 0).ok_or_else(|| {
                    format!("--blip takes a Go duration such as 20s (0 for no blip check), not {text:?}")
                })?;
                goal.blip = (ms > 0).then_some(ms);
            }
            "--seeds" => {
                let text = value(&mut it, a, "a number of seeds")?;
                let n = text.parse::<u32>().ok().filter(|n| (1..=MAX_SEEDS).contains(n));
                goal.seeds = n.ok_or_else(|| format!("--seeds takes a number from 1 to {MAX_SEEDS}, not {text:?}"))?;
            }
            "--json" => json = true,
            "--out" => out = Some(value(&mut it, a, "a file to write the best point's scenario to")?.to_string()),
            "--svg" => svg = Some(value(&mut it, a, "a file to write the scatter to (SVG)")?.to_string()),
            f if file.is_none() && (f == "-" || !f.starts_with('-')) => file = Some(f.to_string()),
            other => return Err(format!("unexpected argument {other:?}")),
        }
    }
    let file = file.ok_or("tune needs a scenario file")?;
    if goal.targets.is_empty() {
        return Err("tune needs at least one --target, such as --target firstReplacementReady=60s@p95".into());
    }
    Ok(Options {
        file,
        goal,
        json,
        out,
        svg,
    })
}

/// Runs the search and prints or writes what it found; exit 1 when `--out` has no point to
/// write or a file cannot be written, 2 when the goal does not fit the scenario.
pub fn command(opts: Options, scenario: &Scenario) -> ExitCode {
    let cfg = match scenario.resolve() {
        Ok(cfg) => cfg,
        Err(e) => {
            eprintln!("kubelife: invalid scenario: {e}");
            return ExitCode::from(2);
        }
    };
    let goal = opts.goal.clone();
    let tuned = match kubelife_engine::tune::tune(&cfg, opts.goal) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("kubelife: {}", e.english());
            return ExitCode::from(2);
        }
    };
    let text = if opts.json {
        serde_json::to_string(&tuned).expect("a search's answer always serializes") + "\n"
    } else {
        render(&tuned, &goal)
    };
    let mut code = super::print(&text);
    if let Some(file) = &opts.svg {
        if let Err(e) = scatter_svg(&tuned, &goal).and_then(|svg| std::fs::write(file, svg).map_err(|e| e.to_string()))
        {
            eprintln!("kubelife: cannot write {file}: {e}");
            code = ExitCode::from(1);
        }
    }
    let Some(out) = opts.out else { return code };
    let Some(best) = &tuned.best else {
        eprintln!("kubelife: no point meets every target and limit; {out} was not written");
        return ExitCode::from(1);
    };
    match std::fs::write(&out, apply(scenario, best).to_json() + "\n") {
        Ok(()) => code,
        Err(e) => {
            eprintln!("kubelife: cannot write {out}: {e}");
            ExitCode::from(1)
        }
    }
}

/// The Tune panel's scatter of `t` (every candidate, the front ringed and numbered as the text
/// lists it, the references named) with `goal`'s first target and writes ceiling as lines, in
/// SVG, [`SVG_WIDTH`] wide.
pub fn scatter_svg(t: &Tuned, goal: &Goal) -> Result<String, String> {
    let references: Vec<(String, Point)> = t.references.iter().map(|r| (r.name.clone(), r.point.clone())).collect();
    let figure = ScatterFigure {
        candidates: &t.candidates,
        front: &t.front,
        references: &references,
        first: goal.targets.first().copied(),
        max_writes: goal.max_writes_per_minute,
        floor: t.unmet.iter().find_map(|u| u.floor),
        y_axis: crate::render::Texts::new(false)
            .get("ui.tune.y_axis")
            .unwrap_or("ui.tune.y_axis"),
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (SVG_WIDTH, SCATTER_HEIGHT)).into_drawing_area();
        draw_scatter(&root, &figure).map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

fn duration(v: Option<Millis>) -> String {
    v.map_or_else(|| "never".to_string(), format_go_duration_tenths)
}

/// One point: its settings as `name=value`, each target's percentile against its bound, each
/// target milestone's p50 and p95, writes per minute and blip safety.
fn point_text(p: &Point, goal: &Goal) -> String {
    let settings: Vec<String> = p.settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let mut out = format!("  {}\n", settings.join(" "));
    for (t, v) in goal.targets.iter().zip(&p.targets) {
        let verdict = if v.is_some_and(|v| v <= t.within) {
            "pass"
        } else {
            "fail"
        };
        let m = p.milestones.get(t.milestone);
        out.push_str(&format!(
            "    {} p{} {} (target {}: {verdict}); p50 {}, p95 {}\n",
            t.milestone,
            t.percentile,
            duration(*v),
            format_go_duration(t.within),
            duration(m.and_then(|m| m.p50)),
            duration(m.and_then(|m| m.p95)),
        ));
    }
    let blip = match (goal.blip, p.blip_safe) {
        (None, _) => "not checked".to_string(),
        (Some(b), safe) => format!(
            "{} blip {}",
            format_go_duration(b),
            if safe { "safe" } else { "taints or evicts" }
        ),
    };
    out.push_str(&format!(
        "    {:.1} writes/min; {blip}; {} seeds{}\n",
        p.writes_per_minute,
        p.seeds,
        if p.meets { "; meets the goal" } else { "" }
    ));
    for w in &p.warnings {
        out.push_str(&format!("    warning ({}): {}\n", w.key(), w.0.english()));
    }
    out
}

/// What the answer says of the goal as a whole: the warnings it forces, each target or ceiling
/// no candidate meets with the closest any came (and the writes floor), blip safety no candidate
/// has, or that no candidate meets every part at once.
fn goal_text(t: &Tuned) -> String {
    let mut out = String::new();
    if !t.forced_warnings.is_empty() {
        out.push_str(&format!(
            "every point that meets the goal has the warnings: {}\n",
            t.forced_warnings.join(", ")
        ));
    }
    for u in &t.unmet {
        if u.name == BLIP_SAFE {
            out.push_str(&format!(
                "no candidate is safe from a {} blip: each taints its node NoExecute or deletes a pod in some seed\n",
                format_go_duration(t.blip.unwrap_or(0))
            ));
            continue;
        }
        if u.name == TOGETHER {
            out.push_str("each target and limit is met by some candidate, but no candidate meets them all at once\n");
            continue;
        }
        let closest = |v: f64| {
            if u.name == MAX_WRITES {
                format!("{v:.1} writes/min")
            } else {
                format_go_duration_tenths(v as Millis)
            }
        };
        let mut line = format!(
            "no candidate meets {}: the closest is {}",
            u.name,
            u.closest.map_or_else(|| "never".to_string(), closest)
        );
        if let Some(f) = u.floor {
            line.push_str(&format!(
                "; none can go under {f:.1} writes/min at {} nodes (the least its heartbeats write: with Leases, their renewals alone)",
                t.nodes
            ));
        }
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The text form: the goal, the front, the references and the best point.
pub fn render(t: &Tuned, goal: &Goal) -> String {
    let targets: Vec<String> = goal.targets.iter().map(Target::cli_text).collect();
    let mut out = format!(
        "targets {}; {} candidates on {} seeds each, the front on {}; writes counted at {} nodes\n\nfront ({} points, fewest writes first):\n",
        targets.join(", "),
        t.candidates.len(),
        SCREEN_SEEDS.min(goal.seeds),
        goal.seeds,
        t.nodes,
        t.front.len()
    );
    for p in &t.front {
        out.push_str(&point_text(p, goal));
    }
    out.push_str("\nreferences:\n");
    for r in &t.references {
        out.push_str(&format!("  {}:\n", r.name));
        out.push_str(&point_text(&r.point, goal).replacen("  ", "    ", 1));
    }
    match &t.best {
        Some(b) => {
            out.push_str("\nbest (meets the goal with the fewest warnings, then the fewest writes):\n");
            out.push_str(&point_text(b, goal));
        }
        None => out.push_str("\nbest: no candidate meets every target and limit\n"),
    }
    out.push_str(&goal_text(t));
    out
}
