//! A compact binary form of an [`Outcome`], for handing a run from the page's Web Worker to the
//! page. The pinned JSON form (`Outcome::to_json`) writes causes as English text; this form keeps
//! every cause's key and arguments, so the page can still show them in the reader's language.
//!
//! The layout: the magic `KLW2`, the summary in bincode, the warnings, then the events. Numbers are
//! LEB128 varints (times zigzag-encoded). Every string goes through a table: its first use writes
//! its index followed by its bytes, later uses only the index, so a name repeated across thousands
//! of events is written once. A 5,000-node zone outage (about 93,000 events) encodes to a few MB.

use crate::cause::{Arg, Cause};
use crate::outcome::{Outcome, TimelineEvent};
use crate::summary::{NodeMilestones, Summary};
use crate::time::Millis;
use crate::timeline::{EventKind, ZoneState};
use serde::de::value::{Error as ValueError, StrDeserializer};
use serde::de::IntoDeserializer;
use serde::Deserialize;
use std::collections::BTreeSet;
use std::sync::Mutex;

const MAGIC: &[u8; 4] = b"KLW2";

/// A [`Summary`] in bincode, the codec the page's workers already carry (gloo-worker's
/// messages), so that reading a run needs no JSON parser. Its fields go as one tuple, every one
/// written: the summary's own serde form leaves empty lists out, as its JSON does, and bincode
/// cannot read a field it cannot see. A node's milestones go as a tuple of the fields every run
/// has; the milestones only a cloud or a remediator gives (`deletedAtMs`, `remediationAtMs`)
/// follow the tuple as a list of the nodes that have them, written only when there are some, so
/// a run without them is written as before.
fn summary_bytes(s: &Summary) -> Vec<u8> {
    let Summary {
        version,
        seed,
        duration_ms,
        api_writes,
        nodes,
        workloads,
        services,
        volumes,
        #[cfg(feature = "clients")]
        clients,
    } = s;
    let node_fields: Vec<NodeFields> = nodes.iter().map(node_fields).collect();
    let fields = (
        version,
        seed,
        duration_ms,
        api_writes,
        node_fields,
        workloads,
        services,
        volumes,
    );
    let mut out = bincode::serialize(&fields).expect("a Summary always serializes");
    let extras: Vec<NodeExtras> = nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.deleted_at_ms.is_some() || n.remediation_at_ms.is_some())
        .map(|(i, n)| (i as u64, n.deleted_at_ms, n.remediation_at_ms))
        .collect();
    #[cfg(feature = "clients")]
    let has_clients = !clients.is_empty();
    #[cfg(not(feature = "clients"))]
    let has_clients = false;
    if !extras.is_empty() || has_clients {
        out.extend(bincode::serialize(&extras).expect("extras always serialize"));
    }
    #[cfg(feature = "clients")]
    if has_clients {
        out.extend(bincode::serialize(clients).expect("clients always serialize"));
    }
    out
}

/// A node's milestones that every run has, in order.
type NodeFields = (
    String,
    String,
    Option<Millis>,
    Option<Millis>,
    Option<Millis>,
    Option<Millis>,
    Option<Millis>,
    Option<Millis>,
    Option<Millis>,
    Option<Millis>,
    Option<Millis>,
    u32,
    u32,
);

/// A node's index and its `deletedAtMs` and `remediationAtMs`.
type NodeExtras = (u64, Option<Millis>, Option<Millis>);

fn node_fields(n: &NodeMilestones) -> NodeFields {
    (
        n.node.clone(),
        n.zone.clone(),
        n.fault_at_ms,
        n.unknown_at_ms,
        n.pods_not_ready_at_ms,
        n.last_pod_not_ready_at_ms,
        n.taint_at_ms,
        n.first_deletion_at_ms,
        n.last_deletion_at_ms,
        n.first_replacement_ready_at_ms,
        n.replacements_ready_at_ms,
        n.pods_deleted,
        n.pods_replaced,
    )
}

fn node_from(f: NodeFields) -> NodeMilestones {
    NodeMilestones {
        node: f.0,
        zone: f.1,
        fault_at_ms: f.2,
        unknown_at_ms: f.3,
        pods_not_ready_at_ms: f.4,
        last_pod_not_ready_at_ms: f.5,
        taint_at_ms: f.6,
        first_deletion_at_ms: f.7,
        last_deletion_at_ms: f.8,
        first_replacement_ready_at_ms: f.9,
        replacements_ready_at_ms: f.10,
        pods_deleted: f.11,
        pods_replaced: f.12,
        deleted_at_ms: None,
        remediation_at_ms: None,
    }
}

/// The summary [`summary_bytes`] wrote.
fn summary_from(bytes: &[u8]) -> Result<Summary, String> {
    let mut rest = bytes;
    type Fields = (
        String,
        u64,
        Millis,
        crate::summary::ApiWrites,
        Vec<NodeFields>,
        Vec<crate::summary::WorkloadSummary>,
        Vec<crate::summary::ServiceSummary>,
        Vec<crate::summary::VolumeSummary>,
    );
    let (version, seed, duration_ms, api_writes, node_fields, workloads, services, volumes): Fields =
        bincode::deserialize_from(&mut rest).map_err(|e| format!("summary: {e}"))?;
    let mut nodes: Vec<NodeMilestones> = node_fields.into_iter().map(node_from).collect();
    if !rest.is_empty() {
        let extras: Vec<NodeExtras> = bincode::deserialize_from(&mut rest).map_err(|e| format!("summary: {e}"))?;
        let count = nodes.len();
        for (i, deleted, remediation) in extras {
            let n = nodes
                .get_mut(i as usize)
                .ok_or_else(|| format!("summary: node {i} of {count}"))?;
            n.deleted_at_ms = deleted;
            n.remediation_at_ms = remediation;
        }
    }
    #[cfg(feature = "clients")]
    let clients = match rest.is_empty() {
        true => Vec::new(),
        false => bincode::deserialize(rest).map_err(|e| format!("summary: {e}"))?,
    };
    Ok(Summary {
        version,
        seed,
        duration_ms,
        api_writes,
        nodes,
        workloads,
        services,
        volumes,
        #[cfg(feature = "clients")]
        clients,
    })
}

/// Encodes `o`.
pub fn encode(o: &Outcome) -> Vec<u8> {
    let mut w = Writer::default();
    w.out.extend_from_slice(MAGIC);
    let summary = summary_bytes(&o.summary);
    w.uint(summary.len() as u64);
    w.out.extend_from_slice(&summary);
    w.uint(o.warnings.len() as u64);
    for c in &o.warnings {
        w.cause(c);
    }
    w.uint(o.events.len() as u64);
    for e in &o.events {
        w.event(e);
    }
    w.out
}

/// Decodes what [`encode`] wrote; a message names what was malformed.
pub fn decode(bytes: &[u8]) -> Result<Outcome, String> {
    let mut d = Decoder::new(bytes.to_vec())?;
    while !d.step(usize::MAX)? {}
    d.finish()
}

const MESSAGES: &[u8; 4] = b"KLM1";

/// Encodes a list of messages, each with a small tag of the caller's (an import report's entry
/// kind, an export's format), keeping every cause's key and arguments as [`encode`] does.
pub fn encode_messages(messages: &[(u8, Cause)]) -> Vec<u8> {
    let mut w = Writer::default();
    w.out.extend_from_slice(MESSAGES);
    w.uint(messages.len() as u64);
    for (tag, c) in messages {
        w.uint(u64::from(*tag));
        w.cause(c);
    }
    w.out
}

/// Decodes what [`encode_messages`] wrote; a message names what was malformed.
pub fn decode_messages(bytes: &[u8]) -> Result<Vec<(u8, Cause)>, String> {
    let mut state = State::default();
    let mut r = Reader { bytes, st: &mut state };
    if r.take(4)? != MESSAGES {
        return Err("not a list of kubelife messages (bad magic)".into());
    }
    let messages = (0..r.len()?)
        .map(|_| {
            let tag = u8::try_from(r.uint()?).map_err(|_| "tag out of range".to_string())?;
            Ok((tag, r.cause(0)?))
        })
        .collect::<Result<Vec<_>, String>>()?;
    if state.at != bytes.len() {
        return Err(format!("{} bytes left over", bytes.len() - state.at));
    }
    Ok(messages)
}

/// One message as a field of a serde type (`#[serde(with = "crate::wire::message")]`): in JSON
/// `{"key", "text"}`, the catalogue's key and the English text; between the page's workers
/// (bincode) in this wire form, keeping its arguments, so the page can show it in its own
/// language. It reads back only from the wire form: the JSON form's text cannot give the
/// arguments back.
pub mod message {
    use crate::cause::Cause;
    use serde::de::Error as _;
    use serde::ser::SerializeStruct;
    use serde::{Deserializer, Serializer};

    /// Writes `c`.
    pub fn serialize<S: Serializer>(c: &Cause, s: S) -> Result<S::Ok, S::Error> {
        if !s.is_human_readable() {
            return s.serialize_bytes(&super::encode_messages(&[(0, c.clone())]));
        }
        let mut st = s.serialize_struct("Message", 2)?;
        st.serialize_field("key", c.key)?;
        st.serialize_field("text", &c.english())?;
        st.end()
    }

    /// Reads what [`serialize`] wrote in the wire form.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Cause, D::Error> {
        if d.is_human_readable() {
            return Err(D::Error::custom(
                "a message reads back only from the engine's wire form",
            ));
        }
        let bytes = bytes(d)?;
        let mut messages = super::decode_messages(&bytes).map_err(D::Error::custom)?;
        match messages.pop() {
            Some((_, c)) if messages.is_empty() => Ok(c),
            _ => Err(D::Error::custom("a field holds one message")),
        }
    }

    /// The bytes a serializer wrote with `serialize_bytes`.
    fn bytes<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        struct Bytes;
        impl serde::de::Visitor<'_> for Bytes {
            type Value = Vec<u8>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("bytes")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
                Ok(v.to_vec())
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<Vec<u8>, E> {
                Ok(v)
            }
        }
        d.deserialize_byte_buf(Bytes)
    }
}

/// A decode that can be done a few thousand events at a time, so that a page can read a large run
/// in several short tasks rather than one long one.
pub struct Decoder {
    bytes: Vec<u8>,
    state: State,
    outcome: Outcome,
    left: usize,
}

impl Decoder {
    /// Reads the magic, the summary and the warnings.
    pub fn new(bytes: Vec<u8>) -> Result<Decoder, String> {
        let mut state = State::default();
        let mut r = Reader {
            bytes: &bytes,
            st: &mut state,
        };
        if r.take(4)? != MAGIC {
            return Err("not a kubelife run (bad magic)".into());
        }
        let len = r.len()?;
        let summary = summary_from(r.take(len)?)?;
        let warnings = (0..r.len()?).map(|_| r.cause(0)).collect::<Result<_, _>>()?;
        let left = r.len()?;
        let events = Vec::with_capacity(left.min(bytes.len()));
        Ok(Decoder {
            bytes,
            state,
            outcome: Outcome {
                events,
                summary,
                warnings,
            },
            left,
        })
    }

    /// Reads up to `max` more events; true once every event is read.
    pub fn step(&mut self, max: usize) -> Result<bool, String> {
        let mut r = Reader {
            bytes: &self.bytes,
            st: &mut self.state,
        };
        for _ in 0..max.min(self.left) {
            let id = self.outcome.events.len();
            self.outcome.events.push(r.event(id)?);
            self.left -= 1;
        }
        Ok(self.left == 0)
    }

    /// The run, once [`Decoder::step`] said every event is read.
    pub fn finish(self) -> Result<Outcome, String> {
        if self.left > 0 {
            return Err(format!("{} events not read yet", self.left));
        }
        if self.state.at != self.bytes.len() {
            return Err(format!("{} bytes left over", self.bytes.len() - self.state.at));
        }
        Ok(self.outcome)
    }
}

/// Writes varints and table-indexed strings.
#[derive(Default)]
struct Writer {
    out: Vec<u8>,
    /// Each string's index.
    /// Each distinct string written, by its index (`names`: one hash per lookup).
    table: crate::names::Names<String>,
    /// Each event kind's index, by the kind's number.
    kinds: Vec<Option<u64>>,
}

impl Writer {
    fn uint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.out.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.out.push(v as u8);
    }

    fn int(&mut self, v: i64) {
        self.uint(((v << 1) ^ (v >> 63)) as u64);
    }

    fn str(&mut self, s: &str) {
        let (i, new) = self.table.index_with(s, || s.to_string());
        self.uint(i as u64);
        if new {
            self.uint(s.len() as u64);
            self.out.extend_from_slice(s.as_bytes());
        }
    }

    /// An optional string: 0 for none, else 1 and the string.
    fn opt(&mut self, s: Option<&str>) {
        match s {
            None => self.uint(0),
            Some(s) => {
                self.uint(1);
                self.str(s);
            }
        }
    }

    fn cause(&mut self, c: &Cause) {
        self.str(c.key);
        self.uint(c.args.len() as u64);
        for (name, a) in &c.args {
            self.str(name);
            match a {
                Arg::Text(s) => {
                    self.uint(0);
                    self.str(s);
                }
                Arg::Time(ms) => {
                    self.uint(1);
                    self.int(*ms);
                }
                Arg::Cause(c) => {
                    self.uint(2);
                    self.cause(c);
                }
            }
        }
    }

    /// An event kind, by its name's table index (the name is formatted once per kind).
    fn kind(&mut self, k: EventKind) {
        let n = k as usize;
        if self.kinds.len() <= n {
            self.kinds.resize(n + 1, None);
        }
        match self.kinds[n] {
            Some(i) => self.uint(i),
            None => {
                let name = k.to_string();
                self.str(&name);
                self.kinds[n] = self.table.get(&name).map(|i| i as u64);
            }
        }
    }

    fn event(&mut self, e: &TimelineEvent) {
        self.int(e.at_ms);
        self.kind(e.kind);
        self.opt(e.node.as_deref());
        self.opt(e.pod.as_deref());
        self.opt(e.taint.as_deref());
        self.opt(e.zone.as_deref());
        self.opt(e.state.map(|s| s.to_string()).as_deref());
        self.opt(e.service.as_deref());
        self.opt(e.volume.as_deref());
        if carries_remediator(e.kind) {
            self.opt(e.remediator.as_deref());
        }
        if e.kind.is_client() {
            self.opt(e.client.as_deref());
        }
        self.cause(&e.cause);
        // How far back the event before it is (0: none), which is short for most links.
        self.uint(e.after.map_or(0, |a| (e.id - a) as u64));
    }
}

/// Where a decode is: the read position and the string table.
#[derive(Default)]
struct State {
    at: usize,
    /// Each string's bytes, as a range of the input (checked to be UTF-8 when first read).
    table: Vec<(usize, usize)>,
    /// The table's entries as `&'static str`, once asked for (cause keys and argument names).
    statics: Vec<Option<&'static str>>,
    /// The table's entries as event kinds, once asked for.
    kinds: Vec<Option<EventKind>>,
}

/// Reads what [`Writer`] wrote.
struct Reader<'a> {
    bytes: &'a [u8],
    st: &'a mut State,
}

/// How deeply causes may nest before the input is refused (real causes nest two or three deep).
const MAX_DEPTH: u32 = 16;

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.st.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| format!("cut short at byte {}", self.st.at))?;
        let s = &self.bytes[self.st.at..end];
        self.st.at = end;
        Ok(s)
    }

    fn uint(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.take(1)?[0];
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(format!("varint too long at byte {}", self.st.at))
    }

    fn int(&mut self) -> Result<i64, String> {
        let v = self.uint()?;
        Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
    }

    /// A length or count, which can never exceed the bytes left.
    fn len(&mut self) -> Result<usize, String> {
        let n = self.uint()?;
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= self.bytes.len())
            .ok_or_else(|| format!("length {n} out of range at byte {}", self.st.at))
    }

    /// A string's table index, reading its bytes on first use.
    fn index(&mut self) -> Result<usize, String> {
        let i = self.len()?;
        if i < self.st.table.len() {
            return Ok(i);
        }
        if i > self.st.table.len() {
            return Err(format!("string {i} used before it was written"));
        }
        let n = self.len()?;
        let start = self.st.at;
        std::str::from_utf8(self.take(n)?).map_err(|e| e.to_string())?;
        self.st.table.push((start, start + n));
        self.st.statics.push(None);
        self.st.kinds.push(None);
        Ok(i)
    }

    /// Table entry `i` (its bytes were checked to be UTF-8 when it was read).
    fn entry(&self, i: usize) -> &'a str {
        let (from, to) = self.st.table[i];
        std::str::from_utf8(&self.bytes[from..to]).unwrap_or_default()
    }

    fn str(&mut self) -> Result<&'a str, String> {
        let i = self.index()?;
        Ok(self.entry(i))
    }

    fn opt(&mut self) -> Result<Option<&'a str>, String> {
        match self.uint()? {
            0 => Ok(None),
            1 => self.str().map(Some),
            t => Err(format!("bad option tag {t}")),
        }
    }

    fn static_str(&mut self) -> Result<&'static str, String> {
        let i = self.index()?;
        if let Some(s) = self.st.statics[i] {
            return Ok(s);
        }
        let s = intern(self.entry(i));
        self.st.statics[i] = Some(s);
        Ok(s)
    }

    fn cause(&mut self, depth: u32) -> Result<Cause, String> {
        if depth > MAX_DEPTH {
            return Err("causes nested too deeply".into());
        }
        let key = self.static_str()?;
        let n = self.len()?;
        let mut args = Vec::with_capacity(n.min(8));
        for _ in 0..n {
            let name = self.static_str()?;
            let arg = match self.uint()? {
                0 => Arg::Text(self.str()?.to_string()),
                1 => Arg::Time(self.int()? as Millis),
                2 => Arg::Cause(Box::new(self.cause(depth + 1)?)),
                t => return Err(format!("bad argument tag {t}")),
            };
            args.push((name, arg));
        }
        Ok(Cause { key, args })
    }

    fn event(&mut self, id: usize) -> Result<TimelineEvent, String> {
        let at_ms = self.int()?;
        let i = self.index()?;
        let kind = match self.st.kinds[i] {
            Some(k) => k,
            None => {
                let k = named::<EventKind>(self.entry(i))?;
                self.st.kinds[i] = Some(k);
                k
            }
        };
        let own = |s: Option<&str>| s.map(str::to_string);
        Ok(TimelineEvent {
            id,
            at_ms,
            kind,
            node: own(self.opt()?),
            pod: own(self.opt()?),
            taint: own(self.opt()?),
            zone: own(self.opt()?),
            state: self.opt()?.map(named::<ZoneState>).transpose()?,
            service: own(self.opt()?),
            volume: own(self.opt()?),
            remediator: match carries_remediator(kind) {
                true => own(self.opt()?),
                false => None,
            },
            client: match kind.is_client() {
                true => own(self.opt()?),
                false => None,
            },
            cause: self.cause(0)?,
            after: match self.uint()? {
                0 => None,
                back if back <= id as u64 => Some(id - back as usize),
                back => return Err(format!("event {id} names an event {back} before it, before the first")),
            },
        })
    }
}

/// Whether events of this kind carry a remediator (only those write it, so the other events'
/// bytes are as before).
fn carries_remediator(kind: EventKind) -> bool {
    matches!(kind, EventKind::RemediationStarted | EventKind::RemediationBlocked)
}

/// A unit enum variant by its name.
fn named<T: for<'de> Deserialize<'de>>(name: &str) -> Result<T, String> {
    let d: StrDeserializer<'_, ValueError> = name.into_deserializer();
    T::deserialize(d).map_err(|e| e.to_string())
}

/// The one `&'static str` for `s`. Cause keys and argument names are `&'static str` in the
/// engine; decoded ones are leaked once each and shared by every later decode, so memory stays
/// bounded by the catalogue's size however many runs are decoded.
fn intern(s: &str) -> &'static str {
    static SEEN: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&known) = seen.get(s) {
        return known;
    }
    let leaked: &'static str = Box::leak(s.to_string().into_boxed_str());
    seen.insert(leaked);
    leaked
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::RunOptions;

    fn outcome(json: &str) -> Outcome {
        crate::run::run_json(json, &RunOptions { heartbeats: true }).expect("valid scenario")
    }

    #[test]
    fn a_run_comes_back_whole() {
        let o = outcome(
            r#"{ "version": "1.32", "nodes": [{"name": "node-1", "zone": "zone-a"}, {"name": "node-2", "zone": "zone-b"}],
              "workloads": [{"kind": "Deployment", "name": "web", "replicas": 4, "service": true}],
              "events": [{"at": "60s", "action": "NodeCrash", "node": "node-1"}] }"#,
        );
        let bytes = encode(&o);
        assert_eq!(decode(&bytes), Ok(o.clone()));
        assert!(
            bytes.len() < o.to_json().len() / 3,
            "{} bytes against {} of JSON",
            bytes.len(),
            o.to_json().len()
        );
    }

    #[test]
    fn a_cloud_run_and_a_remediation_come_back_whole() {
        let mut o = outcome(
            r#"{ "version": "1.32", "cloud": {"provider": "aws"}, "nodes": [{"name": "node-1"}, {"name": "node-2"}],
              "workloads": [{"kind": "Deployment", "name": "web", "replicas": 2}],
              "events": [{"at": "60s", "action": "InstanceTerminated", "node": "node-1"}] }"#,
        );
        assert!(o.summary.nodes[0].deleted_at_ms.is_some());
        o.summary.nodes[0].remediation_at_ms = Some(90_000);
        let mut e = o.events[0].clone();
        e.id = o.events.len();
        e.kind = EventKind::RemediationBlocked;
        e.remediator = Some("KarpenterNodeRepair".to_string());
        o.events.push(e);
        assert_eq!(decode(&encode(&o)), Ok(o));
    }

    #[test]
    fn a_run_without_a_cloud_writes_no_extra_byte() {
        let o = outcome(
            r#"{ "version": "1.32", "nodes": [{"name": "node-1"}, {"name": "node-2"}],
              "events": [{"at": "60s", "action": "NodeCrash", "node": "node-1"}] }"#,
        );
        let fields = bincode::serialize(&(
            &o.summary.version,
            &o.summary.seed,
            &o.summary.duration_ms,
            &o.summary.api_writes,
            o.summary.nodes.iter().map(node_fields).collect::<Vec<_>>(),
            &o.summary.workloads,
            &o.summary.services,
            &o.summary.volumes,
        ))
        .unwrap();
        assert_eq!(summary_bytes(&o.summary), fields);
        // The page's run made ahead of time, written before clouds existed, reads the same.
        let page = include_bytes!("../../../src/first_run.wire");
        let read = decode(page).expect("the page's first run decodes");
        assert_eq!(encode(&read), page.to_vec());
    }

    #[test]
    fn every_preset_comes_back_whole() {
        for p in crate::presets::presets() {
            let cfg = p.scenario.resolve().expect("presets are valid");
            let o = crate::run::run(&cfg, &RunOptions::default());
            assert_eq!(decode(&encode(&o)).as_ref(), Ok(&o), "{}", p.name);
        }
    }

    #[test]
    fn a_decode_in_small_steps_reads_the_same_run() {
        let o = outcome(
            r#"{ "version": "1.32", "nodes": [{"name": "node-1"}, {"name": "node-2"}],
              "workloads": [{"kind": "Deployment", "name": "web", "replicas": 4}],
              "events": [{"at": "60s", "action": "NodeCrash", "node": "node-1"}] }"#,
        );
        let mut d = Decoder::new(encode(&o)).expect("a header");
        let mut steps = 0;
        while !d.step(7).expect("events") {
            steps += 1;
        }
        assert!(
            steps >= o.events.len() / 7 - 1,
            "{steps} steps for {} events",
            o.events.len()
        );
        assert_eq!(d.finish(), Ok(o));
    }

    #[test]
    fn messages_come_back_whole() {
        let nested = Cause::new("cause.part.zone").text("zone", "zone-b");
        let messages = vec![
            (
                0,
                Cause::new("cause.adc.detached")
                    .time("grace", 40_000)
                    .sub("why", nested),
            ),
            (6, Cause::none()),
        ];
        let bytes = encode_messages(&messages);
        assert_eq!(decode_messages(&bytes), Ok(messages));
        assert!(decode_messages(&bytes[..bytes.len() - 1]).is_err());
        assert!(decode_messages(b"KLW1").is_err());
        assert_eq!(decode_messages(&encode_messages(&[])), Ok(vec![]));
    }

    #[test]
    fn broken_input_is_refused_not_a_panic() {
        let o = outcome(r#"{ "version": "1.32", "nodes": [{"name": "node-1"}] }"#);
        let bytes = encode(&o);
        for cut in [0, 3, 4, 10, bytes.len() / 2, bytes.len() - 1] {
            assert!(decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut extra = bytes.clone();
        extra.push(0);
        assert!(decode(&extra).is_err());
        assert!(decode(b"KLW1\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff").is_err());
    }
}
