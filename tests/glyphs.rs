//! What the page writes needs no special font: no emoji (they render as empty boxes where no
//! emoji font is installed) and no character that asks for emoji presentation. The symbols it
//! does use (▶ ↺ → ✓ ○ ● ◐ ✕ ⚠ ▣ ▼ ▲ ◆ ■) are in common text fonts such as DejaVu Sans; the browser
//! tests check that each one has a glyph.

use std::path::Path;

/// Characters whose default presentation is an emoji (Unicode's `Emoji_Presentation`), in the
/// Basic Multilingual Plane; everything above it that is a symbol is an emoji too.
const EMOJI_PRESENTATION: &[(u32, u32)] = &[
    (0x231A, 0x231B),
    (0x23E9, 0x23EC),
    (0x23F0, 0x23F0),
    (0x23F3, 0x23F3),
    (0x25FD, 0x25FE),
    (0x2614, 0x2615),
    (0x2648, 0x2653),
    (0x267F, 0x267F),
    (0x2693, 0x2693),
    (0x26A1, 0x26A1),
    (0x26AA, 0x26AB),
    (0x26BD, 0x26BE),
    (0x26C4, 0x26C5),
    (0x26CE, 0x26CE),
    (0x26D4, 0x26D4),
    (0x26EA, 0x26EA),
    (0x26F2, 0x26F3),
    (0x26F5, 0x26F5),
    (0x26FA, 0x26FA),
    (0x26FD, 0x26FD),
    (0x2705, 0x2705),
    (0x270A, 0x270B),
    (0x2728, 0x2728),
    (0x274C, 0x274C),
    (0x274E, 0x274E),
    (0x2753, 0x2755),
    (0x2757, 0x2757),
    (0x2795, 0x2797),
    (0x27B0, 0x27B0),
    (0x27BF, 0x27BF),
    (0x2B1B, 0x2B1C),
    (0x2B50, 0x2B50),
    (0x2B55, 0x2B55),
];

/// Why `c` needs an emoji font, if it does.
fn needs_emoji_font(c: char) -> Option<&'static str> {
    let u = c as u32;
    if u == 0xFE0F {
        Some("asks for emoji presentation (VS16)")
    } else if (0x1F000..=0x1FAFF).contains(&u) {
        Some("is an emoji")
    } else if EMOJI_PRESENTATION.iter().any(|&(a, b)| (a..=b).contains(&u)) {
        Some("is drawn as an emoji by default")
    } else {
        None
    }
}

fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            walk(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn nothing_the_page_writes_needs_an_emoji_font() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    walk(&root.join("src"), &mut files);
    walk(&root.join("crates/playground/src"), &mut files);
    walk(&root.join("i18n"), &mut files);
    walk(&root.join("www"), &mut files);
    files.push(root.join("index.html"));
    let mut found = Vec::new();
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            for c in line.chars() {
                if let Some(why) = needs_emoji_font(c) {
                    found.push(format!(
                        "{}:{}: {c:?} (U+{:04X}) {why}",
                        path.display(),
                        n + 1,
                        c as u32
                    ));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "use an inline SVG or words instead:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_knows_the_glyphs_that_boxed() {
    // The old language picker's globe and the fault line's lightning.
    assert!(needs_emoji_font('🌐').is_some());
    assert!(needs_emoji_font('⚡').is_some());
    for c in "▶❚↺→✓○●◐✕⚠▣▼▲◆■±−·…—".chars() {
        assert_eq!(needs_emoji_font(c), None, "{c}");
    }
}
