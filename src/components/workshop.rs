//! The workshop: the header's tour button and exercise picker, the open exercise's goal as a
//! checklist that turns green, progressive hints, a revealable explanation, progress kept in
//! local storage (a page opened from a solution link counts nothing), and the instructor's list
//! of links with each exercise's explanation and solution.

use crate::browser::{page_address, storage};
use crate::components::copy::CopyButton;
use crate::components::picker::{Choice, Picker};
use crate::components::tour::{saved_step, STEPS};
use crate::exercises::{exercise, Ctx, Exercise, EXERCISES};
use crate::hooks::use_catalogue_part;
use crate::i18n::{tr, tr_built, trf, Lang, Part};
use crate::link::{encode_all, Display, Playback};
use crate::model::Run;
use std::collections::BTreeSet;
use std::rc::Rc;
use yew::prelude::*;

const STORAGE_KEY: &str = "kubelife.solved";

/// The ids of the exercises solved in this browser.
pub fn solved() -> BTreeSet<String> {
    storage()
        .and_then(|s| s.get_item(STORAGE_KEY).ok().flatten())
        .map(|text| read_solved(&text))
        .unwrap_or_default()
}

/// Exercise ids from their stored form, a JSON array of strings (`["why-5m50s"]`). Ids are
/// lowercase words and dashes, so anything else in the text is not an id.
pub fn read_solved(text: &str) -> BTreeSet<String> {
    kubelife_engine::order::set(
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .filter(|id| !id.is_empty())
            .map(str::to_string),
    )
}

/// The stored form of exercise ids: a JSON array of strings.
pub fn write_solved(ids: &BTreeSet<String>) -> String {
    let quoted: Vec<String> = ids.iter().map(|id| format!("\"{id}\"")).collect();
    format!("[{}]", quoted.join(","))
}

fn mark_solved(id: &str) {
    let mut all = solved();
    if all.insert(id.to_string()) {
        if let Some(s) = storage() {
            let _ = s.set_item(STORAGE_KEY, &write_solved(&all));
        }
    }
}

fn text(lang: Lang, ex: &Exercise, part: &str) -> &'static str {
    tr_built(lang, &format!("ex.{}.{part}", ex.id))
}

/// An exercise's title in `lang`.
pub fn title(lang: Lang, ex: &Exercise) -> &'static str {
    text(lang, ex, "title")
}

/// The link (query string) that opens exercise `n` in its starting state, or in its solution
/// (marked `solution=1`, so that opening it does not count as solving the exercise).
pub fn exercise_query(n: u32, solution: bool, lang: Lang) -> String {
    let Some(ex) = exercise(n) else { return String::new() };
    let display = Display {
        exercise: Some(n),
        lang: Some(lang),
        solution,
        ..Display::default()
    };
    if solution {
        let (a, b) = (ex.solution)();
        encode_all(&a, b.as_ref(), Playback::default(), &display)
    } else {
        // No settings: the page opens the exercise's own starting state.
        encode_all(
            &crate::settings::Settings::default(),
            None,
            Playback::default(),
            &display,
        )
    }
}

/// Properties of [`WorkshopNav`].
#[derive(Properties, PartialEq, Clone)]
pub struct WorkshopNavProps {
    /// The open exercise (1-based), if any.
    pub exercise: Option<u32>,
    /// Open an exercise (or close it with `None`).
    pub onexercise: Callback<Option<u32>>,
    /// Open the tour at a step.
    pub ontour: Callback<Option<usize>>,
}

/// The header's workshop row: the tour button (offering to resume where it was left), the
/// exercise picker and the link to the instructor view.
#[function_component(WorkshopNav)]
pub fn workshop_nav(p: &WorkshopNavProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let saved = saved_step();
    let open_tour = p.ontour.reform(move |_: MouseEvent| Some(saved.unwrap_or(0)));
    let choices: Vec<Choice> = std::iter::once(Choice::new("", tr(lang, "ui.exercise.none")))
        .chain(
            EXERCISES
                .iter()
                .zip(1u32..)
                .map(|(ex, n)| Choice::new(n.to_string(), format!("{n}. {}", title(lang, ex)))),
        )
        .collect();
    let selected = p.exercise.map(|n| n.to_string()).unwrap_or_default();
    let onpick = p.onexercise.reform(|v: String| v.parse::<u32>().ok());
    html! {
        <nav class="workshop-nav">
            <button onclick={open_tour} data-testid="tour-start">
                { match saved.filter(|&s| s > 0) {
                    Some(s) => trf(lang, "ui.tour.resume", &[("step", &(s + 1)), ("steps", &STEPS.len())]),
                    None => tr(lang, "ui.tour.start").to_string(),
                } }
            </button>
            { Picker { name: tr(lang, "ui.exercises").into(), lead: tr(lang, "ui.exercises").into(), choices, selected: selected.into(),
                testid: Some("exercise-picker"), onpick }.view() }
            <a href={format!("?instructor=1&lang={}", lang.code())}>{tr(lang, "ui.instructor.link")}</a>
        </nav>
    }
}

/// Properties of [`ExercisePanel`].
#[derive(Properties, PartialEq, Clone)]
pub struct ExerciseProps {
    /// The open exercise (1-based).
    pub n: u32,
    /// Side A's run.
    pub a: Rc<Run>,
    /// Side B's run, when comparing.
    pub b: Option<Rc<Run>>,
    /// Whether the page was opened from the exercise's solution link: nothing is marked solved.
    #[prop_or_default]
    pub solution: bool,
    /// Open another exercise (or close with `None`).
    pub onopen: Callback<Option<u32>>,
}

/// The open exercise.
#[function_component(ExercisePanel)]
pub fn exercise_panel(p: &ExerciseProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    // The goal, checks, hints and explanation come in their own part of the catalogue.
    let busy = !use_catalogue_part(lang, Part::Exercises, true);
    let n = p.n;
    let hints = use_state(|| 0usize);
    let explained = use_state(|| false);
    {
        let (hints, explained) = (hints.clone(), explained.clone());
        use_effect_with(n, move |_| {
            hints.set(0);
            explained.set(false);
        });
    }
    // The page only opens exercises that exist; the first stands in for any other number.
    let ex = exercise(n).unwrap_or(&EXERCISES[0]);
    // The checks read the runs: once per exercise and pair of runs, not at each playback tick.
    let results = use_memo((ex.id, p.a.clone(), p.b.clone()), move |(_, a, b)| {
        ex.results(&Ctx {
            a: a.checked(),
            b: b.as_ref().map(|b| b.checked()),
        })
    });
    let done = results.iter().all(|&r| r);
    // The documented solution opened from its link is the instructor's, not the participant's.
    let counts = done && !p.solution;
    // Remember a solved exercise once, not on every render.
    use_effect_with((ex.id, counts), |&(id, counts)| {
        if counts {
            mark_solved(id);
        }
    });
    // The effect runs after this render, so count this exercise now if it is newly solved.
    let stored = solved();
    let progress = stored.len() + usize::from(counts && !stored.contains(ex.id));
    let open = |to: Option<u32>| {
        let cb = p.onopen.clone();
        Callback::from(move |_| cb.emit(to))
    };
    let more_hint = {
        let hints = hints.clone();
        let max = ex.hints;
        Callback::from(move |_| hints.set((*hints + 1).min(max)))
    };
    let explain = {
        let explained = explained.clone();
        Callback::from(move |_| explained.set(true))
    };
    html! {
        <section class={if done { "workshop-exercise workshop-solved" } else { "workshop-exercise" }} aria-label={tr(lang, "ui.exercise")} aria-busy={busy.to_string()} data-testid="exercise">
            <p class="workshop-count">{trf(lang, "ui.exercise.count", &[("n", &n), ("total", &EXERCISES.len()), ("solved", &progress)])}</p>
            <h2 class="workshop-title" data-testid="exercise-title">{format!("{n}. {}", title(lang, ex))}</h2>
            <p class="workshop-goal">{text(lang, ex, "goal")}</p>
            <ul class="workshop-checklist">
            { for ex.checks.iter().zip(results.iter()).enumerate().map(|(i, (c, &ok))| html! {
                <li class={if ok { "workshop-check workshop-check-ok" } else { "workshop-check" }} data-testid={format!("check-{}", i + 1)} data-ok={ok.to_string()}>
                    <span class="workshop-mark" aria-hidden="true">{ if ok { "✓" } else { "○" } }</span>
                    {tr_built(lang, c.key)}
                    <span class="visually-hidden">{ tr(lang, if ok { "ui.check.done" } else { "ui.check.todo" }) }</span>
                </li>
            }) }
            </ul>
            // Opened from the solution link, the panel says why nothing counts instead of "solved".
            if done || p.solution {
                <p class="workshop-well-done" data-testid={if p.solution { "exercise-solution-shown" } else { "exercise-solved" }}>
                    {tr(lang, if p.solution { "ui.exercise.solution_shown" } else { "ui.exercise.solved" })}</p>
            }
            <ol class="workshop-hints">
            { for (1..=*hints).map(|h| html! { <li data-testid={format!("hint-{h}")}>{text(lang, ex, &format!("hint.{h}"))}</li> }) }
            </ol>
            <div class="workshop-buttons">
                <button onclick={more_hint} disabled={*hints >= ex.hints} data-testid="hint">
                    { trf(lang, "ui.exercise.hint", &[("shown", &*hints), ("hints", &ex.hints)]) }
                </button>
                <button onclick={explain} disabled={*explained} data-testid="explain">{tr(lang, "ui.exercise.explain")}</button>
                <button onclick={open(Some(n))}>{tr(lang, "ui.exercise.reset")}</button>
                if n > 1 { <button onclick={open(Some(n - 1))}>{tr(lang, "ui.exercise.prev")}</button> }
                if (n as usize) < EXERCISES.len() { <button onclick={open(Some(n + 1))}>{tr(lang, "ui.exercise.next")}</button> }
                <button onclick={open(None)}>{tr(lang, "ui.exercise.close")}</button>
            </div>
            if *explained {
                { explanation(lang, ex, "explanation".into(), html! {
                    <a href={format!("?{}", exercise_query(n, true, lang))} data-testid="solution-link">{tr(lang, "ui.exercise.solution_link")}</a>
                }) }
            }
        </section>
    }
}

/// An exercise's explanation and documented solution, followed by `after` (the panel's link to
/// the solution; nothing in the instructor's list).
fn explanation(lang: Lang, ex: &Exercise, testid: String, after: Html) -> Html {
    html! {
        <div class="workshop-explanation" data-testid={testid}>
            <p>{text(lang, ex, "explain")}</p>
            <p><strong>{tr(lang, "ui.exercise.solution")}</strong>{" "}{text(lang, ex, "solution")}{" "}{after}</p>
        </div>
    }
}

/// Properties of [`Instructor`].
#[derive(Properties, PartialEq, Clone)]
pub struct InstructorProps {
    /// Open an exercise in this page.
    pub onopen: Callback<Option<u32>>,
}

/// Every exercise with its goal, its explanation and documented solution, and links to copy.
#[function_component(Instructor)]
pub fn instructor(p: &InstructorProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let busy = !use_catalogue_part(lang, Part::Exercises, true);
    let page = page_address();
    let done = solved();
    html! {
        <section class="workshop-instructor" aria-busy={busy.to_string()} data-testid="instructor">
            <h2>{tr(lang, "ui.instructor.title")}</h2>
            <p class="workshop-help">{tr(lang, "ui.instructor.help")}</p>
            <ol>
            { for EXERCISES.iter().enumerate().map(|(i, ex)| {
                let n = i as u32 + 1;
                let start = format!("{page}?{}", exercise_query(n, false, lang));
                let solution = format!("{page}?{}", exercise_query(n, true, lang));
                let cb = p.onopen.clone();
                let open = Callback::from(move |_| cb.emit(Some(n)));
                html! {
                    <li data-testid={format!("instructor-{n}")}>
                        <h3>{title(lang, ex)}{ if done.contains(ex.id) { " ✓" } else { "" } }</h3>
                        <p>{text(lang, ex, "goal")}</p>
                        { explanation(lang, ex, format!("instructor-explanation-{n}"), html! {}) }
                        <p class="workshop-links">
                            <input class="workshop-link" readonly=true value={start.clone()} aria-label={trf(lang, "ui.instructor.start_label", &[("n", &n)])} size="40" />
                            <CopyButton text={start} label={tr(lang, "ui.copy_link")} />
                            <CopyButton text={solution} label={tr(lang, "ui.instructor.copy_solution")} />
                            <button onclick={open}>{tr(lang, "ui.instructor.open")}</button>
                        </p>
                    </li>
                }
            }) }
            </ol>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The solution links say `solution=1`, which the page reads back; the start links do not.
    #[test]
    fn a_solution_link_is_marked_so_that_it_counts_nothing() {
        for n in 1..=EXERCISES.len() as u32 {
            let solution = crate::link::decode(&exercise_query(n, true, Lang::Zh));
            assert_eq!((solution.display.exercise, solution.display.solution), (Some(n), true));
            let start = crate::link::decode(&exercise_query(n, false, Lang::Zh));
            assert_eq!((start.display.exercise, start.display.solution), (Some(n), false));
        }
    }

    #[test]
    fn solved_exercises_are_stored_as_a_json_array() {
        let ids: BTreeSet<String> = ["why-5m50s", "kcm-restart"].iter().map(|s| s.to_string()).collect();
        let text = write_solved(&ids);
        assert_eq!(text, r#"["kcm-restart","why-5m50s"]"#);
        assert_eq!(serde_json::from_str::<Vec<String>>(&text).unwrap().len(), 2);
        assert_eq!(read_solved(&text), ids);
        assert_eq!(read_solved(" [ \"why-5m50s\" ,\"kcm-restart\"]"), ids);
        assert!(read_solved("[]").is_empty());
        assert!(EXERCISES
            .iter()
            .all(|ex| read_solved(&format!("[\"{}\"]", ex.id)).contains(ex.id)));
    }
}
