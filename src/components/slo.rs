//! The SLO chips: a chip per target of the link (`target=`), `pass` or `fail`, judged over the
//! 200 seeds once they have been run for the settings shown, else over the run shown, with a line
//! saying which and the value it read. The chip's word is the same in every language; what it
//! means is beside it and in its title.

use crate::components::seeds::{slo_text, Spreads};
use crate::explain::milestone_text;
use crate::i18n::{tr, trf, Lang};
use crate::model::Run;
use crate::slo::{judge, Basis, Judged};
use kubelife_engine::tune::{Target, Verdict};
use std::rc::Rc;
use yew::prelude::*;

/// Properties of [`Slo`].
#[derive(Properties, PartialEq, Clone)]
pub struct SloProps {
    /// The targets.
    pub targets: Vec<Target>,
    /// The run shown.
    pub run: Rc<Run>,
    /// The spreads over seeds of the settings shown, once run.
    pub spreads: Option<Spreads>,
}

/// What a verdict read, in words.
fn reading(lang: Lang, j: &Judged) -> String {
    let value = match j.verdict {
        Verdict::NotInScenario => return tr(lang, "ui.slo.absent").to_string(),
        Verdict::Pass(v) => Some(v),
        Verdict::Fail(v) => v,
    };
    let value = milestone_text(lang, value);
    match j.basis {
        Basis::Seeds => trf(lang, "ui.slo.seeds", &[("p", &j.target.percentile), ("value", &value)]),
        Basis::Run => trf(lang, "ui.slo.run", &[("value", &value)]),
    }
}

/// A chip per target, with what it was judged on.
#[function_component(Slo)]
pub fn slo(p: &SloProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    // Judged once per run, spreads and targets, not at each playback frame.
    let key = (
        p.targets.clone(),
        Rc::as_ptr(&p.run) as usize,
        p.spreads.as_ref().map_or(0, |s| Rc::as_ptr(s) as usize),
    );
    let judged = {
        let (run, spreads) = (p.run.clone(), p.spreads.clone());
        use_memo(key, move |(targets, _, _)| {
            judge(targets, &run.outcome, &run.cfg, spreads.as_ref().map(|s| &s.0))
        })
    };
    if judged.is_empty() {
        return html! {};
    }
    html! {
        <section class="slo" aria-label={tr(lang, "ui.slo.title")} data-testid="slo">
            <h3 class="slo-title">{tr(lang, "ui.slo.title")}</h3>
            <ul class="slo-list">
            { for judged.iter().map(|j| {
                let passed = j.verdict.passed();
                let meaning = tr(lang, if passed { "ui.slo.pass" } else { "ui.slo.fail" });
                html! {
                    <li class="slo-item">
                        <span class={classes!("slo-chip", if passed { "slo-pass" } else { "slo-fail" })}
                            data-testid={format!("slo-{}", j.target.milestone)} title={meaning}>{j.word()}</span>
                        <span class="slo-target">{slo_text(&j.target)}</span>
                        <span class="slo-reading">{format!("{meaning}: {}", reading(lang, j))}</span>
                    </li>
                }
            }) }
            </ul>
        </section>
    }
}
