//! Sharing: the link of the current state, and buttons that copy it or an embed snippet.

use crate::browser::copy_to_clipboard;
use crate::i18n::{tr, Lang};
use yew::prelude::*;

/// An `<iframe>` snippet that embeds `page?query`, resizing itself to its content.
pub fn embed_code(page: &str, query: &str) -> String {
    let escape = |s: &str| s.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;");
    let src = escape(&format!("{page}?{query}"));
    format!(
        "<iframe src=\"{src}\" title=\"kubelife playground\" style=\"width:100%;border:0\" height=\"600\" loading=\"lazy\"></iframe>\n<script>addEventListener(\"message\",e=>{{if(e.data&&e.data.type===\"kubelife:height\")for(const f of document.querySelectorAll(\"iframe\"))if(f.contentWindow===e.source)f.height=e.data.height}})</script>"
    )
}

/// The share link (`url`) and buttons that copy it or the embed `snippet`.
pub fn share(lang: Lang, url: String, snippet: String) -> Html {
    let copy = |text: &String| {
        let text = text.clone();
        Callback::from(move |_| copy_to_clipboard(&text))
    };
    html! {
        <span class="share">
            <input class="share-link" readonly=true value={url.clone()} aria-label={tr(lang, "ui.share_label")} data-testid="share-link" size="28" />
            <button onclick={copy(&url)}>{tr(lang, "ui.copy_link")}</button>
            <button onclick={copy(&snippet)} data-snippet={snippet.clone()}>{tr(lang, "ui.copy_embed")}</button>
        </span>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embed_snippet_escapes_the_address() {
        let code = embed_code("https://example.org/k/", "embed=1&view=timeline");
        assert!(code.starts_with("<iframe src=\"https://example.org/k/?embed=1&amp;view=timeline\""));
        assert!(code.contains("kubelife:height"));
    }
}
