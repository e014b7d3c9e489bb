// Where the bytes of the release wasm files go: each file's bytes grouped by crate and by module
// of ours, what its big data segments hold, and twiggy's biggest items and monomorphisations, all
// printed as Markdown. Two tables also go into docs/performance.md, between their markers (see
// scripts/perf-doc.mjs): the groups (`./scripts/size: where the bytes go`) and every file dist/
// serves with its size gzipped and in brotli (`./scripts/size: files`), which e2e/budgets.mjs
// checks against the files it serves. `./scripts/size` builds the files this reads and runs it;
// by hand: `node scripts/size.mjs <bin>=<named.wasm>=<shipped.wasm> ...`, where the named file is
// the shipped one built again with `wasm-opt -g` (twiggy needs the names dist/ lacks).
//
// Sizes are twiggy's shallow bytes (retained sizes count a callee once per caller), without the
// name section, so a file's groups add up to the shipped file within a few bytes of headers.
// gzip figures are estimates: each group's bytes are compressed alone (gzip -9) and the results
// scaled so that the groups add up to the shipped file's gzip -9 size; a flat share would not do,
// since text, code and numeric tables compress very differently (to 30-65% of their size here).
// KB are 1,024 bytes, as in e2e/budgets.mjs.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { docPath, servedFiles, sizeTable, stableName, writeBlocks } from './perf-doc.mjs';

const root = new URL('..', import.meta.url).pathname;
// Rows under 0.4% of every file fold into "other" rows (at 0.4% the exercises, the presets and
// plotters still show); strings shorter than 8 bytes are not looked for.
const foldBelow = 0.4;
const minString = 8;

// The rows, and what each holds (printed under the table).
const G = {
  yew: 'Yew and its runtime',
  views: 'our components\' views',
  glue: 'wasm-bindgen glue, wasm tables',
  plotters: 'plotters (+ plotters-canvas, -svg, -backend)',
  json: 'serde_json (+ itoa, zmij)',
  serde: 'serde',
  yaml: 'YAML (serde_yaml_ng, unsafe_libyaml, ryu)',
  fmt: '`core::fmt` and panics',
  std: 'core/alloc/std, not generic',
  alloc: 'allocator (dlmalloc)',
  dataOther: 'data: other constants',
  genericOther: 'generics: other',
  oursOther: 'our other modules',
  other: 'other',
};
const notes = {
  [G.yew]: 'yew, implicit-clone, indexmap, gloo-worker and its bincode, wasm-bindgen, js-sys, web-sys',
  [G.views]: 'Yew\'s `CompStateInner<COMP>::view`, one copy per function component of ours with its body inlined',
  [G.glue]: 'imports, exports, types, the function table, wasm-bindgen\'s adapters and shims',
  [G.serde]: 'serde_core and the derived impls of our types, mostly inlined into `PhantomData<T> as DeserializeSeed` copies, with the field and variant names they read and write',
  [G.fmt]: '`core::fmt`, `Debug`/`Display` of std types, panics and their messages\' file paths',
  [G.std]: 'float parsing, `str` and unicode helpers, compiler builtins',
  [G.dataOther]: 'data segments\' bytes no string of our sources or of a dependency matched: std\'s strings, numeric tables (float parsing and printing, unicode), vtables',
  [G.genericOther]: '`Vec`, `String`, `Option`, cells and the rest',
  [G.oursOther]: 'modules of ours under 0.4% each',
  [G.other]: 'the rest, each under 0.4%',
};
// Dependencies by crate name as symbols spell it.
const crateGroups = {
  yew: /^(yew|yew_macro|implicit_clone|gloo\w*|wasm_bindgen\w*|js_sys|web_sys|bincode|indexmap|slab|prokio|pinned|futures\w*|tokio|tracing\w*|scoped_tls_hkt|anymap2|html_escape|console_error_panic_hook)$/,
  plotters: /^plotters\w*$/,
  json: /^(serde_json|itoa|zmij)$/,
  serde: /^serde(_core)?$/,
  yaml: /^(serde_yaml_ng|unsafe_libyaml|ryu)$/,
  alloc: /^(dlmalloc|__rustc)$/,
  std: /^(compiler_builtins|libm)$/,
};
const crateGroup = (crate) => {
  if (/^hashbrown$/.test(crate)) return genericGroup('hashbrown');
  for (const [g, re] of Object.entries(crateGroups)) if (re.test(crate)) return G[g];
  return crate;
};
// Generic code from core, alloc, std and hashbrown, by the path that owns it.
const genericGroup = (p) => {
  const kinds = [
    [/drop_in_place/, '`drop_in_place`'],
    [/^alloc::collections::btree/, '`BTreeMap`, `BTreeSet`'],
    [/^core::slice::sort/, 'sorting'],
    [/^hashbrown|^std::collections::hash|^core::hash/, '`HashMap` and hashing'],
    [/^alloc::(rc|sync)/, '`Rc`'],
    [/^core::(iter|ops::function)|^alloc::vec::into_iter/, 'iterators and closures'],
  ];
  const kind = kinds.find(([re]) => re.test(p));
  return kind ? `generics: ${kind[1]}` : G.genericOther;
};
const stdCrates = new Set(['core', 'alloc', 'std', '']);
// Our crates, by their name in symbols, and where their sources are (a binary's is one file).
const ours = { kubelife: 'src', kubelife_playground: 'crates/playground/src', kubelife_engine: 'crates/engine/src', kubelife_figures: 'crates/figures/src', kubelife_web: 'src/main.rs', kubelife_worker: 'src/worker_main.rs' };

const main = () => {
  const bins = process.argv.slice(2).map((a) => { const [bin, named, shipped] = a.split('='); return { bin, named, shipped }; });
  if (!bins.length) throw new Error('usage: node scripts/size.mjs <bin>=<named.wasm>=<shipped.wasm> ...');
  const modules = ourModules();
  const items = bins.map((b) => twiggyCsv(b.named, 'top').map(([name, bytes]) => ({ name, bytes: Number(bytes), group: classify(name, modules) })).filter((i) => i.group));
  // The crates the files link, for the strings worth looking for.
  const crates = new Set(items.flat().flatMap((i) => [...i.name.matchAll(/\b([a-z_][a-z0-9_]*)(\[[0-9a-f]+\])?::/g)].map((m) => m[1])));
  const known = knownStrings(crates, modules);
  const files = bins.map((b, i) => measure(b, items[i], known));
  const groups = groupTable(files);
  const served = sizeTable(servedFiles(path.join(root, 'dist')));
  console.log(['### Where the bytes go', '', groups, '', '### The files dist/ serves', '', served, ''].join('\n'));
  for (const f of files) console.log(details(f));
  writeBlocks([
    { script: './scripts/size', name: 'where the bytes go', text: groups },
    { script: './scripts/size', name: 'files', text: served },
  ]);
  console.log(`wrote both size tables of ${path.relative(root, docPath)}`);
};

// The modules of our crates, from the source tree: `kubelife::components`, `kubelife_engine::sim`...
const ourModules = () => {
  const files = new Set(Object.values(ours));
  const mods = new Set();
  for (const [crate, dir] of Object.entries(ours)) {
    if (dir.endsWith('.rs')) continue;
    for (const f of fs.readdirSync(path.join(root, dir))) if (!files.has(`${dir}/${f}`)) mods.add(`${crate}::${f.replace(/\.rs$/, '')}`);
  }
  return mods;
};

// A row of ours: a module (`kubelife::components`), a crate's root, or a binary's file.
const ourRow = (crate, module, modules) => {
  if (ours[crate].endsWith('.rs')) return `${crate.replace(/_/g, '-')} (\`${ours[crate]}\`)`;
  return modules.has(`${crate}::${module}`) ? `${crate}::${module}` : `${crate} (crate root)`;
};

// The row of ours a source file belongs to (`src/components/grid.rs` is `kubelife::components`).
const fileRow = (rel, modules) => {
  const entries = Object.entries(ours);
  const [crate, dir] = entries.find(([, d]) => rel === d) ?? entries.find(([, d]) => rel.startsWith(`${d}/`));
  return ourRow(crate, rel.slice(dir.length + 1).split('/')[0].replace(/\.rs$/, ''), modules);
};

// The crate that owns a demangled item: for `<Self as Trait>::f` Self's crate, unless Self is a
// std type, a primitive or a type parameter, whose impls of a foreign trait live in the trait's
// crate. Returns the crate and the owning path (for the module of ours).
const owner = (name) => {
  const p = name.replace(/^(&mut |&|\*const |\*mut |dyn |\[|\()+/, '');
  if (p.startsWith('<')) {
    let depth = 0, end = 0, as = -1;
    for (let i = 0; i < p.length; i++) {
      if (p[i] === '<') depth++;
      else if (p[i] === '>' && p[i - 1] !== '-' && --depth === 0) { end = i; break; }
      else if (depth === 1 && as < 0 && p.startsWith(' as ', i)) as = i;
    }
    const self = owner(p.slice(1, as < 0 ? end : as));
    if (as >= 0 && stdCrates.has(self.crate)) {
      const trait = owner(p.slice(as + 4, end));
      if (!stdCrates.has(trait.crate)) return trait;
    }
    return self;
  }
  const crate = p.split(/::|[<\s\];,)]/)[0];
  // Primitives (`str`, `f64`, `[T]`) and type parameters (`T`, `COMP`) belong to no crate.
  const none = /^([iu](8|16|32|64|128|size)|f32|f64|bool|char|str|[A-Z][A-Z0-9]*)$/.test(crate);
  return { crate: none ? '' : crate, path: p };
};

// Names of the formatting and panic machinery among core's, alloc's and std's items.
const fmtPanic = new RegExp([
  '(^|::)(fmt|panicking|panic|panic_info)::', '<impl core::fmt', 'as core::fmt::', '::fmt$', '_fmt(_inner)?$', 'ToString',
  'escape_debug', 'flt2dec', 'unicode::printable', 'io::error::Error as',
  'unwrap_failed', 'expect_failed', '_fail$', '_fail::', 'panic_', 'rust_begin_unwind', 'rust_panic', 'abort',
  'handle_error', 'capacity_overflow', 'handle_alloc_error',
].join('|'));

// The group of one twiggy item, by its name; null for the name section, 'data' for a segment.
const classify = (name, modules) => {
  if (/subsection$/.test(name)) return null;
  if (name.startsWith('data segment ')) return 'data';
  if (/^(import |export |type\[|elem\[|table\[|memory\[|global\[|code\[|custom section)|section headers?$|shim$|^__wbindgen|^__externref|^main$/.test(name)) return G.glue;
  const legacy = /::h[0-9a-f]{16}$/.test(name);
  const n = name.replace(/::h[0-9a-f]{16}$/, '').replace(/\.\d+$/, '').replace(/\[[0-9a-f]{16}\]/g, '');
  if (/^<yew::html::component::lifecycle::CompStateInner<COMP> as [\w:]*Stateful>::view/.test(n)) return G.views;
  const { crate, path: p } = owner(n);
  if (crate in ours) return /(as |impl )serde(_core)?::(de|ser)::/.test(n) ? G.serde : ourRow(crate, p.split('::')[1]?.split('<')[0], modules);
  if (!stdCrates.has(crate) && n.includes('::')) return crateGroup(crate);
  if (fmtPanic.test(n)) return G.fmt;
  // Legacy-mangled names (`::h<hash>`) were instantiated in a downstream crate: generic code.
  return legacy ? genericGroup(p) : G.std;
};

// Function bodies, data segments and the name section's names of a wasm file; body, segment and
// name section ranges are byte offsets [start, end) in the file.
const parseWasm = (buf) => {
  let p = 8;
  const u32 = () => { let r = 0, s = 0, b; do { b = buf[p++]; r += (b & 0x7f) * 2 ** s; s += 7; } while (b & 0x80); return r; };
  const str = () => { const n = u32(); p += n; return buf.toString('utf8', p - n, p); };
  const limits = () => { const f = buf[p++]; u32(); if (f & 1) u32(); };
  const w = { imports: 0, bodies: [], segments: [], funcNames: new Map(), dataNames: new Map() };
  while (p < buf.length) {
    const at = p, id = buf[p++], size = u32(), end = p + size;
    if (id === 2) {
      for (let n = u32(); n--;) {
        str(); str();
        const kind = buf[p++];
        if (kind === 0) { u32(); w.imports++; } else if (kind === 1) { p++; limits(); } else if (kind === 2) limits(); else p += 2;
      }
    } else if (id === 10) {
      for (let n = u32(); n--;) { const s = u32(); w.bodies.push([p, p + s]); p += s; }
    } else if (id === 11) {
      for (let n = u32(); n--;) {
        const flags = u32();
        if (flags === 2) u32();
        if (flags !== 1) while (buf[p++] !== 0x0b); // The offset expression: one constant, then `end`.
        const s = u32();
        w.segments.push([p, p + s]);
        p += s;
      }
    } else if (id === 0 && str() === 'name') {
      w.nameSection = [at, end];
      while (p < end) {
        const sub = buf[p++], e = u32() + p;
        if (sub === 1 || sub === 9) for (let n = u32(); n--;) { const i = u32(); (sub === 1 ? w.funcNames : w.dataNames).set(i, str()); }
        p = e;
      }
    }
    p = end;
  }
  return w;
};

// twiggy's items of a file with their shallow bytes.
const twiggyCsv = (file, cmd) => {
  const text = execFileSync('twiggy', [cmd, '-n', '5000000', '--format', 'csv', file], { maxBuffer: 1 << 28 }).toString();
  const rows = [];
  for (const line of text.trim().split('\n').slice(1)) {
    const cells = [];
    for (let i = 0; i <= line.length; i++) {
      let cell = '';
      if (line[i] === '"') {
        for (i++; i < line.length; i++) {
          if (line[i] === '"' && line[i + 1] === '"') { cell += '"'; i++; } else if (line[i] === '"') { i++; break; } else cell += line[i];
        }
      } else for (; i < line.length && line[i] !== ','; i++) cell += line[i];
      cells.push(cell);
    }
    rows.push(cells);
  }
  return rows;
};

// Strings the wasm may hold, longest first, each with the group it belongs to: include_str! files
// (labelled with their path), the literals of our sources (with their module) and of the
// dependencies the files link (with their crate's group), format strings split at their holes.
// Also our identifiers (serde's field and variant names) and type names, which serde's messages quote.
const knownStrings = (crates, modules) => {
  const strings = [];
  const ourTypes = new Set();
  const ourNames = new Set();
  const add = (src, file, group, embeddedGroup) => {
    for (const m of src.matchAll(/include_str!\("([^"]+)"\)/g)) {
      const embedded = path.join(path.dirname(file), m[1]);
      if (fs.existsSync(embedded)) strings.push({ bytes: fs.readFileSync(embedded), group: embeddedGroup?.(embedded) ?? group });
    }
    for (const s of rustStrings(src)) {
      for (const piece of new Set([s, ...s.replace(/\{\{|\}\}/g, '\0').split(/\{[^{}]*\}/)])) {
        const bytes = Buffer.from(piece.replace(/\0/g, '{'));
        if (bytes.length >= minString) strings.push({ bytes, group });
      }
    }
  };
  for (const dir of ['src', 'crates/engine/src', 'crates/figures/src']) {
    walkRs(path.join(root, dir), (src, file) => {
      add(src, file, fileRow(path.relative(root, file), modules), (embedded) => `data: \`${path.relative(root, embedded)}\``);
      for (const m of src.matchAll(/\b(?:struct|enum)\s+(\w+)/g)) ourTypes.add(m[1]);
      // Field and variant names, as serde writes them (ours rename fields to camelCase).
      for (const [id] of src.matchAll(/\b[A-Za-z]\w{7,}\b/g)) ourNames.add(id).add(id.replace(/_([a-z])/g, (_, c) => c.toUpperCase()));
    });
  }
  // The page's English catalogue as crates/playground/build.rs builds it in: each key and
  // template followed by U+001F, sorted by key (ASCII keys: the same order as Rust's). Found
  // whole, it is not credited to the engine modules whose sources name its keys.
  const english = JSON.parse(fs.readFileSync(path.join(root, 'i18n/en.json'), 'utf8'));
  const joined = Object.keys(english).sort().map((k) => `${k}\x1f${english[k]}\x1f`).join('');
  strings.push({ bytes: Buffer.from(joined), group: 'data: `i18n/en.json`' });
  for (const name of ourNames) strings.push({ bytes: Buffer.from(name), group: G.serde });
  for (const { crate, dir } of dependencyDirs()) if (crates.has(crate)) walkRs(dir, (src, file) => add(src, file, crateGroup(crate)));
  return { strings: strings.sort((x, y) => y.bytes.length - x.bytes.length), ourTypes };
};

// Calls `visit(source, file)` for every .rs file under a directory.
const walkRs = (dir, visit) => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const f = path.join(dir, e.name);
    if (e.isDirectory()) walkRs(f, visit);
    else if (f.endsWith('.rs')) visit(fs.readFileSync(f, 'utf8'), f);
  }
};

// Where the registry dependencies in Cargo.lock are unpacked, by crate name as symbols spell it.
const dependencyDirs = () => {
  const registry = path.join(process.env.CARGO_HOME ?? path.join(process.env.HOME, '.cargo'), 'registry', 'src');
  const indexes = fs.existsSync(registry) ? fs.readdirSync(registry).map((d) => path.join(registry, d)) : [];
  const out = [];
  for (const [, name, version] of fs.readFileSync(path.join(root, 'Cargo.lock'), 'utf8').matchAll(/name = "([^"]+)"\nversion = "([^"]+)"\nsource = "registry/g)) {
    const dir = indexes.map((i) => path.join(i, `${name}-${version}`)).find((d) => fs.existsSync(d));
    if (dir) out.push({ crate: name.replace(/-/g, '_'), dir });
  }
  return out;
};

// The string literals of a Rust source, unescaped; comments, chars and lifetimes skipped.
const rustStrings = (src) => {
  const out = [];
  const esc = { n: '\n', t: '\t', r: '\r', 0: '\0', '\\': '\\', '"': '"', "'": "'" };
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '/' && src[i + 1] === '/') i = src.indexOf('\n', i) < 0 ? src.length : src.indexOf('\n', i);
    else if (c === '/' && src[i + 1] === '*') i = src.indexOf('*/', i + 2) < 0 ? src.length : src.indexOf('*/', i + 2) + 1;
    else if (c === "'") {
      if (src[i + 1] === '\\') i = src.indexOf("'", i + 3);
      else if (src[i + 2] === "'") i += 2;
    } else if (c === 'r' && /[#"]/.test(src[i + 1]) && /(^|\W)[bc]?$/.test(src.slice(Math.max(0, i - 2), i))) {
      const hashes = /^#*/.exec(src.slice(i + 1))[0];
      if (src[i + 1 + hashes.length] !== '"') continue;
      const start = i + 2 + hashes.length, end = src.indexOf('"' + hashes, start);
      if (end < 0) break;
      out.push(src.slice(start, end));
      i = end + hashes.length;
    } else if (c === '"') {
      let s = '';
      for (i++; i < src.length && src[i] !== '"'; i++) {
        if (src[i] !== '\\') { s += src[i]; continue; }
        const e = src[++i];
        if (e === '\n') {
          while (/\s/.test(src[i + 1])) i++;
        } else if (e === 'x') {
          s += String.fromCharCode(parseInt(src.substr(i + 1, 2), 16));
          i += 2;
        } else if (e === 'u') {
          const close = src.indexOf('}', i);
          s += String.fromCodePoint(parseInt(src.slice(i + 2, close), 16));
          i = close;
        } else s += esc[e] ?? e;
      }
      out.push(s);
    }
  }
  return out;
};

// Which group each byte of the data segments belongs to: known strings found by content (through
// an index of the segments' 8-byte windows), then by pattern panic locations' file paths (the panic
// machinery's) and serde's messages naming our types (`struct Scenario with 9 elements`).
const dataOwners = (buf, segments, { strings, ourTypes }) => {
  const owners = new Array(buf.length);
  const claim = (from, to, group) => { for (let i = from; i < to; i++) owners[i] ??= group; };
  const index = new Map();
  for (const [a, b] of segments) {
    for (let i = a; i + minString <= b; i++) {
      const key = buf.toString('latin1', i, i + minString);
      if (!index.has(key)) index.set(key, []);
      index.get(key).push([i, b]);
    }
  }
  for (const { bytes, group } of strings) {
    for (const [at, end] of index.get(bytes.toString('latin1', 0, minString)) ?? []) {
      if (at + bytes.length <= end && buf.compare(bytes, 0, bytes.length, at, at + bytes.length) === 0) claim(at, at + bytes.length, group);
    }
  }
  for (const [a, b] of segments) {
    const text = buf.toString('latin1', a, b);
    for (const m of text.matchAll(/(\/rustc\/[0-9a-f]{40}\/|\/[\w.\-/]*?\/\.cargo\/registry\/src\/|(src|crates)\/)[\w.\-/]*?\.rs/g)) claim(a + m.index, a + m.index + m[0].length, G.fmt);
    for (const m of text.matchAll(/(?:tuple struct|struct variant|struct|enum) (\w+)(?: with \d+ elements?)?/g)) {
      if (ourTypes.has(m[1])) claim(a + m.index, a + m.index + m[0].length, G.serde);
    }
  }
  return owners;
};

// One segment's bytes as ranges per group, from `dataOwners`.
const dataParts = (owners, [start, end]) => {
  const parts = new Map();
  for (let i = start; i < end;) {
    const g = owners[i] ?? G.dataOther;
    let j = i;
    while (j < end && (owners[j] ?? G.dataOther) === g) j++;
    if (!parts.has(g)) parts.set(g, []);
    parts.get(g).push([i, j]);
    i = j;
  }
  return parts;
};

// One file's groups: bytes and the byte ranges behind them (for the gzip estimate).
const measure = ({ bin, named, shipped }, items, known) => {
  const buf = fs.readFileSync(named);
  const w = parseWasm(buf);
  const funcs = new Map([...w.funcNames].filter(([i]) => i >= w.imports).map(([i, n]) => [n, w.bodies[i - w.imports]]));
  const segs = new Map([...w.dataNames].map(([i, n]) => [`data segment "${n}"`, w.segments[i]]));
  const owners = dataOwners(buf, w.segments, known);
  const groups = new Map();
  const add = (g, bytes, ranges = []) => {
    const e = groups.get(g) ?? { bytes: 0, ranges: [], unranged: 0 };
    e.bytes += bytes;
    for (const r of ranges) e.ranges.push(r);
    if (!ranges.length) e.unranged += bytes;
    groups.set(g, e);
  };
  const segments = [];
  for (const { name, bytes, group } of items) {
    if (group !== 'data') { add(group, bytes, funcs.has(name) ? [funcs.get(name)] : name.startsWith('code[') ? [w.bodies[Number(name.slice(5, -1))]] : []); continue; }
    const range = segs.get(name);
    const parts = range ? dataParts(owners, range) : new Map([[G.dataOther, []]]);
    // Headers (a segment's offset and length) go with the segment's biggest part.
    const sizes = [...parts].map(([g, rs]) => [g, rs.reduce((s, [a, b]) => s + b - a, 0)]).sort((a, b) => b[1] - a[1]);
    sizes[0][1] += bytes - sizes.reduce((s, [, n]) => s + n, 0);
    for (const [g, n] of sizes) add(g, n, parts.get(g));
    segments.push({ name: name.slice(13), bytes, parts: sizes });
  }
  const total = [...groups.values()].reduce((s, g) => s + g.bytes, 0);
  // The shipped file when dist/ holds this build (within 0.5% in size), else this build without
  // its name section, which is the same file give or take a few bytes.
  const bare = w.nameSection ? Buffer.concat([buf.subarray(0, w.nameSection[0]), buf.subarray(w.nameSection[1])]) : buf;
  const dist = shipped && fs.existsSync(shipped) ? fs.readFileSync(shipped) : null;
  const same = dist && Math.abs(dist.length - bare.length) <= bare.length / 200;
  const shippedGzip = zlib.gzipSync(same ? dist : bare, { level: 9 }).length;
  gzipEstimate(buf, groups, total, shippedGzip);
  const shippedFrom = same ? path.relative(root, shipped) : `this build without its name section: ${shipped ? `${path.relative(root, shipped)} is another build` : 'dist/ has none'}`;
  return { bin, named, groups, total, shippedBytes: (same ? dist : bare).length, shippedGzip, shippedFrom, top: items, segments };
};

// Each group's gzip share: its ranges compressed alone (bytes twiggy gives no range for, such as
// imports and types, at the file's average ratio), scaled to the shipped file's gzip size.
const gzipEstimate = (buf, groups, total, shippedGzip) => {
  let sum = 0;
  for (const g of groups.values()) {
    const ranged = g.bytes - g.unranged;
    const alone = ranged > 0 ? zlib.gzipSync(Buffer.concat(g.ranges.map(([a, b]) => buf.subarray(a, b))), { level: 9 }).length : 0;
    g.gzipRaw = alone + g.unranged * (shippedGzip / total);
    sum += g.gzipRaw;
  }
  for (const g of groups.values()) g.gzip = (g.gzipRaw * shippedGzip) / sum;
};

const kb = (n) => (n / 1024).toFixed(1);
const pct = (n, t) => ((100 * n) / t).toFixed(1);

// One table, a row per group and two columns per file: KB with the % of the file, and estimated KB
// gzipped. Rows with no bytes in any file are left out.
const groupTable = (files) => {
  const labels = new Set(files.flatMap((f) => [...f.groups.keys()]));
  const rows = new Map();
  for (const label of labels) {
    const big = files.some((f) => (100 * (f.groups.get(label)?.bytes ?? 0)) / f.total >= foldBelow);
    const key = big ? label : label.startsWith('generics: ') ? G.genericOther : label.startsWith('kubelife') ? G.oursOther : G.other;
    const row = rows.get(key) ?? files.map(() => ({ bytes: 0, gzip: 0 }));
    files.forEach((f, i) => { row[i].bytes += f.groups.get(label)?.bytes ?? 0; row[i].gzip += f.groups.get(label)?.gzip ?? 0; });
    rows.set(key, row);
  }
  const last = [G.oursOther, G.genericOther, G.other];
  const order = [...rows].filter(([, row]) => row.some((c) => c.bytes > 0)).sort(([a, x], [b, y]) => last.indexOf(a) - last.indexOf(b) || y.reduce((s, c) => s + c.bytes, 0) - x.reduce((s, c) => s + c.bytes, 0));
  const head = files.map((f) => `${f.bin} KB (%) | gzip KB`).join(' | ');
  const lines = [`| | ${head} |`, `|---|${files.map(() => '--:|--:').join('|')}|`];
  const cell = (c, f) => (!c.bytes ? ' | ' : c.bytes < 51 ? '<0.1 | <0.1' : `${kb(c.bytes)} (${pct(c.bytes, f.total)}) | ${kb(c.gzip)}`);
  for (const [label, row] of order) lines.push(`| ${label} | ${row.map((c, i) => cell(c, files[i])).join(' | ')} |`);
  lines.push(`| **total** | ${files.map((f) => `**${kb(f.total)}** | **${kb(f.shippedGzip)}**`).join(' | ')} |`);
  const legend = order.filter(([label]) => notes[label]).map(([label]) => `- ${label}: ${notes[label]}.`);
  const shipped = files.map((f) => `${f.bin}, ${kb(f.shippedBytes)} KB (${kb(f.shippedGzip)} KB gzipped; ${stableName(f.shippedFrom)})`);
  return [lines.join('\n'), '', ...legend, '', `The files measured: ${shipped.join('; ')}.`].join('\n');
};

// A file's big data segments, and twiggy's biggest items and monomorphisations.
const details = (f) => {
  const short = (n) => n.replace(/::h[0-9a-f]{16}$/, '').replace(/\[[0-9a-f]{16}\]/g, '').replace(/\|/g, '\\|').replace(/^(.{110}).+$/, '$1…');
  const out = [`### ${f.bin}`, '', `Data segments over 1% of the file (of ${kb(f.segments.reduce((s, x) => s + x.bytes, 0))} KB in ${f.segments.length} segments), and what they hold:`, ''];
  for (const s of f.segments.filter((x) => (100 * x.bytes) / f.total >= 1).sort((a, b) => b.bytes - a.bytes)) {
    out.push(`- ${s.name}, ${kb(s.bytes)} KB: ${s.parts.filter(([, n]) => n >= 256).map(([g, n]) => `${g.replace(/^data: /, '')} ${kb(n)} KB`).join('; ')}`);
  }
  out.push('', 'twiggy top (shallow, without the name section):', '', '| KB | % | item |', '|--:|--:|---|');
  for (const t of f.top.sort((a, b) => b.bytes - a.bytes).slice(0, 15)) out.push(`| ${kb(t.bytes)} | ${pct(t.bytes, f.total)} | \`${short(t.name)}\` |`);
  out.push('', 'twiggy monos (a generic function\'s copies; bloat is all but the biggest copy):', '', '| KB | bloat KB | copies | generic |', '|--:|--:|--:|---|');
  for (const [generic, bloat, , size, , list] of twiggyCsv(f.named, 'monos').slice(0, 10)) {
    out.push(`| ${kb(Number(size))} | ${kb(Number(bloat))} | ${(list.match(/::h[0-9a-f]{16}/g) ?? []).length} | \`${short(generic)}\` |`);
  }
  return out.join('\n') + '\n';
};

main();
