//! The playground's state as the user sets it, and the scenario it stands for.

use crate::knobs::{knob, Group, Knob, KNOBS};
use kubelife_engine::flags::{self, Flag, Value};
use kubelife_engine::scenario::cloud::Provider;
use kubelife_engine::scenario::{
    ActionKind, ActionSection, AksSection, CloudSection, ConditionSection, EksSection, GkeSection, GoDuration,
    IntOrString, KarpenterSection, MachineHealthCheckSection, NodeSection, PdbSection, RemediationSection, Scenario,
    SelfNodeRemediationSection, VolumeSection, WorkloadKind, WorkloadSection,
};
use kubelife_engine::time::SECOND;
use kubelife_engine::version::NEWEST_MINOR;
use kubelife_engine::{Config, ScenarioError, Version};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The fault the user injects.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fault {
    /// Index of the node (0-based).
    pub node: u32,
    /// What happens to it.
    pub kind: ActionKind,
    /// When, in seconds from the start.
    pub at_seconds: u32,
    /// When it ends (NodeRecover), if ever, in seconds.
    pub recover_at_seconds: Option<u32>,
    /// How many nodes fail together, from `node` on (a zone outage is several); 0 for no
    /// single-node fault (a zone outage alone, or a cluster left alone).
    #[serde(default = "one")]
    pub count: u32,
    /// A SpotInterruption's `notice`, s; `None` for the provider's (AWS 2m0s, GCP and Azure
    /// 30s).
    #[serde(default)]
    pub notice_seconds: Option<u32>,
}

/// The longest spot interruption notice the page offers, s.
pub const MAX_NOTICE_SECONDS: u32 = 600;

fn one() -> u32 {
    1
}

/// Every node of one zone losing power at once (NodeCrash), and coming back, if ever.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZoneOutage {
    /// Index of the zone in [`ZONES`] (0 is zone-a).
    pub zone: u32,
    /// When its nodes crash, s.
    pub at_seconds: u32,
    /// When they all recover (NodeRecover), if ever, s.
    pub end_seconds: Option<u32>,
}

impl ZoneOutage {
    /// Its zone's name.
    pub fn zone_name(self) -> &'static str {
        ZONES.get(self.zone as usize).copied().unwrap_or("")
    }
}

/// An apiserver latency spike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LatencySpike {
    /// When it starts, s.
    pub from_seconds: u32,
    /// When it ends, s.
    pub until_seconds: u32,
    /// Latency added to every API call, ms.
    pub ms: u32,
}

/// An operator's patch of the `web` pods' `tolerationSeconds`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TolerationPatch {
    /// When, s.
    pub at_seconds: u32,
    /// The new tolerationSeconds, s.
    pub seconds: u32,
}

/// Operator actions and control-plane events beside the fault; each is off unless set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Operations {
    /// An apiserver latency spike.
    pub latency: Option<LatencySpike>,
    /// When an operator adds `node.kubernetes.io/out-of-service` to the failed nodes, s.
    pub out_of_service_at_seconds: Option<u32>,
    /// When kube-controller-manager restarts (a new leader takes over at once), s.
    pub kcm_restart_at_seconds: Option<u32>,
    /// A patch of the `web` pods' tolerationSeconds.
    pub toleration_patch: Option<TolerationPatch>,
    /// When an operator force-deletes `db-0` (`kubectl delete pod db-0 --grace-period=0
    /// --force`), s.
    #[serde(default)]
    pub force_delete_db_at_seconds: Option<u32>,
}

/// The providers the page offers ("Where does it run?"), in order, with their link names and
/// label keys; no provider is bare metal (or kubeadm) with no cloud controller.
pub const PROVIDERS: [(Provider, &str, &str); 3] = [
    (Provider::Aws, "aws", "ui.cloud.aws"),
    (Provider::Gcp, "gcp", "ui.cloud.gcp"),
    (Provider::Azure, "azure", "ui.cloud.azure"),
];

/// The provider a link names.
pub fn parse_provider(name: &str) -> Option<Provider> {
    PROVIDERS.iter().find(|p| p.1 == name).map(|p| p.0)
}

/// What repairs nodes ("What repairs nodes?"): none, or one remediator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum Remediator {
    /// Nothing but kube-controller-manager.
    #[default]
    None,
    /// Cluster API MachineHealthCheck.
    Mhc,
    /// medik8s NodeHealthCheck with Self Node Remediation.
    Snr,
    /// Karpenter node repair.
    Karpenter,
    /// GKE node auto-repair.
    Gke,
    /// EKS node auto repair.
    Eks,
    /// AKS node auto-repair.
    Aks,
}

impl Remediator {
    /// Every choice in the page's order, with its link name and its label's catalogue key.
    pub const ALL: [(Remediator, &'static str, &'static str); 7] = [
        (Remediator::None, "none", "ui.repair.none"),
        (Remediator::Mhc, "mhc", "ui.repair.mhc"),
        (Remediator::Snr, "snr", "ui.repair.snr"),
        (Remediator::Karpenter, "karpenter", "ui.repair.karpenter"),
        (Remediator::Gke, "gke", "ui.repair.gke"),
        (Remediator::Eks, "eks", "ui.repair.eks"),
        (Remediator::Aks, "aks", "ui.repair.aks"),
    ];

    /// Its link name.
    pub fn name(self) -> &'static str {
        Remediator::ALL.iter().find(|r| r.0 == self).map_or("none", |r| r.1)
    }

    /// The remediator a link names.
    pub fn parse(name: &str) -> Option<Remediator> {
        Remediator::ALL.iter().find(|r| r.1 == name).map(|r| r.0)
    }

    /// The providers it runs on; empty when any will do (bare metal too).
    pub fn providers(self) -> &'static [Provider] {
        match self {
            Remediator::Gke => &[Provider::Gcp],
            Remediator::Eks => &[Provider::Aws],
            Remediator::Aks => &[Provider::Azure],
            Remediator::Karpenter => &[Provider::Aws, Provider::Azure],
            _ => &[],
        }
    }

    /// Its unhealthy timeout as the page offers it: the default, the least and the most, s
    /// (`None` when it has none the page sets: no remediator, Karpenter).
    pub fn timeout(self) -> Option<(u32, u32, u32)> {
        match self {
            Remediator::Mhc | Remediator::Snr => Some((300, 0, 3600)),
            Remediator::Gke => Some((600, 0, 3600)),
            Remediator::Eks => Some((1800, 0, 3600)),
            // AKS detects from 5 to 15 minutes.
            Remediator::Aks => Some((600, 300, 900)),
            Remediator::None | Remediator::Karpenter => None,
        }
    }
}

/// Self Node Remediation's strategies, as the scenario writes them (the first is the default).
pub const SNR_STRATEGIES: [&str; 3] = ["Automatic", "OutOfServiceTaint", "ResourceDeletion"];

/// The remediator and its settings; each setting is its default until changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Remediation {
    /// Which.
    pub kind: Remediator,
    /// The unhealthy timeout, s (MachineHealthCheck's and Self Node Remediation's `Ready`
    /// conditions, GKE's `notReadyTimeout`, EKS's `readyTimeout`, AKS's `detectionDelay`).
    pub timeout_seconds: Option<u32>,
    /// MachineHealthCheck's `maxUnhealthy` (default 100%) or EKS node auto repair's breaker,
    /// `maxUnhealthyPercentage` (default 20), percent.
    pub max_unhealthy_percent: Option<u32>,
    /// Self Node Remediation's (NodeHealthCheck's) `minHealthy`, percent (default 51%).
    pub min_healthy_percent: Option<u32>,
    /// Self Node Remediation's strategy, an index into [`SNR_STRATEGIES`].
    pub strategy: Option<u32>,
    /// Karpenter with `nodeRepair` off (the page turns it on when Karpenter is chosen).
    pub node_repair_off: bool,
    /// Karpenter reading its `interruptionQueue` (a preset or a link brings it).
    pub interruption_queue: bool,
}

impl Remediation {
    /// The breaker's percentage the page shows, the set one or the remediator's default:
    /// MachineHealthCheck's `maxUnhealthy` (100%), EKS's `maxUnhealthyPercentage` (20); `None`
    /// for a remediator without one the page sets.
    pub fn max_unhealthy_or_default(&self) -> Option<u32> {
        let default = match self.kind {
            Remediator::Mhc => 100,
            Remediator::Eks => 20,
            _ => return None,
        };
        Some(self.max_unhealthy_percent.unwrap_or(default))
    }

    /// Self Node Remediation's `minHealthy` the page shows (default 51%); `None` for another
    /// remediator.
    pub fn min_healthy_or_default(&self) -> Option<u32> {
        (self.kind == Remediator::Snr).then(|| self.min_healthy_percent.unwrap_or(51))
    }

    /// The timeout the page shows: the set one or the remediator's default.
    pub fn timeout_or_default(&self) -> Option<u32> {
        self.kind.timeout().map(|(d, _, _)| self.timeout_seconds.unwrap_or(d))
    }

    /// What the page shows of a scenario's `remediation` list: its first entry, with its main
    /// settings (the first `Ready` condition's timeout; a percentage `maxUnhealthy`; the
    /// strategy; Karpenter's `nodeRepair`). A preset or an imported cluster brings it.
    pub fn of(sections: &[RemediationSection]) -> Remediation {
        let secs = |d: Option<GoDuration>| d.and_then(|d| u32::try_from(d.0 / SECOND).ok());
        let ready =
            |c: &Option<Vec<ConditionSection>>| secs(c.as_ref()?.iter().find(|c| c.kind == "Ready").map(|c| c.timeout));
        let percent = |v: &Option<IntOrString>| match v {
            Some(IntOrString::String(p)) => p.strip_suffix('%').and_then(|p| p.parse().ok()),
            _ => None,
        };
        let mut out = Remediation::default();
        match sections.first() {
            None => {}
            Some(RemediationSection::MachineHealthCheck(m)) => {
                out.kind = Remediator::Mhc;
                out.timeout_seconds = ready(&m.unhealthy_conditions);
                out.max_unhealthy_percent = percent(&m.max_unhealthy);
            }
            Some(RemediationSection::SelfNodeRemediation(r)) => {
                out.kind = Remediator::Snr;
                out.timeout_seconds = ready(&r.unhealthy_conditions);
                out.min_healthy_percent = percent(&r.min_healthy);
                out.strategy = r
                    .strategy
                    .as_deref()
                    .and_then(|s| SNR_STRATEGIES.iter().position(|k| *k == s))
                    .map(|i| i as u32);
            }
            Some(RemediationSection::KarpenterNodeRepair(k)) => {
                out.kind = Remediator::Karpenter;
                out.node_repair_off = k.node_repair != Some(true);
                out.interruption_queue = k.interruption_queue == Some(true);
            }
            Some(RemediationSection::GkeAutoRepair(g)) => {
                out.kind = Remediator::Gke;
                out.timeout_seconds = secs(g.not_ready_timeout);
            }
            Some(RemediationSection::EksNodeAutoRepair(e)) => {
                out.kind = Remediator::Eks;
                out.timeout_seconds = secs(e.ready_timeout);
                out.max_unhealthy_percent = e.max_unhealthy_percentage;
            }
            Some(RemediationSection::AksAutoRepair(a)) => {
                out.kind = Remediator::Aks;
                out.timeout_seconds = secs(a.detection_delay);
            }
        }
        out
    }

    /// The scenario's `remediation` entry.
    fn section(&self) -> Option<RemediationSection> {
        let t = self.timeout_seconds.map(|t| GoDuration(i64::from(t) * SECOND));
        let ready = |t: GoDuration| {
            ["Unknown", "False"]
                .iter()
                .map(|status| ConditionSection {
                    kind: "Ready".into(),
                    status: (*status).into(),
                    timeout: t,
                })
                .collect::<Vec<_>>()
        };
        Some(match self.kind {
            Remediator::None => return None,
            Remediator::Mhc => RemediationSection::MachineHealthCheck(MachineHealthCheckSection {
                unhealthy_conditions: t.map(ready),
                max_unhealthy: self.max_unhealthy_percent.map(|p| IntOrString::String(format!("{p}%"))),
                ..MachineHealthCheckSection::default()
            }),
            Remediator::Snr => RemediationSection::SelfNodeRemediation(SelfNodeRemediationSection {
                unhealthy_conditions: t.map(ready),
                min_healthy: self.min_healthy_percent.map(|p| IntOrString::String(format!("{p}%"))),
                strategy: self
                    .strategy
                    .and_then(|i| SNR_STRATEGIES.get(i as usize))
                    .map(|s| (*s).to_string()),
                ..SelfNodeRemediationSection::default()
            }),
            Remediator::Karpenter => RemediationSection::KarpenterNodeRepair(KarpenterSection {
                node_repair: Some(!self.node_repair_off),
                interruption_queue: self.interruption_queue.then_some(true),
                ..KarpenterSection::default()
            }),
            Remediator::Gke => RemediationSection::GkeAutoRepair(GkeSection {
                not_ready_timeout: t,
                ..GkeSection::default()
            }),
            Remediator::Eks => RemediationSection::EksNodeAutoRepair(EksSection {
                ready_timeout: t,
                max_unhealthy_percentage: self.max_unhealthy_percent,
            }),
            Remediator::Aks => RemediationSection::AksAutoRepair(AksSection { detection_delay: t }),
        })
    }
}

/// A workload's volume, as the page offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum VolumeChoice {
    /// No volume.
    #[default]
    None,
    /// One ReadWriteOnce claim per pod (a StatefulSet's `volumeClaimTemplates`).
    RwoPerPod,
    /// One ReadWriteOnce claim every pod shares.
    RwoShared,
    /// One ReadWriteMany claim every pod shares.
    Rwx,
}

impl VolumeChoice {
    /// Every choice, in the order the page lists them, with its name in links and its label's
    /// catalogue key.
    pub const ALL: [(VolumeChoice, &'static str, &'static str); 4] = [
        (VolumeChoice::None, "none", "ui.extras.volume.none"),
        (VolumeChoice::RwoPerPod, "rwo-per-pod", "ui.extras.volume.rwo-per-pod"),
        (VolumeChoice::RwoShared, "rwo-shared", "ui.extras.volume.rwo-shared"),
        (VolumeChoice::Rwx, "rwx", "ui.extras.volume.rwx"),
    ];

    /// Its name in links.
    pub fn name(self) -> &'static str {
        VolumeChoice::ALL.iter().find(|c| c.0 == self).map_or("none", |c| c.1)
    }

    /// The choice a link names.
    pub fn parse(name: &str) -> Option<VolumeChoice> {
        VolumeChoice::ALL.iter().find(|c| c.1 == name).map(|c| c.0)
    }

    /// The scenario's `volume`.
    fn section(self) -> Option<VolumeSection> {
        let (mode, per_pod) = match self {
            VolumeChoice::None => return None,
            VolumeChoice::RwoPerPod => ("ReadWriteOnce", true),
            VolumeChoice::RwoShared => ("ReadWriteOnce", false),
            VolumeChoice::Rwx => ("ReadWriteMany", false),
        };
        Some(VolumeSection {
            access_mode: Some(mode.into()),
            per_pod: Some(per_pod),
        })
    }
}

/// A workload's PodDisruptionBudget, as the page offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum PdbChoice {
    /// No budget.
    #[default]
    None,
    /// `minAvailable: N`.
    MinAvailable(u32),
    /// `maxUnavailable: N`.
    MaxUnavailable(u32),
}

impl PdbChoice {
    /// The scenario's `pdb`.
    fn section(self) -> Option<PdbSection> {
        match self {
            PdbChoice::None => None,
            PdbChoice::MinAvailable(n) => Some(PdbSection {
                min_available: Some(IntOrString::Int(i64::from(n))),
                ..PdbSection::default()
            }),
            PdbChoice::MaxUnavailable(n) => Some(PdbSection {
                max_unavailable: Some(IntOrString::Int(i64::from(n))),
                ..PdbSection::default()
            }),
        }
    }

    /// As a link writes it: `min:N`, `max:N`.
    pub fn text(self) -> Option<String> {
        match self {
            PdbChoice::None => None,
            PdbChoice::MinAvailable(n) => Some(format!("min:{n}")),
            PdbChoice::MaxUnavailable(n) => Some(format!("max:{n}")),
        }
    }

    /// Reads `min:N`, `max:N` or `none`.
    pub fn parse(t: &str) -> Option<PdbChoice> {
        if t == "none" {
            return Some(PdbChoice::None);
        }
        let (kind, n) = t.split_once(':')?;
        let n = n.parse::<u32>().ok().filter(|&n| n <= 30)?;
        match kind {
            "min" => Some(PdbChoice::MinAvailable(n)),
            "max" => Some(PdbChoice::MaxUnavailable(n)),
            _ => None,
        }
    }
}

/// What sits around a workload: a Service in front, a volume, a disruption budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WorkloadExtras {
    /// Behind a Service.
    pub service: bool,
    /// Its volume.
    pub volume: VolumeChoice,
    /// Its PodDisruptionBudget.
    pub pdb: PdbChoice,
}

impl WorkloadExtras {
    /// What a workload section has of them, when the page offers it.
    fn of(w: &WorkloadSection) -> Option<WorkloadExtras> {
        let volume = VolumeChoice::ALL
            .iter()
            .map(|c| c.0)
            .find(|c| c.section() == w.volume)?;
        let whole = |v: &Option<IntOrString>| match v {
            Some(IntOrString::Int(n)) => u32::try_from(*n).ok(),
            _ => None,
        };
        let pdb = match &w.pdb {
            None => PdbChoice::None,
            Some(p) => [
                whole(&p.min_available).map(PdbChoice::MinAvailable),
                whole(&p.max_unavailable).map(PdbChoice::MaxUnavailable),
            ]
            .into_iter()
            .flatten()
            .find(|c| c.section().as_ref() == Some(p))?,
        };
        Some(WorkloadExtras {
            service: w.service == Some(true),
            volume,
            pdb,
        })
    }

    /// Fills a workload section's `service`, `volume` and `pdb`.
    fn apply(self, w: &mut WorkloadSection) {
        w.service = self.service.then_some(true);
        w.volume = self.volume.section();
        w.pdb = self.pdb.section();
    }
}

/// The default `web`: a Deployment behind a Service.
pub const WEB_EXTRAS: WorkloadExtras = WorkloadExtras {
    service: true,
    volume: VolumeChoice::None,
    pdb: PdbChoice::None,
};

/// The default `db`: a StatefulSet with a ReadWriteOnce volume per pod.
pub const DB_EXTRAS: WorkloadExtras = WorkloadExtras {
    service: false,
    volume: VolumeChoice::RwoPerPod,
    pdb: PdbChoice::None,
};

fn web_extras() -> WorkloadExtras {
    WEB_EXTRAS
}

fn db_extras() -> WorkloadExtras {
    DB_EXTRAS
}

/// A switch the page offers as a checkbox: its catalogue flag, where the page puts it, where
/// these settings keep it, and the catalogue keys of what it does and of why a version lacks it.
pub struct Toggle {
    /// The catalogue's declaration.
    pub def: &'static Flag,
    /// Its group.
    pub group: Group,
    /// What it does (catalogue key).
    pub help: &'static str,
    /// Why a version lacks it (catalogue key).
    pub why: &'static str,
    /// Whether it is on in the settings.
    pub get: fn(&Settings) -> bool,
    /// Turns it on or off in the settings.
    pub set: fn(&mut Settings, bool),
}

/// The switches, in display order.
pub const TOGGLES: [Toggle; 3] = [
    Toggle {
        def: &flags::ENABLE_TAINT_MANAGER,
        group: Group::ControllerManager,
        help: "ui.toggle.taint_manager",
        why: "ui.toggle.taint_manager_why",
        get: |s| s.enable_taint_manager,
        set: |s, v| s.enable_taint_manager = v,
    },
    Toggle {
        def: &flags::TAINT_BASED_EVICTIONS,
        group: Group::ControllerManager,
        help: "ui.toggle.tbe",
        why: "ui.toggle.tbe_why",
        get: |s| s.taint_based_evictions,
        set: |s, v| s.taint_based_evictions = v,
    },
    Toggle {
        def: &flags::DISABLE_FORCE_DETACH_ON_TIMEOUT,
        group: Group::ControllerManager,
        help: "ui.toggle.force_detach",
        why: "ui.toggle.force_detach_why",
        get: |s| s.disable_force_detach,
        set: |s, v| s.disable_force_detach = v,
    },
];

/// The longest any operation time may be, s (the longest run the page offers).
pub const MAX_OP_SECONDS: u32 = 3600;

/// Everything the user can set. Knob values live in `overrides` only once changed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Kubernetes minor version.
    pub minor: u32,
    /// Seed of the run.
    pub seed: u64,
    /// Changed knobs, by flag name, in the knob's unit.
    pub overrides: BTreeMap<String, f64>,
    /// Nodes in the cluster, spread over the zones round-robin (the page offers 1 to 5,000).
    pub nodes: u32,
    /// Zones, the first ones of [`ZONES`] (1 to 10).
    pub zones: u32,
    /// Replicas of the `web` Deployment.
    pub web_replicas: u32,
    /// Replicas of the `db` StatefulSet.
    pub db_replicas: u32,
    /// The `web` Deployment's Service, volume and budget.
    #[serde(default = "web_extras")]
    pub web: WorkloadExtras,
    /// The `db` StatefulSet's Service, volume and budget.
    #[serde(default = "db_extras")]
    pub db: WorkloadExtras,
    /// `--enable-taint-manager` (up to 1.26).
    pub enable_taint_manager: bool,
    /// `TaintBasedEvictions` (1.13 to 1.17 can turn it off).
    pub taint_based_evictions: bool,
    /// `--disable-force-detach-on-timeout` (1.30+).
    #[serde(default)]
    pub disable_force_detach: bool,
    /// The injected fault.
    pub fault: Fault,
    /// A whole zone losing power, beside the fault.
    #[serde(default)]
    pub zone_outage: Option<ZoneOutage>,
    /// Operator actions and control-plane events.
    #[serde(default)]
    pub ops: Operations,
    /// The cluster's own zone names, in order (an imported cluster's); the page uses them when
    /// there is one for every zone, else `zone-a`, `zone-b`, … ([`ZONES`]).
    #[serde(default)]
    pub zone_names: Vec<String>,
    /// Where the cluster runs: a cloud's controller manager, or none (bare metal, kubeadm).
    #[serde(default)]
    pub cloud: Option<Provider>,
    /// What repairs nodes besides kube-controller-manager.
    #[serde(default)]
    pub remediation: Remediation,
}

impl Default for Settings {
    /// The first visit: three nodes in three zones, a Deployment, a StatefulSet and a DaemonSet,
    /// and node-1 crashing early.
    fn default() -> Self {
        Settings {
            minor: NEWEST_MINOR,
            seed: 1,
            overrides: BTreeMap::new(),
            nodes: 3,
            zones: 3,
            web_replicas: 3,
            db_replicas: 1,
            web: WEB_EXTRAS,
            db: DB_EXTRAS,
            enable_taint_manager: true,
            taint_based_evictions: true,
            disable_force_detach: false,
            fault: Fault {
                node: 0,
                kind: ActionKind::NodeCrash,
                at_seconds: 30,
                recover_at_seconds: None,
                count: 1,
                notice_seconds: None,
            },
            zone_outage: None,
            ops: Operations::default(),
            zone_names: Vec::new(),
            cloud: None,
            remediation: Remediation::default(),
        }
    }
}

/// The most nodes settings may ask for (half the engine's `MAX_NODES`).
pub const MAX_NODES: u32 = 5_000;

/// The most nodes the page draws (its node-count control and its links).
pub const PAGE_MAX_NODES: u32 = MAX_NODES;
/// The most replicas of the page's `web` Deployment.
pub const PAGE_MAX_WEB: u32 = 150_000;
/// The most replicas of the page's `db` StatefulSet. With `web` and one `agent` pod per node at
/// their most, the pods stay within the engine's `MAX_PODS` (200,000).
pub const PAGE_MAX_DB: u32 = 45_000;

/// The zone names nodes are spread over, in order.
pub const ZONES: [&str; 10] = [
    "zone-a", "zone-b", "zone-c", "zone-d", "zone-e", "zone-f", "zone-g", "zone-h", "zone-i", "zone-j",
];

/// An action at `at` seconds (held within the longest run the page offers).
fn action(at: u32, kind: ActionKind) -> ActionSection {
    ActionSection::new(i64::from(at.min(MAX_OP_SECONDS)) * SECOND, kind)
}

/// The name of the node at a 0-based index.
fn node_name(i: u32) -> String {
    format!("node-{}", i + 1)
}

thread_local! {
    /// How many times this thread resolved settings ([`Settings::resolve`]).
    static RESOLVES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many times this thread resolved settings so far: a test counts the resolves a change of
/// the page's controls costs.
pub fn resolves() -> u64 {
    RESOLVES.with(|n| n.get())
}

impl Settings {
    /// The scenario these settings describe.
    pub fn scenario(&self) -> Scenario {
        let zones = self.zone_count();
        let nodes = (0..self.node_count())
            .map(|i| NodeSection {
                name: node_name(i),
                zone: Some(self.zone_name(i % zones).to_string()),
                labels: BTreeMap::new(),
                max_pods: None,
            })
            .collect::<Vec<_>>();
        // Operations past the end of the run are left out rather than refused.
        let end = self.overrides.get(flags::DURATION_SECONDS.name).map_or(900.0, |&d| d);
        let workload = |kind, name: &str, replicas, extras: Option<WorkloadExtras>| {
            let mut w = WorkloadSection {
                replicas,
                ..WorkloadSection::new(kind, name)
            };
            if let Some(x) = extras {
                x.apply(&mut w);
            }
            w
        };
        let mut events = self.fault_events();
        events.extend(self.ops_events());
        events.retain(|e| e.at.0 as f64 <= end * SECOND as f64);
        kubelife_engine::order::sort_by_key(&mut events, |e| e.at.0);
        let mut s = Scenario {
            version: Some(format!("1.{}", self.minor)),
            seed: Some(self.seed),
            nodes,
            workloads: vec![
                workload(WorkloadKind::Deployment, "web", Some(self.web_replicas), Some(self.web)),
                workload(WorkloadKind::StatefulSet, "db", Some(self.db_replicas), Some(self.db)),
                workload(WorkloadKind::DaemonSet, "agent", None, None),
            ],
            events,
            cloud: self.cloud.map(CloudSection::new),
            remediation: self.remediation.section().into_iter().collect(),
            ..Scenario::default()
        };
        for (flag, &v) in &self.overrides {
            if let Some(k) = knob(flag).filter(|k| k.available(self.minor)) {
                (k.write)(&mut s, v);
            }
        }
        // A switch is written where the version offers it and it is not at the version's default.
        let version = Version { minor: self.minor };
        for t in &TOGGLES {
            let on = Value::Bool((t.get)(self));
            if t.def.offered(&version.profile()) && on != t.def.default_in(version) {
                t.def.put(&mut s, on);
            }
        }
        s
    }

    /// The fault's and the zone outage's events, each node's followed by the out-of-service taint
    /// when an operator adds it. A node the fault already crashes (or recovers) at the outage's
    /// time gets no second, identical event.
    fn fault_events(&self) -> Vec<ActionSection> {
        let on = |i: u32, at: u32, kind| ActionSection {
            node: Some(node_name(i)),
            ..action(at, kind)
        };
        let failed = self.failed_nodes();
        let recover = self.fault.recover_at_seconds.filter(|&r| r >= self.fault.at_seconds);
        let oos = self.ops.out_of_service_at_seconds;
        let mut events = Vec::new();
        let notice = self
            .fault
            .notice_seconds
            .filter(|_| self.fault.kind == ActionKind::SpotInterruption)
            .map(|n| GoDuration(i64::from(n.min(MAX_NOTICE_SECONDS)) * SECOND));
        for &i in &failed {
            events.push(ActionSection {
                notice,
                ..on(i, self.fault.at_seconds, self.fault.kind)
            });
            if let Some(r) = recover {
                events.push(on(i, r, ActionKind::NodeRecover));
            }
            if let Some(at) = oos {
                events.push(on(i, at, ActionKind::OutOfServiceTaint));
            }
        }
        let Some(z) = self.zone_outage else {
            return events;
        };
        let end = z.end_seconds.filter(|&e| e >= z.at_seconds);
        let same_crash = self.fault.kind == ActionKind::NodeCrash && self.fault.at_seconds == z.at_seconds;
        for i in self.outage_nodes() {
            let also_failed = failed.binary_search(&i).is_ok();
            if !(also_failed && same_crash) {
                events.push(on(i, z.at_seconds, ActionKind::NodeCrash));
            }
            if let Some(e) = end.filter(|&e| !(also_failed && recover == Some(e))) {
                events.push(on(i, e, ActionKind::NodeRecover));
            }
            if let Some(at) = oos.filter(|_| !also_failed) {
                events.push(on(i, at, ActionKind::OutOfServiceTaint));
            }
        }
        events
    }

    /// The operator's actions and the control plane's events.
    fn ops_events(&self) -> Vec<ActionSection> {
        let mut events = Vec::new();
        if let Some(l) = self.ops.latency {
            events.push(ActionSection {
                latency_ms: Some(i64::from(l.ms.min(60_000))),
                ..action(l.from_seconds, ActionKind::ApiServerLatency)
            });
            if l.until_seconds > l.from_seconds {
                events.push(ActionSection {
                    latency_ms: Some(0),
                    ..action(l.until_seconds, ActionKind::ApiServerLatency)
                });
            }
        }
        if let Some(at) = self.ops.kcm_restart_at_seconds {
            events.push(action(at, ActionKind::ControllerManagerRestart));
        }
        if let Some(at) = self.ops.force_delete_db_at_seconds.filter(|_| self.db_replicas > 0) {
            events.push(ActionSection {
                pod: Some("db-0".into()),
                ..action(at, ActionKind::ForceDeletePod)
            });
        }
        if let Some(p) = self.ops.toleration_patch.filter(|_| self.web_replicas > 0) {
            events.push(ActionSection {
                workload: Some("web".into()),
                toleration_seconds: Some(i64::from(p.seconds)),
                ..action(p.at_seconds, ActionKind::PatchTolerations)
            });
        }
        events
    }

    /// Chooses what repairs nodes, each of its settings at its default. A remediator that runs on
    /// certain clouds only moves the cluster to the first of them unless it is on one already;
    /// returns the provider it moved to.
    pub fn set_remediator(&mut self, kind: Remediator) -> Option<Provider> {
        self.remediation = Remediation {
            kind,
            ..Remediation::default()
        };
        self.fit_cloud_to_remediator()
    }

    /// Moves the cluster to a cloud its remediator runs on, if it is not on one; returns where.
    pub fn fit_cloud_to_remediator(&mut self) -> Option<Provider> {
        let needs = self.remediation.kind.providers();
        if needs.is_empty() || self.cloud.is_some_and(|p| needs.contains(&p)) {
            return None;
        }
        self.cloud = Some(needs[0]);
        self.cloud
    }

    /// Chooses where the cluster runs. A remediator that cannot run there is turned off; returns
    /// it.
    pub fn set_cloud(&mut self, cloud: Option<Provider>) -> Option<Remediator> {
        self.cloud = cloud;
        let needs = self.remediation.kind.providers();
        if needs.is_empty() || cloud.is_some_and(|p| needs.contains(&p)) {
            return None;
        }
        let gone = self.remediation.kind;
        self.remediation = Remediation::default();
        Some(gone)
    }

    /// The spot interruption's notice the page shows, s: the set one or the provider's (AWS's
    /// without a cloud, as the engine takes it).
    pub fn spot_notice_seconds(&self) -> u32 {
        self.fault
            .notice_seconds
            .unwrap_or_else(|| (self.cloud.unwrap_or(Provider::Aws).spot_notice() / SECOND) as u32)
    }

    /// Whether the run has a cloud controller or a remediator (the page then shows the Node's
    /// deletion and the remediation).
    pub fn has_cloud_or_remediator(&self) -> bool {
        self.cloud.is_some() || self.remediation.kind != Remediator::None
    }

    /// The nodes the cluster has (1 to [`MAX_NODES`]).
    fn node_count(&self) -> u32 {
        self.nodes.clamp(1, MAX_NODES)
    }

    /// The zones the cluster has (1 to the length of [`ZONES`]).
    pub fn zone_count(&self) -> u32 {
        self.zones.clamp(1, ZONES.len() as u32)
    }

    /// The name of zone `i` (0-based): the cluster's own when it names every zone, else
    /// `zone-a`, `zone-b`, ….
    pub fn zone_name(&self, i: u32) -> &str {
        let own = self.zone_names.len() >= self.zone_count() as usize;
        match self.zone_names.get(i as usize) {
            Some(name) if own => name,
            _ => ZONES.get(i as usize).copied().unwrap_or(""),
        }
    }

    /// The names of the cluster's zones, in order.
    pub fn zone_list(&self) -> Vec<&str> {
        (0..self.zone_count()).map(|i| self.zone_name(i)).collect()
    }

    /// Sets the zone count; a zone outage in a zone that is gone moves to the last zone.
    pub fn set_zones(&mut self, zones: u32) {
        self.zones = zones.clamp(1, ZONES.len() as u32);
        if let Some(z) = self.zone_outage.as_mut() {
            z.zone = z.zone.min(self.zones - 1);
        }
    }

    /// The 0-based indices of the nodes the fault takes down: `count` nodes from `fault.node` on,
    /// within the cluster (none when `count` is 0).
    pub fn failed_nodes(&self) -> Vec<u32> {
        let last = self.node_count() - 1;
        (self.fault.node.min(last)..=last)
            .take(self.fault.count.min(MAX_NODES) as usize)
            .collect()
    }

    /// Whether a single-node fault is set (`fault.count` above 0).
    pub fn has_fault(&self) -> bool {
        self.fault.count > 0
    }

    /// The 0-based indices of the nodes the zone outage takes down: every node of its zone
    /// (none when the cluster has no such zone).
    pub fn outage_nodes(&self) -> Vec<u32> {
        let zones = self.zone_count();
        match self.zone_outage {
            Some(z) if z.zone < zones => (z.zone..self.node_count()).step_by(zones as usize).collect(),
            _ => Vec::new(),
        }
    }

    /// Every node the fault or the zone outage takes down, in order.
    pub fn down_nodes(&self) -> Vec<u32> {
        let mut all = self.failed_nodes();
        all.extend(self.outage_nodes());
        kubelife_engine::order::sort(&mut all);
        all.dedup();
        all
    }

    /// Resolves the scenario; on failure, the settings with the offending override dropped are
    /// tried, so a bad value never leaves the page without a timeline and the other changes
    /// still apply.
    pub fn resolve(&self) -> (Config, Option<ScenarioError>) {
        RESOLVES.with(|n| n.set(n.get() + 1));
        match self.scenario().resolve() {
            Ok(cfg) => (cfg, None),
            Err(e) => {
                // Drop the one override the scenario refuses, if one alone does it, so that the
                // rest still applies; else every override; else the first visit.
                let without = |flag: &String| {
                    let mut s = self.clone();
                    s.overrides.remove(flag);
                    s.scenario().resolve().ok()
                };
                let cfg = self
                    .overrides
                    .keys()
                    .find_map(without)
                    .or_else(|| {
                        Settings {
                            overrides: BTreeMap::new(),
                            ..self.clone()
                        }
                        .scenario()
                        .resolve()
                        .ok()
                    })
                    .unwrap_or_else(|| {
                        Settings::default()
                            .scenario()
                            .resolve()
                            .expect("the default scenario is valid")
                    });
                (cfg, Some(e))
            }
        }
    }

    /// The value a knob shows: the override, or what the version resolves.
    pub fn value(&self, flag: &str, cfg: &Config) -> f64 {
        self.overrides
            .get(flag)
            .copied()
            .unwrap_or_else(|| knob(flag).map_or(0.0, |k| (k.read)(cfg)))
    }

    /// The settings a preset stands for: its version, its flags as overrides, its legacy
    /// toggles. A preset that runs the presets' default cluster keeps the playground's own
    /// cluster shape, workloads and faults; one with a cluster of its own (a size, a zone outage)
    /// brings it, when the page can show it exactly.
    pub fn from_preset(&self, preset: &Scenario) -> Settings {
        let minor = preset
            .version
            .as_deref()
            .and_then(|v| kubelife_engine::Version::parse(v).ok())
            .map_or(self.minor, |v| v.minor);
        let mut out = Settings {
            minor,
            overrides: BTreeMap::new(),
            enable_taint_manager: true,
            taint_based_evictions: true,
            ..self.clone()
        };
        let default_cluster = kubelife_engine::presets::default_cluster(&format!("1.{minor}"));
        let (Ok(with), Ok(bare)) = (preset.resolve(), default_cluster.resolve()) else {
            return out;
        };
        for k in KNOBS.iter().filter(|k| k.available(minor)) {
            let (v, d) = ((k.read)(&with), (k.read)(&bare));
            if (v - d).abs() > 1e-9 {
                out.overrides.insert(k.flag.to_string(), v);
            }
        }
        // Each switch as the preset resolves it, where the version offers it.
        let first_visit = Settings::default();
        for t in &TOGGLES {
            let on = match t.def.read(&with).switch() {
                Some(on) if t.def.offered(&with.profile) => on,
                _ => (t.get)(&first_visit),
            };
            (t.set)(&mut out, on);
        }
        out.keep_defaults_of(&with);
        // Where it runs and what repairs its nodes come with the preset (or the imported cluster).
        out.cloud = preset.cloud.as_ref().map(|c| c.provider);
        out.remediation = Remediation::of(&preset.remediation);
        let own_cluster = (&preset.nodes, &preset.workloads, &preset.events)
            != (
                &default_cluster.nodes,
                &default_cluster.workloads,
                &default_cluster.events,
            );
        match own_cluster.then(|| out.with_cluster_of(preset)).flatten() {
            Some(shaped) => shaped,
            None => out,
        }
    }

    /// Writes out each knob that the scenario of these settings resolves differently from
    /// `with` though `with` has the version's default there. A knob left out of the settings is
    /// left out of their scenario, and the scenario format reads an absent value as a
    /// KubeletConfiguration file does: without `nodeStatusReportFrequency`, a
    /// `nodeStatusUpdateFrequency` sets the report frequency to itself
    /// (`SetDefaults_KubeletConfiguration`). A kubelet flag does not (it is applied after
    /// defaulting), so a scenario read from `--node-status-update-frequency=4s` keeps the report
    /// frequency at its default 5m0s, and these settings must say 5m0s to keep it too.
    fn keep_defaults_of(&mut self, with: &Config) {
        for _ in KNOBS {
            // What the knobs resolve to does not depend on the cluster: read them on the first
            // visit's, which is small and always valid.
            let probe = Settings {
                minor: self.minor,
                overrides: self.overrides.clone(),
                enable_taint_manager: self.enable_taint_manager,
                taint_based_evictions: self.taint_based_evictions,
                disable_force_detach: self.disable_force_detach,
                ..Settings::default()
            };
            let Ok(shown) = probe.scenario().resolve() else {
                return;
            };
            let differ: Vec<&Knob> = KNOBS
                .iter()
                .filter(|k| k.available(self.minor) && !self.overrides.contains_key(k.flag))
                .filter(|k| ((k.read)(&shown) - (k.read)(with)).abs() > 1e-9)
                .collect();
            if differ.is_empty() {
                return;
            }
            for k in differ {
                self.overrides.insert(k.flag.to_string(), (k.read)(with));
            }
        }
    }

    /// These settings with a preset's cluster: its node count and zones, its `web` and `db`, its
    /// fault and zone outage, and no operator action. `None` unless the scenario they give has
    /// exactly the preset's nodes, workloads and events.
    fn with_cluster_of(&self, preset: &Scenario) -> Option<Settings> {
        let nodes = u32::try_from(preset.nodes.len()).ok()?;
        let zone_names = kubelife_engine::order::set(preset.nodes.iter().map(|n| n.zone.as_deref()));
        let workload = |kind, name: &str| preset.workloads.iter().find(|w| w.kind == kind && w.name == name);
        let (web, db) = (
            workload(WorkloadKind::Deployment, "web")?,
            workload(WorkloadKind::StatefulSet, "db")?,
        );
        let mut out = Settings {
            nodes,
            zones: u32::try_from(zone_names.len()).ok()?,
            web_replicas: web.replicas.unwrap_or(1),
            db_replicas: db.replicas.unwrap_or(1),
            web: WorkloadExtras::of(web)?,
            db: WorkloadExtras::of(db)?,
            zone_outage: None,
            ops: Operations::default(),
            ..self.clone()
        };
        out.faults_of(&preset.events)?;
        let shown = out.scenario();
        let same = shown.nodes == preset.nodes
            && shown.workloads == preset.workloads
            && same_in_any_order(&shown.events, &preset.events);
        same.then_some(out)
    }

    /// Reads a preset's node faults as the fault and the zone outage: the nodes that fail
    /// together, at one time and in one way, are either every node of one zone (crashing) or a
    /// run of consecutive nodes. A zone outage alone comes with a fault on its first node at the
    /// same time, which the scenario does not repeat.
    fn faults_of(&mut self, events: &[ActionSection]) -> Option<()> {
        let index = |e: &ActionSection| {
            e.node
                .as_deref()?
                .strip_prefix("node-")?
                .parse::<u32>()
                .ok()?
                .checked_sub(1)
        };
        let recover_of = |i: u32| {
            events
                .iter()
                .find(|e| e.action == ActionKind::NodeRecover && index(e) == Some(i))
                .map(|e| (e.at.0 / SECOND) as u32)
        };
        // Groups of (start, kind, nodes), in the order they first appear.
        let mut groups: Vec<(i64, ActionKind, Vec<u32>)> = Vec::new();
        for e in events.iter().filter(|e| e.action != ActionKind::NodeRecover) {
            let i = index(e)?;
            match groups.iter_mut().find(|g| g.0 == e.at.0 && g.1 == e.action) {
                Some(g) => g.2.push(i),
                None => groups.push((e.at.0, e.action, vec![i])),
            }
        }
        let mut fault = None;
        for (at, kind, mut nodes) in groups {
            kubelife_engine::order::sort(&mut nodes);
            let at_seconds = u32::try_from(at / SECOND).ok()?;
            let end = recover_of(nodes[0]);
            let zones = self.zone_count();
            let zone = (0..zones).find(|&z| (z..self.node_count()).step_by(zones as usize).eq(nodes.iter().copied()));
            match zone.filter(|_| kind == ActionKind::NodeCrash && zones > 1) {
                Some(zone) if self.zone_outage.is_none() => {
                    self.zone_outage = Some(ZoneOutage {
                        zone,
                        at_seconds,
                        end_seconds: end,
                    })
                }
                _ if fault.is_none() && nodes.windows(2).all(|w| w[1] == w[0] + 1) => {
                    fault = Some(Fault {
                        node: nodes[0],
                        kind,
                        at_seconds,
                        recover_at_seconds: end,
                        count: nodes.len() as u32,
                        notice_seconds: None,
                    })
                }
                _ => return None,
            }
        }
        self.fault = match (fault, self.zone_outage) {
            (Some(f), _) => f,
            (None, Some(z)) => Fault {
                node: z.zone,
                kind: ActionKind::NodeCrash,
                at_seconds: z.at_seconds,
                recover_at_seconds: z.end_seconds,
                count: 1,
                notice_seconds: None,
            },
            (None, None) => return None,
        };
        self.fault.notice_seconds = events
            .iter()
            .find(|e| e.action == ActionKind::SpotInterruption)
            .and_then(|e| e.notice)
            .and_then(|d| u32::try_from(d.0 / SECOND).ok());
        Some(())
    }

    /// The kubelet refuses shutdownGracePeriodCriticalPods over shutdownGracePeriod
    /// (`ValidateKubeletConfiguration`): raising the critical pods' share raises the whole with
    /// it, and lowering the whole lowers the share.
    fn keep_shutdown_pair(&mut self, flag: &str, v: f64) {
        const WHOLE: &str = flags::SHUTDOWN_GRACE_PERIOD.name;
        const CRITICAL: &str = flags::SHUTDOWN_GRACE_PERIOD_CRITICAL_PODS.name;
        let whole = self.overrides.get(WHOLE).copied().unwrap_or(0.0);
        let critical = self.overrides.get(CRITICAL).copied().unwrap_or(0.0);
        if flag == CRITICAL && v > whole {
            self.overrides.insert(WHOLE.into(), v);
        } else if flag == WHOLE && critical > v {
            self.overrides.insert(CRITICAL.into(), v);
        }
    }

    /// Sets a knob, clamped to its range.
    pub fn set(&mut self, flag: &str, v: f64) {
        if let Some(k) = KNOBS.iter().find(|k| k.flag == flag) {
            if v.is_finite() {
                let v = v.clamp(k.min, k.max);
                self.overrides.insert(flag.to_string(), v);
                self.keep_shutdown_pair(flag, v);
            }
        }
    }
}

/// Whether `a` and `b` hold the same events, each as often, in any order.
fn same_in_any_order(a: &[ActionSection], b: &[ActionSection]) -> bool {
    let mut used = vec![false; b.len()];
    a.len() == b.len()
        && a.iter().all(|x| {
            let found = (0..b.len()).find(|&i| !used[i] && b[i] == *x);
            found.map(|i| used[i] = true).is_some()
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_settings_give_the_first_visit_scenario() {
        let (cfg, err) = Settings::default().resolve();
        assert!(err.is_none());
        assert_eq!(cfg.nodes.len(), 3);
        assert_eq!(cfg.workloads.len(), 3);
        assert_eq!(cfg.actions[0].at, 30_000);
    }

    #[test]
    fn out_of_range_values_are_clamped_and_bad_ones_fall_back() {
        let mut s = Settings::default();
        s.set("node-monitor-period", 1e9);
        assert_eq!(s.overrides["node-monitor-period"], 60.0);
        s.set("node-monitor-period", f64::NAN);
        assert_eq!(s.overrides["node-monitor-period"], 60.0);
        // A knob the version lacks is ignored rather than rejected.
        s.set("pod-eviction-timeout", 30.0);
        assert!(s.resolve().1.is_none());
    }

    #[test]
    fn presets_become_settings() {
        let p = kubelife_engine::presets::preset("rke-1.18-tolerations").unwrap();
        let s = Settings::default().from_preset(&p.scenario);
        assert_eq!(s.minor, 18);
        assert_eq!(s.overrides.get("default-unreachable-toleration-seconds"), Some(&30.0));
        assert_eq!(s.overrides.get("node-monitor-grace-period"), Some(&30.0));
        let legacy = Settings::default().from_preset(
            &kubelife_engine::presets::preset("rke-1.17-taint-based-off")
                .unwrap()
                .scenario,
        );
        assert!(!legacy.taint_based_evictions);
        assert!(!legacy.resolve().0.controller_manager.taint_based_evictions);
    }

    #[test]
    fn old_saved_settings_load_without_a_zone_outage() {
        let mut saved = serde_json::to_value(Settings::default()).expect("serializes");
        saved.as_object_mut().expect("an object").remove("zone_outage");
        let s: Settings = serde_json::from_value(saved).expect("loads");
        assert_eq!(s, Settings::default());
    }

    #[test]
    fn old_saved_settings_load_without_a_cloud_or_a_remediator() {
        let mut saved = serde_json::to_value(Settings::default()).expect("serializes");
        let o = saved.as_object_mut().expect("an object");
        o.remove("cloud");
        o.remove("remediation");
        let s: Settings = serde_json::from_value(saved).expect("loads");
        assert_eq!(s, Settings::default());
        let sc = s.scenario();
        assert!(sc.cloud.is_none() && sc.remediation.is_empty());
    }

    /// Each remediator writes its section with only what the page changed; one that runs on
    /// certain clouds moves the cluster there, and a cloud it cannot run on turns it off.
    #[test]
    fn the_cloud_and_the_remediator_write_their_sections() {
        use kubelife_engine::scenario::RemediationSection as R;
        let mut s = Settings::default();
        assert_eq!(s.set_cloud(Some(Provider::Azure)), None);
        assert_eq!(s.scenario().cloud.map(|c| c.provider), Some(Provider::Azure));
        // Karpenter runs on Azure: the cloud stays; node repair is on.
        assert_eq!(s.set_remediator(Remediator::Karpenter), None);
        match &s.scenario().remediation[..] {
            [R::KarpenterNodeRepair(k)] => assert_eq!(k.node_repair, Some(true)),
            other => panic!("{other:?}"),
        }
        // GKE moves the cluster to GCP; AWS then turns GKE's repair off.
        assert_eq!(s.set_remediator(Remediator::Gke), Some(Provider::Gcp));
        assert_eq!(s.cloud, Some(Provider::Gcp));
        assert_eq!(s.set_cloud(Some(Provider::Aws)), Some(Remediator::Gke));
        assert_eq!(s.remediation, Remediation::default());
        // MachineHealthCheck runs anywhere, bare metal too; its timeout writes both Ready checks.
        s.set_cloud(None);
        s.set_remediator(Remediator::Mhc);
        assert_eq!(s.scenario().remediation.len(), 1);
        s.remediation.timeout_seconds = Some(120);
        s.remediation.max_unhealthy_percent = Some(40);
        match &s.scenario().remediation[..] {
            [R::MachineHealthCheck(m)] => {
                let c = m.unhealthy_conditions.as_ref().expect("conditions");
                assert_eq!(c.len(), 2);
                assert!(c.iter().all(|c| c.kind == "Ready" && c.timeout.0 == 120_000));
                assert_eq!(m.max_unhealthy, Some(IntOrString::String("40%".into())));
            }
            other => panic!("{other:?}"),
        }
        assert!(s.resolve().1.is_none());
        for (kind, cloud) in [
            (Remediator::Snr, None),
            (Remediator::Eks, Some(Provider::Aws)),
            (Remediator::Aks, Some(Provider::Azure)),
        ] {
            s.set_cloud(None);
            s.set_remediator(kind);
            assert_eq!(s.cloud, cloud);
            s.remediation.timeout_seconds = kind.timeout().map(|t| t.2);
            s.remediation.strategy = Some(2);
            assert!(s.resolve().1.is_none(), "{kind:?}: {:?}", s.resolve().1);
        }
    }

    /// Self Node Remediation's `minHealthy`, EKS's breaker and a spot notice: the page shows
    /// the default until one is set, writes it into the scenario, and reads it back from one.
    #[test]
    fn min_healthy_the_eks_breaker_and_the_spot_notice_write_and_read_back() {
        use kubelife_engine::scenario::RemediationSection as R;
        let mut s = Settings::default();
        s.set_remediator(Remediator::Snr);
        assert_eq!(s.remediation.min_healthy_or_default(), Some(51));
        assert_eq!(s.remediation.max_unhealthy_or_default(), None);
        s.remediation.min_healthy_percent = Some(80);
        let sc = s.scenario();
        match &sc.remediation[..] {
            [R::SelfNodeRemediation(r)] => assert_eq!(r.min_healthy, Some(IntOrString::String("80%".into()))),
            other => panic!("{other:?}"),
        }
        assert_eq!(Remediation::of(&sc.remediation), s.remediation);
        s.set_remediator(Remediator::Eks);
        assert_eq!(s.remediation.max_unhealthy_or_default(), Some(20));
        assert_eq!(s.remediation.min_healthy_or_default(), None);
        s.remediation.max_unhealthy_percent = Some(60);
        let sc = s.scenario();
        match &sc.remediation[..] {
            [R::EksNodeAutoRepair(e)] => assert_eq!(e.max_unhealthy_percentage, Some(60)),
            other => panic!("{other:?}"),
        }
        assert_eq!(Remediation::of(&sc.remediation), s.remediation);
        assert!(s.resolve().1.is_none());
        // A notice is written for a spot interruption only, and a preset's comes back.
        s.fault.notice_seconds = Some(90);
        assert!(s.scenario().events.iter().all(|e| e.notice.is_none()));
        s.fault.kind = ActionKind::SpotInterruption;
        let sc = s.scenario();
        assert_eq!(
            sc.events.iter().filter_map(|e| e.notice).collect::<Vec<_>>(),
            [GoDuration(90 * SECOND)]
        );
        let back = Settings::default().from_preset(&sc);
        assert_eq!(
            (back.fault.kind, back.fault.notice_seconds),
            (ActionKind::SpotInterruption, Some(90))
        );
        assert_eq!(back.spot_notice_seconds(), 90);
    }

    /// The nodes an action of `kind` names at `seconds`.
    fn named(s: &Scenario, kind: ActionKind, seconds: i64) -> Vec<String> {
        s.events
            .iter()
            .filter(|e| e.action == kind && e.at.0 == seconds * SECOND)
            .filter_map(|e| e.node.clone())
            .collect()
    }

    #[test]
    fn a_zone_outage_crashes_and_recovers_every_node_of_its_zone() {
        let mut s = Settings {
            nodes: 10,
            zones: 3,
            zone_outage: Some(ZoneOutage {
                zone: 1,
                at_seconds: 120,
                end_seconds: Some(600),
            }),
            ..Settings::default()
        };
        assert_eq!(s.outage_nodes(), [1, 4, 7]);
        assert_eq!(s.down_nodes(), [0, 1, 4, 7]);
        let zone_b = ["node-2", "node-5", "node-8"];
        assert_eq!(named(&s.scenario(), ActionKind::NodeCrash, 120), zone_b);
        assert_eq!(named(&s.scenario(), ActionKind::NodeRecover, 600), zone_b);
        assert!(s.resolve().1.is_none());
        // The fault crashing node-2 at the same time is not repeated; the out-of-service taint
        // reaches every node that is down.
        s.fault.node = 1;
        s.fault.at_seconds = 120;
        s.ops.out_of_service_at_seconds = Some(300);
        assert_eq!(named(&s.scenario(), ActionKind::NodeCrash, 120), zone_b);
        assert_eq!(named(&s.scenario(), ActionKind::OutOfServiceTaint, 300).len(), 3);
        // Fewer zones move the outage to the last one; a zone the cluster lacks takes no node.
        s.set_zones(1);
        assert_eq!(s.zone_outage.map(|z| z.zone), Some(0));
        s.zones = 3;
        s.zone_outage = Some(ZoneOutage {
            zone: 7,
            at_seconds: 10,
            end_seconds: None,
        });
        assert!(s.outage_nodes().is_empty());
    }

    #[test]
    fn the_page_holds_the_largest_cluster_the_engine_runs() {
        let s = Settings {
            nodes: PAGE_MAX_NODES,
            zones: ZONES.len() as u32,
            web_replicas: PAGE_MAX_WEB,
            db_replicas: PAGE_MAX_DB,
            ..Settings::default()
        };
        let (cfg, err) = s.resolve();
        assert_eq!(err, None);
        assert_eq!(cfg.nodes.len(), 5000);
        assert_eq!(cfg.nodes[9].zone, "zone-j");
        assert_eq!(cfg.nodes[4999].name, "node-5000");
    }

    #[test]
    fn scale_presets_bring_their_cluster_and_faults() {
        for name in [
            "scale-1000-zone-b-outage",
            "scale-5000-lose-10-percent",
            "scale-200-partial-disruption",
            "all-zones-down",
        ] {
            let preset = kubelife_engine::presets::preset(name).expect("a preset").scenario;
            let s = Settings::default().from_preset(&preset);
            let shown = s.scenario();
            assert_eq!(shown.nodes, preset.nodes, "{name}: the nodes and their zones");
            let failing = |sc: &Scenario| {
                let mut v: Vec<(i64, String)> = sc
                    .events
                    .iter()
                    .filter(|e| e.action == ActionKind::NodeCrash)
                    .map(|e| (e.at.0, e.node.clone().unwrap_or_default()))
                    .collect();
                v.sort();
                v
            };
            assert_eq!(failing(&shown), failing(&preset), "{name}: the failing nodes");
            assert_eq!(shown.resolve(), preset.resolve(), "{name}: the whole run");
        }
        let zone_b = kubelife_engine::presets::preset("scale-1000-zone-b-outage").expect("a preset");
        let s = Settings::default().from_preset(&zone_b.scenario);
        assert_eq!((s.nodes, s.zones, s.web_replicas), (1000, 3, 2000));
        let outage = s.zone_outage.expect("a zone outage");
        assert_eq!(
            (outage.zone_name(), outage.at_seconds, outage.end_seconds),
            ("zone-b", 60, None)
        );
        let tenth = kubelife_engine::presets::preset("scale-5000-lose-10-percent").expect("a preset");
        let s = Settings::default().from_preset(&tenth.scenario);
        assert_eq!((s.fault.node, s.fault.count, s.zone_outage), (0, 500, None));
        // A preset on the default cluster keeps the page's own.
        let mine = Settings {
            nodes: 7,
            ..Settings::default()
        };
        let upstream = kubelife_engine::presets::preset("upstream-1.31").expect("a preset");
        assert_eq!(mine.from_preset(&upstream.scenario).nodes, 7);
    }

    #[test]
    fn a_preset_brings_its_cloud_its_remediator_and_its_instance_fault() {
        let from = |name: &str| {
            let p = kubelife_engine::presets::preset(name).expect("a preset");
            Settings::default().from_preset(&p.scenario)
        };
        let eks = from("eks-instance-terminated");
        assert_eq!(eks.cloud, Some(Provider::Aws));
        assert_eq!(
            (eks.fault.kind, eks.fault.at_seconds),
            (ActionKind::InstanceTerminated, 30)
        );
        assert_eq!(eks.remediation.kind, Remediator::None);
        let mhc = from("capi-mhc-5m");
        assert_eq!((mhc.cloud, mhc.remediation.kind), (None, Remediator::Mhc));
        assert_eq!(mhc.remediation.timeout_or_default(), Some(300));
        assert!(from("karpenter-repair-off").remediation.node_repair_off);
        assert!(!from("karpenter-repair-on").remediation.node_repair_off);
        let spot = from("karpenter-spot-interruption").remediation;
        assert!(spot.node_repair_off && spot.interruption_queue);
        // And back: the settings write the preset's cloud and remediator.
        let back = from("medik8s-snr").scenario();
        assert_eq!(back.remediation[0].kind(), "SelfNodeRemediation");
        // A preset without them takes them away.
        let plain = eks.from_preset(&kubelife_engine::presets::preset("upstream-newest").unwrap().scenario);
        assert_eq!((plain.cloud, plain.remediation.kind), (None, Remediator::None));
    }
}
