//! Where the cluster runs and what repairs its nodes: the provider, the remediator and its
//! settings.

use super::Settings;
use kubelife_engine::scenario::cloud::Provider;
use kubelife_engine::scenario::{
    AksSection, ConditionSection, EksSection, GkeSection, GoDuration, IntOrString, KarpenterSection,
    MachineHealthCheckSection, RemediationSection, SelfNodeRemediationSection,
};
use kubelife_engine::time::SECOND;
use serde::{Deserialize, Serialize};

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
    pub(super) fn section(&self) -> Option<RemediationSection> {
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

impl Settings {
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

    /// Whether the run has a cloud controller or a remediator (the page then shows the Node's
    /// deletion and the remediation).
    pub fn has_cloud_or_remediator(&self) -> bool {
        self.cloud.is_some() || self.remediation.kind != Remediator::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kubelife_engine::scenario::ActionKind;

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
}
