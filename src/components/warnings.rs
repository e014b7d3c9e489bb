//! Warnings as the reader tunes: what the engine noticed about the settings (flags the version
//! ignores) and tuning advice (a grace period under four heartbeats, a toleration of 0); and,
//! above them, Services that the API and the proxies saw differently (a control-plane partition).

use crate::i18n::{cause, tr, Lang};
use crate::model::Run;
use std::rc::Rc;
use yew::prelude::*;

/// Properties of [`Warnings`].
#[derive(Properties, PartialEq, Clone)]
pub struct WarningsProps {
    /// The run whose warnings these are.
    pub run: Rc<Run>,
}

/// The run's warnings under their heading, or nothing when there are none: read off the run once
/// when it arrived (`Run::warnings`, `Run::two_views`), rendered in the reader's language, and
/// rendered again only when the run or the language changes.
#[function_component(Warnings)]
pub fn warnings(p: &WarningsProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let (all, views) = (&p.run.warnings, &p.run.two_views);
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
