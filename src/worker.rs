//! The engine's Web Worker: the page sends it settings and gets back runs, so that a run of
//! 5,000 nodes never blocks the page. The worker is its own wasm (`src/bin/worker.rs`, built by
//! Trunk from `<link data-trunk rel="rust" data-type="worker">`); the simulation lives only there.
//!
//! Messages travel with `gloo-worker`. Settings go as JSON; a run comes back in the engine's wire
//! form (`kubelife_engine::wire`), which keeps every cause's key and arguments.

use crate::settings::Settings;
use gloo_worker::{HandlerId, Worker, WorkerScope};
use kubelife_engine::{distribution, run, Distribution, Outcome, RunOptions};
use serde::{Deserialize, Serialize};

/// Most nodes whose heartbeats are recorded as events (more would only be noise on the page).
pub const HEARTBEAT_EVENTS_UP_TO: usize = 50;

/// Something for the worker to do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Job {
    /// One run of these settings (JSON of [`Settings`]).
    Run(String),
    /// Milestones over `runs` seeds for A and, when comparing, B (JSON of [`Settings`]).
    Spreads {
        /// Side A.
        a: String,
        /// Side B.
        b: Option<String>,
        /// How many seeds.
        runs: u32,
    },
    /// The calibration workload (`calibration::heartbeat_floor`) of `nodes` nodes, `repeats`
    /// times, for the budget script's ratios.
    Calibrate {
        /// Nodes.
        nodes: u32,
        /// Repeats.
        repeats: u32,
    },
}

/// A job with the number the page knows it by.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// The page's number for this job.
    pub id: u32,
    /// What to do.
    pub job: Job,
}

/// What the worker answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Answer {
    /// A run in the engine's wire form.
    Run(Bytes),
    /// The spreads of A and B, as JSON.
    Spreads(String),
    /// The mean time of one calibration run, ms.
    Calibrated(f64),
    /// The job could not be read (a message for the console; the page keeps its last result).
    Failed(String),
}

/// An answer with the number of the job it answers and the worker's time spent on it, ms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reply {
    /// The job's number.
    pub id: u32,
    /// The answer.
    pub answer: Answer,
    /// Time the worker spent, ms.
    pub worker_ms: f64,
}

/// Bytes that serialize as one block rather than one number per byte.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Bytes(pub Vec<u8>);

impl Serialize for Bytes {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Bytes;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Bytes, E> {
                Ok(Bytes(v.to_vec()))
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<Bytes, E> {
                Ok(Bytes(v))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Bytes, A::Error> {
                let mut out = Vec::new();
                while let Some(b) = seq.next_element()? {
                    out.push(b);
                }
                Ok(Bytes(out))
            }
        }
        d.deserialize_byte_buf(Visit)
    }
}

/// Runs `settings` as the page shows them: resolved with the page's rules (an override the
/// scenario refuses is dropped), heartbeats recorded only for small clusters.
pub fn run_settings(settings: &Settings) -> Outcome {
    let (cfg, _) = settings.resolve();
    run(
        &cfg,
        &RunOptions {
            heartbeats: cfg.nodes.len() <= HEARTBEAT_EVENTS_UP_TO,
        },
    )
}

/// The spreads of A and, when given, B.
pub fn spreads(a: &Settings, b: Option<&Settings>, runs: u32) -> (Distribution, Option<Distribution>) {
    let d = |s: &Settings| distribution(&s.resolve().0, runs);
    (d(a), b.map(d))
}

/// Does one job; pure apart from `now` (a clock in ms, for calibration only).
pub fn answer(job: &Job, now: &dyn Fn() -> f64) -> Answer {
    let settings = |json: &str| serde_json::from_str::<Settings>(json).map_err(|e| format!("settings: {e}"));
    let result = match job {
        Job::Run(json) => settings(json).map(|s| Answer::Run(Bytes(kubelife_engine::wire::encode(&run_settings(&s))))),
        Job::Spreads { a, b, runs } => settings(a).and_then(|a| {
            let b = b.as_deref().map(settings).transpose()?;
            let pair = spreads(&a, b.as_ref(), *runs);
            serde_json::to_string(&pair)
                .map(Answer::Spreads)
                .map_err(|e| e.to_string())
        }),
        Job::Calibrate { nodes, repeats } => {
            let start = now();
            for seed in 0..(*repeats).max(1) {
                let sum = kubelife_engine::calibration::heartbeat_floor(*nodes as usize, 15 * 60_000, u64::from(seed));
                std::hint::black_box(sum);
            }
            Ok(Answer::Calibrated((now() - start) / f64::from((*repeats).max(1))))
        }
    };
    result.unwrap_or_else(Answer::Failed)
}

/// The worker: answers each request in turn.
pub struct EngineWorker;

impl Worker for EngineWorker {
    type Message = ();
    type Input = Request;
    type Output = Reply;

    fn create(_scope: &WorkerScope<Self>) -> Self {
        EngineWorker
    }

    fn update(&mut self, _scope: &WorkerScope<Self>, _msg: ()) {}

    fn received(&mut self, scope: &WorkerScope<Self>, req: Request, who: HandlerId) {
        let start = worker_now();
        let answer = answer(&req.job, &worker_now);
        scope.respond(
            who,
            Reply {
                id: req.id,
                answer,
                worker_ms: worker_now() - start,
            },
        );
    }
}

/// The worker's clock, ms (`performance.now()` of the worker's global scope; 0 where there is none).
fn worker_now() -> f64 {
    use wasm_bindgen::JsCast;
    js_sys::global()
        .dyn_into::<web_sys::WorkerGlobalScope>()
        .ok()
        .and_then(|g| g.performance())
        .map_or(0.0, |p| p.now())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_job_answers_with_the_run_the_page_would_show() {
        let s = Settings::default();
        let Answer::Run(bytes) = answer(&Job::Run(serde_json::to_string(&s).unwrap()), &|| 0.0) else {
            panic!("a run");
        };
        let o = kubelife_engine::wire::decode(&bytes.0).expect("decodes");
        assert_eq!(o, run_settings(&s));
        assert!(matches!(answer(&Job::Run("{".into()), &|| 0.0), Answer::Failed(m) if m.starts_with("settings:")));
    }
}
