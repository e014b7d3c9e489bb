//! Number and text fields that keep what the reader types until it is committed (Enter, or
//! leaving the field). Yew puts a field's value back on every render, so without this a render
//! meanwhile (a run landing) would replace the typed text with the old value, and the Enter that
//! follows would commit that: the input would be lost.

use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Properties of [`NumberField`].
#[derive(Properties, PartialEq, Clone)]
pub struct NumberFieldProps {
    /// The value shown while the reader is not typing.
    pub value: AttrValue,
    /// The least value.
    pub min: AttrValue,
    /// The greatest value.
    pub max: AttrValue,
    /// The step, if not 1.
    #[prop_or_default]
    pub step: Option<AttrValue>,
    /// Its accessible name.
    pub label: AttrValue,
    /// Its test id.
    #[prop_or_default]
    pub testid: Option<AttrValue>,
    /// Whether it is disabled.
    #[prop_or_default]
    pub disabled: bool,
    /// Called with the committed text (untrimmed, unparsed).
    pub onchange: Callback<String>,
}

/// The text shown (the draft while the reader types, else `value`) and the handlers that keep
/// the draft and commit it.
#[hook]
fn use_draft(value: &AttrValue, commit: &Callback<String>) -> (AttrValue, Callback<InputEvent>, Callback<Event>) {
    let draft = use_state(|| None::<String>);
    let oninput = {
        let draft = draft.clone();
        Callback::from(move |e: InputEvent| draft.set(Some(e.target_unchecked_into::<HtmlInputElement>().value())))
    };
    let onchange = {
        let (draft, cb) = (draft.clone(), commit.clone());
        Callback::from(move |e: Event| {
            draft.set(None);
            cb.emit(e.target_unchecked_into::<HtmlInputElement>().value());
        })
    };
    let shown = (*draft).clone().map_or_else(|| value.clone(), AttrValue::from);
    (shown, oninput, onchange)
}

/// The number field.
#[function_component(NumberField)]
pub fn number_field(p: &NumberFieldProps) -> Html {
    let (value, oninput, onchange) = use_draft(&p.value, &p.onchange);
    html! {
        <input type="number" class="number-field" min={p.min.clone()} max={p.max.clone()} step={p.step.clone()}
            {value} aria-label={p.label.clone()} data-testid={p.testid.clone()} disabled={p.disabled} {oninput} {onchange} />
    }
}

/// Properties of [`TextField`].
#[derive(Properties, PartialEq, Clone)]
pub struct TextFieldProps {
    /// The value shown while the reader is not typing.
    pub value: AttrValue,
    /// Its width in characters.
    pub size: u32,
    /// Its accessible name, when no label wraps it.
    #[prop_or_default]
    pub label: Option<AttrValue>,
    /// The keyboard a phone shows (`inputmode`).
    #[prop_or_default]
    pub inputmode: Option<AttrValue>,
    /// What it shows when empty.
    #[prop_or_default]
    pub placeholder: Option<AttrValue>,
    /// Whether the text it holds was refused (`aria-invalid`).
    #[prop_or_default]
    pub invalid: bool,
    /// Its test id.
    #[prop_or_default]
    pub testid: Option<AttrValue>,
    /// Called with the committed text (untrimmed, unparsed).
    pub onchange: Callback<String>,
}

/// The text field.
#[function_component(TextField)]
pub fn text_field(p: &TextFieldProps) -> Html {
    let (value, oninput, onchange) = use_draft(&p.value, &p.onchange);
    html! {
        <input type="text" size={p.size.to_string()} inputmode={p.inputmode.clone()} placeholder={p.placeholder.clone()}
            {value} aria-label={p.label.clone()} aria-invalid={p.invalid.then_some("true")} data-testid={p.testid.clone()} {oninput} {onchange} />
    }
}
