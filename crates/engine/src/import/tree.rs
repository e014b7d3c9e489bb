//! Builds the values of a YAML or JSON document for the import, straight from the parser
//! (serde_yaml_ng or serde_json), under the limits of [`super::limits`]:
//!
//! - every node built is counted, and a string's bytes are counted before it is copied, so that
//!   YAML aliases repeating a large anchor are refused before they take memory
//!   ([`MAX_NODES`], [`ALIAS_EXTRA_NODES`], [`ALIAS_EXTRA_TEXT`]);
//! - nesting deeper than [`MAX_DEPTH`] is refused as it is reached;
//! - the parts of an object nothing reads (`status.images`, `metadata.managedFields`,
//!   `metadata.annotations`) are parsed but not built;
//! - a key given twice in one mapping keeps its last value, as Go's `encoding/json` and the
//!   kubelet's and kubeadm's lenient decoding do, one rule for YAML and JSON, and is reported;
//! - YAML merge keys (`<<: *base`) are applied: the mapping's own keys win, then the merged
//!   mappings in order (the YAML 1.1 merge type, which Kubernetes' YAML reader applies).

use super::limits::{ALIAS_EXTRA_NODES, ALIAS_EXTRA_TEXT, MAX_DEPTH, MAX_NODES};
use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

/// The most duplicate keys listed; the rest are counted.
pub const MAX_DUPLICATES: usize = 10;

/// A limit a document crossed while it was built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Crossed {
    /// Nesting deeper than [`MAX_DEPTH`].
    Depth,
    /// More nodes than [`MAX_NODES`].
    Nodes,
    /// More than the file's size plus the alias allowance.
    Aliases,
}

/// A key found twice in one mapping: where (keys and indexes from the document's top) and which.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// The mapping's place, outermost first.
    pub path: Vec<String>,
    /// The key.
    pub key: String,
}

/// What building one file's documents counts and finds.
#[derive(Debug)]
pub struct Budget {
    nodes: usize,
    text: usize,
    node_limit: usize,
    text_limit: usize,
    /// Whether `<<` is YAML's merge key (not in JSON).
    merge: bool,
    /// The limit crossed, once one is.
    pub crossed: Option<Crossed>,
    /// The first [`MAX_DUPLICATES`] duplicate keys.
    pub duplicates: Vec<Duplicate>,
    /// How many duplicate keys there are in all.
    pub duplicate_count: usize,
    /// How many merge keys had a value that is neither a mapping nor a list of them.
    pub bad_merges: usize,
    /// The YAML tags Kubernetes ignores, with their line (the first few), and how many in all:
    /// found by the scan, reported with the rest.
    pub tags: (Vec<(usize, String)>, usize),
}

impl Budget {
    /// The budget of a file `bytes` long; `yaml` when it is read as YAML.
    pub fn new(bytes: usize, yaml: bool) -> Budget {
        Budget {
            nodes: 0,
            text: 0,
            node_limit: (bytes.saturating_add(ALIAS_EXTRA_NODES)).min(MAX_NODES),
            text_limit: bytes.saturating_add(ALIAS_EXTRA_TEXT),
            merge: yaml,
            crossed: None,
            duplicates: Vec::new(),
            duplicate_count: 0,
            bad_merges: 0,
            tags: (Vec::new(), 0),
        }
    }

    fn cross<E: de::Error>(&mut self, c: Crossed) -> E {
        self.crossed.get_or_insert(c);
        E::custom(LIMIT_MESSAGE)
    }

    fn node<E: de::Error>(&mut self) -> Result<(), E> {
        self.nodes += 1;
        match self.nodes > self.node_limit {
            true if self.node_limit == MAX_NODES => Err(self.cross(Crossed::Nodes)),
            true => Err(self.cross(Crossed::Aliases)),
            false => Ok(()),
        }
    }

    fn text<E: de::Error>(&mut self, len: usize) -> Result<(), E> {
        self.node()?;
        self.text += len;
        match self.text > self.text_limit {
            true => Err(self.cross(Crossed::Aliases)),
            false => Ok(()),
        }
    }
}

/// The error of a mapping or a sequence used as a key (`? [a, b]: c`).
pub const COMPLEX_KEY: &str = "a mapping or a sequence used as a key, which Kubernetes' YAML reader refuses";

/// The error text a crossed limit gives the parser (the report says which limit instead).
pub const LIMIT_MESSAGE: &str = "kubelife import limit";

/// Which parts of an object are skipped: where the builder is, relative to the object's
/// `metadata` or `status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Under {
    Other,
    Metadata,
    Status,
}

/// Builds one value.
pub struct Build<'b> {
    budget: &'b mut Budget,
    depth: usize,
    under: Under,
}

impl<'b> Build<'b> {
    /// A document's top.
    pub fn top(budget: &'b mut Budget) -> Build<'b> {
        Build {
            budget,
            depth: 0,
            under: Under::Other,
        }
    }

    fn child(&mut self, under: Under) -> Build<'_> {
        Build {
            budget: &mut *self.budget,
            depth: self.depth + 1,
            under,
        }
    }

    /// Gives the duplicates found inside the value at `segment` their place.
    fn place(&mut self, from: usize, segment: impl Fn() -> String) {
        for d in &mut self.budget.duplicates[from..] {
            d.path.insert(0, segment());
        }
    }
}

impl<'de> DeserializeSeed<'de> for Build<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Build<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a YAML or JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        self.budget.node()?;
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        self.budget.node()?;
        Ok(Value::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        self.budget.node()?;
        Ok(Value::from(v))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<Value, E> {
        self.visit_f64(v as f64)
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<Value, E> {
        self.visit_f64(v as f64)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        self.budget.node()?;
        Ok(serde_json::Number::from_f64(v).map_or_else(|| Value::String(yaml_float(v)), Value::Number))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        self.budget.text(v.len())?;
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        self.budget.text(v.len())?;
        Ok(Value::String(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        self.budget.node()?;
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        self.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Value, A::Error> {
        self.open::<A::Error>()?;
        let mut items = Vec::new();
        loop {
            let from = self.budget.duplicates.len();
            let Some(item) = seq.next_element_seed(self.child(Under::Other))? else {
                break;
            };
            let index = items.len();
            self.place(from, || format!("[{index}]"));
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Value, A::Error> {
        self.open::<A::Error>()?;
        let mut object = Map::new();
        let mut merged = Vec::new();
        while let Some(key) = map.next_key_seed(self.child(Under::Other).key())? {
            if skipped(self.under, &key) {
                map.next_value::<de::IgnoredAny>()?;
                continue;
            }
            let under = match key.as_str() {
                "metadata" => Under::Metadata,
                "status" => Under::Status,
                _ => Under::Other,
            };
            let from = self.budget.duplicates.len();
            let value = map.next_value_seed(self.child(under))?;
            self.place(from, || key.clone());
            if key == "<<" && self.budget.merge {
                merged.push(value);
                continue;
            }
            if object.insert(key.clone(), value).is_some() {
                self.duplicate(key);
            }
        }
        for m in merged {
            self.merge(&mut object, m);
        }
        Ok(Value::Object(object))
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        // A YAML node with a local tag (`!Ref 20`): the tag is reported by the scan, and the
        // value read as if it had none, as Kubernetes' YAML reader (go-yaml) does.
        let (_tag, variant) = data.variant::<de::IgnoredAny>()?;
        variant.newtype_variant_seed(self)
    }
}

impl Build<'_> {
    fn open<E: de::Error>(&mut self) -> Result<(), E> {
        self.budget.node()?;
        match self.depth >= MAX_DEPTH {
            true => Err(self.budget.cross(Crossed::Depth)),
            false => Ok(()),
        }
    }

    fn duplicate(&mut self, key: String) {
        self.budget.duplicate_count += 1;
        if self.budget.duplicates.len() < MAX_DUPLICATES {
            self.budget.duplicates.push(Duplicate { path: Vec::new(), key });
        }
    }

    /// Applies a merge key's value: a mapping, or a list of mappings (earlier ones first).
    fn merge(&mut self, object: &mut Map<String, Value>, value: Value) {
        let maps = match value {
            Value::Object(m) => vec![m],
            Value::Array(items) if items.iter().all(Value::is_object) => items
                .into_iter()
                .filter_map(|v| match v {
                    Value::Object(m) => Some(m),
                    _ => None,
                })
                .collect(),
            _ => {
                self.budget.bad_merges += 1;
                return;
            }
        };
        for m in maps {
            for (k, v) in m {
                object.entry(k).or_insert(v);
            }
        }
    }
}

/// Whether a key's value is one nothing reads: an object's images, managed fields and
/// annotations.
fn skipped(under: Under, key: &str) -> bool {
    match under {
        Under::Metadata => matches!(key, "managedFields" | "annotations"),
        Under::Status => key == "images",
        Under::Other => false,
    }
}

/// A float JSON cannot hold, as YAML writes it.
fn yaml_float(v: f64) -> String {
    match v {
        v if v.is_nan() => ".nan".to_string(),
        v if v > 0.0 => ".inf".to_string(),
        _ => "-.inf".to_string(),
    }
}

/// A mapping key as text: YAML keys may be numbers, booleans or null (`1: a`), which JSON
/// writes as text, as `yaml.YAMLToJSON` does.
struct Key<'b>(Build<'b>);

impl<'b> Build<'b> {
    fn key(self) -> Key<'b> {
        Key(self)
    }
}

impl<'de> DeserializeSeed<'de> for Key<'_> {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        match self.0.deserialize(d)? {
            Value::String(s) => Ok(s),
            Value::Null => Ok("null".to_string()),
            // `yaml.YAMLToJSON` refuses a mapping or a sequence as a key ("invalid map key"); as
            // text, each level would escape the one inside it, doubling its length.
            Value::Array(_) | Value::Object(_) => Err(de::Error::custom(COMPLEX_KEY)),
            other => Ok(other.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(text: &str) -> (Result<Value, String>, Budget) {
        let mut budget = Budget::new(text.len(), true);
        let de = serde_yaml_ng::Deserializer::from_str(text);
        let v = Build::top(&mut budget).deserialize(de).map_err(|e| e.to_string());
        (v, budget)
    }

    fn json(text: &str) -> (Result<Value, String>, Budget) {
        let mut budget = Budget::new(text.len(), false);
        let mut de = serde_json::Deserializer::from_str(text);
        let v = Build::top(&mut budget).deserialize(&mut de).map_err(|e| e.to_string());
        (v, budget)
    }

    #[test]
    fn a_key_given_twice_keeps_its_last_value_in_yaml_and_json_alike() {
        let (v, b) = yaml("a: 1\nb:\n  - {c: 1, c: 2}\na: 3\n");
        assert_eq!(v.unwrap(), serde_json::json!({"a": 3, "b": [{"c": 2}]}));
        let paths: Vec<(Vec<String>, String)> = b.duplicates.into_iter().map(|d| (d.path, d.key)).collect();
        assert_eq!(
            paths,
            [(vec!["b".into(), "[0]".into()], "c".into()), (vec![], "a".into())]
        );
        let (v, b) = json(r#"{"a": 1, "a": 2}"#);
        assert_eq!((v.unwrap(), b.duplicate_count), (serde_json::json!({"a": 2}), 1));
    }

    #[test]
    fn aliases_are_expanded_within_their_budget() {
        let (v, _) = yaml("base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  y: 3\nl: [*b, *b]\n");
        let v = v.unwrap();
        assert_eq!(v["m"], serde_json::json!({"x": 1, "y": 3}));
        assert_eq!(v["l"][1]["y"], 2);
        let big = format!("a: &s {}\nb: [{}]\n", "x".repeat(1 << 20), vec!["*s"; 4000].join(", "));
        let (v, b) = yaml(&big);
        assert!(v.is_err());
        assert_eq!(b.crossed, Some(Crossed::Aliases));
        let mut laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n".to_string();
        for (i, name) in ["b", "c", "d", "e", "f", "g", "h", "i"].iter().enumerate() {
            let prev = ["a", "b", "c", "d", "e", "f", "g", "h"][i];
            laughs += &format!("{name}: &{name} [{}]\n", vec![format!("*{prev}"); 10].join(", "));
        }
        assert_eq!(yaml(&laughs).1.crossed, Some(Crossed::Aliases));
    }

    #[test]
    fn skips_what_nothing_reads_and_refuses_depth() {
        let (v, _) = json(
            r#"{"metadata": {"name": "n", "managedFields": [1], "annotations": {"a": "b"}}, "status": {"images": [{"names": ["x"]}], "nodeInfo": {}}}"#,
        );
        assert_eq!(
            v.unwrap(),
            serde_json::json!({"metadata": {"name": "n"}, "status": {"nodeInfo": {}}})
        );
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        let (v, b) = json(&deep);
        assert!(v.is_err());
        assert_eq!(b.crossed, Some(Crossed::Depth));
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(json(&ok).0.is_ok());
    }

    #[test]
    fn a_collection_as_a_key_is_refused_not_written_out() {
        let nested = format!("{}x\n", "? ".repeat(60));
        let (v, _) = yaml(&nested);
        assert!(v.unwrap_err().starts_with(COMPLEX_KEY));
        assert_eq!(
            yaml("1: a\ntrue: b\n~: c\n").0.unwrap(),
            serde_json::json!({"1": "a", "true": "b", "null": "c"})
        );
    }

    #[test]
    fn tags_are_read_through() {
        let (v, _) = yaml("a: !Ref 20\nb: !!python/object/new:str 4s\nc: !!str 5\nd: !Custom {x: 1}\n");
        assert_eq!(
            v.unwrap(),
            serde_json::json!({"a": 20, "b": "4s", "c": "5", "d": {"x": 1}})
        );
    }
}
