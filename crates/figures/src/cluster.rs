//! The cluster at one instant, rebuilt from the engine's events (the page's cluster view and
//! `kubelife render --view cluster`), and [`draw_cluster`], which draws it for any plotters
//! backend: nodes as cards grouped by zone with their Ready state and taints in words, pods as
//! chips whose state is written and patterned, never told by colour alone.
//!
//! Nothing here simulates: it only replays the engine's events up to the playhead.

use crate::names::NameMap;
use crate::patterns::{fill, Pattern};
use kubelife_engine::time::format_go_duration_tenths;
use kubelife_engine::{EventKind, Millis, Outcome, TimelineEvent};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::collections::BTreeMap;

/// What a node card shows.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeView {
    /// Name.
    pub name: String,
    /// Zone.
    pub zone: String,
    /// `Ready`, `Unknown` or `NotReady`; `Absent` before it joins or after deletion.
    pub ready: &'static str,
    /// Taints, as `key:Effect` without the `node.kubernetes.io/` prefix.
    pub taints: Vec<String>,
    /// Whether a fault is active.
    pub fault: Option<String>,
    /// When the last heartbeat (lease or status) was recorded, ms.
    pub last_heartbeat: Option<Millis>,
}

/// What a pod chip shows.
#[derive(Debug, Clone, PartialEq)]
pub struct PodView {
    /// Name.
    pub name: String,
    /// Node it is bound to.
    pub node: Option<String>,
    /// `Running`, `NotReady`, `Terminating`, `Pending`.
    pub phase: &'static str,
}

/// The cluster at one instant.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ClusterView {
    /// Nodes in order of first appearance.
    pub nodes: Vec<NodeView>,
    /// Pods whose objects exist.
    pub pods: Vec<PodView>,
}

/// The zone a `NodeRegistered` event names: the initial state's `zone` part (`cause.part.zone`,
/// or `cause.part.no_zone` for none), or the node lifecycle controller's quoted `zone` text when
/// a joining node registers. `None` for any other event.
pub fn registered_zone(e: &TimelineEvent) -> Option<String> {
    use kubelife_engine::cause::Arg;
    if e.kind != EventKind::NodeRegistered {
        return None;
    }
    match e.cause.arg("zone")? {
        Arg::Cause(part) => match part.arg("zone") {
            Some(Arg::Text(name)) => Some(name.clone()),
            _ => Some(String::new()),
        },
        Arg::Text(quoted) => Some(quoted.trim_matches('"').to_string()),
        Arg::Time(_) => None,
    }
}

/// Replays `o`'s events up to and including `t`.
pub fn at(o: &Outcome, t: Millis) -> ClusterView {
    let mut nodes: Vec<NodeView> = Vec::new();
    let mut index: NameMap<usize> = NameMap::default();
    let mut pods: Vec<PodView> = Vec::new();
    let mut pod_index: NameMap<usize> = NameMap::default();
    for e in o.events.iter().take_while(|e| e.at_ms <= t) {
        let ni = e.node.as_deref().map(|n| {
            if let Some(&i) = index.get(n) {
                return i;
            }
            index.insert(n, nodes.len());
            nodes.push(NodeView {
                name: n.to_string(),
                zone: String::new(),
                ready: "Absent",
                taints: Vec::new(),
                fault: None,
                last_heartbeat: None,
            });
            nodes.len() - 1
        });
        match (e.kind, ni) {
            (EventKind::NodeRegistered, Some(i)) => {
                if let Some(zone) = registered_zone(e) {
                    nodes[i].zone = zone;
                }
                if nodes[i].ready == "Absent" {
                    nodes[i].ready = "Ready";
                }
            }
            (EventKind::NodeCreated | EventKind::NodeReady, Some(i)) => nodes[i].ready = "Ready",
            (EventKind::NodeUnknown, Some(i)) => nodes[i].ready = "Unknown",
            (EventKind::NodeNotReady, Some(i)) => nodes[i].ready = "NotReady",
            (EventKind::NodeDeleted, Some(i)) => nodes[i].ready = "Absent",
            (EventKind::FaultStarted, Some(i)) => {
                nodes[i].fault = match e.cause.arg("action") {
                    Some(kubelife_engine::cause::Arg::Text(a)) => Some(a.clone()),
                    _ => Some(e.kind.to_string()),
                }
            }
            (EventKind::FaultEnded, Some(i)) => nodes[i].fault = None,
            (EventKind::LeaseRenewed | EventKind::NodeStatusPatched, Some(i)) => {
                nodes[i].last_heartbeat = Some(e.at_ms)
            }
            (EventKind::TaintAdded, Some(i)) => {
                if let Some(tn) = &e.taint {
                    nodes[i]
                        .taints
                        .push(tn.trim_start_matches("node.kubernetes.io/").to_string());
                }
            }
            (EventKind::TaintRemoved, Some(i)) => {
                if let Some(tn) = &e.taint {
                    let short = tn.trim_start_matches("node.kubernetes.io/");
                    nodes[i].taints.retain(|x| x != short);
                }
            }
            _ => {}
        }
        if let Some(p) = &e.pod {
            match e.kind {
                EventKind::PodCreated => {
                    pods.push(PodView {
                        name: p.clone(),
                        node: None,
                        phase: "Pending",
                    });
                    pod_index.insert(p, pods.len() - 1);
                }
                EventKind::PodRemoved => {
                    if let Some(i) = pod_index.remove(p) {
                        pods[i].phase = "Removed";
                    }
                }
                kind => {
                    if let Some(&i) = pod_index.get(p) {
                        let pod = &mut pods[i];
                        match kind {
                            EventKind::PodScheduled => pod.node = e.node.clone(),
                            EventKind::PodReady if pod.phase != "Terminating" => pod.phase = "Running",
                            EventKind::PodNotReady if pod.phase != "Terminating" => pod.phase = "NotReady",
                            EventKind::PodDeletionRequested => pod.phase = "Terminating",
                            _ => {}
                        }
                    }
                }
            }
        }
    }
    pods.retain(|p| p.phase != "Removed");
    ClusterView { nodes, pods }
}

/// The cluster figure's own texts, already translated.
#[derive(Debug, Clone, PartialEq)]
pub struct ClusterTexts {
    /// The title, with the time in it ("The cluster at 1m0s").
    pub title: String,
    /// The heading of nodes without a zone.
    pub no_zone: String,
    /// The heartbeat line with an `{ago}` hole.
    pub heartbeat_ago: String,
}

/// What to draw: the cluster at `now`.
#[derive(Debug, Clone, Copy)]
pub struct ClusterFigure<'a> {
    /// The cluster.
    pub view: &'a ClusterView,
    /// The instant, ms (for the heartbeats' age).
    pub now: Millis,
    /// The texts.
    pub texts: &'a ClusterTexts,
}

const PAD: i32 = 10;
const CARD_W: i32 = 220;
const GAP: i32 = 10;
const ROW: i32 = 16;
const HEADING: i32 = 24;

/// A node card's place in the figure.
struct Card<'a> {
    node: &'a NodeView,
    pods: Vec<&'a PodView>,
    x: i32,
    y: i32,
    h: i32,
}

impl ClusterFigure<'_> {
    /// The zones in name order, each with its nodes.
    fn zones(&self) -> Vec<(String, Vec<&NodeView>)> {
        let mut zones: BTreeMap<&str, Vec<&NodeView>> = BTreeMap::new();
        for n in &self.view.nodes {
            zones.entry(n.zone.as_str()).or_default().push(n);
        }
        zones
            .into_iter()
            .map(|(z, nodes)| {
                let name = if z.is_empty() {
                    self.texts.no_zone.clone()
                } else {
                    z.to_string()
                };
                (name, nodes)
            })
            .collect()
    }

    /// The zone headings (text, y) and the cards, laid out for `width`, and the height they take.
    fn layout(&self, width: u32) -> (Vec<(String, i32)>, Vec<Card<'_>>, i32) {
        let columns = ((width as i32 - 2 * PAD + GAP) / (CARD_W + GAP)).max(1);
        let mut y = PAD + HEADING;
        let (mut headings, mut cards) = (Vec::new(), Vec::new());
        for (zone, nodes) in self.zones() {
            headings.push((zone, y));
            y += HEADING;
            for row in nodes.chunks(columns as usize) {
                let mut tallest = 0;
                for (i, n) in row.iter().enumerate() {
                    let pods: Vec<&PodView> = self
                        .view
                        .pods
                        .iter()
                        .filter(|p| p.node.as_deref() == Some(n.name.as_str()))
                        .collect();
                    let lines = 2
                        + n.taints.len()
                        + usize::from(n.fault.is_some())
                        + usize::from(n.last_heartbeat.is_some())
                        + pods.len();
                    let h = ROW * lines as i32 + 12;
                    tallest = tallest.max(h);
                    cards.push(Card {
                        node: n,
                        pods,
                        x: PAD + i as i32 * (CARD_W + GAP),
                        y,
                        h,
                    });
                }
                y += tallest + GAP;
            }
        }
        let pending = self.view.pods.iter().filter(|p| p.node.is_none()).count() as i32;
        (headings, cards, y + pending * ROW + PAD)
    }

    /// The height the figure needs at `width`, px.
    pub fn height(&self, width: u32) -> u32 {
        self.layout(width).2.max(80) as u32
    }
}

/// A pod phase's colour and pattern: the phase is also written beside it.
fn pod_style(phase: &str) -> (RGBColor, Pattern) {
    match phase {
        "Running" => (RGBColor(46, 139, 87), Pattern::Solid),
        "NotReady" => (RGBColor(214, 120, 0), Pattern::Midline),
        "Terminating" => (RGBColor(140, 140, 140), Pattern::Stripes),
        _ => (RGBColor(120, 160, 220), Pattern::Hollow),
    }
}

type Drawn<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Draws the cluster on `root`, which is at least [`ClusterFigure::height`] high.
pub fn draw_cluster<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, f: &ClusterFigure) -> Drawn<DB> {
    let width = root.dim_in_pixel().0;
    root.fill(&WHITE)?;
    let (headings, cards, bottom) = f.layout(width);
    root.draw(&Text::new(
        f.texts.title.clone(),
        (PAD, PAD),
        (FontFamily::SansSerif, 15).into_font(),
    ))?;
    let bold = (FontFamily::SansSerif, 13).into_font().style(FontStyle::Bold);
    for (zone, y) in headings {
        root.draw(&Text::new(zone, (PAD, y + 4), bold.clone()))?;
        root.draw(&PathElement::new(
            vec![(PAD, y + HEADING - 4), (width as i32 - PAD, y + HEADING - 4)],
            RGBColor(221, 226, 234),
        ))?;
    }
    for card in &cards {
        draw_card(root, card, f)?;
    }
    // Pods no node took yet.
    let font = (FontFamily::SansSerif, 11).into_font();
    let unscheduled = f.view.pods.iter().filter(|p| p.node.is_none());
    for (i, pod) in unscheduled.enumerate() {
        let y = bottom - PAD - (i as i32 + 1) * ROW;
        let (colour, pattern) = pod_style("Pending");
        fill(root, (PAD, y + 2), (PAD + 10, y + 12), colour, pattern)?;
        root.draw(&Text::new(
            format!("{} Pending", pod.name),
            (PAD + 16, y + 1),
            font.clone(),
        ))?;
    }
    Ok(())
}

/// One node card: its name, Ready state, fault, heartbeat age, taints and pods, each in words.
fn draw_card<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, c: &Card, f: &ClusterFigure) -> Drawn<DB> {
    let n = c.node;
    let healthy = n.ready == "Ready";
    let border = if healthy {
        RGBColor(46, 139, 87)
    } else {
        RGBColor(214, 120, 0)
    };
    let (x0, y0, x1, y1) = (c.x, c.y, c.x + CARD_W, c.y + c.h);
    root.draw(&Rectangle::new([(x0, y0), (x1, y1)], WHITE.filled()))?;
    // A healthy node has a thin border; any other state a thick double one.
    root.draw(&Rectangle::new(
        [(x0, y0), (x1, y1)],
        border.stroke_width(if healthy { 1 } else { 3 }),
    ))?;
    if !healthy {
        root.draw(&Rectangle::new(
            [(x0 + 5, y0 + 5), (x1 - 5, y1 - 5)],
            border.stroke_width(1),
        ))?;
    }
    let inset = if healthy { 6 } else { 9 };
    let font = (FontFamily::SansSerif, 11).into_font();
    let bold = (FontFamily::SansSerif, 12).into_font().style(FontStyle::Bold);
    let mut y = y0 + inset;
    let line = |text: String, style: TextStyle, dx: i32, y: &mut i32| {
        let drawn = root.draw(&Text::new(text, (x0 + inset + dx, *y), style));
        *y += ROW;
        drawn
    };
    line(n.name.clone(), bold.clone().into(), 0, &mut y)?;
    line(n.ready.to_string(), bold.color(&border), 0, &mut y)?;
    if let Some(fault) = &n.fault {
        line(fault.clone(), font.clone().color(&RGBColor(192, 57, 43)), 0, &mut y)?;
    }
    if let Some(h) = n.last_heartbeat {
        let ago = f
            .texts
            .heartbeat_ago
            .replace("{ago}", &format_go_duration_tenths((f.now - h).max(0)));
        line(ago, font.clone().color(&RGBColor(91, 100, 117)), 0, &mut y)?;
    }
    for t in &n.taints {
        // A taint is marked by a diamond, as on the timeline.
        let (cx, cy) = (x0 + inset + 5, y + 7);
        root.draw(&Polygon::new(
            vec![(cx, cy - 5), (cx + 5, cy), (cx, cy + 5), (cx - 5, cy)],
            RGBColor(192, 57, 43).filled(),
        ))?;
        line(t.clone(), font.clone().into(), 16, &mut y)?;
    }
    for pod in &c.pods {
        let (colour, pattern) = pod_style(pod.phase);
        fill(root, (x0 + inset, y + 2), (x0 + inset + 10, y + 12), colour, pattern)?;
        line(format!("{} {}", pod.name, pod.phase), font.clone().into(), 16, &mut y)?;
    }
    Ok(())
}
