//! Where the cluster runs and what repairs its nodes: the provider, the remediator and its
//! settings.

use super::Settings;
use kubelife_engine::flags::Value;
use kubelife_engine::scenario::cloud::Provider;
use kubelife_engine::scenario::{
    AksSection, ConditionSection, EksSection, GkeSection, GoDuration, IntOrString, KarpenterSection,
    MachineHealthCheckSection, RemediationSection, Scenario, SelfNodeRemediationSection,
};
pub use kubelife_engine::settings::SNR_STRATEGIES;
use kubelife_engine::settings::{Applies, DefaultValue, RemediatorKind, Setting, Unit};
use kubelife_engine::time::SECOND;
use kubelife_engine::{Cause, Millis};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
    /// Every choice in the page's order, with its label's catalogue key.
    pub const ALL: [(Remediator, &'static str); 7] = [
        (Remediator::None, "ui.repair.none"),
        (Remediator::Mhc, "ui.repair.mhc"),
        (Remediator::Snr, "ui.repair.snr"),
        (Remediator::Karpenter, "ui.repair.karpenter"),
        (Remediator::Gke, "ui.repair.gke"),
        (Remediator::Eks, "ui.repair.eks"),
        (Remediator::Aks, "ui.repair.aks"),
    ];

    /// Its link name: the settings table's (`remediation=mhc`), or `none`.
    pub fn name(self) -> &'static str {
        self.kind().map_or("none", RemediatorKind::link)
    }

    /// The remediator a link names.
    pub fn parse(name: &str) -> Option<Remediator> {
        Remediator::ALL.iter().map(|r| r.0).find(|r| r.name() == name)
    }

    /// The settings table's remediator kind (`None` for none).
    pub fn kind(self) -> Option<RemediatorKind> {
        match self {
            Remediator::None => None,
            Remediator::Mhc => Some(RemediatorKind::MachineHealthCheck),
            Remediator::Snr => Some(RemediatorKind::SelfNodeRemediation),
            Remediator::Karpenter => Some(RemediatorKind::KarpenterNodeRepair),
            Remediator::Gke => Some(RemediatorKind::GkeAutoRepair),
            Remediator::Eks => Some(RemediatorKind::EksNodeAutoRepair),
            Remediator::Aks => Some(RemediatorKind::AksAutoRepair),
        }
    }

    /// The providers it runs on, as the settings table says; empty when any will do (bare metal
    /// too).
    pub fn providers(self) -> &'static [Provider] {
        self.kind().map_or(&[], RemediatorKind::providers)
    }

    /// Its setting the link parameter `link` names (`remediation-timeout`, `max-unhealthy`,
    /// `min-healthy`), if it has one the page sets. The page leaves Karpenter's unhealthy
    /// timeout to its provider's repair policy.
    pub fn setting(self, link: &str) -> Option<&'static Setting> {
        let kind = self.kind()?;
        if kind == RemediatorKind::KarpenterNodeRepair && link == TIMEOUT_LINK {
            return None;
        }
        kind.settings().find(|s| s.link == link)
    }

    /// Its unhealthy timeout as the page offers it: the table's default, the least and the
    /// most, s (`None` when it has none the page sets: no remediator, Karpenter).
    pub fn timeout(self) -> Option<(u32, u32, u32)> {
        let s = self.setting(TIMEOUT_LINK)?;
        let default = s.default_ms(None) / SECOND;
        Some((default as u32, s.range.0 as u32, s.range.1 as u32))
    }
}

/// The link parameter (and the table's) of a remediator's unhealthy timeout.
pub const TIMEOUT_LINK: &str = "remediation-timeout";

/// The remediators' settings `Remediation` keeps in fields of its own, by their link names.
const OWN: [&str; 6] = [
    TIMEOUT_LINK,
    "max-unhealthy",
    "min-healthy",
    "strategy",
    "node-repair",
    "interruption-queue",
];

impl Remediator {
    /// Its further settings in the table, beyond `Remediation`'s fields: each a span or a
    /// version, with a control and a link parameter of its own (MachineHealthCheck's
    /// `nodeStartupTimeout`, GKE's `drainTimeout`, …).
    pub fn further(self) -> impl Iterator<Item = &'static Setting> {
        self.kind()
            .into_iter()
            .flat_map(RemediatorKind::settings)
            .filter(|s| !OWN.contains(&s.link) && matches!(s.unit, Unit::Duration | Unit::Minor))
    }
}

/// Every remediator's further settings' link parameters, each once, in the table's order.
pub fn further_links() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for r in Remediator::ALL {
        for s in r.0.further() {
            if !out.contains(&s.link) {
                out.push(s.link);
            }
        }
    }
    out
}

/// A further setting's number as the table's value: a span in ms, a version's minor number.
pub fn further_value(s: &Setting, n: i64) -> Value {
    match s.unit {
        Unit::Duration => Value::Duration(n),
        _ => Value::Int(n),
    }
}

/// A further setting's range in its number (ms for a span).
pub fn further_range(s: &Setting) -> (i64, i64) {
    let scale = if s.unit == Unit::Duration { 1000.0 } else { 1.0 };
    ((s.range.0 * scale) as i64, (s.range.1 * scale) as i64)
}

/// The cloud's durations the page offers ("Where does it run?") and links carry: every span of
/// the settings table's `cloud` section, in the table's order.
pub fn cloud_durations() -> impl Iterator<Item = &'static Setting> {
    kubelife_engine::settings::ALL
        .iter()
        .copied()
        .filter(|s| matches!(s.applies, Applies::Cloud { .. }) && s.unit == Unit::Duration)
}

/// The cloud's choices the page offers and links carry: every choice of the settings table's
/// `cloud` section (AWS's `managedNodeGroup`), in the table's order.
pub fn cloud_choices() -> impl Iterator<Item = &'static Setting> {
    kubelife_engine::settings::ALL
        .iter()
        .copied()
        .filter(|s| matches!(s.applies, Applies::Cloud { .. }) && matches!(s.unit, Unit::Choice(_)))
}

/// The cloud choice a link parameter names.
pub fn cloud_choice(link: &str) -> Option<&'static Setting> {
    cloud_choices().find(|s| s.link == link)
}

/// The cloud duration a link parameter names.
pub fn cloud_duration(link: &str) -> Option<&'static Setting> {
    cloud_durations().find(|s| s.link == link)
}

/// Whether the cluster's cloud reads a `cloud` setting; without a cloud the page keeps any.
pub fn read_on(s: &Setting, cloud: Option<Provider>) -> bool {
    match (s.applies, cloud) {
        (Applies::Cloud { providers, .. }, Some(p)) => providers.contains(&p),
        _ => true,
    }
}

/// Why a cloud that does not read a `cloud` setting refuses it: the table's message.
pub fn not_read_on(s: &Setting, cloud: Provider) -> Cause {
    match s.applies {
        Applies::Cloud { refusal: Some(key), .. } => Cause::new(key).text("provider", cloud.name()),
        _ => Cause::new("link.why.cloud"),
    }
}

/// A duration control's step, ms: about a hundredth of the setting's range, rounded up to
/// 100 ms, 1 s, 5 s or 10 s.
pub fn duration_step_ms(s: &Setting) -> u32 {
    let hundredth = (s.range.1 - s.range.0) * 10.0;
    [100, 1000, 5000]
        .into_iter()
        .find(|&step| f64::from(step) >= hundredth)
        .unwrap_or(10_000)
}

/// A percentage setting's default in the table.
fn default_percent(s: &Setting) -> u32 {
    s.default_on(None).and_then(Value::int).map_or(0, |p| p as u32)
}

/// The remediator and its settings; each setting is its default until changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Remediation {
    /// Which.
    pub kind: Remediator,
    /// The unhealthy timeout, s (MachineHealthCheck's and Self Node Remediation's `Ready`
    /// conditions, GKE's `notReadyTimeout`, EKS's `readyTimeout`, AKS's `detectionDelay`).
    pub timeout_seconds: Option<u32>,
    /// MachineHealthCheck's `maxUnhealthy` or EKS node auto repair's breaker,
    /// `maxUnhealthyPercentage`, percent.
    pub max_unhealthy_percent: Option<u32>,
    /// Self Node Remediation's (NodeHealthCheck's) `minHealthy`, percent.
    pub min_healthy_percent: Option<u32>,
    /// Self Node Remediation's strategy, an index into [`SNR_STRATEGIES`].
    pub strategy: Option<u32>,
    /// Karpenter with `nodeRepair` off (the page turns it on when Karpenter is chosen).
    pub node_repair_off: bool,
    /// Karpenter reading its `interruptionQueue` (a preset or a link brings it).
    pub interruption_queue: bool,
}

impl Remediation {
    /// The breaker's percentage the page shows, the set one or the table's default:
    /// MachineHealthCheck's `maxUnhealthy`, EKS's `maxUnhealthyPercentage`; `None` for a
    /// remediator without one.
    pub fn max_unhealthy_or_default(&self) -> Option<u32> {
        let s = self.kind.setting("max-unhealthy")?;
        Some(self.max_unhealthy_percent.unwrap_or_else(|| default_percent(s)))
    }

    /// Self Node Remediation's `minHealthy` the page shows, the set one or the table's default;
    /// `None` for another remediator.
    pub fn min_healthy_or_default(&self) -> Option<u32> {
        let s = self.kind.setting("min-healthy")?;
        Some(self.min_healthy_percent.unwrap_or_else(|| default_percent(s)))
    }

    /// The timeout the page shows: the set one or the table's default for the remediator.
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

/// The further settings of a remediator a scenario sets, by their link names.
pub(super) fn further_of(kind: Remediator, sc: &Scenario) -> BTreeMap<String, i64> {
    let number = |v: Value| v.millis().or(v.int());
    kubelife_engine::order::map(
        kind.further()
            .filter_map(|s| Some((s.link.to_string(), number(s.get(sc)?)?))),
    )
}

/// The cloud choices a scenario sets, by the table's names, each as its index.
pub(super) fn cloud_choices_of(sc: &Scenario) -> BTreeMap<String, i64> {
    kubelife_engine::order::map(cloud_choices().filter_map(|s| Some((s.name.to_string(), s.get(sc)?.int()?))))
}

/// The cloud durations a scenario sets, by the table's names, ms.
pub(super) fn cloud_durations_of(sc: &Scenario) -> BTreeMap<String, Millis> {
    kubelife_engine::order::map(cloud_durations().filter_map(|s| Some((s.name.to_string(), s.get(sc)?.millis()?))))
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
        self.remediator_settings.clear();
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
        self.remediator_settings.clear();
        Some(gone)
    }

    /// A cloud duration as the page shows it, ms: the set one or the table's default on the
    /// cluster's cloud.
    pub fn cloud_duration_ms(&self, s: &Setting) -> Millis {
        self.cloud_durations
            .get(s.name)
            .copied()
            .unwrap_or_else(|| s.default_ms(self.cloud))
    }

    /// Writes the cloud durations set, where the cluster's cloud reads them, into the scenario's
    /// `cloud` section.
    pub(super) fn write_cloud_durations(&self, sc: &mut Scenario) {
        for s in cloud_durations().filter(|s| self.cloud.is_some() && read_on(s, self.cloud)) {
            if let Some(&ms) = self.cloud_durations.get(s.name) {
                s.put(sc, Value::Duration(ms));
            }
        }
    }

    /// A cloud choice as the page shows it, its index: the set one or the table's default.
    pub fn cloud_choice_index(&self, s: &Setting) -> i64 {
        let default = || s.default_on(self.cloud).and_then(Value::int).unwrap_or(0);
        self.cloud_choices.get(s.name).copied().unwrap_or_else(default)
    }

    /// Writes the cloud choices set, where the cluster's cloud reads them, into the scenario's
    /// `cloud` section.
    pub(super) fn write_cloud_choices(&self, sc: &mut Scenario) {
        for s in cloud_choices().filter(|s| self.cloud.is_some() && read_on(s, self.cloud)) {
            if let Some(&i) = self.cloud_choices.get(s.name) {
                s.put(sc, Value::Int(i));
            }
        }
    }

    /// A further setting of the remediator as the page shows it (ms for a span): the set one or
    /// the table's default on the cluster's cloud; `None` where the model computes it.
    pub fn further_or_default(&self, s: &Setting) -> Option<i64> {
        let default = || match (s.default, s.default_on(self.cloud)?) {
            // A default that follows a cloud duration follows the one set.
            (DefaultValue::Follows(other), _) if self.cloud_durations.contains_key(other.name) => {
                Some(self.cloud_duration_ms(other))
            }
            (_, Value::Duration(ms)) => Some(ms),
            (_, v) => v.int(),
        };
        self.remediator_settings.get(s.link).copied().or_else(default)
    }

    /// Writes the remediator's further settings set into its `remediation` entry.
    pub(super) fn write_further(&self, sc: &mut Scenario) {
        for s in self.remediation.kind.further() {
            if let Some(&n) = self.remediator_settings.get(s.link) {
                s.put(sc, further_value(s, n));
            }
        }
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
