//! Over 200 seeds: one timeline is one sample of loops whose phases the seed draws, so each
//! milestone card has a range for an answer. A histogram per card the run shows (node Unknown,
//! the NoExecute taint, the first eviction, the first replacement Ready; with a Service, traffic
//! stopped and the Service whole again; with a cloud or a remediator, the Node deleted and, with
//! a remediator, the remediation started; with a volume, the volume free and the database Ready
//! again), for the configuration shown and, when comparing, for B on the same axis; p50 and p95
//! marked. The engine measures them per seed (`kubelife_engine::stats::MILESTONES`).

use crate::explain::milestone_text;
use crate::i18n::{tr, trf, Lang};
use kubelife_engine::time::format_go_duration_tenths;
use kubelife_engine::tune::Target;
use kubelife_engine::{Distribution, Millis, Spread};
use std::rc::Rc;
use yew::prelude::*;

/// Milestones over many seeds for A, and for B when comparing.
pub type Spreads = Rc<(Distribution, Option<Distribution>)>;

/// The cards' milestones: the engine's name and the card's label key, in the cards' order.
pub const CARDS: [(&str, &str); 10] = [
    ("unknown", "ui.milestone.unknown"),
    ("taint", "ui.milestone.taint"),
    ("firstDeletion", "ui.milestone.eviction"),
    ("firstReplacementReady", "ui.milestone.replacement"),
    ("trafficStopped", "ui.milestone.traffic_stopped"),
    ("serviceRestored", "ui.milestone.service_restored"),
    ("nodeDeleted", "ui.milestone.node_deleted"),
    ("remediationStarted", "ui.milestone.remediation"),
    ("volumeFree", "ui.milestone.volume_free"),
    ("databaseReady", "ui.milestone.database_ready"),
];

/// Properties of [`Seeds`].
#[derive(Properties, PartialEq, Clone)]
pub struct SeedsProps {
    /// The spreads, once run.
    pub spreads: Option<Spreads>,
    /// Whether they are being run.
    pub running: bool,
    /// Called to run them.
    pub onrun: Callback<()>,
    /// The SLO targets: each is a line on its milestone's histogram at its duration.
    #[prop_or_default]
    pub targets: Vec<Target>,
}

/// The button that runs the seeds, then a histogram per milestone card.
#[function_component(Seeds)]
pub fn seeds(p: &SeedsProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let Some(sp) = &p.spreads else {
        let run = p.onrun.reform(|_: MouseEvent| ());
        let label = tr(lang, if p.running { "ui.seeds.running" } else { "ui.run_seeds" });
        return html! {
            <div class="seeds-run">
                <button onclick={run} data-testid="seeds-run" disabled={p.running} aria-busy={p.running.to_string()}>{label}</button>
            </div>
        };
    };
    html! {
        <div class="seeds" data-testid="seeds">
            { for CARDS.iter().filter_map(|&(name, key)| {
                let a = sp.0.spread(name)?;
                let b = sp.1.as_ref().and_then(|d| d.spread(name));
                let slo: Vec<&Target> = p.targets.iter().filter(|t| t.milestone == name).collect();
                Some(histogram(lang, (name, key), a, b, &slo))
            }) }
        </div>
    }
}

/// A target as its line's title reads: `firstReplacementReady ≤ 1m0s @ p95`.
pub fn slo_text(t: &Target) -> String {
    format!(
        "{} ≤ {} @ p{}",
        t.milestone,
        kubelife_engine::format_go_duration(t.within),
        t.percentile
    )
}

/// Counts of `samples` in `n` equal bins over `lo..=hi`.
pub fn bins(samples: &[Millis], lo: Millis, hi: Millis, n: usize) -> Vec<usize> {
    let mut out = vec![0; n];
    let width = ((hi - lo).max(1) as f64) / n as f64;
    for &s in samples {
        let i = (((s - lo) as f64 / width) as usize).min(n - 1);
        out[i] += 1;
    }
    out
}

/// The line under a side's bars: its percentiles, range and the runs it never happened in.
fn stats_line(lang: Lang, s: &Spread) -> String {
    let never = if s.never > 0 {
        trf(lang, "ui.hist.never_in", &[("runs", &s.never)])
    } else {
        String::new()
    };
    let (p50, p95) = (milestone_text(lang, s.p50), milestone_text(lang, s.p95));
    let (min, max) = (milestone_text(lang, s.min), milestone_text(lang, s.max));
    format!("p50 {p50} · p95 {p95} · {min}–{max}{never}")
}

/// A histogram of one milestone (its name and its card's label key) over seeds, with p50 and
/// p95 marked, for A (and B) on one axis, which reaches the SLO targets' lines too.
fn histogram(lang: Lang, (name, key): (&str, &'static str), a: &Spread, b: Option<&Spread>, slo: &[&Target]) -> Html {
    const BINS: usize = 24;
    let title = tr(lang, key);
    let samples = a.samples.iter().chain(b.iter().flat_map(|b| b.samples.iter()));
    let all = samples.clone().chain(
        slo.iter()
            .map(|t| &t.within)
            .filter(|_| samples.clone().next().is_some()),
    );
    let (Some(&lo), Some(&hi)) = (all.clone().min(), all.max()) else {
        return html! {
            <div class="seeds-hist" data-testid={format!("seeds-{name}")}><h3>{title}</h3><p>{tr(lang, "ui.hist.never")}</p></div>
        };
    };
    let sides: Vec<(&str, &Spread)> = std::iter::once(("A", a)).chain(b.map(|b| ("B", b))).collect();
    let pos = |t: Millis| (t - lo) as f64 / (hi - lo).max(1) as f64 * 100.0;
    // Sides are named only when there are two.
    let named = sides.len() > 1;
    html! {
        <div class="seeds-hist" data-testid={format!("seeds-{name}")}>
            <h3>{title}</h3>
            { for sides.iter().map(|(side, s)| {
                let counts = bins(&s.samples, lo, hi, BINS);
                let top = counts.iter().copied().max().unwrap_or(1).max(1);
                let id = side.to_ascii_lowercase();
                html! {
                    <div class={format!("seeds-row seeds-{id}")} data-testid={format!("histogram-{id}")}>
                        <span class="seeds-side">{ if named { *side } else { "" } }</span>
                        <div class="seeds-bars">
                            { for counts.iter().map(|&c| html! { <div class="seeds-bin" style={format!("height: {}%", c * 100 / top)} title={c.to_string()}></div> }) }
                            if let Some(p50) = s.p50 { <div class="seeds-mark seeds-p50" style={format!("left: {:.1}%", pos(p50))} title="p50"></div> }
                            if let Some(p95) = s.p95 { <div class="seeds-mark seeds-p95" style={format!("left: {:.1}%", pos(p95))} title="p95"></div> }
                            { for slo.iter().map(|t| html! {
                                <div class="seeds-slo" style={format!("left: {:.1}%", pos(t.within))} title={slo_text(t)} data-testid="seeds-slo"></div>
                            }) }
                        </div>
                        <span class="seeds-stats">{stats_line(lang, s)}</span>
                    </div>
                }
            }) }
            <div class="seeds-axis"><span>{format_go_duration_tenths(lo)}</span><span>{format_go_duration_tenths(hi)}</span></div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_cover_every_sample() {
        let counts = bins(&[0, 5, 10, 10, 99, 100], 0, 100, 10);
        assert_eq!(counts.iter().sum::<usize>(), 6);
        assert_eq!(counts[9], 2);
    }

    #[test]
    fn every_card_has_a_milestone_over_seeds() {
        for (name, _) in CARDS {
            assert!(kubelife_engine::stats::MILESTONES.contains(&name), "{name}");
        }
    }
}
