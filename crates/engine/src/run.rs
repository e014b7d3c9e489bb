//! Running a scenario: the driver ([`crate::sim`]) runs the resolved configuration, and its
//! recorded log, with ids, becomes an [`Outcome`], with names, and the run's [`summary`].

use crate::outcome::{Outcome, RunOptions, TimelineEvent};
use crate::scenario::{Config, Scenario, ScenarioError};
use crate::sim::Simulation;
use crate::summary;

/// Runs a resolved scenario.
pub fn run(cfg: &Config, opts: &RunOptions) -> Outcome {
    let mut sim = Simulation::new(cfg.clone(), opts.heartbeats);
    sim.run();
    let events = std::mem::take(&mut sim.w.log.events);
    #[cfg(feature = "clients")]
    let (events, client_summaries) = crate::network::clients::observed(cfg, events, &sim.w.api, &sim.proxy);
    let mut summary = summary::summarize(
        &events,
        &sim.w.log.faults,
        &sim.w.api,
        &sim.workloads,
        cfg.profile.version.to_string(),
        cfg.seed,
        cfg.duration,
    );
    let services: Vec<Option<(String, u32)>> = cfg
        .workloads
        .iter()
        .enumerate()
        .map(|(w, s)| {
            s.service
                .then(|| (s.service_name().to_string(), sim.workloads.desired(w, &sim.w.api)))
        })
        .collect();
    summary.services = sim
        .proxy
        .summaries(&sim.w.api, &services, &sim.eps.ready_counts, cfg.duration);
    summary.volumes = summary::volume_summaries(&events);
    #[cfg(feature = "clients")]
    {
        summary.clients = client_summaries;
    }
    let api = &sim.w.api;
    let named: Vec<TimelineEvent> = events
        .into_iter()
        .enumerate()
        .map(|(id, e)| TimelineEvent {
            id,
            at_ms: e.at,
            kind: e.kind,
            node: e.node.map(|n| api.nodes[n].name.clone()),
            pod: e.pod.map(|p| api.pods[p].name.clone()),
            taint: e.taint,
            zone: e.zone,
            state: e.state,
            service: e.service.map(|w| cfg.workloads[w].service_name().to_string()),
            volume: e.volume,
            remediator: e.remediator,
            client: e.client,
            cause: e.cause,
            after: e.after,
        })
        .collect();
    let mut warnings = cfg.warnings.clone();
    warnings.extend(sim.warnings.iter().cloned());
    Outcome {
        events: named,
        summary,
        warnings,
    }
}

/// Reads, resolves and runs a JSON scenario.
pub fn run_json(text: &str, opts: &RunOptions) -> Result<Outcome, ScenarioError> {
    let cfg = Scenario::from_json(text)?.resolve()?;
    Ok(run(&cfg, opts))
}
