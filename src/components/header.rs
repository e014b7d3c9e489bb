//! The page's header: the name, a tagline, and then its controls: the pickers for the Kubernetes
//! version, a preset and the language (built here), the share controls and the workshop row.

use crate::components::filtered;
use crate::components::picker::{Choice, Picker};
use crate::i18n::{tr, Lang};
use crate::model::Edit;
use crate::settings::{PresetLink, PRESETS};
use kubelife_engine::version::{NEWEST_MINOR, OLDEST_MINOR};
use yew::prelude::*;

/// Properties of [`Header`].
#[derive(Properties, PartialEq, Clone)]
pub struct HeaderProps {
    /// The line beside the name.
    pub tagline: AttrValue,
    /// Pickers and buttons, in order.
    #[prop_or_default]
    pub children: Html,
}

/// The header.
#[function_component(Header)]
pub fn header(p: &HeaderProps) -> Html {
    html! {
        <header class="header">
            <h1 class="header-name">{"kubelife"}</h1>
            <p class="header-tagline">{p.tagline.clone()}</p>
            {p.children.clone()}
        </header>
    }
}

/// Every supported version, newest first, as picker options (`1.35`).
pub fn version_choices() -> Vec<Choice> {
    (OLDEST_MINOR..=NEWEST_MINOR)
        .rev()
        .map(|v| Choice::new(v.to_string(), format!("1.{v}")))
        .collect()
}

/// "choose…" followed by every preset, with its description on hover.
pub fn preset_choices(lang: Lang, choose: &'static str) -> Vec<Choice> {
    std::iter::once(Choice::new("", tr(lang, choose)))
        .chain(PRESETS.iter().map(|p| Choice {
            title: Some(preset_description(lang, p).into()),
            ..Choice::new(p.name, p.name)
        }))
        .collect()
}

/// A preset's one-line description in `lang` (`preset.<name>`, whose English is the engine's
/// `Preset::description`).
fn preset_description(lang: Lang, p: &PresetLink) -> &'static str {
    crate::i18n::lookup(lang, &format!("preset.{}", p.name)).unwrap_or(p.name)
}

/// The edit that moves settings to `version` (a minor number), if it reads as one.
pub fn version_edit(version: &str) -> Option<Edit> {
    version.parse::<u32>().ok().map(Edit::Version)
}

/// The edit that applies the preset named `name` (the "choose…" option names none).
pub fn preset_edit(name: String) -> Option<Edit> {
    (!name.is_empty()).then_some(Edit::Preset(name))
}

/// The Kubernetes version picker.
pub fn version_picker(lang: Lang, minor: u32, onedit: &Callback<Edit>) -> Html {
    Picker {
        name: tr(lang, "ui.version_label").into(),
        lead: "Kubernetes ".into(),
        choices: version_choices(),
        selected: minor.to_string().into(),
        testid: None,
        onpick: filtered(onedit, |v: String| version_edit(&v)),
    }
    .view()
}

/// The preset picker: it names the preset the settings are while they are unchanged since it was
/// chosen (`named`), and reads "choose a preset…" otherwise.
pub fn preset_picker(lang: Lang, named: Option<&'static str>, onedit: &Callback<Edit>) -> Html {
    Picker {
        name: tr(lang, "ui.preset_label").into(),
        lead: tr(lang, "ui.preset").into(),
        choices: preset_choices(lang, "ui.preset.choose"),
        selected: AttrValue::from(named.unwrap_or_default()),
        testid: None,
        onpick: filtered(onedit, preset_edit),
    }
    .view()
}

/// The language picker, labelled in words (an emoji globe needs a font many machines lack).
pub fn language_picker(lang: Lang, onlang: &Callback<Lang>) -> Html {
    Picker {
        name: tr(lang, "ui.language").into(),
        lead: tr(lang, "ui.language_picker").into(),
        choices: Lang::ALL.iter().map(|l| Choice::new(l.code(), l.name())).collect(),
        selected: lang.code().into(),
        testid: Some("language"),
        onpick: filtered(onlang, |code: String| Lang::parse(&code)),
    }
    .view()
}
