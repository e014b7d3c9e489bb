//! Lines to the workers for one-off jobs: the Import panel's reading of files and the Export
//! panel's configuration go to the files worker (`kubelife-files`); the budget script's
//! measurements go to a second instance of the engine's worker, so that they never race the
//! page's own runs (`bridge`), and the Tune panel's search to a third, which answers it several
//! times (`listen`). Each line is opened the first time a job is sent to it, so a page
//! that never imports, exports or measures never fetches those. Jobs are answered in the order
//! sent.

use crate::bridge::WORKER_SCRIPT;
use crate::jobs::{Answer, Doer, Job, Reply, Request};
use crate::worker::{EngineWorker, FilesWorker};
use gloo_worker::Spawnable;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use wasm_bindgen::JsValue;
use yew::prelude::*;

/// Where the files worker's script is, beside the page.
pub const FILES_SCRIPT: &str = "./kubelife-files.js";

/// A worker (its bridge's `send`) and who waits for which job's answers (a search answers
/// several times: its progress, then what it found).
struct Line {
    send: Box<dyn Fn(Request)>,
    next_id: u32,
    waiting: BTreeMap<u32, Box<dyn FnMut(Answer)>>,
}

thread_local! {
    static LINES: RefCell<BTreeMap<Doer, Line>> = const { RefCell::new(BTreeMap::new()) };
}

/// Sends `job` to the worker that does it and calls `then` with its answer. The first job opens
/// the line in a task of its own, so that a panel asking during the page's first render does not
/// hold that render up.
pub fn send(job: Job, then: impl FnOnce(Answer) + 'static) {
    let mut then = Some(then);
    listen(job, move |a| {
        if let Some(then) = then.take() {
            then(a);
        }
    });
}

/// Sends `job` and calls `each` with every answer to it (a search's progress, then its result).
pub fn listen(job: Job, each: impl FnMut(Answer) + 'static) {
    if LINES.with(|lines| lines.borrow().contains_key(&job.doer())) {
        send_now(job, each);
    } else {
        gloo_timers::callback::Timeout::new(0, move || send_now(job, each)).forget();
    }
}

fn send_now(job: Job, then: impl FnMut(Answer) + 'static) {
    let doer = job.doer();
    LINES.with(|lines| {
        let mut lines = lines.borrow_mut();
        let line = lines.entry(doer).or_insert_with(|| open(doer));
        line.next_id = line.next_id.wrapping_add(1);
        let id = line.next_id;
        line.waiting.insert(id, Box::new(then));
        (line.send)(Request { id, job });
    });
}

fn open(doer: Doer) -> Line {
    let on_reply = move |reply: Reply| {
        let then = LINES.with(|l| l.borrow_mut().get_mut(&doer).and_then(|l| l.waiting.remove(&reply.id)));
        if let Some(mut then) = then {
            let last = reply.answer.is_last();
            then(reply.answer);
            if !last {
                LINES.with(|l| l.borrow_mut().get_mut(&doer).map(|l| l.waiting.insert(reply.id, then)));
            }
        }
    };
    let send: Box<dyn Fn(Request)> = match doer {
        Doer::Engine | Doer::Tune => {
            let bridge = EngineWorker::spawner().callback(on_reply).spawn(WORKER_SCRIPT);
            Box::new(move |r| bridge.send(r))
        }
        Doer::Files => {
            let bridge = FilesWorker::spawner().callback(on_reply).spawn(FILES_SCRIPT);
            Box::new(move |r| bridge.send(r))
        }
    };
    Line {
        send,
        next_id: 0,
        waiting: BTreeMap::new(),
    }
}

/// Sends `job` and waits for its answer (`None` if the page is going away).
pub async fn ask(job: Job) -> Option<Answer> {
    let answer = Rc::new(RefCell::new(None));
    let mut job = Some(job);
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let answer = answer.clone();
        if let Some(job) = job.take() {
            send(job, move |a| {
                *answer.borrow_mut() = Some(a);
                let _ = resolve.call0(&JsValue::NULL);
            });
        }
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    let answer = answer.borrow_mut().take();
    answer
}

/// An answer a hook holds, and whether it answers the job asked last.
#[derive(Clone, PartialEq)]
pub struct Answered {
    /// The answer.
    pub answer: Rc<Answer>,
    /// Whether it answers the newest job (false while a newer one is under way).
    pub current: bool,
}

/// The answer to `job`, once it is back; while a newer job is under way the last answer stays,
/// not `current`. `None` asks nothing.
#[hook]
pub fn use_worker_job(job: Option<Job>) -> Option<Answered> {
    let answer = use_state(|| None::<(Job, Rc<Answer>)>);
    {
        let set = answer.setter();
        use_effect_with(job.clone(), move |job| {
            if let Some(job) = job.clone() {
                let asked = job.clone();
                send(job, move |a| set.set(Some((asked, Rc::new(a)))));
            }
        });
    }
    (*answer).as_ref().map(|(answered, a)| Answered {
        answer: a.clone(),
        current: job.as_ref() == Some(answered),
    })
}
