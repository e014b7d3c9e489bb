//! A figure the page saves, as data: the timeline or "where does the time go?" with its texts
//! already translated. The page sends it to its files worker, which draws it as SVG ([`svg`]),
//! so that plotters' SVG backend and the breakdown's drawing are not in the page's own wasm; the
//! page turns that SVG into a PNG itself.

use crate::breakdown::{breakdown_height, draw_breakdown, Bar, BreakdownTexts};
use crate::lanes::{Lane, LaneKind, LaneState, Mark};
use crate::timeline::{draw_timeline, Legend, TimelineFigure};
use kubelife_engine::Millis;
use plotters::coord::Shift;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};

/// Width of a saved figure, px (`kubelife render`'s default).
pub const WIDTH: u32 = 900;

/// A figure, ready to draw on any backend.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Picture {
    /// The timeline, with its legend below the lanes.
    Timeline {
        /// The lanes.
        lanes: Vec<DrawnLane>,
        /// Run length, ms.
        duration: Millis,
        /// The playhead, ms, if any.
        now: Option<Millis>,
        /// The legend, in the reader's language.
        legend: Box<Legend>,
    },
    /// "Where does the time go?".
    Breakdown {
        /// The bars, their texts translated.
        bars: Vec<Bar>,
        /// The figure's title.
        texts: BreakdownTexts,
    },
}

/// A lane as a figure draws it: its marks without their causes, which no figure shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DrawnLane {
    /// Node, Service, volume or pod name.
    pub name: String,
    /// What it shows.
    pub kind: LaneKind,
    /// (start, end, state) intervals, ms.
    pub segments: Vec<(Millis, Millis, LaneState)>,
    /// The marks: when (ms) and the event kind, as text.
    pub marks: Vec<(Millis, String)>,
}

impl From<&Lane> for DrawnLane {
    fn from(l: &Lane) -> DrawnLane {
        DrawnLane {
            name: l.name.clone(),
            kind: l.kind,
            segments: l.segments.clone(),
            marks: l.marks.iter().map(|m| (m.at, m.kind.clone())).collect(),
        }
    }
}

impl DrawnLane {
    fn lane(&self) -> Lane {
        Lane {
            name: self.name.clone(),
            kind: self.kind,
            segments: self.segments.clone(),
            marks: self
                .marks
                .iter()
                .map(|(at, kind)| Mark {
                    at: *at,
                    kind: kind.clone(),
                    cause: kubelife_engine::Cause::new("figure.mark"),
                })
                .collect(),
        }
    }
}

impl Picture {
    /// Its size, px: [`WIDTH`] wide and as tall as it needs.
    pub fn size(&self) -> (u32, u32) {
        match self {
            Picture::Timeline { lanes, legend, .. } => {
                let lanes: Vec<Lane> = lanes.iter().map(DrawnLane::lane).collect();
                (WIDTH, self.timeline(&lanes, legend).height())
            }
            Picture::Breakdown { bars, .. } => (WIDTH, breakdown_height(bars, WIDTH)),
        }
    }

    fn timeline<'a>(&self, lanes: &'a [Lane], legend: &'a Legend) -> TimelineFigure<'a> {
        let (duration, now) = match self {
            Picture::Timeline { duration, now, .. } => (*duration, *now),
            Picture::Breakdown { .. } => (0, None),
        };
        TimelineFigure {
            lanes,
            duration,
            now,
            legend: Some(legend),
        }
    }

    /// Draws it on `root`, which is [`Picture::size`] large.
    pub fn paint<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let failed = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        match self {
            Picture::Timeline { lanes, legend, .. } => {
                let lanes: Vec<Lane> = lanes.iter().map(DrawnLane::lane).collect();
                draw_timeline(root, &self.timeline(&lanes, legend)).map_err(failed)?;
            }
            Picture::Breakdown { bars, texts } => draw_breakdown(root, bars, texts).map_err(failed)?,
        }
        root.present().map_err(failed)
    }
}

/// `picture` as SVG text.
#[cfg(feature = "svg")]
pub fn svg(picture: &Picture) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, picture.size()).into_drawing_area();
        picture.paint(&root)?;
    }
    Ok(svg)
}
