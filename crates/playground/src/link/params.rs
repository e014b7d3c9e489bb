//! The link's parameters of one side's settings, one entry each: its name, how it is written
//! from the settings and how it is read back, with what it refuses. Encoding and decoding both
//! iterate [`params`], so a new parameter is one entry here. The knobs and the switches are
//! families: one entry per flag of their catalogues (`KNOBS`, `TOGGLES`), named by the flag.

use super::values::{knob_text, parse_fault, parse_zone_names, parse_zone_outage, zone_outage_text};
use crate::i18n::truncate;
use crate::knobs::{knob, Unit, KNOBS};
use crate::settings::{
    cloud_choice, cloud_choices, cloud_duration, cloud_durations, further_links, further_range, further_value,
    not_read_on, parse_provider, read_on, Fault, LatencySpike, PdbChoice, Remediator, Settings, TolerationPatch,
    VolumeChoice, WorkloadExtras, MAX_NOTICE_SECONDS, MAX_OP_SECONDS, PAGE_MAX_DB, PAGE_MAX_NODES, PAGE_MAX_WEB,
    SNR_STRATEGIES, TIMEOUT_LINK, TOGGLES, ZONES,
};
use kubelife_engine::flags::Value;
use kubelife_engine::scenario::ActionKind;
use kubelife_engine::settings::Setting;
use kubelife_engine::time::{format_go_duration, parse_go_duration};
use kubelife_engine::{Cause, Millis};
use std::sync::OnceLock;

/// One parameter of a side's settings.
pub struct Param {
    /// Its name in a link (side B's carries a `b.` prefix besides).
    pub name: &'static str,
    /// Read before the others, in this table's order, whatever the link's: the ones the others
    /// depend on (a preset, the version, the zones' names, the cloud and the remediator).
    pub early: bool,
    /// Its value in the settings (second) as a link writes it; `None` to leave it out: where it
    /// is what the first visit (third) has.
    pub write: fn(&Param, &Settings, &Settings) -> Option<String>,
    /// Reads a value into the settings; the reason it is refused otherwise.
    pub read: fn(&Param, &mut Settings, &str) -> Result<(), Cause>,
    /// What reading it changed besides itself, given the settings before and after (the
    /// message's other arguments; the link adds the parameter).
    pub note: fn(&Settings, &Settings) -> Option<Cause>,
}

/// An entry's defaults: read in the link's order, noting nothing.
const P: Param = Param {
    name: "",
    early: false,
    write: |_, _, _| None,
    read: |_, _, _| Ok(()),
    note: |_, _| None,
};

/// A whole number from `min` to `max`.
fn number(v: &str, min: u64, max: u64) -> Result<u64, Cause> {
    match v.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        Ok(_) => Err(Cause::new("link.why.range").text("min", min).text("max", max)),
        Err(_) => Err(Cause::new("link.why.whole")),
    }
}

/// `why` with the versions kubelife models, oldest and newest, from the engine's version table.
fn version_range(why: Cause) -> Cause {
    use kubelife_engine::version::{NEWEST_MINOR, OLDEST_MINOR};
    why.text("oldest", format!("1.{OLDEST_MINOR}"))
        .text("newest", format!("1.{NEWEST_MINOR}"))
}

/// A time of the run, whole seconds from 0 to the longest run the page offers.
fn seconds(v: &str) -> Result<u32, Cause> {
    number(v, 0, u64::from(MAX_OP_SECONDS)).map(|n| n as u32)
}

/// `want` whole numbers separated by `:`.
fn numbers(v: &str, want: usize) -> Result<Vec<u32>, Cause> {
    let parts: Option<Vec<u32>> = v.split(':').map(|p| p.parse::<u32>().ok()).collect();
    match parts {
        Some(n) if n.len() == want => Ok(n),
        _ => Err(Cause::new("link.why.numbers").text("count", want)),
    }
}

/// `true` or `false`.
fn switch(v: &str) -> Result<bool, Cause> {
    v.parse::<bool>().map_err(|_| Cause::new("link.why.bool"))
}

/// A percentage, `N%` within the setting's range.
fn percent(v: &str, d: &Setting) -> Result<u32, Cause> {
    v.strip_suffix('%')
        .and_then(|p| p.parse::<u32>().ok())
        .filter(|p| (d.range.0..=d.range.1).contains(&f64::from(*p)))
        .ok_or_else(|| Cause::new("link.why.percent"))
}

/// Whole seconds as a Go duration.
fn go(seconds: u32) -> String {
    format_go_duration(i64::from(seconds) * 1000)
}

/// `x` written when it is not the first visit's `d`.
fn differs<T: PartialEq>(x: T, d: T, text: impl FnOnce(T) -> String) -> Option<String> {
    (x != d).then(|| text(x))
}

/// The workload a `web-…` or `db-…` parameter names.
fn extras<'a>(p: &Param, s: &'a mut Settings) -> &'a mut WorkloadExtras {
    if p.name.starts_with("web-") {
        &mut s.web
    } else {
        &mut s.db
    }
}

/// The workload a `web-…` or `db-…` parameter names in `s`, and in the first visit's `d`.
fn extras_of(p: &Param, s: &Settings, d: &Settings) -> (WorkloadExtras, WorkloadExtras) {
    if p.name.starts_with("web-") {
        (s.web, d.web)
    } else {
        (s.db, d.db)
    }
}

/// A workload's Service, volume and disruption budget.
const WORKLOAD: [Param; 3] = [
    Param {
        write: |p, s, d| {
            let (x, d) = extras_of(p, s, d);
            differs(x.service, d.service, |b| b.to_string())
        },
        read: |p, s, v| switch(v).map(|b| extras(p, s).service = b),
        ..P
    },
    Param {
        write: |p, s, d| {
            let (x, d) = extras_of(p, s, d);
            differs(x.volume, d.volume, |c| c.name().into())
        },
        read: |p, s, v| {
            let c = VolumeChoice::parse(v).ok_or_else(|| Cause::new("link.why.volume"))?;
            extras(p, s).volume = c;
            Ok(())
        },
        ..P
    },
    Param {
        write: |p, s, d| {
            let (x, d) = extras_of(p, s, d);
            differs(x.pdb, d.pdb, |c| c.text().unwrap_or_else(|| "none".into()))
        },
        read: |p, s, v| {
            let c = PdbChoice::parse(v).ok_or_else(|| Cause::new("link.why.pdb"))?;
            extras(p, s).pdb = c;
            Ok(())
        },
        ..P
    },
];

/// Whether the fault's own parameters (`recover`, `fault-nodes`, `notice`) are written: when
/// there is a single-node fault and it is not the first visit's.
fn own_fault(s: &Settings, d: &Settings) -> bool {
    s.has_fault() && s.fault != d.fault
}

/// The version, the seed and the cluster's size, before the workloads.
const CLUSTER: [Param; 7] = [
    Param {
        name: "preset",
        early: true,
        read: |_, s, v| {
            *s = super::preset(s, v).ok_or_else(|| Cause::new("link.why.preset"))?;
            Ok(())
        },
        ..P
    },
    Param {
        name: "k",
        early: true,
        write: |_, s, d| differs(s.minor, d.minor, |m| format!("1.{m}")),
        read: |_, s, v| {
            let version =
                kubelife_engine::Version::parse(v).map_err(|_| version_range(Cause::new("link.why.version")))?;
            s.minor = version.minor;
            Ok(())
        },
        ..P
    },
    Param {
        name: "seed",
        write: |_, s, d| differs(s.seed, d.seed, |n| n.to_string()),
        read: |_, s, v| number(v, 0, u64::MAX).map(|n| s.seed = n),
        ..P
    },
    Param {
        name: "nodes",
        write: |_, s, d| differs(s.nodes, d.nodes, |n| n.to_string()),
        read: |_, s, v| number(v, 1, u64::from(PAGE_MAX_NODES)).map(|n| s.nodes = n as u32),
        ..P
    },
    Param {
        name: "zones",
        write: |_, s, d| differs(s.zones, d.zones, |n| n.to_string()),
        read: |_, s, v| number(v, 1, ZONES.len() as u64).map(|n| s.zones = n as u32),
        ..P
    },
    Param {
        name: "web",
        write: |_, s, d| differs(s.web_replicas, d.web_replicas, |n| n.to_string()),
        read: |_, s, v| number(v, 0, u64::from(PAGE_MAX_WEB)).map(|n| s.web_replicas = n as u32),
        ..P
    },
    Param {
        name: "db",
        write: |_, s, d| differs(s.db_replicas, d.db_replicas, |n| n.to_string()),
        read: |_, s, v| number(v, 0, u64::from(PAGE_MAX_DB)).map(|n| s.db_replicas = n as u32),
        ..P
    },
];

/// The fault and the zones' names, after the switches.
const FAULT: [Param; 5] = [
    Param {
        name: "fault",
        write: |_, s, d| match s.has_fault() {
            false => Some("none".into()),
            true => (s.fault != d.fault)
                .then(|| format!("node-{}:{:?}:{}", s.fault.node + 1, s.fault.kind, s.fault.at_seconds)),
        },
        read: |_, s, v| {
            if v == "none" {
                s.fault.count = 0;
                return Ok(());
            }
            let f = parse_fault(v)?;
            s.fault = Fault {
                recover_at_seconds: s.fault.recover_at_seconds,
                count: s.fault.count,
                notice_seconds: s.fault.notice_seconds,
                ..f
            };
            Ok(())
        },
        ..P
    },
    Param {
        name: "recover",
        write: |_, s, d| {
            own_fault(s, d)
                .then_some(s.fault.recover_at_seconds)?
                .map(|r| r.to_string())
        },
        read: |_, s, v| number(v, 0, 3600).map(|n| s.fault.recover_at_seconds = Some(n as u32)),
        ..P
    },
    Param {
        name: "fault-nodes",
        write: |_, s, d| (own_fault(s, d) && s.fault.count != 1).then(|| s.fault.count.to_string()),
        read: |_, s, v| number(v, 0, u64::from(PAGE_MAX_NODES)).map(|n| s.fault.count = n as u32),
        ..P
    },
    Param {
        name: "notice",
        write: |_, s, d| {
            let spot = s.fault.kind == ActionKind::SpotInterruption;
            own_fault(s, d).then_some(s.fault.notice_seconds.filter(|_| spot).map(go))?
        },
        read: |_, s, v| {
            let ms = parse_go_duration(v)
                .ok()
                .filter(|ms| ms % 1000 == 0 && (0..=i64::from(MAX_NOTICE_SECONDS) * 1000).contains(ms))
                .ok_or_else(|| Cause::new("link.why.notice").text("max", go(MAX_NOTICE_SECONDS)))?;
            s.fault.notice_seconds = Some((ms / 1000) as u32);
            Ok(())
        },
        ..P
    },
    Param {
        name: "zone-names",
        early: true,
        write: |_, s, _| (!s.zone_names.is_empty()).then(|| s.zone_names.join(",")),
        read: |_, s, v| parse_zone_names(v).map(|names| s.zone_names = names),
        ..P
    },
];

/// Why a remediator's setting is refused for the link's other remediator.
fn not_for(s: &Settings) -> Cause {
    Cause::new("link.why.not_for").text("remediation", s.remediation.kind.name())
}

/// The settings table's declaration of a remediator's setting, for the link's remediator;
/// refused for another that lacks it.
fn of_remediator(p: &Param, s: &Settings) -> Result<&'static Setting, Cause> {
    s.remediation.kind.setting(p.name).ok_or_else(|| not_for(s))
}

/// A cloud duration of the settings table, by its link name: a Go duration within the range a
/// control offers and the table's rule, on a cloud that reads it.
const CLOUD_DURATION: Param = Param {
    write: |p, s, _| {
        let d = cloud_duration(p.name).filter(|d| read_on(d, s.cloud))?;
        s.cloud_durations.get(d.name).map(|&ms| d.text(Value::Duration(ms)))
    },
    read: |p, s, v| {
        let Some(d) = cloud_duration(p.name) else {
            return Ok(());
        };
        if let Some(cloud) = s.cloud.filter(|&c| !read_on(d, Some(c))) {
            return Err(not_read_on(d, cloud));
        }
        let (lo, hi) = ((d.range.0 * 1000.0) as Millis, (d.range.1 * 1000.0) as Millis);
        let ms = d
            .parse(v)
            .and_then(Value::millis)
            .ok_or_else(|| Cause::new("link.why.value"))?;
        if !(lo..=hi).contains(&ms) {
            let outside = Cause::new("link.why.outside");
            return Err(outside
                .text("min", format_go_duration(lo))
                .text("max", format_go_duration(hi)));
        }
        d.check(Value::Duration(ms))?;
        s.cloud_durations.insert(d.name.to_string(), ms);
        Ok(())
    },
    ..P
};

/// A cloud choice of the settings table, by its link name: one of its names, on a cloud that
/// reads it (AWS's `managed-node-group=SPOT`).
const CLOUD_CHOICE: Param = Param {
    write: |p, s, _| {
        let d = cloud_choice(p.name).filter(|d| read_on(d, s.cloud))?;
        s.cloud_choices.get(d.name).map(|&i| d.text(Value::Int(i)))
    },
    read: |p, s, v| {
        let Some(d) = cloud_choice(p.name) else {
            return Ok(());
        };
        if let Some(cloud) = s.cloud.filter(|&c| !read_on(d, Some(c))) {
            return Err(not_read_on(d, cloud));
        }
        let i = d
            .parse(v)
            .and_then(Value::int)
            .ok_or_else(|| Cause::new("link.why.value"))?;
        s.cloud_choices.insert(d.name.to_string(), i);
        Ok(())
    },
    ..P
};

/// A further setting of the remediator (`Remediator::further`), by its link name: a Go
/// duration or a version `1.x` within the range its control offers and the table's rule.
const FURTHER: Param = Param {
    write: |p, s, _| {
        let d = s.remediation.kind.further().find(|d| d.link == p.name)?;
        let n = *s.remediator_settings.get(p.name)?;
        Some(d.text(further_value(d, n)))
    },
    read: |p, s, v| {
        let d = s
            .remediation
            .kind
            .further()
            .find(|d| d.link == p.name)
            .ok_or_else(|| not_for(s))?;
        let n = d
            .parse(v)
            .and_then(|x| x.millis().or(x.int()))
            .ok_or_else(|| Cause::new("link.why.value"))?;
        let (lo, hi) = further_range(d);
        if !(lo..=hi).contains(&n) {
            let (lo, hi) = (d.text(further_value(d, lo)), d.text(further_value(d, hi)));
            return Err(Cause::new("link.why.outside").text("min", lo).text("max", hi));
        }
        d.check(further_value(d, n))?;
        s.remediator_settings.insert(p.name.to_string(), n);
        Ok(())
    },
    ..P
};

/// Where it runs, before its durations.
const CLOUD: Param = Param {
    name: "cloud",
    early: true,
    write: |_, s, _| s.cloud.map(|p| p.name().to_string()),
    read: |_, s, v| {
        s.cloud = match v {
            "none" => None,
            _ => Some(parse_provider(v).ok_or_else(|| Cause::new("link.why.cloud"))?),
        };
        Ok(())
    },
    ..P
};

/// What repairs its nodes and the remediator's settings (the settings table's, for the
/// remediator the link names).
const REMEDIATION: [Param; 7] = [
    Param {
        name: "remediation",
        early: true,
        write: |_, s, d| differs(s.remediation.kind, d.remediation.kind, |k| k.name().into()),
        read: |_, s, v| {
            let r = Remediator::parse(v).ok_or_else(|| Cause::new("link.why.remediation"))?;
            s.set_remediator(r);
            Ok(())
        },
        // A remediator that runs on other clouds than the link's moves the cluster to its first.
        note: |before, after| {
            let moved = after.cloud.filter(|_| after.cloud != before.cloud)?;
            Some(Cause::new("link.remediation_cloud").text("cloud", moved.name()))
        },
    },
    Param {
        name: TIMEOUT_LINK,
        write: |_, s, _| s.remediation.timeout_seconds.map(go),
        read: |p, s, v| {
            of_remediator(p, s)?;
            let (_, min, max) = s.remediation.kind.timeout().ok_or_else(|| not_for(s))?;
            let ms = parse_go_duration(v)
                .ok()
                .filter(|ms| ms % 1000 == 0 && (i64::from(min) * 1000..=i64::from(max) * 1000).contains(ms))
                .ok_or_else(|| Cause::new("link.why.timeout").text("min", go(min)).text("max", go(max)))?;
            s.remediation.timeout_seconds = Some((ms / 1000) as u32);
            Ok(())
        },
        ..P
    },
    Param {
        name: "max-unhealthy",
        write: |_, s, _| s.remediation.max_unhealthy_percent.map(|p| format!("{p}%")),
        read: |p, s, v| {
            let d = of_remediator(p, s)?;
            percent(v, d).map(|p| s.remediation.max_unhealthy_percent = Some(p))
        },
        ..P
    },
    Param {
        name: "min-healthy",
        write: |_, s, _| s.remediation.min_healthy_percent.map(|p| format!("{p}%")),
        read: |p, s, v| {
            let d = of_remediator(p, s)?;
            percent(v, d).map(|p| s.remediation.min_healthy_percent = Some(p))
        },
        ..P
    },
    Param {
        name: "strategy",
        write: |_, s, _| {
            let i = s.remediation.strategy?;
            Some(SNR_STRATEGIES.get(i as usize).copied().unwrap_or("").to_string())
        },
        read: |p, s, v| {
            of_remediator(p, s)?;
            let i = SNR_STRATEGIES
                .iter()
                .position(|x| *x == v)
                .ok_or_else(|| Cause::new("link.why.strategy"))?;
            s.remediation.strategy = Some(i as u32);
            Ok(())
        },
        ..P
    },
    Param {
        name: "node-repair",
        write: |_, s, _| s.remediation.node_repair_off.then(|| "false".into()),
        read: |p, s, v| {
            of_remediator(p, s)?;
            switch(v).map(|on| s.remediation.node_repair_off = !on)
        },
        ..P
    },
    Param {
        name: "interruption-queue",
        write: |_, s, _| s.remediation.interruption_queue.then(|| "true".into()),
        read: |p, s, v| {
            of_remediator(p, s)?;
            switch(v).map(|on| s.remediation.interruption_queue = on)
        },
        ..P
    },
];

/// The zone outage and the operator's actions, before the knobs.
const OPERATIONS: [Param; 6] = [
    Param {
        name: "zone-outage",
        write: |_, s, _| s.zone_outage.map(|z| zone_outage_text(z, s)),
        read: |_, s, v| {
            s.zone_outage = Some(parse_zone_outage(v, s)?);
            Ok(())
        },
        ..P
    },
    Param {
        name: "latency",
        write: |_, s, _| {
            s.ops
                .latency
                .map(|l| format!("{}:{}:{}", l.from_seconds, l.until_seconds, l.ms))
        },
        read: |_, s, v| {
            let n = numbers(v, 3)?;
            if !(n[0] <= MAX_OP_SECONDS && n[1] <= MAX_OP_SECONDS && n[2] <= 60_000) {
                return Err(Cause::new("link.why.latency"));
            }
            s.ops.latency = Some(LatencySpike {
                from_seconds: n[0],
                until_seconds: n[1],
                ms: n[2],
            });
            Ok(())
        },
        ..P
    },
    Param {
        name: "out-of-service",
        write: |_, s, _| s.ops.out_of_service_at_seconds.map(|at| at.to_string()),
        read: |_, s, v| seconds(v).map(|n| s.ops.out_of_service_at_seconds = Some(n)),
        ..P
    },
    Param {
        name: "kcm-restart",
        write: |_, s, _| s.ops.kcm_restart_at_seconds.map(|at| at.to_string()),
        read: |_, s, v| seconds(v).map(|n| s.ops.kcm_restart_at_seconds = Some(n)),
        ..P
    },
    Param {
        name: "force-delete-db",
        write: |_, s, _| s.ops.force_delete_db_at_seconds.map(|at| at.to_string()),
        read: |_, s, v| seconds(v).map(|n| s.ops.force_delete_db_at_seconds = Some(n)),
        ..P
    },
    Param {
        name: "toleration-patch",
        write: |_, s, _| {
            s.ops
                .toleration_patch
                .map(|p| format!("{}:{}", p.at_seconds, p.seconds))
        },
        read: |_, s, v| {
            let n = numbers(v, 2)?;
            if !(n[0] <= MAX_OP_SECONDS && n[1] <= 86_400) {
                return Err(Cause::new("link.why.patch"));
            }
            s.ops.toleration_patch = Some(TolerationPatch {
                at_seconds: n[0],
                seconds: n[1],
            });
            Ok(())
        },
        ..P
    },
];

/// A switch of `TOGGLES`, by its catalogue name.
const SWITCH: Param = Param {
    write: |p, s, d| {
        let t = TOGGLES.iter().find(|t| t.def.name == p.name)?;
        differs((t.get)(s), (t.get)(d), |on| on.to_string())
    },
    read: |p, s, v| {
        let on = switch(v)?;
        if let Some(t) = TOGGLES.iter().find(|t| t.def.name == p.name) {
            (t.set)(s, on);
        }
        Ok(())
    },
    ..P
};

/// A knob, by its flag: a Go duration for seconds, else a number, within the knob's range and
/// offered by the link's version.
const KNOB: Param = Param {
    write: |p, s, _| {
        let k = knob(p.name)?;
        s.overrides.get(k.flag).map(|&v| knob_text(k.unit, v))
    },
    read: |p, s, v| {
        let Some(kn) = knob(p.name) else {
            return Ok(());
        };
        if !kn.available(s.minor) {
            return Err(Cause::new("link.why.not_in")
                .text("minor", s.minor)
                .text("flag", kn.flag));
        }
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
            Some(_) => Err(Cause::new("link.why.outside")
                .text("min", knob_text(kn.unit, kn.min))
                .text("max", knob_text(kn.unit, kn.max))),
            None => Err(Cause::new("link.why.value")),
        }
    },
    ..P
};

/// Every parameter of a side's settings, in the order a link writes them: the version, the
/// seed and the size; each workload's Service, volume and budget; the switches; the fault and
/// the zones' names; the cloud, its durations (the settings table's) and the remediator with its
/// further settings; the zone outage and the operator's actions; the knobs.
pub fn params() -> &'static [Param] {
    static TABLE: OnceLock<Vec<Param>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut out: Vec<Param> = CLUSTER.into_iter().collect();
        for names in [
            ["web-service", "web-volume", "web-pdb"],
            ["db-service", "db-volume", "db-pdb"],
        ] {
            out.extend(WORKLOAD.into_iter().zip(names).map(|(p, name)| Param { name, ..p }));
        }
        out.extend(TOGGLES.iter().map(|t| Param {
            name: t.def.name,
            ..SWITCH
        }));
        out.extend(FAULT);
        out.push(CLOUD);
        out.extend(cloud_durations().map(|d| Param {
            name: d.link,
            ..CLOUD_DURATION
        }));
        out.extend(cloud_choices().map(|d| Param {
            name: d.link,
            ..CLOUD_CHOICE
        }));
        out.extend(REMEDIATION);
        out.extend(further_links().into_iter().map(|name| Param { name, ..FURTHER }));
        out.extend(OPERATIONS);
        out.extend(KNOBS.iter().map(|k| Param { name: k.flag, ..KNOB }));
        out
    })
}

/// The parameter a link names, if any.
pub fn param(name: &str) -> Option<&'static Param> {
    params().iter().find(|p| p.name == name)
}

/// `param=value` ignored for `why`, as a notice says it.
pub fn ignored(prefix: &str, k: &str, v: &str, why: Cause) -> Cause {
    Cause::new("link.ignored")
        .text("param", format!("{prefix}{k}={}", truncate(v)))
        .sub("why", why)
}
