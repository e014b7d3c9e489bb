//! "Download as SVG" and "Download as PNG" for the timeline and for "where does the time go?":
//! the same kubelife-figures functions as `kubelife render`, on plotters' SVG backend or on an
//! offscreen canvas, saved through a temporary `<a download>`.

use crate::explain::figure_bars;
use crate::i18n::{lookup, tr, Lang};
use crate::model::Run;
use crate::replay::Lane;
use kubelife_engine::Millis;
use kubelife_figures::{
    breakdown_height, draw_breakdown, draw_timeline, Bar, BreakdownTexts, Legend, LegendTexts, TimelineFigure,
};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Width of a downloaded picture, px (`kubelife render`'s default); a PNG has two or more
/// pixels to each of these.
const WIDTH: u32 = 900;

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
}

/// Properties of [`Download`].
#[derive(Properties, PartialEq, Clone)]
pub struct DownloadProps {
    /// What to save.
    pub figure: Figure,
}

/// A figure with its texts in the reader's language, ready for any backend.
enum Picture<'a> {
    Timeline(TimelineFigure<'a>),
    Breakdown(Vec<Bar>, BreakdownTexts),
}

impl<'a> Picture<'a> {
    fn new(lang: Lang, figure: &'a Figure, legend: &'a Legend) -> Picture<'a> {
        match figure {
            Figure::Timeline { lanes, duration, now } => Picture::Timeline(TimelineFigure {
                lanes,
                duration: *duration,
                now: Some(*now),
                legend: Some(legend),
            }),
            Figure::Breakdown(run) => {
                let drawn = figure_bars(&run.bars, &run.outcome.events, &|k| lookup(lang, k));
                let texts = BreakdownTexts {
                    title: tr(lang, "ui.breakdown.title").to_string(),
                };
                Picture::Breakdown(drawn, texts)
            }
        }
    }

    fn size(&self) -> (u32, u32) {
        match self {
            Picture::Timeline(t) => (WIDTH, t.height()),
            Picture::Breakdown(bars, _) => (WIDTH, breakdown_height(bars, WIDTH)),
        }
    }

    fn paint<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Option<()> {
        match self {
            Picture::Timeline(t) => draw_timeline(root, t).ok()?,
            Picture::Breakdown(bars, texts) => draw_breakdown(root, bars, texts).ok()?,
        }
        root.present().ok()
    }

    /// The picture as SVG text.
    fn svg(&self) -> Option<String> {
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, self.size()).into_drawing_area();
            self.paint(&root)?;
        }
        Some(svg)
    }

    /// The picture as a PNG `data:` address, drawn on a canvas that is never shown, at twice its
    /// size or the screen's device pixel ratio if higher (rounded up), so that it stays sharp on
    /// a dense screen or a slide: the figure is laid out at its own size and the canvas scaled.
    fn png(&self) -> Option<String> {
        let window = web_sys::window()?;
        let canvas: web_sys::HtmlCanvasElement = window.document()?.create_element("canvas").ok()?.dyn_into().ok()?;
        let (w, h) = self.size();
        let scale = window.device_pixel_ratio().max(2.0).ceil();
        canvas.set_width((f64::from(w) * scale) as u32);
        canvas.set_height((f64::from(h) * scale) as u32);
        let context: web_sys::CanvasRenderingContext2d = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        // plotters' canvas backend draws through this context and keeps its transform.
        context.scale(scale, scale).ok()?;
        let root = CanvasBackend::with_canvas_object(canvas.clone())?.into_drawing_area();
        self.paint(&root.shrink((0, 0), (w, h)))?;
        canvas.to_data_url_with_type("image/png").ok()
    }
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

/// The SVG as a Blob's object address, freed once the download has started.
fn save_svg(svg: &str, file: &str) -> Option<()> {
    let parts = js_sys::Array::of1(&svg.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("image/svg+xml");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
    save(&url, file);
    gloo_timers::callback::Timeout::new(10_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
    Some(())
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
            let legend = legend(lang);
            let picture = Picture::new(lang, &figure, &legend);
            if png {
                if let Some(href) = picture.png() {
                    save(&href, &format!("kubelife-{name}.png"));
                }
            } else if let Some(svg) = picture.svg() {
                save_svg(&svg, &format!("kubelife-{name}.svg"));
            }
        })
    };
    html! {
        <div class="download" role="group" aria-label={tr(lang, title)}>
            <button onclick={button(false)} data-testid={format!("download-{name}-svg")}>{tr(lang, "ui.download.svg")}</button>
            <button onclick={button(true)} data-testid={format!("download-{name}-png")}>{tr(lang, "ui.download.png")}</button>
        </div>
    }
}
