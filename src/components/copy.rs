//! A copy button that says what happened: "Copied" when the clipboard took the text, or why it
//! refused, in a live region that screen readers announce. The text is either given or read,
//! at the click, from a text field the reader may have edited.

use crate::browser::copy_to_clipboard;
use crate::i18n::{tr, trf, Lang};
use gloo_timers::callback::Timeout;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

/// How long "Copied" stays, ms.
const SAID_FOR: u32 = 4_000;

/// Properties of [`CopyButton`].
#[derive(Properties, PartialEq, Clone)]
pub struct CopyProps {
    /// What is copied (unless `from` is given).
    #[prop_or_default]
    pub text: AttrValue,
    /// A text field whose current value is copied instead of `text`.
    #[prop_or_default]
    pub from: Option<NodeRef>,
    /// The button's text.
    pub label: AttrValue,
    /// The button's accessible name, when it differs from its text.
    #[prop_or_default]
    pub aria_label: Option<AttrValue>,
    /// `data-testid` of the button.
    #[prop_or_default]
    pub testid: Option<AttrValue>,
}

/// What the last click did.
#[derive(Clone, PartialEq)]
enum Said {
    Nothing,
    Copied,
    Refused(String),
}

/// Clears "Copied" a few seconds after it appears; a refusal stays until the next click.
#[hook]
fn use_fading(said: UseStateHandle<Said>) {
    use_effect_with((*said).clone(), move |now| {
        let timeout = (*now == Said::Copied).then(|| Timeout::new(SAID_FOR, move || said.set(Said::Nothing)));
        move || drop(timeout)
    });
}

/// The button and its live region.
#[function_component(CopyButton)]
pub fn copy_button(p: &CopyProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let said = use_state(|| Said::Nothing);
    use_fading(said.clone());
    let onclick = {
        let (text, from, said) = (p.text.to_string(), p.from.clone(), said.clone());
        Callback::from(move |_| {
            let text = from
                .as_ref()
                .and_then(|r| r.cast::<HtmlTextAreaElement>())
                .map_or_else(|| text.clone(), |t| t.value());
            let said = said.clone();
            wasm_bindgen_futures::spawn_local(async move {
                said.set(match copy_to_clipboard(&text).await {
                    Ok(()) => Said::Copied,
                    Err(why) => Said::Refused(why),
                });
            });
        })
    };
    let status = match &*said {
        Said::Nothing => String::new(),
        Said::Copied => tr(lang, "ui.copied").to_string(),
        Said::Refused(why) => trf(lang, "ui.copy_refused", &[("why", why)]),
    };
    html! {
        <span class="copy">
            <button {onclick} aria-label={p.aria_label.clone()} data-testid={p.testid.clone()}>{p.label.clone()}</button>
            <span class="copy-said" role="status" aria-live="polite">{status}</span>
        </span>
    }
}
