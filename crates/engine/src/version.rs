//! Kubernetes versions and the defaults and behaviours that depend on them.
//!
//! A [`Profile`] gathers everything that changed across minor versions and matters for node-failure
//! timing: configuration defaults, which loops have jitter, and where taint eviction runs. The
//! sources are `pkg/kubelet/apis/config/v1beta1/defaults.go`,
//! `pkg/controller/nodelifecycle/config/v1alpha1/defaults.go`, the kube-apiserver flag defaults of
//! the `DefaultTolerationSeconds` admission plugin, and the release notes named on each field.

use crate::cause::Cause;
use crate::time::{Millis, SECOND};
use std::fmt;

/// The oldest minor version (of 1.x) the engine models.
pub const OLDEST_MINOR: u32 = 12;
/// The newest minor version (of 1.x) the engine models; the default when a scenario names none.
pub const NEWEST_MINOR: u32 = 37;

/// A Kubernetes minor version, `1.<minor>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct Version {
    /// The minor number: 32 for Kubernetes 1.32.
    pub minor: u32,
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "1.{}", self.minor)
    }
}

impl Default for Version {
    fn default() -> Self {
        Version { minor: NEWEST_MINOR }
    }
}

impl Version {
    /// Every supported version, oldest first.
    pub fn supported() -> impl Iterator<Item = Version> {
        (OLDEST_MINOR..=NEWEST_MINOR).map(|minor| Version { minor })
    }

    /// The supported versions as one readable list, `1.18, 1.19, …`.
    pub fn supported_list() -> String {
        Version::supported()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Parses `"1.32"` (a leading `v` and a patch number are accepted and ignored); the error
    /// says why and lists the supported versions.
    pub fn parse(text: &str) -> Result<Version, Cause> {
        let t = text.trim();
        let t = t.strip_prefix('v').unwrap_or(t);
        let mut parts = t.split('.');
        let major = parts.next().unwrap_or("");
        let minor = parts.next().unwrap_or("");
        let patch_ok = parts
            .next()
            .is_none_or(|p| p.chars().all(|c| c.is_ascii_digit()) && !p.is_empty());
        let supported = Version::supported_list();
        match (major, minor.parse::<u32>()) {
            ("1", Ok(minor)) if parts.next().is_none() && patch_ok => {
                if (OLDEST_MINOR..=NEWEST_MINOR).contains(&minor) {
                    Ok(Version { minor })
                } else {
                    Err(Cause::new("version.unsupported")
                        .text("version", format!("1.{minor}"))
                        .text("supported", supported))
                }
            }
            _ => Err(Cause::new("version.unreadable")
                .text("text", format!("{text:?}"))
                .text("supported", supported)),
        }
    }

    /// The behaviour profile of this version.
    pub fn profile(self) -> Profile {
        Profile::of(self)
    }
}

impl Profile {
    /// How a version behaves.
    pub fn of(v: Version) -> Profile {
        let m = v.minor;
        // The kubelet's lease renew interval: 1/3 of the duration in 1.12 (#66257), a fixed 10s in
        // 1.13 to 1.15 (the KEP's constant), a quarter of the duration from 1.16 (#80429).
        let lease_renew = if m <= 12 {
            LeaseRenew::ThirdOfDuration
        } else if m <= 15 {
            LeaseRenew::Fixed10s
        } else {
            LeaseRenew::QuarterOfDuration
        };
        Profile {
            version: v,
            lease_renew,
            // #101652 added 4% jitter to the lease loop in 1.22; #105272 to the status loop in 1.23.
            lease_jitter: m >= 22,
            status_jitter: m >= 23,
            // #130919: from 1.33 the first time-based status report after a change is shifted by a
            // one-time random offset in [-R/2, +R/2].
            report_offset_after_change: m >= 33,
            // PodDisruptionConditions is on from 1.26: the eviction adds a DisruptionTarget
            // condition with a status PATCH before the DELETE.
            pod_disruption_conditions: m >= 26,
            // SeparateTaintEvictionController moved the taint manager out of the node lifecycle
            // controller in 1.29, with unchanged timing.
            separate_taint_eviction_controller: m >= 29,
            // The 1.12 node lifecycle controller moves its probe only on status heartbeats.
            controller_reads_leases: m >= 13,
            // `nodeStatusReportFrequency` arrived in 1.13 (KEP-0009).
            has_report_frequency: m >= 13,
            // `--pod-eviction-timeout` and `--enable-taint-manager` were removed in 1.27 (#115840).
            has_legacy_eviction_flags: m <= 26,
            // #126287 raised --node-monitor-grace-period's default from 40s to 50s in 1.32, so that
            // it covers the HTTP/2 health check (30s ping timeout and 15s read-idle timeout).
            grace_covers_http2_health_check: m >= 32,
            // `--enable-taint-manager` is deprecated from 1.25 (it warns, and still works).
            taint_manager_deprecated: m >= 25,
            // Before 1.19 the zone math left out nodes whose names end in "master"
            // (`system.IsMasterNode`); from 1.19 the `node.kubernetes.io/exclude-disruption` label.
            exclusion_by_label: m >= 19,
            // PodGC's gcTerminating step for out-of-service nodes (NodeOutOfServiceVolumeDetach)
            // and its 40s quarantine for orphaned pods both exist from 1.24.
            podgc_quarantine: m >= 24,
            // Per-pod NodeNotReady events in MarkPodsNotReady arrived around 1.19 (#87743); each
            // costs the node lifecycle controller's client one request.
            pod_not_ready_events: m >= 19,
            // kube-proxy's BoundedFrequencyRunner (burst 2) until 1.33; pkg/proxy/runner (no burst,
            // minSyncPeriod measured from the end of the previous run) from 1.34 (#131615).
            proxy_runner_from_end: m >= 34,
            // EndpointSliceTerminatingCondition (beta 1.22): terminating pods stay in slices.
            terminating_endpoints_kept: m >= 22,
            // #110255 (1.25): Failed and Succeeded pods are never published as endpoints.
            terminal_pods_unpublished: m >= 25,
            // ProxyTerminatingEndpoints (beta 1.26): with no ready endpoint, serving terminating
            // ones are used.
            serving_terminating_fallback: m >= 26,
            // #110721 (1.25): the 6-minute force detach only on a node that is not Ready.
            force_detach_needs_unhealthy_node: m >= 25,
            // `--disable-force-detach-on-timeout` exists from 1.30 (#120344).
            has_disable_force_detach: m >= 30,
            // `shutdownGracePeriod` and `shutdownGracePeriodCriticalPods` exist from 1.20.
            has_graceful_shutdown: m >= 20,
            // PDB `unhealthyPodEvictionPolicy` (PDBUnhealthyPodEvictionPolicy beta, on, in 1.27).
            has_unhealthy_pod_eviction_policy: m >= 27,
            // #138837: the Multi-Attach event reads "Waiting for detach" in 1.37 (also in later
            // 1.35 and 1.36 patch releases, which the engine does not tell apart).
            multi_attach_says_waiting: m >= 37,
            // kube-proxy's nftables mode exists from 1.29 (alpha); ipvs is deprecated from 1.35.
            has_nftables: m >= 29,
            ipvs_deprecated: m >= 35,
        }
    }
}

/// How a Kubernetes version's loops and controllers behave (its configuration defaults live with
/// the configuration types, [`crate::scenario::KubeletConfig::defaults`] and its siblings).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Profile {
    /// The version this profile describes.
    pub version: Version,
    /// Whether the kubelet's lease loop waits `L·(1 + U[0, 0.04))` rather than exactly `L`.
    pub lease_jitter: bool,
    /// Whether the kubelet's status loop waits `U·(1 + U[0, 0.04))` rather than exactly `U`.
    pub status_jitter: bool,
    /// Whether a status change shifts the next time-based report by a random offset.
    pub report_offset_after_change: bool,
    /// Whether taint eviction patches a `DisruptionTarget` condition before deleting.
    pub pod_disruption_conditions: bool,
    /// Whether taint eviction runs as its own `taint-eviction-controller`.
    pub separate_taint_eviction_controller: bool,
    /// How the kubelet derives its Lease renew interval.
    pub lease_renew: LeaseRenew,
    /// Whether the node lifecycle controller refreshes its probe on Lease renewals.
    pub controller_reads_leases: bool,
    /// Whether KubeletConfiguration has `nodeStatusReportFrequency`.
    pub has_report_frequency: bool,
    /// Whether kube-controller-manager has `--pod-eviction-timeout` and `--enable-taint-manager`.
    pub has_legacy_eviction_flags: bool,
    /// Whether `--node-monitor-grace-period`'s default covers the HTTP/2 health check (ping
    /// timeout plus read-idle timeout, 45s): upstream wants a grace period above it.
    pub grace_covers_http2_health_check: bool,
    /// Whether `--enable-taint-manager` is deprecated (it still works).
    pub taint_manager_deprecated: bool,
    /// Whether zone counting excludes nodes by label (else by a name ending in "master").
    pub exclusion_by_label: bool,
    /// Whether PodGC quarantines orphaned pods for 40s and force-deletes terminating pods on
    /// out-of-service nodes.
    pub podgc_quarantine: bool,
    /// Whether `MarkPodsNotReady` records an event per pod.
    pub pod_not_ready_events: bool,
    /// Whether kube-proxy's sync runner measures `minSyncPeriod` from the end of the previous
    /// run without a burst (1.34+), rather than by a token bucket of burst 2.
    pub proxy_runner_from_end: bool,
    /// Whether EndpointSlices keep terminating pods (marked terminating).
    pub terminating_endpoints_kept: bool,
    /// Whether Failed and Succeeded pods are left out of endpoints.
    pub terminal_pods_unpublished: bool,
    /// Whether kube-proxy falls back to serving terminating endpoints when none is ready.
    pub serving_terminating_fallback: bool,
    /// Whether the attach-detach controller force-detaches on timeout only from unhealthy nodes.
    pub force_detach_needs_unhealthy_node: bool,
    /// Whether `--disable-force-detach-on-timeout` exists.
    pub has_disable_force_detach: bool,
    /// Whether the kubelet has graceful node shutdown settings.
    pub has_graceful_shutdown: bool,
    /// Whether PDBs have `unhealthyPodEvictionPolicy`.
    pub has_unhealthy_pod_eviction_policy: bool,
    /// Whether the Multi-Attach event uses the "Waiting for detach" wording.
    pub multi_attach_says_waiting: bool,
    /// Whether kube-proxy has the nftables mode.
    pub has_nftables: bool,
    /// Whether kube-proxy's ipvs mode is deprecated.
    pub ipvs_deprecated: bool,
}

/// How the kubelet derives its Lease renew interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum LeaseRenew {
    /// A third of `nodeLeaseDurationSeconds` (1.12).
    ThirdOfDuration,
    /// Always 10s (1.13 to 1.15).
    Fixed10s,
    /// A quarter of `nodeLeaseDurationSeconds` (`nodeLeaseRenewIntervalFraction`, 1.16+).
    QuarterOfDuration,
}

/// The feature gates the engine models.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Gate {
    /// `TaintBasedEvictions`: the node lifecycle controller taints instead of deleting pods itself.
    TaintBasedEvictions,
    /// `NodeLease`: kubelets renew Leases as heartbeats.
    NodeLease,
    /// `NodeOutOfServiceVolumeDetach`: PodGC force-deletes terminating pods on out-of-service nodes.
    NodeOutOfServiceVolumeDetach,
    /// `GracefulNodeShutdown`: the kubelet's shutdown manager terminates pods before power-off.
    GracefulNodeShutdown,
    /// `NodeControllerLeaseCircuitBreaker`: before marking a node Unknown, the node lifecycle
    /// controller reads its Lease live, and waits for its cache when the Lease moved (#138698).
    NodeControllerLeaseCircuitBreaker,
}

/// Where a gate stands in a version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateStage {
    /// Not introduced yet: the feature does not exist.
    NotYet,
    /// Alpha: off unless enabled.
    Alpha,
    /// Beta: on unless disabled.
    Beta,
    /// GA: on and locked.
    Ga,
    /// Removed after GA: the feature is always on and the gate name is unknown.
    Removed,
}

impl Gate {
    /// Every modelled gate.
    pub const ALL: [Gate; 5] = [
        Gate::TaintBasedEvictions,
        Gate::NodeLease,
        Gate::NodeOutOfServiceVolumeDetach,
        Gate::GracefulNodeShutdown,
        Gate::NodeControllerLeaseCircuitBreaker,
    ];

    /// The gate's name as `--feature-gates` spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Gate::TaintBasedEvictions => "TaintBasedEvictions",
            Gate::NodeLease => "NodeLease",
            Gate::NodeOutOfServiceVolumeDetach => "NodeOutOfServiceVolumeDetach",
            Gate::GracefulNodeShutdown => "GracefulNodeShutdown",
            Gate::NodeControllerLeaseCircuitBreaker => "NodeControllerLeaseCircuitBreaker",
        }
    }

    /// Finds a gate by name.
    pub fn by_name(name: &str) -> Option<Gate> {
        Gate::ALL.into_iter().find(|g| g.name() == name)
    }

    /// Minor versions of (alpha, beta, GA, removal), from the feature-gate reference pages and
    /// `pkg/features/kube_features.go`; `NEVER` for a stage not reached in any modelled version.
    fn stages(self) -> (u32, u32, u32, u32) {
        const NEVER: u32 = u32::MAX;
        match self {
            Gate::TaintBasedEvictions => (6, 13, 18, 21),
            Gate::NodeLease => (12, 14, 17, 24),
            Gate::NodeOutOfServiceVolumeDetach => (24, 26, 28, 32),
            // Beta (on) since 1.21 and still beta in the newest release.
            Gate::GracefulNodeShutdown => (20, 21, NEVER, NEVER),
            // Introduced as beta, on by default, in 1.37 (kubernetes #138698).
            Gate::NodeControllerLeaseCircuitBreaker => (37, 37, NEVER, NEVER),
        }
    }

    /// The gate's stage in a version.
    pub fn stage(self, v: Version) -> GateStage {
        let (alpha, beta, ga, removed) = self.stages();
        match v.minor {
            m if m < alpha => GateStage::NotYet,
            m if m >= removed => GateStage::Removed,
            m if m >= ga => GateStage::Ga,
            m if m >= beta => GateStage::Beta,
            _ => GateStage::Alpha,
        }
    }

    /// Whether the feature is on when nobody sets the gate.
    pub fn default_on(self, v: Version) -> bool {
        matches!(self.stage(v), GateStage::Beta | GateStage::Ga | GateStage::Removed)
    }

    /// The version the stage after `stage` began, for messages.
    pub fn removed_in(self) -> u32 {
        self.stages().3
    }

    /// The version the gate appeared, for messages.
    pub fn added_in(self) -> u32 {
        self.stages().0
    }
}

impl LeaseRenew {
    /// The renew interval for a lease duration, in ms.
    pub fn interval(self, lease_duration_seconds: i64) -> Millis {
        match self {
            LeaseRenew::ThirdOfDuration => lease_duration_seconds * SECOND / 3,
            LeaseRenew::Fixed10s => 10 * SECOND,
            LeaseRenew::QuarterOfDuration => lease_duration_seconds * SECOND / 4,
        }
    }
}

impl Profile {
    /// The kubelet's Lease renew interval for a lease duration, in ms.
    pub fn lease_renew_interval(&self, lease_duration_seconds: i64) -> Millis {
        self.lease_renew.interval(lease_duration_seconds)
    }

    /// The name of the component that deletes pods on tainted nodes, as this version calls it.
    pub fn taint_evictor_name(&self) -> &'static str {
        if self.separate_taint_eviction_controller {
            "taint-eviction-controller"
        } else {
            "NoExecuteTaintManager"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects() {
        assert_eq!(Version::parse("1.32"), Ok(Version { minor: 32 }));
        assert_eq!(Version::parse("v1.31.4"), Ok(Version { minor: 31 }));
        let err = Version::parse("1.11").unwrap_err().english();
        assert!(
            err.contains("not supported") && err.contains("1.18") && err.contains("1.37"),
            "{err}"
        );
        assert!(Version::parse("banana")
            .unwrap_err()
            .english()
            .contains("supported versions"));
        assert!(Version::parse("2.1").is_err());
        assert!(Version::parse("1.32.x").is_err());
    }

    #[test]
    fn gate_stages_follow_the_reference_pages() {
        let v = |minor| Version { minor };
        assert_eq!(Gate::TaintBasedEvictions.stage(v(12)), GateStage::Alpha);
        assert_eq!(Gate::TaintBasedEvictions.stage(v(13)), GateStage::Beta);
        assert_eq!(Gate::TaintBasedEvictions.stage(v(18)), GateStage::Ga);
        assert_eq!(Gate::TaintBasedEvictions.stage(v(21)), GateStage::Removed);
        assert!(!Gate::NodeLease.default_on(v(13)) && Gate::NodeLease.default_on(v(14)));
        assert_eq!(Gate::NodeOutOfServiceVolumeDetach.stage(v(23)), GateStage::NotYet);
        assert!(
            !Gate::NodeOutOfServiceVolumeDetach.default_on(v(25))
                && Gate::NodeOutOfServiceVolumeDetach.default_on(v(26))
        );
    }

    #[test]
    fn lease_renew_interval_by_version() {
        assert_eq!(Version { minor: 12 }.profile().lease_renew_interval(40), 13_333);
        assert_eq!(Version { minor: 14 }.profile().lease_renew_interval(60), 10_000);
        assert_eq!(Version { minor: 16 }.profile().lease_renew_interval(60), 15_000);
    }
}
