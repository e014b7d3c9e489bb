//! "Where does the time go?" after `kubelife run`'s timeline: each bar's chain of events, read
//! off the run (`kubelife_figures::explain`), one line per link with its length, the event that
//! ends it and what happened in it.

use crate::render::Texts;
use kubelife_engine::time::{format_go_duration, format_go_duration_span, format_go_duration_tenths};
use kubelife_engine::{Config, Outcome};
use kubelife_figures::explain::{bars, figure_bars};
use std::fmt::Write;

/// The section, in English; empty when the run has no fault to measure from.
pub fn where_the_time_goes(o: &Outcome, cfg: &Config) -> String {
    let explained = bars(o, cfg);
    let Some(fault) = o.summary.nodes.first().and_then(|n| n.fault_at_ms) else {
        return String::new();
    };
    if explained.is_empty() {
        return String::new();
    }
    let texts = Texts::new(false);
    let drawn = figure_bars(&explained, &o.events, &|k| texts.get(k));
    let mut out = format!(
        "\nwhere does the time go? (from the fault at {})\n",
        format_go_duration_tenths(fault)
    );
    for (bar, fig) in explained.iter().zip(&drawn) {
        let _ = writeln!(out, "  {}: {}", fig.title, fig.total);
        for (i, (s, piece)) in bar.segments.iter().zip(&fig.pieces).enumerate() {
            let e = &o.events[s.event];
            let _ = writeln!(
                out,
                "  {:>9}  until {} {} (event {}): {}",
                format_go_duration_span(s.ms),
                format_go_duration(e.at_ms),
                e.kind,
                e.id,
                piece.label
            );
            if let Some((after, text)) = &fig.passes {
                if *after == i + 1 {
                    let _ = writeln!(out, "  {:>9}  {text}", "");
                }
            }
        }
    }
    out
}
