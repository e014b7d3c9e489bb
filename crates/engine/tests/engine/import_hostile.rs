//! Hostile input: files built to hurt, or broken by a careless script, each read within the
//! import's limits (`import::limits`), with a report line naming the file, escaped, never
//! silently dropped.
//!
//! - The hand-made files of `tests/fixtures/hostile/` each go through [`check`] with the report
//!   line they must give.
//! - The inputs of issue 24's table (deep nesting, a large string aliased thousands of times, a
//!   file over the size limit, terminal escapes, a 1 MB flag value) are generated here.
//! - A property test generates hostile YAML and JSON shapes (deep nesting, alias fans, huge
//!   scalars, control characters, wrong types, duplicate keys, tags, byte-order marks) with a
//!   fixed budget: its cases, and a time bound for each. The cases it finds are kept in
//!   `tests/proptest-regressions/`.

use kubelife_engine::import::limits::MAX_FILE_BYTES;
use kubelife_engine::import::{import, EntryKind, Reader, Report};
use kubelife_engine::scenario::{GoDuration, NodeSection, Scenario};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The most time one import of a hostile input may take, in a debug build on a slow machine.
/// The release build takes a tenth of it (docs/import.md, "Limits").
const TIME_BOUND: Duration = Duration::from_secs(5);

/// The longest report line: every text taken from a file is cut (`shown`).
const MAX_LINE: usize = 12_000;

/// What a report must say: the kinds of entry it must have, and words each of those has.
type Says<'a> = &'a [(EntryKind, &'a str)];

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile")
}

/// Imports `files` for `kubelife import` and checks what every hostile input must give: an
/// answer within [`TIME_BOUND`], a report whose bytes hold no control character but the line
/// ends, no line longer than [`MAX_LINE`], the entries `says` names, and a scenario that runs.
fn check(label: &str, files: &[(&str, &[u8])], says: Says) -> (Scenario, Report) {
    let start = Instant::now();
    let read = import(files, Reader::Cli(None));
    let took = start.elapsed();
    let text = read.report.text();
    assert!(took < TIME_BOUND, "{label}: took {took:?}");
    let bad: Vec<char> = text.chars().filter(|c| c.is_control() && *c != '\n').collect();
    assert!(
        bad.is_empty(),
        "{label}: control characters {bad:?} in the report:\n{text}"
    );
    let long = text.lines().map(str::len).max().unwrap_or(0);
    assert!(long <= MAX_LINE, "{label}: a report line of {long} bytes");
    for (kind, words) in says {
        assert!(
            read.report.of(*kind).any(|c| c.english().contains(words)),
            "{label}: the report has no {kind:?} entry saying {words:?}\nreport:\n{text}"
        );
    }
    let mut scenario = read.scenario.clone();
    if scenario.nodes.is_empty() {
        scenario.nodes.push(NodeSection {
            name: "n".into(),
            ..Default::default()
        });
    }
    if let Err(e) = scenario.resolve() {
        panic!("{label}: the scenario does not resolve: {e}\nreport:\n{text}");
    }
    (read.scenario, read.report)
}

/// Each hand-made file and what its report must say.
fn expectations() -> Vec<(&'static str, Vec<(EntryKind, &'static str)>)> {
    use EntryKind::*;
    vec![
        ("alias-fan-big-string.yaml", vec![(Unreadable, "alias-fan-big-string.yaml: YAML aliases (*name)")]),
        ("ansi-escape-kubelet-config.yaml", vec![(Unreadable, r#"nodeStatusUpdateFrequency "4s\x1b]0;owned\a\x1b[2J""#), (Recognised, "maxPods = 40")]),
        ("bad-node-names.json", vec![
            (Ignored, "Node_1 is not a Kubernetes node name"),
            (Ignored, r"node-\x1b[2J is not a Kubernetes node name"),
            (Ignored, "Node metadata.name is a number where text belongs"),
            (Ignored, r"node node-3: the value zone\x1b]0;owned\a of label topology.kubernetes.io/zone is not a Kubernetes label value"),
            (Ignored, "node node-4: label topology.kubernetes.io/zone is a number where text belongs"),
        ]),
        ("bidi-override-flag.txt", vec![(Ignored, r"flag list arguments that are neither long flags nor a flag's value: --\u202eevil-flag=1")]),
        ("billion-laughs.yaml", vec![(Unreadable, "billion-laughs.yaml: YAML aliases (*name) and merge keys (<<) expand beyond the file's size by more than 100,000 nodes or 1 MiB (an alias bomb): not read")]),
        ("complex-keys.yaml", vec![(Unreadable, "complex-keys.yaml: YAML error (a mapping or a sequence used as a key, which Kubernetes' YAML reader refuses"), (Recognised, "maxPods = 30")]),
        ("deep-flow-nesting.yaml", vec![(Unreadable, "deep-flow-nesting.yaml line 1: nested deeper than 64 levels")]),
        ("deep-json-nesting.json", vec![(Unreadable, "deep-json-nesting.json line 1: nested deeper than 64 levels")]),
        ("duplicate-keys.json", vec![(Ignored, "key maxPods appears more than once in the top level"), (Recognised, "maxPods = 20")]),
        ("duplicate-keys.yaml", vec![(Ignored, "key maxPods appears more than once in the top level"), (Recognised, "maxPods = 20")]),
        ("flow-mapping-kubelet-config.yaml", vec![(Recognised, "kubelet.nodeStatusUpdateFrequency = 4s")]),
        ("items-not-a-list.json", vec![(Ignored, "items is a map where a list belongs")]),
        ("json-looking-yaml.yaml", vec![(Recognised, "maxPods = 30")]),
        ("k3s-kubelet-arg-map.yaml", vec![
            (Ignored, "kubelet-arg is a map where a list of name=value entries belongs"),
            (Ignored, "kube-controller-manager-arg[1] is a list where text belongs"),
            (Recognised, "nodeMonitorGracePeriod = 20s"),
        ]),
        ("kubeadm-flags-nul.env", vec![
            (Unreadable, r"kubeadm-flags-nul.env line 1: NUL bytes (\x00), 1 in all"),
            (Unreadable, r#"--node-status-update-frequency "4s\x00": the character \x00 at character 3"#),
            (Recognised, "maxPods = 50"),
        ]),
        ("kubeadm-wrong-section-types.yaml", vec![
            (Ignored, "controllerManager is a list where a map belongs"),
            (Ignored, "apiServer is a boolean where a map belongs"),
            (Ignored, "etcd.local is text where a map belongs"),
        ]),
        ("latin1-kubelet-config.yaml", vec![(Unreadable, "latin1-kubelet-config.yaml is not UTF-8: byte 0xe9 at offset 74")]),
        ("long-flag-value.txt", vec![(Unreadable, "… (100,000 characters)"), (Recognised, "nodeMonitorPeriod = 2s")]),
        ("merge-key-not-a-map.yaml", vec![(Ignored, "merge keys (<<) whose value is neither a mapping nor a list of mappings are ignored (1)"), (Recognised, "maxPods = 30")]),
        ("mhc-many-conditions.yaml", vec![(Ignored, "many-conditions.yaml: MachineHealthCheck many spec.unhealthyConditions lists 150 conditions; only the first 100 are read")]),
        ("nhc-shapes.yaml", vec![
            (Ignored, "NodeHealthCheck both-limits sets both minHealthy and maxUnhealthy (1), which NodeHealthCheck refuses"),
            (Ignored, "NodeHealthCheck escalating: the escalating remediations after the first are not modelled: FenceAgentsRemediationTemplate"),
            (Ignored, "maxUnhealthy 3 is a count of nodes"),
            (Overridden, "its SelfNodeRemediation replaces the one from nhc-shapes.yaml"),
            (Note, "NodeHealthCheck max-percent: maxUnhealthy 40% read as minHealthy 60%"),
            (Ignored, "NodeHealthCheck no-template names no remediation template"),
            (Note, r"MachineHealthCheck mhc\x1b[2J lists no node conditions"),
            (Ignored, "MachineHealthCheck wrong-spec spec is text where a map belongs"),
        ]),
        ("node-blocks-wrong-types.json", vec![
            (Ignored, "node n-1: status is a list where a map belongs"),
            (Ignored, "node n-1: spec is a list where a map belongs"),
            (Ignored, "node n-2: status.allocatable is a list where a map belongs"),
            (Ignored, "node n-2: status.nodeInfo is text where a map belongs"),
        ]),
        ("nul-bytes-kubelet-config.yaml", vec![(Unreadable, r"nul-bytes-kubelet-config.yaml line 5: NUL bytes (\x00), 4 in all, which no format kubelife reads allows")]),
        ("provider-id-escapes.json", vec![
            (Ignored, r"spec.providerID names a cloud kubelife does not model: \x1b]0;owned\a (1), xxxx"),
            (Ignored, "node n-3: spec.providerID is a list where text belongs"),
            (Recognised, "cloud.provider = aws: spec.providerID names it on 1 of the nodes (n-4)"),
            (Note, "karpenter.sh/nodepool on 1 of the nodes (n-1)"),
        ]),
        ("rke-services-list.yaml", vec![(Ignored, "rke-services-list.yaml: services is a list where a map belongs")]),
        ("snr-config-alone.yaml", vec![(Note, "no NodeHealthCheck in the files remediates with Self Node Remediation, so SelfNodeRemediationConfig self-node-remediation-config sets nothing")]),
        ("static-pod-wrong-shapes.yaml", vec![
            (Ignored, "static-pod-wrong-shapes.yaml: spec.containers is a map where a list belongs"),
            (Ignored, "static-pod-wrong-shapes.yaml: spec.containers[0].command is a map where a list belongs"),
        ]),
        ("tab-in-duration.yaml", vec![(Unreadable, r#"nodeStatusUpdateFrequency "\t5s": the character \t at character 1"#), (Unreadable, r#"shutdownGracePeriod "30s ": a space at character 4"#)]),
        ("tags-kubelet-config.yaml", vec![
            (Ignored, "line 3: YAML tag !!python/object/new:str ignored"),
            (Ignored, "line 4: YAML tag !Ref ignored"),
            (Recognised, "kubelet.nodeStatusUpdateFrequency = 4s"),
        ]),
        ("truncated-nodes.json", vec![(Unreadable, "truncated-nodes.json could not be read: EOF while parsing")]),
        ("utf16le-bom-kubelet-config.yaml", vec![(Note, "UTF-16LE with a byte-order mark"), (Recognised, "maxPods = 30")]),
        ("utf16le-no-bom-kubelet-config.yaml", vec![(Unreadable, "looks like UTF-16LE without a byte-order mark")]),
        ("utf8-bom-kubelet-config.yaml", vec![(Note, "UTF-8 with a byte-order mark; read without it"), (Recognised, "maxPods = 30")]),
    ]
}

#[test]
fn every_hostile_fixture_gives_its_report_line() {
    let cases = expectations();
    let mut files: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let named: Vec<&str> = cases.iter().map(|(f, _)| *f).collect();
    assert_eq!(files, named, "every hostile fixture has its expectation here, in order");
    for (file, says) in &cases {
        let bytes = std::fs::read(dir().join(file)).unwrap();
        check(file, &[(file, &bytes)], says);
    }
}

#[test]
fn the_flow_mapping_imports_and_the_dropped_are_said() {
    let flow = std::fs::read(dir().join("flow-mapping-kubelet-config.yaml")).unwrap();
    let (s, _) = check("flow", &[("flow.yaml", &flow)], &[]);
    assert_eq!(s.kubelet.node_status_update_frequency, Some(GoDuration(4_000)));
    let tags = std::fs::read(dir().join("tags-kubelet-config.yaml")).unwrap();
    let (s, _) = check("tags", &[("tags.yaml", &tags)], &[]);
    assert_eq!(
        s.kubelet.node_lease_duration_seconds,
        Some(20),
        "the value after a tag is read"
    );
}

/// A YAML text inside a ConfigMap's data is read within the same limits, and a limit it crosses
/// is reported as the file's own: as a message, not as English text quoted in another message.
#[test]
fn a_configmaps_embedded_yaml_keeps_the_limits() {
    let deep = format!("a: {}", "[".repeat(200));
    let cm = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: kubelet-config}}\ndata:\n  kubelet: {}\n",
        serde_json::to_string(&deep).unwrap()
    );
    let (_, report) = check(
        "embedded",
        &[("cm.yaml", cm.as_bytes())],
        &[(EntryKind::Unreadable, "nested deeper than 64 levels")],
    );
    let limit = report.of(EntryKind::Unreadable).next().unwrap();
    assert_eq!(limit.key, "import.limit.depth", "{report:?}");
}

/// Issue 24's table, each input generated at its size.
#[test]
fn the_issue_table_returns_quickly_with_a_message_naming_the_file() {
    use EntryKind::*;
    let deep = format!("a: {}", "[".repeat(200_000));
    check(
        "deep",
        &[("deep.yaml", deep.as_bytes())],
        &[(Unreadable, "deep.yaml line 1: nested deeper than 64 levels")],
    );
    let big = "x".repeat(1 << 20);
    for aliases in [4_000, 10_000] {
        let bomb = format!("a: &s {big}\nb: [{}]\n", vec!["*s"; aliases].join(", "));
        check(
            "aliases",
            &[("bomb.yaml", bomb.as_bytes())],
            &[(
                Unreadable,
                "bomb.yaml: YAML aliases (*name) and merge keys (<<) expand beyond the file's size",
            )],
        );
    }
    let ansi = b"apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nnodeStatusUpdateFrequency: \"4s\\e]0;owned\\a\\e[2J\"\n";
    let (_, report) = check(
        "ansi",
        &[("ansi.yaml", ansi)],
        &[(Unreadable, r"ansi.yaml: cannot read nodeStatusUpdateFrequency")],
    );
    assert!(!report.text().contains('\u{1b}'));
    let flag = format!("--node-monitor-grace-period={big}\n");
    let (_, report) = check(
        "flag",
        &[("flag.txt", flag.as_bytes())],
        &[(Unreadable, "… (1,048,576 characters)")],
    );
    assert!(
        report.text().len() < 2_000,
        "the value is quoted once, cut:\n{}",
        report.text()
    );
    // Over the size limit: refused before anything is read.
    let over = vec![b' '; MAX_FILE_BYTES + 1];
    check(
        "size",
        &[
            ("big.yaml", &over),
            ("flow.yaml", b"{kind: KubeletConfiguration, maxPods: 30}"),
        ],
        &[
            (
                Unreadable,
                "big.yaml is 128.0 MiB (134,217,729 B), over the 128 MiB kubelife reads: not read",
            ),
            (Recognised, "maxPods = 30"),
        ],
    );
}

#[test]
fn unclear_messages_name_the_file_and_the_version() {
    use EntryKind::*;
    let nodes = br#"{"kind": "NodeList", "apiVersion": "v1", "items": [{"metadata": {"name": "a23456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890"}}]}"#;
    check(
        "name",
        &[("nodes.json", nodes)],
        &[(Invalid, "nodes[0].name (from nodes.json) is dropped")],
    );
    let flags = b"--pod-eviction-timeout=30s";
    let read = import(&[("kcm.txt", &flags[..])], Reader::Cli(Some("1.30")));
    assert!(
        read.report
            .text()
            .contains("note: --version 1.30 chosen; no file names a version\n"),
        "{}",
        read.report.text()
    );
    let read = import(&[("kcm.txt", &flags[..])], Reader::Cli(Some("1.20")));
    assert!(
        read.report
            .text()
            .contains("invalid: controllerManager.podEvictionTimeout (from kcm.txt) is dropped")
            || read.report.text().contains("warning"),
        "{}",
        read.report.text()
    );
    let broken = b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: \"open\n";
    check(
        "salvage",
        &[("cm.yaml", broken)],
        &[(Unreadable, "cm.yaml: YAML error (")],
    );
    let (_, report) = check("salvage", &[("cm.yaml", broken)], &[]);
    assert!(
        report.text().contains("what comes before line 6 is kept"),
        "{}",
        report.text()
    );
}

// ---- generated hostile shapes ----

/// A hostile YAML or JSON text, and how to encode it ([`encode`]).
fn hostile() -> impl Strategy<Value = (String, u8)> {
    let kubelet = "apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n";
    let nesting = (
        1usize..3_000,
        prop::sample::select(vec!["[", "{a: ", "- ", "{\"a\": [", "? "]),
        any::<bool>(),
    )
        .prop_map(move |(depth, open, keyed)| {
            let prefix = if keyed { "a: " } else { "" };
            format!("{prefix}{}x", open.repeat(depth))
        });
    let alias_fan = (1usize..20_000, 1usize..4_000, any::<bool>()).prop_map(|(len, fan, list)| {
        let anchored = if list {
            format!("[{}]", vec!["x"; len.min(2_000)].join(", "))
        } else {
            "y".repeat(len)
        };
        format!("a: &s {anchored}\nb: [{}]\n", vec!["*s"; fan].join(", "))
    });
    let huge = (1usize..200_000, prop::sample::select(vec!["x", "9", " ", "\\t", "é"]))
        .prop_map(move |(n, c)| format!("{kubelet}nodeStatusUpdateFrequency: \"{}\"\n", c.repeat(n)));
    let control = (
        prop::collection::vec(
            prop::sample::select(vec!['\0', '\u{1b}', '\u{7}', '\t', '\u{9b}', '\u{202e}', '\r']),
            1..8,
        ),
        0usize..40,
    )
        .prop_map(move |(chars, at)| {
            let value: String = chars.into_iter().collect();
            let (a, b) = "4s".split_at(at.min(2) % 3);
            format!(
                "{kubelet}nodeStatusUpdateFrequency: \"{a}{}{b}\"\nmaxPods: 30\n",
                value.escape_default()
            )
        });
    let wrong_types = (
        prop::sample::select(vec![
            "controllerManager",
            "apiServer",
            "nodeRegistration",
            "etcd",
            "kubelet-arg",
            "items",
            "metadata",
            "spec",
            "status",
            "services",
        ]),
        prop::sample::select(vec!["[1, 2]", "true", "5", "\"x\"", "{a: [b]}", "null", "~"]),
    )
        .prop_map(|(key, value)| {
            format!("apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\n{key}: {value}\n")
        });
    let duplicates = (1usize..50, any::<bool>()).prop_map(move |(n, json)| match json {
        true => format!(
            "{{\"kind\": \"KubeletConfiguration\", {}}}",
            (0..n)
                .map(|i| format!("\"maxPods\": {i}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        false => format!(
            "{kubelet}{}",
            (0..n).map(|i| format!("maxPods: {i}\n")).collect::<String>()
        ),
    });
    let tags = (
        prop::sample::select(vec![
            "!Ref",
            "!!python/object/new:str",
            "!!binary",
            "!<tag:example.com:x>",
            "!!str",
            "!e!x",
        ]),
        any::<bool>(),
    )
        .prop_map(move |(tag, map)| match map {
            true => format!("{kubelet}featureGates: {tag} {{GracefulNodeShutdown: true}}\n"),
            false => format!("{kubelet}nodeStatusUpdateFrequency: {tag} 4s\n"),
        });
    (
        prop_oneof![
            nesting,
            alias_fan,
            huge,
            control,
            wrong_types,
            duplicates,
            tags,
            objects(),
            remediators()
        ],
        0u8..6,
    )
}

/// Text a hostile object may hold where a name, a zone, a label or a toleration's key and value
/// go: control characters, bidirectional overrides, long runs, other types.
fn nasty_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9.-]{1,20}".prop_map(|s| format!("\"{s}\"")),
        prop::collection::vec(
            prop::sample::select(vec![
                "a",
                "\\u001b[2J",
                "\\u0000",
                "\\t",
                "\\u202e",
                "\\u009b",
                " ",
                "Z",
                "/",
                "é"
            ]),
            1..12
        )
        .prop_map(|parts| format!("\"{}\"", parts.concat())),
        (1usize..5_000).prop_map(|n| format!("\"{}\"", "n".repeat(n))),
        prop::sample::select(vec!["5", "true", "null", "[\"a\"]", "{\"a\": 1}"]).prop_map(str::to_string),
    ]
}

/// `kubectl get` output whose names, zones, labels and tolerations are hostile.
fn objects() -> impl Strategy<Value = String> {
    // spec.providerID: a modelled cloud's scheme, another, or hostile text; a node-pool label.
    let provider_id = prop_oneof![
        prop::sample::select(vec![
            "aws:///us-east-1a/i-1",
            "gce://p/z/n",
            "azure:///subscriptions/s",
            "kind://x"
        ])
        .prop_map(|p| format!("\"{p}\"")),
        nasty_text(),
        nasty_text().prop_map(|t| match t.strip_prefix('"') {
            Some(rest) => format!("\"aws://{rest}"),
            None => t,
        }),
    ];
    let pool = prop::sample::select(vec![
        "eks.amazonaws.com/nodegroup",
        "cloud.google.com/gke-nodepool",
        "kubernetes.azure.com/agentpool",
        "karpenter.sh/nodepool",
    ]);
    let node = (nasty_text(), nasty_text(), nasty_text(), provider_id, pool, nasty_text()).prop_map(
        |(name, zone, excluded, provider_id, pool, pool_name)| {
            format!(
                r#"{{"kind": "Node", "metadata": {{"name": {name}, "labels": {{"topology.kubernetes.io/zone": {zone}, "node.kubernetes.io/exclude-disruption": {excluded}, "{pool}": {pool_name}}}}}, "spec": {{"providerID": {provider_id}}}}}"#
            )
        },
    );
    let effect = prop_oneof![
        Just("\"NoExecute\"".to_string()),
        Just("\"\"".to_string()),
        nasty_text()
    ];
    let workload = (nasty_text(), nasty_text(), nasty_text(), nasty_text(), effect).prop_map(|(name, ns, key, value, effect)| {
        format!(
            r#"{{"kind": "Deployment", "metadata": {{"name": {name}, "namespace": {ns}}}, "spec": {{"replicas": 2, "template": {{"spec": {{"tolerations": [{{"key": {key}, "operator": "Equal", "value": {value}, "effect": {effect}}}]}}}}}}}}"#
        )
    });
    (prop::collection::vec(node, 0..4), prop::collection::vec(workload, 0..4)).prop_map(|(nodes, workloads)| {
        let items: Vec<String> = nodes.into_iter().chain(workloads).collect();
        format!(
            r#"{{"apiVersion": "v1", "kind": "List", "items": [{}]}}"#,
            items.join(", ")
        )
    })
}

/// Health checks (Cluster API v1beta1 and v1beta2, medik8s NodeHealthCheck, Self Node
/// Remediation's template and configuration) whose names, conditions, timeouts and limits are
/// hostile or of the wrong type, as JSON.
fn remediators() -> impl Strategy<Value = String> {
    let condition = (nasty_text(), nasty_text(), nasty_text(), 0u8..3).prop_map(|(kind, status, timeout, key)| {
        let key = ["timeout", "timeoutSeconds", "duration"][key as usize];
        format!(r#"{{"type": {kind}, "status": {status}, "{key}": {timeout}}}"#)
    });
    let conditions = prop::collection::vec(condition, 0..4).prop_map(|c| format!("[{}]", c.join(", ")));
    let doc = (
        0u8..5,
        nasty_text(),
        conditions,
        nasty_text(),
        nasty_text(),
        prop_oneof![Just("\"SelfNodeRemediationTemplate\"".to_string()), nasty_text()],
    )
        .prop_map(|(which, name, conditions, limit, timeout, template)| match which {
            0 => format!(
                r#"{{"apiVersion": "cluster.x-k8s.io/v1beta1", "kind": "MachineHealthCheck", "metadata": {{"name": {name}}}, "spec": {{"unhealthyConditions": {conditions}, "maxUnhealthy": {limit}, "nodeStartupTimeout": {timeout}}}}}"#
            ),
            1 => format!(
                r#"{{"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "MachineHealthCheck", "metadata": {{"name": {name}}}, "spec": {{"checks": {{"unhealthyNodeConditions": {conditions}, "nodeStartupTimeoutSeconds": {timeout}}}, "remediation": {{"triggerIf": {{"unhealthyLessThanOrEqualTo": {limit}}}}}}}}}"#
            ),
            2 => format!(
                r#"{{"apiVersion": "remediation.medik8s.io/v1alpha1", "kind": "NodeHealthCheck", "metadata": {{"name": {name}}}, "spec": {{"unhealthyConditions": {conditions}, "maxUnhealthy": {limit}, "remediationTemplate": {{"kind": {template}}}}}}}"#
            ),
            3 => format!(
                r#"{{"apiVersion": "self-node-remediation.medik8s.io/v1alpha1", "kind": "SelfNodeRemediationTemplate", "metadata": {{"name": {name}}}, "spec": {{"template": {{"spec": {{"remediationStrategy": {limit}}}}}}}}}"#
            ),
            _ => format!(
                r#"{{"apiVersion": "self-node-remediation.medik8s.io/v1alpha1", "kind": "SelfNodeRemediationConfig", "metadata": {{"name": {name}}}, "spec": {{"safeTimeToAssumeNodeRebootedSeconds": {timeout}}}}}"#
            ),
        });
    prop::collection::vec(doc, 1..4).prop_map(|docs| {
        format!(
            r#"{{"apiVersion": "v1", "kind": "List", "items": [{}]}}"#,
            docs.join(", ")
        )
    })
}

/// A health check's conditions are read within the import's limits: nesting, aliases, and at
/// most 100 conditions of 10,000.
#[test]
fn health_checks_keep_the_limits() {
    use EntryKind::*;
    let head = "apiVersion: cluster.x-k8s.io/v1beta1\nkind: MachineHealthCheck\nmetadata: {name: m}\nspec:\n";
    let deep = format!("{head}  unhealthyConditions: {}\n", "[".repeat(200));
    check(
        "deep",
        &[("mhc.yaml", deep.as_bytes())],
        &[(Unreadable, "mhc.yaml line 5: nested deeper than 64 levels")],
    );
    let big = "x".repeat(1 << 20);
    let bomb = format!(
        "{head}  unhealthyConditions:\n  - {{type: &t {big}, status: \"True\", timeout: 1s}}\n{}",
        "  - {type: *t, status: \"True\", timeout: 1s}\n".repeat(100)
    );
    check(
        "aliases",
        &[("mhc.yaml", bomb.as_bytes())],
        &[(
            Unreadable,
            "mhc.yaml: YAML aliases (*name) and merge keys (<<) expand beyond the file's size",
        )],
    );
    let many: String = (0..10_000)
        .map(|i| format!(r#"{{"type": "C{i}", "status": "True", "timeoutSeconds": {i}}},"#))
        .collect();
    let json = format!(
        r#"{{"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "MachineHealthCheck", "metadata": {{"name": "m"}}, "spec": {{"checks": {{"unhealthyNodeConditions": [{}]}}}}}}"#,
        many.trim_end_matches(',')
    );
    let (s, _) = check(
        "many",
        &[("mhc.json", json.as_bytes())],
        &[(Ignored, "lists 10000 conditions; only the first 100 are read")],
    );
    let value = serde_json::to_value(&s.remediation).unwrap();
    assert_eq!(value[0]["unhealthyConditions"].as_array().map(Vec::len), Some(100));
}

/// Whether text taken into a scenario is safe to print: no control character, no bidirectional
/// override.
fn safe(text: &str) -> bool {
    !text.chars().any(kubelife_engine::import::shown::is_unsafe)
}

/// `text` as bytes: UTF-8 (0–2), UTF-8 with a byte-order mark, UTF-16LE or UTF-16BE with one.
fn encode(text: &str, encoding: u8) -> Vec<u8> {
    match encoding {
        3 => [&[0xef, 0xbb, 0xbf][..], text.as_bytes()].concat(),
        4 => [0xff, 0xfe]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect(),
        5 => [0xfe, 0xff]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
            .collect(),
        _ => text.as_bytes().to_vec(),
    }
}

proptest! {
    #![proptest_config(crate::seeded::config(48))]

    /// Whatever the shape, the import answers in time with an escaped report and a scenario
    /// that runs.
    #[test]
    fn hostile_shapes_are_read_in_time_and_reported_escaped((text, encoding) in hostile()) {
        let bytes = encode(&text, encoding);
        let (scenario, report) = check("hostile.yaml", &[("hostile.yaml", &bytes)], &[]);
        prop_assert!(!report.entries.is_empty());
        // What reaches the scenario is printed by `kubelife run` as it is: only Kubernetes names.
        let mut texts: Vec<&str> = Vec::new();
        for n in &scenario.nodes {
            texts.extend([n.name.as_str()].into_iter().chain(n.zone.as_deref()).chain(n.labels.values().map(String::as_str)));
        }
        for w in &scenario.workloads {
            texts.push(&w.name);
            for t in &w.tolerations {
                texts.extend([t.key.as_str(), t.value.as_str(), t.effect.as_str()].into_iter().chain(t.operator.as_deref()));
            }
        }
        let unsafe_texts: Vec<&&str> = texts.iter().filter(|t| !safe(t)).collect();
        prop_assert!(unsafe_texts.is_empty(), "{:?}\n{}", unsafe_texts, report.text());
    }
}
