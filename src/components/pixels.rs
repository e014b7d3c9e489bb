//! Canvases drawn at the device's pixel ratio: a canvas's backing store is its CSS size times
//! `devicePixelRatio`, and drawing is scaled by the ratio, so that the components draw in CSS
//! pixels and a phone or a HiDPI screen shows sharp lines and text. [`use_redraw`] tells the
//! components when to draw again: when the ratio changes (a zoom, a window moved to another
//! screen) or the window is resized.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};
use yew::prelude::*;

/// The device's pixel ratio: device pixels per CSS pixel (1 where the browser says nothing).
pub fn ratio() -> f64 {
    web_sys::window()
        .map(|w| w.device_pixel_ratio())
        .filter(|r| r.is_finite() && *r > 0.0)
        .unwrap_or(1.0)
}

/// Sizes `c` to `width` × `height` CSS pixels at the device's pixel ratio (its backing store that
/// many device pixels, its CSS height set, its width left to the style sheet) and returns its
/// context, scaled so that one unit is one CSS pixel.
pub fn fit(c: &HtmlCanvasElement, width: u32, height: u32) -> Option<CanvasRenderingContext2d> {
    let r = ratio();
    let (w, h) = ((width as f64 * r).round() as u32, (height as f64 * r).round() as u32);
    // Setting a size clears the canvas and its transform, even to the same size.
    if c.width() != w {
        c.set_width(w);
    }
    c.set_height(h);
    let css = format!("height: {height}px");
    if c.get_attribute("style").as_deref() != Some(css.as_str()) {
        let _ = c.set_attribute("style", &css);
    }
    let ctx: CanvasRenderingContext2d = c.get_context("2d").ok()??.dyn_into().ok()?;
    ctx.set_transform(r, 0.0, 0.0, r, 0.0, 0.0).ok()?;
    Some(ctx)
}

/// Runs `draw` at the next animation frame. A canvas sized to its laid-out width reads that
/// width in the frame's own layout then, rather than forcing a layout in the middle of the render
/// that changed the page (at 4,300 nodes just imported, 34 ms of a 91 ms task).
pub fn on_next_frame(draw: impl FnOnce() + 'static) {
    next_frame(Box::new(draw));
}

/// [`on_next_frame`] for one type of callback, so that the page carries its binding once.
fn next_frame(draw: Box<dyn FnOnce()>) {
    if let Some(window) = web_sys::window() {
        let _ = window.request_animation_frame(Closure::once_into_js(draw).unchecked_ref());
    }
}

/// A number that changes whenever canvases should be drawn again: when the device's pixel ratio
/// changes (a `(resolution: Xdppx)` media query stops matching) or the window is resized. Before
/// the page's effects run it is 0, so that the page renders without a browser.
#[hook]
pub fn use_redraw() -> u32 {
    let generation = use_state(|| 0u32);
    let seen = *generation;
    {
        let generation = generation.clone();
        // Listens again after every change: a media query names one ratio.
        use_effect_with(seen, move |_| {
            let listening = listen(move || generation.set(seen.wrapping_add(1)));
            move || drop(listening)
        });
    }
    seen
}

/// The listeners of [`use_redraw`], removed when dropped.
struct Listening {
    query: Option<web_sys::MediaQueryList>,
    callback: Closure<dyn Fn()>,
}

impl Drop for Listening {
    fn drop(&mut self) {
        let f = self.callback.as_ref().unchecked_ref();
        if let Some(q) = &self.query {
            let _ = q.remove_event_listener_with_callback("change", f);
        }
        if let Some(w) = web_sys::window() {
            let _ = w.remove_event_listener_with_callback("resize", f);
        }
    }
}

/// Calls `changed` once the device's pixel ratio changes or the window is resized.
fn listen(changed: impl Fn() + 'static) -> Option<Listening> {
    let window = web_sys::window()?;
    let callback = Closure::<dyn Fn()>::new(changed);
    let f = callback.as_ref().unchecked_ref();
    let query = window
        .match_media(&format!("(resolution: {}dppx)", ratio()))
        .ok()
        .flatten();
    if let Some(q) = &query {
        let _ = q.add_event_listener_with_callback("change", f);
    }
    let _ = window.add_event_listener_with_callback("resize", f);
    Some(Listening { query, callback })
}
