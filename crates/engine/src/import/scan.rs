//! A cheap pass over YAML text before the parser sees it: one look at each byte, no allocation.
//! It refuses nesting deeper than [`MAX_DEPTH`] and more than [`MAX_YAML_NODES`] nodes before
//! libyaml runs (libyaml's scanner looks at every open flow collection for each token, so
//! `a: [[[[…` costs the square of its depth, and the parser keeps every event of a document),
//! and it finds the YAML tags that Kubernetes' YAML reader ignores.
//!
//! It knows YAML's tokens well enough to skip what is text: quoted scalars, comments, block
//! scalars (`|`, `>`) and plain scalars. Flow collections (`[`, `{`) are counted exactly; block
//! nesting is the stack of indentations plus the `- ` and `? ` indicators that open a line,
//! which can only count less than the parser does, never more: a deep block file the scan lets
//! through meets serde's own limit (128) after a linear parse.

use super::limits::{MAX_DEPTH, MAX_YAML_NODES};

/// The most tags a scan lists; the rest are counted.
pub const MAX_TAGS: usize = 10;

/// Why a scan stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// Nesting deeper than [`MAX_DEPTH`].
    Depth,
    /// More than [`MAX_YAML_NODES`] nodes.
    Nodes,
}

/// A limit crossed: which, on which line (from 1), and where the document holding it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused {
    /// The limit.
    pub limit: Limit,
    /// The line where it was crossed.
    pub line: usize,
    /// The byte offset where that line's document starts: the text before it can be read.
    pub document_start: usize,
}

/// What a scan found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scan {
    /// The nodes counted (scalars, aliases, collections; a rough count, for the budget).
    pub nodes: usize,
    /// The deepest nesting seen.
    pub depth: usize,
    /// The first [`MAX_TAGS`] tags that are not YAML's core schema, with their line.
    pub tags: Vec<(usize, String)>,
    /// How many such tags there are in all.
    pub tag_count: usize,
    /// The limit crossed, if any (the scan stops there).
    pub refused: Option<Refused>,
}

/// The tags of YAML's core schema (and the failsafe schema's `!!map` and `!!seq`), which the
/// parser resolves: `!!str 5` is the text "5". `!` alone means "not resolved": text.
const CORE_TAGS: [&str; 8] = ["!", "!!str", "!!int", "!!float", "!!bool", "!!null", "!!map", "!!seq"];

fn is_core(tag: &str) -> bool {
    CORE_TAGS.contains(&tag)
        || tag
            .strip_prefix("!<tag:yaml.org,2002:")
            .and_then(|t| t.strip_suffix('>'))
            .is_some_and(|t| CORE_TAGS.contains(&format!("!!{t}").as_str()))
}

/// Where the scanner is between lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Carry {
    /// Nothing open.
    None,
    /// Inside a quoted scalar that goes on (the quote character).
    Quoted(u8),
    /// Inside a block scalar whose lines are indented more than this.
    Block(usize),
}

struct Scanner {
    scan: Scan,
    flow: usize,
    indents: Vec<usize>,
    carry: Carry,
    document_start: usize,
    line: usize,
}

/// What the scanner knows of the line it is in.
#[derive(Default)]
struct Line {
    /// The line's indentation, until a block indicator (`- `, `? `, `key:`) on it makes it a
    /// level of block nesting.
    pending: Option<usize>,
    /// The `- ` and `? ` indicators after the line's first: each opens a collection.
    inline: usize,
    /// Whether a node may start here.
    at_node: bool,
    /// The line's indentation, for a block scalar's content.
    indent: usize,
}

/// Scans `text`.
pub fn scan(text: &str) -> Scan {
    let mut s = Scanner {
        scan: Scan::default(),
        flow: 0,
        indents: Vec::new(),
        carry: Carry::None,
        document_start: 0,
        line: 0,
    };
    let mut offset = 0;
    for line in text.as_bytes().split_inclusive(|&b| b == b'\n') {
        s.line += 1;
        s.read_line(line, offset);
        if s.scan.refused.is_some() {
            break;
        }
        offset += line.len();
    }
    s.scan
}

fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// Whether the byte at `i` is followed by a blank or the end of the line.
fn blank_after(line: &[u8], i: usize) -> bool {
    line.get(i + 1).is_none_or(|&b| is_blank(b))
}

impl Scanner {
    fn read_line(&mut self, line: &[u8], offset: usize) {
        let mut start = 0;
        let mut closed_quote = false;
        match self.carry {
            Carry::Quoted(q) => match self.quoted(line, 0, q) {
                Some(end) => {
                    self.carry = Carry::None;
                    start = end;
                    closed_quote = true;
                }
                None => return,
            },
            Carry::Block(indent) => match line.iter().position(|&b| !is_blank(b)) {
                Some(c) if c <= indent => self.carry = Carry::None,
                _ => return,
            },
            Carry::None => {}
        }
        if start == 0 && self.document_marker(line, offset) {
            start = 3;
        } else if start == 0 && line.first() == Some(&b'%') {
            return;
        }
        let indent = start + line[start..].iter().take_while(|&&b| b == b' ').count();
        if indent >= line.len() || matches!(line[indent], b'#' | b'\r' | b'\n') {
            return;
        }
        let mut at = Line {
            at_node: !closed_quote,
            indent,
            ..Line::default()
        };
        if self.flow == 0 && start == 0 {
            while self.indents.last().is_some_and(|&top| top > indent) {
                self.indents.pop();
            }
            at.pending = Some(indent);
        }
        self.tokens(line, indent, &mut at);
    }

    /// A `---` or `...` line: a new document, whose nesting starts afresh.
    fn document_marker(&mut self, line: &[u8], offset: usize) -> bool {
        let marker = (line.starts_with(b"---") || line.starts_with(b"...")) && blank_after(line, 2);
        if marker {
            self.flow = 0;
            self.indents.clear();
            self.document_start = offset;
        }
        marker
    }

    fn refuse(&mut self, limit: Limit) {
        if self.scan.refused.is_none() {
            self.scan.refused = Some(Refused {
                limit,
                line: self.line,
                document_start: self.document_start,
            });
        }
    }

    fn count_node(&mut self) {
        self.scan.nodes += 1;
        if self.scan.nodes > MAX_YAML_NODES {
            self.refuse(Limit::Nodes);
        }
    }

    fn check_depth(&mut self, at: &Line) {
        let depth = self.indents.len() + at.inline + self.flow;
        self.scan.depth = self.scan.depth.max(depth);
        if depth > MAX_DEPTH {
            self.refuse(Limit::Depth);
        }
    }

    /// A block indicator on the line: the first makes the line's indentation a level of block
    /// nesting, each later one opens a collection of its own.
    fn block_indicator(&mut self, at: &mut Line, opens: bool) {
        match at.pending.take() {
            Some(indent) if self.indents.last() != Some(&indent) => self.indents.push(indent),
            Some(_) => {}
            None if opens => at.inline += 1,
            None => {}
        }
        self.check_depth(at);
    }

    /// The tokens of a line from `i`.
    fn tokens(&mut self, line: &[u8], mut i: usize, at: &mut Line) {
        while i < line.len() && self.scan.refused.is_none() {
            let b = line[i];
            if is_blank(b) {
                i += 1;
                continue;
            }
            if b == b'#' && (i == 0 || is_blank(line[i - 1])) {
                return;
            }
            i = match at.at_node {
                true => match self.node_start(line, i, at) {
                    Some(next) => next,
                    None => return,
                },
                false => self.after_node(line, i, at),
            };
        }
    }

    /// A token where a node may start; gives where to go on, or `None` when the rest of the
    /// line is not YAML structure (a block scalar's header, an open quote).
    fn node_start(&mut self, line: &[u8], i: usize, at: &mut Line) -> Option<usize> {
        let b = line[i];
        at.at_node = false;
        match b {
            b'-' | b'?' if self.flow == 0 && blank_after(line, i) => {
                // An entry's node is counted where it starts; one with nothing after it on its
                // line (null, or a block below) here.
                if line[i + 1..].iter().all(|&b| is_blank(b)) {
                    self.count_node();
                }
                self.block_indicator(at, true);
                at.at_node = true;
                Some(i + 1)
            }
            b'[' | b'{' => {
                self.flow += 1;
                self.count_node();
                self.check_depth(at);
                at.at_node = true;
                Some(i + 1)
            }
            b']' | b'}' if self.flow > 0 => {
                self.flow -= 1;
                Some(i + 1)
            }
            b',' if self.flow > 0 => {
                at.at_node = true;
                Some(i + 1)
            }
            b'"' | b'\'' => {
                self.count_node();
                let end = self.quoted(line, i + 1, b);
                if end.is_none() {
                    self.carry = Carry::Quoted(b);
                }
                end
            }
            b'|' | b'>' if self.flow == 0 => {
                self.count_node();
                self.carry = Carry::Block(at.indent);
                None
            }
            b'!' | b'&' => {
                let end = self.word_end(line, i);
                if b == b'!' {
                    self.tag(&line[i..end]);
                }
                at.at_node = true;
                Some(end)
            }
            b'*' => {
                self.count_node();
                Some(self.word_end(line, i))
            }
            b':' if blank_after(line, i) || self.flow > 0 => Some(self.after_node(line, i, at)),
            _ => {
                self.count_node();
                Some(self.plain_end(line, i))
            }
        }
    }

    /// A token after a node: a value indicator, a separator, the end of a flow collection.
    fn after_node(&mut self, line: &[u8], i: usize, at: &mut Line) -> usize {
        match line[i] {
            b':' if blank_after(line, i) || self.flow > 0 => {
                at.at_node = true;
                if self.flow == 0 {
                    self.block_indicator(at, false);
                }
                // `key:` alone on its line: its value (null, or a block below) is a node.
                if line[i + 1..].iter().all(|&b| is_blank(b)) {
                    self.count_node();
                }
            }
            b',' if self.flow > 0 => at.at_node = true,
            b']' | b'}' if self.flow > 0 => self.flow -= 1,
            _ => {}
        }
        i + 1
    }

    /// The end of a quoted scalar opened before `from`, or `None` when it goes on past the line.
    fn quoted(&self, line: &[u8], from: usize, quote: u8) -> Option<usize> {
        let mut i = from;
        while i < line.len() {
            match line[i] {
                b'\\' if quote == b'"' => i += 2,
                b'\'' if quote == b'\'' && line.get(i + 1) == Some(&b'\'') => i += 2,
                b if b == quote => return Some(i + 1),
                _ => i += 1,
            }
        }
        None
    }

    /// The end of an anchor, alias or tag: the next blank (or flow indicator, in a flow
    /// collection).
    fn word_end(&self, line: &[u8], i: usize) -> usize {
        let mut j = i + 1;
        while j < line.len()
            && !is_blank(line[j])
            && !(self.flow > 0 && matches!(line[j], b',' | b'[' | b']' | b'{' | b'}'))
        {
            j += 1;
        }
        j
    }

    /// The end of a plain scalar: before `: `, ` #`, the line's end, or (in a flow collection)
    /// a flow indicator.
    fn plain_end(&self, line: &[u8], i: usize) -> usize {
        let mut j = i + 1;
        while j < line.len() {
            let b = line[j];
            let ends = match b {
                b':' => blank_after(line, j) || (self.flow > 0 && matches!(line.get(j + 1), Some(b',' | b']' | b'}'))),
                b'#' => is_blank(line[j - 1]),
                b',' | b'[' | b']' | b'{' | b'}' => self.flow > 0,
                b'\n' | b'\r' => true,
                _ => false,
            };
            if ends {
                return j;
            }
            j += 1;
        }
        j
    }

    fn tag(&mut self, tag: &[u8]) {
        let tag = String::from_utf8_lossy(tag);
        if is_core(&tag) {
            return;
        }
        self.scan.tag_count += 1;
        if self.scan.tags.len() < MAX_TAGS {
            self.scan.tags.push((self.line, tag.into_owned()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_flow_nesting_exactly_and_refuses_it_early() {
        let deep = format!("a: {}", "[".repeat(200_000));
        let s = scan(&deep);
        assert_eq!(s.refused.map(|r| (r.limit, r.line)), Some((Limit::Depth, 1)));
        assert_eq!(scan("a: [[1], {b: [2]}]\n").depth, 4);
        assert_eq!(scan("[x]\n").depth, 1);
        assert_eq!(scan("- - - x\n").depth, 3);
        assert_eq!(scan("a:\n  b:\n    c: [x]\n").depth, 4);
    }

    #[test]
    fn text_is_not_structure() {
        let text =
            "a: \"[[[[\" # [[[[\nb: '[['' [['\nc: |\n  [[[[[[\n  {{{{\nd: x[[[y\ne: \"open\n  [[[ still text\"\n";
        let s = scan(text);
        assert_eq!((s.depth, s.refused), (1, None), "{s:?}");
        let many = format!("k: |\n{}", "  [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n".repeat(10));
        assert_eq!(scan(&many).refused, None);
    }

    #[test]
    fn a_later_document_starts_afresh_and_the_earlier_ones_can_be_kept() {
        let text = format!("a: [1\n---\nkind: Node\n---\nb: {}\n", "{".repeat(100));
        let r = scan(&text).refused.unwrap();
        assert_eq!((r.limit, r.line), (Limit::Depth, 5));
        assert_eq!(&text[..r.document_start], "a: [1\n---\nkind: Node\n");
    }

    #[test]
    fn finds_tags_kubernetes_ignores() {
        let s = scan("a: !!python/object/new:str 4s\nb: !Ref 20\nc: !!str 5\nd: \"!x\"\ne: hello!world\nf: !<tag:yaml.org,2002:int> 3\n");
        assert_eq!(
            s.tags,
            [(1, "!!python/object/new:str".to_string()), (2, "!Ref".to_string())]
        );
    }

    #[test]
    fn counts_nodes_roughly() {
        // The parser's events: the mapping, a, the sequence and its 1,000 items.
        let list = format!("a: [{}]\n", vec!["x"; 1000].join(", "));
        assert_eq!(scan(&list).nodes, 1002);
        // 100 mappings of 4 scalars, in a sequence, in a mapping, with its key.
        let block = "items:\n".to_string() + &"- name: x\n  zone: y\n".repeat(100);
        let n = scan(&block).nodes;
        assert!((400..=503).contains(&n), "{n}");
    }
}
