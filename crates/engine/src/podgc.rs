//! The pod garbage collector of kube-controller-manager.
//!
//! Follows `pkg/controller/podgc/gc_controller.go`: every `gcCheckPeriod` (20 s, sliding) it
//! force-deletes terminating pods on nodes that are not Ready and carry
//! `node.kubernetes.io/out-of-service` (`gcTerminating`, behind NodeOutOfServiceVolumeDetach),
//! pods bound to nodes that no longer exist once a 40 s quarantine has passed (`gcOrphaned`),
//! and terminating pods that were never scheduled (`gcUnscheduledTerminating`).

use crate::api::{Api, CondStatus, PodId};
use crate::time::{format_go_duration, Millis, SECOND};
use crate::timeline::{Event, EventKind, Log};
use std::collections::BTreeMap;

/// How often PodGC runs (`gcCheckPeriod`), ms.
pub const GC_CHECK_PERIOD: Millis = 20 * SECOND;
/// How long an orphaned pod waits before it is deleted (`quarantineTime`), ms.
pub const QUARANTINE: Millis = 40 * SECOND;
/// The out-of-service taint key.
pub const TAINT_OUT_OF_SERVICE: &str = "node.kubernetes.io/out-of-service";

/// PodGC's settings and memory.
#[derive(Debug, Clone, Default)]
pub struct PodGc {
    /// Whether `gcTerminating` runs (NodeOutOfServiceVolumeDetach).
    pub out_of_service: bool,
    /// Whether orphaned pods wait out the quarantine (else they go at the first run).
    pub quarantine: bool,
    /// Orphaned pods and when PodGC first saw them.
    orphans: BTreeMap<PodId, Millis>,
}

impl PodGc {
    /// A collector with these features.
    pub fn new(out_of_service: bool, quarantine: bool) -> Self {
        PodGc {
            out_of_service,
            quarantine,
            orphans: BTreeMap::new(),
        }
    }

    /// Forgets the quarantine queue, as a restart does.
    pub fn restart(&mut self) {
        self.orphans.clear();
    }

    /// One run at `now`.
    pub fn run(&mut self, now: Millis, api: &mut Api, log: &mut Log) {
        let mut doomed: Vec<(PodId, String)> = Vec::new();
        for (p, pod) in api.pods.iter().enumerate() {
            if !pod.exists() {
                continue;
            }
            match pod.node {
                Some(n) if api.nodes[n].exists => {
                    let node = &api.nodes[n];
                    let ready = node.status.observed(now).ready_status() == Some(CondStatus::True);
                    if self.out_of_service
                        && pod.deletion_requested_at.is_some()
                        && !ready
                        && node.taints.iter().any(|t| t.key == TAINT_OUT_OF_SERVICE)
                    {
                        doomed.push((p, format!("PodGC (gcTerminating): the pod is Terminating on {}, which is not Ready and carries {TAINT_OUT_OF_SERVICE}; it marks the pod Failed and force-deletes it (grace 0), and volumes detach at once", node.name)));
                    }
                }
                Some(n) => {
                    let name = api.nodes[n].name.clone();
                    if !self.quarantine {
                        doomed.push((
                            p,
                            format!("PodGC (gcOrphaned): node {name} no longer exists, so the pod is force-deleted"),
                        ));
                        continue;
                    }
                    let seen = *self.orphans.entry(p).or_insert(now);
                    if now >= seen + QUARANTINE {
                        doomed.push((p, format!(
                            "PodGC (gcOrphaned): node {name} no longer exists; first seen orphaned at t={}, quarantine {} passed, so it is marked Failed (DeletionByPodGC) and force-deleted",
                            format_go_duration(seen),
                            format_go_duration(QUARANTINE)
                        )));
                    }
                }
                None if pod.deletion_requested_at.is_some() => {
                    doomed.push((
                        p,
                        "PodGC (gcUnscheduledTerminating): a terminating pod that was never scheduled is force-deleted"
                            .to_string(),
                    ));
                }
                None => {}
            }
        }
        for (p, cause) in doomed {
            self.orphans.remove(&p);
            // A status PATCH (phase Failed) and a DELETE with grace 0.
            api.count(now, |w| w.pod_status_updates += 1);
            if api.remove_pod(now, p) {
                let mut e = Event::new(now, EventKind::PodRemoved, cause).pod(p);
                e.node = api.pods[p].node;
                log.push(e);
            }
        }
    }
}
