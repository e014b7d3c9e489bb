//! A labelled slider with a number field, its unit, the version's default, a "changed" mark and
//! a reset button. The range input's accessible name contains the flag name, after "B " on
//! compare side B (its label shows the flag as it is; the side is its section's heading).

use super::number::NumberField;
use crate::i18n::{tr, Lang};
use kubelife_engine::time::format_go_duration;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::knobs::{Knob, Unit};
use crate::model::Edit;
use crate::settings::Settings;
use kubelife_engine::Config;

/// Properties of [`Slider`].
#[derive(Properties, PartialEq, Clone)]
pub struct SliderProps {
    /// Flag name without dashes (`node-monitor-grace-period`).
    pub flag: AttrValue,
    /// Configuration field shown beside it.
    pub field: AttrValue,
    /// One line on what it does.
    pub help: AttrValue,
    /// The unit.
    pub unit: Unit,
    /// Current value.
    pub value: f64,
    /// The version's default.
    pub default: f64,
    /// Range and step.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Step.
    pub step: f64,
    /// Why the control is disabled, if it is.
    #[prop_or_default]
    pub disabled: Option<AttrValue>,
    /// Whether it sets compare side B: its id starts with `knob-b-` and its accessible names
    /// with "B ".
    #[prop_or_default]
    pub b: bool,
    /// Called with a new value.
    pub onchange: Callback<f64>,
    /// Called to go back to the default.
    pub onreset: Callback<()>,
}

/// A value as the slider shows it, in its unit.
pub fn show(unit: Unit, v: f64) -> String {
    match unit {
        Unit::Seconds => format_go_duration((v * 1000.0).round() as i64),
        Unit::Count => format!("{}", v.round() as i64),
        Unit::Rate => format!("{v:.2}/s"),
        Unit::Fraction => format!("{:.0}%", v * 100.0),
    }
}

/// The slider component.
#[function_component(Slider)]
pub fn slider(p: &SliderProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let changed = (p.value - p.default).abs() > 1e-9;
    let read = |cb: Callback<f64>| {
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Some(v) = crate::browser::decimal(input.value().trim()) {
                cb.emit(v);
            }
        })
    };
    let (id, side) = if p.b {
        (format!("knob-b-{}", p.flag), "B ")
    } else {
        (format!("knob-{}", p.flag), "")
    };
    let disabled = p.disabled.is_some();
    let reset = {
        let cb = p.onreset.clone();
        Callback::from(move |_| cb.emit(()))
    };
    let committed = super::filtered(&p.onchange, |text: String| crate::browser::decimal(text.trim()));
    html! {
        <div class={format!("slider{}{}", if changed { " slider-changed" } else { "" }, if disabled { " slider-disabled" } else { "" })}>
            <div class="slider-head">
                <label for={id.clone()} class="slider-flag">{format!("--{}", p.flag)}</label>
                <span class="slider-value">{show(p.unit, p.value)}</span>
                if changed { <span class="slider-changed-mark" title={tr(lang, "ui.slider.changed_title")}>{tr(lang, "ui.slider.changed")}</span> }
            </div>
            <div class="slider-row">
                <input id={id.clone()} class="slider-range" type="range" min={p.min.to_string()} max={p.max.to_string()} step={p.step.to_string()}
                    value={p.value.to_string()} aria-label={format!("{side}--{} ({})", p.flag, p.field)} disabled={disabled}
                    oninput={read(p.onchange.clone())} />
                <NumberField min={p.min.to_string()} max={p.max.to_string()} step={p.step.to_string()}
                    value={p.value.to_string()} label={format!("{side}{} {}", p.flag, tr(lang, "ui.slider.value"))} {disabled}
                    onchange={committed} />
                <button class="slider-reset" onclick={reset} disabled={!changed || disabled} aria-label={format!("{} {side}{}", tr(lang, "ui.slider.reset"), p.flag)}>{tr(lang, "ui.slider.reset")}</button>
            </div>
            <div class="slider-meta">
                <code>{p.field.clone()}</code>{tr(lang, "ui.slider.default")}{show(p.unit, p.default)}
                <p class="slider-help">{p.help.clone()}</p>
                if let Some(why) = &p.disabled { <p class="slider-why-disabled">{why.clone()}</p> }
            </div>
        </div>
    }
}

/// One side's settings as a knob's slider shows them.
pub struct KnobSide<'a> {
    /// What the user set.
    pub settings: &'a Settings,
    /// The resolved configuration.
    pub cfg: &'a Config,
    /// The version's defaults.
    pub defaults: &'a Config,
    /// Compare side B: its controls' ids start with `b-` and their accessible names with `B `.
    pub b: bool,
}

/// The slider of knob `k` on one side; changes and resets go to `onedit`.
pub fn knob_slider(lang: Lang, k: &'static Knob, side: &KnobSide, onedit: &Callback<Edit>) -> Html {
    let flag = k.flag;
    let minor = side.settings.minor;
    let onchange = onedit.reform(move |v: f64| Edit::Knob(flag, v));
    let onreset = onedit.reform(move |_| Edit::Reset(flag));
    html! {
        <Slider flag={flag} field={k.field()} b={side.b} help={k.help(lang)} unit={k.unit} value={side.settings.value(flag, side.cfg)}
            default={(k.read)(side.defaults)} min={k.min} max={k.max} step={k.step}
            disabled={k.unavailable(lang, minor).map(AttrValue::from)} {onchange} {onreset} />
    }
}
