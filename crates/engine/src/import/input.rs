//! A file's bytes before they are text: the size limit ([`MAX_FILE_BYTES`]) and the encoding.
//! UTF-8 is read as it is, and without its byte-order mark when it has one; UTF-16 with a
//! byte-order mark (what PowerShell's `>` and `Out-File` write) is decoded; anything else is
//! refused with a message that names the encoding it looks like and how to save the file as UTF-8.

use super::limits::{too_large, MAX_FILE_BYTES};
use super::shown::Shown;
use crate::cause::Cause;
use std::borrow::Cow;

/// A file's text and, when it was decoded from something other than plain UTF-8, a note saying
/// what it was.
pub type Text<'a> = (Cow<'a, str>, Option<Cause>);

/// Reads `bytes` (of `file`) as text, or says why not.
pub fn decode<'a>(file: &str, bytes: &'a [u8]) -> Result<Text<'a>, Cause> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(too_large(file, Some(bytes.len() as u64)));
    }
    let refuse = |key: &'static str, encoding: &str| Cause::new(key).shown("file", file).text("encoding", encoding);
    if bytes.starts_with(&[0xff, 0xfe, 0, 0]) || bytes.starts_with(&[0, 0, 0xfe, 0xff]) {
        let encoding = if bytes[0] == 0xff { "UTF-32LE" } else { "UTF-32BE" };
        return Err(refuse("import.encoding.unsupported", encoding));
    }
    if let Some(rest) = bytes.strip_prefix(&[0xef, 0xbb, 0xbf]) {
        let text = std::str::from_utf8(rest).map_err(|e| not_utf8(file, bytes, e.valid_up_to() + 3))?;
        let note = Cause::new("import.encoding.bom").shown("file", file);
        return Ok((Cow::Borrowed(text), Some(note)));
    }
    for (bom, little, encoding) in [([0xff, 0xfe], true, "UTF-16LE"), ([0xfe, 0xff], false, "UTF-16BE")] {
        if let Some(rest) = bytes.strip_prefix(&bom) {
            return match utf16(rest, little) {
                Ok(text) => Ok((Cow::Owned(text), Some(refuse("import.encoding.utf16", encoding)))),
                Err(at) => Err(refuse("import.encoding.bad_utf16", encoding).text("offset", at + 2)),
            };
        }
    }
    if let Some(encoding) = utf16_without_bom(bytes) {
        return Err(refuse("import.encoding.utf16_no_bom", encoding));
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok((Cow::Borrowed(text), None)),
        Err(e) => Err(not_utf8(file, bytes, e.valid_up_to())),
    }
}

/// What a text holding NUL characters (`\0`) is told: where the first is (line, from 1) and
/// how many there are. Neither YAML 1.2 (its printable character set) nor JSON (RFC 8259, control
/// characters only escaped in strings) allows one, so the parser that reads the file next refuses
/// it at that place; this names the byte, which a parser's position does not.
pub fn nul_bytes(file: &str, text: &str) -> Option<Cause> {
    let first = text.find('\0')?;
    let line = text[..first].matches('\n').count() + 1;
    let count = text.matches('\0').count();
    Some(
        Cause::new("import.encoding.nul")
            .shown("file", file)
            .text("line", line)
            .text("count", super::shown::thousands(count)),
    )
}

/// The refusal of bytes that are not UTF-8, at the first byte that is not.
fn not_utf8(file: &str, bytes: &[u8], at: usize) -> Cause {
    Cause::new("import.encoding.not_utf8")
        .shown("file", file)
        .text("byte", format!("0x{:02x}", bytes.get(at).copied().unwrap_or(0)))
        .text("offset", at)
}

/// UTF-16 code units to text; the byte offset of the first unpaired surrogate when invalid.
fn utf16(bytes: &[u8], little: bool) -> Result<String, usize> {
    if bytes.len() % 2 == 1 {
        return Err(bytes.len() - 1);
    }
    let units = bytes.chunks_exact(2).map(|p| match little {
        true => u16::from_le_bytes([p[0], p[1]]),
        false => u16::from_be_bytes([p[0], p[1]]),
    });
    let mut out = String::with_capacity(bytes.len() / 2);
    let mut at = 0;
    for c in char::decode_utf16(units) {
        match c {
            Ok(c) => {
                at += 2 * c.len_utf16();
                out.push(c);
            }
            Err(_) => return Err(at),
        }
    }
    Ok(out)
}

/// "UTF-16LE" or "UTF-16BE" when text looks like UTF-16 without a byte-order mark: among its
/// first bytes, every other one is NUL (ASCII text written two bytes a character).
fn utf16_without_bom(bytes: &[u8]) -> Option<&'static str> {
    let head = &bytes[..bytes.len().min(256) & !1];
    if head.len() < 4 {
        return None;
    }
    let nul = |parity: usize| head.iter().skip(parity).step_by(2).filter(|&&b| b == 0).count();
    let (even, odd, pairs) = (nul(0), nul(1), head.len() / 2);
    match (even, odd) {
        (0, n) if n * 2 >= pairs => Some("UTF-16LE"),
        (n, 0) if n * 2 >= pairs => Some("UTF-16BE"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16le(text: &str, bom: bool) -> Vec<u8> {
        let mut out = if bom { vec![0xff, 0xfe] } else { vec![] };
        out.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        out
    }

    #[test]
    fn reads_utf8_and_utf16_with_a_byte_order_mark() {
        let (t, note) = decode("a", b"kind: Node\n").unwrap();
        assert_eq!((t.as_ref(), note), ("kind: Node\n", None));
        let (t, note) = decode("a", b"\xef\xbb\xbfkind: Node").unwrap();
        assert_eq!(t, "kind: Node");
        assert!(note.unwrap().english().contains("UTF-8 with a byte-order mark"));
        let bytes = utf16le("kind: Node\r\n", true);
        let (t, note) = decode("ps.yaml", &bytes).unwrap();
        assert_eq!(t, "kind: Node\r\n");
        assert!(note.unwrap().english().contains("UTF-16LE"));
        let mut be = vec![0xfe, 0xff];
        be.extend("é".encode_utf16().flat_map(u16::to_be_bytes));
        assert_eq!(decode("a", &be).unwrap().0, "é");
    }

    #[test]
    fn refuses_other_encodings_naming_them() {
        let e = decode("ps.yaml", &utf16le("kind: Node", false)).unwrap_err().english();
        assert!(
            e.contains("ps.yaml") && e.contains("UTF-16LE") && e.contains("UTF-8"),
            "{e}"
        );
        let e = decode("latin1.yaml", b"name: caf\xe9\n").unwrap_err().english();
        assert!(
            e.contains("latin1.yaml") && e.contains("0xe9") && e.contains("offset 9"),
            "{e}"
        );
        let e = decode("a", &[0xff, 0xfe, 0x00, 0xd8]).unwrap_err().english();
        assert!(e.contains("UTF-16LE"), "{e}");
        let e = decode("a", &[0xff, 0xfe, 0, 0, b'a', 0, 0, 0]).unwrap_err().english();
        assert!(e.contains("UTF-32LE"), "{e}");
    }
}
