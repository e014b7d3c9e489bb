//! What the page asks of its Web Workers and what they answer, and the jobs themselves, pure, so
//! that native tests run every job as a worker does. The shell's `worker` module only registers
//! the workers and carries these messages (with `gloo-worker`, its bincode codec), slicing a
//! search between timers.
//!
//! Three parts, one per wasm that links them:
//! - this module, the protocol: each worker's own jobs and answers ([`EngineJob`] and
//!   [`EngineAnswer`]; [`FilesJob`] and [`FilesAnswer`]) in a [`Request`] and a [`Reply`]. The
//!   page links all of it; each worker reads only its own jobs and writes only its own answers,
//!   so the engine's worker carries no code to read or write the page's settings and the files
//!   worker none to read a resolved configuration or write a run, a spread or a search. It calls
//!   no simulation, import or export, so the page links none.
//! - [`engine`]: the engine's worker's jobs (a run, the seeds' spreads, the calibration loop, the
//!   Tune panel's search in slices). Only the engine's worker (`kubelife-worker`) calls it.
//! - [`files`]: the files worker's jobs (import, export, the scenario JSON, a saved figure as
//!   SVG). Only the files worker (`kubelife-files`) calls it, so that the YAML parser and
//!   serializer and plotters' SVG backend are in no other wasm.
//!
//! A run's resolved configuration crosses (the page resolves each change of its settings once,
//! and the worker runs what the page resolved), spreads as themselves, a run in the engine's wire
//! form (`kubelife_engine::wire`), which keeps every cause's key and arguments. No JSON crosses,
//! so the page's wasm carries no JSON code of its own.

pub mod engine;
pub mod files;

use crate::settings::Settings;
use crate::tune::{Ask, Found};
use kubelife_engine::{Config, Distribution};
use kubelife_figures::picture::Picture;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// Something for the engine's worker (`kubelife-worker`) to do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum EngineJob {
    /// One run of this configuration (settings the page resolved; see [`EngineJob::run`]).
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
    /// The Tune panel's search on this configuration: answered with its progress after each
    /// slice, then what it found ([`engine::Tuning`]).
    Tune(Box<Config>, Box<Ask>),
    /// Stops the search under way: it and this job are answered [`EngineAnswer::Stopped`].
    StopTune,
    /// The calibration workload (`calibration::heartbeat_floor`) of `nodes` nodes, `repeats`
    /// times, for the budget script's ratios.
    Calibrate {
        /// Nodes.
        nodes: u32,
        /// Repeats.
        repeats: u32,
    },
    /// What to change in each client of this configuration to cut its errors, measured: its run
    /// and one more per client advised ([`engine::client_fixes`]).
    #[cfg(feature = "clients")]
    ClientFixes(Box<Config>),
}

/// Something for the files worker (`kubelife-files`) to do.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum FilesJob {
    /// Read a cluster's files (name, contents) with the import `kubelife import` calls, checking
    /// against `base`'s version where no file names one, and apply what they say to `base` as the
    /// Import panel does. The contents are bytes, so that the import tells their encoding.
    Import {
        /// The files, in the order added.
        files: Vec<(String, Shared)>,
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
    /// A figure the page saves, drawn as SVG (`kubelife_figures::picture::svg`); shared, so that
    /// the page's copy of a job copies no figure.
    Svg(std::rc::Rc<Picture>),
}

/// Two jobs are equal when they ask the same export or scenario of the same settings: the Export
/// panel asks again only when its settings change (`use_worker_job`). An import or a saved figure
/// is sent once and is the same job only as the very same value, never as a copy, so the page
/// carries no code to compare files or figures.
impl PartialEq for FilesJob {
    fn eq(&self, other: &FilesJob) -> bool {
        match (self, other) {
            (FilesJob::Export(a), FilesJob::Export(b)) | (FilesJob::ScenarioJson(a), FilesJob::ScenarioJson(b)) => {
                a == b
            }
            (FilesJob::Import { .. }, FilesJob::Import { .. }) | (FilesJob::Svg(_), FilesJob::Svg(_)) => {
                std::ptr::eq(self, other)
            }
            _ => false,
        }
    }
}

/// What the engine's worker answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum EngineAnswer {
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
    /// What to change in each client to cut its errors, in the scenario's order: each change
    /// as data the page can apply, its message (key and arguments) and the errors' end before
    /// and after.
    #[cfg(feature = "clients")]
    ClientFixes(Vec<kubelife_engine::advice::ClientFix>),
}

/// What the files worker answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum FilesAnswer {
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
    /// A figure as SVG text, or why plotters could not draw it.
    Svg(Result<String, String>),
}

/// A worker's job with what it is answered: the protocol of one worker, which its line on the
/// page and the worker itself are typed by, so neither worker can be sent the other's jobs.
pub trait Work: Serialize + DeserializeOwned + Clone + PartialEq + 'static {
    /// What the worker answers.
    type Answer: Serialize + DeserializeOwned + Clone + PartialEq + std::fmt::Debug + 'static;

    /// Which worker does this job.
    fn doer(&self) -> Doer;

    /// Whether no other answer to the same job follows `answer` (a search's progress is
    /// followed by more).
    fn is_last(_answer: &Self::Answer) -> bool {
        true
    }
}

impl Work for EngineJob {
    type Answer = EngineAnswer;

    fn doer(&self) -> Doer {
        match self {
            EngineJob::Tune(..) | EngineJob::StopTune => Doer::Tune,
            _ => Doer::Engine,
        }
    }

    fn is_last(answer: &EngineAnswer) -> bool {
        !matches!(answer, EngineAnswer::TuneProgress { .. })
    }
}

impl Work for FilesJob {
    type Answer = FilesAnswer;

    fn doer(&self) -> Doer {
        Doer::Files
    }
}

/// A job with the number the page knows it by.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request<J> {
    /// The page's number for this job.
    pub id: u32,
    /// What to do.
    pub job: J,
}

/// An answer with the number of the job it answers and the worker's time spent on it, ms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reply<A> {
    /// The job's number.
    pub id: u32,
    /// The answer.
    pub answer: A,
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

/// A file's contents as the page holds them, shared: sending a 30 MB file then copies it only
/// into the message, not first out of the page's own copy. Serialized as [`Bytes`] are.
#[derive(Debug, Clone, PartialEq)]
pub struct Shared(pub std::rc::Rc<[u8]>);

impl From<&[u8]> for Shared {
    fn from(b: &[u8]) -> Shared {
        Shared(b.into())
    }
}

impl Serialize for Shared {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Shared {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Shared(Bytes::deserialize(d)?.0.into()))
    }
}

/// `cfg` as a job carries it: without its warnings, which the codec skips.
fn sent(cfg: Config) -> Box<Config> {
    Box::new(Config {
        warnings: Vec::new(),
        ..cfg
    })
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

impl EngineJob {
    /// A run of `cfg`. Its warnings stay behind: a run does not read them, and the page has them.
    ///
    /// A job takes its configurations by value, so that the page clones a `Config` in its own
    /// crate, beside its other clones: cloned here, a second copy of the clone was compiled into
    /// the page's wasm (about 0.9 KB before wasm-opt).
    pub fn run(cfg: Config) -> EngineJob {
        EngineJob::Run(sent(cfg))
    }

    /// The spreads over `runs` seeds of `a` and, when comparing, `b`.
    pub fn spreads(a: Config, b: Option<Config>, runs: u32) -> EngineJob {
        EngineJob::Spreads {
            a: sent(a),
            b: b.map(sent),
            runs,
        }
    }

    /// The Tune panel's search for `ask` on `cfg` (its warnings stay behind, as a run's do).
    pub fn tune(cfg: Config, ask: Ask) -> EngineJob {
        EngineJob::Tune(sent(cfg), Box::new(ask))
    }

    /// The advice on `cfg`'s clients (its warnings stay behind, as a run's do).
    #[cfg(feature = "clients")]
    pub fn client_fixes(cfg: Config) -> EngineJob {
        EngineJob::ClientFixes(sent(cfg))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_carries_its_configuration_without_warnings_to_the_worker_that_does_it() {
        let mut cfg = Settings::default().resolve().0;
        cfg.warnings.push(kubelife_engine::Cause::new("tune.goal.no_target"));
        let EngineJob::Run(sent) = EngineJob::run(cfg.clone()) else {
            panic!("a run");
        };
        assert!(sent.warnings.is_empty());
        assert_eq!(
            Config {
                warnings: cfg.warnings.clone(),
                ..*sent
            },
            cfg
        );
        assert_eq!(EngineJob::spreads(cfg.clone(), None, 3).doer(), Doer::Engine);
        assert_eq!(FilesJob::Export(Box::default()).doer(), Doer::Files);
        assert_eq!(EngineJob::StopTune.doer(), Doer::Tune);
        assert!(!EngineJob::is_last(&EngineAnswer::TuneProgress { done: 1, total: 2 }));
        assert!(EngineJob::is_last(&EngineAnswer::Stopped));
        assert!(FilesJob::is_last(&FilesAnswer::Text(String::new())));
    }

    #[test]
    fn bytes_cross_as_one_block_and_read_back_from_a_sequence() {
        let b = Bytes(vec![0, 1, 255]);
        let coded = bincode::serialize(&b).unwrap();
        // A length and the bytes, not a number per byte.
        assert_eq!(coded.len(), 8 + 3);
        assert_eq!(bincode::deserialize::<Bytes>(&coded).unwrap(), b);
        let from_seq: Bytes = serde_json::from_str("[0, 1, 255]").unwrap();
        assert_eq!(from_seq, b);
    }
}
