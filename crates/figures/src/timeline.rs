//! The timeline figure: a lane per node and per pod, its states as fills that differ in pattern
//! as well as colour, markers for the events that matter (shapes, not colours), the time axis
//! and the playhead; for a standalone picture, a legend below.

use crate::lanes::{Lane, LaneKind, LaneState};
use crate::patterns::{fill, Pattern};
use kubelife_engine::time::format_go_duration_tenths;
use kubelife_engine::Millis;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Height of one lane, px.
pub const LANE: i32 = 18;
/// Height of the time axis, px.
pub const TOP: i32 = 22;
/// Width of the lane labels on a figure at least [`NARROW`] px wide, and of the aggregated
/// figure's row labels at any width, px.
pub const LEFT: i32 = 170;
/// Width of the lane labels on a figure narrower than [`NARROW`] (a phone), px: under a third of
/// a 320 px timeline, and room for five ticks of a 15-minute run beside it.
pub const LEFT_NARROW: i32 = 92;
/// Below this width, px, a timeline's lane labels take [`LEFT_NARROW`], in a smaller font, and
/// names too long for it are shortened ([`short_name`]).
pub const NARROW: i32 = 600;
/// Room a tick's label needs, px ("14m0s" in a 12 px font, and a gap).
const TICK_LABEL: i32 = 44;
/// Width of a character of a lane label in the narrow labels' 11 px font, px, a little over the
/// average, so that a name cut to fit does fit.
const NARROW_CHAR: f64 = 5.5;
/// Height of the legend under a standalone figure, px.
const LEGEND: i32 = 66;

/// What a standalone picture's legend says, already translated.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Legend {
    /// The states, in the order of [`LaneState::ALL`].
    pub states: [String; 6],
    /// The markers, in the order last heartbeat, Unknown or fault, taint, pod change.
    pub marks: [String; 4],
}

impl Legend {
    /// The legend from the catalogue's texts: `ui.timeline.terminating` and `ui.timeline.marks`
    /// ("▼ last heartbeat · ▲ Unknown or fault · ◆ taint · ■ pod change"), whose glyphs are left
    /// out since the figure draws the marker shapes themselves.
    pub fn from_texts(t: LegendTexts) -> Legend {
        let marks: Vec<String> = t
            .marks
            .split(" · ")
            .map(|m| m.trim_start_matches(['▼', '▲', '◆', '■']).trim().to_string())
            .collect();
        let mark = |i: usize| marks.get(i).cloned().unwrap_or_default();
        Legend {
            states: [
                "Ready / Running".into(),
                "Unknown / NotReady".into(),
                t.terminating.trim().to_string(),
                "Pending".into(),
                t.partial.trim().to_string(),
                t.moved.trim().to_string(),
            ],
            marks: [mark(0), mark(1), mark(2), mark(3)],
        }
    }
}

/// The catalogue texts a legend is made of (`ui.timeline.terminating`, `.partial`, `.moved`,
/// `.marks`), already translated.
#[derive(Debug, Clone, Copy)]
pub struct LegendTexts<'a> {
    /// "Terminating (striped)".
    pub terminating: &'a str,
    /// "fewer serving (dotted)".
    pub partial: &'a str,
    /// "volume attached elsewhere (barred)".
    pub moved: &'a str,
    /// "▼ last heartbeat · ▲ Unknown or fault · ◆ taint · ■ pod change".
    pub marks: &'a str,
}

/// What to draw.
#[derive(Debug, Clone, Copy)]
pub struct TimelineFigure<'a> {
    /// The lanes.
    pub lanes: &'a [Lane],
    /// Run length, ms.
    pub duration: Millis,
    /// The playhead, ms, if any.
    pub now: Option<Millis>,
    /// A legend below the lanes (the page has its own, in HTML).
    pub legend: Option<&'a Legend>,
}

impl TimelineFigure<'_> {
    /// The height the figure needs, px.
    pub fn height(&self) -> u32 {
        let legend = if self.legend.is_some() { LEGEND } else { 0 };
        (TOP + LANE * self.lanes.len() as i32 + 4 + legend) as u32
    }
}

/// A state's colour and pattern.
pub fn style(s: LaneState) -> (RGBColor, Pattern) {
    match s {
        LaneState::Ok => (RGBColor(46, 139, 87), Pattern::Solid),
        LaneState::Bad => (RGBColor(214, 120, 0), Pattern::Midline),
        LaneState::Terminating => (RGBColor(140, 140, 140), Pattern::Stripes),
        LaneState::Pending => (RGBColor(120, 160, 220), Pattern::Hollow),
        LaneState::Partial => (RGBColor(150, 190, 90), Pattern::Dots),
        LaneState::Moved => (RGBColor(40, 120, 150), Pattern::Bars),
    }
}

/// The width of a timeline's lane labels on a figure `width` px wide, px.
pub fn left(width: i32) -> i32 {
    if width < NARROW {
        LEFT_NARROW
    } else {
        LEFT
    }
}

/// The x of time `t` on a figure `width` px wide whose labels take `left` px.
pub fn x_at(t: Millis, duration: Millis, width: i32, left: i32) -> i32 {
    left + ((width - left - 8) as f64 * t as f64 / duration.max(1) as f64) as i32
}

/// The x of time `t` on a timeline `width` px wide (its labels take [`left`] of the width).
pub fn x_of(t: Millis, duration: Millis, width: i32) -> i32 {
    x_at(t, duration, width, left(width))
}

/// The time between ticks on a timeline `width` px wide: the shortest round step that leaves
/// room for every label.
pub fn tick_step(duration: Millis, width: i32) -> Millis {
    step_for(duration, width - left(width) - 8)
}

/// The shortest round step between ticks, ms, that leaves room for every label on a plot `plot`
/// px wide.
fn step_for(duration: Millis, plot: i32) -> Millis {
    const STEPS: [Millis; 10] = [
        10_000, 30_000, 60_000, 120_000, 180_000, 300_000, 600_000, 1_800_000, 3_600_000, 7_200_000,
    ];
    let plot = plot.max(1) as f64;
    STEPS
        .into_iter()
        .find(|&s| plot * s as f64 / duration.max(1) as f64 >= TICK_LABEL as f64)
        .unwrap_or(STEPS[STEPS.len() - 1])
}

/// The marker shape of an event kind at (x, lane top y).
pub fn marker(kind: &str, x: i32, y: i32) -> Vec<(i32, i32)> {
    match kind {
        "NodeUnknown" | "FaultStarted" => vec![(x, y + 1), (x + 5, y + LANE - 2), (x - 5, y + LANE - 2)],
        "LastHeartbeat" => vec![(x, y + LANE - 1), (x + 5, y + 2), (x - 5, y + 2)],
        "TaintAdded" | "TaintRemoved" => vec![
            (x, y + 1),
            (x + 5, y + LANE / 2),
            (x, y + LANE - 1),
            (x - 5, y + LANE / 2),
        ],
        _ => vec![
            (x - 4, y + 3),
            (x + 4, y + 3),
            (x + 4, y + LANE - 3),
            (x - 4, y + LANE - 3),
        ],
    }
}

type Drawn<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Draws the timeline on `root`, which is as wide as the figure and at least
/// [`TimelineFigure::height`] high.
pub fn draw_timeline<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, f: &TimelineFigure) -> Drawn<DB> {
    let width = root.dim_in_pixel().0 as i32;
    let bottom = TOP + LANE * f.lanes.len() as i32;
    root.fill(&WHITE)?;
    draw_axis(root, f.duration, width, left(width), bottom)?;
    for (i, lane) in f.lanes.iter().enumerate() {
        draw_lane(root, lane, TOP + i as i32 * LANE, f.duration, width)?;
    }
    if let Some(now) = f.now {
        let x = x_of(now, f.duration, width);
        root.draw(&PathElement::new(
            vec![(x, 0), (x, bottom)],
            ShapeStyle::from(&RED).stroke_width(2),
        ))?;
    }
    if let Some(legend) = f.legend {
        draw_legend(root, legend, bottom + 6, width)?;
    }
    Ok(())
}

/// The time axis across the top: ticks far enough apart for their labels (Go durations), each
/// label only where it fits, and a light grid line down to `bottom`; the plot starts `left` px
/// from the figure's left edge.
pub(crate) fn draw_axis<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    duration: Millis,
    width: i32,
    left: i32,
    bottom: i32,
) -> Drawn<DB> {
    let font = (FontFamily::SansSerif, 12).into_font();
    let step = step_for(duration, width - left - 8);
    let mut t = 0;
    while t <= duration {
        let x = x_at(t, duration, width, left);
        root.draw(&PathElement::new(
            vec![(x, TOP - 4), (x, bottom)],
            RGBColor(230, 230, 230),
        ))?;
        if x + TICK_LABEL <= width {
            root.draw(&Text::new(format_go_duration_tenths(t), (x + 2, 4), font.clone()))?;
        }
        t += step;
    }
    Ok(())
}

fn draw_lane<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    lane: &Lane,
    y: i32,
    duration: Millis,
    width: i32,
) -> Drawn<DB> {
    let narrow = width < NARROW;
    let font = (FontFamily::SansSerif, if narrow { 11 } else { 12 }).into_font();
    // A glyph before the name tells the kinds apart: a filled square for a node, a ring for a
    // Service, an open box for a volume; pods are indented.
    match lane.kind {
        LaneKind::Node => {
            root.draw(&Rectangle::new([(4, y + 5), (12, y + 13)], BLACK.stroke_width(1)))?;
            root.draw(&Rectangle::new([(6, y + 7), (10, y + 11)], BLACK.filled()))?;
        }
        LaneKind::Service => root.draw(&Circle::new((8, y + 9), 4, BLACK.stroke_width(1)))?,
        LaneKind::Volume => root.draw(&Rectangle::new([(4, y + 6), (12, y + 12)], BLACK.stroke_width(1)))?,
        LaneKind::Pod => {}
    }
    let indent = label_indent(lane.kind);
    let name = if narrow {
        short_name(&lane.name, label_chars(lane.kind))
    } else {
        lane.name.clone()
    };
    root.draw(&Text::new(name, (indent, y + 3), font))?;
    for &(a, b, s) in &lane.segments {
        let x0 = x_of(a, duration, width);
        let x1 = x_of(b, duration, width).max(x0 + 1);
        let (colour, pattern) = style(s);
        fill(root, (x0, y + 3), (x1, y + LANE - 3), colour, pattern)?;
    }
    for m in &lane.marks {
        let x = x_of(m.at, duration, width);
        root.draw(&Polygon::new(marker(&m.kind, x, y), BLACK.mix(0.75)))?;
    }
    Ok(())
}

/// Where a lane's name starts, px from the left: pods are indented under the nodes, Services and
/// volumes, whose names follow a glyph.
fn label_indent(kind: LaneKind) -> i32 {
    if kind == LaneKind::Pod {
        24
    } else {
        16
    }
}

/// How many characters of a lane's name fit in the narrow labels ([`LEFT_NARROW`]).
pub fn label_chars(kind: LaneKind) -> usize {
    ((LEFT_NARROW - label_indent(kind) - 4) as f64 / NARROW_CHAR) as usize
}

/// A name cut to `max` characters for a narrow label: a ReplicaSet's pod (`web-lm9dhxfg9h-862l5`)
/// loses its pod-template hash (`web…862l5`), which every pod of the Deployment shares; any other
/// name too long keeps its start and ends in an ellipsis. A name that fits is kept whole.
pub fn short_name(name: &str, max: usize) -> String {
    if name.chars().count() <= max {
        return name.to_string();
    }
    let hashed = |s: &str| s.len() >= 5 && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    let parts: Vec<&str> = name.rsplitn(3, '-').collect();
    if let [suffix, hash, prefix] = parts[..] {
        let short = format!("{prefix}…{suffix}");
        if hashed(hash) && hashed(suffix) && short.chars().count() <= max {
            return short;
        }
    }
    let mut cut: String = name.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

fn draw_legend<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, legend: &Legend, y: i32, width: i32) -> Drawn<DB> {
    let font = (FontFamily::SansSerif, 12).into_font();
    let columns = (width - 8).max(4) / 4;
    for (i, (s, text)) in LaneState::ALL.iter().zip(&legend.states).enumerate() {
        // Four to a row.
        let (x, y) = (4 + (i as i32 % 4) * columns, y + (i as i32 / 4) * LANE);
        let (colour, pattern) = style(*s);
        fill(root, (x, y + 3), (x + 24, y + LANE - 3), colour, pattern)?;
        root.draw(&Text::new(text.clone(), (x + 28, y + 3), font.clone()))?;
    }
    let kinds = ["LastHeartbeat", "NodeUnknown", "TaintAdded", "PodReady"];
    let y = y + 2 * LANE + 4;
    for (i, (kind, text)) in kinds.iter().zip(&legend.marks).enumerate() {
        let x = 10 + i as i32 * columns;
        root.draw(&Polygon::new(marker(kind, x, y), BLACK.mix(0.75)))?;
        root.draw(&Text::new(text.clone(), (x + 10, y + 3), font.clone()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_narrow_label_drops_the_pod_template_hash_or_ends_in_an_ellipsis() {
        let pod = label_chars(LaneKind::Pod);
        assert_eq!(short_name("web-lm9dhxfg9h-862l5", pod), "web…862l5");
        assert_eq!(short_name("db-0", pod), "db-0");
        assert_eq!(short_name("agent-vjl6t", pod), "agent-vjl6t");
        assert_eq!(
            short_name("pvc/data-db-0", label_chars(LaneKind::Volume)),
            "pvc/data-db-0"
        );
        let long = short_name("a-very-long-statefulset-name-12", pod);
        assert_eq!(long.chars().count(), pod);
        assert!(long.starts_with("a-very") && long.ends_with('…'), "{long}");
    }

    #[test]
    fn a_phone_keeps_five_labelled_ticks_and_a_third_of_the_width_for_labels() {
        for width in [320, 332, 360] {
            assert!(left(width) * 3 < width, "labels take {} of {width} px", left(width));
            let step = tick_step(15 * 60_000, width);
            let labelled = (0..=15 * 60_000)
                .step_by(step as usize)
                .filter(|&t| x_of(t, 15 * 60_000, width) + TICK_LABEL <= width)
                .count();
            assert!(
                labelled >= 5,
                "{labelled} tick labels at {width} px (a tick every {step} ms)"
            );
        }
        assert_eq!(left(1200), LEFT, "a wide timeline keeps its labels whole");
    }
}
