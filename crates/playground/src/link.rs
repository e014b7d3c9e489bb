//! Share links: the playground's whole state in a URL query, and back.
//!
//! Only what differs from the defaults is written, with flag names and Go durations, so a link
//! stays short and readable: `?v=1&k=1.31&node-monitor-grace-period=20s&fault=node-2:KubeletStop:45`,
//! `?nodes=1000&zone-outage=zone-b:2m0s:10m0s`.
//! Decoding never fails: unknown, malformed or out-of-range parameters are skipped, and each skip
//! is reported as a notice; the rest applies.

use crate::i18n::{truncate, Lang};
use crate::knobs::{knob, Unit, KNOBS};
use crate::settings::{
    parse_provider, Fault, LatencySpike, PdbChoice, Remediator, Settings, TolerationPatch, VolumeChoice, ZoneOutage,
    MAX_NOTICE_SECONDS, MAX_OP_SECONDS, PAGE_MAX_DB, PAGE_MAX_NODES, PAGE_MAX_WEB, SNR_STRATEGIES, TOGGLES, ZONES,
};
use crate::tune::{read_blip, read_max_writes, read_writes_nodes, Question, MAX_TARGETS};
use kubelife_engine::scenario::ActionKind;
use kubelife_engine::time::{format_go_duration, parse_go_duration};
use kubelife_engine::tune::Target;
use kubelife_engine::Cause;
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

/// The panels a page (or an embed) shows: `milestones` is the milestone cards; an embed whose
/// `view=` leaves it out shows none (and the time controls only with `controls=playback`).
pub const VIEWS: [&str; 5] = ["milestones", "cluster", "timeline", "breakdown", "compare"];

/// The control (`controls=playback`) that gives an embed the time controls (Play, Restart, Next
/// event, the speed and the playhead's slider) beside the sliders it names.
pub const PLAYBACK: &str = "playback";

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
        "NodeShutdown" => Some(ActionKind::NodeShutdown),
        "Drain" => Some(ActionKind::Drain),
        "InstanceTerminated" => Some(ActionKind::InstanceTerminated),
        "InstanceStopped" => Some(ActionKind::InstanceStopped),
        "SpotInterruption" => Some(ActionKind::SpotInterruption),
        _ => None,
    }
}

/// A knob's value as a link (and a reader) writes it: a Go duration for seconds.
pub fn knob_text(unit: Unit, v: f64) -> String {
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
    if let Some(l) = display.lang {
        pairs.push(("lang".into(), l.code().into()));
    }
    if let Some(n) = display.exercise {
        pairs.push(("exercise".into(), n.to_string()));
    }
    if display.instructor {
        pairs.push(("instructor".into(), "1".into()));
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
    for (name, x, dx) in [("web", s.web, d.web), ("db", s.db, d.db)] {
        if x.service != dx.service {
            put(
                &format!("{name}-service"),
                if x.service { "true" } else { "false" }.into(),
            );
        }
        if x.volume != dx.volume {
            put(&format!("{name}-volume"), x.volume.name().into());
        }
        if x.pdb != dx.pdb {
            put(&format!("{name}-pdb"), x.pdb.text().unwrap_or_else(|| "none".into()));
        }
    }
    // The switches, by their catalogue names, where they differ from the first visit's.
    for t in &TOGGLES {
        let on = (t.get)(s);
        if on != (t.get)(&d) {
            put(t.def.name, on.to_string());
        }
    }
    if !s.has_fault() {
        put("fault", "none".to_string());
    } else if s.fault != d.fault {
        put(
            "fault",
            format!("node-{}:{:?}:{}", s.fault.node + 1, s.fault.kind, s.fault.at_seconds),
        );
        if let Some(r) = s.fault.recover_at_seconds {
            put("recover", r.to_string());
        }
        if s.fault.count != 1 {
            put("fault-nodes", s.fault.count.to_string());
        }
        if let Some(n) = s
            .fault
            .notice_seconds
            .filter(|_| s.fault.kind == ActionKind::SpotInterruption)
        {
            put("notice", format_go_duration(i64::from(n) * 1000));
        }
    }
    if !s.zone_names.is_empty() {
        put("zone-names", s.zone_names.join(","));
    }
    if let Some(p) = s.cloud {
        put("cloud", p.name().to_string());
    }
    let r = &s.remediation;
    if r.kind != Remediator::None {
        put("remediation", r.kind.name().to_string());
    }
    if let Some(t) = r.timeout_seconds {
        put("remediation-timeout", format_go_duration(i64::from(t) * 1000));
    }
    if let Some(p) = r.max_unhealthy_percent {
        put("max-unhealthy", format!("{p}%"));
    }
    if let Some(p) = r.min_healthy_percent {
        put("min-healthy", format!("{p}%"));
    }
    if let Some(i) = r.strategy {
        put(
            "strategy",
            SNR_STRATEGIES.get(i as usize).copied().unwrap_or("").to_string(),
        );
    }
    if r.node_repair_off {
        put("node-repair", "false".to_string());
    }
    if r.interruption_queue {
        put("interruption-queue", "true".to_string());
    }
    if let Some(z) = s.zone_outage {
        put("zone-outage", zone_outage_text(z, s));
    }
    let o = &s.ops;
    if let Some(l) = o.latency {
        put("latency", format!("{}:{}:{}", l.from_seconds, l.until_seconds, l.ms));
    }
    if let Some(at) = o.out_of_service_at_seconds {
        put("out-of-service", at.to_string());
    }
    if let Some(at) = o.kcm_restart_at_seconds {
        put("kcm-restart", at.to_string());
    }
    if let Some(at) = o.force_delete_db_at_seconds {
        put("force-delete-db", at.to_string());
    }
    if let Some(p) = o.toleration_patch {
        put("toleration-patch", format!("{}:{}", p.at_seconds, p.seconds));
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
                Some(x) => playback.speed_exp = Some(x.log10()),
                None => notices.push(bad(Cause::new("link.why.speed"))),
            },
            "embed" => display.embed = on,
            "instructor" => display.instructor = on,
            "lang" => match Lang::parse(&v) {
                Some(l) => display.lang = Some(l),
                None => notices.push(bad(Cause::new("link.why.lang"))),
            },
            "exercise" => match v
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=crate::exercises::EXERCISES.len() as u32).contains(n))
            {
                Some(n) => display.exercise = Some(n),
                None => notices.push(bad(
                    Cause::new("link.why.exercise").text("count", crate::exercises::EXERCISES.len())
                )),
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
    Decoded {
        settings,
        b,
        playback,
        display,
        notices,
        has_settings,
    }
}

/// Applies one side's parameters to the default settings (or to a preset's, with `preset=`).
fn decode_settings(pairs: &[(String, String)], prefix: &str, notices: &mut Vec<Cause>) -> Settings {
    let mut s = Settings::default();
    let ignored = |k: &str, v: &str, why: Cause| ignored(prefix, k, v, why);
    if let Some((_, name)) = pairs.iter().find(|(k, _)| k == "preset") {
        match kubelife_engine::presets::preset(name) {
            Some(p) => s = s.from_preset(&p.scenario),
            None => notices.push(ignored("preset", name, Cause::new("link.why.preset"))),
        }
    }
    // Read the version first: knobs' availability depends on it.
    if let Some((_, v)) = pairs.iter().find(|(k, _)| k == "k") {
        match kubelife_engine::Version::parse(v) {
            Ok(version) => s.minor = version.minor,
            Err(_) => notices.push(ignored("k", v, Cause::new("link.why.version"))),
        }
    }
    // And the zones' names: a zone outage names its zone.
    if let Some((_, v)) = pairs.iter().find(|(k, _)| k == "zone-names") {
        match parse_zone_names(v) {
            Ok(names) => s.zone_names = names,
            Err(why) => notices.push(ignored("zone-names", v, why)),
        }
    }
    // And where it runs and what repairs it: the remediator's settings depend on it.
    remediator_params(&mut s, pairs, prefix, notices);
    for (k, v) in pairs {
        let bad = |why: Cause| ignored(k, v, why);
        let number = |min: u64, max: u64| -> Result<u64, Cause> {
            match v.parse::<u64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(n),
                Ok(_) => Err(bad(Cause::new("link.why.range").text("min", min).text("max", max))),
                Err(_) => Err(bad(Cause::new("link.why.whole"))),
            }
        };
        let seconds = || number(0, u64::from(MAX_OP_SECONDS)).map(|n| n as u32);
        let numbers = |want: usize| -> Result<Vec<u32>, Cause> {
            let parts: Vec<Option<u32>> = v.split(':').map(|p| p.parse::<u32>().ok()).collect();
            match parts.iter().copied().collect::<Option<Vec<u32>>>() {
                Some(n) if n.len() == want => Ok(n),
                _ => Err(bad(Cause::new("link.why.numbers").text("count", want))),
            }
        };
        if let Some(r) = workload_param(&mut s, k, v)
            .or_else(|| switch_param(&mut s, k, v))
            .or_else(|| remediation_param(&mut s, k, v))
        {
            if let Err(why) = r {
                notices.push(bad(why));
            }
            continue;
        }
        let result: Result<(), Cause> = match k.as_str() {
            "k" | "preset" | "zone-names" | "cloud" | "remediation" => Ok(()),
            "seed" => number(0, u64::MAX).map(|n| s.seed = n),
            "nodes" => number(1, u64::from(PAGE_MAX_NODES)).map(|n| s.nodes = n as u32),
            "zones" => number(1, ZONES.len() as u64).map(|n| s.zones = n as u32),
            "web" => number(0, u64::from(PAGE_MAX_WEB)).map(|n| s.web_replicas = n as u32),
            "db" => number(0, u64::from(PAGE_MAX_DB)).map(|n| s.db_replicas = n as u32),
            "notice" => parse_go_duration(v)
                .ok()
                .filter(|ms| ms % 1000 == 0 && (0..=i64::from(MAX_NOTICE_SECONDS) * 1000).contains(ms))
                .map(|ms| s.fault.notice_seconds = Some((ms / 1000) as u32))
                .ok_or_else(|| {
                    bad(Cause::new("link.why.notice")
                        .text("max", format_go_duration(i64::from(MAX_NOTICE_SECONDS) * 1000)))
                }),
            "recover" => number(0, 3600).map(|n| s.fault.recover_at_seconds = Some(n as u32)),
            "fault-nodes" => number(0, u64::from(PAGE_MAX_NODES)).map(|n| s.fault.count = n as u32),
            "zone-outage" => parse_zone_outage(v, &s).map(|z| s.zone_outage = Some(z)).map_err(bad),
            "out-of-service" => seconds().map(|n| s.ops.out_of_service_at_seconds = Some(n)),
            "kcm-restart" => seconds().map(|n| s.ops.kcm_restart_at_seconds = Some(n)),
            "force-delete-db" => seconds().map(|n| s.ops.force_delete_db_at_seconds = Some(n)),
            "latency" => numbers(3).and_then(|n| {
                if n[0] <= MAX_OP_SECONDS && n[1] <= MAX_OP_SECONDS && n[2] <= 60_000 {
                    s.ops.latency = Some(LatencySpike {
                        from_seconds: n[0],
                        until_seconds: n[1],
                        ms: n[2],
                    });
                    Ok(())
                } else {
                    Err(bad(Cause::new("link.why.latency")))
                }
            }),
            "toleration-patch" => numbers(2).and_then(|n| {
                if n[0] <= MAX_OP_SECONDS && n[1] <= 86_400 {
                    s.ops.toleration_patch = Some(TolerationPatch {
                        at_seconds: n[0],
                        seconds: n[1],
                    });
                    Ok(())
                } else {
                    Err(bad(Cause::new("link.why.patch")))
                }
            }),
            "fault" if v == "none" => {
                s.fault.count = 0;
                Ok(())
            }
            "fault" => parse_fault(v)
                .map(|f| {
                    s.fault = Fault {
                        recover_at_seconds: s.fault.recover_at_seconds,
                        count: s.fault.count,
                        notice_seconds: s.fault.notice_seconds,
                        ..f
                    }
                })
                .map_err(bad),
            flag => match knob(flag) {
                None => {
                    Err(Cause::new("link.unknown").text("param", format!("{:?}", truncate(&format!("{prefix}{flag}")))))
                }
                Some(kn) if !kn.available(s.minor) => Err(bad(Cause::new("link.why.not_in")
                    .text("minor", s.minor)
                    .text("flag", kn.flag))),
                Some(kn) => {
                    let value = match kn.unit {
                        Unit::Seconds => parse_go_duration(v)
                            .ok()
                            .map(|ms| ms as f64 / 1000.0)
                            .or_else(|| crate::decimal::decimal(v)),
                        _ => crate::decimal::decimal(v),
                    };
                    match value {
                        Some(x) if x.is_finite() && x >= kn.min && x <= kn.max => {
                            s.overrides.insert(kn.flag.to_string(), x);
                            Ok(())
                        }
                        Some(_) => Err(bad(Cause::new("link.why.outside")
                            .text("min", knob_text(kn.unit, kn.min))
                            .text("max", knob_text(kn.unit, kn.max)))),
                        None => Err(bad(Cause::new("link.why.value"))),
                    }
                }
            },
        };
        if let Err(n) = result {
            notices.push(n);
        }
    }
    reconcile(&mut s, prefix, notices);
    s
}

/// `param=value` ignored for `why`, as a notice says it.
fn ignored(prefix: &str, k: &str, v: &str, why: Cause) -> Cause {
    Cause::new("link.ignored")
        .text("param", format!("{prefix}{k}={}", truncate(v)))
        .sub("why", why)
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

/// Reads `cloud=` and `remediation=`; a remediator that runs on other clouds than the link's
/// moves the cluster to its first one, and a notice says so.
fn remediator_params(s: &mut Settings, pairs: &[(String, String)], prefix: &str, notices: &mut Vec<Cause>) {
    let named = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
    if let Some(v) = named("cloud") {
        match v {
            "none" => s.cloud = None,
            _ => match parse_provider(v) {
                Some(p) => s.cloud = Some(p),
                None => notices.push(ignored(prefix, "cloud", v, Cause::new("link.why.cloud"))),
            },
        }
    }
    if let Some(v) = named("remediation") {
        match Remediator::parse(v) {
            Some(r) => {
                if let Some(moved) = s.set_remediator(r) {
                    notices.push(
                        Cause::new("link.remediation_cloud")
                            .text("param", format!("{prefix}remediation={v}"))
                            .text("cloud", moved.name()),
                    );
                }
            }
            None => notices.push(ignored(prefix, "remediation", v, Cause::new("link.why.remediation"))),
        }
    }
}

/// A remediator's setting (`remediation-timeout`, `max-unhealthy`, `min-healthy`, `strategy`,
/// `node-repair`, `interruption-queue`) applied to `s`; `None` if `k` is none of them. A setting
/// of another remediator than the link's is refused.
fn remediation_param(s: &mut Settings, k: &str, v: &str) -> Option<Result<(), Cause>> {
    let r = &mut s.remediation;
    let kind = r.kind;
    let not_here = || Cause::new("link.why.not_for").text("remediation", kind.name());
    Some(match k {
        "remediation-timeout" => match kind.timeout() {
            None => Err(not_here()),
            Some((_, min, max)) => parse_go_duration(v)
                .ok()
                .filter(|ms| ms % 1000 == 0 && (i64::from(min) * 1000..=i64::from(max) * 1000).contains(ms))
                .map(|ms| r.timeout_seconds = Some((ms / 1000) as u32))
                .ok_or_else(|| {
                    Cause::new("link.why.timeout")
                        .text("min", format_go_duration(i64::from(min) * 1000))
                        .text("max", format_go_duration(i64::from(max) * 1000))
                }),
        },
        "max-unhealthy" if !matches!(kind, Remediator::Mhc | Remediator::Eks) => Err(not_here()),
        "max-unhealthy" => v
            .strip_suffix('%')
            .and_then(|p| p.parse::<u32>().ok())
            .filter(|p| *p <= 100)
            .map(|p| r.max_unhealthy_percent = Some(p))
            .ok_or_else(|| Cause::new("link.why.percent")),
        "min-healthy" if kind != Remediator::Snr => Err(not_here()),
        "min-healthy" => v
            .strip_suffix('%')
            .and_then(|p| p.parse::<u32>().ok())
            .filter(|p| *p <= 100)
            .map(|p| r.min_healthy_percent = Some(p))
            .ok_or_else(|| Cause::new("link.why.percent")),
        "strategy" if kind != Remediator::Snr => Err(not_here()),
        "strategy" => SNR_STRATEGIES
            .iter()
            .position(|x| *x == v)
            .map(|i| r.strategy = Some(i as u32))
            .ok_or_else(|| Cause::new("link.why.strategy")),
        "node-repair" if kind != Remediator::Karpenter => Err(not_here()),
        "node-repair" => v
            .parse::<bool>()
            .map(|on| r.node_repair_off = !on)
            .map_err(|_| Cause::new("link.why.bool")),
        "interruption-queue" if kind != Remediator::Karpenter => Err(not_here()),
        "interruption-queue" => v
            .parse::<bool>()
            .map(|on| r.interruption_queue = on)
            .map_err(|_| Cause::new("link.why.bool")),
        _ => return None,
    })
}

/// A switch (`settings::TOGGLES`, by its catalogue name) applied to `s`; `None` if `k` names
/// none of them.
fn switch_param(s: &mut Settings, k: &str, v: &str) -> Option<Result<(), Cause>> {
    let t = TOGGLES.iter().find(|t| t.def.name == k)?;
    Some(
        v.parse::<bool>()
            .map(|b| (t.set)(s, b))
            .map_err(|_| Cause::new("link.why.bool")),
    )
}

/// A workload's `-service`, `-volume` or `-pdb` parameter, applied to `s`; `None` if `k` is
/// none of them.
fn workload_param(s: &mut Settings, k: &str, v: &str) -> Option<Result<(), Cause>> {
    let (name, what) = k.split_once('-')?;
    let x = match name {
        "web" => &mut s.web,
        "db" => &mut s.db,
        _ => return None,
    };
    Some(match what {
        "service" => v
            .parse::<bool>()
            .map(|b| x.service = b)
            .map_err(|_| Cause::new("link.why.bool")),
        "volume" => VolumeChoice::parse(v)
            .map(|c| x.volume = c)
            .ok_or_else(|| Cause::new("link.why.volume")),
        "pdb" => PdbChoice::parse(v)
            .map(|c| x.pdb = c)
            .ok_or_else(|| Cause::new("link.why.pdb")),
        _ => return None,
    })
}

fn parse_fault(v: &str) -> Result<Fault, Cause> {
    let mut it = v.split(':');
    let (Some(node), Some(kind), Some(at), None) = (it.next(), it.next(), it.next(), it.next()) else {
        return Err(Cause::new("link.why.fault_shape"));
    };
    let node = node
        .strip_prefix("node-")
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|n| (1..=PAGE_MAX_NODES).contains(n))
        .ok_or_else(|| Cause::new("link.why.fault_node").text("max", PAGE_MAX_NODES))?;
    let kind = fault_kind(kind).ok_or_else(|| Cause::new("link.why.fault_kind"))?;
    let at = at
        .parse::<u32>()
        .ok()
        .filter(|a| *a <= 3600)
        .ok_or_else(|| Cause::new("link.why.fault_time"))?;
    Ok(Fault {
        node: node - 1,
        kind,
        at_seconds: at,
        recover_at_seconds: None,
        count: 1,
        notice_seconds: None,
    })
}

/// A zone outage as a link writes it: `zone-b:2m0s`, or `zone-b:2m0s:10m0s` with its end.
fn zone_outage_text(z: ZoneOutage, s: &Settings) -> String {
    let at = |s: u32| format_go_duration(i64::from(s) * 1000);
    let zone = s.zone_name(z.zone);
    match z.end_seconds {
        Some(end) => format!("{zone}:{}:{}", at(z.at_seconds), at(end)),
        None => format!("{zone}:{}", at(z.at_seconds)),
    }
}

/// Whether `name` can be a zone's name: a label value (`topology.kubernetes.io/zone`) of 1 to
/// 63 characters, letters, digits, `-`, `_` and `.`, starting and ending with a letter or digit.
fn zone_name_ok(name: &str) -> bool {
    let b = name.as_bytes();
    (1..=63).contains(&b.len())
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
}

/// Reads `zone-names=NAME,NAME,…`: up to ten distinct zone names.
pub fn parse_zone_names(v: &str) -> Result<Vec<String>, Cause> {
    let names: Vec<String> = v.split(',').map(str::to_string).collect();
    let distinct = kubelife_engine::order::set(names.iter()).len() == names.len();
    if names.len() > ZONES.len() || !distinct || !names.iter().all(|n| zone_name_ok(n)) {
        return Err(Cause::new("link.why.zone_names").text("max", ZONES.len()));
    }
    Ok(names)
}

/// Reads `ZONE:START` or `ZONE:START:END`, times as Go durations of whole seconds; `ZONE` is
/// one of the zones `s` names (all of its names, whatever the zone count).
fn parse_zone_outage(v: &str, s: &Settings) -> Result<ZoneOutage, Cause> {
    let parts: Vec<&str> = v.split(':').collect();
    let (zone, at, end) = match parts[..] {
        [zone, at] => (zone, at, None),
        [zone, at, end] => (zone, at, Some(end)),
        _ => return Err(Cause::new("link.why.outage_shape")),
    };
    let known: Vec<&str> = if s.zone_names.is_empty() {
        ZONES.to_vec()
    } else {
        s.zone_names.iter().map(String::as_str).collect()
    };
    let zone = known
        .iter()
        .position(|z| *z == zone)
        .ok_or_else(|| Cause::new("link.why.outage_zone").text("zones", known.join(", ")))?;
    let seconds = |t: &str| {
        parse_go_duration(t)
            .ok()
            .filter(|ms| (0..=i64::from(MAX_OP_SECONDS) * 1000).contains(ms) && ms % 1000 == 0)
            .map(|ms| (ms / 1000) as u32)
            .ok_or_else(|| Cause::new("link.why.outage_time"))
    };
    let at = seconds(at)?;
    let end = end.map(seconds).transpose()?;
    if end.is_some_and(|e| e < at) {
        return Err(Cause::new("link.why.outage_time"));
    }
    Ok(ZoneOutage {
        zone: zone as u32,
        at_seconds: at,
        end_seconds: end,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::ZoneOutage;

    #[test]
    fn defaults_give_a_short_link() {
        assert_eq!(encode(&Settings::default(), Playback::default()), "v=1");
        let d = decode("");
        assert_eq!(d.settings, Settings::default());
        assert!(d.notices.is_empty());
    }

    #[test]
    fn zone_names_must_be_label_values() {
        for bad in [
            "a,a",
            "-a",
            "a b",
            "a,,b",
            "x".repeat(64).as_str(),
            "a,b,c,d,e,f,g,h,i,j,k",
        ] {
            let d = decode(&format!("?zone-names={}", encode_component(bad)));
            assert!(d.settings.zone_names.is_empty(), "{bad}");
            assert_eq!(d.notices.len(), 1, "{bad}: {:?}", d.notices);
        }
        let d = decode("?zones=3&zone-names=eu-1,eu-2");
        assert!(d.settings.zone_names.is_empty(), "fewer names than zones");
        assert!(d.notices[0]
            .english()
            .contains("fewer names than the cluster's 3 zones"));
        let d = decode("?zones=2&zone-names=eu-1,eu-2&zone-outage=eu-2:1m0s");
        assert!(d.notices.is_empty(), "{:?}", d.notices);
        assert_eq!(d.settings.zone_outage.map(|z| z.zone), Some(1));
    }

    #[test]
    fn a_zone_outage_alone_has_no_single_node_fault() {
        let d = decode("?v=1&fault=none&zone-outage=zone-b:2m0s");
        assert!(d.notices.is_empty(), "{:?}", d.notices);
        let s = d.settings;
        assert!(!s.has_fault() && s.failed_nodes().is_empty());
        assert_eq!(s.down_nodes(), s.outage_nodes());
        let q = encode(&s, Playback::default());
        assert!(q.contains("fault=none"), "{q}");
        assert_eq!(decode(&q).settings, s);
        let cfg = s.resolve().0;
        assert!(
            cfg.actions
                .iter()
                .all(|a| a.action == ActionKind::NodeCrash && a.at == 120_000),
            "only the outage's crashes: {:?}",
            cfg.actions
        );
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
            count: 1,
            notice_seconds: None,
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
    fn services_volumes_and_budgets_round_trip() {
        let mut s = Settings::default();
        s.web.service = false;
        s.web.volume = VolumeChoice::RwoShared;
        s.web.pdb = PdbChoice::MinAvailable(2);
        s.db.volume = VolumeChoice::None;
        s.db.pdb = PdbChoice::MaxUnavailable(1);
        s.fault.kind = ActionKind::NodeShutdown;
        s.disable_force_detach = true;
        s.ops.force_delete_db_at_seconds = Some(400);
        let q = encode(&s, Playback::default());
        for part in [
            "web-service=false",
            "web-volume=rwo-shared",
            "web-pdb=min:2",
            "db-volume=none",
            "db-pdb=max:1",
            "fault=node-1:NodeShutdown:30",
            "disable-force-detach-on-timeout=true",
            "force-delete-db=400",
        ] {
            assert!(q.contains(part), "{part} in {q}");
        }
        let d = decode(&q);
        assert_eq!(d.settings, s);
        assert!(d.notices.is_empty(), "{:?}", d.notices);
        let bad = decode("web-volume=floppy&db-pdb=min:x&web-service=maybe&nodes=4");
        assert_eq!(bad.notices.len(), 3, "{:?}", bad.notices);
        assert_eq!(bad.settings.nodes, 4, "the rest still applies");
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
            lang: Some(Lang::Zh),
            exercise: Some(3),
            instructor: false,
            ..Display::default()
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
        assert!(preset.notices[0].english().contains("maps"));
    }

    #[test]
    fn large_clusters_and_zone_outages_round_trip() {
        let mut s = Settings {
            nodes: 5000,
            zones: 10,
            ..Settings::default()
        };
        s.fault.count = 5000;
        s.zone_outage = Some(ZoneOutage {
            zone: 9,
            at_seconds: 120,
            end_seconds: Some(600),
        });
        let q = encode(&s, Playback::default());
        for part in [
            "nodes=5000",
            "zones=10",
            "fault-nodes=5000",
            "zone-outage=zone-j:2m0s:10m0s",
        ] {
            assert!(q.contains(part), "{part} in {q}");
        }
        let d = decode(&q);
        assert_eq!(d.settings, s);
        assert!(d.notices.is_empty(), "{:?}", d.notices);
        let open = decode("zone-outage=zone-b:2m0s");
        let want = ZoneOutage {
            zone: 1,
            at_seconds: 120,
            end_seconds: None,
        };
        assert_eq!(open.settings.zone_outage, Some(want));
        assert_eq!(
            encode(&open.settings, Playback::default()),
            "v=1&zone-outage=zone-b:2m0s"
        );
    }

    /// Each size and outage parameter: a good value applies; an out-of-range and a malformed one
    /// are named in a notice, and the rest of the link still applies.
    #[test]
    fn size_and_outage_parameters_name_what_they_refuse() {
        let rest = Settings {
            web_replicas: 5,
            ..Settings::default()
        };
        for (param, good, out_of_range, malformed) in [
            ("nodes", "5000", "5001", "many"),
            ("zones", "10", "11", "ten"),
            ("fault-nodes", "5000", "5001", "all"),
            ("zone-outage", "zone-b:2m0s:10m0s", "zone-k:2m0s", "zone-b"),
            ("zone-outage", "zone-c:0s", "zone-c:2h0m0s", "zone-c:soon"),
        ] {
            let d = decode(&format!("{param}={good}&web=5"));
            assert!(d.notices.is_empty(), "{param}={good}: {:?}", d.notices);
            assert!(
                d.settings != rest && d.settings.web_replicas == 5,
                "{param}={good} applies"
            );
            for bad in [out_of_range, malformed] {
                let d = decode(&format!("{param}={bad}&web=5"));
                assert_eq!(d.notices.len(), 1, "{param}={bad}: {:?}", d.notices);
                let said = d.notices[0].english();
                assert!(said.contains(&format!("{param}={bad}")), "{said}");
                assert_eq!(d.settings, rest, "{param}={bad}: the rest applies");
            }
        }
        let said = |q: &str| {
            decode(q)
                .notices
                .iter()
                .map(Cause::english)
                .collect::<Vec<_>>()
                .join("; ")
        };
        assert!(said("zone-outage=zone-b:10m0s:2m0s").contains("the end not before the start"));
        assert!(said("zone-outage=zone-b:1.5s").contains("whole seconds"));
        assert!(said("zone-outage=zone-k:2m0s").contains("zone-a, zone-b, zone-c, zone-d"));
        let gone = decode("zones=2&zone-outage=zone-c:1m0s&nodes=8");
        assert_eq!((gone.settings.zone_outage, gone.settings.nodes), (None, 8));
        assert!(said("zones=2&zone-outage=zone-c:1m0s")
            .contains("zone-outage=zone-c:1m0s: not a zone of this cluster (zone-a, zone-b)"));
        assert!(said("fault=node-5001:NodeCrash:30").contains("node-1 to node-5000"));
    }

    /// The cloud, the remediator and its settings, and the instance faults: each round-trips,
    /// only what differs from the defaults is written, and a bad value is named in a notice while
    /// the rest of the link applies.
    #[test]
    fn clouds_remediators_and_instance_faults_round_trip() {
        use crate::settings::{Remediation, Remediator};
        use kubelife_engine::scenario::cloud::Provider;
        let q = "v=1&fault=node-1:InstanceTerminated:30&cloud=aws";
        let d = decode(q);
        assert!(d.notices.is_empty(), "{:?}", d.notices);
        assert_eq!(d.settings.cloud, Some(Provider::Aws));
        assert_eq!(d.settings.fault.kind, ActionKind::InstanceTerminated);
        assert_eq!(encode(&d.settings, Playback::default()), q);
        for kind in ["InstanceStopped", "SpotInterruption"] {
            let q = format!("v=1&fault=node-2:{kind}:45&cloud=gcp");
            assert_eq!(encode(&decode(&q).settings, Playback::default()), q);
        }
        // The spot notice stays the provider's: the scenario leaves it unset.
        let spot = decode("fault=node-1:SpotInterruption:30&cloud=aws").settings.scenario();
        assert!(spot.events.iter().all(|e| e.notice.is_none()));
        assert_eq!(spot.cloud.map(|c| c.provider), Some(Provider::Aws));
        // A notice of its own is the SpotInterruption's `notice`, a Go duration, wherever the
        // link puts it.
        let q = "v=1&fault=node-1:SpotInterruption:30&notice=45s&cloud=aws";
        let d = decode("v=1&notice=45s&fault=node-1:SpotInterruption:30&cloud=aws");
        assert!(d.notices.is_empty(), "{:?}", d.notices);
        assert_eq!(
            (d.settings.fault.notice_seconds, d.settings.spot_notice_seconds()),
            (Some(45), 45)
        );
        assert_eq!(encode(&d.settings, Playback::default()), q);
        let spot = d.settings.scenario();
        let notices: Vec<_> = spot.events.iter().filter_map(|e| e.notice).collect();
        assert_eq!(notices, [kubelife_engine::scenario::GoDuration(45_000)]);
        assert!(d.settings.resolve().1.is_none());
        // Without one, the page shows the provider's.
        assert_eq!(decode("cloud=gcp").settings.spot_notice_seconds(), 30);
        assert_eq!(decode("").settings.spot_notice_seconds(), 120);
        for (q, want) in [
            (
                "v=1&cloud=aws&remediation=mhc&remediation-timeout=2m0s&max-unhealthy=40%25",
                Remediation {
                    kind: Remediator::Mhc,
                    timeout_seconds: Some(120),
                    max_unhealthy_percent: Some(40),
                    ..Remediation::default()
                },
            ),
            (
                "v=1&remediation=snr&strategy=OutOfServiceTaint",
                Remediation {
                    kind: Remediator::Snr,
                    strategy: Some(1),
                    ..Remediation::default()
                },
            ),
            (
                "v=1&cloud=azure&remediation=karpenter&node-repair=false",
                Remediation {
                    kind: Remediator::Karpenter,
                    node_repair_off: true,
                    ..Remediation::default()
                },
            ),
            (
                "v=1&cloud=gcp&remediation=gke&remediation-timeout=20m0s",
                Remediation {
                    kind: Remediator::Gke,
                    timeout_seconds: Some(1200),
                    ..Remediation::default()
                },
            ),
            (
                "v=1&cloud=aws&remediation=eks",
                Remediation {
                    kind: Remediator::Eks,
                    ..Remediation::default()
                },
            ),
            (
                "v=1&cloud=aws&remediation=eks&max-unhealthy=50%25",
                Remediation {
                    kind: Remediator::Eks,
                    max_unhealthy_percent: Some(50),
                    ..Remediation::default()
                },
            ),
            (
                "v=1&remediation=snr&min-healthy=80%25&strategy=ResourceDeletion",
                Remediation {
                    kind: Remediator::Snr,
                    min_healthy_percent: Some(80),
                    strategy: Some(2),
                    ..Remediation::default()
                },
            ),
            (
                "v=1&cloud=azure&remediation=aks&remediation-timeout=5m0s",
                Remediation {
                    kind: Remediator::Aks,
                    timeout_seconds: Some(300),
                    ..Remediation::default()
                },
            ),
        ] {
            let d = decode(q);
            assert!(d.notices.is_empty(), "{q}: {:?}", d.notices);
            assert_eq!(d.settings.remediation, want, "{q}");
            assert_eq!(encode(&d.settings, Playback::default()), q);
            assert!(d.settings.resolve().1.is_none(), "{q} resolves");
        }
    }

    #[test]
    fn cloud_and_remediation_parameters_name_what_they_refuse() {
        use crate::settings::Remediator;
        use kubelife_engine::scenario::cloud::Provider;
        let said = |q: &str| {
            let d = decode(q);
            assert_eq!(d.settings.web_replicas, 5, "{q}: the rest applies");
            d.notices.iter().map(Cause::english).collect::<Vec<_>>().join("; ")
        };
        for (q, param, why) in [
            ("cloud=ibm", "cloud=ibm", "aws, gcp, azure"),
            ("remediation=magic", "remediation=magic", "mhc, snr"),
            ("remediation=mhc&remediation-timeout=5m", "", ""),
            (
                "remediation=mhc&remediation-timeout=2h0m0s",
                "remediation-timeout=2h0m0s",
                "0s to 1h0m0s",
            ),
            (
                "cloud=azure&remediation=aks&remediation-timeout=1m0s",
                "remediation-timeout=1m0s",
                "5m0s to 15m0s",
            ),
            (
                "remediation-timeout=5m0s",
                "remediation-timeout=5m0s",
                "remediation=none",
            ),
            (
                "remediation=mhc&max-unhealthy=140%25",
                "max-unhealthy=140%",
                "percentage",
            ),
            (
                "remediation=snr&max-unhealthy=40%25",
                "max-unhealthy=40%",
                "remediation=snr",
            ),
            ("remediation=snr&strategy=Reboot", "strategy=Reboot", "Automatic"),
            ("remediation=snr&min-healthy=51", "min-healthy=51", "percentage"),
            ("remediation=snr&min-healthy=101%25", "min-healthy=101%", "percentage"),
            (
                "remediation=mhc&min-healthy=51%25",
                "min-healthy=51%",
                "remediation=mhc",
            ),
            (
                "cloud=aws&remediation=eks&max-unhealthy=120%25",
                "max-unhealthy=120%",
                "percentage",
            ),
            (
                "cloud=gcp&remediation=gke&max-unhealthy=20%25",
                "max-unhealthy=20%",
                "remediation=gke",
            ),
            ("fault=node-1:SpotInterruption:30&notice=2m", "", ""),
            (
                "fault=node-1:SpotInterruption:30&notice=soon",
                "notice=soon",
                "0s to 10m0s",
            ),
            (
                "fault=node-1:SpotInterruption:30&notice=1.5s",
                "notice=1.5s",
                "whole seconds",
            ),
            (
                "fault=node-1:SpotInterruption:30&notice=11m0s",
                "notice=11m0s",
                "0s to 10m0s",
            ),
            (
                "fault=node-1:InstanceStopped:30&notice=30s",
                "notice=30s",
                "SpotInterruption",
            ),
            (
                "cloud=aws&remediation=karpenter&node-repair=maybe",
                "node-repair=maybe",
                "true or false",
            ),
            (
                "fault=node-1:InstanceVanished:30",
                "fault=node-1:InstanceVanished:30",
                "SpotInterruption",
            ),
        ] {
            let text = said(&format!("{q}&web=5"));
            if param.is_empty() {
                assert!(text.is_empty(), "{q}: {text}");
                continue;
            }
            assert!(text.contains(param) && text.contains(why), "{q}: {text}");
        }
        // A remediator that runs on certain clouds moves the cluster there, and says so.
        let d = decode("cloud=aws&remediation=gke&web=5");
        assert_eq!(d.settings.cloud, Some(Provider::Gcp));
        assert_eq!(d.settings.remediation.kind, Remediator::Gke);
        assert!(
            d.notices[0].english().contains("the cluster runs on gcp instead"),
            "{:?}",
            d.notices
        );
        let d = decode("remediation=karpenter");
        assert_eq!(d.settings.cloud, Some(Provider::Aws));
        let d = decode("cloud=azure&remediation=karpenter");
        assert!(d.notices.is_empty() && d.settings.cloud == Some(Provider::Azure));
    }

    #[test]
    fn targets_and_the_blip_round_trip_and_bad_ones_are_named() {
        let q = "v=1&target=firstReplacementReady:60s:p95&target=taint:40s&blip=30s&max-writes-per-min=600&writes-at-nodes=5000&nodes=4";
        let d = decode(q);
        assert!(d.notices.is_empty(), "{:?}", d.notices);
        assert_eq!(d.settings.nodes, 4);
        let names: Vec<_> = d
            .display
            .question
            .targets
            .iter()
            .map(|t| (t.milestone, t.within, t.percentile))
            .collect();
        assert_eq!(names, [("firstReplacementReady", 60_000, 95), ("taint", 40_000, 95)]);
        let q = &d.display.question;
        assert_eq!(
            (q.blip, q.max_writes, q.writes_nodes),
            (Some(30_000), Some(600.0), Some(5000))
        );
        let again = encode_all(&d.settings, None, Playback::default(), &d.display);
        assert!(
            again.contains(
                "target=firstReplacementReady:1m0s:p95&target=taint:40s:p95&blip=30s&max-writes-per-min=600&writes-at-nodes=5000"
            ),
            "{again}"
        );
        assert_eq!(decode(&again).display, d.display);
        // Each bad one is named and skipped; the rest still applies.
        let d = decode("target=soon&target=nope:1s&target=taint:1s:p0&target=taint:-1s&target=unknown:45s:p50&blip=0s&blip=1h&max-writes-per-min=lots&writes-at-nodes=0&nodes=5");
        assert_eq!(d.settings.nodes, 5);
        let q = &d.display.question;
        assert_eq!(q.targets.len(), 1);
        assert_eq!((q.blip, q.max_writes, q.writes_nodes), (None, None, None));
        let said: Vec<String> = d.notices.iter().map(|n| n.english()).collect();
        assert_eq!(said.len(), 8, "{said:#?}");
        assert!(
            said[0].contains("target=soon") && said[0].contains("MILESTONE:DURATION"),
            "{said:#?}"
        );
        assert!(said[1].contains("\"nope\" is not a milestone"), "{said:#?}");
        assert!(
            said[2].contains("p1 to p100") && said[3].contains("negative"),
            "{said:#?}"
        );
        assert!(said[4].contains("blip=0s") && said[5].contains("blip=1h"), "{said:#?}");
        assert!(
            said[6].contains("max-writes-per-min=lots") && said[6].contains("0 or more, not lots"),
            "{said:#?}"
        );
        assert!(
            said[7].contains("writes-at-nodes=0") && said[7].contains("1 or more, not 0"),
            "{said:#?}"
        );
        let many = decode(&"target=taint:1s&".repeat(MAX_TARGETS + 1));
        assert_eq!(
            (many.display.question.targets.len(), many.notices.len()),
            (MAX_TARGETS, 1)
        );
    }

    #[test]
    fn garbage_is_skipped_with_notices() {
        let d = decode("?v=1&k=1.99&node-monitor-grace-period=banana&node-monitor-period=9000s&colour=blue&nodes=0&fault=node-9:Boom:x&%ZZ=1&speed=5000");
        assert_eq!(d.settings, Settings::default(), "nothing usable");
        assert_eq!(d.notices.len(), 8, "{:#?}", d.notices);
        assert!(d.notices.iter().any(|n| n.english().contains("colour")));
        assert!(d.notices.iter().any(|n| n.english().contains("outside")));
        let newer = decode("v=7&nodes=4");
        assert_eq!(newer.settings.nodes, 4);
        assert!(newer.notices[0].english().contains("newer kubelife"));
        let missing = decode("k=1.30&pod-eviction-timeout=30s");
        assert!(
            missing.notices[0]
                .english()
                .contains("--pod-eviction-timeout does not exist there"),
            "{:?}",
            missing.notices
        );
    }
}
