//! The page in English or Simplified Chinese.
//!
//! Every string the page shows lives in one catalogue per language, `i18n/en.json` and
//! `i18n/zh.json`, as a key and a template with `{name}` holes. The engine's causes and warnings
//! use the same catalogues, so a timeline reads in the reader's language. Kubernetes names (flags,
//! taints, kinds, conditions) stay as upstream spells them in both.

use kubelife_engine::cause::{fill, Cause};
use kubelife_engine::ScenarioError;
use std::collections::BTreeMap;
use std::fmt::Display;
use std::sync::OnceLock;

/// The Simplified Chinese catalogue, built into native builds (tests and tools). The page's wasm
/// leaves it out: the page fetches it packed ([`pack_chinese`]: `zh.txt`, beside the page) when
/// a reader picks Chinese, and [`install`]s it.
#[cfg(not(target_arch = "wasm32"))]
pub const CHINESE_CATALOGUE: &str = include_str!("../../../i18n/zh.json");

/// The English catalogues, written from `i18n/en.json`, `i18n/exercises-en.json`,
/// `i18n/import-en.json` and `i18n/later-en.json` at build time (`build.rs`).
mod english {
    include!(concat!(env!("OUT_DIR"), "/en_catalogue.rs"));
}

/// The parts of the English catalogue: what the page shows; the exercises' goals, checks, hints,
/// explanations and solutions (their titles are the page's), which only an open exercise or the
/// instructor's list shows; and the import's report (the engine's `import.*` messages), which
/// only the Import panel shows once the files worker has read a cluster's files; and the texts
/// the default page's first view and first interaction never show: what a link could not apply
/// (`link.*`), the settings' validation (`scenario.*`), the tour (`tour.*`), the presets'
/// descriptions (`preset.*`), the Apply panel's notes (`note.*`, `oos.*`) and the explanations of
/// every cause but the default run's (`cause.*`, `seg.*`; every other run comes from the worker,
/// and waits for them). The page's wasm
/// carries only the first: it fetches the others when first wanted (the last once it is live),
/// so they are not on its first download. What only the clients give (`clients-en.json`: their
/// causes, the load balancers', their sections' checks) is in none: the page, built without
/// clients, cannot show it; natively it reads as part of the last. Chinese is one file with every
/// part (but the clients' texts), fetched when a
/// reader picks Chinese (split, its parts compressed 2.4 KB worse in all and took nothing off the
/// first download), packed without the keys of the page part ([`pack_chinese`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Part {
    /// `en.json` (built in); all of Chinese (`zh.json`, fetched packed as `zh.txt`).
    Page,
    /// `exercises-en.json`; Chinese's are in `zh.json`.
    Exercises,
    /// `import-en.json`; Chinese's are in `zh.json`.
    Import,
    /// `later-en.json`; Chinese's are in `zh.json`.
    Later,
}

impl Part {
    /// Every part, in the order a lookup reads them.
    pub const ALL: [Part; 4] = [Part::Page, Part::Exercises, Part::Import, Part::Later];
}

/// Where the page finds a catalogue part it fetches, relative to the page (Trunk copies it
/// there); `None` for the one built in.
pub fn catalogue_file(lang: Lang, part: Part) -> Option<&'static str> {
    match (lang, part) {
        (Lang::En, Part::Page) => None,
        (Lang::En, Part::Exercises) => Some("exercises-en.json"),
        (Lang::En, Part::Import) => Some("import-en.json"),
        (Lang::En, Part::Later) => Some("later-en.json"),
        (Lang::Zh, _) => Some("zh.txt"),
    }
}

/// The encoding of `lang`'s fetched catalogue files, a WHATWG Encoding Standard label the
/// browser's `TextDecoder` reads. Chinese is packed in GB18030, China's national standard
/// encoding of all of Unicode: two bytes for a Chinese character instead of UTF-8's three, so
/// `zh.txt` is 3.2 KB smaller gzipped.
pub fn catalogue_encoding(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "utf-8",
        Lang::Zh => "gb18030",
    }
}

/// The parts `lang`'s catalogue is kept in (Chinese's page part holds every part).
fn parts(lang: Lang) -> &'static [Part] {
    match lang {
        Lang::En => &Part::ALL,
        Lang::Zh => &[Part::Page],
    }
}

/// A language of the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Simplified Chinese.
    Zh,
}

impl Lang {
    /// Every language, in picker order.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// The code used in links (`lang=zh`) and in `<html lang>`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The language's own name, for the picker.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Zh => "简体中文",
        }
    }

    /// Reads a link value or a browser language tag (`zh`, `zh-CN`, `zh-Hans-SG`, `en-GB`).
    /// Traditional Chinese tags are not taken as Simplified.
    pub fn parse(tag: &str) -> Option<Lang> {
        let tag = tag.trim().to_ascii_lowercase();
        let primary = tag.split(['-', '_']).next().unwrap_or("");
        match primary {
            "en" => Some(Lang::En),
            "zh" if ["-tw", "-hk", "-mo", "-hant"]
                .iter()
                .any(|t| tag.replace('_', "-").contains(t)) =>
            {
                None
            }
            "zh" => Some(Lang::Zh),
            _ => None,
        }
    }

    /// The first supported language among the browser's preferences, else English.
    pub fn from_preferences<'a>(tags: impl IntoIterator<Item = &'a str>) -> Lang {
        tags.into_iter().find_map(Lang::parse).unwrap_or_default()
    }
}

static EN: OnceLock<BTreeMap<String, String>> = OnceLock::new();
static ZH: OnceLock<BTreeMap<String, String>> = OnceLock::new();
static EN_EXERCISES: OnceLock<BTreeMap<String, String>> = OnceLock::new();
static EN_IMPORT: OnceLock<BTreeMap<String, String>> = OnceLock::new();
static EN_LATER: OnceLock<BTreeMap<String, String>> = OnceLock::new();
#[cfg(target_arch = "wasm32")]
static EMPTY: BTreeMap<String, String> = BTreeMap::new();

/// A built-in English catalogue as a map. Inserted one by one (the text is sorted already):
/// collecting would compile a sort for the pairs into the page.
fn english_catalogue(joined: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    let mut parts = joined.split('\u{1f}');
    while let (Some(key), Some(template)) = (parts.next(), parts.next()) {
        map.insert(key.to_string(), template.to_string());
    }
    map
}

fn slot(lang: Lang, part: Part) -> &'static OnceLock<BTreeMap<String, String>> {
    match (lang, part) {
        (Lang::En, Part::Page) => &EN,
        (Lang::En, Part::Exercises) => &EN_EXERCISES,
        (Lang::En, Part::Import) => &EN_IMPORT,
        (Lang::En, Part::Later) => &EN_LATER,
        (Lang::Zh, _) => &ZH,
    }
}

/// `lang`'s `part`: natively every part is built in; in the page, English's own part is, and
/// the others are empty until the shell has fetched and [`install_parsed`] them.
fn catalogue(lang: Lang, part: Part) -> &'static BTreeMap<String, String> {
    let slot = slot(lang, part);
    if (lang, part) == (Lang::En, Part::Page) {
        return slot.get_or_init(|| english_catalogue(english::ENGLISH));
    }
    #[cfg(not(target_arch = "wasm32"))]
    return slot.get_or_init(|| match (lang, part) {
        (Lang::Zh, _) => kubelife_engine::cause::parse_catalogue(CHINESE_CATALOGUE).unwrap_or_default(),
        (Lang::En, Part::Import) => english_catalogue(english::ENGLISH_IMPORT),
        // Natively the clients' texts too (`clients-en.json`), which the page has no use for.
        (Lang::En, Part::Later) => {
            let mut later = english_catalogue(english::ENGLISH_LATER);
            later.extend(english_catalogue(english::ENGLISH_CLIENTS));
            later
        }
        _ => english_catalogue(english::ENGLISH_EXERCISES),
    });
    // Until the page has fetched it, every lookup falls back to English (or to the key).
    #[cfg(target_arch = "wasm32")]
    slot.get().unwrap_or(&EMPTY)
}

/// Whether `lang`'s `part` is at hand (natively always; in the page, English's own part always,
/// the others once [`install_parsed`]).
pub fn has(lang: Lang, part: Part) -> bool {
    cfg!(not(target_arch = "wasm32")) || catalogue_file(lang, part).is_none() || slot(lang, part).get().is_some()
}

/// Takes in `lang`'s `part`, already read from its JSON text by the shell (the page reads it
/// with the browser's `JSON.parse`, so that its wasm carries no JSON parser). English's own part
/// is built in; a part already taken in stays.
pub fn install_parsed(lang: Lang, part: Part, catalogue: BTreeMap<String, String>) {
    if catalogue_file(lang, part).is_some() {
        let _ = slot(lang, part).set(catalogue);
    }
}

/// Takes in `lang`'s `part` from its text, natively: packed for Chinese ([`unpack_chinese`]),
/// JSON for English's; a text that is not a catalogue is refused with the reason, and the
/// language keeps falling back to English.
#[cfg(not(target_arch = "wasm32"))]
pub fn install(lang: Lang, part: Part, text: &str) -> Result<(), String> {
    let catalogue = match lang {
        Lang::Zh => unpack_chinese(text)?,
        Lang::En => kubelife_engine::cause::parse_catalogue(text)?,
    };
    install_parsed(lang, part, catalogue);
    Ok(())
}

/// What precedes and follows each text of the packed Chinese catalogue: ASCII's unit separator,
/// as in the built-in English one.
const SEPARATOR: char = '\u{1f}';

/// The first text of the packed Chinese catalogue: its format and the fingerprint of the English
/// page part's keys it was packed against.
fn chinese_header() -> String {
    String::from("kubelife-zh 1 ") + &page_fingerprint()
}

/// The FNV-1a hash of the English page part's keys in order, each followed by U+001F:
/// a packed Chinese catalogue fits this page only if it was packed against the same keys.
pub fn page_fingerprint() -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut parts = english::ENGLISH.split(SEPARATOR);
    while let (Some(key), Some(_)) = (parts.next(), parts.next()) {
        for b in key.bytes().chain([SEPARATOR as u8]) {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash.to_string()
}

/// `zh`, the Chinese catalogue, packed as the page fetches it (`i18n/zh.txt`, written in
/// [`catalogue_encoding`]'s GB18030): the header, the
/// templates of the English page part's keys in key order, then the other keys and their
/// templates, each text followed by U+001F; a cause with a brief form (`cause.X` and `seg.X`) is
/// written once, as `+X` and both templates (1.6 KB off the gzipped file). Leaving out the keys
/// the page holds already takes about 7 KB off. A key of the page part that `zh` lacks packs as
/// its English.
#[cfg(not(target_arch = "wasm32"))]
pub fn pack_chinese(zh: &BTreeMap<String, String>) -> String {
    let page = catalogue(Lang::En, Part::Page);
    let mut out = chinese_header();
    out.push(SEPARATOR);
    for (key, english) in page {
        out.push_str(zh.get(key).unwrap_or(english));
        out.push(SEPARATOR);
    }
    // The page runs no clients: their texts stay out of its file.
    let packed = |k: &str| zh.contains_key(k) && !page.contains_key(k) && !clients_only(k);
    let mut push = |text: &str| {
        out.push_str(text);
        out.push(SEPARATOR);
    };
    for (key, template) in zh.iter().filter(|(k, _)| packed(k)) {
        // A cause's brief form is written with the cause, below.
        if key
            .strip_prefix("seg.")
            .is_some_and(|rest| packed(&format!("cause.{rest}")))
        {
            continue;
        }
        let rest = key.strip_prefix("cause.");
        match rest
            .map(|rest| (rest, format!("seg.{rest}")))
            .filter(|(_, brief)| packed(brief))
        {
            // A cause with its brief form: `+` and the rest of its key, then both templates.
            Some((rest, brief)) => {
                push(&format!("+{rest}"));
                push(template);
                push(&zh[&brief]);
            }
            None => {
                push(key);
                push(template);
            }
        }
    }
    out
}

/// Whether `key` is a text only the clients give (`i18n/clients-en.json`), which the page,
/// built without clients, neither serves nor shows.
#[cfg(not(target_arch = "wasm32"))]
pub fn clients_only(key: &str) -> bool {
    static CLIENTS: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    CLIENTS
        .get_or_init(|| english_catalogue(english::ENGLISH_CLIENTS))
        .contains_key(key)
}

/// Reads a packed Chinese catalogue ([`pack_chinese`]); one packed against other English keys
/// (a file cached from another release) or cut short is refused, and the page stays in English.
/// The page's templates are put back beside their keys, and the whole is read as the built-in
/// English is.
pub fn unpack_chinese(text: &str) -> Result<BTreeMap<String, String>, String> {
    let mut texts = text.strip_suffix(SEPARATOR).unwrap_or(text).split(SEPARATOR);
    if texts.next() != Some(chinese_header().as_str()) {
        return Err("not the Chinese catalogue of this page's release".into());
    }
    let mut joined = String::with_capacity(text.len() * 5 / 4);
    let mut english = english::ENGLISH.split(SEPARATOR);
    while let (Some(key), Some(_)) = (english.next(), english.next()) {
        let template = texts.next().ok_or("the Chinese catalogue ends early")?;
        for t in [key, template] {
            joined.push_str(t);
            joined.push(SEPARATOR);
        }
    }
    // The other parts: keys and templates in pairs, a cause with its brief form as `+`, the
    // rest of its key and both templates ([`pack_chinese`]).
    let mut others = BTreeMap::new();
    while let Some(key) = texts.next() {
        let template = texts.next().ok_or("the Chinese catalogue ends early")?;
        if let Some(rest) = key.strip_prefix('+') {
            let brief = texts.next().ok_or("the Chinese catalogue ends early")?;
            others.insert(format!("cause.{rest}"), template.to_string());
            others.insert(format!("seg.{rest}"), brief.to_string());
        } else {
            others.insert(key.to_string(), template.to_string());
        }
    }
    let mut all = english_catalogue(&joined);
    all.extend(others);
    Ok(all)
}

/// Every key of a language's catalogue, every part.
pub fn keys(lang: Lang) -> impl Iterator<Item = &'static str> {
    parts(lang)
        .iter()
        .flat_map(move |&part| catalogue(lang, part).keys().map(String::as_str))
}

/// The template for `key`: the language's, else the English one, else none.
pub fn lookup(lang: Lang, key: &str) -> Option<&'static str> {
    [lang, Lang::En]
        .into_iter()
        .flat_map(|l| parts(l).iter().map(move |&part| (l, part)))
        .find_map(|(l, part)| catalogue(l, part).get(key))
        .map(String::as_str)
}

/// The text of `key`, without arguments.
pub fn tr(lang: Lang, key: &'static str) -> &'static str {
    lookup(lang, key).unwrap_or(key)
}

/// The text of a key built at run time (`knob.<flag>.help`), or empty if no catalogue has it.
pub fn tr_built(lang: Lang, key: &str) -> &'static str {
    lookup(lang, key).unwrap_or_default()
}

/// The text of `key` with its `{name}` holes filled from `args`.
pub fn trf(lang: Lang, key: &'static str, args: &[(&str, &dyn Display)]) -> String {
    let mut out = String::new();
    fill(tr(lang, key), &mut out, |name, out| {
        match args.iter().find(|(n, _)| *n == name) {
            Some((_, v)) => {
                out.push_str(&v.to_string());
                true
            }
            None => false,
        }
    });
    out
}

/// An engine message (an event's cause or a warning) in `lang`.
pub fn cause(lang: Lang, c: &Cause) -> String {
    c.render(&|k| lookup(lang, k))
}

/// A count as a reader writes it: 3,000.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count of things as a reader says it: `1 node`, `3 nodes` (`key` is `ui.n.nodes` or
/// `ui.n.pods`; its `.one` form is for exactly one).
pub fn count(lang: Lang, key: &'static str, n: u64) -> String {
    if n == 1 {
        let one = if key == "ui.n.nodes" {
            "ui.n.nodes.one"
        } else {
            "ui.n.pods.one"
        };
        return tr(lang, one).to_string();
    }
    trf(lang, key, &[("n", &thousands(n))])
}

/// Why the engine refused a scenario, in `lang`: the field and the reason (`nodes[0].name: …`),
/// or the reason alone for the whole scenario. `ScenarioError`'s `Display` is the English one.
pub fn scenario_error(lang: Lang, e: &ScenarioError) -> String {
    let reason = cause(lang, &e.reason);
    match e.field.as_str() {
        "" | "." => reason,
        field => trf(lang, "ui.refused.field", &[("field", &field), ("reason", &reason)]),
    }
}

/// Text quoted back to the reader (a link's value, a field's text): its first 40 characters,
/// then "…", so that a pasted megabyte makes a one-line message.
pub fn truncate(s: &str) -> String {
    match s.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &s[..cut]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_node_is_a_node() {
        assert_eq!(count(Lang::En, "ui.n.nodes", 1), "1 node");
        assert_eq!(count(Lang::En, "ui.n.nodes", 3000), "3,000 nodes");
        assert_eq!(count(Lang::En, "ui.n.pods", 1), "1 pod");
        assert_eq!(count(Lang::Zh, "ui.n.pods", 2), "2 个 Pod");
    }

    #[test]
    fn browser_tags_pick_the_language() {
        assert_eq!(Lang::parse("zh-CN"), Some(Lang::Zh));
        assert_eq!(Lang::parse("zh_Hans_SG"), Some(Lang::Zh));
        assert_eq!(Lang::parse("zh-TW"), None);
        assert_eq!(Lang::parse("EN-gb"), Some(Lang::En));
        assert_eq!(Lang::parse("fr"), None);
        assert_eq!(Lang::from_preferences(["fr-FR", "zh-CN", "en"]), Lang::Zh);
        assert_eq!(Lang::from_preferences(["de"]), Lang::En);
    }

    #[test]
    fn a_refused_scenario_reads_in_the_readers_language() {
        let json = r#"{"nodes": [{"name": "n1"}], "kubelet": {"nodeStatusUpdateFrequency": "16"}}"#;
        let e = kubelife_engine::Scenario::from_json(json).expect_err("a duration needs a unit");
        assert_eq!(scenario_error(Lang::En, &e), e.to_string());
        let zh = scenario_error(Lang::Zh, &e);
        assert!(
            zh.starts_with("kubelet.nodeStatusUpdateFrequency：无效的时长 \"16\"：缺少单位"),
            "{zh}"
        );
    }

    #[test]
    fn templates_fill_and_fall_back() {
        assert_eq!(trf(Lang::En, "cause.part.zone", &[("zone", &"a")]), "zone a");
        assert_eq!(tr(Lang::Zh, "no.such.key"), "no.such.key");
    }
}
