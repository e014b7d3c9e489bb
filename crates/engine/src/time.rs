//! Simulated time and Go-style durations.
//!
//! Time in the engine is a plain integer: milliseconds since the moment the scenario's clock reads
//! zero. Negative times belong to the warm-up that lets every loop settle into a random phase before
//! anything is recorded. Durations are written and shown the way Go's `time.Duration` prints them
//! (`40s`, `5m0s`, `52.3s`), because that is how Kubernetes flags and configuration files show them.

/// Simulated time or a span of it, in milliseconds.
pub type Millis = i64;

/// One second in [`Millis`].
pub const SECOND: Millis = 1_000;
/// One minute in [`Millis`].
pub const MINUTE: Millis = 60 * SECOND;
/// One hour in [`Millis`].
pub const HOUR: Millis = 60 * MINUTE;

/// Why a duration string could not be read: the text, quoted as Rust's `{:?}` quotes it (`"16"`),
/// and the reason as a catalogue key (`duration.no_unit`), with the unit it did not know for
/// `duration.unknown_unit`. The message module makes it a message (`DurationError::cause`) and
/// prints it in English.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DurationError {
    /// The text as written, quoted.
    pub text: String,
    /// The reason's catalogue key.
    pub why: &'static str,
    /// The unit that is not one, quoted, for `duration.unknown_unit`.
    pub unit: Option<String>,
}

/// Text quoted in an error as Rust's `{:?}` quotes it, cut to its first 40 characters (then
/// "…"), so that a pasted page makes a one-line message.
fn quoted(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((cut, _)) => format!("{:?}…", &text[..cut]),
        None => format!("{text:?}"),
    }
}

/// Parses a Go duration string (`"10s"`, `"5m0s"`, `"1h2m3.5s"`, `"250ms"`, `"-3s"`, `"0"`) into
/// milliseconds. Sub-millisecond remainders are an error, since the engine's resolution is 1 ms.
pub fn parse_go_duration(text: &str) -> Result<Millis, DurationError> {
    let err = |why: &'static str, unit: Option<&str>| DurationError {
        text: quoted(text),
        why,
        unit: unit.map(quoted),
    };
    let said = |why: &'static str| err(why, None);
    let mut s = text.trim();
    if s.is_empty() {
        return Err(said("duration.empty"));
    }
    let negative = if let Some(rest) = s.strip_prefix('-') {
        s = rest;
        true
    } else {
        s = s.strip_prefix('+').unwrap_or(s);
        false
    };
    if s == "0" {
        return Ok(0);
    }
    // Accumulate in nanoseconds so that "1.5ms" and "1500us" are exact.
    let mut total_ns: i128 = 0;
    let bytes = s.as_bytes();
    let mut i = 0;
    if bytes.is_empty() {
        return Err(said("duration.no_number"));
    }
    while i < bytes.len() {
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
            i += 1;
        }
        let number = &s[start..i];
        if number.is_empty() || number == "." || number.matches('.').count() > 1 {
            return Err(said("duration.number_first"));
        }
        let unit_start = i;
        while i < bytes.len() && !(bytes[i].is_ascii_digit() || bytes[i] == b'.') {
            i += 1;
        }
        let unit = &s[unit_start..i];
        let unit_ns: i128 = match unit {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            "" => return Err(said("duration.no_unit")),
            other => return Err(err("duration.unknown_unit", Some(other))),
        };
        let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
        let whole: i128 = if whole.is_empty() {
            0
        } else {
            whole.parse().map_err(|_| said("duration.number_too_large"))?
        };
        let mut part = whole.checked_mul(unit_ns).ok_or_else(|| said("duration.too_large"))?;
        let mut scale = unit_ns;
        for digit in frac.bytes().take(18) {
            scale /= 10;
            part += i128::from(digit - b'0') * scale;
        }
        total_ns = total_ns.checked_add(part).ok_or_else(|| said("duration.too_large"))?;
        if total_ns > 1_000_000_000_000_000_000 {
            return Err(said("duration.too_large"));
        }
    }
    if total_ns % 1_000_000 != 0 {
        return Err(said("duration.too_fine"));
    }
    let ms = (total_ns / 1_000_000) as Millis;
    Ok(if negative { -ms } else { ms })
}

/// Formats milliseconds the way Go's `time.Duration.String` does: `0s`, `250ms`, `52.3s`,
/// `5m0s`, `1h0m0s`, `-1.5s`.
pub fn format_go_duration(ms: Millis) -> String {
    let mut out = String::new();
    if ms < 0 {
        out.push('-');
    }
    let ms = ms.unsigned_abs();
    if ms == 0 {
        return "0s".to_string();
    }
    if ms < 1_000 {
        out.push_str(&format!("{ms}ms"));
        return out;
    }
    let hours = ms / 3_600_000;
    let minutes = (ms / 60_000) % 60;
    let seconds = (ms / 1_000) % 60;
    let frac = ms % 1_000;
    if hours > 0 {
        out.push_str(&format!("{hours}h{minutes}m"));
    } else if minutes > 0 {
        out.push_str(&format!("{minutes}m"));
    }
    out.push_str(&seconds.to_string());
    if frac > 0 {
        let digits = format!("{frac:03}");
        out.push('.');
        out.push_str(digits.trim_end_matches('0'));
    }
    out.push('s');
    out
}

/// Formats a span as a figure shows it: rounded to tenths of a second from one second up
/// (`52.3s`), in whole milliseconds below (`15ms`), so that a short step never reads `0s`.
pub fn format_go_duration_span(ms: Millis) -> String {
    if ms.abs() < 1_000 {
        format_go_duration(ms)
    } else {
        format_go_duration_tenths(ms)
    }
}

/// Formats milliseconds as a Go duration rounded to tenths of a second (`52.3s`, `5m52.3s`), the
/// precision the timeline shows people.
pub fn format_go_duration_tenths(ms: Millis) -> String {
    let rounded = if ms >= 0 {
        (ms + 50) / 100 * 100
    } else {
        -((-ms + 50) / 100 * 100)
    };
    format_go_duration(rounded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_keep_short_steps_in_milliseconds() {
        assert_eq!(format_go_duration_span(15), "15ms");
        assert_eq!(format_go_duration_span(999), "999ms");
        assert_eq!(format_go_duration_span(1_049), "1s");
        assert_eq!(format_go_duration_span(44_512), "44.5s");
        assert_eq!(format_go_duration_span(0), "0s");
    }

    #[test]
    fn parses_go_forms() {
        assert_eq!(parse_go_duration("10s"), Ok(10_000));
        assert_eq!(parse_go_duration("5m0s"), Ok(300_000));
        assert_eq!(parse_go_duration("1h2m3.5s"), Ok(3_723_500));
        assert_eq!(parse_go_duration("250ms"), Ok(250));
        assert_eq!(parse_go_duration("2000us"), Ok(2));
        assert!(parse_go_duration("1500us").is_err(), "finer than 1ms");
        assert_eq!(parse_go_duration("-3s"), Ok(-3_000));
        assert_eq!(parse_go_duration("0"), Ok(0));
        assert_eq!(parse_go_duration(".5s"), Ok(500));
    }

    #[test]
    fn rejects_malformed() {
        for bad in [
            "",
            "10",
            "s",
            "10x",
            "1..2s",
            "1.5.2s",
            "1ns",
            "-",
            "99999999999999999999h",
        ] {
            assert!(parse_go_duration(bad).is_err(), "{bad:?} should be rejected");
        }
    }

    #[test]
    fn an_error_quotes_at_most_40_characters() {
        let long = format!("5{}", "x".repeat(1_000_000));
        let e = parse_go_duration(&long).unwrap_err();
        assert_eq!(e.text, format!("{:?}…", &long[..40]));
        assert_eq!(e.unit, Some(format!("{:?}…", "x".repeat(40))));
        let e = parse_go_duration("10x").unwrap_err();
        assert_eq!((e.text.as_str(), e.unit.as_deref()), ("\"10x\"", Some("\"x\"")));
    }

    #[test]
    fn formats_like_go() {
        assert_eq!(format_go_duration(0), "0s");
        assert_eq!(format_go_duration(250), "250ms");
        assert_eq!(format_go_duration(52_300), "52.3s");
        assert_eq!(format_go_duration(300_000), "5m0s");
        assert_eq!(format_go_duration(352_315), "5m52.315s");
        assert_eq!(format_go_duration(3_600_000), "1h0m0s");
        assert_eq!(format_go_duration(-1_500), "-1.5s");
        assert_eq!(format_go_duration_tenths(52_349), "52.3s");
        assert_eq!(format_go_duration_tenths(352_351), "5m52.4s");
    }

    #[test]
    fn round_trips() {
        for ms in [1, 999, 1_000, 59_999, 61_001, 3_723_500, 86_400_000] {
            assert_eq!(parse_go_duration(&format_go_duration(ms)), Ok(ms));
        }
    }
}
