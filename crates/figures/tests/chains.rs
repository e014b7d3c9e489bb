//! "Where does the time go?" read off random runs on every version: for each milestone the run
//! reaches, its segments are contiguous, start at the fault, end exactly at the milestone, and
//! each is labelled with the cause of the event that ends it; a milestone never reached is
//! `never` and gets no segments.

#[path = "../../engine/tests/support/scenarios.rs"]
mod scenarios;
#[path = "../../engine/tests/engine/seeded.rs"]
mod seeded;

use kubelife_engine::chain::chain;
use kubelife_engine::{run, Millis, Outcome, RunOptions};
use kubelife_figures::explain::{bars, milestones, segments, Goal, Restored};
use proptest::prelude::*;

/// Checks the segments to event `id` against the chain and the milestone `rel` (ms after the
/// fault).
fn check_segments(o: &Outcome, fault: Millis, id: usize, rel: Millis) -> Result<(), TestCaseError> {
    let segs = segments(o, fault, id);
    let links = chain(&o.events, id);
    let mut at = 0;
    for s in &segs {
        prop_assert_eq!(s.from, at, "segments are contiguous from the fault");
        prop_assert!(s.ms >= 0);
        prop_assert_eq!(
            &s.cause,
            &o.events[s.event].cause,
            "a segment is labelled by the event that ends it"
        );
        prop_assert!(links.contains(&s.event), "each segment's event is a link of the chain");
        at += s.ms;
    }
    prop_assert_eq!(at, rel, "the segments end at the milestone");
    match segs.last() {
        Some(last) => prop_assert_eq!(last.event, id, "the last segment ends with the milestone's event"),
        None => prop_assert_eq!(rel, 0, "only a milestone at the fault's instant has no segment"),
    }
    Ok(())
}

fn outcome(s: &kubelife_engine::Scenario) -> (kubelife_engine::Config, Outcome) {
    let cfg = s.resolve().expect("generated scenarios are valid");
    let o = run(&cfg, &RunOptions::default());
    (cfg, o)
}

proptest! {
    #![proptest_config(seeded::config(200))]

    #[test]
    fn every_milestone_is_its_chain(s in scenarios::scenario()) {
        let (cfg, o) = outcome(&s);
        let m = milestones(&o);
        let Some(fault) = m.fault else { return Ok(()) };
        let e = m.events;
        for (name, time, event) in [
            ("unknown", m.unknown, e.unknown),
            ("taint", m.taint, e.taint),
            ("eviction", m.eviction, e.eviction),
            ("replacement", m.replacement, e.replacement),
            ("traffic stopped", m.traffic_stopped, e.traffic_stopped),
            ("volume free", m.volume_free, e.volume_free),
        ] {
            prop_assert_eq!(time.is_some(), event.is_some(), "{}: a milestone has its event, and never has none", name);
            prop_assert!(time.is_none_or(|t| t >= 0), "{}: {:?} is before the fault", name, time);
            if let (Some(rel), Some(id)) = (time, event) {
                prop_assert_eq!(o.events[id].at_ms - fault, rel);
                check_segments(&o, fault, id, rel)?;
            }
        }
        match m.service_restored {
            Restored::At(rel) => {
                let id = e.service_restored.expect("a Service whole again is an event");
                check_segments(&o, fault, id, rel)?;
            }
            _ => prop_assert!(e.service_restored.is_none()),
        }
        for bar in bars(&o, &cfg) {
            let total = bar.total();
            match &bar.goal {
                Goal::Replacement => prop_assert_eq!(bar.reached().then_some(total), m.replacement),
                Goal::ServiceRestored => prop_assert_eq!(Restored::At(total), m.service_restored),
                Goal::Database(_) => {}
            }
            prop_assert_eq!(bar.reached(), bar.stuck.is_none(), "a bar not reached says where it stopped");
            if let Some((_, upto)) = bar.passes {
                let passed: Millis = bar.segments[..upto].iter().map(|s| s.ms).sum();
                prop_assert_eq!(Some(passed), m.replacement);
            }
        }
    }
}
