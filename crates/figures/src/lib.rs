//! The kubelife figures: the timeline (a lane per node and per pod) and "where does the time
//! go?" (a stacked bar), each drawn by one function generic over plotters' `DrawingBackend`, so
//! the page draws on its canvas and `kubelife render` writes SVG or PNG from the same code.
//!
//! Pure: no DOM, no files, no clock. Texts come in already translated; the names in the pictures
//! are Kubernetes names and the times Go durations.

pub mod breakdown;
pub mod explain;
pub mod lanes;
mod patterns;
pub mod timeline;

pub use breakdown::{breakdown_height, draw_breakdown, Bar, BreakdownTexts};
pub use explain::{database_breakdown, Restored};
pub use timeline::{draw_timeline, Legend, TimelineFigure};
