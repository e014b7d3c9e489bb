//! The engine's worker's jobs (`kubelife-worker`): a run, the seeds' spreads, the calibration
//! loop, the Tune panel's search in slices and, with the clients, what to change in each client
//! to cut its errors. Only that worker calls them, so that the page's wasm carries no simulation.

use super::{Bytes, EngineAnswer, EngineJob};
use crate::model::run_config;
use crate::settings::Settings;
use crate::tune::{Ask, Found};
use kubelife_engine::{distribution, Cause, Config, Distribution, Outcome};

/// How long a slice of the search runs before the worker reports and reads its messages, ms: the
/// search's steps (each at most `kubelife_engine::tune::SEEDS_PER_STEP` seeds of one candidate)
/// until this much time has passed, so a slice overruns it by at most one step.
pub const SLICE_MS: f64 = 60.0;

/// Runs `settings` as the page shows them: resolved with the page's rules (an override the
/// scenario refuses is dropped), heartbeats recorded only for small clusters.
pub fn run_settings(settings: &Settings) -> Outcome {
    run_config(&settings.resolve().0)
}

/// The spreads of A and, when given, B.
pub fn spreads(a: &Config, b: Option<&Config>, runs: u32) -> (Distribution, Option<Distribution>) {
    let d = |cfg: &Config| distribution(cfg, runs);
    (d(a), b.map(d))
}

/// What to change in each client of `cfg` to cut its errors: the run the page would show, then
/// one more per client advised (`kubelife_engine::advice::client_fixes`).
#[cfg(feature = "clients")]
pub fn client_fixes(cfg: &Config) -> Vec<kubelife_engine::advice::ClientFix> {
    kubelife_engine::advice::client_fixes(cfg, &run_config(cfg))
}

/// Does one job of the engine's worker that is answered at once (a search is [`Tuning`]'s);
/// pure apart from `now` (a clock in ms, for calibration only).
pub fn answer(job: &EngineJob, now: &dyn Fn() -> f64) -> EngineAnswer {
    match job {
        EngineJob::Run(cfg) => EngineAnswer::Run(Bytes(kubelife_engine::wire::encode(&run_config(cfg)))),
        EngineJob::Spreads { a, b, runs } => EngineAnswer::Spreads(Box::new(spreads(a, b.as_deref(), *runs))),
        EngineJob::Calibrate { nodes, repeats } => {
            let start = now();
            for seed in 0..(*repeats).max(1) {
                let sum = kubelife_engine::calibration::heartbeat_floor(*nodes as usize, 15 * 60_000, u64::from(seed));
                std::hint::black_box(sum);
            }
            EngineAnswer::Calibrated((now() - start) / f64::from((*repeats).max(1)))
        }
        #[cfg(feature = "clients")]
        EngineJob::ClientFixes(cfg) => EngineAnswer::ClientFixes(client_fixes(cfg)),
        // A search is started and stepped by `Tuning`; a stop with none under way ends nothing.
        EngineJob::Tune(..) | EngineJob::StopTune => EngineAnswer::Stopped,
    }
}

/// The engine's search in slices, so that the worker reports its progress and hears a stop
/// between them.
pub struct Tuning(Option<kubelife_engine::tune::Search>);

impl Tuning {
    /// A search of `ask` on `cfg`, or why it cannot run (as a message).
    pub fn new(cfg: &Config, ask: &Ask) -> Result<Tuning, EngineAnswer> {
        let refused = |c: Cause| EngineAnswer::TuneRefused(Bytes(kubelife_engine::wire::encode_messages(&[(0, c)])));
        let goal = ask.goal().map_err(refused)?;
        kubelife_engine::tune::Search::new(cfg, goal)
            .map(|s| Tuning(Some(s)))
            .map_err(refused)
    }

    /// The search a job starts (`EngineJob::Tune`), or `None` for a job answered at once.
    pub fn start(job: &EngineJob) -> Option<Result<Tuning, EngineAnswer>> {
        match job {
            EngineJob::Tune(cfg, ask) => Some(Tuning::new(cfg, ask)),
            _ => None,
        }
    }

    /// Steps the search for about `slice_ms` of `now`: its progress, or what it found once done.
    pub fn slice(&mut self, slice_ms: f64, now: &dyn Fn() -> f64) -> EngineAnswer {
        let Some(search) = self.0.as_mut() else {
            return EngineAnswer::Stopped;
        };
        let start = now();
        let mut more = true;
        while more && now() - start < slice_ms {
            more = search.step();
        }
        if more {
            return EngineAnswer::TuneProgress {
                done: search.done(),
                total: search.total(),
            };
        }
        self.0.take().map_or(EngineAnswer::Stopped, |s| {
            EngineAnswer::Tuned(Box::new(Found::from(s.finish())))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::{Doer, Reply, Request, Work};

    /// `x` as it reads back after crossing between the page and its worker in bincode.
    fn crossed<T: serde::Serialize + serde::de::DeserializeOwned>(x: &T) -> T {
        bincode::deserialize(&bincode::serialize(x).unwrap()).unwrap()
    }

    #[test]
    fn a_run_job_answers_with_the_run_the_page_would_show() {
        let s = Settings::default();
        let EngineAnswer::Run(bytes) = answer(&EngineJob::run(s.resolve().0), &|| 0.0) else {
            panic!("a run");
        };
        let o = kubelife_engine::wire::decode(&bytes.0).expect("decodes");
        assert_eq!(o, run_settings(&s));
        // A stop that reaches this worker's plain jobs stops nothing.
        assert_eq!(answer(&EngineJob::StopTune, &|| 0.0), EngineAnswer::Stopped);
    }

    #[test]
    fn a_calibration_job_answers_the_mean_time_of_one_run() {
        let clock = std::cell::Cell::new(0.0);
        let now = || {
            clock.set(clock.get() + 6.0);
            clock.get()
        };
        let job = EngineJob::Calibrate { nodes: 3, repeats: 3 };
        // The clock is read once before and once after the three runs.
        assert_eq!(answer(&job, &now), EngineAnswer::Calibrated(2.0));
    }

    #[test]
    fn jobs_and_answers_cross_as_the_workers_codec_carries_them() {
        // gloo-worker's codec (`gloo_worker::Bincode`) is bincode 1, which needs every field
        // written (no skipped ones); natively there is no JavaScript array to put it in.
        let s = Settings {
            nodes: 7,
            overrides: [("node-monitor-grace-period".to_string(), 20.0)].into(),
            ..Settings::default()
        };
        let job = Request {
            id: 3,
            job: EngineJob::spreads(s.resolve().0, Some(Settings::default().resolve().0), 4),
        };
        let back: Request<EngineJob> = crossed(&job);
        assert_eq!(back, job);
        let EngineAnswer::Spreads(pair) = answer(&job.job, &|| 0.0) else {
            panic!("spreads");
        };
        let reply = Reply {
            id: 3,
            answer: EngineAnswer::Spreads(pair),
            worker_ms: 1.5,
        };
        let back: Reply<EngineAnswer> = crossed(&reply);
        assert_eq!(back, reply);
    }

    /// The Go preset's client is advised `http.Client.Timeout`, and the advice crosses as the
    /// workers' codec carries it, its message with its arguments.
    #[cfg(feature = "clients")]
    #[test]
    fn a_client_fixes_job_answers_what_to_change_in_each_client() {
        use kubelife_engine::advice::Change;
        use kubelife_engine::scenario::libraries::Knob;
        let p = kubelife_engine::presets::preset("go-client-default").expect("a preset");
        let cfg = p.scenario.resolve().expect("valid");
        let job = Request {
            id: 5,
            job: EngineJob::client_fixes(cfg),
        };
        let back: Request<EngineJob> = crossed(&job);
        assert_eq!(back, job);
        let EngineAnswer::ClientFixes(fixes) = answer(&job.job, &|| 0.0) else {
            panic!("client fixes");
        };
        let [fix] = fixes.as_slice() else {
            panic!("one fix: {fixes:?}");
        };
        assert_eq!(fix.advice.english(), "set http.Client.Timeout to 10s");
        assert!(fix.before.is_some_and(|t| t > 15 * 60_000), "{fix:?}");
        assert!(fix.after.is_some_and(|t| t < 60_000), "{fix:?}");
        let ten = Change::Override {
            client: 0,
            knob: Knob::RequestTimeout,
            ms: 10_000,
        };
        assert_eq!(fix.change, ten);
        let reply = Reply {
            id: 5,
            answer: EngineAnswer::ClientFixes(fixes),
            worker_ms: 0.0,
        };
        let back: Reply<EngineAnswer> = crossed(&reply);
        assert_eq!(back, reply);
        let EngineAnswer::ClientFixes(back) = back.answer else {
            panic!("client fixes");
        };
        assert_eq!(back[0].advice.key, "advice.client.set");
        assert_eq!(back[0].advice.english(), "set http.Client.Timeout to 10s");
    }

    #[test]
    fn a_search_runs_in_slices_that_report_progress_and_ends_in_what_it_found() {
        let cfg = Settings::default().resolve().0;
        let t = kubelife_engine::tune::Target::parse_link("firstReplacementReady:60s:p95").unwrap();
        let ask = Ask {
            seeds: 2,
            ..Ask::new(&[t], None, None, None)
        };
        let mut tuning = Tuning::new(&cfg, &ask).expect("the default crash can be tuned");
        // A clock that moves 1 ms a reading: each slice takes a few steps.
        let clock = std::cell::Cell::new(0.0);
        let now = || {
            clock.set(clock.get() + 1.0);
            clock.get()
        };
        let mut progress = Vec::new();
        let found = loop {
            match tuning.slice(4.0, &now) {
                EngineAnswer::TuneProgress { done, total } => progress.push((done, total)),
                EngineAnswer::Tuned(found) => break found,
                other => panic!("{other:?}"),
            }
        };
        assert!(progress.len() > 3, "{progress:?}");
        assert!(progress.windows(2).all(|w| w[0].0 <= w[1].0), "{progress:?}");
        assert!(!found.front.is_empty() && !found.candidates.is_empty());
        // The writes are counted at the scenario's nodes; every point carries its warnings
        // across the workers' codec, and the targets are met.
        assert_eq!(found.nodes as usize, cfg.nodes.len());
        assert!(found.unmet.is_empty(), "{:?}", found.unmet);
        assert!(
            found.references.iter().any(|(name, _)| name == "defaults"),
            "{:?}",
            found.references
        );
        assert_eq!(
            tuning.slice(4.0, &now),
            EngineAnswer::Stopped,
            "nothing is left to step"
        );
        // What it found crosses as the workers' codec carries it.
        let reply = Reply {
            id: 1,
            answer: EngineAnswer::Tuned(found),
            worker_ms: 0.0,
        };
        let back: Reply<EngineAnswer> = crossed(&reply);
        assert_eq!(back, reply);
        // A goal the engine refuses is answered with its reason.
        let Err(EngineAnswer::TuneRefused(why)) = Tuning::new(&cfg, &Ask { targets: vec![], ..ask }) else {
            panic!("refused");
        };
        let why = kubelife_engine::wire::decode_messages(&why.0).unwrap();
        assert_eq!(why[0].1.key, "tune.goal.no_target");
        assert_eq!(EngineJob::StopTune.doer(), Doer::Tune);
        // Only a search job starts one.
        assert!(Tuning::start(&EngineJob::StopTune).is_none());
        assert!(matches!(Tuning::start(&EngineJob::tune(cfg, ask)), Some(Ok(_))));
    }
}
