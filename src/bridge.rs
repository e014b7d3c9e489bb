//! The page's side of the engine's Web Worker, as the named hook [`use_engine`]: it sends the runs
//! the page wants ([`crate::model::Wants`]) and hands back what arrives. At most one job is with the
//! worker at a time and at most one more waits per kind (side A, side B, spreads), the newest; a
//! run superseded while under way is dropped, so dragging a slider on 5,000 nodes never piles up
//! work, and the last result stays on screen meanwhile.

use crate::model::Wants;
use crate::settings::Settings;
use crate::worker::{Answer, EngineWorker, Job, Request};
use gloo_worker::{Spawnable, WorkerBridge};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
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

/// A job the page asked for, with the settings it is about.
#[derive(Debug, Clone, PartialEq)]
pub struct Asked {
    /// Which run.
    pub slot: Slot,
    /// Side A's (or the only) settings.
    pub settings: Settings,
    /// Side B's settings, for spreads.
    pub b: Option<Settings>,
}

/// A finished job: what was asked and the worker's answer.
#[derive(Debug, Clone)]
pub struct Arrived {
    /// What was asked.
    pub asked: Asked,
    /// The answer.
    pub answer: Answer,
}

/// The jobs of one page and the worker that does them.
#[derive(Default)]
struct Queue {
    bridge: Option<WorkerBridge<EngineWorker>>,
    next_id: u32,
    /// The job with the worker.
    busy: Option<(u32, Asked)>,
    /// The newest job per slot not yet sent.
    waiting: BTreeMap<Slot, Asked>,
    /// The last job asked per slot, so that a repeated want is not sent twice.
    last: BTreeMap<Slot, Asked>,
}

impl Queue {
    /// Queues what `wants` asks and was not asked already.
    fn want(&mut self, wants: &Wants) {
        let mut put = |slot, settings: &Option<Settings>, b: Option<Settings>| {
            let Some(settings) = settings.clone() else {
                self.last.remove(&slot);
                self.waiting.remove(&slot);
                return;
            };
            let asked = Asked { slot, settings, b };
            if self.last.get(&slot) != Some(&asked) {
                self.last.insert(slot, asked.clone());
                self.waiting.insert(slot, asked);
            }
        };
        put(Slot::A, &wants.a, None);
        put(Slot::B, &wants.b, None);
        let (a, b) = wants.spreads.clone().map_or((None, None), |(a, b)| (Some(a), b));
        put(Slot::Spreads, &a, b);
    }

    /// Sends the next waiting job if the worker is free.
    fn pump(&mut self) {
        if self.busy.is_some() {
            return;
        }
        let Some(slot) = self.waiting.keys().next().copied() else {
            return;
        };
        let Some(asked) = self.waiting.remove(&slot) else {
            return;
        };
        let json = |s: &Settings| serde_json::to_string(s).expect("settings always serialize");
        let job = match slot {
            Slot::A | Slot::B => Job::Run(json(&asked.settings)),
            Slot::Spreads => Job::Spreads {
                a: json(&asked.settings),
                b: asked.b.as_ref().map(json),
                runs: SPREAD_RUNS,
            },
        };
        self.next_id = self.next_id.wrapping_add(1);
        let id = self.next_id;
        if let Some(bridge) = &self.bridge {
            bridge.send(Request { id, job });
            self.busy = Some((id, asked));
        }
    }
}

/// Sends the runs `wants` asks for to the engine's worker and calls `onarrive` with each answer
/// that is still wanted. Returns nothing; the model knows what it is waiting for.
#[hook]
pub fn use_engine(wants: Wants, onarrive: Callback<Arrived>) {
    let queue = use_mut_ref(Queue::default);
    {
        let queue = queue.clone();
        use_effect_with((), move |_| {
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
        });
    }
    use_effect_with(wants, move |wants| {
        let mut q = queue.borrow_mut();
        q.want(wants);
        q.pump();
    });
}

/// Hands a reply on unless a newer job of its slot waits, then sends the next job.
fn on_reply(queue: &Rc<RefCell<Queue>>, reply: crate::worker::Reply, onarrive: &Callback<Arrived>) {
    let done = {
        let mut q = queue.borrow_mut();
        let done = q.busy.take_if(|(id, _)| *id == reply.id);
        q.pump();
        done.filter(|(_, asked)| !q.waiting.contains_key(&asked.slot))
    };
    if let Answer::Failed(why) = &reply.answer {
        web_sys::console::error_1(&format!("kubelife's engine worker: {why}").into());
    }
    if let Some((_, asked)) = done {
        onarrive.emit(Arrived {
            asked,
            answer: reply.answer,
        });
    }
}
