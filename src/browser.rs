//! What the page reads from, and hands to, the browser around it: its address, the reader's
//! languages, the clipboard and local storage.
//!
//! Natively there is no browser (the first view, `first_view`, is rendered there ahead of time):
//! the page is then the plain address in English, with nothing stored.

use crate::i18n::Lang;

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

/// Copies `text` to the clipboard, as the page's copy buttons do.
pub fn copy_to_clipboard(text: &str) {
    if let Some(w) = web_sys::window() {
        let _ = w.navigator().clipboard().write_text(text);
    }
}

/// This browser's local storage, when it allows it.
pub fn storage() -> Option<web_sys::Storage> {
    if !in_browser() {
        return None;
    }
    web_sys::window()?.local_storage().ok().flatten()
}

/// A decimal number as a reader types it or a link carries it (`0.1`, `-2.`, `.5`, `1e3`), or
/// `None` for anything else, `inf`, `NaN` and spaces included. In the browser the value is the
/// browser's own `parseFloat` of the checked text, natively Rust's parser: both round correctly,
/// so they agree, and the page's wasm carries no float parser of its own (its tables alone are
/// 17 KB).
pub fn decimal(text: &str) -> Option<f64> {
    if !is_decimal(text.as_bytes()) {
        return None;
    }
    #[cfg(target_arch = "wasm32")]
    return Some(js_sys::parse_float(text));
    #[cfg(not(target_arch = "wasm32"))]
    text.parse().ok()
}

/// Whether `text` is `[+-]digits[.digits][(e|E)[+-]digits]` with a digit before or after the
/// point: the finite forms Rust's `f64::from_str` and JavaScript's `parseFloat` both read whole.
fn is_decimal(text: &[u8]) -> bool {
    let sign = |s: &[u8]| -> usize { usize::from(matches!(s.first(), Some(b'+' | b'-'))) };
    let digits = |s: &[u8]| s.iter().take_while(|c| c.is_ascii_digit()).count();
    let mut i = sign(text);
    let whole = digits(&text[i..]);
    i += whole;
    let mut fraction = 0;
    if text.get(i) == Some(&b'.') {
        fraction = digits(&text[i + 1..]);
        i += 1 + fraction;
    }
    if whole + fraction == 0 {
        return false;
    }
    if matches!(text.get(i), Some(b'e' | b'E')) {
        i += 1;
        i += sign(&text[i..]);
        let exponent = digits(&text[i..]);
        if exponent == 0 {
            return false;
        }
        i += exponent;
    }
    i == text.len()
}

/// Whether the page runs in a browser: false natively, where web-sys' calls would panic.
const fn in_browser() -> bool {
    cfg!(target_arch = "wasm32")
}

/// Calls `then` once `lang`'s catalogue is at hand: at once for English, or after fetching the
/// Chinese one (`zh.json` beside the page) the first time. A fetch that fails is said on the
/// console and `then` still runs, so the page shows in English rather than not at all.
pub fn with_catalogue(lang: Lang, then: impl FnOnce() + 'static) {
    let Some(file) = crate::i18n::catalogue_file(lang).filter(|_| !crate::i18n::has(lang)) else {
        return then();
    };
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(why) = fetch_text(file)
            .await
            .and_then(|text| crate::i18n::install(lang, &text))
        {
            web_sys::console::error_1(&format!("kubelife could not load {file}: {why}").into());
        }
        then();
    });
}

/// The text of the file at `url`, relative to the page.
async fn fetch_text(url: &str) -> Result<String, String> {
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
    let text = JsFuture::from(response.text().map_err(why)?).await.map_err(why)?;
    text.as_string().ok_or_else(|| "not text".to_string())
}

#[cfg(test)]
mod tests {
    use super::decimal;

    /// `decimal` reads `text` as `expect`; natively that is Rust's own parser's value, which
    /// `tests/web.rs` checks the browser's `parseFloat` agrees with.
    fn check(text: &str, expect: Option<f64>) {
        assert_eq!(decimal(text).map(f64::to_bits), expect.map(f64::to_bits), "{text:?}");
    }

    #[test]
    fn reads_the_plain_decimal_forms() {
        for (text, expect) in [
            ("0.1", Some(0.1)),
            ("-2.", Some(-2.0)),
            ("+.5", Some(0.5)),
            ("1e3", Some(1000.0)),
            ("2.5E-1", Some(0.25)),
            ("007", Some(7.0)),
            ("1e400", Some(f64::INFINITY)),
            ("", None),
            (".", None),
            ("-", None),
            ("e3", None),
            ("1e", None),
            ("1e+", None),
            ("1.2.3", None),
            (" 1", None),
            ("1 ", None),
            ("1_000", None),
            ("0x10", None),
            ("inf", None),
            ("NaN", None),
            ("1s", None),
        ] {
            check(text, expect);
        }
    }
}
