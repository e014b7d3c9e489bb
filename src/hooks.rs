//! The page's effects on the world outside its components, as named hooks: the address bar, the
//! parent frame of an embed, the playback clock, keyboard shortcuts, the document's language, and
//! whether an element has come near the viewport.
//! Each takes what it needs as values and callbacks, so none knows the page's reducer. The clock
//! and the keyboard keep the callbacks they are first given, for as long as the page lives: give
//! them callbacks that stay valid, such as ones that dispatch to a reducer.

use crate::i18n::{Lang, Part};
use crate::jobs::{EngineAnswer, EngineJob};
use crate::tune::{time_left, Ask, Found, LONG_SEARCH};
use kubelife_engine::{Cause, Config, Millis};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

/// Writes `query` into the address bar whenever it changes (without a history entry), so a reload
/// or a copied address loses nothing.
#[hook]
pub fn use_address_bar(query: String) {
    use_effect_with(query, |query| {
        if let Some(w) = web_sys::window() {
            if let Ok(h) = w.history() {
                let path = w.location().pathname().unwrap_or_default();
                let url = format!("{path}?{query}");
                let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
            }
        }
    });
}

/// Inside an iframe, posts `{type: "kubelife:height", height}` to the parent page whenever the
/// height of the page's root element (`root`, CSS px) changes, so the embedding page can fit the
/// frame: its content's own height, which shrinks below the frame's and follows a resize (a
/// `ResizeObserver`, not a re-render).
#[hook]
pub fn use_embed_height(root: NodeRef) {
    use_effect_with((), move |_| {
        let held = observe_height(&root);
        move || {
            if let Some((observer, _post)) = held {
                observer.disconnect();
            }
        }
    });
}

/// Observes `root`'s size inside an iframe, posting its height to the parent when it changes:
/// the observer and its callback, which live as long as it observes. `None` outside a frame.
fn observe_height(root: &NodeRef) -> Option<(web_sys::ResizeObserver, Closure<dyn Fn()>)> {
    let w = web_sys::window()?;
    let parent = w.parent().ok().flatten().filter(|p| *p != w)?;
    let el = root.cast::<web_sys::Element>()?;
    let last = std::cell::Cell::new(0);
    let measured = el.clone();
    let post = Closure::<dyn Fn()>::new(move || {
        let height = measured.get_bounding_client_rect().height().ceil() as i32;
        if height != last.replace(height) {
            let msg = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&msg, &"type".into(), &"kubelife:height".into());
            let _ = js_sys::Reflect::set(&msg, &"height".into(), &height.into());
            let _ = parent.post_message(&msg, "*");
        }
    });
    let observer = web_sys::ResizeObserver::new(post.as_ref().unchecked_ref()).ok()?;
    observer.observe(&el);
    Some((observer, post))
}

/// Calls `ontick` with the wall-clock ms elapsed every `frame` ms while `playing`: a paused page
/// runs no timer.
#[hook]
pub fn use_playback_clock(frame: f64, playing: bool, ontick: Callback<f64>) {
    use_effect_with(playing, move |&playing| {
        let interval = playing.then(|| gloo_timers::callback::Interval::new(frame as u32, move || ontick.emit(frame)));
        move || drop(interval)
    });
}

/// Space calls `ontoggle` and the Right arrow `onnext`, unless a control has the keyboard (typing
/// in a field, or a focused button that takes Space and arrows itself).
#[hook]
pub fn use_keyboard_shortcuts(ontoggle: Callback<()>, onnext: Callback<()>) {
    use_effect_with((), move |_| {
        let handler = Closure::<dyn Fn(KeyboardEvent)>::new(move |e: KeyboardEvent| {
            let in_control = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA" | "BUTTON"));
            if in_control {
                return;
            }
            match e.key().as_str() {
                " " => {
                    e.prevent_default();
                    ontoggle.emit(());
                }
                "ArrowRight" => onnext.emit(()),
                _ => {}
            }
        });
        let doc = web_sys::window().and_then(|w| w.document());
        if let Some(d) = &doc {
            let _ = d.add_event_listener_with_callback("keydown", handler.as_ref().unchecked_ref());
        }
        move || {
            if let Some(d) = doc {
                let _ = d.remove_event_listener_with_callback("keydown", handler.as_ref().unchecked_ref());
            }
        }
    });
}

/// Keeps `<html lang>` in step with the page's language, so screen readers and fonts follow it.
#[hook]
pub fn use_document_lang(lang: Lang) {
    use_effect_with(lang, |lang| set_document_lang(*lang));
}

/// Removes the first view (`first_view`) once the page has drawn its own first render.
#[hook]
pub fn use_first_view_removed() {
    use_effect_with((), |_| {
        let first = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(crate::first_view::ID));
        if let Some(el) = first {
            el.remove();
        }
    });
}

/// Sets `<html lang>` to `lang` (the page sets it before its first render too, so that canvases
/// drawn in that render already pick the language's fonts).
pub fn set_document_lang(lang: Lang) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = el.set_attribute("lang", if lang == Lang::Zh { "zh-CN" } else { lang.code() });
    }
}

/// How near the viewport an element counts as seen, so that what it fetches is there by the time
/// it scrolls in. Small enough that the Export panel, about 1,460 px down the default page at
/// 1440 px, is not seen from a 900 px window that has not scrolled.
const NEAR: &str = "200px";

/// Whether the element `node` refers to has come near the viewport yet ([`NEAR`]); once true it
/// stays true. Where the browser has no `IntersectionObserver`, true at once.
#[hook]
pub fn use_seen(node: NodeRef) -> bool {
    let seen = use_state(|| false);
    {
        let set = seen.setter();
        use_effect_with(node, move |node| {
            let watch = node.cast::<web_sys::Element>().and_then(|el| watch(&el, set.clone()));
            if watch.is_none() {
                set.set(true);
            }
            move || {
                if let Some((observer, _closure)) = watch {
                    observer.disconnect();
                }
            }
        });
    }
    *seen
}

/// An `IntersectionObserver` and the callback it calls (dropped together).
type Watch = (
    web_sys::IntersectionObserver,
    Closure<dyn FnMut(js_sys::Array, web_sys::IntersectionObserver)>,
);

/// Observes `el` until it intersects the viewport widened by [`NEAR`], then sets `seen`.
fn watch(el: &web_sys::Element, seen: UseStateSetter<bool>) -> Option<Watch> {
    let closure = Closure::<dyn FnMut(js_sys::Array, web_sys::IntersectionObserver)>::new(
        move |entries: js_sys::Array, observer: web_sys::IntersectionObserver| {
            let near = entries.iter().any(|e| {
                e.unchecked_into::<web_sys::IntersectionObserverEntry>()
                    .is_intersecting()
            });
            if near {
                seen.set(true);
                observer.disconnect();
            }
        },
    );
    let init = web_sys::IntersectionObserverInit::new();
    init.set_root_margin(NEAR);
    let observer = web_sys::IntersectionObserver::new_with_options(closure.as_ref().unchecked_ref(), &init).ok()?;
    observer.observe(el);
    Some((observer, closure))
}

/// Where the Tune panel's search stands.
#[derive(Clone, PartialEq, Debug)]
pub enum Search {
    /// Not asked yet.
    Idle,
    /// Under way: runs done, of how many known so far (0 of 0 until the worker has planned it),
    /// and about how long is left, ms.
    Running {
        /// Done.
        done: u32,
        /// Known so far.
        total: u32,
        /// About how long is left, ms.
        left: Option<Millis>,
    },
    /// Stopped once its pace is known, the time left being over `tune::LONG_SEARCH`: it waits
    /// to be asked again, confirmed.
    Long {
        /// The time it would take, ms.
        estimate: Millis,
        /// Its runs known so far.
        total: u32,
    },
    /// What it found.
    Found(Rc<Found>),
    /// Why it cannot run.
    Refused(Cause),
    /// Stopped before the end.
    Stopped,
}

/// The Tune panel's search as [`use_search`] gives it.
pub struct Searching {
    /// Where it stands.
    pub state: Search,
    /// Starts a search of a configuration (a new one ends the one under way); `true`: go on
    /// whatever its estimate.
    pub run: Callback<(Rc<Config>, Ask, bool)>,
    /// Stops the search under way.
    pub stop: Callback<()>,
}

/// The page's clock, ms.
fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// The Tune panel's search, in a worker of its own (`worker_line::listen`). Answers to a search
/// that a newer one replaced are dropped. Unless confirmed, a search whose pace (timed from its
/// first report to its second) leaves it over `tune::LONG_SEARCH` to go is stopped there, to be
/// confirmed.
#[hook]
pub fn use_search() -> Searching {
    let state = use_state(|| Search::Idle);
    let generation = use_mut_ref(|| 0u32);
    let run = {
        let (set, generation) = (state.setter(), generation.clone());
        Callback::from(move |(cfg, ask, confirmed): (Rc<Config>, Ask, bool)| {
            let mine = {
                let mut g = generation.borrow_mut();
                *g = g.wrapping_add(1);
                *g
            };
            set.set(Search::Running {
                done: 0,
                total: 0,
                left: None,
            });
            let (set, generation) = (set.clone(), generation.clone());
            // The first report's time and runs: the pace is timed from there.
            let mut first: Option<(f64, u32)> = None;
            let mut asked = confirmed;
            crate::worker_line::listen(EngineJob::tune(Config::clone(&cfg), ask), move |a| {
                if *generation.borrow() != mine {
                    return;
                }
                let mut next = searched(a);
                if let Search::Running { done, total, left } = &mut next {
                    let at = now();
                    let (t0, from) = *first.get_or_insert((at, *done));
                    *left = time_left(from, *done, *total, at - t0);
                    if let (false, Some(l)) = (asked, *left) {
                        asked = true;
                        if l > LONG_SEARCH {
                            *generation.borrow_mut() = mine.wrapping_add(1);
                            crate::worker_line::send(EngineJob::StopTune, |_| ());
                            set.set(Search::Long {
                                estimate: l,
                                total: *total,
                            });
                            return;
                        }
                    }
                }
                set.set(next);
            });
        })
    };
    let stop = Callback::from(|()| crate::worker_line::send(EngineJob::StopTune, |_| ()));
    Searching {
        state: (*state).clone(),
        run,
        stop,
    }
}

/// A search's state after an answer of its worker (the time left not known yet).
fn searched(a: EngineAnswer) -> Search {
    match a {
        EngineAnswer::TuneProgress { done, total } => Search::Running {
            done,
            total,
            left: None,
        },
        EngineAnswer::Tuned(found) => Search::Found(Rc::new(*found)),
        EngineAnswer::TuneRefused(why) => kubelife_engine::wire::decode_messages(&why.0)
            .ok()
            .and_then(|m| m.into_iter().next())
            .map_or(Search::Stopped, |(_, c)| Search::Refused(c)),
        _ => Search::Stopped,
    }
}

/// Whether the texts off the first view's path (`Part::Later`) are at hand, or could not be
/// fetched (then their keys show, and the console says why). They are fetched once the page is
/// live, in a task of their own, so that they are not on the page's first download; the page
/// renders again when they are in.
#[hook]
pub fn use_later_texts(lang: Lang) -> bool {
    let tried = use_state(|| false);
    {
        let tried = tried.setter();
        use_effect_with(lang, move |&lang| {
            gloo_timers::callback::Timeout::new(0, move || {
                crate::browser::with_catalogue(lang, Part::Later, move || tried.set(true));
            })
            .forget();
        });
    }
    *tried || crate::i18n::has(lang, Part::Later)
}

/// Whether `lang`'s `part` of the catalogue is at hand, or could not be fetched (then its keys
/// show, and the console says why, as for [`use_later_texts`]): once it is `wanted`, it is
/// fetched (`browser::with_catalogue`) and the component renders again when the fetch ends.
#[hook]
pub fn use_catalogue_part(lang: Lang, part: Part, wanted: bool) -> bool {
    let tried = use_state(|| None::<(Lang, Part)>);
    {
        let tried = tried.setter();
        use_effect_with((lang, part, wanted), move |&(lang, part, wanted)| {
            if wanted && !crate::i18n::has(lang, part) {
                crate::browser::with_catalogue(lang, part, move || tried.set(Some((lang, part))));
            }
        });
    }
    *tried == Some((lang, part)) || crate::i18n::has(lang, part)
}
