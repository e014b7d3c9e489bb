//! Fills that do not rely on colour alone: solid, stripes, a midline, hollow, dots.

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
        Pattern::Stripes => {
            let mut x = x0;
            while x < x1 {
                root.draw(&PathElement::new(vec![(x, y1), ((x + 6).min(x1), y0)], WHITE))?;
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
