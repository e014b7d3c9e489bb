//! A small progress line shown while the engine's worker runs what the page asked for. The last
//! result stays on screen meanwhile; the line only says that a newer one is coming.

use crate::i18n::{tr, Lang};
use yew::prelude::*;

/// Properties of [`Running`].
#[derive(Properties, PartialEq, Clone)]
pub struct RunningProps {
    /// Whether a run is under way.
    pub on: bool,
}

/// The line; a live region, so a screen reader hears when a run starts, and empty otherwise.
#[function_component(Running)]
pub fn running(p: &RunningProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    html! {
        <div class="running" role="status" aria-live="polite">
            if p.on {
                <span class="running-line" data-testid="running"><span class="running-dot" aria-hidden="true"></span>{tr(lang, "ui.running")}</span>
            }
        </div>
    }
}
