//! What the page reads from, and hands to, the browser around it: its address, the reader's
//! languages, the clipboard and local storage.
//!
//! Natively there is no browser (the first view, `first_view`, is rendered there ahead of time):
//! the page is then the plain address in English, with nothing stored.

use crate::i18n::{Lang, Part};

/// The query string the page was opened with (`?v=1&…`), or empty.
pub fn query() -> String {
    if !in_browser() {
        return String::new();
    }
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// The address of this page without its query (`https://host/path/`).
pub fn page_address() -> String {
    if !in_browser() {
        return String::new();
    }
    web_sys::window()
        .map(|w| {
            let l = w.location();
            format!("{}{}", l.origin().unwrap_or_default(), l.pathname().unwrap_or_default())
        })
        .unwrap_or_default()
}

/// The browser's preferred language among those the page offers.
pub fn preferred_lang() -> Lang {
    if !in_browser() {
        return Lang::default();
    }
    let Some(nav) = web_sys::window().map(|w| w.navigator()) else {
        return Lang::default();
    };
    let tags: Vec<String> = nav.languages().iter().filter_map(|v| v.as_string()).collect();
    if tags.is_empty() {
        return nav.language().and_then(|l| Lang::parse(&l)).unwrap_or_default();
    }
    Lang::from_preferences(tags.iter().map(String::as_str))
}

/// Copies `text` to the clipboard, as the page's copy buttons do; the error is the browser's
/// reason when it refuses (no clipboard outside a secure context, a denied permission).
pub async fn copy_to_clipboard(text: &str) -> Result<(), String> {
    let navigator = web_sys::window().ok_or("no window")?.navigator();
    let clipboard = js_sys::Reflect::get(&navigator, &"clipboard".into()).unwrap_or_default();
    if clipboard.is_undefined() {
        return Err("this page has no clipboard (it needs https or localhost)".to_string());
    }
    let written = wasm_bindgen_futures::JsFuture::from(navigator.clipboard().write_text(text)).await;
    written.map(|_| ()).map_err(|e| {
        js_sys::Reflect::get(&e, &"message".into())
            .ok()
            .and_then(|m| m.as_string())
            .unwrap_or_else(|| "refused".to_string())
    })
}

/// This browser's local storage, when it allows it.
pub fn storage() -> Option<web_sys::Storage> {
    if !in_browser() {
        return None;
    }
    web_sys::window()?.local_storage().ok().flatten()
}

/// A decimal number as a reader types it or a link carries it, or `None` for anything else
/// (`kubelife_playground::decimal`): in the browser, the browser's own `parseFloat` of the
/// checked text, natively Rust's parser.
pub fn decimal(text: &str) -> Option<f64> {
    install_decimal_parser();
    kubelife_playground::decimal::decimal(text)
}

/// Installs the browser's `parseFloat` as the core's decimal parser, and its `Math.pow` and
/// `Math.log10` as the core's (nothing natively): the page does it before it reads its link.
pub fn install_decimal_parser() {
    #[cfg(target_arch = "wasm32")]
    {
        kubelife_playground::decimal::install(js_sys::parse_float);
        kubelife_playground::decimal::install_math(js_sys::Math::pow, js_sys::Math::log10);
    }
}

/// Whether the page runs in a browser: false natively, where web-sys' calls would panic.
const fn in_browser() -> bool {
    cfg!(target_arch = "wasm32")
}

/// Calls `then` once `lang`'s `part` of its catalogue is at hand: at once for English's own part,
/// or after fetching the file beside the page (`zh.txt`, `exercises-en.json`, …) the first
/// time. A fetch that fails is said on the console and `then` still runs, so the page shows in
/// English (or without the exercise's texts) rather than not at all.
pub fn with_catalogue(lang: Lang, part: Part, then: impl FnOnce() + 'static) {
    fetch_catalogue(lang, part, Box::new(then));
}

/// A catalogue part being fetched and who waits for it.
type Fetching = ((Lang, Part), Vec<Box<dyn FnOnce()>>);

thread_local! {
    /// The catalogue parts being fetched: a part asked for again meanwhile (a run arriving
    /// while the texts fetched once the page is live are on their way) waits for the same fetch
    /// rather than starting another.
    static FETCHING: std::cell::RefCell<Vec<Fetching>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// [`with_catalogue`] once for every caller's `then`, rather than a copy for each.
fn fetch_catalogue(lang: Lang, part: Part, then: Box<dyn FnOnce()>) {
    let Some(file) = crate::i18n::catalogue_file(lang, part).filter(|_| !crate::i18n::has(lang, part)) else {
        return then();
    };
    let under_way = FETCHING.with(|f| {
        let mut f = f.borrow_mut();
        match f.iter_mut().find(|(which, _)| *which == (lang, part)) {
            Some((_, waiting)) => {
                waiting.push(then);
                true
            }
            None => {
                f.push(((lang, part), vec![then]));
                false
            }
        }
    });
    if under_way {
        return;
    }
    // The packed Chinese catalogue fits one release's English keys: its address names them, so
    // that no cache serves another release's.
    let url = match lang {
        Lang::Zh => String::from(file) + "?keys=" + &crate::i18n::page_fingerprint(),
        Lang::En => file.to_string(),
    };
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(why) = fetch_text(&url, crate::i18n::catalogue_encoding(lang))
            .await
            .and_then(|text| crate::i18n::install(lang, part, &text))
        {
            web_sys::console::error_1(&format!("kubelife could not load {file}: {why}").into());
        }
        let waiting = FETCHING.with(|f| {
            let mut f = f.borrow_mut();
            let at = f.iter().position(|(which, _)| *which == (lang, part));
            at.map(|i| f.swap_remove(i).1).unwrap_or_default()
        });
        for then in waiting {
            then();
        }
    });
}

/// The text of the file at `url`, relative to the page, in `encoding` (a label of the
/// browser's `TextDecoder`).
async fn fetch_text(url: &str, encoding: &str) -> Result<String, String> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let why = |e: wasm_bindgen::JsValue| format!("{e:?}");
    let window = web_sys::window().ok_or("no window")?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(why)?
        .dyn_into()
        .map_err(why)?;
    if !response.ok() {
        return Err(format!("HTTP {}", response.status()));
    }
    let bytes = JsFuture::from(response.array_buffer().map_err(why)?)
        .await
        .map_err(why)?;
    decode(encoding, bytes.unchecked_ref())
}

/// `bytes` (an `ArrayBuffer` or a typed array) read as text in `encoding` by the browser's
/// `TextDecoder`; bytes that are not text in it are refused rather than replaced.
pub fn decode(encoding: &str, bytes: &js_sys::Object) -> Result<String, String> {
    let options = web_sys::TextDecoderOptions::new();
    options.set_fatal(true);
    web_sys::TextDecoder::new_with_label_and_options(encoding, &options)
        .and_then(|d| d.decode_with_buffer_source(bytes))
        .map_err(|_| format!("not {encoding} text"))
}
