//! Compare mode: milestone deltas between sides A and B, and histograms over 200 seeds.

use crate::explain::{milestone_text, milestones, writes_per_minute};
use crate::i18n::{tr, trf, Lang};
use kubelife_engine::time::format_go_duration_tenths;
use kubelife_engine::{Config, Millis, Outcome, Spread};
use std::rc::Rc;
use yew::prelude::*;

/// Properties of [`Deltas`].
#[derive(Properties, PartialEq, Clone)]
pub struct DeltasProps {
    /// Side A.
    pub a: Rc<Outcome>,
    /// Side A's configuration.
    pub a_cfg: Rc<Config>,
    /// Side B.
    pub b: Rc<Outcome>,
    /// Side B's configuration.
    pub b_cfg: Rc<Config>,
    /// Cluster size for the write rates.
    pub nodes: u32,
}

fn signed(d: Millis) -> String {
    if d == 0 {
        "±0s".into()
    } else if d > 0 {
        format!("+{}", format_go_duration_tenths(d))
    } else {
        format!("−{}", format_go_duration_tenths(-d))
    }
}

/// One row of the delta table: row id, label, A, B, B − A.
pub type DeltaRow = (&'static str, String, String, String, String);

/// The rows of the delta table.
pub fn delta_rows(lang: Lang, a: &Outcome, a_cfg: &Config, b: &Outcome, b_cfg: &Config, nodes: u32) -> Vec<DeltaRow> {
    let (ma, mb) = (milestones(a), milestones(b));
    let mut rows = Vec::new();
    for (id, key, x, y) in [
        ("unknown", "ui.milestone.unknown", ma.unknown, mb.unknown),
        ("taint", "ui.milestone.taint", ma.taint, mb.taint),
        ("eviction", "ui.milestone.eviction", ma.eviction, mb.eviction),
        (
            "replacement",
            "ui.milestone.replacement",
            ma.replacement,
            mb.replacement,
        ),
    ] {
        let delta = match (x, y) {
            (Some(x), Some(y)) => signed(y - x),
            _ => "—".into(),
        };
        rows.push((
            id,
            tr(lang, key).to_string(),
            milestone_text(lang, x),
            milestone_text(lang, y),
            delta,
        ));
    }
    let gap = |o: &Outcome| {
        o.summary
            .workloads
            .iter()
            .find(|w| w.workload == "web")
            .map(|w| w.not_fully_ready_ms)
    };
    if let (Some(x), Some(y)) = (gap(a), gap(b)) {
        rows.push((
            "web-gap",
            tr(lang, "ui.compare.web_gap").to_string(),
            format_go_duration_tenths(x),
            format_go_duration_tenths(y),
            signed(y - x),
        ));
    }
    let total = |c: &Config| {
        let (l, s) = writes_per_minute(c, nodes);
        l + s
    };
    let (wa, wb) = (total(a_cfg), total(b_cfg));
    rows.push((
        "writes",
        trf(lang, "ui.compare.writes", &[("nodes", &nodes)]),
        format!("{wa:.0}"),
        format!("{wb:.0}"),
        format!("{:+.0}", wb - wa),
    ));
    rows
}

/// The delta table.
#[function_component(Deltas)]
pub fn deltas(p: &DeltasProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let rows = delta_rows(lang, &p.a, &p.a_cfg, &p.b, &p.b_cfg, p.nodes);
    html! {
        <table class="deltas" data-testid="compare-deltas">
            <thead><tr><th></th><th>{"A"}</th><th>{"B"}</th><th>{"B − A"}</th></tr></thead>
            <tbody>
            { for rows.into_iter().map(|(id, name, a, b, d)| html! {
                <tr data-row={id}><th>{name}</th><td>{a}</td><td>{b}</td><td class="delta">{d}</td></tr>
            }) }
            </tbody>
        </table>
    }
}

/// Properties of [`Histogram`].
#[derive(Properties, PartialEq, Clone)]
pub struct HistogramProps {
    /// Title.
    pub title: AttrValue,
    /// Side A's spread.
    pub a: Spread,
    /// Side B's spread, if comparing.
    #[prop_or_default]
    pub b: Option<Spread>,
}

/// Counts per bin over `[lo, hi]`.
pub fn bins(samples: &[Millis], lo: Millis, hi: Millis, n: usize) -> Vec<usize> {
    let mut out = vec![0; n];
    let width = ((hi - lo).max(1) as f64) / n as f64;
    for &s in samples {
        let i = (((s - lo) as f64 / width) as usize).min(n - 1);
        out[i] += 1;
    }
    out
}

/// A histogram of one milestone over seeds, with p50 and p95 marked, for A (and B).
#[function_component(Histogram)]
pub fn histogram(p: &HistogramProps) -> Html {
    const BINS: usize = 24;
    let lang = use_context::<Lang>().unwrap_or_default();
    let all: Vec<Millis> =
        p.a.samples
            .iter()
            .chain(p.b.iter().flat_map(|b| b.samples.iter()))
            .copied()
            .collect();
    let (Some(&lo), Some(&hi)) = (all.iter().min(), all.iter().max()) else {
        return html! { <div class="histogram"><h3>{p.title.clone()}</h3><p>{tr(lang, "ui.hist.never")}</p></div> };
    };
    let sides: Vec<(&str, &Spread)> = std::iter::once(("A", &p.a))
        .chain(p.b.as_ref().map(|b| ("B", b)))
        .collect();
    let pos = |t: Millis| (t - lo) as f64 / (hi - lo).max(1) as f64 * 100.0;
    html! {
        <div class="histogram">
            <h3>{p.title.clone()}</h3>
            { for sides.iter().map(|(name, s)| {
                let counts = bins(&s.samples, lo, hi, BINS);
                let top = counts.iter().copied().max().unwrap_or(1).max(1);
                html! {
                    <div class={classes!("hist-row", format!("side-{}", name.to_lowercase()))} data-testid={format!("histogram-{}", name.to_lowercase())}>
                        <span class="side">{*name}</span>
                        <div class="bars">
                            { for counts.iter().map(|&c| html! { <div class="bin" style={format!("height: {}%", c * 100 / top)} title={c.to_string()}></div> }) }
                            if let Some(p50) = s.p50 { <div class="mark p50" style={format!("left: {:.1}%", pos(p50))} title="p50"></div> }
                            if let Some(p95) = s.p95 { <div class="mark p95" style={format!("left: {:.1}%", pos(p95))} title="p95"></div> }
                        </div>
                        <span class="stats">{format!("p50 {} · p95 {} · {}–{}", milestone_text(lang, s.p50), milestone_text(lang, s.p95), milestone_text(lang, s.min), milestone_text(lang, s.max))}{ if s.never > 0 { trf(lang, "ui.hist.never_in", &[("runs", &s.never)]) } else { String::new() } }</span>
                    </div>
                }
            }) }
            <div class="axis"><span>{format_go_duration_tenths(lo)}</span><span>{format_go_duration_tenths(hi)}</span></div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;

    #[test]
    fn deltas_of_a_shorter_toleration() {
        let (a_cfg, _) = Settings::default().resolve();
        let mut b = Settings::default();
        b.set("default-unreachable-toleration-seconds", 200.0);
        let (b_cfg, _) = b.resolve();
        let run = |c: &Config| kubelife_engine::run(c, &kubelife_engine::RunOptions::default());
        let rows = delta_rows(Lang::En, &run(&a_cfg), &a_cfg, &run(&b_cfg), &b_cfg, 1000);
        let eviction = rows.iter().find(|r| r.0 == "eviction").unwrap();
        assert_eq!(eviction.4, "−1m40s");
        assert_eq!(rows.iter().find(|r| r.0 == "unknown").unwrap().4, "±0s");
    }

    #[test]
    fn bins_cover_every_sample() {
        let counts = bins(&[0, 5, 10, 10, 99, 100], 0, 100, 10);
        assert_eq!(counts.iter().sum::<usize>(), 6);
        assert_eq!(counts[9], 2);
    }
}
