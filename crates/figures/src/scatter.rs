//! The Tune panel's scatter: every candidate a search measured (x: the first target's
//! percentile, y: heartbeat writes per minute; blip-safe points are dots, the others crosses),
//! the front ringed and numbered as its list is, the reference profiles as triangles with their
//! names, the first target's duration and the writes ceiling as lines (the ceiling labelled with
//! its number, and when no candidate meets it the floor no candidate can go under, in grey). The
//! page draws it on its
//! canvas and `kubelife tune --svg` writes it as SVG, from [`draw_scatter`].

use kubelife_engine::time::format_go_duration_tenths;
use kubelife_engine::tune::{Point, Target};
use kubelife_engine::Millis;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The scatter's height, px.
pub const SCATTER_HEIGHT: u32 = 280;

/// Left and bottom margins of the scatter, px.
const MARGIN: (i32, i32) = (52, 34);

/// What to draw: a search's points, and the goal's lines.
#[derive(Debug, Clone, Copy)]
pub struct ScatterFigure<'a> {
    /// Every candidate measured.
    pub candidates: &'a [Point],
    /// The Pareto front, numbered from 1 in this order.
    pub front: &'a [Point],
    /// The reference profiles, by name.
    pub references: &'a [(String, Point)],
    /// The first target: the x axis, and its duration a line.
    pub first: Option<Target>,
    /// The writes ceiling (a line), if any.
    pub max_writes: Option<f64>,
    /// The writes no candidate can go under (a grey line), when no candidate meets the ceiling.
    pub floor: Option<f64>,
    /// The y axis's name, already translated (`ui.tune.y_axis`).
    pub y_axis: &'a str,
}

type Drawn<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Draws the scatter on `root`, as wide as the figure and [`SCATTER_HEIGHT`] high; with no point
/// to place, a blank figure.
pub fn draw_scatter<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, f: &ScatterFigure) -> Drawn<DB> {
    root.fill(&WHITE)?;
    let (width, height) = root.dim_in_pixel();
    let refs = f.references.iter().map(|(_, pt)| pt);
    let all: Vec<&Point> = f.candidates.iter().chain(refs).chain(f.front).collect();
    let xs = all.iter().filter_map(|pt| pt.targets.first().copied().flatten());
    let within = f.first.map(|t| t.within);
    let Some((x_lo, x_hi)) = span(xs.chain(within).map(|x| x as f64)) else {
        return Ok(());
    };
    let ys = all
        .iter()
        .map(|pt| pt.writes_per_minute)
        .chain(f.max_writes)
        .chain(f.floor);
    let Some((y_lo, y_hi)) = span(ys) else {
        return Ok(());
    };
    let (w, h) = (width as i32, height as i32);
    let plot = Plot {
        x: (x_lo, x_hi),
        y: (y_lo, y_hi),
        left: MARGIN.0,
        right: w - 12,
        top: 10,
        bottom: h - MARGIN.1,
    };
    axes(root, &plot, f)?;
    marks(root, &plot, f)
}

/// The smallest and largest of `values`, a little apart when equal.
fn span(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if !lo.is_finite() {
        return None;
    }
    let pad = ((hi - lo) * 0.05).max(1.0);
    Some(((lo - pad).max(0.0), hi + pad))
}

/// The plot's data ranges and its area on the figure, px.
struct Plot {
    x: (f64, f64),
    y: (f64, f64),
    left: i32,
    right: i32,
    top: i32,
    bottom: i32,
}

impl Plot {
    fn at(&self, x: f64, y: f64) -> (i32, i32) {
        let fx = (x - self.x.0) / (self.x.1 - self.x.0);
        let fy = (y - self.y.0) / (self.y.1 - self.y.0);
        (
            self.left + (fx * f64::from(self.right - self.left)) as i32,
            self.bottom - (fy * f64::from(self.bottom - self.top)) as i32,
        )
    }
}

/// The axes, their ends' labels, the first target's line and the writes ceiling's.
fn axes<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, plot: &Plot, f: &ScatterFigure) -> Drawn<DB> {
    let ink = RGBColor(0x1d, 0x23, 0x30);
    let font = (FontFamily::SansSerif, 11).into_font().color(&ink);
    let (l, r, t, b) = (plot.left, plot.right, plot.top, plot.bottom);
    root.draw(&PathElement::new(vec![(l, t), (l, b), (r, b)], ink.stroke_width(1)))?;
    let x_text = |x: f64| format_go_duration_tenths(x as Millis);
    root.draw(&Text::new(x_text(plot.x.0), (l, b + 4), font.clone()))?;
    let right = x_text(plot.x.1);
    root.draw(&Text::new(
        right.clone(),
        (r - 7 * right.len() as i32, b + 4),
        font.clone(),
    ))?;
    root.draw(&Text::new(format!("{:.0}", plot.y.1), (4, t), font.clone()))?;
    root.draw(&Text::new(format!("{:.0}", plot.y.0), (4, b - 12), font.clone()))?;
    let axis = f
        .first
        .map(|t| format!("p{} {} →", t.percentile, t.milestone))
        .unwrap_or_default();
    root.draw(&Text::new(axis, (l + 60, b + 18), font.clone()))?;
    root.draw(&Text::new(f.y_axis, (4, t + 16), font.clone()))?;
    let purple = RGBColor(0x7a, 0x1f, 0xa2);
    if let Some(t) = f.first {
        let (x, _) = plot.at(t.within as f64, plot.y.0);
        root.draw(&PathElement::new(
            vec![(x, plot.top), (x, plot.bottom)],
            purple.stroke_width(2),
        ))?;
    }
    let grey = RGBColor(0x6b, 0x72, 0x80);
    for (w, colour, sign) in [(f.max_writes, purple, '≤'), (f.floor, grey, '≥')] {
        let Some(w) = w else { continue };
        let (_, y) = plot.at(plot.x.0, w);
        root.draw(&PathElement::new(
            vec![(plot.left, y), (plot.right, y)],
            colour.stroke_width(1),
        ))?;
        let label = format!("{sign} {w:.0}");
        let at = (plot.right - 7 * label.chars().count() as i32, (y - 13).max(plot.top));
        root.draw(&Text::new(label, at, font.clone().color(&colour)))?;
    }
    Ok(())
}

/// Where a label of `text` goes beside a mark at `at` on a figure `width` px wide: the first of
/// right-below, left-below, right-above, left-above, over and under that stays on the figure and
/// clear of the marks and labels placed so far (their boxes in `placed`), above the x axis at
/// `bottom`.
fn place_label(placed: &mut Vec<[i32; 4]>, at: (i32, i32), text: &str, (width, bottom): (i32, i32)) -> (i32, i32) {
    // About 7 px a character in the 11 px font; the labels are names and numbers.
    let (w, h) = (7 * text.chars().count() as i32, 12);
    let spots = [
        (at.0 + 8, at.1 + 2),
        (at.0 - 8 - w, at.1 + 2),
        (at.0 + 8, at.1 - 14),
        (at.0 - 8 - w, at.1 - 14),
        (at.0 - w / 2, at.1 - 24),
        (at.0 - w / 2, at.1 + 10),
    ];
    let clear = |&(x, y): &(i32, i32)| {
        x >= 0
            && x + w <= width
            && y + h <= bottom
            && !placed
                .iter()
                .any(|b| x < b[0] + b[2] && b[0] < x + w && y < b[1] + b[3] && b[1] < y + h)
    };
    let on_figure = if at.0 + 8 + w > width { spots[1] } else { spots[0] };
    let spot = spots.iter().copied().find(clear).unwrap_or(on_figure);
    placed.push([spot.0, spot.1, w, h]);
    spot
}

/// Every candidate (a dot if blip-safe, else a cross), the references (triangles with their
/// names) and the front (ringed, numbered as the list is), each label clear of the others.
fn marks<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, plot: &Plot, f: &ScatterFigure) -> Drawn<DB> {
    let safe = RGBColor(0x2f, 0x5f, 0xd0);
    let unsafe_ = RGBColor(0xd6, 0x78, 0x00);
    let ink = RGBColor(0x1d, 0x23, 0x30);
    let font = (FontFamily::SansSerif, 11).into_font().color(&ink);
    let bounds = (plot.right + 12, plot.bottom);
    let place = |pt: &Point| Some(plot.at(pt.targets.first().copied().flatten()? as f64, pt.writes_per_minute));
    let dot = |root: &DrawingArea<DB, Shift>, at: (i32, i32), pt: &Point, size: i32| -> Drawn<DB> {
        if pt.blip_safe {
            root.draw(&Circle::new(at, size, safe.filled()))
        } else {
            root.draw(&Cross::new(at, size, unsafe_.stroke_width(2)))
        }
    };
    for pt in f.candidates {
        if let Some(at) = place(pt) {
            dot(root, at, pt, 3)?;
        }
    }
    // The front's rings and the references' triangles are kept clear of every label.
    let mut placed: Vec<[i32; 4]> = f
        .front
        .iter()
        .chain(f.references.iter().map(|(_, pt)| pt))
        .filter_map(place)
        .map(|at| [at.0 - 8, at.1 - 8, 16, 16])
        .collect();
    let label = |root: &DrawingArea<DB, Shift>, placed: &mut Vec<[i32; 4]>, at: (i32, i32), text: &str| -> Drawn<DB> {
        let spot = place_label(placed, at, text, bounds);
        let [x, y, w, h] = placed.last().copied().unwrap_or_default();
        // A backing box, so that a label over the candidates' dots reads.
        root.draw(&Rectangle::new(
            [(x - 1, y - 1), (x + w + 1, y + h)],
            WHITE.mix(0.85).filled(),
        ))?;
        root.draw(&Text::new(text.to_string(), spot, font.clone()))
    };
    // The front's numbers first: they are what the list refers to.
    for (i, pt) in f.front.iter().enumerate() {
        if let Some(at) = place(pt) {
            dot(root, at, pt, 4)?;
            root.draw(&Circle::new(at, 7, ink.stroke_width(1)))?;
            label(root, &mut placed, at, &format!("{}", i + 1))?;
        }
    }
    for (name, pt) in f.references {
        if let Some(at) = place(pt) {
            // plotters' TriangleMarker of size 6, its corners worked out once (rounded up, as it
            // rounds them): it computes them with sine and cosine, which would bring a sine of
            // their own into the page's wasm.
            let corner = |dx: i32, dy: i32| (at.0 + dx, at.1 + dy);
            root.draw(&Polygon::new(
                vec![corner(0, -6), corner(-5, 3), corner(6, 3)],
                ink.filled(),
            ))?;
            label(root, &mut placed, at, name)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn point(first: Millis, writes_per_minute: f64, blip_safe: bool) -> Point {
        Point {
            settings: BTreeMap::new(),
            milestones: BTreeMap::new(),
            targets: vec![Some(first)],
            writes_per_minute,
            blip_safe,
            meets: false,
            seeds: 1,
            warnings: Vec::new(),
        }
    }

    fn svg(f: &ScatterFigure) -> String {
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (400, SCATTER_HEIGHT)).into_drawing_area();
            draw_scatter(&root, f).expect("draws");
            root.present().expect("presents");
        }
        svg
    }

    #[test]
    fn the_scatter_rings_and_numbers_the_front_and_draws_the_goals_lines() {
        let candidates = [
            point(50_000, 300.0, true),
            point(80_000, 120.0, false),
            point(40_000, 600.0, true),
        ];
        let front = [point(40_000, 600.0, true), point(50_000, 300.0, true)];
        let references = [("defaults".to_string(), point(45_000, 400.0, true))];
        let first = Target {
            milestone: "firstReplacementReady",
            within: 60_000,
            percentile: 95,
        };
        let f = ScatterFigure {
            candidates: &candidates,
            front: &front,
            references: &references,
            first: Some(first),
            max_writes: Some(500.0),
            floor: None,
            y_axis: "writes/min",
        };
        let drawn = svg(&f);
        // A ring (7 px) around each point of the front, a dot for each blip-safe point, a cross
        // for the other.
        let rings = drawn.matches(r#"r="7""#).count();
        assert_eq!(rings, front.len(), "{drawn}");
        assert_eq!(drawn.matches(r##"fill="#2F5FD0""##).count(), 4, "{drawn}");
        for text in ["1", "2", "defaults", "p95 firstReplacementReady →", "writes/min"] {
            assert!(drawn.contains(&format!(">\n{text}\n</text>")), "{text}: {drawn}");
        }
        // The target's line is the 2 px purple one, the ceiling's the 1 px.
        let purple: Vec<&str> = drawn.lines().filter(|l| l.contains(r##"stroke="#7A1FA2""##)).collect();
        assert_eq!(purple.len(), 2, "{drawn}");
        assert!(purple[0].contains(r#"stroke-width="2""#), "{purple:?}");
        assert!(drawn.contains(">\n≤ 500\n</text>"), "the ceiling is labelled: {drawn}");
        // Issue 36, item 2: a ceiling no candidate meets comes with the floor, in grey.
        let under = ScatterFigure {
            max_writes: Some(100.0),
            floor: Some(110.0),
            ..f
        };
        let drawn = svg(&under);
        assert!(drawn.contains(">\n≥ 110\n</text>"), "{drawn}");
        assert_eq!(
            drawn.lines().filter(|l| l.contains(r##"stroke="#6B7280""##)).count(),
            1,
            "{drawn}"
        );
        // With no point measured, the figure is blank.
        let none = ScatterFigure {
            candidates: &[],
            front: &[],
            references: &[],
            first: None,
            max_writes: None,
            ..f
        };
        assert!(!svg(&none).contains("<text"));
    }

    #[test]
    fn labels_stay_on_the_canvas_and_clear_of_each_other() {
        let mut placed = Vec::new();
        // Near the right edge, a name goes to the left of its mark.
        assert_eq!(
            place_label(&mut placed, (390, 100), "defaults", (400, 200)),
            (390 - 8 - 56, 102)
        );
        // A second label at the same mark takes the next free spot: left, above.
        assert_eq!(
            place_label(&mut placed, (390, 100), "kubespray-low", (400, 200)),
            (390 - 8 - 91, 86)
        );
        let a = place_label(&mut placed, (50, 50), "1", (400, 200));
        let b = place_label(&mut placed, (52, 50), "2", (400, 200));
        assert_ne!(a, b);
        // A mark on the x axis has its label above it.
        assert_eq!(place_label(&mut placed, (200, 195), "x", (400, 200)), (208, 181));
        assert_eq!(placed.len(), 5);
        // Marks are kept clear too: with a mark on each side, a name goes over its own.
        let mut placed = vec![[292, 92, 16, 16], [192, 92, 16, 16]];
        assert_eq!(
            place_label(&mut placed, (250, 100), "defaults", (400, 200)),
            (250 - 28, 76)
        );
    }
}
