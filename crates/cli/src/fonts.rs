//! The font a PNG's Chinese text is drawn with. The bundled DejaVu Sans has no Chinese, and a CJK
//! font is some 20 MB, so `kubelife render --format png --lang zh` uses one the system has: the
//! file `KUBELIFE_CJK_FONT` names, else the first sans-serif face fontconfig lists for Chinese
//! (`fc-list :lang=zh file`), else one of the paths the common packages install to. SVG text
//! needs none: it names the `sans-serif` family and the viewer picks a font, as the page's
//! browser does.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The variable that names a CJK font file, over every other place.
pub const VARIABLE: &str = "KUBELIFE_CJK_FONT";

/// Where packages put a sans-serif CJK face: Debian and Ubuntu's fonts-noto-cjk, Arch's
/// noto-fonts-cjk, and Debian's fonts-wqy-microhei.
const KNOWN: [&str; 3] = [
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
];

/// A CJK font's bytes, read once for the process, or why none was found (a message for the
/// reader: where it looked and how to get one).
pub fn cjk() -> Result<&'static [u8], String> {
    static FONT: std::sync::OnceLock<Result<&'static [u8], String>> = std::sync::OnceLock::new();
    FONT.get_or_init(|| {
        let named = std::env::var_os(VARIABLE).filter(|v| !v.is_empty()).map(PathBuf::from);
        let candidates = match &named {
            Some(path) => vec![path.clone()],
            None => fontconfig()
                .into_iter()
                .chain(KNOWN.iter().map(PathBuf::from))
                .collect(),
        };
        let found = candidates
            .iter()
            .find_map(|p| std::fs::read(p).ok().filter(|b| is_font(b)));
        match found {
            Some(bytes) => Ok(&*Box::leak(bytes.into_boxed_slice())),
            None => Err(missing(named.as_deref())),
        }
    })
    .clone()
}

/// The faces fontconfig lists as covering Chinese, sans-serif and regular ones first; none when
/// fontconfig is not installed.
fn fontconfig() -> Vec<PathBuf> {
    let Ok(out) = Command::new("fc-list").args([":lang=zh", "file"]).output() else {
        return Vec::new();
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let mut files: Vec<&str> = text
        .lines()
        .map(|l| l.trim().trim_end_matches(':').trim())
        .filter(|f| !f.is_empty())
        .collect();
    // Sans before serif, regular before bold; then by name, so that the choice is stable.
    files.sort_by_key(|f| (!f.contains("Sans"), f.contains("Bold"), f.to_string()));
    files.into_iter().map(PathBuf::from).collect()
}

/// Whether the bytes start as a TrueType or OpenType font or a collection of them.
fn is_font(bytes: &[u8]) -> bool {
    matches!(bytes.get(..4), Some(b"ttcf" | b"OTTO" | b"true" | [0, 1, 0, 0]))
}

/// Why no font was found and how to get one.
fn missing(named: Option<&Path>) -> String {
    let looked = match named {
        Some(path) => format!("{VARIABLE} names {}, which is not a font file", path.display()),
        None => format!("fontconfig lists none for Chinese and none is at {}", KNOWN.join(", ")),
    };
    format!(
        "PNG text in Chinese needs a font with Chinese characters: {looked}. Install one (Debian and \
         Ubuntu: apt-get install fonts-noto-cjk), set {VARIABLE} to a .ttf, .otf or .ttc file with \
         Chinese, or use --format svg, whose text the viewer's fonts draw"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn font_files_are_told_by_their_first_bytes() {
        assert!(is_font(b"ttcf\0\x02\0\0"));
        assert!(is_font(b"OTTO...."));
        assert!(is_font(&[0, 1, 0, 0, 0, 9]));
        assert!(!is_font(b"<svg"));
        assert!(!is_font(b""));
    }

    #[test]
    fn the_message_says_where_it_looked_and_how_to_get_a_font() {
        let m = missing(Some(Path::new("/nowhere.ttc")));
        assert!(m.contains("KUBELIFE_CJK_FONT names /nowhere.ttc"), "{m}");
        assert!(
            m.contains("apt-get install fonts-noto-cjk") && m.contains("--format svg"),
            "{m}"
        );
        let m = missing(None);
        assert!(
            m.contains("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
            "{m}"
        );
    }
}
