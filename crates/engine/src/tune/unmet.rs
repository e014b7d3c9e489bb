//! What a search's answer says of the goal as a whole: the targets, ceiling or blip safety no
//! candidate meets (with the closest any came, and for the writes ceiling the floor no candidate
//! can go under), or that each is met but never all by one candidate, and the page's warnings
//! every point meeting the goal carries.

use super::goal::Goal;
use super::point::Point;
use serde::{Deserialize, Serialize};

/// The name [`Unmet`] gives the writes ceiling.
pub const MAX_WRITES: &str = "maxWritesPerMinute";
/// The name [`Unmet`] gives blip safety: every candidate taints or deletes on the goal's blip.
pub const BLIP_SAFE: &str = "blipSafe";
/// The name [`Unmet`] gives the goal as a whole when each of its parts is met by some candidate
/// but no candidate meets them all.
pub const TOGETHER: &str = "together";

/// A target, the writes ceiling or blip safety that no candidate meets, or ([`TOGETHER`]) the
/// goal as a whole.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unmet {
    /// The target's milestone (`firstReplacementReady`), [`MAX_WRITES`], [`BLIP_SAFE`] or
    /// [`TOGETHER`].
    pub name: String,
    /// The closest any candidate came: the target's percentile (ms) or writes per minute;
    /// `None` when no candidate reached the milestone at that percentile, and for blip safety and
    /// the goal as a whole.
    pub closest: Option<f64>,
    /// For the writes ceiling, the writes per minute no candidate can go under (see
    /// [`crate::cost::writes_floor`]); `None` for a target.
    pub floor: Option<f64>,
}

/// Each of `goal`'s targets, then its writes ceiling, then blip safety, that no candidate meets;
/// when each is met by some candidate but none meets the goal, [`TOGETHER`]. `floor` is the
/// writes floor of the search's space.
pub fn unmet(goal: &Goal, candidates: &[Point], floor: f64) -> Vec<Unmet> {
    let mut out = Vec::new();
    for (i, t) in goal.targets.iter().enumerate() {
        let values = candidates.iter().filter_map(|p| p.targets.get(i).copied().flatten());
        let closest = values.min();
        if closest.is_none_or(|v| v > t.within) {
            out.push(Unmet {
                name: t.milestone.to_string(),
                closest: closest.map(|v| v as f64),
                floor: None,
            });
        }
    }
    if let Some(max) = goal.max_writes_per_minute {
        let closest = candidates.iter().map(|p| p.writes_per_minute).min_by(f64::total_cmp);
        if closest.is_none_or(|w| w > max) {
            out.push(Unmet {
                name: MAX_WRITES.to_string(),
                closest,
                floor: Some(floor),
            });
        }
    }
    let part = |name: &str| Unmet {
        name: name.to_string(),
        closest: None,
        floor: None,
    };
    if goal.blip.is_some() && !candidates.iter().any(|p| p.blip_safe) {
        out.push(part(BLIP_SAFE));
    }
    if out.is_empty() && !candidates.is_empty() && !candidates.iter().any(|p| p.meets) {
        out.push(part(TOGETHER));
    }
    out
}

/// The warning keys every point of `points` that meets the goal carries, in the first such
/// point's order; none when no point meets it.
pub fn forced_warnings(points: &[Point]) -> Vec<String> {
    let mut meeting = points.iter().filter(|p| p.meets);
    let Some(first) = meeting.next() else {
        return Vec::new();
    };
    let mut keys: Vec<&str> = first.warnings.iter().map(|w| w.key()).collect();
    for p in meeting {
        keys.retain(|k| p.warnings.iter().any(|w| w.key() == *k));
    }
    keys.into_iter().map(str::to_string).collect()
}
