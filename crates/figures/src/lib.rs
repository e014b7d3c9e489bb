//! The kubelife figures: the timeline (a lane per node and per pod), "where does the time go?"
//! (a stacked bar), the cluster at one instant (node cards by zone), for clusters too large for a
//! card or a lane per node the aggregate (node and pod counts over time, stacked per zone and per
//! workload), and the Tune panel's scatter of a search's points, each drawn by one function
//! generic over plotters' `DrawingBackend`, so the page draws on its canvas (and saves SVG or PNG)
//! and `kubelife render` (and `kubelife tune --svg`) writes SVG or PNG from the same code.
//!
//! Pure: no DOM, no files, no clock. Texts come in already translated; the names in the pictures
//! are Kubernetes names and the times Go durations.

pub mod aggregate;
pub mod areas;
pub mod breakdown;
pub mod cluster;
pub mod explain;
pub mod grid;
pub mod lanes;
mod names;
mod patterns;
pub mod picture;
pub mod scatter;
pub mod spread;
pub mod timeline;

pub use aggregate::{Aggregate, EvictionRates, NodeCounts, NodeState, PodCounts, PodState};
pub use areas::{draw_aggregate, AggregateFigure, AggregateTexts, Row, RowKind};
pub use breakdown::{breakdown_height, draw_breakdown, Bar, BreakdownTexts, Piece};
pub use cluster::{draw_cluster, ClusterFigure, ClusterTexts};
pub use explain::{bars, milestones, Goal, Milestones, Restored, Segment};
pub use scatter::{draw_scatter, ScatterFigure, SCATTER_HEIGHT};
pub use timeline::{draw_timeline, Legend, LegendTexts, TimelineFigure};
