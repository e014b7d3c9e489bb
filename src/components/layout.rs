//! The two other ways the page is laid out: an embed (only the panels its link asks for) and the
//! instructor's page. The full playground's layout is `app`'s.

use crate::i18n::{tr, Lang};
use yew::prelude::*;

/// Properties of [`EmbedLayout`].
#[derive(Properties, PartialEq, Clone)]
pub struct EmbedLayoutProps {
    /// Banners, and the milestones and the time controls when the link asks for them.
    pub head: Html,
    /// The sliders the link exposes, if it exposes any.
    #[prop_or_default]
    pub controls: Option<Html>,
    /// The same state in the full playground.
    pub open_link: AttrValue,
    /// The panels.
    pub children: Html,
}

/// An embed: no header or side panels, the panels and sliders its link asks for, and a link to
/// the full playground. It posts its height to the embedding page whenever it changes.
#[function_component(EmbedLayout)]
pub fn embed_layout(p: &EmbedLayoutProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let root = use_node_ref();
    crate::hooks::use_embed_height(root.clone());
    html! {
        <main class="layout layout-embed" ref={root}>
            <h1 class="visually-hidden">{"kubelife"}</h1>
            {p.head.clone()}
            if let Some(controls) = &p.controls { <div class="layout-controls">{controls.clone()}</div> }
            {p.children.clone()}
            <p class="layout-credit"><a href={p.open_link.clone()} target="_blank" rel="noopener">{tr(lang, "ui.open_in")}</a></p>
        </main>
    }
}

/// Properties of [`InstructorLayout`].
#[derive(Properties, PartialEq, Clone)]
pub struct InstructorLayoutProps {
    /// The header.
    pub header: Html,
    /// The list of exercises.
    pub children: Html,
}

/// The instructor's page: the header, then the list with the page's margins.
#[function_component(InstructorLayout)]
pub fn instructor_layout(p: &InstructorLayoutProps) -> Html {
    html! {
        <div class="layout layout-instructor">
            {p.header.clone()}
            <main class="layout-sheet">{p.children.clone()}</main>
        </div>
    }
}
