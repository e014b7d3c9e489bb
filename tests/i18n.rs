//! The catalogues: both languages have the same keys with the same `{holes}`, and every key is
//! used by the code (as a literal, or through a family the code enumerates).

use kubelife::components::tour::STEPS;
use kubelife::exercises::EXERCISES;
use kubelife::i18n::{keys, Lang};
use kubelife::knobs::KNOBS;
use kubelife::settings::TOGGLES;
use std::collections::BTreeSet;
use std::path::Path;

fn holes(template: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = template;
    while let Some(i) = rest.find('{') {
        let tail = &rest[i + 1..];
        match tail.find('}') {
            Some(j) if !tail.starts_with('{') => {
                out.insert(tail[..j].to_string());
                rest = &tail[j + 1..];
            }
            _ => rest = tail.get(1..).unwrap_or(""),
        }
    }
    out
}

#[test]
fn both_catalogues_have_the_same_keys_and_holes() {
    let en: BTreeSet<&str> = keys(Lang::En).collect();
    let zh: BTreeSet<&str> = keys(Lang::Zh).collect();
    let missing_zh: Vec<_> = en.difference(&zh).collect();
    let missing_en: Vec<_> = zh.difference(&en).collect();
    assert!(missing_zh.is_empty(), "keys missing in zh.json: {missing_zh:?}");
    assert!(missing_en.is_empty(), "keys missing in en.json: {missing_en:?}");
    for k in &en {
        let (e, z) = (
            kubelife::i18n::lookup(Lang::En, k).unwrap(),
            kubelife::i18n::lookup(Lang::Zh, k).unwrap(),
        );
        assert_eq!(holes(e), holes(z), "{k}: the two languages fill different holes");
        assert!(
            k == &"cause.part.empty" || !z.trim().is_empty() || e.trim().is_empty(),
            "{k}: empty in zh"
        );
    }
}

fn sources(dir: &Path, out: &mut String) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push_str(&std::fs::read_to_string(&p).unwrap());
        }
    }
}

#[test]
fn every_key_is_used() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut code = String::new();
    sources(&root.join("src"), &mut code);
    sources(&root.join("crates/playground/src"), &mut code);
    sources(&root.join("crates/engine/src"), &mut code);
    sources(&root.join("crates/figures/src"), &mut code);
    sources(&root.join("crates/cli/src"), &mut code);
    // Families whose keys the code builds from a list it owns.
    let mut built: BTreeSet<String> = BTreeSet::new();
    // Every tunable of the engine's catalogue the page shows: a slider's help and why a version
    // lacks it, a switch's texts.
    for f in kubelife_engine::flags::ALL.iter() {
        if KNOBS.iter().any(|k| k.flag == f.name) {
            built.insert(format!("knob.{}.help", f.name));
            built.insert(format!("knob.{}.missing", f.name));
        }
        for t in TOGGLES.iter().filter(|t| t.def.name == f.name) {
            built.insert(t.help.to_string());
            built.insert(t.why.to_string());
        }
    }
    // Each cloud duration of the engine's settings table has a control labelled by its name.
    for s in kubelife::settings::cloud_durations() {
        built.insert(format!("ui.cloud.span.{}", s.name));
    }
    // And each cloud choice's label.
    for s in kubelife::settings::cloud_choices() {
        built.insert(format!("ui.cloud.choice.{}", s.name));
    }
    // And each remediator's further settings.
    for r in kubelife::settings::Remediator::ALL {
        for s in r.0.further() {
            built.insert(format!("ui.repair.setting.{}", s.name));
        }
    }
    for s in &STEPS {
        built.insert(format!("{}.title", s.key));
        built.insert(format!("{}.body", s.key));
    }
    for ex in &EXERCISES {
        for part in ["title", "goal", "explain", "solution"] {
            built.insert(format!("ex.{}.{part}", ex.id));
        }
        for h in 1..=ex.hints {
            built.insert(format!("ex.{}.hint.{h}", ex.id));
        }
        for c in ex.checks {
            built.insert(c.key.to_string());
        }
    }
    for p in kubelife_engine::presets::presets() {
        built.insert(format!("preset.{}", p.name));
    }
    // A segment's brief label (`seg.X`) is its cause's (`cause.X`) other template.
    for k in keys(Lang::En) {
        if let Some(rest) = k.strip_prefix("seg.") {
            built.insert(format!("cause.{rest}"));
        }
    }
    let used = |k: &str| built.contains(k) || code.contains(&format!("\"{k}\""));
    let unused: Vec<&str> = keys(Lang::En)
        .filter(|k| match k.strip_prefix("seg.") {
            Some(rest) => !code.contains(&format!("\"cause.{rest}\"")),
            None => !used(k),
        })
        .collect();
    assert!(unused.is_empty(), "catalogue keys nothing uses: {unused:?}");
    // And every exercise and tour text the code asks for exists.
    let en: BTreeSet<&str> = keys(Lang::En).collect();
    let absent: Vec<&String> = built
        .iter()
        .filter(|k| !en.contains(k.as_str()) && !k.ends_with(".missing"))
        .collect();
    assert!(absent.is_empty(), "texts missing from the catalogues: {absent:?}");
}

/// Every cause that can end a segment of "where does the time go?" has a brief template
/// (`seg.X` beside `cause.X`), so no bar shows a whole sentence where a label belongs.
#[test]
fn every_event_cause_has_a_brief_label() {
    let en: BTreeSet<&str> = keys(Lang::En).collect();
    let missing: Vec<&&str> = en
        .iter()
        .filter_map(|k| k.strip_prefix("cause.").map(|rest| (k, rest)))
        .filter(|(_, rest)| {
            !["part.", "initial.", "lease.", "kubelet.patched"]
                .iter()
                .any(|p| rest.starts_with(p))
        })
        .filter(|(_, rest)| !en.contains(format!("seg.{rest}").as_str()))
        .map(|(k, _)| k)
        .collect();
    assert!(missing.is_empty(), "causes without a seg.* label: {missing:?}");
}

#[test]
fn every_literal_key_the_code_names_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut code = String::new();
    sources(&root.join("src"), &mut code);
    sources(&root.join("crates/playground/src"), &mut code);
    sources(&root.join("crates/engine/src"), &mut code);
    sources(&root.join("crates/figures/src"), &mut code);
    sources(&root.join("crates/cli/src"), &mut code);
    let en: BTreeSet<&str> = keys(Lang::En).collect();
    let mut missing = BTreeSet::new();
    for prefix in [
        "\"ui.",
        "\"cause.",
        "\"warn.",
        "\"note.",
        "\"link.",
        "\"scenario.",
        "\"import.",
        "\"duration.",
        "\"version.",
        "\"parser.",
        "\"advice.",
    ] {
        for (i, _) in code.match_indices(prefix) {
            let lit = &code[i + 1..];
            let Some(end) = lit.find('"') else { continue };
            let key = &lit[..end];
            if key.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
                && !key.ends_with('.')
                && !en.contains(key)
            {
                missing.insert(key.to_string());
            }
        }
    }
    assert!(
        missing.is_empty(),
        "keys the code uses but no catalogue has: {missing:?}"
    );
}

/// Users never saw our research notes: what the product shows, says or writes (catalogues,
/// preset descriptions, exported comments, the README and docs) names public sources only.
#[test]
fn product_text_uses_no_words_from_our_research_notes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut texts: Vec<(String, String)> = [
        "i18n/en.json",
        "i18n/zh.json",
        "i18n/exercises-en.json",
        "i18n/import-en.json",
        "i18n/later-en.json",
        "i18n/clients-en.json",
        "README.md",
        "ARCHITECTURE.md",
    ]
    .iter()
    .map(|f| (f.to_string(), std::fs::read_to_string(root.join(f)).expect("readable")))
    .collect();
    for entry in std::fs::read_dir(root.join("docs")).expect("docs/") {
        let path = entry.expect("entry").path();
        texts.push((
            path.display().to_string(),
            std::fs::read_to_string(&path).expect("readable"),
        ));
    }
    for p in kubelife_engine::presets::presets() {
        texts.push((format!("preset {}", p.name), p.description.to_string()));
    }
    for banned in ["seed post", "seed's", "种子文章"] {
        for (name, text) in &texts {
            assert!(
                !text.to_lowercase().contains(banned),
                "{name} says {banned:?}: cite the public source (kubespray's reliability doc, rke's docs, upstream code)"
            );
        }
    }
}

/// The Tune panel's target picker labels every milestone the engine measures, in both languages.
#[test]
fn every_milestone_has_a_label_in_both_languages() {
    use kubelife::slo::{milestone_label, MILESTONE_LABELS};
    use kubelife_engine::stats::MILESTONES;
    let named: Vec<&str> = MILESTONE_LABELS.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        named, MILESTONES,
        "the labels' milestones are not the engine's, in its order"
    );
    for m in MILESTONES {
        let key = milestone_label(m).unwrap_or_else(|| panic!("{m}: no label"));
        for lang in [Lang::En, Lang::Zh] {
            let text = kubelife::i18n::lookup(lang, key).unwrap_or_else(|| panic!("{m}: {key} missing in {lang:?}"));
            assert!(!text.trim().is_empty(), "{m}: {key} is empty in {lang:?}");
        }
    }
}

/// One Chinese term per concept: the term the catalogue uses, and the variants that must not
/// appear (outside the phrases in `except`, where the variant is the right word for another thing).
struct Term {
    concept: &'static str,
    term: &'static str,
    variants: &'static [&'static str],
    except: &'static [&'static str],
}

/// The Chinese glossary. Kubernetes names stay English: `Ready` names the Ready condition of a
/// node or pod (Ready=True, NodeReady, 不 Ready); 就绪 is only the readiness probe (就绪探针)
/// and an EndpointSlice endpoint's `ready` condition.
const GLOSSARY: &[Term] = &[
    Term {
        concept: "detach (a volume)",
        term: "卸离",
        variants: &["分离"],
        except: &[],
    },
    Term {
        concept: "attach (a volume)",
        term: "挂接",
        variants: &["附加"],
        except: &[],
    },
    Term {
        concept: "unmount",
        term: "卸载",
        variants: &["解除挂载", "取消挂载"],
        except: &[],
    },
    Term {
        concept: "the attach-detach controller",
        term: "attach-detach 控制器",
        variants: &["挂接/卸离控制器", "挂载/卸载控制器", "挂接/分离控制器"],
        except: &[],
    },
    Term {
        concept: "Ready (the node's or pod's condition)",
        term: "Ready",
        variants: &["就绪"],
        except: &["就绪探针", "就绪端点", "端点标为就绪", "端点标为未就绪"],
    },
    Term {
        concept: "graceful",
        term: "体面",
        variants: &["优雅"],
        except: &[],
    },
    Term {
        concept: "grace period",
        term: "宽限期",
        variants: &["宽限", "grace 0"],
        except: &["宽限期"],
    },
    Term {
        concept: "crash",
        term: "宕机",
        variants: &["崩溃"],
        except: &[],
    },
    Term {
        concept: "evict",
        term: "驱逐",
        variants: &["逐出"],
        except: &[],
    },
    Term {
        concept: "taint",
        term: "污点",
        variants: &["污染"],
        except: &[],
    },
    Term {
        concept: "toleration",
        term: "容忍",
        variants: &["容许", "容限"],
        except: &[],
    },
    Term {
        concept: "replica",
        term: "副本",
        variants: &["复本", "复制品"],
        except: &[],
    },
    Term {
        concept: "drain",
        term: "排空",
        variants: &["驱散", "腾空"],
        except: &[],
    },
    Term {
        concept: "zone",
        term: "可用区",
        variants: &["区域", "地区"],
        except: &[],
    },
    Term {
        concept: "Lease",
        term: "Lease",
        variants: &["租约"],
        except: &[],
    },
    Term {
        concept: "replacement pod",
        term: "替代 Pod",
        variants: &["替换 Pod"],
        except: &[],
    },
    Term {
        concept: "the node lifecycle controller",
        term: "节点生命周期控制器",
        variants: &["节点生命期控制器"],
        except: &[],
    },
    Term {
        concept: "remediator",
        term: "修复器",
        variants: &["修复程序", "补救"],
        except: &[],
    },
];

/// Every Chinese text keeps to the glossary's one term per concept.
#[test]
fn chinese_texts_keep_one_term_per_concept() {
    let mut found = Vec::new();
    for key in keys(Lang::Zh) {
        let text = kubelife::i18n::lookup(Lang::Zh, key).unwrap();
        for t in GLOSSARY {
            let rest = t.except.iter().fold(text.to_string(), |s, e| s.replace(e, ""));
            for v in t.variants.iter().filter(|v| rest.contains(**v)) {
                found.push(format!("{key}: {v} (write {} for {})", t.term, t.concept));
            }
        }
    }
    assert!(
        found.is_empty(),
        "Chinese texts off the glossary:\n{}",
        found.join("\n")
    );
}

fn is_cjk(c: char) -> bool {
    matches!(c, '\u{3000}'..='\u{303f}' | '\u{3400}'..='\u{9fff}' | '\u{ff00}'..='\u{ffef}')
}

/// `text` without its code spans (`…`), URLs and flags (`--x=a,b`), whose punctuation is theirs.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        let skip = if let Some(code) = rest.strip_prefix('`') {
            code.find('`').map(|j| j + 2)
        } else if rest.starts_with("--") || rest.starts_with("http://") || rest.starts_with("https://") {
            Some(
                rest.find(|c: char| c.is_whitespace() || is_cjk(c))
                    .unwrap_or(rest.len()),
            )
        } else {
            None
        };
        let n = skip.unwrap_or_else(|| rest.chars().next().map_or(1, char::len_utf8));
        if skip.is_none() {
            out.push_str(&rest[..n]);
        } else {
            out.push(' ');
        }
        rest = &rest[n..];
    }
    out
}

/// Chinese sentences use full-width punctuation: no ASCII comma, colon or semicolon next to a
/// Chinese character or full-width mark (directly, or across one space).
#[test]
fn chinese_texts_use_full_width_punctuation() {
    let mut found = Vec::new();
    for key in keys(Lang::Zh) {
        let text = prose(kubelife::i18n::lookup(Lang::Zh, key).unwrap());
        let chars: Vec<char> = text.chars().collect();
        for (i, &c) in chars.iter().enumerate() {
            // The nearest character on either side, past one space.
            let before = chars[..i].iter().rev().take(2).find(|&&b| b != ' ');
            let after = chars[i + 1..].iter().take(2).find(|&&a| a != ' ');
            let next_to_cjk = before.is_some_and(|&b| is_cjk(b)) || after.is_some_and(|&a| is_cjk(a));
            if ",:;".contains(c) && next_to_cjk {
                let at: String = chars[i.saturating_sub(6)..(i + 7).min(chars.len())].iter().collect();
                found.push(format!("{key}: {c:?} in …{at}…"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "ASCII punctuation in Chinese sentences:\n{}",
        found.join("\n")
    );
}

/// The page fetches Chinese packed, without the keys of the page part it holds (`i18n/zh.txt`,
/// about 7 KB smaller gzipped): it must be `i18n/zh.json` packed against this release's English
/// keys, and read back whole. `UPDATE_EXPECT=1 cargo test -p kubelife --test i18n` writes it
/// again after a catalogue changes.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn the_packed_chinese_catalogue_is_zh_json() {
    use kubelife::i18n::{catalogue_encoding, pack_chinese, page_fingerprint, unpack_chinese, Lang, CHINESE_CATALOGUE};
    let zh = kubelife_engine::cause::parse_catalogue(CHINESE_CATALOGUE).expect("zh.json parses");
    let packed = pack_chinese(&zh);
    let encoding = encoding_rs::Encoding::for_label(catalogue_encoding(Lang::Zh).as_bytes()).expect("a label");
    let (bytes, _, unmappable) = encoding.encode(&packed);
    assert!(!unmappable, "GB18030 encodes all of Unicode");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("i18n/zh.txt");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, &bytes).expect("i18n/zh.txt writable");
    }
    let shipped = std::fs::read(&path).unwrap_or_default();
    let shipped = encoding
        .decode_without_bom_handling_and_without_replacement(&shipped)
        .unwrap_or_default();
    assert!(
        shipped == packed,
        "i18n/zh.txt is not i18n/zh.json packed against this release's English keys: \
         run `UPDATE_EXPECT=1 cargo test -p kubelife --test i18n` to write it again"
    );
    // Every text but those only the clients give, which the page never shows.
    let mut served = zh.clone();
    served.retain(|k, _| !kubelife::i18n::clients_only(k));
    assert!(served.len() < zh.len(), "the clients' texts are left out");
    assert_eq!(unpack_chinese(&packed).expect("reads back"), served);
    let other_release = packed.replacen(&page_fingerprint(), "12345", 1);
    assert!(
        unpack_chinese(&other_release).is_err(),
        "another release's file is refused"
    );
    let cut = packed.match_indices('\u{1f}').nth(10).expect("texts").0;
    assert!(
        unpack_chinese(&packed[..cut]).is_err(),
        "a file cut short in the page's part is refused"
    );
    let last = packed.trim_end_matches('\u{1f}').rfind('\u{1f}').expect("texts");
    assert!(
        unpack_chinese(&packed[..last + 1]).is_err(),
        "a file that ends on a key without its template is refused"
    );
}
