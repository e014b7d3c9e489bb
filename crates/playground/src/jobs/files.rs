//! The files worker's jobs (`kubelife-files`): a cluster's files read with the engine's import and
//! applied to the page's settings, the configuration in every export format, the scenario JSON,
//! and the figures the page saves, as SVG. Only that worker calls them, so that the YAML parser
//! and serializer and plotters' SVG backend are in no other wasm.

use super::{Bytes, FilesAnswer, FilesJob, Shared};
use crate::settings::Settings;
use kubelife_engine::Cause;

/// Does one job of the files worker.
pub fn answer_files(job: &FilesJob) -> FilesAnswer {
    match job {
        FilesJob::Import { files, too_large, base } => imported(files, too_large, base),
        FilesJob::Export(s) => exported(s),
        FilesJob::ScenarioJson(s) => FilesAnswer::Text(s.scenario().to_json()),
        FilesJob::Svg(picture) => FilesAnswer::Svg(kubelife_figures::picture::svg(picture)),
    }
}

/// Reads `files` with the engine's import as `kubelife import` does, checking against `base`'s
/// version where no file names one, and applies them to `base`, with the engine's report and the
/// page's own lines, every text taken from a file escaped (`shown::escaped`).
fn imported(files: &[(String, Shared)], too_large: &[(String, Option<u64>)], base: &Settings) -> FilesAnswer {
    use kubelife_engine::import::limits::too_large as refused;
    use kubelife_engine::import::shown::escaped;
    use kubelife_engine::import::{import, EntryKind, Reader};
    use kubelife_engine::wire::encode_messages;
    let refs: Vec<(&str, &[u8])> = files.iter().map(|(n, b)| (n.as_str(), &b.0[..])).collect();
    let read = import(&refs, Reader::Page(kubelife_engine::Version { minor: base.minor }));
    let (applied, page) = crate::import::settings_from_import(base, &read);
    let tag = |k: EntryKind| EntryKind::ALL.iter().position(|&x| x == k).unwrap_or_default() as u8;
    // Files over the size limit first, as `kubelife import` prints them.
    let refusals = too_large
        .iter()
        .map(|(name, size)| (tag(EntryKind::Unreadable), refused(name, *size)));
    let summarised = read.report.summarised(ALIKE_SHOWN);
    let entries: Vec<(u8, Cause)> = refusals
        .chain(summarised.iter().map(|e| (tag(e.kind), escaped(&e.cause))))
        .collect();
    let entries = cut(entries, tag(EntryKind::Note));
    let page: Vec<(u8, Cause)> = page.iter().map(|c| (0, escaped(c))).collect();
    FilesAnswer::Imported {
        settings: Box::new(applied),
        report: Bytes(encode_messages(&entries)),
        page: Bytes(encode_messages(&page)),
    }
}

/// How many entries of one kind and message the Import panel shows before one line counts the
/// rest (`Report::summarised`): a file of 10,000 documents gives a few lines, not 30,000.
pub const ALIKE_SHOWN: usize = 3;

/// The most lines of the engine's report the Import panel shows; a line after them counts the
/// rest, which `kubelife import` prints. The page renders every line it is sent in one task, so
/// this bounds that task whatever the files.
pub const MAX_SHOWN: usize = 300;

/// `entries` cut to [`MAX_SHOWN`], the last line (tagged `note`) counting those left out.
fn cut(mut entries: Vec<(u8, Cause)>, note: u8) -> Vec<(u8, Cause)> {
    if entries.len() > MAX_SHOWN {
        let left = entries.len() - (MAX_SHOWN - 1);
        entries.truncate(MAX_SHOWN - 1);
        let count = kubelife_engine::import::shown::thousands(left);
        entries.push((note, Cause::new("import.more.cut").text("count", count)));
    }
    entries
}

/// Every export format of `s`'s configuration.
fn exported(s: &Settings) -> FilesAnswer {
    use kubelife_engine::export::{export, Format};
    let (cfg, _) = s.resolve();
    let all = Format::ALL.iter().map(|&(_, f)| {
        let e = export(&cfg, f);
        let notes: Vec<(u8, Cause)> = e.notes.into_iter().map(|c| (0, c)).collect();
        (e.yaml, Bytes(kubelife_engine::wire::encode_messages(&notes)))
    });
    FilesAnswer::Exported(all.collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An import report's lines, in English.
    fn english_lines(report: &Bytes) -> Vec<String> {
        kubelife_engine::wire::decode_messages(&report.0)
            .unwrap()
            .into_iter()
            .map(|(_, c)| c.english())
            .collect()
    }
    #[test]
    fn an_import_job_applies_the_files_as_the_panel_did() {
        use kubelife_engine::import::{import, EntryKind, Reader};
        use kubelife_engine::wire::decode_messages;
        let text = "--node-monitor-grace-period=20s\n--pod-eviction-timeout=30s\n";
        let files = vec![("kcm.txt".to_string(), Shared::from(text.as_bytes()))];
        let base = Settings {
            nodes: 7,
            ..Settings::default()
        };
        let job = FilesJob::Import {
            files: files.clone(),
            too_large: Vec::new(),
            base: Box::new(base.clone()),
        };
        let FilesAnswer::Imported { settings, report, page } = answer_files(&job) else {
            panic!("an import");
        };
        let read = import(
            &[("kcm.txt", text)],
            Reader::Page(kubelife_engine::Version { minor: base.minor }),
        );
        let applied = *settings;
        let (expected_settings, expected_page) = crate::import::settings_from_import(&base, &read);
        assert_eq!(applied, expected_settings);
        let expected = read.report;
        assert_ne!(applied, base, "the grace period is taken in");
        let kinds: Vec<EntryKind> = decode_messages(&report.0)
            .unwrap()
            .into_iter()
            .map(|(t, _)| EntryKind::ALL[usize::from(t)])
            .collect();
        assert_eq!(kinds, expected.entries.iter().map(|e| e.kind).collect::<Vec<_>>());
        let page: Vec<Cause> = decode_messages(&page.0).unwrap().into_iter().map(|(_, c)| c).collect();
        assert_eq!(page, expected_page);
    }

    /// What the panel shows of a hostile file: escaped, encodings told, files over the size
    /// limit named without being sent.
    #[test]
    fn an_import_job_escapes_what_it_quotes_and_names_what_it_refused() {
        let ansi = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeStatusUpdateFrequency: \"4s\\e]0;owned\\a\\e[2J\"\n";
        let utf16: Vec<u8> = [0xff, 0xfe]
            .into_iter()
            .chain(
                "kind: KubeletConfiguration\nmaxPods: 30\n"
                    .encode_utf16()
                    .flat_map(u16::to_le_bytes),
            )
            .collect();
        let job = FilesJob::Import {
            files: vec![
                ("ansi\u{1b}[2J.yaml".to_string(), Shared::from(ansi.as_bytes())),
                ("ps.yaml".to_string(), Shared::from(&utf16[..])),
            ],
            too_large: vec![("big.yaml".to_string(), Some(3 << 30))],
            base: Box::default(),
        };
        let FilesAnswer::Imported { report, settings, .. } = answer_files(&job) else {
            panic!("an import");
        };
        let lines = english_lines(&report);
        assert!(lines[0].starts_with("big.yaml is 3 GiB"), "{lines:#?}");
        assert!(lines.iter().all(|l| !l.chars().any(char::is_control)), "{lines:#?}");
        assert!(
            lines
                .iter()
                .any(|l| l
                    .contains(r#"ansi\x1b[2J.yaml: cannot read nodeStatusUpdateFrequency "4s\x1b]0;owned\a\x1b[2J""#)),
            "{lines:#?}"
        );
        assert!(
            lines
                .iter()
                .any(|l| l.contains("ps.yaml: UTF-16LE with a byte-order mark")),
            "{lines:#?}"
        );
        assert_eq!(settings.minor, Settings::default().minor);
    }

    /// Issue 36: 10,000 documents gave the page 30,002 lines to render in one task; the worker
    /// now sends a few, each repeated message counted once.
    #[test]
    fn an_import_of_ten_thousand_documents_answers_a_few_lines() {
        let doc =
            "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeStatusUpdateFrequency: 4s\n";
        let big = vec![doc; 10_000].join("---\n");
        let job = FilesJob::Import {
            files: vec![("big.yaml".to_string(), Shared::from(big.as_bytes()))],
            too_large: Vec::new(),
            base: Box::default(),
        };
        let FilesAnswer::Imported { report, .. } = answer_files(&job) else {
            panic!("an import");
        };
        let lines = english_lines(&report);
        assert!(lines.len() <= 20, "{lines:#?}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("9,997 more like big.yaml: read as KubeletConfiguration")),
            "{lines:#?}"
        );
    }

    /// However many kinds of line a report has, the page gets at most `MAX_SHOWN`, the last one
    /// counting the others.
    #[test]
    fn a_report_is_cut_to_what_the_page_shows_and_says_how_many_it_left_out() {
        let entries: Vec<(u8, Cause)> = (0..1_000)
            .map(|i| (2, Cause::new("import.empty").text("file", i)))
            .collect();
        let cut = cut(entries.clone(), 6);
        assert_eq!(cut.len(), MAX_SHOWN);
        assert_eq!(cut[..MAX_SHOWN - 1], entries[..MAX_SHOWN - 1]);
        let last = &cut[MAX_SHOWN - 1];
        assert_eq!(last.0, 6);
        assert_eq!(
            last.1.english(),
            "701 more lines not shown here: kubelife import prints every one"
        );
        assert_eq!(super::cut(entries[..MAX_SHOWN].to_vec(), 6), entries[..MAX_SHOWN]);
    }

    #[test]
    fn an_export_job_gives_every_format_with_its_notes() {
        use kubelife_engine::export::{export, Format};
        let s = Settings::default();
        let FilesAnswer::Exported(all) = answer_files(&FilesJob::Export(Box::new(s.clone()))) else {
            panic!("an export");
        };
        let (cfg, _) = s.resolve();
        assert_eq!(all.len(), Format::ALL.len());
        for ((_, f), (yaml, notes)) in Format::ALL.iter().zip(&all) {
            let e = export(&cfg, *f);
            assert_eq!(*yaml, e.yaml);
            let notes: Vec<_> = kubelife_engine::wire::decode_messages(&notes.0).unwrap();
            assert_eq!(notes.into_iter().map(|(_, c)| c).collect::<Vec<_>>(), e.notes);
        }
    }

    /// A saved figure is drawn as SVG with every lane named and every mark kept, in the texts
    /// it was sent with.
    #[test]
    fn a_figure_job_draws_the_figure_as_svg() {
        use kubelife_figures::picture::{DrawnLane, Picture};
        let run = crate::model::Run::simulate(Settings::default());
        let lanes: Vec<DrawnLane> = run.lanes.iter().map(DrawnLane::from).collect();
        assert!(
            lanes.iter().any(|l| !l.marks.is_empty()),
            "the default run's lanes have marks"
        );
        let legend = kubelife_figures::Legend::from_texts(kubelife_figures::LegendTexts {
            terminating: "Terminating (striped)",
            partial: "fewer serving (dotted)",
            moved: "volume attached elsewhere (barred)",
            marks: "▼ last heartbeat · ▲ Unknown or fault · ◆ taint · ■ pod change",
        });
        let picture = Picture::Timeline {
            lanes,
            duration: run.cfg.duration,
            now: Some(60_000),
            legend: Box::new(legend),
        };
        let FilesAnswer::Svg(Ok(drawn)) = answer_files(&FilesJob::Svg(std::rc::Rc::new(picture))) else {
            panic!("an SVG");
        };
        assert!(drawn.starts_with("<svg"), "{}", &drawn[..40]);
        for lane in run.lanes.iter() {
            assert!(drawn.contains(&lane.name), "{} is drawn", lane.name);
        }
        assert!(drawn.contains("last heartbeat"));
        // Each mark is a polygon, and so is each of the legend's four.
        let marks: usize = run.lanes.iter().map(|l| l.marks.len()).sum();
        assert!(drawn.matches("<polygon").count() >= marks + 4, "{marks} marks drawn");
        let bars = Picture::Breakdown {
            bars: vec![kubelife_figures::Bar {
                title: "From the fault to the first replacement Ready".into(),
                total: "total 5m54.8s".into(),
                pieces: vec![kubelife_figures::Piece {
                    label: "44.5s heartbeats missing".into(),
                    ms: 44_500,
                }],
                passes: None,
            }],
            texts: kubelife_figures::BreakdownTexts {
                title: "Where does the time go?".into(),
            },
        };
        let FilesAnswer::Svg(Ok(drawn)) = answer_files(&FilesJob::Svg(std::rc::Rc::new(bars))) else {
            panic!("an SVG");
        };
        assert!(drawn.contains("Where does the time go?") && drawn.contains("44.5s heartbeats missing"));
    }

    #[test]
    fn a_scenario_job_gives_the_clis_input() {
        let s = Settings::default();
        let FilesAnswer::Text(json) = answer_files(&FilesJob::ScenarioJson(Box::new(s.clone()))) else {
            panic!("a text");
        };
        assert_eq!(
            kubelife_engine::scenario::Scenario::from_json(&json).ok(),
            Some(s.scenario())
        );
    }
}
