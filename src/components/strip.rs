//! The headline milestones in one line, kept in reach while tuning on a narrow screen: it sits at
//! the top of the controls and stays there while the reader scrolls through the sliders, so each
//! change's effect shows without scrolling back up. Wide screens show the results beside the
//! controls and hide it. It reads the same run as the milestone cards (a many-node outage's
//! spread, or the failed node's own milestones).

use crate::explain::{milestone_text, range_text, Restored};
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

/// The strip's items: (label key, text).
fn items(lang: Lang, run: &Run) -> Vec<(&'static str, String)> {
    if let Some(o) = &run.outage {
        let replaced = match o.replaced {
            Restored::Uninterrupted => tr(lang, "ui.milestone.uninterrupted").to_string(),
            Restored::At(t) => milestone_text(lang, Some(t)),
            Restored::Never => milestone_text(lang, None),
        };
        return vec![
            ("ui.milestone.unknown", range_text(lang, o.unknown)),
            ("ui.milestone.taint", range_text(lang, o.taint)),
            ("ui.milestone.evictions", range_text(lang, o.eviction)),
            ("ui.milestone.all_replaced", replaced),
        ];
    }
    let ms = &run.milestones;
    vec![
        ("ui.milestone.unknown", milestone_text(lang, ms.unknown)),
        ("ui.milestone.taint", milestone_text(lang, ms.taint)),
        ("ui.milestone.eviction", milestone_text(lang, ms.eviction)),
        ("ui.milestone.replacement", milestone_text(lang, ms.replacement)),
    ]
}

/// The strip. Screen readers get the cards instead: the strip repeats them.
#[function_component(Strip)]
pub fn strip(p: &StripProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    html! {
        <div class="strip" aria-hidden="true" data-testid="strip">
            { for items(lang, &p.run).into_iter().map(|(key, text)| html! {
                <span class="strip-item"><span class="strip-name">{tr(lang, key)}</span>{" "}<strong class="strip-value">{text}</strong></span>
            }) }
        </div>
    }
}
