//! The Pareto front: the points no other candidate beats on every axis at once. The axes are
//! each target's percentile (earlier is better, a percentile that never came is the worst),
//! heartbeat writes per minute (fewer is better), the page's warnings (a point whose warnings
//! are among another's is no worse, with fewer it is better) and, when the goal checks it, blip
//! safety. With the warnings an axis, a warning-free point is never dropped for a faster one the
//! page warns about.

use super::point::Point;
use crate::time::Millis;
use std::cmp::Ordering;

/// How `a` compares with `b` on one target's axis: `Less` is better.
fn target(a: Option<Millis>, b: Option<Millis>) -> Ordering {
    match (a, b) {
        (Some(a), Some(b)) => a.cmp(&b),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// How `a`'s warnings compare with `b`'s: `Less` when they are fewer and all among `b`'s,
/// `Equal` when the same, `Greater` (not comparable, or more) otherwise.
fn warnings(a: &Point, b: &Point) -> Ordering {
    let among = |x: &Point, y: &Point| x.warnings.iter().all(|w| y.warnings.iter().any(|v| v.key() == w.key()));
    match (among(a, b), among(b, a)) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        _ => Ordering::Greater,
    }
}

/// Whether `a` dominates `b`: no worse on any axis and better on one.
pub fn dominates(a: &Point, b: &Point, blip: bool) -> bool {
    let mut axes: Vec<Ordering> = a.targets.iter().zip(&b.targets).map(|(x, y)| target(*x, *y)).collect();
    axes.push(a.writes_per_minute.total_cmp(&b.writes_per_minute));
    if blip {
        axes.push(b.blip_safe.cmp(&a.blip_safe));
    }
    axes.push(warnings(a, b));
    axes.iter().all(|o| *o != Ordering::Greater) && axes.contains(&Ordering::Less)
}

/// The indices of the points no other point dominates, in the order given.
pub fn front(points: &[&Point], blip: bool) -> Vec<usize> {
    (0..points.len())
        .filter(|&i| !points.iter().any(|p| dominates(p, points[i], blip)))
        .collect()
}

/// The order a front is listed in and `best` is chosen by among points with as many warnings:
/// fewer writes first, then the first target's percentile.
pub fn cheaper_first(a: &Point, b: &Point) -> Ordering {
    let first = |p: &Point| p.targets.first().copied().flatten();
    a.writes_per_minute
        .total_cmp(&b.writes_per_minute)
        .then_with(|| target(first(a), first(b)))
}
