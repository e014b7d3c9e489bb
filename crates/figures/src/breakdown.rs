//! "Where does the time go?" as a figure: a stacked bar whose segments are numbered and
//! patterned (not only coloured), and under it one line per segment with its length, what
//! happens in it and the flag behind it, then the total.

use crate::patterns::{fill, Pattern};
use kubelife_engine::time::format_go_duration_tenths;
use kubelife_engine::Millis;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One segment, its label already translated.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// What happens in it.
    pub label: String,
    /// The flag and value behind it.
    pub flag: String,
    /// Its length, ms.
    pub ms: Millis,
}

/// The figure's own texts, already translated.
#[derive(Debug, Clone, PartialEq)]
pub struct BreakdownTexts {
    /// The title.
    pub title: String,
    /// The total line, with the total in it.
    pub total: String,
}

const COLOURS: [RGBColor; 5] = [
    RGBColor(0x5b, 0x7b, 0xd5),
    RGBColor(0xe0, 0xa0, 0x40),
    RGBColor(0xc0, 0x50, 0x4d),
    RGBColor(0x59, 0xa8, 0x6b),
    RGBColor(0x80, 0x64, 0xa2),
];
const PATTERNS: [Pattern; 5] = [
    Pattern::Solid,
    Pattern::Stripes,
    Pattern::Dots,
    Pattern::Hollow,
    Pattern::Bars,
];
const LINE: i32 = 20;
const BAR_TOP: i32 = 28;
const BAR_HEIGHT: i32 = 28;

/// The height the figure needs for `bars` segments, px.
pub fn breakdown_height(bars: usize) -> u32 {
    (BAR_TOP + BAR_HEIGHT + 10 + LINE * (bars as i32 + 1) + 6) as u32
}

/// Draws the bar and its legend on `root`, at least [`breakdown_height`] high.
pub fn draw_breakdown<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    bars: &[Bar],
    texts: &BreakdownTexts,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let width = root.dim_in_pixel().0 as i32;
    root.fill(&WHITE)?;
    let font = (FontFamily::SansSerif, 12).into_font();
    root.draw(&Text::new(
        texts.title.clone(),
        (8, 6),
        (FontFamily::SansSerif, 15).into_font(),
    ))?;
    let total: Millis = bars.iter().map(|b| b.ms.max(0)).sum::<Millis>().max(1);
    let plot = (width - 16).max(1) as f64;
    let (mut x, mut elapsed) = (8, 0);
    for (i, b) in bars.iter().enumerate() {
        elapsed += b.ms.max(0);
        let x1 = (8 + (plot * elapsed as f64 / total as f64) as i32).max(x + 1);
        fill(
            root,
            (x, BAR_TOP),
            (x1, BAR_TOP + BAR_HEIGHT),
            COLOURS[i % 5],
            PATTERNS[i % 5],
        )?;
        if x1 - x >= 18 {
            // The segment's number on a white tag, readable over any fill.
            let mid = (x + x1) / 2;
            root.draw(&Rectangle::new(
                [(mid - 7, BAR_TOP + 6), (mid + 7, BAR_TOP + 22)],
                WHITE.filled(),
            ))?;
            root.draw(&Text::new(format!("{}", i + 1), (mid - 3, BAR_TOP + 8), font.clone()))?;
        }
        x = x1;
    }
    for (i, b) in bars.iter().enumerate() {
        let y = BAR_TOP + BAR_HEIGHT + 10 + i as i32 * LINE;
        fill(root, (8, y + 1), (30, y + 15), COLOURS[i % 5], PATTERNS[i % 5])?;
        let line = format!(
            "{}. {}  {}  ({})",
            i + 1,
            format_go_duration_tenths(b.ms),
            b.label,
            b.flag
        );
        root.draw(&Text::new(line, (36, y + 2), font.clone()))?;
    }
    let y = BAR_TOP + BAR_HEIGHT + 10 + bars.len() as i32 * LINE;
    root.draw(&Text::new(texts.total.clone(), (8, y + 2), font))?;
    Ok(())
}
