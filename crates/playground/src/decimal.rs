//! A decimal number as a reader types it or a link carries it (`0.1`, `-2.`, `.5`, `1e3`): the
//! text is checked here, and read by a parser the shell installs ([`install`]). Natively that is
//! Rust's own; the page installs the browser's `parseFloat`, so that its wasm carries no float
//! parser of its own (its tables alone are 17 KB). Both round correctly, so they agree on every
//! checked text (`tests/web.rs` checks the hard cases).

use std::sync::OnceLock;

/// The installed parser of checked decimal text.
static PARSER: OnceLock<fn(&str) -> f64> = OnceLock::new();

/// Installs the parser that reads checked decimal text (the page's: the browser's `parseFloat`).
/// The first installed stays.
pub fn install(parse: fn(&str) -> f64) {
    let _ = PARSER.set(parse);
}

/// `text` as a number, or `None` for anything but a plain decimal (`inf`, `NaN` and spaces
/// included). In the page's wasm, a number is read only once a parser is installed.
pub fn decimal(text: &str) -> Option<f64> {
    if !is_decimal(text.as_bytes()) {
        return None;
    }
    match PARSER.get() {
        Some(parse) => Some(parse(text)),
        None => own_parser(text),
    }
}

/// The powers of ten and their logarithms (the playback speed's slider, the link's `speed`), by
/// functions the shell installs ([`install_math`]): the page's are the browser's `Math.pow` and
/// `Math.log10`, so that its wasm carries no power or logarithm of its own; natively, Rust's.
static MATH: OnceLock<(Pow, Log10)> = OnceLock::new();

/// `pow(base, exponent)`.
type Pow = fn(f64, f64) -> f64;
/// The decimal logarithm.
type Log10 = fn(f64) -> f64;

/// Installs the power (`pow(base, exponent)`) and the decimal logarithm the page uses. The first
/// installed stay.
pub fn install_math(pow: Pow, log10: Log10) {
    let _ = MATH.set((pow, log10));
}

/// 10 to the power `x`.
pub fn pow10(x: f64) -> f64 {
    match MATH.get() {
        Some((pow, _)) => pow(10.0, x),
        None => own_math(x, true),
    }
}

/// The decimal logarithm of `x`.
pub fn log10(x: f64) -> f64 {
    match MATH.get() {
        Some((_, log10)) => log10(x),
        None => own_math(x, false),
    }
}

/// Rust's power of ten (`pow`) or decimal logarithm, natively.
#[cfg(not(target_arch = "wasm32"))]
fn own_math(x: f64, pow: bool) -> f64 {
    if pow {
        10f64.powf(x)
    } else {
        x.log10()
    }
}

/// Not a number in WebAssembly: the shell installs the browser's before the page needs one.
#[cfg(target_arch = "wasm32")]
fn own_math(_x: f64, _pow: bool) -> f64 {
    f64::NAN
}

/// Rust's parser, natively.
#[cfg(not(target_arch = "wasm32"))]
fn own_parser(text: &str) -> Option<f64> {
    text.parse().ok()
}

/// None in WebAssembly: the shell installs the browser's parser before it reads a number.
#[cfg(target_arch = "wasm32")]
fn own_parser(_text: &str) -> Option<f64> {
    None
}

/// Whether `text` is `[+-]digits[.digits][(e|E)[+-]digits]` with a digit before or after the
/// point: the finite forms Rust's `f64::from_str` and JavaScript's `parseFloat` both read whole.
fn is_decimal(text: &[u8]) -> bool {
    let sign = |s: &[u8]| -> usize { usize::from(matches!(s.first(), Some(b'+' | b'-'))) };
    let digits = |s: &[u8]| s.iter().take_while(|c| c.is_ascii_digit()).count();
    let mut i = sign(text);
    let whole = digits(&text[i..]);
    i += whole;
    let mut fraction = 0;
    if text.get(i) == Some(&b'.') {
        fraction = digits(&text[i + 1..]);
        i += 1 + fraction;
    }
    if whole + fraction == 0 {
        return false;
    }
    if matches!(text.get(i), Some(b'e' | b'E')) {
        i += 1;
        i += sign(&text[i..]);
        let exponent = digits(&text[i..]);
        if exponent == 0 {
            return false;
        }
        i += exponent;
    }
    i == text.len()
}

#[cfg(test)]
mod tests {
    use super::decimal;

    /// `decimal` reads `text` as `expect`; natively that is Rust's own parser's value, which
    /// `tests/web.rs` checks the browser's `parseFloat` agrees with.
    fn check(text: &str, expect: Option<f64>) {
        assert_eq!(decimal(text).map(f64::to_bits), expect.map(f64::to_bits), "{text:?}");
    }

    #[test]
    fn reads_the_plain_decimal_forms() {
        for (text, expect) in [
            ("0.1", Some(0.1)),
            ("-2.", Some(-2.0)),
            ("+.5", Some(0.5)),
            ("1e3", Some(1000.0)),
            ("2.5E-1", Some(0.25)),
            ("007", Some(7.0)),
            ("1e400", Some(f64::INFINITY)),
            ("", None),
            (".", None),
            ("-", None),
            ("e3", None),
            ("1e", None),
            ("1e+", None),
            ("1.2.3", None),
            (" 1", None),
            ("1 ", None),
            ("1_000", None),
            ("0x10", None),
            ("inf", None),
            ("NaN", None),
            ("1s", None),
        ] {
            check(text, expect);
        }
    }
}
