//! What the page reads from, and hands to, the browser around it: its address, the reader's
//! languages, the clipboard and local storage.

use crate::i18n::Lang;

/// The query string the page was opened with (`?v=1&…`), or empty.
pub fn query() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// The address of this page without its query (`https://host/path/`).
pub fn page_address() -> String {
    web_sys::window()
        .map(|w| {
            let l = w.location();
            format!("{}{}", l.origin().unwrap_or_default(), l.pathname().unwrap_or_default())
        })
        .unwrap_or_default()
}

/// The browser's preferred language among those the page offers.
pub fn preferred_lang() -> Lang {
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
    web_sys::window()?.local_storage().ok().flatten()
}
