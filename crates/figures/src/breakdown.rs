//! "Where does the time go?" as a figure: for each bar, its title and total, a stacked bar whose
//! segments are numbered and patterned (not only coloured), and under it one line per segment
//! with its length and what happens in it, wrapped to the width; a milestone passed on the way
//! gets a line of its own.

use crate::patterns::{fill, Pattern};
use kubelife_engine::time::format_go_duration_span;
use kubelife_engine::Millis;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One segment, its label already translated.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Piece {
    /// What happens in it.
    pub label: String,
    /// Its length, ms.
    pub ms: Millis,
}

/// One bar, its texts already translated.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Bar {
    /// What it reaches.
    pub title: String,
    /// The total line (or why there is no bar).
    pub total: String,
    /// The segments; none when the goal was not reached.
    pub pieces: Vec<Piece>,
    /// A milestone on the way: after this many pieces, this line.
    pub passes: Option<(usize, String)>,
}

/// The figure's own texts, already translated.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct BreakdownTexts {
    /// The title.
    pub title: String,
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
const LINE: i32 = 18;
const TITLE: i32 = 28;
const BAR_HEIGHT: i32 = 28;
/// The average advance of a 12 px sans-serif character, px: enough to wrap without measuring.
const CHAR: f64 = 6.6;

/// How wide a character is in units of [`CHAR`]: two for CJK and other wide scripts.
fn units(c: char) -> usize {
    if c >= '\u{2e80}' {
        2
    } else {
        1
    }
}

/// `text` cut into lines of at most `width` units, at spaces where it can be, and inside a word
/// (Chinese has no spaces) where it cannot.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(10);
    let mut lines: Vec<String> = vec![String::new()];
    let mut used = 0;
    for word in text.split(' ') {
        let size: usize = word.chars().map(units).sum();
        if used > 0 && used + 1 + size <= width {
            lines.last_mut().expect("never empty").push(' ');
            used += 1;
        } else if used > 0 {
            lines.push(String::new());
            used = 0;
        }
        for c in word.chars() {
            if used + units(c) > width {
                lines.push(String::new());
                used = 0;
            }
            lines.last_mut().expect("never empty").push(c);
            used += units(c);
        }
    }
    lines
}

/// The legend's lines of one bar at `width` px: one entry per piece, wrapped, and the line of
/// the milestone passed on the way.
fn legend(bar: &Bar, width: u32) -> Vec<(Option<usize>, String)> {
    let chars = ((width as f64 - 44.0) / CHAR) as usize;
    let mut out = Vec::new();
    for (i, p) in bar.pieces.iter().enumerate() {
        let entry = format!("{}. {}  {}", i + 1, format_go_duration_span(p.ms), p.label);
        for (j, line) in wrap(&entry, chars).into_iter().enumerate() {
            out.push(((j == 0).then_some(i), line));
        }
        if let Some((after, text)) = &bar.passes {
            if *after == i + 1 {
                out.extend(wrap(text, chars).into_iter().map(|l| (None, l)));
            }
        }
    }
    out
}

fn bar_height(bar: &Bar, width: u32) -> i32 {
    let drawn = if bar.pieces.is_empty() { 0 } else { BAR_HEIGHT + 8 };
    TITLE + drawn + LINE * (legend(bar, width).len() + total_lines(bar, width).len()) as i32 + 10
}

fn total_lines(bar: &Bar, width: u32) -> Vec<String> {
    wrap(&bar.total, ((width as f64 - 16.0) / CHAR) as usize)
}

/// The height the figure needs for `bars` at `width` px.
pub fn breakdown_height(bars: &[Bar], width: u32) -> u32 {
    (TITLE + bars.iter().map(|b| bar_height(b, width)).sum::<i32>() + 6) as u32
}

/// Draws the bars and their legends on `root`, at least [`breakdown_height`] high.
pub fn draw_breakdown<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    bars: &[Bar],
    texts: &BreakdownTexts,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let width = root.dim_in_pixel().0;
    root.fill(&WHITE)?;
    let font = (FontFamily::SansSerif, 12).into_font();
    root.draw(&Text::new(
        texts.title.clone(),
        (8, 6),
        (FontFamily::SansSerif, 15).into_font(),
    ))?;
    let mut y = TITLE;
    for bar in bars {
        draw_bar(root, bar, y, width, &font)?;
        y += bar_height(bar, width);
    }
    Ok(())
}

fn draw_bar<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    bar: &Bar,
    top: i32,
    width: u32,
    font: &FontDesc<'_>,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let bold = (FontFamily::SansSerif, 13, FontStyle::Bold).into_font();
    root.draw(&Text::new(bar.title.clone(), (8, top + 6), bold))?;
    let mut y = top + TITLE;
    if !bar.pieces.is_empty() {
        let total: Millis = bar.pieces.iter().map(|p| p.ms.max(0)).sum::<Millis>().max(1);
        let plot = (width as i32 - 16).max(1) as f64;
        let (mut x, mut elapsed) = (8, 0);
        for (i, p) in bar.pieces.iter().enumerate() {
            elapsed += p.ms.max(0);
            let x1 = (8 + (plot * elapsed as f64 / total as f64) as i32).max(x + 1);
            fill(root, (x, y), (x1, y + BAR_HEIGHT), COLOURS[i % 5], PATTERNS[i % 5])?;
            if x1 - x >= 18 {
                // The segment's number on a white tag, readable over any fill.
                let mid = (x + x1) / 2;
                root.draw(&Rectangle::new([(mid - 8, y + 6), (mid + 8, y + 22)], WHITE.filled()))?;
                root.draw(&Text::new(format!("{}", i + 1), (mid - 4, y + 8), font.clone()))?;
            }
            x = x1;
        }
        y += BAR_HEIGHT + 8;
    }
    for (piece, line) in legend(bar, width) {
        match piece {
            Some(i) => {
                fill(root, (8, y + 1), (30, y + 14), COLOURS[i % 5], PATTERNS[i % 5])?;
                root.draw(&Text::new(line, (36, y + 2), font.clone()))?;
            }
            None => root.draw(&Text::new(line, (36, y + 2), font.clone()))?,
        }
        y += LINE;
    }
    for line in total_lines(bar, width) {
        root.draw(&Text::new(line, (8, y + 2), font.clone()))?;
        y += LINE;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_at_spaces_within_the_width() {
        assert_eq!(
            wrap("one two three four five", 10),
            vec!["one two", "three four", "five"]
        );
        assert_eq!(wrap("a", 80), vec!["a"]);
        // Ten units a line: five wide characters.
        assert_eq!(wrap("一二三四五六七", 10), vec!["一二三四五", "六七"]);
    }
}
