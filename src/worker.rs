//! The page's Web Workers, as glue: each is its own wasm (the engine's, `kubelife-worker`, from
//! `src/worker_main.rs`; the files worker, `kubelife-files`, from `src/files_main.rs`), built by
//! Trunk from `<link data-trunk rel="rust" data-type="worker">`. Here they are registered with
//! `gloo-worker`, carry the core's messages (`kubelife_playground::jobs`) in its bincode codec,
//! time each answer, and run the Tune panel's search in slices between timers. What each job
//! does is the core's (`jobs::engine`, `jobs::files`), tested natively.

use crate::jobs::engine::{answer, Tuning, SLICE_MS};
use crate::jobs::files::answer_files;
use crate::jobs::{Answer, Job, Reply, Request};
use gloo_worker::{HandlerId, Worker, WorkerScope};

/// What a worker does with each job.
pub trait Doing: 'static {
    /// The answer to `job`.
    fn answer(job: &Job) -> Answer;

    /// A job done in slices (the search), started; `None` for a job answered at once.
    fn start(_job: &Job) -> Option<Result<Tuning, Answer>> {
        None
    }

    /// One slice of a search this worker started. Only the engine's worker starts any, so that
    /// the files worker's wasm carries no simulation.
    fn slice(_tuning: &mut Tuning) -> Answer {
        Answer::Stopped
    }
}

/// The engine's runs (`jobs::engine::answer`) and searches ([`Tuning`]).
pub struct Runs;

impl Doing for Runs {
    fn answer(job: &Job) -> Answer {
        answer(job, &worker_now)
    }

    fn start(job: &Job) -> Option<Result<Tuning, Answer>> {
        Tuning::start(job)
    }

    fn slice(tuning: &mut Tuning) -> Answer {
        tuning.slice(SLICE_MS, &worker_now)
    }
}

/// A cluster's files (`jobs::files::answer_files`).
pub struct Files;

impl Doing for Files {
    fn answer(job: &Job) -> Answer {
        answer_files(job)
    }
}

/// A worker that answers each request in turn, as `D` does, and runs at most one search in
/// slices (who asked, the job's number, the search).
pub struct JobWorker<D: Doing> {
    tuning: Option<(HandlerId, u32, Tuning)>,
    doing: std::marker::PhantomData<D>,
}

/// The engine's worker (`kubelife-worker`).
pub type EngineWorker = JobWorker<Runs>;
/// The files worker (`kubelife-files`).
pub type FilesWorker = JobWorker<Files>;

impl<D: Doing> Worker for JobWorker<D> {
    type Message = ();
    type Input = Request;
    type Output = Reply;

    fn create(_scope: &WorkerScope<Self>) -> Self {
        JobWorker {
            tuning: None,
            doing: std::marker::PhantomData,
        }
    }

    /// One slice of the search, then its progress (and the next slice, after the worker has read
    /// its messages) or what it found.
    fn update(&mut self, scope: &WorkerScope<Self>, _msg: ()) {
        let Some((who, id, tuning)) = self.tuning.as_mut() else {
            return;
        };
        let start = worker_now();
        let answer = D::slice(tuning);
        let (who, id, last) = (*who, *id, answer.is_last());
        reply(scope, who, id, answer, start);
        if last {
            self.tuning = None;
        } else {
            next_slice(scope);
        }
    }

    fn received(&mut self, scope: &WorkerScope<Self>, req: Request, who: HandlerId) {
        let start = worker_now();
        let started = D::start(&req.job);
        if matches!(req.job, Job::StopTune) || matches!(started, Some(Ok(_))) {
            // A new search or a stop ends the one under way.
            if let Some((was, id, _)) = self.tuning.take() {
                reply(scope, was, id, Answer::Stopped, start);
            }
        }
        match started {
            Some(Ok(tuning)) => {
                self.tuning = Some((who, req.id, tuning));
                next_slice(scope);
            }
            Some(Err(why)) => reply(scope, who, req.id, why, start),
            None if matches!(req.job, Job::StopTune) => reply(scope, who, req.id, Answer::Stopped, start),
            None => reply(scope, who, req.id, D::answer(&req.job), start),
        }
    }
}

fn reply<D: Doing>(scope: &WorkerScope<JobWorker<D>>, who: HandlerId, id: u32, answer: Answer, start: f64) {
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
