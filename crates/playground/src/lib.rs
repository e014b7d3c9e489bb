//! The kubelife playground's core: everything the page decides, as plain Rust with no web
//! dependency, so that tests run it natively and the Yew app (the root package, `kubelife`) only
//! draws it and carries its effects.
//!
//! - `settings`: what a reader set (the controls, the cluster, the fault), resolved into the
//!   engine's `Config`; `knobs`: the sliders, a view of the engine's flag catalogue.
//! - `link`: the page's state as a link and back; `decimal` reads the numbers in it with the
//!   parser the shell installs.
//! - `model`: a run laid out for the page, what the worker should run next (`Prepared`, resolved
//!   once per change), and `Edit`, a change to one side's settings.
//! - `replay`, `explain`, `exercises`: the cluster at the playhead, "Where does the time go?" and
//!   its warnings, and the workshop exercises with their checks.
//! - `import`: what the engine's import read, applied to the page's settings.
//! - `cards`: the milestone cards' texts, and why where a value alone would mislead.
//! - `compare`: compare mode's table, both sides counted from one origin.
//! - `slo`: SLO targets judged against the run shown or its seeds; `tune`: the Tune panel's
//!   points applied to the settings.
//! - `jobs`: what the page asks of its Web Workers and what they answer, and each worker's jobs
//!   (`jobs::engine`, `jobs::files`), which the shell's workers only carry.
//! - `i18n`: the catalogues (English built in, Chinese installed by the shell).

pub mod cards;
pub mod compare;
pub mod decimal;
pub mod exercises;
pub mod explain;
pub mod i18n;
pub mod import;
pub mod jobs;
pub mod knobs;
pub mod link;
pub mod model;
pub mod replay;
pub mod settings;
pub mod slo;
pub mod tune;
