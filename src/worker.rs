//! The engine's Web Worker: the page sends it settings and gets back runs, so that a run of
//! 5,000 nodes never blocks the page. The worker is its own wasm (the `kubelife-worker` binary,
//! `src/worker_main.rs`, built by Trunk from `<link data-trunk rel="rust" data-type="worker">`);
//! the simulation lives only there. The files worker (`kubelife-files`) reads and writes files.
//!
//! Messages travel with `gloo-worker` (its bincode codec): a run's resolved configuration (the
//! page resolves each change of its settings once, and the worker runs what the page resolved),
//! spreads as themselves, a run in the engine's wire form (`kubelife_engine::wire`), which keeps every cause's key and
//! arguments. No JSON crosses, so the page's wasm carries no JSON code of its own.

use crate::settings::Settings;
use crate::tune::{Ask, Found};
use gloo_worker::{HandlerId, Worker, WorkerScope};
use kubelife_engine::{distribution, Cause, Config, Distribution, Outcome};
use serde::{Deserialize, Serialize};

pub use crate::model::{run_config, HEARTBEAT_EVENTS_UP_TO};

/// Something for the worker to do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Job {
    /// One run of this configuration (settings the page resolved; see [`Job::run`]).
    Run(Box<Config>),
    /// Milestones over `runs` seeds for A and, when comparing, B.
    Spreads {
        /// Side A's configuration.
        a: Box<Config>,
        /// Side B's.
        b: Option<Box<Config>>,
        /// How many seeds.
        runs: u32,
    },
    /// Read a cluster's files (name, contents) with the import `kubelife import` calls, checking
    /// against `base`'s version where no file names one, and apply what they say to `base` as the
    /// Import panel does. The contents are bytes, so that the import tells their encoding.
    Import {
        /// The files, in the order added.
        files: Vec<(String, Bytes)>,
        /// The files over the import's size limit, which the page did not read: name and size in
        /// bytes, if known (`import::limits::MAX_FILE_BYTES`).
        too_large: Vec<(String, Option<u64>)>,
        /// The settings the import applies to.
        base: Box<Settings>,
    },
    /// The configuration these settings stand for, in every export format (`Format::ALL`'s
    /// order).
    Export(Box<Settings>),
    /// The scenario JSON (the CLI's input) of these settings.
    ScenarioJson(Box<Settings>),
    /// The Tune panel's search on this configuration: answered with its progress after each
    /// slice, then what it found ([`Tuning`]).
    Tune(Box<Config>, Box<Ask>),
    /// Stops the search under way: it and this job are answered [`Answer::Stopped`].
    StopTune,
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
    /// The spreads of A and B.
    Spreads(Box<(Distribution, Option<Distribution>)>),
    /// The mean time of one calibration run, ms.
    Calibrated(f64),
    /// A search's progress: candidates measured, of how many.
    TuneProgress {
        /// Measured.
        done: u32,
        /// In all.
        total: u32,
    },
    /// What the search found.
    Tuned(Box<Found>),
    /// The search cannot run: why.
    TuneRefused(Bytes),
    /// The search was stopped.
    Stopped,
    /// What the import read.
    Imported {
        /// The settings with the import applied.
        settings: Box<Settings>,
        /// The engine's report: its entries as messages tagged by their kind's position in
        /// `EntryKind::ALL` (`wire::encode_messages`).
        report: Bytes,
        /// What the page cannot show of the import, as messages.
        page: Bytes,
    },
    /// Each export format's YAML and its notes (as messages), in `Format::ALL`'s order.
    Exported(Vec<(String, Bytes)>),
    /// A text (the scenario JSON).
    Text(String),
    /// The job is not this worker's (a message for the console; the page keeps its last result).
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

/// `cfg` as a job carries it: without its warnings, which the codec skips.
fn sent(cfg: &Config) -> Config {
    Config {
        warnings: Vec::new(),
        ..cfg.clone()
    }
}

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

/// Which worker does a job: runs in the engine's, reading and writing a cluster's files in the
/// files worker, so that neither wasm carries the other's code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Doer {
    /// The engine's worker (`kubelife-worker`): runs, spreads, calibration.
    Engine,
    /// The files worker (`kubelife-files`): import, export, the scenario JSON.
    Files,
    /// A second instance of the engine's worker for the Tune panel's search, so that a search
    /// never holds up the page's runs.
    Tune,
}

impl Job {
    /// A run of `cfg`. Its warnings stay behind: a run does not read them, and the page has them.
    pub fn run(cfg: &Config) -> Job {
        Job::Run(Box::new(sent(cfg)))
    }

    /// The spreads over `runs` seeds of `a` and, when comparing, `b`.
    pub fn spreads(a: &Config, b: Option<&Config>, runs: u32) -> Job {
        Job::Spreads {
            a: Box::new(sent(a)),
            b: b.map(|b| Box::new(sent(b))),
            runs,
        }
    }

    /// The Tune panel's search for `ask` on `cfg` (its warnings stay behind, as a run's do).
    pub fn tune(cfg: &Config, ask: Ask) -> Job {
        Job::Tune(Box::new(sent(cfg)), Box::new(ask))
    }

    /// Which worker does this job.
    pub fn doer(&self) -> Doer {
        match self {
            Job::Run(_) | Job::Spreads { .. } | Job::Calibrate { .. } => Doer::Engine,
            Job::Import { .. } | Job::Export(_) | Job::ScenarioJson(_) => Doer::Files,
            Job::Tune(..) | Job::StopTune => Doer::Tune,
        }
    }
}

/// Does one job of the files worker (others are refused).
pub fn answer_files(job: &Job) -> Answer {
    match job {
        Job::Import { files, too_large, base } => imported(files, too_large, base),
        Job::Export(s) => exported(s),
        Job::ScenarioJson(s) => Answer::Text(s.scenario().to_json()),
        _ => Answer::Failed(format!("the files worker does not do {:?} jobs", job.doer())),
    }
}

/// Does one job of the engine's worker (others are refused); pure apart from `now` (a clock in
/// ms, for calibration only).
pub fn answer(job: &Job, now: &dyn Fn() -> f64) -> Answer {
    match job {
        Job::Run(cfg) => Answer::Run(Bytes(kubelife_engine::wire::encode(&run_config(cfg)))),
        Job::Spreads { a, b, runs } => Answer::Spreads(Box::new(spreads(a, b.as_deref(), *runs))),
        Job::Calibrate { nodes, repeats } => {
            let start = now();
            for seed in 0..(*repeats).max(1) {
                let sum = kubelife_engine::calibration::heartbeat_floor(*nodes as usize, 15 * 60_000, u64::from(seed));
                std::hint::black_box(sum);
            }
            Answer::Calibrated((now() - start) / f64::from((*repeats).max(1)))
        }
        _ => Answer::Failed(format!("the engine's worker does not do {:?} jobs", job.doer())),
    }
}

/// Reads `files` with the engine's import as `kubelife import` does, checking against `base`'s
/// version where no file names one, and applies them to `base`, with the engine's report and the
/// page's own lines, every text taken from a file escaped (`shown::escaped`).
fn imported(files: &[(String, Bytes)], too_large: &[(String, Option<u64>)], base: &Settings) -> Answer {
    use kubelife_engine::import::limits::too_large as refused;
    use kubelife_engine::import::shown::escaped;
    use kubelife_engine::import::{import, EntryKind, Reader};
    use kubelife_engine::wire::encode_messages;
    let refs: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), b.0.as_slice())).collect();
    let read = import(&refs, Reader::Page(kubelife_engine::Version { minor: base.minor }));
    let (applied, page) = crate::import::settings_from_import(base, &read);
    let tag = |k: EntryKind| EntryKind::ALL.iter().position(|&x| x == k).unwrap_or_default() as u8;
    // Files over the size limit first, as `kubelife import` prints them.
    let refusals = too_large
        .iter()
        .map(|(name, size)| (tag(EntryKind::Unreadable), refused(name, *size)));
    let entries: Vec<(u8, Cause)> = refusals
        .chain(read.report.entries.iter().map(|e| (tag(e.kind), escaped(&e.cause))))
        .collect();
    let page: Vec<(u8, Cause)> = page.iter().map(|c| (0, escaped(c))).collect();
    Answer::Imported {
        settings: Box::new(applied),
        report: Bytes(encode_messages(&entries)),
        page: Bytes(encode_messages(&page)),
    }
}

/// Every export format of `s`'s configuration.
fn exported(s: &Settings) -> Answer {
    use kubelife_engine::export::{export, Format};
    let (cfg, _) = s.resolve();
    let all = Format::ALL.iter().map(|&(_, f)| {
        let e = export(&cfg, f);
        let notes: Vec<(u8, Cause)> = e.notes.into_iter().map(|c| (0, c)).collect();
        (e.yaml, Bytes(kubelife_engine::wire::encode_messages(&notes)))
    });
    Answer::Exported(all.collect())
}

/// The engine's search in slices, so that the worker reports its progress and hears a stop
/// between them.
pub struct Tuning(Option<kubelife_engine::tune::Search>);

/// How long a slice of the search runs before the worker reports and reads its messages, ms.
pub const SLICE_MS: f64 = 60.0;

impl Tuning {
    /// A search of `ask` on `cfg`, or why it cannot run (as a message).
    pub fn new(cfg: &Config, ask: &Ask) -> Result<Tuning, Answer> {
        let refused = |c: Cause| Answer::TuneRefused(Bytes(kubelife_engine::wire::encode_messages(&[(0, c)])));
        let goal = ask.goal().map_err(refused)?;
        kubelife_engine::tune::Search::new(cfg, goal)
            .map(|s| Tuning(Some(s)))
            .map_err(refused)
    }

    /// Steps the search for about `slice_ms` of `now`: its progress, or what it found once done.
    pub fn slice(&mut self, slice_ms: f64, now: &dyn Fn() -> f64) -> Answer {
        let Some(search) = self.0.as_mut() else {
            return Answer::Stopped;
        };
        let start = now();
        let mut more = true;
        while more && now() - start < slice_ms {
            more = search.step();
        }
        if more {
            return Answer::TuneProgress {
                done: search.done(),
                total: search.total(),
            };
        }
        self.0
            .take()
            .map_or(Answer::Stopped, |s| Answer::Tuned(Box::new(Found::from(s.finish()))))
    }
}

impl Answer {
    /// Whether no other answer to the same job follows (a search's progress is followed by more).
    pub fn is_last(&self) -> bool {
        !matches!(self, Answer::TuneProgress { .. })
    }
}

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

/// The engine's runs ([`answer`]) and searches ([`Tuning`]).
pub struct Runs;

impl Doing for Runs {
    fn answer(job: &Job) -> Answer {
        answer(job, &worker_now)
    }

    fn start(job: &Job) -> Option<Result<Tuning, Answer>> {
        match job {
            Job::Tune(cfg, ask) => Some(Tuning::new(cfg, ask)),
            _ => None,
        }
    }

    fn slice(tuning: &mut Tuning) -> Answer {
        tuning.slice(SLICE_MS, &worker_now)
    }
}

/// A cluster's files ([`answer_files`]).
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_job_answers_with_the_run_the_page_would_show() {
        let s = Settings::default();
        let Answer::Run(bytes) = answer(&Job::run(&s.resolve().0), &|| 0.0) else {
            panic!("a run");
        };
        let o = kubelife_engine::wire::decode(&bytes.0).expect("decodes");
        assert_eq!(o, run_settings(&s));
        // Each worker refuses the other's jobs (neither wasm carries the other's code).
        let refused = |a: Answer| matches!(a, Answer::Failed(m) if m.contains("does not do"));
        assert!(refused(answer(&Job::Export(Box::default()), &|| 0.0)));
        assert!(refused(answer_files(&Job::run(&s.resolve().0))));
    }

    #[test]
    fn an_import_job_applies_the_files_as_the_panel_did() {
        use kubelife_engine::import::{import, EntryKind, Reader};
        use kubelife_engine::wire::decode_messages;
        let text = "--node-monitor-grace-period=20s\n--pod-eviction-timeout=30s\n";
        let files = vec![("kcm.txt".to_string(), Bytes(text.as_bytes().to_vec()))];
        let base = Settings {
            nodes: 7,
            ..Settings::default()
        };
        let job = Job::Import {
            files: files.clone(),
            too_large: Vec::new(),
            base: Box::new(base.clone()),
        };
        let Answer::Imported { settings, report, page } = answer_files(&job) else {
            panic!("an import");
        };
        let read = import(
            &[("kcm.txt", text)],
            Reader::Page(kubelife_engine::Version { minor: base.minor }),
        );
        let applied = *settings;
        let (expected_settings, expected_page) = crate::import::settings_from_import(&base, &read);
        assert_eq!(applied, expected_settings);
        let expected = read.report;
        assert_ne!(applied, base, "the grace period is taken in");
        let kinds: Vec<EntryKind> = decode_messages(&report.0)
            .unwrap()
            .into_iter()
            .map(|(t, _)| EntryKind::ALL[usize::from(t)])
            .collect();
        assert_eq!(kinds, expected.entries.iter().map(|e| e.kind).collect::<Vec<_>>());
        let page: Vec<Cause> = decode_messages(&page.0).unwrap().into_iter().map(|(_, c)| c).collect();
        assert_eq!(page, expected_page);
    }

    /// What the panel shows of a hostile file: escaped, encodings told, files over the size
    /// limit named without being sent.
    #[test]
    fn an_import_job_escapes_what_it_quotes_and_names_what_it_refused() {
        use kubelife_engine::wire::decode_messages;
        let ansi = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeStatusUpdateFrequency: \"4s\\e]0;owned\\a\\e[2J\"\n";
        let utf16: Vec<u8> = [0xff, 0xfe]
            .into_iter()
            .chain(
                "kind: KubeletConfiguration\nmaxPods: 30\n"
                    .encode_utf16()
                    .flat_map(u16::to_le_bytes),
            )
            .collect();
        let job = Job::Import {
            files: vec![
                ("ansi\u{1b}[2J.yaml".to_string(), Bytes(ansi.as_bytes().to_vec())),
                ("ps.yaml".to_string(), Bytes(utf16)),
            ],
            too_large: vec![("big.yaml".to_string(), Some(3 << 30))],
            base: Box::default(),
        };
        let Answer::Imported { report, settings, .. } = answer_files(&job) else {
            panic!("an import");
        };
        let lines: Vec<String> = decode_messages(&report.0)
            .unwrap()
            .into_iter()
            .map(|(_, c)| c.english())
            .collect();
        assert!(lines[0].starts_with("big.yaml is 3 GiB"), "{lines:#?}");
        assert!(lines.iter().all(|l| !l.chars().any(char::is_control)), "{lines:#?}");
        assert!(
            lines
                .iter()
                .any(|l| l
                    .contains(r#"ansi\x1b[2J.yaml: cannot read nodeStatusUpdateFrequency "4s\x1b]0;owned\a\x1b[2J""#)),
            "{lines:#?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.contains("ps.yaml: UTF-16LE with a byte-order mark")),
            "{lines:#?}"
        );
        assert_eq!(settings.minor, Settings::default().minor);
    }

    #[test]
    fn an_export_job_gives_every_format_with_its_notes() {
        use kubelife_engine::export::{export, Format};
        let s = Settings::default();
        let Answer::Exported(all) = answer_files(&Job::Export(Box::new(s.clone()))) else {
            panic!("an export");
        };
        let (cfg, _) = s.resolve();
        assert_eq!(all.len(), Format::ALL.len());
        for ((_, f), (yaml, notes)) in Format::ALL.iter().zip(&all) {
            let e = export(&cfg, *f);
            assert_eq!(*yaml, e.yaml);
            let notes: Vec<_> = kubelife_engine::wire::decode_messages(&notes.0).unwrap();
            assert_eq!(notes.into_iter().map(|(_, c)| c).collect::<Vec<_>>(), e.notes);
        }
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
            job: Job::spreads(&s.resolve().0, Some(&Settings::default().resolve().0), 4),
        };
        let back: Request = bincode::deserialize(&bincode::serialize(&job).unwrap()).unwrap();
        assert_eq!(back, job);
        let Answer::Spreads(pair) = answer(&job.job, &|| 0.0) else {
            panic!("spreads");
        };
        let reply = Reply {
            id: 3,
            answer: Answer::Spreads(pair),
            worker_ms: 1.5,
        };
        let back: Reply = bincode::deserialize(&bincode::serialize(&reply).unwrap()).unwrap();
        assert_eq!(back, reply);
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
                Answer::TuneProgress { done, total } => progress.push((done, total)),
                Answer::Tuned(found) => break found,
                other => panic!("{other:?}"),
            }
        };
        assert!(progress.len() > 3, "{progress:?}");
        assert!(progress.windows(2).all(|w| w[0].0 <= w[1].0), "{progress:?}");
        assert!(!found.front.is_empty() && !found.candidates.is_empty());
        assert!(
            found.references.iter().any(|(name, _)| name == "defaults"),
            "{:?}",
            found.references
        );
        assert_eq!(tuning.slice(4.0, &now), Answer::Stopped, "nothing is left to step");
        // What it found crosses as the workers' codec carries it.
        let reply = Reply {
            id: 1,
            answer: Answer::Tuned(found),
            worker_ms: 0.0,
        };
        let back: Reply = bincode::deserialize(&bincode::serialize(&reply).unwrap()).unwrap();
        assert_eq!(back, reply);
        // A goal the engine refuses is answered with its reason.
        let Err(Answer::TuneRefused(why)) = Tuning::new(&cfg, &Ask { targets: vec![], ..ask }) else {
            panic!("refused");
        };
        let why = kubelife_engine::wire::decode_messages(&why.0).unwrap();
        assert_eq!(why[0].1.key, "tune.goal.no_target");
        assert_eq!(Job::StopTune.doer(), Doer::Tune);
    }

    #[test]
    fn a_scenario_job_gives_the_clis_input() {
        let s = Settings::default();
        let Answer::Text(json) = answer_files(&Job::ScenarioJson(Box::new(s.clone()))) else {
            panic!("a text");
        };
        assert_eq!(
            kubelife_engine::scenario::Scenario::from_json(&json).ok(),
            Some(s.scenario())
        );
    }
}
