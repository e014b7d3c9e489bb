//! Writes the English catalogue (`i18n/en.json`) as a Rust table, `$OUT_DIR/en_catalogue.rs`:
//! the core looks English up without a JSON parser, natively and in the page's wasm alike.

use std::fmt::Write;

fn main() {
    let path = "../../i18n/en.json";
    println!("cargo:rerun-if-changed={path}");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let map: std::collections::BTreeMap<String, String> =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = String::from(
        "/// `i18n/en.json`, key and template, sorted by key.\npub static ENGLISH: &[(&str, &str)] = &[\n",
    );
    for (key, template) in &map {
        let _ = writeln!(out, "    ({key:?}, {template:?}),");
    }
    out.push_str("];\n");
    let dest = std::path::Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("en_catalogue.rs");
    std::fs::write(&dest, out).unwrap_or_else(|e| panic!("{}: {e}", dest.display()));
}
