//! How every property test draws its cases: from one seed, so that a run can be repeated.
//!
//! - `PROPTEST_RNG_SEED=N` draws from seed N; without it, from [`DEFAULT_SEED`], which is what
//!   `./scripts/test` uses (it prints the seed before the tests run).
//! - `PROPTEST_CASES=N` runs N cases per property instead of the property's own count, to run
//!   deeper (`PROPTEST_CASES=5000 PROPTEST_RNG_SEED=$RANDOM cargo test`).
//!
//! Each property prints the seed and the count it used (shown with a failure). A failing case is
//! shrunk and its own seed written to `tests/proptest-regressions/`, which is committed: every
//! later run replays it first, whatever seed it draws from.
//!
//! Shared by the engine's tests and the page's (`tests/link_props.rs` includes this file).

use proptest::test_runner::{Config, RngSeed};

/// The seed a run draws from when `PROPTEST_RNG_SEED` is not set.
pub const DEFAULT_SEED: u64 = 20_261_125;

/// The configuration of a property that runs `cases` cases unless `PROPTEST_CASES` says otherwise.
pub fn config(cases: u32) -> Config {
    // `Config::default` reads PROPTEST_RNG_SEED and PROPTEST_CASES from the environment.
    let mut c = Config::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        c.cases = cases;
    }
    let seed = match c.rng_seed {
        RngSeed::Fixed(seed) => seed,
        RngSeed::Random => DEFAULT_SEED,
    };
    c.rng_seed = RngSeed::Fixed(seed);
    eprintln!(
        "property cases drawn from seed {seed} ({} cases): replay with PROPTEST_RNG_SEED={seed}",
        c.cases
    );
    c
}
