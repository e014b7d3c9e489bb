//! Banners above the page: settings the engine refused, and what the opening link could not apply.

use crate::i18n::{cause, scenario_error, tr, trf, Lang};
use kubelife_engine::{Cause, ScenarioError};
use yew::prelude::*;

/// The banners, if any: the engine's reason for refusing the settings, and the link's notices
/// with a button that dismisses them. Their texts are fetched once the page is live (`later`:
/// they are at hand): until then the banners wait, so that they never show a key.
pub fn notices(
    lang: Lang,
    later: bool,
    error: Option<&ScenarioError>,
    notices: &[Cause],
    ondismiss: &Callback<()>,
) -> Html {
    if !later {
        return html! {};
    }
    let dismiss = ondismiss.reform(|_: MouseEvent| ());
    html! { <>
        if let Some(e) = error { <div class="notices" role="alert">{trf(lang, "ui.refused", &[("error", &scenario_error(lang, e))])}</div> }
        if !notices.is_empty() {
            <div class="notices" role="status" data-testid="link-notices">
                <strong>{tr(lang, "ui.notices")}</strong>
                <ul>{ for notices.iter().map(|n| html!{ <li>{cause(lang, n)}</li> }) }</ul>
                <button onclick={dismiss}>{tr(lang, "ui.dismiss")}</button>
            </div>
        }
    </> }
}
