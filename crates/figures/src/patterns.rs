//! Fills that do not rely on colour alone: solid, stripes, a midline, hollow, dots, bars and a
//! cross-hatch. [`fill`] draws one rectangle; [`fill_tiled`] anchors the pattern to the figure's
//! pixel grid, so that rectangles side by side (the columns of a stacked area) join seamlessly.

use plotters::coord::Shift;
use plotters::prelude::*;

/// A fill for a rectangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// Filled.
    Solid,
    /// Filled, with white diagonal stripes.
    Stripes,
    /// Filled, with a white line along the middle.
    Midline,
    /// Outline only.
    Hollow,
    /// Filled, with white dots.
    Dots,
    /// Filled, with white vertical bars.
    Bars,
    /// Filled, with white diagonals both ways.
    Cross,
}

/// Fills the rectangle (x0, y0)–(x1, y1) with `colour` in `pattern`.
pub fn fill<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    (x0, y0): (i32, i32),
    (x1, y1): (i32, i32),
    colour: RGBColor,
    pattern: Pattern,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    if pattern == Pattern::Hollow {
        root.draw(&Rectangle::new([(x0, y0), (x1, y1)], WHITE.filled()))?;
        return root.draw(&Rectangle::new([(x0, y0), (x1, y1)], colour.stroke_width(1)));
    }
    root.draw(&Rectangle::new([(x0, y0), (x1, y1)], colour.filled()))?;
    match pattern {
        Pattern::Stripes | Pattern::Cross => {
            let mut x = x0;
            while x < x1 {
                root.draw(&PathElement::new(vec![(x, y1), ((x + 6).min(x1), y0)], WHITE))?;
                if pattern == Pattern::Cross {
                    root.draw(&PathElement::new(vec![(x, y0), ((x + 6).min(x1), y1)], WHITE))?;
                }
                x += 8;
            }
        }
        Pattern::Midline => {
            let y = (y0 + y1) / 2;
            root.draw(&PathElement::new(vec![(x0, y), (x1, y)], WHITE.stroke_width(2)))?;
        }
        Pattern::Dots => {
            let mut x = x0 + 3;
            while x < x1 - 1 {
                let mut y = y0 + 3;
                while y < y1 - 1 {
                    root.draw(&Rectangle::new([(x, y), (x + 1, y + 1)], WHITE.filled()))?;
                    y += 5;
                }
                x += 5;
            }
        }
        Pattern::Bars => {
            let mut x = x0 + 2;
            while x < x1 {
                root.draw(&PathElement::new(vec![(x, y0), (x, y1)], WHITE))?;
                x += 4;
            }
        }
        Pattern::Solid | Pattern::Hollow => {}
    }
    Ok(())
}

/// Fills the pixels x0..x1, y0..y1 (ends excluded) with `colour` in `pattern`, the pattern
/// anchored to the figure's pixel grid: diagonals where x ± y is a multiple of 8, lines (the
/// midline's stand-in) where y is 2 modulo 5, dots every 5 px, bars every 4 px. Hollow is a
/// pale fill outlined at its top and bottom. The fill's rectangle ends at (x1, y1), which vector
/// backends (SVG, canvas) read as its size, so neighbours meet without a seam.
pub fn fill_tiled<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    (x0, y0): (i32, i32),
    (x1, y1): (i32, i32),
    colour: RGBColor,
    pattern: Pattern,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    if x1 <= x0 || y1 <= y0 {
        return Ok(());
    }
    // Inclusive corners.
    let (xe, ye) = (x1 - 1, y1 - 1);
    if pattern == Pattern::Hollow {
        root.draw(&Rectangle::new([(x0, y0), (x1, y1)], colour.mix(0.2).filled()))?;
        root.draw(&PathElement::new(vec![(x0, y0), (xe, y0)], colour))?;
        return root.draw(&PathElement::new(vec![(x0, ye), (xe, ye)], colour));
    }
    root.draw(&Rectangle::new([(x0, y0), (x1, y1)], colour.filled()))?;
    let line = |a: (i32, i32), b: (i32, i32)| root.draw(&PathElement::new(vec![a, b], WHITE));
    match pattern {
        Pattern::Stripes | Pattern::Cross => {
            // x + y = s, rising to the right.
            let mut s = x0 + y0 + (8 - (x0 + y0).rem_euclid(8)) % 8;
            while s <= xe + ye {
                let (a, b) = ((s - ye).max(x0), (s - y0).min(xe));
                if a <= b {
                    line((a, s - a), (b, s - b))?;
                }
                s += 8;
            }
            if pattern == Pattern::Cross {
                // x - y = d, falling to the right.
                let mut d = x0 - ye + (8 - (x0 - ye).rem_euclid(8)) % 8;
                while d <= xe - y0 {
                    let (a, b) = ((d + y0).max(x0), (d + ye).min(xe));
                    if a <= b {
                        line((a, a - d), (b, b - d))?;
                    }
                    d += 8;
                }
            }
        }
        Pattern::Midline => {
            for y in (y0..=ye).filter(|y| y.rem_euclid(5) == 2) {
                line((x0, y), (xe, y))?;
            }
        }
        Pattern::Dots => {
            for x in (x0..xe).filter(|x| x.rem_euclid(5) == 2) {
                for y in (y0..ye).filter(|y| y.rem_euclid(5) == 2) {
                    root.draw(&Rectangle::new([(x, y), (x + 1, y + 1)], WHITE.filled()))?;
                }
            }
        }
        Pattern::Bars => {
            for x in (x0..=xe).filter(|x| x.rem_euclid(4) == 2) {
                line((x, y0), (x, ye))?;
            }
        }
        Pattern::Solid | Pattern::Hollow => {}
    }
    Ok(())
}
