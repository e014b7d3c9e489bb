//! The aggregate figure for large clusters: a row per zone (its nodes per [`NodeState`], stacked,
//! over a band for its zone state) and a row per workload (its pods per [`PodState`], stacked),
//! time across as on the timeline, a playhead and a legend. Every state has its own pattern,
//! anchored to the pixel grid so that a stack's columns join. Drawn for any plotters backend;
//! [`draw_aggregate`] returns each row's place so the page can make a row open its lanes.
//!
//! Each row is drawn from its change points merged per pixel column (the last change in a column
//! wins), so the cost is bounded by the figure's width, however many events the run had.

use crate::aggregate::{Aggregate, NodeState, PodState, Series};
use crate::patterns::{fill_tiled, Pattern};
use crate::timeline::{draw_axis, x_at, LANE, LEFT, TOP};
use kubelife_engine::{Millis, ZoneState};
use plotters::coord::Shift;
use plotters::prelude::*;

/// The figure's texts, already translated.
#[derive(Debug, Clone, PartialEq)]
pub struct AggregateTexts {
    /// The heading over the zone rows ("Nodes by zone").
    pub zones: String,
    /// The heading over the workload rows ("Pods by workload").
    pub workloads: String,
    /// The name shown for the zone of nodes without one.
    pub no_zone: String,
    /// The node states, in the order of [`NodeState::ALL`].
    pub node_states: [String; 6],
    /// The pod states, in the order of [`PodState::ALL`].
    pub pod_states: [String; 4],
    /// A zone row's nodes, with a `{count}` hole ("{count} nodes").
    pub zone_nodes: String,
    /// A workload row's Ready pods at the playhead, with `{ready}` and `{desired}` holes
    /// ("{ready}/{desired} Ready").
    pub workload_ready: String,
    /// The legend's title for the band under each zone ("Zone state").
    pub zone_state: String,
}

/// What to draw.
#[derive(Debug, Clone, Copy)]
pub struct AggregateFigure<'a> {
    /// The counts.
    pub aggregate: &'a Aggregate,
    /// Run length, ms.
    pub duration: Millis,
    /// The playhead, ms, if any; the rows' labels give the counts there (at the end without one).
    pub now: Option<Millis>,
    /// The texts.
    pub texts: &'a AggregateTexts,
    /// A legend below the rows.
    pub legend: bool,
}

/// What a row shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    /// A zone: [`Aggregate::zones`]`[index]`.
    Zone,
    /// A workload: [`Aggregate::workloads`]`[index]`.
    Workload,
}

/// A row's place in the figure, for the page to make it clickable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Zone or workload.
    pub kind: RowKind,
    /// Its index in [`Aggregate::zones`] or [`Aggregate::workloads`].
    pub index: usize,
    /// The zone's or workload's name.
    pub name: String,
    /// Its top, px (inclusive).
    pub y0: i32,
    /// Its bottom, px (exclusive); a row spans the figure's width.
    pub y1: i32,
}

/// Height of a heading, px.
const HEADING: i32 = 22;
/// Height of a zone row: the stack, then the zone-state band, px.
const ZONE_ROW: i32 = 48;
/// Height of a workload row, px.
const WORKLOAD_ROW: i32 = 40;
/// Height of a row's stack, px.
const STACK: i32 = 30;
/// Height of the zone-state band, px.
const BAND: i32 = 6;
/// Width of a legend entry, px.
const ENTRY: i32 = 132;

impl AggregateFigure<'_> {
    /// The rows and the headings' tops, and where the rows end, px.
    fn layout(&self) -> (Vec<Row>, [i32; 2], i32) {
        let a = self.aggregate;
        let mut y = TOP + 4;
        let zones_heading = y;
        y += HEADING;
        let mut rows = Vec::new();
        for (index, z) in a.zones.iter().enumerate() {
            let name = z.name.clone();
            rows.push(Row {
                kind: RowKind::Zone,
                index,
                name,
                y0: y,
                y1: y + ZONE_ROW,
            });
            y += ZONE_ROW;
        }
        let workloads_heading = y;
        y += HEADING;
        for (index, w) in a.workloads.iter().enumerate() {
            rows.push(Row {
                kind: RowKind::Workload,
                index,
                name: w.name.clone(),
                y0: y,
                y1: y + WORKLOAD_ROW,
            });
            y += WORKLOAD_ROW;
        }
        (rows, [zones_heading, workloads_heading], y)
    }

    /// The rows' places, as [`draw_aggregate`] returns them.
    pub fn rows(&self) -> Vec<Row> {
        self.layout().0
    }

    /// The height the figure needs at `width`, px.
    pub fn height(&self, width: u32) -> u32 {
        let legend = if self.legend {
            legend_lines(self.texts)
                .iter()
                .map(|(_, entries)| legend_rows(entries.len(), width as i32) * LANE)
                .sum::<i32>()
                + 10
        } else {
            0
        };
        (self.layout().2 + 4 + legend) as u32
    }
}

/// A node state's colour and pattern.
pub fn node_style(s: NodeState) -> (RGBColor, Pattern) {
    match s {
        NodeState::Ready => (RGBColor(46, 139, 87), Pattern::Solid),
        NodeState::Cordoned => (RGBColor(40, 120, 150), Pattern::Bars),
        NodeState::NotReady => (RGBColor(214, 120, 0), Pattern::Midline),
        NodeState::Unknown => (RGBColor(196, 150, 20), Pattern::Dots),
        NodeState::Tainted => (RGBColor(192, 57, 43), Pattern::Stripes),
        NodeState::Gone => (RGBColor(110, 110, 110), Pattern::Cross),
    }
}

/// A pod state's colour and pattern, as on the timeline's pod lanes.
pub fn pod_style(s: PodState) -> (RGBColor, Pattern) {
    match s {
        PodState::Ready => (RGBColor(46, 139, 87), Pattern::Solid),
        PodState::NotReady => (RGBColor(214, 120, 0), Pattern::Midline),
        PodState::Terminating => (RGBColor(140, 140, 140), Pattern::Stripes),
        PodState::Pending => (RGBColor(120, 160, 220), Pattern::Hollow),
    }
}

/// A zone state's colour and pattern in its band: Normal draws nothing.
fn zone_style(s: ZoneState) -> Option<(RGBColor, Pattern)> {
    match s {
        ZoneState::PartialDisruption => Some((RGBColor(214, 120, 0), Pattern::Stripes)),
        ZoneState::FullDisruption => Some((RGBColor(150, 30, 30), Pattern::Solid)),
        ZoneState::Normal | ZoneState::Initial => None,
    }
}

type Drawn<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// The x of time `t` on a figure `width` px wide: its row labels take [`LEFT`] at any width
/// (a zone's name, its count and its state).
fn x_of(t: Millis, duration: Millis, width: i32) -> i32 {
    x_at(t, duration, width, LEFT)
}

/// Draws the figure on `root`, which is as wide as the figure and at least
/// [`AggregateFigure::height`] high, and returns the rows' places.
pub fn draw_aggregate<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    f: &AggregateFigure,
) -> Result<Vec<Row>, DrawingAreaErrorKind<DB::ErrorType>> {
    let width = root.dim_in_pixel().0 as i32;
    let (rows, headings, bottom) = f.layout();
    root.fill(&WHITE)?;
    draw_axis(root, f.duration, width, LEFT, bottom)?;
    let bold = (FontFamily::SansSerif, 13).into_font().style(FontStyle::Bold);
    for (text, y) in [&f.texts.zones, &f.texts.workloads].into_iter().zip(headings) {
        root.draw(&Text::new(text.clone(), (4, y + 4), bold.clone()))?;
    }
    let now = f.now.unwrap_or(f.duration);
    for row in &rows {
        match row.kind {
            RowKind::Zone => draw_zone_row(root, f, row, now, width)?,
            RowKind::Workload => draw_workload_row(root, f, row, now, width)?,
        }
    }
    if let Some(now) = f.now {
        let x = x_of(now, f.duration, width);
        root.draw(&PathElement::new(
            vec![(x, 0), (x, bottom)],
            ShapeStyle::from(&RED).stroke_width(2),
        ))?;
    }
    if f.legend {
        draw_legend(root, f.texts, bottom + 6, width)?;
    }
    Ok(rows)
}

/// The row's label: its name, then up to two lines below.
fn draw_label<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, y: i32, name: &str, lines: &[String]) -> Drawn<DB> {
    let bold = (FontFamily::SansSerif, 12).into_font().style(FontStyle::Bold);
    let font = (FontFamily::SansSerif, 11).into_font().color(&RGBColor(91, 100, 117));
    root.draw(&Text::new(name.to_string(), (8, y + 3), bold))?;
    for (i, line) in lines.iter().enumerate() {
        root.draw(&Text::new(line.clone(), (8, y + 17 + 13 * i as i32), font.clone()))?;
    }
    Ok(())
}

fn draw_zone_row<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    f: &AggregateFigure,
    row: &Row,
    now: Millis,
    width: i32,
) -> Drawn<DB> {
    let z = &f.aggregate.zones[row.index];
    let name = if z.name.is_empty() { &f.texts.no_zone } else { &z.name };
    let at = z.nodes.at(now).unwrap_or_default();
    let state = z.state.at(now).unwrap_or(ZoneState::Normal);
    let count = f.texts.zone_nodes.replace("{count}", &at.total().to_string());
    let mut lines = vec![count];
    if state != ZoneState::Normal {
        lines.push(state.to_string());
    }
    draw_label(root, row.y0, name, &lines)?;
    let max = z.nodes.points().iter().map(|p| p.1.total()).max().unwrap_or(0);
    let base = row.y0 + 4 + STACK;
    let columns = columns(&z.nodes, |c| c.states, f.duration, width);
    let styles: Vec<_> = NodeState::ALL.iter().map(|&s| node_style(s)).collect();
    draw_stack(root, &columns, &styles, base, max)?;
    // The zone-state band under the stack, a hairline where it is Normal.
    let (y0, y1) = (base + 2, base + 2 + BAND);
    root.draw(&PathElement::new(
        vec![(LEFT, y1 - 1), (x_of(f.duration, f.duration, width), y1 - 1)],
        RGBColor(221, 226, 234),
    ))?;
    for (x0, x1, s) in columns_of(&z.state, f.duration, width) {
        if let Some((colour, pattern)) = zone_style(s) {
            fill_tiled(root, (x0, y0), (x1, y1), colour, pattern)?;
        }
    }
    Ok(())
}

fn draw_workload_row<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    f: &AggregateFigure,
    row: &Row,
    now: Millis,
    width: i32,
) -> Drawn<DB> {
    let w = &f.aggregate.workloads[row.index];
    let ready = w.pods.at(now).unwrap_or_default().get(PodState::Ready);
    let line = f
        .texts
        .workload_ready
        .replace("{ready}", &ready.to_string())
        .replace("{desired}", &w.desired.to_string());
    draw_label(root, row.y0, &w.name, &[line])?;
    let max = w.pods.points().iter().map(|p| p.1.total()).max().unwrap_or(0);
    let columns = columns(&w.pods, |c| c.states, f.duration, width);
    let styles: Vec<_> = PodState::ALL.iter().map(|&s| pod_style(s)).collect();
    draw_stack(root, &columns, &styles, row.y0 + 4 + STACK, max.max(w.desired))
}

/// A series merged per pixel column: `(x0, x1, value)` runs, the value of a column being the
/// last change in it, neighbours with equal values joined.
fn columns_of<T: Copy + PartialEq>(s: &Series<T>, duration: Millis, width: i32) -> Vec<(i32, i32, T)> {
    columns(s, |v| *v, duration, width)
}

/// [`columns_of`], of a projection of the values.
fn columns<T: Copy + PartialEq, V: Copy + PartialEq>(
    s: &Series<T>,
    project: impl Fn(&T) -> V,
    duration: Millis,
    width: i32,
) -> Vec<(i32, i32, V)> {
    let mut starts: Vec<(i32, V)> = Vec::new();
    for (t, v) in s.points().iter().take_while(|p| p.0 < duration) {
        let (x, v) = (x_of((*t).max(0), duration, width), project(v));
        match starts.last_mut() {
            Some(last) if last.0 == x => last.1 = v,
            _ => starts.push((x, v)),
        }
    }
    let end = x_of(duration, duration, width);
    let mut out: Vec<(i32, i32, V)> = Vec::new();
    for (i, &(x0, v)) in starts.iter().enumerate() {
        let x1 = starts.get(i + 1).map_or(end, |s| s.0);
        match out.last_mut() {
            Some(last) if last.2 == v && last.1 == x0 => last.1 = x1,
            _ if x1 > x0 => out.push((x0, x1, v)),
            _ => {}
        }
    }
    out
}

/// Stacks the counts of `columns` upwards from `base`, `max` filling [`STACK`] px, each state
/// (bottom first) in its style; a band's runs of equal height are filled as one.
fn draw_stack<DB: DrawingBackend, const N: usize>(
    root: &DrawingArea<DB, Shift>,
    columns: &[(i32, i32, [u32; N])],
    styles: &[(RGBColor, Pattern)],
    base: i32,
    max: u32,
) -> Drawn<DB> {
    let max = i64::from(max.max(1));
    let y = |count: u32| base - ((i64::from(count) * i64::from(STACK) + max / 2) / max) as i32;
    for (s, &(colour, pattern)) in styles.iter().enumerate().take(N) {
        let mut run: Option<(i32, i32, i32, i32)> = None;
        for &(x0, x1, v) in columns {
            let below: u32 = v[..s].iter().sum();
            let (top, bottom) = (y(below + v[s]), y(below));
            match run.as_mut() {
                Some(r) if r.1 == x0 && (r.2, r.3) == (top, bottom) => r.1 = x1,
                _ => {
                    if let Some((a, b, top, bottom)) = run.take() {
                        fill_tiled(root, (a, top), (b, bottom), colour, pattern)?;
                    }
                    run = Some((x0, x1, top, bottom));
                }
            }
        }
        if let Some((a, b, top, bottom)) = run {
            fill_tiled(root, (a, top), (b, bottom), colour, pattern)?;
        }
    }
    Ok(())
}

/// One line of the legend: its title and its entries.
type LegendLine<'t> = (&'t str, Vec<((RGBColor, Pattern), String)>);

/// The legend's lines: the node states, the pod states, the zone states.
fn legend_lines(t: &AggregateTexts) -> [LegendLine<'_>; 3] {
    let zones = [ZoneState::PartialDisruption, ZoneState::FullDisruption];
    [
        (
            &t.zones,
            NodeState::ALL
                .iter()
                .map(|&s| node_style(s))
                .zip(t.node_states.clone())
                .collect(),
        ),
        (
            &t.workloads,
            PodState::ALL
                .iter()
                .map(|&s| pod_style(s))
                .zip(t.pod_states.clone())
                .collect(),
        ),
        (
            &t.zone_state,
            zones
                .iter()
                .filter_map(|&s| zone_style(s).map(|style| (style, s.to_string())))
                .collect(),
        ),
    ]
}

/// Entries of a legend line that fit beside its title at `width`.
fn per_row(width: i32) -> i32 {
    ((width - LEFT) / ENTRY).max(1)
}

/// The rows `entries` take at `width`.
fn legend_rows(entries: usize, width: i32) -> i32 {
    (entries as i32 + per_row(width) - 1) / per_row(width)
}

/// The legend, a line per kind of row, its title where the rows' labels are.
fn draw_legend<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, t: &AggregateTexts, y: i32, width: i32) -> Drawn<DB> {
    let font = (FontFamily::SansSerif, 12).into_font();
    let mut y = y;
    for (title, entries) in legend_lines(t) {
        root.draw(&Text::new(title.to_string(), (8, y + 3), font.clone()))?;
        let rows = legend_rows(entries.len(), width);
        for (i, ((colour, pattern), text)) in entries.into_iter().enumerate() {
            let (column, row) = (i as i32 % per_row(width), i as i32 / per_row(width));
            let (x, y) = (LEFT + column * ENTRY, y + row * LANE);
            fill_tiled(root, (x, y + 3), (x + 24, y + LANE - 3), colour, pattern)?;
            root.draw(&Text::new(text, (x + 28, y + 3), font.clone()))?;
        }
        y += rows * LANE;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_cost_the_width_not_the_change_points() {
        let (duration, width) = (1_000_000, 600);
        let mut s = Series::default();
        // A change every 10 ms: 100,000 points over 430 px.
        for t in 0..100_000 {
            s.set(t * 10, t % 7);
        }
        let runs = columns_of(&s, duration, width);
        assert!(runs.len() <= (width - LEFT) as usize, "{} runs", runs.len());
        // Runs tile the plot, and each shows the last change in its column.
        assert_eq!(
            (runs[0].0, runs.last().map(|r| r.1)),
            (LEFT, Some(x_of(duration, duration, width)))
        );
        for (pair, &(x0, _, v)) in runs.windows(2).zip(&runs[1..]) {
            assert_eq!(pair[0].1, x0);
            let last = s.points().iter().rev().find(|p| x_of(p.0, duration, width) == x0);
            assert_eq!(last.map(|p| p.1), Some(v));
        }
    }

    #[test]
    fn equal_neighbours_are_one_run() {
        let mut s = Series::default();
        for (t, v) in [(0, 'a'), (100, 'b'), (101, 'a'), (500, 'c')] {
            s.set(t, v);
        }
        let runs = columns_of(&s, 1_000, LEFT + 8 + 100);
        // 100 and 101 ms fall in one column, whose last value is 'a' again.
        assert_eq!(runs, [(LEFT, LEFT + 50, 'a'), (LEFT + 50, LEFT + 100, 'c')]);
    }
}
