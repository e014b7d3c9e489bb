//! `kubelife render`: the SVG is well-formed XML, the PNG is a PNG of the requested size, one
//! small scenario's SVG is pinned, and bad input is refused with a reason.

use std::io::Write;
use std::process::{Command, Stdio};

fn kubelife(args: &[&str], stdin: &str) -> (i32, Vec<u8>, String) {
    kubelife_with(&[], args, stdin)
}

/// Three nodes, one crash.
const SMALL: &str = r#"{"version": "1.32", "durationSeconds": 120,
  "nodes": [{"name": "node-1"}, {"name": "node-2"}, {"name": "node-3"}],
  "workloads": [{"kind": "Deployment", "name": "web", "replicas": 1}],
  "events": [{"at": "10s", "action": "NodeCrash", "node": "node-1"}]}"#;

/// A small well-formedness check (no XML parser is in the lock file): every tag is closed in
/// order, attributes are quoted, and text holds no bare `<` or `&`. Returns the element names
/// in document order.
fn well_formed(xml: &str) -> Result<Vec<String>, String> {
    let mut open: Vec<String> = Vec::new();
    let mut names = Vec::new();
    let mut rest = xml.trim();
    if rest.starts_with("<?xml") {
        rest = &rest[rest.find("?>").ok_or("unclosed declaration")? + 2..];
    }
    while let Some(lt) = rest.find('<') {
        let text = &rest[..lt];
        if text.contains('&') && !text.split('&').skip(1).all(|e| e.contains(';')) {
            return Err(format!("bare & in {text:?}"));
        }
        let gt = rest[lt..].find('>').ok_or("unclosed tag")? + lt;
        let tag = &rest[lt + 1..gt];
        if tag.contains('<') {
            return Err(format!("< inside tag {tag:?}"));
        }
        if tag.matches('"').count() % 2 == 1 {
            return Err(format!("unbalanced quotes in {tag:?}"));
        }
        if let Some(name) = tag.strip_prefix('/') {
            match open.pop() {
                Some(o) if o == name.trim() => {}
                other => return Err(format!("</{name}> closes {other:?}")),
            }
        } else {
            let name: String = tag.chars().take_while(|c| !c.is_whitespace() && *c != '/').collect();
            if name.is_empty() {
                return Err(format!("empty tag name in {tag:?}"));
            }
            names.push(name.clone());
            if !tag.ends_with('/') {
                open.push(name);
            }
        }
        if open.is_empty() && !rest[gt + 1..].trim().is_empty() && names.len() == 1 {
            return Err("content after the root element".into());
        }
        rest = &rest[gt + 1..];
    }
    if !open.is_empty() {
        return Err(format!("unclosed elements {open:?}"));
    }
    if !rest.trim().is_empty() {
        return Err(format!("text after the root element: {rest:?}"));
    }
    Ok(names)
}

#[test]
fn the_checker_catches_broken_xml() {
    assert!(well_formed("<svg><rect/></svg>").is_ok());
    assert!(well_formed("<svg><g></svg>").is_err());
    assert!(well_formed("<svg><rect x=\"1/></svg>").is_err());
    assert!(well_formed("<svg>a & b</svg>").is_err());
    assert!(well_formed("<svg>").is_err());
}

#[test]
fn svg_timeline_and_breakdown_are_well_formed_in_both_languages() {
    for view in ["timeline", "breakdown"] {
        for lang in ["en", "zh"] {
            let (code, out, err) = kubelife(
                &[
                    "render", "-", "--format", "svg", "--view", view, "--lang", lang, "--at", "40s",
                ],
                SMALL,
            );
            assert_eq!(code, 0, "{err}");
            let svg = String::from_utf8(out).expect("UTF-8");
            let names = well_formed(&svg).unwrap_or_else(|e| panic!("{view} {lang}: {e}\n{svg}"));
            assert_eq!(names.first().map(String::as_str), Some("svg"));
            assert!(names.iter().any(|n| n == "text"), "{view} {lang} has labels");
        }
    }
    let (_, zh, _) = kubelife(
        &["render", "-", "--format", "svg", "--view", "breakdown", "--lang", "zh"],
        SMALL,
    );
    assert!(String::from_utf8(zh).unwrap().contains("时间都花在哪里"));
}

#[test]
fn the_timeline_names_its_lanes_and_draws_the_playhead_where_asked() {
    let (_, out, _) = kubelife(&["render", "-", "--format", "svg", "--at", "1m"], SMALL);
    let svg = String::from_utf8(out).unwrap();
    for name in [
        "node-1",
        "node-2",
        "node-3",
        "Ready / Running",
        "Unknown / NotReady",
        "last heartbeat",
    ] {
        assert!(svg.contains(name), "{name} missing");
    }
    // The playhead is the one 2 px red line; without --at there is none.
    assert_eq!(svg.matches("stroke=\"#FF0000\" stroke-width=\"2\"").count(), 1);
    let (_, out, _) = kubelife(&["render", "-", "--format", "svg"], SMALL);
    assert!(!String::from_utf8(out).unwrap().contains("stroke=\"#FF0000\""));
}

#[test]
fn png_has_the_signature_and_the_requested_size() {
    for view in ["timeline", "breakdown"] {
        let (code, out, err) = kubelife(
            &["render", "-", "--format", "png", "--view", view, "--width", "640"],
            SMALL,
        );
        assert_eq!(code, 0, "{err}");
        assert_eq!(&out[..8], b"\x89PNG\r\n\x1a\n");
        let img = image::load_from_memory_with_format(&out, image::ImageFormat::Png).expect("decodes");
        assert_eq!(img.width(), 640);
        assert!(img.height() > 50);
    }
}

#[test]
fn the_small_scenario_svg_is_pinned() {
    let (code, out, err) = kubelife(
        &["render", "-", "--format", "svg", "--at", "40s", "--width", "600"],
        SMALL,
    );
    assert_eq!(code, 0, "{err}");
    expect_test::expect_file!["snapshots/small_timeline.svg"].assert_eq(&String::from_utf8(out).unwrap());
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    let cases: [(&[&str], &str, &str); 8] = [
        (
            &["render", "-", "--format", "svg", "--at", "99h"],
            SMALL,
            "outside the run",
        ),
        (&["render", "-", "--format", "svg"], "{not json", "invalid scenario"),
        (
            &["render", "-", "--format", "svg"],
            "\u{0}\u{1}garbage",
            "invalid scenario",
        ),
        (&["render", "-", "--format", "gif"], SMALL, "unknown format"),
        (&["render", "-"], SMALL, "--format"),
        (
            &["render", "-", "--format", "svg", "--view", "pie"],
            SMALL,
            "unknown view",
        ),
        (&["render", "-", "--format", "svg", "--at", "soon"], SMALL, "--at"),
        (&["render", "/nonexistent/x.json", "--format", "svg"], "", "cannot read"),
    ];
    for (args, stdin, why) in cases {
        let (code, out, err) = kubelife(args, stdin);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?} printed a picture");
        assert!(err.contains(why), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn the_cluster_view_draws_nodes_by_zone_with_states_in_words() {
    for lang in ["en", "zh"] {
        let (code, out, err) = kubelife(
            &[
                "render", "-", "--format", "svg", "--view", "cluster", "--at", "1m50s", "--lang", lang,
            ],
            SMALL,
        );
        assert_eq!(code, 0, "{err}");
        let svg = String::from_utf8(out).expect("UTF-8");
        let names = well_formed(&svg).unwrap_or_else(|e| panic!("cluster {lang}: {e}\n{svg}"));
        assert_eq!(names.first().map(String::as_str), Some("svg"));
        // node-1 crashed at 10s: by 1m50s it is Unknown and tainted; the others stay Ready.
        for text in [
            "node-1",
            "node-2",
            "node-3",
            "Unknown",
            "Ready",
            "unreachable:NoExecute",
            "NodeCrash",
        ] {
            assert!(
                svg.contains(&format!("\n{text}\n")),
                "{lang}: no {text:?} in the cluster view"
            );
        }
        assert!(
            svg.lines().any(|l| l.starts_with("web-") && ["Running", "NotReady", "Terminating"].iter().any(|s| l.ends_with(s))),
            "the web pod is written with its state"
        );
    }
    let (code, png, err) = kubelife(&["render", "-", "--format", "png", "--view", "cluster"], SMALL);
    assert_eq!(code, 0, "{err}");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let (code, _, err) = kubelife(&["render", "-", "--format", "svg", "--view", "nodes"], SMALL);
    assert_eq!(code, 2, "an unknown view is refused");
    assert!(err.contains("timeline, breakdown, cluster"), "{err}");
}

/// `kubelife` with these environment variables set.
fn kubelife_with(vars: &[(&str, &str)], args: &[&str], stdin: &str) -> (i32, Vec<u8>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kubelife"))
        .args(args)
        .envs(vars.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Issue 36: a Chinese PNG was refused outright, with the whole usage after the message. It is
/// drawn with a CJK font the system has; without one, one message says where it looked and how
/// to get one, and no usage follows.
#[test]
fn a_chinese_png_is_drawn_with_the_systems_cjk_font_or_says_how_to_get_one() {
    let args = ["render", "-", "--format", "png", "--lang", "zh"];
    let (code, out, err) = kubelife_with(&[("KUBELIFE_CJK_FONT", "/nonexistent/cjk.ttc")], &args, SMALL);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("KUBELIFE_CJK_FONT names /nonexistent/cjk.ttc, which is not a font file")
            && err.contains("apt-get install fonts-noto-cjk")
            && err.contains("--format svg"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "one line, no usage: {err}");
    let debian = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc";
    if !std::path::Path::new(debian).exists() {
        println!("skipped drawing a Chinese PNG: {debian} (Debian's fonts-noto-cjk) is not installed");
        return;
    }
    for (variable, view) in [(debian, "breakdown"), ("", "timeline")] {
        // An empty variable looks where fontconfig and the packages put a font.
        let (code, png, err) = kubelife_with(
            &[("KUBELIFE_CJK_FONT", variable)],
            &[&args[..], &["--view", view]].concat(),
            SMALL,
        );
        assert_eq!(code, 0, "{view}: {err}");
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{view}");
        assert_eq!(
            u32::from_be_bytes(png[16..20].try_into().unwrap()),
            900,
            "{view}: 900 px wide"
        );
    }
}
