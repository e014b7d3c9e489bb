//! A labelled drop-down: the version, preset, language and exercise pickers. It never grows wider
//! than the space it is given, however long its options are.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// One option of a [`Picker`].
#[derive(Clone, PartialEq)]
pub struct Choice {
    /// The value handed to `onpick`.
    pub value: AttrValue,
    /// What the option reads.
    pub text: AttrValue,
    /// A longer description, shown on hover.
    pub title: Option<AttrValue>,
}

impl Choice {
    /// An option reading `text` for `value`.
    pub fn new(value: impl Into<AttrValue>, text: impl Into<AttrValue>) -> Choice {
        Choice {
            value: value.into(),
            text: text.into(),
            title: None,
        }
    }
}

/// A picker: what it shows and what it calls.
pub struct Picker {
    /// The select's accessible name.
    pub name: AttrValue,
    /// What the label reads before the select.
    pub lead: AttrValue,
    /// The options, in order.
    pub choices: Vec<Choice>,
    /// The selected option's value.
    pub selected: AttrValue,
    /// A `data-testid` for the select, if tests read it.
    pub testid: Option<&'static str>,
    /// Called with the picked option's value.
    pub onpick: Callback<String>,
}

impl Picker {
    /// The label and its select.
    pub fn view(self) -> Html {
        let onpick = self.onpick;
        let onchange =
            Callback::from(move |e: Event| onpick.emit(e.target_unchecked_into::<HtmlSelectElement>().value()));
        html! {
            <label class="picker">
                {self.lead}
                <select class="picker-select" aria-label={self.name} data-testid={self.testid} {onchange}>
                { for self.choices.iter().map(|c| html! {
                    <option value={c.value.clone()} title={c.title.clone()} selected={c.value == self.selected}>{c.text.clone()}</option>
                }) }
                </select>
            </label>
        }
    }
}
