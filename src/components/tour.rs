//! The guided tour: short steps that walk the chain on the default scenario, each highlighting
//! the control or panel it talks about. The step reached is kept in local storage, so the tour
//! can be left and resumed.

use crate::browser::storage;
use crate::explain::Milestones;
use crate::hooks::use_catalogue_part;
use crate::i18n::{tr, trf, Lang, Part};
use kubelife_engine::flags::{self, Flag};
use kubelife_engine::Millis;
use yew::prelude::*;

/// What a step highlights.
pub enum Target {
    /// The element a CSS selector finds.
    Css(&'static str),
    /// The slider of a flag of the catalogue (`kubelife_engine::flags`).
    Knob(&'static Flag),
}

impl Target {
    /// The CSS selector of the element.
    pub fn selector(&self) -> String {
        match self {
            Target::Css(css) => css.to_string(),
            Target::Knob(flag) => format!(".slider:has(#knob-{})", flag.name),
        }
    }
}

/// One step of the tour.
pub struct Step {
    /// Catalogue key prefix: `<key>.title` and `<key>.body`.
    pub key: &'static str,
    /// The element to highlight.
    pub target: Target,
    /// Where to put the playhead (ms), from the run's milestones (`Run::milestones`), if
    /// anywhere.
    pub seek: Option<fn(&Milestones) -> Millis>,
}

/// When the fault began, ms (0 without one).
fn at_fault(m: &Milestones) -> Millis {
    m.fault.unwrap_or(0)
}

/// When the milestone `pick` reads happened on the run's clock, ms (the fault, if never).
fn at(m: &Milestones, pick: fn(&Milestones) -> Option<Millis>) -> Millis {
    m.fault.unwrap_or(0) + pick(m).unwrap_or(0)
}

/// The steps, in order: heartbeats, the fault, the grace period, Unknown, the taint, the
/// toleration, deletion and replacement.
pub const STEPS: [Step; 7] = [
    Step {
        key: "tour.heartbeats",
        target: Target::Css("[data-tour=group-kubelet]"),
        seek: Some(|_| 0),
    },
    Step {
        key: "tour.fault",
        target: Target::Css("[data-tour=faults]"),
        seek: Some(at_fault),
    },
    Step {
        key: "tour.grace",
        target: Target::Knob(&flags::NODE_MONITOR_GRACE_PERIOD),
        seek: None,
    },
    Step {
        key: "tour.unknown",
        target: Target::Css("[data-tour=milestone-unknown]"),
        seek: Some(|o| at(o, |m| m.unknown)),
    },
    Step {
        key: "tour.taint",
        target: Target::Css("[data-tour=milestone-taint]"),
        seek: Some(|o| at(o, |m| m.taint)),
    },
    Step {
        key: "tour.toleration",
        target: Target::Knob(&flags::DEFAULT_UNREACHABLE_TOLERATION_SECONDS),
        seek: Some(|o| at(o, |m| m.eviction)),
    },
    Step {
        key: "tour.replacement",
        target: Target::Css("[data-tour=breakdown]"),
        seek: Some(|o| at(o, |m| m.replacement)),
    },
];

const STORAGE_KEY: &str = "kubelife.tour";

/// The step the reader left the tour at, if they left it unfinished.
pub fn saved_step() -> Option<usize> {
    storage()?
        .get_item(STORAGE_KEY)
        .ok()
        .flatten()?
        .parse::<usize>()
        .ok()
        .filter(|&s| s < STEPS.len())
}

fn save(step: Option<usize>) {
    if let Some(s) = storage() {
        let _ = match step {
            Some(n) => s.set_item(STORAGE_KEY, &n.to_string()),
            None => s.remove_item(STORAGE_KEY),
        };
    }
}

/// Properties of [`Tour`].
#[derive(Properties, PartialEq, Clone)]
pub struct TourProps {
    /// The open step, if the tour shows.
    pub step: Option<usize>,
    /// Go to a step, or close (`None`).
    pub ontour: Callback<Option<usize>>,
}

/// The tour card, and the highlight on its step's target.
#[function_component(Tour)]
pub fn tour(p: &TourProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    // Its texts are among those fetched once the page is live: it renders again when they are in.
    use_catalogue_part(lang, Part::Later, p.step.is_some());
    // Highlight the target while the step shows, and remember the step.
    use_effect_with(p.step, |step| {
        let target = step.and_then(|s| STEPS.get(s)).and_then(|s| {
            web_sys::window()?
                .document()?
                .query_selector(&s.target.selector())
                .ok()
                .flatten()
        });
        if let Some(el) = &target {
            let _ = el.class_list().add_1("tour-highlight");
            el.scroll_into_view();
        }
        move || {
            if let Some(el) = target {
                let _ = el.class_list().remove_1("tour-highlight");
            }
        }
    });
    let Some(i) = p.step.filter(|&s| s < STEPS.len()) else {
        return html! {};
    };
    let step = &STEPS[i];
    let go = |to: Option<usize>, remember: Option<usize>| {
        let cb = p.ontour.clone();
        Callback::from(move |_| {
            save(remember);
            cb.emit(to)
        })
    };
    let last = i + 1 == STEPS.len();
    html! {
        <aside class="tour" role="dialog" aria-label={tr(lang, "ui.tour.label")} data-testid="tour">
            <p class="tour-count">{trf(lang, "ui.tour.count", &[("step", &(i + 1)), ("steps", &STEPS.len())])}</p>
            <h3 class="tour-title" data-testid="tour-title">{tr_step(lang, step.key, "title")}</h3>
            <p>{tr_step(lang, step.key, "body")}</p>
            <div class="tour-buttons">
                <button onclick={go(i.checked_sub(1), i.checked_sub(1))} disabled={i == 0}>{tr(lang, "ui.tour.back")}</button>
                if last {
                    <button onclick={go(None, None)} data-testid="tour-finish">{tr(lang, "ui.tour.finish")}</button>
                } else {
                    <button onclick={go(Some(i + 1), Some(i + 1))} data-testid="tour-next">{tr(lang, "ui.tour.next")}</button>
                }
                <button onclick={go(None, Some(i))} data-testid="tour-leave">{tr(lang, "ui.tour.leave")}</button>
            </div>
        </aside>
    }
}

fn tr_step(lang: Lang, key: &str, part: &str) -> &'static str {
    crate::i18n::tr_built(lang, &format!("{key}.{part}"))
}
