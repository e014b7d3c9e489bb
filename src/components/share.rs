//! Sharing: the link of the current state, and buttons that copy it or an embed snippet.

use crate::components::copy::CopyButton;
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

/// Properties of [`EmbedCode`].
#[derive(Properties, PartialEq, Clone)]
pub struct EmbedCodeProps {
    /// The snippet for what is on screen.
    pub snippet: AttrValue,
}

/// "Copy embed code": opens on the snippet, which the writer may edit, and copies what the
/// field holds.
#[function_component(EmbedCode)]
pub fn embed_code_panel(p: &EmbedCodeProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let field = use_node_ref();
    html! {
        <details class="share-embed" data-testid="share-embed">
            <summary>{tr(lang, "ui.copy_embed")}</summary>
            <div class="share-embed-body">
                <textarea class="share-embed-code" ref={field.clone()} rows="5" spellcheck="false"
                    aria-label={tr(lang, "ui.embed_code")} data-testid="embed-code" value={p.snippet.clone()} />
                <CopyButton from={field} label={tr(lang, "ui.copy")} aria_label={tr(lang, "ui.copy_embed")} testid="copy-embed" />
            </div>
        </details>
    }
}

/// The share link (`url`), a button that copies it, and the embed `snippet`, shown before it is
/// copied.
pub fn share(lang: Lang, url: String, snippet: String) -> Html {
    html! {
        <span class="share">
            <input class="share-link" readonly=true value={url.clone()} aria-label={tr(lang, "ui.share_label")} data-testid="share-link" size="28" />
            <CopyButton text={url} label={tr(lang, "ui.copy_link")} testid="copy-link" />
            <EmbedCode snippet={snippet} />
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
