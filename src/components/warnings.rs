//! Warnings as the reader tunes: what the engine noticed about the settings (flags the version
//! ignores) and tuning advice (a grace period under four heartbeats, a toleration of 0); and,
//! above them, Services that the API and the proxies saw differently (a control-plane partition).

use crate::explain::{tuning_warnings, two_views};
use crate::i18n::{cause, tr, Lang};
use kubelife_engine::{Config, Outcome};
use yew::prelude::*;

/// The warnings under their heading, or nothing when there are none.
pub fn warnings(lang: Lang, outcome: &Outcome, cfg: &Config) -> Html {
    let mut all = outcome.warnings.clone();
    all.extend(tuning_warnings(cfg));
    let views = two_views(outcome);
    html! { <>
        if !views.is_empty() {
            <h2>{tr(lang, "ui.h.two_views")}</h2>
            <ul class="warnings-views" data-testid="two-views">{ for views.iter().map(|w| html!{ <li>{cause(lang, w)}</li> }) }</ul>
        }
        if !all.is_empty() {
            <h2>{tr(lang, "ui.h.warnings")}</h2>
            // The live region wraps the list, so the items stay a list's items.
            <div role="status"><ul class="warnings">{ for all.iter().map(|w| html!{ <li>{cause(lang, w)}</li> }) }</ul></div>
        }
    </> }
}
