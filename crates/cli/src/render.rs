//! `kubelife render FILE --format svg|png [--view timeline|breakdown|cluster] [--at T] [--lang en|zh]`:
//! the page's timeline, "where does the time go?" or the cluster at `--at` as a picture, drawn by
//! the same functions as the page (kubelife-figures) on plotters' SVG or bitmap backend.

use kubelife_engine::time::{format_go_duration_tenths, parse_go_duration};
use kubelife_engine::{Config, Millis, RunOptions};
use kubelife_figures::explain::figure_bars;
use kubelife_figures::{
    breakdown_height, draw_breakdown, draw_cluster, draw_timeline, Bar, BreakdownTexts, ClusterFigure, ClusterTexts,
    Legend, LegendTexts, TimelineFigure,
};
use plotters::prelude::*;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The most lanes a picture shows (the page's limit).
const MAX_LANES: usize = 60;
/// Width of a picture, px, unless `--width` says otherwise.
const WIDTH: u32 = 900;
/// The font PNG text is drawn with (DejaVu Sans; its licence is beside it), in English; Chinese
/// takes a CJK font the system has (`fonts::cjk`). SVG names the family and lets the viewer pick
/// the font.
static FONT: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");

/// The figures `--view` chooses from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// A lane per node and pod (the default).
    Timeline,
    /// "Where does the time go?".
    Breakdown,
    /// The nodes and pods at `--at` (the end of the run without it).
    Cluster,
}

/// What to draw and how.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// The scenario file ('-' for standard input).
    pub file: String,
    /// `svg` or `png`.
    pub png: bool,
    /// Which figure.
    pub view: View,
    /// The playhead, if any.
    pub at: Option<Millis>,
    /// Chinese instead of English.
    pub zh: bool,
    /// Width, px.
    pub width: u32,
}

/// Reads the arguments after `render`.
pub fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        file: String::new(),
        png: false,
        view: View::Timeline,
        at: None,
        zh: false,
        width: WIDTH,
    };
    let mut format = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |what: &str| it.next().cloned().ok_or(format!("{a} takes {what}"));
        match a.as_str() {
            "--format" => format = Some(value("svg or png")?),
            "--view" => {
                o.view = match value("timeline, breakdown or cluster")?.as_str() {
                    "timeline" => View::Timeline,
                    "breakdown" => View::Breakdown,
                    "cluster" => View::Cluster,
                    v => return Err(format!("unknown view {v:?}; views: timeline, breakdown, cluster")),
                }
            }
            "--lang" => {
                o.zh = match value("en or zh")?.as_str() {
                    "en" => false,
                    "zh" => true,
                    v => return Err(format!("unknown language {v:?}; languages: en, zh")),
                }
            }
            "--at" => {
                let v = value("a Go duration such as 1m30s")?;
                o.at = Some(parse_go_duration(&v).map_err(|e| format!("--at {v:?}: {e}"))?);
            }
            "--width" => {
                let v = value("a width in pixels from 400 to 4000")?;
                o.width = v
                    .parse()
                    .ok()
                    .filter(|w| (400..=4000).contains(w))
                    .ok_or(format!("--width takes a width in pixels from 400 to 4000, not {v:?}"))?;
            }
            f if o.file.is_empty() && (f == "-" || !f.starts_with('-')) => o.file = f.to_string(),
            other => return Err(format!("unexpected argument {other:?}")),
        }
    }
    if o.file.is_empty() {
        return Err("render needs a scenario file".into());
    }
    o.png = match format.as_deref() {
        Some("svg") => false,
        Some("png") => true,
        Some(f) => return Err(format!("unknown format {f:?}; formats: svg, png")),
        None => return Err("render needs --format svg or --format png".into()),
    };
    Ok(o)
}

/// The texts of one language: the page's catalogue, every part of it (the page fetches English's
/// texts off its first view's path, the explanations of most causes among them, once it is live).
/// A catalogue, read once per process.
pub struct Texts(&'static BTreeMap<String, String>);

impl Texts {
    /// The Chinese catalogue, or the English one.
    pub fn new(zh: bool) -> Self {
        use kubelife_engine::cause::{ENGLISH_CATALOGUE, ENGLISH_CLIENTS_CATALOGUE, ENGLISH_LATER_CATALOGUE};
        static EN: OnceLock<BTreeMap<String, String>> = OnceLock::new();
        static ZH: OnceLock<BTreeMap<String, String>> = OnceLock::new();
        let read = |json: &str| -> BTreeMap<String, String> {
            serde_json::from_str(json).expect("the catalogues are flat JSON objects of strings")
        };
        Texts(if zh {
            ZH.get_or_init(|| read(include_str!("../../../i18n/zh.json")))
        } else {
            EN.get_or_init(|| {
                let mut all = read(ENGLISH_CATALOGUE);
                all.extend(read(ENGLISH_LATER_CATALOGUE));
                all.extend(read(ENGLISH_CLIENTS_CATALOGUE));
                all
            })
        })
    }

    /// The template for `key`, if the catalogue has it.
    pub fn get(&self, key: &str) -> Option<&'static str> {
        self.0.get(key).map(String::as_str)
    }

    fn tr(&self, key: &str) -> String {
        self.get(key).unwrap_or(key).to_string()
    }

    fn legend(&self) -> Legend {
        Legend::from_texts(LegendTexts {
            terminating: &self.tr("ui.timeline.terminating"),
            partial: &self.tr("ui.timeline.partial"),
            moved: &self.tr("ui.timeline.moved"),
            marks: &self.tr("ui.timeline.marks"),
        })
    }
}

/// Runs the scenario and draws the picture: SVG text or PNG bytes.
pub fn figure(cfg: &Config, o: &Options) -> Result<Vec<u8>, String> {
    let texts = Texts::new(o.zh);
    let outcome = kubelife_engine::run(
        cfg,
        &RunOptions {
            heartbeats: cfg.nodes.len() <= 50,
        },
    );
    let lanes = kubelife_figures::lanes::lanes(&outcome, cfg.duration, MAX_LANES);
    let legend = texts.legend();
    let timeline = TimelineFigure {
        lanes: &lanes,
        duration: cfg.duration,
        now: o.at,
        legend: Some(&legend),
    };
    let explained = kubelife_figures::bars(&outcome, cfg);
    let bars: Vec<Bar> = figure_bars(&explained, &outcome.events, &|k| texts.get(k));
    let bar_texts = BreakdownTexts {
        title: texts.tr("ui.breakdown.title"),
    };
    // The cluster at --at, or at the end of the run.
    let now = o.at.unwrap_or(cfg.duration).clamp(0, cfg.duration);
    let view = kubelife_figures::cluster::at(&outcome, now);
    let cluster_texts = ClusterTexts {
        title: texts
            .tr("ui.render.cluster_at")
            .replace("{at}", &format_go_duration_tenths(now)),
        no_zone: texts.tr("ui.cluster.no_zone"),
        heartbeat_ago: texts.tr("ui.cluster.heartbeat_ago"),
    };
    let cluster = ClusterFigure {
        view: &view,
        now,
        texts: &cluster_texts,
    };
    let size = (
        o.width,
        match o.view {
            View::Timeline => timeline.height(),
            View::Breakdown => breakdown_height(&bars, o.width),
            View::Cluster => cluster.height(o.width),
        },
    );
    let picture = Picture {
        view: o.view,
        timeline,
        bars: &bars,
        texts: &bar_texts,
        cluster,
    };
    if o.png {
        let font = if o.zh { crate::fonts::cjk()? } else { FONT };
        plotters::style::register_font("sans-serif", FontStyle::Normal, font)
            .map_err(|_| "the font does not load".to_string())?;
        let mut pixels = vec![0u8; size.0 as usize * size.1 as usize * 3];
        {
            let root = BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area();
            picture.paint(&root)?;
        }
        let image = image::RgbImage::from_raw(size.0, size.1, pixels).ok_or("the picture has the wrong size")?;
        let mut png = std::io::Cursor::new(Vec::new());
        image
            .write_to(&mut png, image::ImageFormat::Png)
            .map_err(|e| e.to_string())?;
        Ok(png.into_inner())
    } else {
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
            picture.paint(&root)?;
        }
        Ok(svg.into_bytes())
    }
}

/// One of the three figures, ready to draw on any backend.
struct Picture<'a> {
    view: View,
    timeline: TimelineFigure<'a>,
    bars: &'a [Bar],
    texts: &'a BreakdownTexts,
    cluster: ClusterFigure<'a>,
}

impl Picture<'_> {
    fn paint<DB: DrawingBackend>(&self, root: &DrawingArea<DB, plotters::coord::Shift>) -> Result<(), String> {
        match self.view {
            View::Timeline => draw_timeline(root, &self.timeline).map_err(|e| e.to_string())?,
            View::Breakdown => draw_breakdown(root, self.bars, self.texts).map_err(|e| e.to_string())?,
            View::Cluster => draw_cluster(root, &self.cluster).map_err(|e| e.to_string())?,
        }
        root.present().map_err(|e| e.to_string())
    }
}
