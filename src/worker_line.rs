//! Lines to the workers for one-off jobs: the Import panel's reading of files and the Export
//! panel's configuration go to the files worker (`kubelife-files`); the budget script's
//! measurements go to a second instance of the engine's worker, so that they never race the
//! page's own runs (`bridge`), and the Tune panel's search to a third, which answers it several
//! times (`listen`). Each line is opened the first time a job is sent to it, so a page
//! that never imports, exports or measures never fetches those. Jobs are answered in the order
//! sent.

use crate::bridge::WORKER_SCRIPT;
use crate::jobs::{Doer, EngineJob, FilesJob, Reply, Request, Work};
use crate::worker::{EngineWorker, FilesWorker};
use gloo_worker::Spawnable;
use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsValue;
use yew::prelude::*;

/// Where the files worker's script is, beside the page.
pub const FILES_SCRIPT: &str = "./kubelife-files.js";

/// A job the page can send, with the worker it opens for it.
pub trait Sent: Work {
    /// Opens a line to a new instance of the worker that does these jobs, whose replies go to
    /// `on_reply`.
    fn open(on_reply: impl Fn(Reply<Self::Answer>) + 'static) -> Box<dyn Fn(Request<Self>)>;
}

impl Sent for EngineJob {
    fn open(on_reply: impl Fn(Reply<Self::Answer>) + 'static) -> Box<dyn Fn(Request<Self>)> {
        let bridge = EngineWorker::spawner().callback(on_reply).spawn(WORKER_SCRIPT);
        Box::new(move |r| bridge.send(r))
    }
}

impl Sent for FilesJob {
    fn open(on_reply: impl Fn(Reply<Self::Answer>) + 'static) -> Box<dyn Fn(Request<Self>)> {
        let bridge = FilesWorker::spawner().callback(on_reply).spawn(FILES_SCRIPT);
        Box::new(move |r| bridge.send(r))
    }
}

/// Who waits for the answers to a job.
type Waiting<J> = Box<dyn FnMut(<J as Work>::Answer)>;

/// A worker (its bridge's `send`) and who waits for which job's answers (a search answers
/// several times: its progress, then what it found).
struct Line<J: Work> {
    send: Box<dyn Fn(Request<J>)>,
    next_id: u32,
    /// By job id; a few at most, so a list (the page then carries no ordered map per job type).
    waiting: Vec<(u32, Waiting<J>)>,
}

thread_local! {
    /// Each open line, a `Line` of its worker's jobs (three at most).
    static LINES: RefCell<Vec<(Doer, Box<dyn Any>)>> = const { RefCell::new(Vec::new()) };
}

/// Whether `doer`'s line is open.
fn is_open(doer: Doer) -> bool {
    LINES.with(|l| l.borrow().iter().any(|(d, _)| *d == doer))
}

/// Calls `f` with `doer`'s line, if it is open.
fn with_line<J: Work, R>(doer: Doer, f: impl FnOnce(&mut Line<J>) -> R) -> Option<R> {
    LINES.with(|l| {
        l.borrow_mut()
            .iter_mut()
            .find(|(d, _)| *d == doer)
            .and_then(|(_, l)| l.downcast_mut::<Line<J>>())
            .map(f)
    })
}

/// Sends `job` to the worker that does it and calls `then` with its answer. The first job opens
/// the line in a task of its own, so that a panel asking during the page's first render does not
/// hold that render up.
pub fn send<J: Sent>(job: J, then: impl FnOnce(J::Answer) + 'static) {
    let mut then = Some(then);
    listen(job, move |a| {
        if let Some(then) = then.take() {
            then(a);
        }
    });
}

/// Sends `job` and calls `each` with every answer to it (a search's progress, then its result).
pub fn listen<J: Sent>(job: J, each: impl FnMut(J::Answer) + 'static) {
    if is_open(job.doer()) {
        send_now(job, each);
    } else {
        gloo_timers::callback::Timeout::new(0, move || send_now(job, each)).forget();
    }
}

fn send_now<J: Sent>(job: J, then: impl FnMut(J::Answer) + 'static) {
    let doer = job.doer();
    if !is_open(doer) {
        let line: Box<dyn Any> = Box::new(open::<J>(doer));
        LINES.with(|l| l.borrow_mut().push((doer, line)));
    }
    with_line::<J, _>(doer, |line| {
        line.next_id = line.next_id.wrapping_add(1);
        let id = line.next_id;
        line.waiting.push((id, Box::new(then)));
        (line.send)(Request { id, job });
    });
}

fn open<J: Sent>(doer: Doer) -> Line<J> {
    let on_reply = move |reply: Reply<J::Answer>| {
        let then = with_line::<J, _>(doer, |l| {
            let at = l.waiting.iter().position(|(id, _)| *id == reply.id)?;
            Some(l.waiting.swap_remove(at).1)
        });
        let then = then.flatten();
        if let Some(mut then) = then {
            let last = J::is_last(&reply.answer);
            then(reply.answer);
            if !last {
                with_line::<J, _>(doer, |l| l.waiting.push((reply.id, then)));
            }
        }
    };
    Line {
        send: J::open(on_reply),
        next_id: 0,
        waiting: Vec::new(),
    }
}

/// Sends `job` and waits for its answer (`None` if the page is going away).
pub async fn ask<J: Sent>(job: J) -> Option<J::Answer> {
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
pub struct Answered<A> {
    /// The answer.
    pub answer: Rc<A>,
    /// Whether it answers the newest job (false while a newer one is under way).
    pub current: bool,
}

/// The answer to `job`, once it is back; while a newer job is under way the last answer stays,
/// not `current`. `None` asks nothing.
#[hook]
pub fn use_worker_job<J: Sent>(job: Option<J>) -> Option<Answered<J::Answer>> {
    let answer = use_state(|| None::<(J, Rc<J::Answer>)>);
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
