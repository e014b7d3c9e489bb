//! Share links: the playground's whole state in a URL query, and back.
//!
//! Only what differs from the defaults is written, with flag names and Go durations, so a link
//! stays short and readable: `?v=1&k=1.31&node-monitor-grace-period=20s&fault=node-2:KubeletStop:45`,
//! `?nodes=1000&zone-outage=zone-b:2m0s:10m0s`.
//! Decoding never fails: unknown, malformed or out-of-range parameters are skipped, and each skip
//! is reported as a notice; the rest applies.

mod params;
mod values;

pub use params::{param, params, Param};
use values::zone_outage_text;
pub use values::{knob_text, parse_zone_names};

use crate::i18n::{truncate, Lang};
use crate::knobs::knob;
use crate::settings::{preset_link, Settings};
use crate::tune::{read_blip, read_max_writes, read_writes_nodes, Question, MAX_TARGETS};
use kubelife_engine::scenario::ActionKind;
use kubelife_engine::time::{format_go_duration, parse_go_duration};
use kubelife_engine::tune::Target;
use kubelife_engine::Cause;
use kubelife_engine::Millis;
use params::ignored;

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

/// The panels a page (or an embed) shows: `milestones` is the milestone cards; an embed whose
/// `view=` leaves it out shows none (and the time controls only with `controls=playback`).
pub const VIEWS: [&str; 5] = ["milestones", "cluster", "timeline", "breakdown", "compare"];

/// The control (`controls=playback`) that gives an embed the time controls (Play, Restart, Next
/// event, the speed and the playhead's slider) beside the sliders it names.
pub const PLAYBACK: &str = "playback";

/// How many workshop exercises a link's `exercise=N` may name (1 to this). The exercises' table
/// (`crate::exercises::EXERCISES`) has exactly this many, which its type makes the compiler check;
/// the number lives here because the exercises read presets through the link.
pub const EXERCISE_COUNT: usize = 13;

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
    /// `lang=`: the language the link asks for (else the browser's).
    pub lang: Option<Lang>,
    /// `exercise=N`: the workshop exercise shown beside the playground (1-based).
    pub exercise: Option<u32>,
    /// `instructor=1`: the list of every exercise with links to copy.
    pub instructor: bool,
    /// `solution=1`: the exercise opened in its documented solution, from its solution link; a
    /// run of it does not count as the participant solving the exercise.
    pub solution: bool,
    /// `target=firstReplacementReady:60s:p95` (repeatable): the SLO targets the page judges runs
    /// by and the Tune panel searches for; `blip=20s`, `max-writes-per-min=600` and
    /// `writes-at-nodes=5000`: the search's constraints.
    pub question: Question,
}

impl Display {
    /// Whether a panel is shown.
    pub fn shows(&self, view: &str) -> bool {
        self.views.is_empty() || self.views.iter().any(|v| v == view)
    }

    /// Whether the milestone cards show: when `view=` names `milestones`, or names nothing (and
    /// everything shows).
    pub fn shows_cards(&self) -> bool {
        self.shows("milestones")
    }

    /// Whether the time controls show: when `controls=` names `playback`, or `view=` names
    /// nothing (and everything shows).
    pub fn shows_playback(&self) -> bool {
        self.views.is_empty() || self.controls.iter().any(|c| c == PLAYBACK)
    }

    /// Whether either the milestone cards or the time controls show.
    pub fn shows_results(&self) -> bool {
        self.shows_cards() || self.shows_playback()
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
    pub notices: Vec<Cause>,
    /// Whether the link set anything of side A (else an exercise may supply its start).
    pub has_settings: bool,
    /// The preset `preset=` named, while the link's other parameters leave its settings as they
    /// are ([`named_preset`]).
    pub preset: Option<&'static str>,
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
        pairs.push(("speed".into(), format!("{}", crate::decimal::pow10(e).round())));
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
    if let Some(l) = display.lang {
        pairs.push(("lang".into(), l.code().into()));
    }
    if let Some(n) = display.exercise {
        pairs.push(("exercise".into(), n.to_string()));
    }
    if display.instructor {
        pairs.push(("instructor".into(), "1".into()));
    }
    if display.solution {
        pairs.push(("solution".into(), "1".into()));
    }
    let q = &display.question;
    for t in &q.targets {
        pairs.push(("target".into(), t.link_text()));
    }
    if let Some(b) = q.blip {
        pairs.push(("blip".into(), format_go_duration(b)));
    }
    if let Some(w) = q.max_writes {
        pairs.push(("max-writes-per-min".into(), w.to_string()));
    }
    if let Some(n) = q.writes_nodes {
        pairs.push(("writes-at-nodes".into(), n.to_string()));
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
    for p in params() {
        if let Some(v) = (p.write)(p, s, &d) {
            pairs.push((format!("{prefix}{}", p.name), v));
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
            notices.push(Cause::new("link.bad_encoding").text("part", format!("{:?}", truncate(part))));
            continue;
        };
        let bad = |why: Cause| {
            Cause::new("link.ignored")
                .text("param", format!("{k}={}", truncate(&v)))
                .sub("why", why)
        };
        let on = matches!(v.as_str(), "1" | "true");
        match k.as_str() {
            "v" => match v.parse::<u32>() {
                Ok(f) if f <= FORMAT => {}
                Ok(f) => notices.push(Cause::new("link.newer").text("found", f).text("reads", FORMAT)),
                Err(_) => notices.push(bad(Cause::new("link.why.format"))),
            },
            "t" => match parse_go_duration(&v).ok().filter(|t| (0..=3_600_000).contains(t)) {
                Some(t) => playback.t = t,
                None => notices.push(bad(Cause::new("link.why.t"))),
            },
            "speed" => match crate::decimal::decimal(&v).filter(|x| (1.0..=1000.0).contains(x)) {
                Some(x) => playback.speed_exp = Some(crate::decimal::log10(x)),
                None => notices.push(bad(Cause::new("link.why.speed"))),
            },
            "embed" => display.embed = on,
            "instructor" => display.instructor = on,
            "solution" => display.solution = on,
            "lang" => match Lang::parse(&v) {
                Some(l) => display.lang = Some(l),
                None => notices.push(bad(Cause::new("link.why.lang"))),
            },
            "exercise" => match v
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=EXERCISE_COUNT as u32).contains(n))
            {
                Some(n) => display.exercise = Some(n),
                None => notices.push(bad(Cause::new("link.why.exercise").text("count", EXERCISE_COUNT))),
            },
            "autoplay" => display.autoplay = on,
            "target" => match Target::parse_link(&v) {
                Ok(t) if display.question.targets.len() < MAX_TARGETS => display.question.targets.push(t),
                Ok(_) => notices.push(bad(Cause::new("link.why.targets").text("count", MAX_TARGETS))),
                Err(c) if c.key == "tune.target.syntax" => notices.push(bad(Cause::new("link.why.target"))),
                Err(c) => notices.push(bad(c)),
            },
            "blip" => match read_blip(&v) {
                Ok(b) => display.question.blip = Some(b),
                Err(why) => notices.push(bad(why)),
            },
            "max-writes-per-min" => match read_max_writes(&v) {
                Ok(w) => display.question.max_writes = w,
                Err(why) => notices.push(bad(why)),
            },
            "writes-at-nodes" => match read_writes_nodes(&v) {
                Ok(n) => display.question.writes_nodes = n,
                Err(why) => notices.push(bad(why)),
            },
            "b" => has_b = on,
            "view" => {
                for view in v.split(',').filter(|x| !x.is_empty()) {
                    if VIEWS.contains(&view) {
                        display.views.push(view.to_string());
                    } else {
                        notices.push(
                            Cause::new("link.bad_view")
                                .text("view", format!("{:?}", truncate(view)))
                                .text("views", VIEWS.join(", ")),
                        );
                    }
                }
            }
            "controls" => {
                for c in v.split(',').filter(|x| !x.is_empty()) {
                    if knob(c).is_some() || c == PLAYBACK {
                        display.controls.push(c.to_string());
                    } else {
                        notices.push(Cause::new("link.bad_control").text("control", format!("{:?}", truncate(c))));
                    }
                }
            }
            _ => match k.strip_prefix("b.") {
                Some(rest) => b_pairs.push((rest.to_string(), v)),
                None => a_pairs.push((k, v)),
            },
        }
    }
    let has_settings = !a_pairs.is_empty();
    let settings = decode_settings(&a_pairs, "", &mut notices);
    let b = (has_b || !b_pairs.is_empty()).then(|| decode_settings(&b_pairs, "b.", &mut notices));
    let preset = a_pairs
        .iter()
        .find(|(k, _)| k == "preset")
        .and_then(|(_, name)| named_preset(&settings, name));
    Decoded {
        settings,
        b,
        playback,
        display,
        notices,
        has_settings,
        preset,
    }
}

/// The preset named `name` when `s` are its settings: applying it to `s` again changes nothing
/// (what a preset keeps of the page, such as the seed, may differ). The preset picker keeps a
/// preset named while its settings are unchanged.
pub fn named_preset(s: &Settings, name: &str) -> Option<&'static str> {
    let p = preset_link(name)?;
    (preset(s, name).as_ref() == Some(s)).then_some(p.name)
}

/// The settings `base` becomes with the preset named `name`: the preset's link query
/// ([`crate::settings::PRESETS`]) read as a first visit's, then applied to `base`
/// ([`Settings::with_preset`]). `None` when the page offers no preset of that name.
pub fn preset(base: &Settings, name: &str) -> Option<Settings> {
    let p = preset_link(name)?;
    let pairs: Vec<(String, String)> = p
        .query
        .split('&')
        .filter_map(|part| {
            let (k, v) = part.split_once('=')?;
            Some((decode_component(k)?, decode_component(v)?))
        })
        .collect();
    let first_visit = decode_settings(&pairs, "", &mut Vec::new());
    Some(base.with_preset(&first_visit, p.cluster))
}

/// Applies one side's parameters to the default settings (or to a preset's, with `preset=`):
/// first the early ones, in the table's order, then the rest in the link's.
fn decode_settings(pairs: &[(String, String)], prefix: &str, notices: &mut Vec<Cause>) -> Settings {
    let mut s = Settings::default();
    for p in params().iter().filter(|p| p.early) {
        if let Some((_, v)) = pairs.iter().find(|(k, _)| k == p.name) {
            read(p, v, &mut s, prefix, notices);
        }
    }
    for (k, v) in pairs {
        match param(k) {
            Some(p) if p.early => {}
            Some(p) => read(p, v, &mut s, prefix, notices),
            None => notices
                .push(Cause::new("link.unknown").text("param", format!("{:?}", truncate(&format!("{prefix}{k}"))))),
        }
    }
    reconcile(&mut s, prefix, notices);
    s
}

/// Reads one parameter into `s`; a refusal, or what reading it changed besides, is a notice.
fn read(p: &Param, v: &str, s: &mut Settings, prefix: &str, notices: &mut Vec<Cause>) {
    let before = s.clone();
    match (p.read)(p, s, v) {
        Ok(()) => {
            if let Some(note) = (p.note)(&before, s) {
                let mut said = Cause::new(note.key).text("param", format!("{prefix}{}={v}", p.name));
                said.args.extend(note.args);
                notices.push(said);
            }
        }
        Err(why) => notices.push(ignored(prefix, p.name, v, why)),
    }
}

/// Settles what one side's parameters say together: a fault on a node the cluster lacks, zone
/// names fewer than the zones, a zone outage in a zone it lacks, a recovery before the fault.
fn reconcile(s: &mut Settings, prefix: &str, notices: &mut Vec<Cause>) {
    if s.fault.node >= s.nodes {
        notices.push(
            Cause::new("link.fault_node")
                .text("named", s.fault.node + 1)
                .text("nodes", s.nodes),
        );
        s.fault.node = s.nodes - 1;
    }
    if !s.zone_names.is_empty() && s.zone_names.len() < s.zone_count() as usize {
        notices.push(ignored(
            prefix,
            "zone-names",
            &s.zone_names.join(","),
            Cause::new("link.why.zone_count").text("zones", s.zone_count()),
        ));
        s.zone_names.clear();
    }
    if let Some(z) = s.zone_outage.filter(|z| z.zone >= s.zone_count()) {
        notices.push(ignored(
            prefix,
            "zone-outage",
            &zone_outage_text(z, s),
            Cause::new("link.why.outage_zone").text("zones", s.zone_list().join(", ")),
        ));
        s.zone_outage = None;
    }
    if let Some(n) = s
        .fault
        .notice_seconds
        .filter(|_| s.fault.kind != ActionKind::SpotInterruption)
    {
        notices.push(ignored(
            prefix,
            "notice",
            &format_go_duration(i64::from(n) * 1000),
            Cause::new("link.why.notice_fault"),
        ));
        s.fault.notice_seconds = None;
    }
    if let Some(r) = s.fault.recover_at_seconds {
        if r < s.fault.at_seconds {
            notices.push(
                Cause::new("link.recover_early")
                    .text("param", format!("{prefix}recover={r}"))
                    .text("at", s.fault.at_seconds),
            );
            s.fault.recover_at_seconds = None;
        }
    }
}

#[cfg(test)]
mod defaults_tests;
#[cfg(test)]
mod preset_tests;
#[cfg(test)]
mod tests;
