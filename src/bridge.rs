//! The page's side of the engine's Web Worker, as the named hook [`use_engine`]: it sends the runs
//! the page wants ([`crate::model::Wants`]) and hands back what arrives. At most one job is with the
//! worker at a time and at most one more waits per kind (side A, side B, spreads), the newest; a
//! run superseded while under way is dropped, so dragging a slider on 5,000 nodes never piles up
//! work, and the last result stays on screen meanwhile.

use crate::explain::milestones;
use crate::i18n::{Lang, Part};
use crate::jobs::{EngineAnswer, EngineJob, Reply, Request};
use crate::model::{aggregate, run_lanes, Laid, Prepared, Run, Wants};
use crate::replay::Lane;
use crate::worker::EngineWorker;
use gloo_worker::{Spawnable, WorkerBridge};
use kubelife_engine::{Config, Distribution, Outcome};
use kubelife_figures::aggregate::Aggregate;
use kubelife_figures::spread::spread;
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use yew::prelude::*;

/// Where the worker's script is, beside the page (Trunk names it after the binary).
pub const WORKER_SCRIPT: &str = "./kubelife-worker.js";
/// How many seeds the distribution view runs.
pub const SPREAD_RUNS: u32 = 200;

/// Which of the page's runs a job is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Slot {
    /// Side A.
    A,
    /// Compare side B.
    B,
    /// Spreads over seeds.
    Spreads,
}

/// A job the page asked for, with the settings it is about, resolved once when they changed
/// (`model::prepare_after`): the worker runs that configuration, and its answer is laid out
/// against it.
#[derive(Debug, Clone, PartialEq)]
pub struct Asked {
    /// Which run.
    pub slot: Slot,
    /// Side A's (or the only) settings.
    pub a: Rc<Prepared>,
    /// Side B's settings, for spreads.
    pub b: Option<Rc<Prepared>>,
}

impl Asked {
    /// The job that answers this.
    pub fn job(&self) -> EngineJob {
        match self.slot {
            Slot::A | Slot::B => EngineJob::run(Config::clone(&self.a.cfg)),
            Slot::Spreads => EngineJob::spreads(
                Config::clone(&self.a.cfg),
                self.b.as_ref().map(|b| Config::clone(&b.cfg)),
                SPREAD_RUNS,
            ),
        }
    }
}

/// A finished job: what was asked, and its answer read and laid out for the page.
pub struct Arrived {
    /// What was asked.
    pub asked: Asked,
    /// The answer.
    pub landed: Landed,
}

/// A worker's answer as the page uses it.
pub enum Landed {
    /// Side A's run, laid out once (lanes, counts over time, bars, milestones).
    A(Rc<Run>),
    /// Side B's run, laid out as side A's.
    B(Rc<Run>),
    /// The spreads over seeds of A and B.
    Spreads(Box<(Distribution, Option<Distribution>)>),
}

/// The jobs of one page and the worker that does them.
#[derive(Default)]
struct Queue {
    bridge: Option<WorkerBridge<EngineWorker>>,
    next_id: u32,
    /// The job with the worker.
    busy: Option<(u32, Asked)>,
    /// The newest job per slot not yet sent, by `Slot as usize` (an array: the page then
    /// carries no ordered map for three slots).
    waiting: [Option<Asked>; 3],
    /// The last job asked per slot, so that a repeated want is not sent twice.
    last: [Option<Asked>; 3],
    /// The page's language, whose texts off the first view's path an answer waits for.
    lang: Lang,
}

impl Queue {
    /// Queues what `wants` asks and was not asked already.
    fn want(&mut self, wants: &Wants) {
        let mut put = |slot, a: &Option<Rc<Prepared>>, b: Option<Rc<Prepared>>| {
            let i = slot as usize;
            let Some(a) = a.clone() else {
                (self.last[i], self.waiting[i]) = (None, None);
                return;
            };
            let asked = Asked { slot, a, b };
            if self.last[i].as_ref() != Some(&asked) {
                self.last[i] = Some(asked.clone());
                self.waiting[i] = Some(asked);
            }
        };
        put(Slot::A, &wants.a, None);
        put(Slot::B, &wants.b, None);
        let (a, b) = wants.spreads.clone().map_or((None, None), |(a, b)| (Some(a), b));
        put(Slot::Spreads, &a, b);
    }

    /// Whether a newer job of `slot` is with the worker or waits for it.
    fn superseded(&self, slot: Slot) -> bool {
        self.waiting[slot as usize].is_some() || self.busy.as_ref().is_some_and(|(_, b)| b.slot == slot)
    }

    /// Sends the next waiting job if the worker is there (it is spawned a moment after the first
    /// render) and free.
    fn pump(&mut self) {
        let Some(bridge) = self.bridge.as_ref().filter(|_| self.busy.is_none()) else {
            return;
        };
        // The first slot waiting, in `Slot`'s order.
        let Some(asked) = self.waiting.iter_mut().find_map(Option::take) else {
            return;
        };
        let job = asked.job();
        self.next_id = self.next_id.wrapping_add(1);
        let id = self.next_id;
        bridge.send(Request { id, job });
        self.busy = Some((id, asked));
    }
}

/// Sends the runs `wants` asks for to the engine's worker and calls `onarrive` with each answer
/// that is still wanted, once `lang`'s texts off the first view's path are at hand (the causes
/// of every run but the default one are among them, `Part::Later`). Returns nothing; the model
/// knows what it is waiting for.
#[hook]
pub fn use_engine(wants: Wants, lang: Lang, onarrive: Callback<Arrived>) {
    let queue = use_mut_ref(Queue::default);
    queue.borrow_mut().lang = lang;
    {
        let queue = queue.clone();
        let now = wants != Wants::default();
        use_effect_with((), move |_| {
            let spawn = move || {
                let weak = Rc::downgrade(&queue);
                let bridge = EngineWorker::spawner()
                    .callback(move |reply| {
                        if let Some(q) = weak.upgrade() {
                            on_reply(&q, reply, &onarrive);
                        }
                    })
                    .spawn(WORKER_SCRIPT);
                queue.borrow_mut().bridge = Some(bridge);
                queue.borrow_mut().pump();
            };
            // A page that opens on a run made ahead (`first_run`) fetches the worker only after
            // its first render, in a task of its own; one that waits for a run fetches it at once.
            if now {
                spawn();
            } else {
                gloo_timers::callback::Timeout::new(0, spawn).forget();
            }
        });
    }
    use_effect_with(wants, move |wants| {
        let mut q = queue.borrow_mut();
        q.want(wants);
        q.pump();
    });
}

/// Hands a reply on unless a newer job of its slot waits, then sends the next job.
///
/// A 5,000-node run is several MB of events: receiving them, reading them, counting them over
/// time, laying out the lanes and drawing are tasks of their own on the page's thread, one after
/// the other (each a `setTimeout` apart), so that none blocks the page for long.
fn on_reply(queue: &Rc<RefCell<Queue>>, reply: Reply<EngineAnswer>, onarrive: &Callback<Arrived>) {
    let done = {
        let mut q = queue.borrow_mut();
        let done = q.busy.take_if(|(id, _)| *id == reply.id);
        q.pump();
        done.filter(|(_, asked)| !q.superseded(asked.slot))
    };
    let Some((_, asked)) = done else { return };
    let landed = match reply.answer {
        EngineAnswer::Run(bytes) => Stage::Received(bytes.0),
        EngineAnswer::Spreads(pair) => Stage::Ready(Landed::Spreads(pair)),
        // The page's runs never ask for these (`worker_line` does).
        EngineAnswer::Calibrated(_)
        | EngineAnswer::TuneProgress { .. }
        | EngineAnswer::Tuned(_)
        | EngineAnswer::TuneRefused(_)
        | EngineAnswer::Stopped => return,
    };
    // A run's causes are texts fetched once the page is live: it is laid out once they are in
    // (at once when they are), so that it never shows a key.
    let (weak, onarrive) = (Rc::downgrade(queue), onarrive.clone());
    let lang = queue.borrow().lang;
    crate::browser::with_catalogue(lang, Part::Later, move || later(weak, asked, landed, onarrive));
}

/// How long one task reads events for, ms: a 5,000-node run's 90,000 events take about 60 ms in
/// Chromium on a quiet machine, several times that on a busy one, so the reading is sliced by
/// time, not by count.
const READ_MS_PER_TASK: f64 = 12.0;
/// How many events are read between looks at the clock.
const READ_PER_LOOK: usize = 1_000;

/// Says on the console that a run could not be read; the page keeps what it shows.
fn unreadable(why: &str) {
    web_sys::console::error_1(&format!("kubelife could not read a run from its worker: {why}").into());
}

/// Where an answer is on its way to the page.
enum Stage {
    /// Received in the engine's wire form.
    Received(Vec<u8>),
    /// Being read, [`READ_PER_TASK`] events a task.
    Reading(Box<kubelife_engine::wire::Decoder>),
    /// Read, not yet laid out.
    Read(Box<Outcome>),
    /// Read and counted over time, the rest not yet laid out.
    Counted(Box<(Prepared, Outcome, Aggregate)>),
    /// Counted, with the timeline's lanes.
    Laned(Box<(Prepared, Outcome, Aggregate, Vec<Lane>)>),
    /// Counted, with the lanes, the milestones and the spread: the rest is laid out in one task,
    /// and shown in the next.
    Marked(Box<(Prepared, Outcome, Aggregate, Laid)>),
    /// Ready to show.
    Ready(Landed),
}

/// Does the next stage of `stage` in a task of its own, unless a newer job of its slot was sent
/// or waits meanwhile (a slider dragged on): then its answer is dropped half-way, since the page
/// would show it only until the newer one arrives.
fn later(queue: Weak<RefCell<Queue>>, asked: Asked, stage: Stage, onarrive: Callback<Arrived>) {
    gloo_timers::callback::Timeout::new(0, move || {
        if queue.upgrade().is_none_or(|q| q.borrow().superseded(asked.slot)) {
            return;
        }
        // Shown in a task of its own: the page's render is the longest part of the last stage.
        if let Stage::Ready(landed) = stage {
            return onarrive.emit(Arrived { asked, landed });
        }
        match step(&asked, stage, &js_sys::Date::now) {
            Ok(next) => later(queue, asked, next, onarrive),
            Err(why) => unreadable(&why),
        }
    })
    .forget();
}

/// One stage of an answer's way to the page: what the task of [`later`] does. `now` is the
/// page's clock, ms, which slices the reading.
fn step(asked: &Asked, stage: Stage, now: &dyn Fn() -> f64) -> Result<Stage, String> {
    Ok(match stage {
        Stage::Received(bytes) => Stage::Reading(Box::new(kubelife_engine::wire::Decoder::new(bytes)?)),
        Stage::Reading(mut d) => {
            let until = now() + READ_MS_PER_TASK;
            loop {
                if d.step(READ_PER_LOOK)? {
                    break Stage::Read(Box::new(d.finish()?));
                }
                if now() >= until {
                    break Stage::Reading(d);
                }
            }
        }
        Stage::Read(outcome) => {
            let outcome = *outcome;
            // The settings as resolved when asked: nothing is resolved again.
            let p = Prepared::clone(&asked.a);
            let counted = aggregate(&p, &outcome);
            Stage::Counted(Box::new((p, outcome, counted)))
        }
        Stage::Counted(parts) => {
            let (p, outcome, counted) = *parts;
            let lanes = run_lanes(&p, &outcome);
            Stage::Laned(Box::new((p, outcome, counted, lanes)))
        }
        Stage::Laned(parts) => {
            let (p, outcome, counted, lanes) = *parts;
            let milestones = milestones(&outcome);
            let spread = spread(&outcome, &counted);
            Stage::Marked(Box::new((
                p,
                outcome,
                counted,
                Laid {
                    lanes,
                    milestones,
                    spread,
                },
            )))
        }
        Stage::Marked(parts) => {
            let (p, outcome, counted, laid) = *parts;
            let run = Rc::new(Run::from_laid(p, outcome, counted, laid));
            Stage::Ready(match asked.slot {
                Slot::B => Landed::B(run),
                _ => Landed::A(run),
            })
        }
        Stage::Ready(landed) => Stage::Ready(landed),
    })
}

/// A run's answer (the engine's wire form) taken through every stage at once, as the page's
/// tasks take it one stage each: for tests and tools, which have no event loop.
pub fn landed_now(asked: &Asked, answer: Vec<u8>) -> Result<Landed, String> {
    let mut stage = Stage::Received(answer);
    loop {
        match step(asked, stage, &|| 0.0)? {
            Stage::Ready(landed) => return Ok(landed),
            next => stage = next,
        }
    }
}
