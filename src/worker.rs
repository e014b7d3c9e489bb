//! The page's Web Workers, as glue: each is its own wasm (the engine's, `kubelife-worker`, from
//! `src/worker_main.rs`; the files worker, `kubelife-files`, from `src/files_main.rs`), built by
//! Trunk from `<link data-trunk rel="rust" data-type="worker">`. Here they are registered with
//! `gloo-worker`, carry the core's messages (`kubelife_playground::jobs`) in its bincode codec,
//! time each answer, and run the Tune panel's search in slices between timers. What each job
//! does is the core's (`jobs::engine`, `jobs::files`), tested natively.

use crate::jobs::engine::{answer, Tuning, SLICE_MS};
use crate::jobs::files::answer_files;
use crate::jobs::{EngineAnswer, EngineJob, FilesJob, Reply, Request, Work};
use gloo_worker::{HandlerId, Worker, WorkerScope};
use std::convert::Infallible;

/// The answer type of `D`'s jobs.
type AnswerOf<D> = <<D as Doing>::Job as Work>::Answer;

/// What a worker does with each job.
pub trait Doing: 'static {
    /// The jobs it reads (and so the only ones its wasm can decode).
    type Job: Work;
    /// A job it does in slices (the engine's search), or `Infallible` for a worker with none.
    type Slices;

    /// The answer to `job`.
    fn answer(job: &Self::Job) -> AnswerOf<Self>;

    /// A job done in slices, started; `None` for a job answered at once.
    fn start(_job: &Self::Job) -> Option<Result<Self::Slices, AnswerOf<Self>>> {
        None
    }

    /// One slice of a job this worker started.
    fn slice(slices: &mut Self::Slices) -> AnswerOf<Self>;

    /// The answer to a job in slices that a stop or a newer one ended.
    fn stopped(slices: Self::Slices) -> AnswerOf<Self>;

    /// Whether `job` stops the job in slices under way.
    fn stops(_job: &Self::Job) -> bool {
        false
    }
}

/// The engine's runs (`jobs::engine::answer`) and searches ([`Tuning`]).
pub struct Runs;

impl Doing for Runs {
    type Job = EngineJob;
    type Slices = Tuning;

    fn answer(job: &EngineJob) -> EngineAnswer {
        answer(job, &worker_now)
    }

    fn start(job: &EngineJob) -> Option<Result<Tuning, EngineAnswer>> {
        Tuning::start(job)
    }

    fn slice(tuning: &mut Tuning) -> EngineAnswer {
        tuning.slice(SLICE_MS, &worker_now)
    }

    fn stopped(_search: Tuning) -> EngineAnswer {
        EngineAnswer::Stopped
    }

    fn stops(job: &EngineJob) -> bool {
        matches!(job, EngineJob::StopTune)
    }
}

/// A cluster's files (`jobs::files::answer_files`), each answered at once: the files worker's
/// wasm carries no simulation.
pub struct Files;

impl Doing for Files {
    type Job = FilesJob;
    type Slices = Infallible;

    fn answer(job: &FilesJob) -> AnswerOf<Self> {
        answer_files(job)
    }

    fn slice(never: &mut Infallible) -> AnswerOf<Self> {
        match *never {}
    }

    fn stopped(never: Infallible) -> AnswerOf<Self> {
        match never {}
    }
}

/// A worker that answers each request in turn, as `D` does, and runs at most one job in slices
/// (who asked, the job's number, the job).
pub struct JobWorker<D: Doing> {
    tuning: Option<(HandlerId, u32, D::Slices)>,
}

/// The engine's worker (`kubelife-worker`).
pub type EngineWorker = JobWorker<Runs>;
/// The files worker (`kubelife-files`).
pub type FilesWorker = JobWorker<Files>;

impl<D: Doing> Worker for JobWorker<D> {
    type Message = ();
    type Input = Request<D::Job>;
    type Output = Reply<AnswerOf<D>>;

    fn create(_scope: &WorkerScope<Self>) -> Self {
        JobWorker { tuning: None }
    }

    /// One slice of the search, then its progress (and the next slice, after the worker has read
    /// its messages) or what it found.
    fn update(&mut self, scope: &WorkerScope<Self>, _msg: ()) {
        let Some((who, id, tuning)) = self.tuning.as_mut() else {
            return;
        };
        let start = worker_now();
        let answer = D::slice(tuning);
        let (who, id, last) = (*who, *id, D::Job::is_last(&answer));
        reply(scope, who, id, answer, start);
        if last {
            self.tuning = None;
        } else {
            next_slice(scope);
        }
    }

    fn received(&mut self, scope: &WorkerScope<Self>, req: Request<D::Job>, who: HandlerId) {
        let start = worker_now();
        let started = D::start(&req.job);
        if D::stops(&req.job) || matches!(started, Some(Ok(_))) {
            // A new search or a stop ends the one under way.
            if let Some((was, id, slices)) = self.tuning.take() {
                reply(scope, was, id, D::stopped(slices), start);
            }
        }
        match started {
            Some(Ok(tuning)) => {
                self.tuning = Some((who, req.id, tuning));
                next_slice(scope);
            }
            Some(Err(why)) => reply(scope, who, req.id, why, start),
            // A stop itself is answered as a plain job (`jobs::engine::answer`: stopped).
            None => reply(scope, who, req.id, D::answer(&req.job), start),
        }
    }
}

fn reply<D: Doing>(scope: &WorkerScope<JobWorker<D>>, who: HandlerId, id: u32, answer: AnswerOf<D>, start: f64) {
    let worker_ms = worker_now() - start;
    scope.respond(who, Reply { id, answer, worker_ms });
}

/// Queues the search's next slice behind the messages that came meanwhile (a timer, not a
/// microtask, so that a stop is read first).
fn next_slice<D: Doing>(scope: &WorkerScope<JobWorker<D>>) {
    let scope = scope.clone();
    gloo_timers::callback::Timeout::new(0, move || scope.send_message(())).forget();
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
