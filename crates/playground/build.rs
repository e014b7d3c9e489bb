//! Writes the English catalogues (`i18n/en.json`, the exercises' `i18n/exercises-en.json`, the
//! import report's `i18n/import-en.json` and the texts off the first view's path,
//! `i18n/later-en.json`, and what only the clients give, `i18n/clients-en.json`) as Rust, `$OUT_DIR/en_catalogue.rs`: one string each of keys and templates, each followed by the
//! unit separator U+001F, so that the core reads English without a JSON parser, natively and in
//! the page's wasm alike, and the page's wasm holds the text as compactly as the JSON (a table of
//! string pointers compressed 9 KB worse). The page's wasm uses only the first: it fetches the
//! others when an exercise opens, an import is shown, or (the last) once it is live.

use std::fmt::Write;

/// What follows each key and each template: ASCII's unit separator, which no catalogue text holds.
const SEPARATOR: char = '\u{1f}';

fn main() {
    let main = joined("../../i18n/en.json");
    let exercises = joined("../../i18n/exercises-en.json");
    let import = joined("../../i18n/import-en.json");
    let later = joined("../../i18n/later-en.json");
    let clients = joined("../../i18n/clients-en.json");
    let out = format!(
        "/// `i18n/en.json`, sorted by key: each key and its template followed by U+001F.\npub static ENGLISH: &str = {main:?};\n\
         /// `i18n/exercises-en.json`, the same way (native builds only: the page fetches it).\n\
         #[cfg(not(target_arch = \"wasm32\"))]\npub static ENGLISH_EXERCISES: &str = {exercises:?};\n\
         /// `i18n/import-en.json`, the same way (native builds only: the page fetches it).\n\
         #[cfg(not(target_arch = \"wasm32\"))]\npub static ENGLISH_IMPORT: &str = {import:?};\n\
         /// `i18n/later-en.json`, the same way (native builds only: the page fetches it).\n\
         #[cfg(not(target_arch = \"wasm32\"))]\npub static ENGLISH_LATER: &str = {later:?};\n\
         /// `i18n/clients-en.json`, the same way (native builds only: the page has no clients).\n\
         #[cfg(not(target_arch = \"wasm32\"))]\npub static ENGLISH_CLIENTS: &str = {clients:?};\n"
    );
    let dest = std::path::Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("en_catalogue.rs");
    std::fs::write(&dest, out).unwrap_or_else(|e| panic!("{}: {e}", dest.display()));
}

/// The catalogue at `path` as one string, sorted by key, each key and template followed by
/// [`SEPARATOR`].
fn joined(path: &str) -> String {
    println!("cargo:rerun-if-changed={path}");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let map: std::collections::BTreeMap<String, String> =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    if let Some(text) = map.iter().flat_map(|(k, v)| [k, v]).find(|t| t.contains(SEPARATOR)) {
        panic!("{path}: {text:?} holds the unit separator U+001F");
    }
    let mut joined = String::new();
    for (key, template) in &map {
        let _ = write!(joined, "{key}{SEPARATOR}{template}{SEPARATOR}");
    }
    joined
}
