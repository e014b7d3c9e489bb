//! Where the shared import fixtures are: `../shared/fixtures/import`, beside the checkout (real
//! files that people published, which the tests read but the project never copies). A user's
//! fresh clone has no `../shared`: then each check that reads it is skipped, with one line saying
//! so, and the project's own fixtures (`crates/engine/tests/fixtures/import`) still cover every
//! format.
//!
//! Shared by the engine's tests, the CLI's and the page's (each includes this file).

use std::io::Write;
use std::path::{Path, PathBuf};

/// `../shared/fixtures/import` beside the checkout whose root is `checkout`, when it is there.
/// When it is not, writes one line saying that `what` is skipped and why, and gives `None`. The
/// line goes straight to standard error, past the test harness's capture (which takes only
/// `print!` and `eprint!`), so that a passing run shows it too.
pub fn shared_import_fixtures(checkout: &Path, what: &str) -> Option<PathBuf> {
    let dir = checkout.join("../shared/fixtures/import");
    if dir.join("SOURCES.md").is_file() {
        return Some(dir);
    }
    let line = format!("skipped {what}: ../shared/fixtures/import is not beside this checkout\n");
    let _ = std::io::stderr().lock().write_all(line.as_bytes());
    None
}
