//! "Download as SVG" and "Download as PNG" for the timeline and for "where does the time go?":
//! the same kubelife-figures functions as `kubelife render`, drawn as SVG by the files worker
//! (`kubelife_figures::picture`), saved through a temporary `<a download>`; the PNG is that SVG
//! drawn on a canvas that is never shown.

use crate::explain::figure_bars;
use crate::i18n::{lookup, tr, Lang};
use crate::jobs::{FilesAnswer, FilesJob};
use crate::model::Run;
use crate::replay::Lane;
use kubelife_engine::Millis;
use kubelife_figures::picture::{DrawnLane, Picture};
use kubelife_figures::{BreakdownTexts, Legend, LegendTexts};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The figure the buttons save.
#[derive(Clone, PartialEq)]
pub enum Figure {
    /// The timeline with the playhead where it stands.
    Timeline {
        /// The lanes.
        lanes: Rc<Vec<Lane>>,
        /// Run length, ms.
        duration: Millis,
        /// The playhead, ms.
        now: Millis,
    },
    /// "Where does the time go?": the run, with its bars read off it.
    Breakdown(Rc<Run>),
}

impl Figure {
    /// The file name's middle part, and the catalogue key of the figure's name.
    fn name(&self) -> (&'static str, &'static str) {
        match self {
            Figure::Timeline { .. } => ("timeline", "ui.download.timeline"),
            Figure::Breakdown(_) => ("breakdown", "ui.breakdown.title"),
        }
    }

    /// The figure with its texts in the reader's language, as the files worker draws it.
    fn picture(&self, lang: Lang) -> Picture {
        match self {
            Figure::Timeline { lanes, duration, now } => Picture::Timeline {
                lanes: lanes.iter().map(DrawnLane::from).collect(),
                duration: *duration,
                now: Some(*now),
                legend: Box::new(legend(lang)),
            },
            Figure::Breakdown(run) => Picture::Breakdown {
                bars: figure_bars(&run.bars, &run.outcome.events, &|k| lookup(lang, k)),
                texts: BreakdownTexts {
                    title: tr(lang, "ui.breakdown.title").to_string(),
                },
            },
        }
    }
}

/// Properties of [`Download`].
#[derive(Properties, PartialEq, Clone)]
pub struct DownloadProps {
    /// What to save.
    pub figure: Figure,
}

/// Saves `href` as `file` through a temporary `<a download>`.
fn save(href: &str, file: &str) -> Option<()> {
    let a: web_sys::HtmlAnchorElement = web_sys::window()?
        .document()?
        .create_element("a")
        .ok()?
        .dyn_into()
        .ok()?;
    a.set_href(href);
    a.set_download(file);
    a.click();
    Some(())
}

/// The SVG as a Blob's object address, freed ten seconds later (once a download or an image
/// has read it).
fn svg_address(svg: &str) -> Option<String> {
    let parts = js_sys::Array::of1(&svg.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("image/svg+xml");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
    let freed = url.clone();
    gloo_timers::callback::Timeout::new(10_000, move || {
        let _ = web_sys::Url::revoke_object_url(&freed);
    })
    .forget();
    Some(url)
}

/// Saves the SVG as a PNG: drawn on a canvas that is never shown, at twice its size or the
/// screen's device pixel ratio if higher (rounded up), so that it stays sharp on a dense screen or
/// a slide. The browser draws the SVG as vectors at that size.
fn save_png(svg: &str, file: String) -> Option<()> {
    let url = svg_address(svg)?;
    let image = web_sys::HtmlImageElement::new().ok()?;
    let loaded = image.clone();
    let onload = Closure::once_into_js(move || {
        if drawn_png(&loaded).and_then(|href| save(&href, &file)).is_none() {
            web_sys::console::error_1(&"kubelife could not draw the PNG".into());
        }
    });
    image.set_onload(Some(onload.unchecked_ref()));
    image.set_src(&url);
    Some(())
}

/// `image` (loaded) drawn on a new canvas at the scale of [`save_png`], as a PNG `data:` address.
fn drawn_png(image: &web_sys::HtmlImageElement) -> Option<String> {
    let window = web_sys::window()?;
    let canvas: web_sys::HtmlCanvasElement = window.document()?.create_element("canvas").ok()?.dyn_into().ok()?;
    let (w, h) = (f64::from(image.natural_width()), f64::from(image.natural_height()));
    let scale = window.device_pixel_ratio().max(2.0).ceil();
    canvas.set_width((w * scale) as u32);
    canvas.set_height((h * scale) as u32);
    let context: web_sys::CanvasRenderingContext2d = canvas.get_context("2d").ok()??.dyn_into().ok()?;
    context
        .draw_image_with_html_image_element_and_dw_and_dh(image, 0.0, 0.0, w * scale, h * scale)
        .ok()?;
    canvas.to_data_url_with_type("image/png").ok()
}

/// The legend of a saved timeline: the page's own, in the reader's language.
fn legend(lang: Lang) -> Legend {
    Legend::from_texts(LegendTexts {
        terminating: tr(lang, "ui.timeline.terminating"),
        partial: tr(lang, "ui.timeline.partial"),
        moved: tr(lang, "ui.timeline.moved"),
        marks: tr(lang, "ui.timeline.marks"),
    })
}

/// The two buttons.
#[function_component(Download)]
pub fn download(p: &DownloadProps) -> Html {
    let lang = use_context::<Lang>().unwrap_or_default();
    let (name, title) = p.figure.name();
    let button = |png: bool| {
        let figure = p.figure.clone();
        Callback::from(move |_: MouseEvent| {
            let job = FilesJob::Svg(Rc::new(figure.picture(lang)));
            crate::worker_line::send(job, move |answer| {
                let saved = match answer {
                    FilesAnswer::Svg(Ok(svg)) if png => save_png(&svg, format!("kubelife-{name}.png")),
                    FilesAnswer::Svg(Ok(svg)) => {
                        svg_address(&svg).and_then(|url| save(&url, &format!("kubelife-{name}.svg")))
                    }
                    FilesAnswer::Svg(Err(why)) => {
                        web_sys::console::error_1(&format!("kubelife could not draw the figure: {why}").into());
                        Some(())
                    }
                    _ => None,
                };
                if saved.is_none() {
                    web_sys::console::error_1(&"kubelife could not save the figure".into());
                }
            });
        })
    };
    html! {
        <div class="download" role="group" aria-label={tr(lang, title)}>
            <button onclick={button(false)} data-testid={format!("download-{name}-svg")}>{tr(lang, "ui.download.svg")}</button>
            <button onclick={button(true)} data-testid={format!("download-{name}-png")}>{tr(lang, "ui.download.png")}</button>
        </div>
    }
}
