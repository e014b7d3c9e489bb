//! A number field that keeps what the reader types until it is committed (Enter, or leaving the
//! field). Yew puts a field's value back on every render, so without this a render meanwhile (a
//! run landing) would replace the typed text with the old value, and the Enter that follows would
//! commit that: the input would be lost.

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

/// The field.
#[function_component(NumberField)]
pub fn number_field(p: &NumberFieldProps) -> Html {
    let draft = use_state(|| None::<String>);
    let oninput = {
        let draft = draft.clone();
        Callback::from(move |e: InputEvent| draft.set(Some(e.target_unchecked_into::<HtmlInputElement>().value())))
    };
    let onchange = {
        let (draft, cb) = (draft.clone(), p.onchange.clone());
        Callback::from(move |e: Event| {
            draft.set(None);
            cb.emit(e.target_unchecked_into::<HtmlInputElement>().value());
        })
    };
    let value = (*draft).clone().map_or_else(|| p.value.clone(), AttrValue::from);
    html! {
        <input type="number" class="number-field" min={p.min.clone()} max={p.max.clone()} step={p.step.clone()}
            {value} aria-label={p.label.clone()} data-testid={p.testid.clone()} disabled={p.disabled} {oninput} {onchange} />
    }
}
