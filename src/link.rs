//! Share links: the playground's whole state in a URL query, and back.
//!
//! Only what differs from the defaults is written, with flag names and Go durations, so a link
//! stays short and readable: `?v=1&k=1.31&node-monitor-grace-period=20s&fault=node-2:KubeletStop:45`.
//! Decoding never fails: unknown, malformed or out-of-range parameters are skipped, and each skip
//! is reported as a notice; the rest applies.

use crate::knobs::{knob, Unit, KNOBS};
use crate::settings::{Fault, Settings};
use kubelife_engine::scenario::ActionKind;
use kubelife_engine::time::{format_go_duration, parse_go_duration};
use kubelife_engine::Millis;

/// The link format this build writes and reads.
pub const FORMAT: u32 = 1;

/// Playback state carried by a link.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Playback {
    /// Playhead, ms.
    pub t: Millis,
    /// Speed as a power of ten (0 = 1x, 3 = 1000x), if set.
    pub speed_exp: Option<f64>,
}

/// The panels a page (or an embed) shows.
pub const VIEWS: [&str; 4] = ["timeline", "cluster", "breakdown", "compare"];

/// How the page is laid out: the full playground, or an embed showing chosen panels.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Display {
    /// `embed=1`: no header or side panels.
    pub embed: bool,
    /// `view=`: the panels to show (empty: all).
    pub views: Vec<String>,
    /// `autoplay=1`: start playing at once.
    pub autoplay: bool,
    /// `controls=`: the sliders an embed exposes, by flag name.
    pub controls: Vec<String>,
}

impl Display {
    /// Whether a panel is shown.
    pub fn shows(&self, view: &str) -> bool {
        self.views.is_empty() || self.views.iter().any(|v| v == view)
    }
}

/// What a link decodes to.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// The settings, with every usable parameter applied.
    pub settings: Settings,
    /// The compare side B, when the link has one (`b.`-prefixed parameters).
    pub b: Option<Settings>,
    /// Playback position and speed.
    pub playback: Playback,
    /// Layout.
    pub display: Display,
    /// What was ignored, and why.
    pub notices: Vec<String>,
}

fn encode_component(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b':' | b',' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn decode_component(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = s.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

fn fault_kind(name: &str) -> Option<ActionKind> {
    match name {
        "NodeCrash" => Some(ActionKind::NodeCrash),
        "KubeletStop" => Some(ActionKind::KubeletStop),
        "NetworkPartition" => Some(ActionKind::NetworkPartition),
        _ => None,
    }
}

fn knob_text(unit: Unit, v: f64) -> String {
    match unit {
        Unit::Seconds => format_go_duration((v * 1000.0).round() as i64),
        Unit::Count => format!("{}", v.round() as i64),
        Unit::Rate | Unit::Fraction => format!("{v}"),
    }
}

/// The query string (without `?`) for these settings and playback.
pub fn encode(s: &Settings, playback: Playback) -> String {
    encode_all(s, None, playback, &Display::default())
}

/// The query string for the whole state: side A, the compare side B, playback and layout.
pub fn encode_all(s: &Settings, b: Option<&Settings>, playback: Playback, display: &Display) -> String {
    let mut pairs: Vec<(String, String)> = vec![("v".into(), FORMAT.to_string())];
    settings_pairs(s, "", &mut pairs);
    if let Some(b) = b {
        pairs.push(("b".into(), "1".into()));
        settings_pairs(b, "b.", &mut pairs);
    }
    if playback.t != 0 {
        pairs.push(("t".into(), format_go_duration(playback.t)));
    }
    if let Some(e) = playback.speed_exp {
        pairs.push(("speed".into(), format!("{}", 10f64.powf(e).round())));
    }
    if display.embed {
        pairs.push(("embed".into(), "1".into()));
    }
    if !display.views.is_empty() {
        pairs.push(("view".into(), display.views.join(",")));
    }
    if display.autoplay {
        pairs.push(("autoplay".into(), "1".into()));
    }
    if !display.controls.is_empty() {
        pairs.push(("controls".into(), display.controls.join(",")));
    }
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", encode_component(k), encode_component(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// One side's parameters: only what differs from the default settings.
fn settings_pairs(s: &Settings, prefix: &str, pairs: &mut Vec<(String, String)>) {
    let d = Settings::default();
    let mut put = |k: &str, v: String| pairs.push((format!("{prefix}{k}"), v));
    if s.minor != d.minor {
        put("k", format!("1.{}", s.minor));
    }
    if s.seed != d.seed {
        put("seed", s.seed.to_string());
    }
    for (key, a, b) in [
        ("nodes", s.nodes, d.nodes),
        ("zones", s.zones, d.zones),
        ("web", s.web_replicas, d.web_replicas),
        ("db", s.db_replicas, d.db_replicas),
    ] {
        if a != b {
            put(key, a.to_string());
        }
    }
    if !s.enable_taint_manager {
        put("enable-taint-manager", "false".into());
    }
    if !s.taint_based_evictions {
        put("TaintBasedEvictions", "false".into());
    }
    if s.fault != d.fault {
        put(
            "fault",
            format!("node-{}:{:?}:{}", s.fault.node + 1, s.fault.kind, s.fault.at_seconds),
        );
        if let Some(r) = s.fault.recover_at_seconds {
            put("recover", r.to_string());
        }
    }
    for k in KNOBS {
        if let Some(&v) = s.overrides.get(k.flag) {
            put(k.flag, knob_text(k.unit, v));
        }
    }
}

/// Reads a query string (with or without `?`). Never fails.
pub fn decode(query: &str) -> Decoded {
    let mut playback = Playback::default();
    let mut display = Display::default();
    let mut notices = Vec::new();
    let query = query.strip_prefix('?').unwrap_or(query);
    let (mut a_pairs, mut b_pairs, mut has_b) = (Vec::new(), Vec::new(), false);
    for part in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        let (Some(k), Some(v)) = (decode_component(k), decode_component(v)) else {
            notices.push(format!("ignored {:?}: not valid URL encoding", truncate(part)));
            continue;
        };
        let bad = |why: &str| format!("ignored {k}={}: {why}", truncate(&v));
        let on = matches!(v.as_str(), "1" | "true");
        match k.as_str() {
            "v" => match v.parse::<u32>() {
                Ok(f) if f <= FORMAT => {}
                Ok(f) => notices.push(format!("this link was made by a newer kubelife (link format {f}; this page reads format {FORMAT}): what this page understands is applied, the rest is listed here")),
                Err(_) => notices.push(bad("not a link format number")),
            },
            "t" => match parse_go_duration(&v).ok().filter(|t| (0..=3_600_000).contains(t)) {
                Some(t) => playback.t = t,
                None => notices.push(bad("not a Go duration between 0s and 1h0m0s")),
            },
            "speed" => match v.parse::<f64>().ok().filter(|x| (1.0..=1000.0).contains(x)) {
                Some(x) => playback.speed_exp = Some(x.log10()),
                None => notices.push(bad("not a speed between 1 and 1000")),
            },
            "embed" => display.embed = on,
            "autoplay" => display.autoplay = on,
            "b" => has_b = on,
            "view" => {
                for view in v.split(',').filter(|x| !x.is_empty()) {
                    if VIEWS.contains(&view) {
                        display.views.push(view.to_string());
                    } else {
                        notices.push(format!("ignored view {:?}: the views are {}", truncate(view), VIEWS.join(", ")));
                    }
                }
            }
            "controls" => {
                for c in v.split(',').filter(|x| !x.is_empty()) {
                    if knob(c).is_some() {
                        display.controls.push(c.to_string());
                    } else {
                        notices.push(format!("ignored control {:?}: not a slider name", truncate(c)));
                    }
                }
            }
            _ => match k.strip_prefix("b.") {
                Some(rest) => b_pairs.push((rest.to_string(), v)),
                None => a_pairs.push((k, v)),
            },
        }
    }
    let settings = decode_settings(&a_pairs, "", &mut notices);
    let b = (has_b || !b_pairs.is_empty()).then(|| decode_settings(&b_pairs, "b.", &mut notices));
    Decoded {
        settings,
        b,
        playback,
        display,
        notices,
    }
}

/// Applies one side's parameters to the default settings (or to a preset's, with `preset=`).
fn decode_settings(pairs: &[(String, String)], prefix: &str, notices: &mut Vec<String>) -> Settings {
    let mut s = Settings::default();
    if let Some((_, name)) = pairs.iter().find(|(k, _)| k == "preset") {
        match kubelife_engine::presets::preset(name) {
            Some(p) => s = s.from_preset(&p.scenario),
            None => notices.push(format!("ignored {prefix}preset={}: no such preset", truncate(name))),
        }
    }
    // Read the version first: knobs' availability depends on it.
    if let Some((_, v)) = pairs.iter().find(|(k, _)| k == "k") {
        match kubelife_engine::Version::parse(v) {
            Ok(version) => s.minor = version.minor,
            Err(e) => notices.push(format!("ignored {prefix}k={}: {e}", truncate(v))),
        }
    }
    for (k, v) in pairs {
        let bad = |why: &str| format!("ignored {prefix}{k}={}: {why}", truncate(v));
        let number = |min: u64, max: u64| -> Result<u64, String> {
            match v.parse::<u64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                Ok(_) => Err(bad(&format!("must be between {min} and {max}"))),
                Err(_) => Err(bad("not a whole number")),
            }
        };
        let result: Result<(), String> = match k.as_str() {
            "k" | "preset" => Ok(()),
            "seed" => number(0, u64::MAX).map(|n| s.seed = n),
            "nodes" => number(1, 50).map(|n| s.nodes = n as u32),
            "zones" => number(1, 3).map(|n| s.zones = n as u32),
            "web" => number(0, 30).map(|n| s.web_replicas = n as u32),
            "db" => number(0, 10).map(|n| s.db_replicas = n as u32),
            "recover" => number(0, 3600).map(|n| s.fault.recover_at_seconds = Some(n as u32)),
            "enable-taint-manager" => v
                .parse::<bool>()
                .map(|b| s.enable_taint_manager = b)
                .map_err(|_| bad("not true or false")),
            "TaintBasedEvictions" => v
                .parse::<bool>()
                .map(|b| s.taint_based_evictions = b)
                .map_err(|_| bad("not true or false")),
            "fault" => parse_fault(v)
                .map(|f| {
                    s.fault = Fault {
                        recover_at_seconds: s.fault.recover_at_seconds,
                        ..f
                    }
                })
                .map_err(|why| bad(&why)),
            flag => match knob(flag) {
                None => Err(format!(
                    "ignored unknown parameter {:?}",
                    truncate(&format!("{prefix}{flag}"))
                )),
                Some(kn) if !kn.available(s.minor) => Err(bad(&format!("not in 1.{}: {}", s.minor, kn.missing))),
                Some(kn) => {
                    let value = match kn.unit {
                        Unit::Seconds => parse_go_duration(v)
                            .ok()
                            .map(|ms| ms as f64 / 1000.0)
                            .or_else(|| v.parse::<f64>().ok()),
                        _ => v.parse::<f64>().ok(),
                    };
                    match value {
                        Some(x) if x.is_finite() && x >= kn.min && x <= kn.max => {
                            s.overrides.insert(kn.flag.to_string(), x);
                            Ok(())
                        }
                        Some(_) => Err(bad(&format!(
                            "outside {}..{}",
                            knob_text(kn.unit, kn.min),
                            knob_text(kn.unit, kn.max)
                        ))),
                        None => Err(bad("not a value of this control")),
                    }
                }
            },
        };
        if let Err(n) = result {
            notices.push(n);
        }
    }
    if s.fault.node >= s.nodes {
        notices.push(format!(
            "the fault named node-{} but the cluster has {} nodes; it applies to node-{} instead",
            s.fault.node + 1,
            s.nodes,
            s.nodes
        ));
        s.fault.node = s.nodes - 1;
    }
    if let Some(r) = s.fault.recover_at_seconds {
        if r < s.fault.at_seconds {
            notices.push(format!(
                "ignored {prefix}recover={r}: before the fault at {}s",
                s.fault.at_seconds
            ));
            s.fault.recover_at_seconds = None;
        }
    }
    s
}

fn parse_fault(v: &str) -> Result<Fault, String> {
    let mut it = v.split(':');
    let (Some(node), Some(kind), Some(at), None) = (it.next(), it.next(), it.next(), it.next()) else {
        return Err("expected node-N:Fault:seconds".into());
    };
    let node = node
        .strip_prefix("node-")
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|n| (1..=50).contains(n))
        .ok_or("the node must be node-1 to node-50")?;
    let kind = fault_kind(kind).ok_or("the fault must be NodeCrash, KubeletStop or NetworkPartition")?;
    let at = at
        .parse::<u32>()
        .ok()
        .filter(|a| *a <= 3600)
        .ok_or("the time must be 0 to 3600 seconds")?;
    Ok(Fault {
        node: node - 1,
        kind,
        at_seconds: at,
        recover_at_seconds: None,
    })
}

fn truncate(s: &str) -> String {
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_give_a_short_link() {
        assert_eq!(encode(&Settings::default(), Playback::default()), "v=1");
        let d = decode("");
        assert_eq!(d.settings, Settings::default());
        assert!(d.notices.is_empty());
    }

    #[test]
    fn a_tuned_state_reads_like_flags_and_round_trips() {
        let mut s = Settings {
            minor: 31,
            nodes: 5,
            ..Settings::default()
        };
        s.set("node-monitor-grace-period", 20.0);
        s.set("node-eviction-rate", 0.25);
        s.fault = Fault {
            node: 1,
            kind: ActionKind::KubeletStop,
            at_seconds: 45,
            recover_at_seconds: Some(200),
        };
        let p = Playback {
            t: 123_400,
            speed_exp: Some(2.0),
        };
        let q = encode(&s, p);
        assert!(
            q.contains("k=1.31")
                && q.contains("node-monitor-grace-period=20s")
                && q.contains("fault=node-2:KubeletStop:45"),
            "{q}"
        );
        let d = decode(&q);
        assert_eq!(d.settings, s);
        assert_eq!(d.playback, p);
        assert!(d.notices.is_empty(), "{:?}", d.notices);
    }

    #[test]
    fn compare_side_and_layout_round_trip() {
        let a = Settings {
            minor: 12,
            ..Settings::default()
        };
        let b = Settings {
            web_replicas: 6,
            ..Settings::default()
        };
        let display = Display {
            embed: true,
            views: vec!["timeline".into(), "breakdown".into()],
            autoplay: true,
            controls: vec!["node-monitor-grace-period".into()],
        };
        let q = encode_all(&a, Some(&b), Playback::default(), &display);
        assert!(
            q.contains("b.web=6") && q.contains("view=timeline,breakdown") && q.contains("embed=1"),
            "{q}"
        );
        let d = decode(&q);
        assert_eq!((d.settings, d.b, d.display), (a, Some(b), display));
        assert!(d.notices.is_empty());
        let preset = decode("preset=rke-1.18-tolerations&b.preset=upstream-1.12&view=maps");
        assert_eq!(preset.settings.minor, 18);
        assert_eq!(preset.b.map(|b| b.minor), Some(12));
        assert!(preset.notices[0].contains("maps"));
    }

    #[test]
    fn garbage_is_skipped_with_notices() {
        let d = decode("?v=1&k=1.99&node-monitor-grace-period=banana&node-monitor-period=9000s&colour=blue&nodes=0&fault=node-9:Boom:x&%ZZ=1&speed=5000");
        assert_eq!(d.settings, Settings::default(), "nothing usable");
        assert_eq!(d.notices.len(), 8, "{:#?}", d.notices);
        assert!(d.notices.iter().any(|n| n.contains("colour")));
        assert!(d.notices.iter().any(|n| n.contains("outside")));
        let newer = decode("v=7&nodes=4");
        assert_eq!(newer.settings.nodes, 4);
        assert!(newer.notices[0].contains("newer kubelife"));
        let missing = decode("k=1.30&pod-eviction-timeout=30s");
        assert!(missing.notices[0].contains("removed in 1.27"), "{:?}", missing.notices);
    }
}
