//! The headline milestones in one line, kept in reach while tuning on a narrow screen: it sits at
//! the top of the controls and stays there while the reader scrolls through the sliders, so each
//! change's effect shows without scrolling back up. Wide screens show the results beside the
//! controls and hide it. It reads the same run as the milestone cards (a many-node outage's
//! spread, or the failed node's own milestones).

use crate::components::results::headline;
use crate::i18n::{tr, Lang};
use crate::model::Run;
use std::rc::Rc;
use yew::prelude::*;

/// Properties of [`Strip`].
#[derive(Properties, PartialEq, Clone)]
pub struct StripProps {
    /// The run shown.
    pub run: Rc<Run>,
}

/// The strip. Screen readers get the cards instead: the strip repeats them.
#[function_component(Strip)]
pub fn strip(p: &StripProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    html! {
        <div class="strip" aria-hidden="true" data-testid="strip">
            { for headline(lang, &p.run).into_iter().map(|c| html! {
                <span class="strip-item"><span class="strip-name">{tr(lang, c.key)}</span>{" "}<strong class="strip-value">{c.text}</strong></span>
            }) }
        </div>
    }
}
