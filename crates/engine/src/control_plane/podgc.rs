//! The pod garbage collector of kube-controller-manager.
//!
//! Follows `pkg/controller/podgc/gc_controller.go`: every `gcCheckPeriod` (20 s, sliding) it
//! force-deletes terminating pods on nodes that are not Ready and carry
//! `node.kubernetes.io/out-of-service` (`gcTerminating`, behind NodeOutOfServiceVolumeDetach),
//! pods bound to nodes that no longer exist once a 40 s quarantine has passed (`gcOrphaned`),
//! and terminating pods that were never scheduled (`gcUnscheduledTerminating`).

use crate::api::client::Controller;
use crate::api::{Api, CondStatus, PodId};
use crate::cause::Cause;
use crate::idmap::IdMap;
use crate::time::{Millis, SECOND};
use crate::timeline::{latest, Event, EventId, EventKind};
use crate::world::World;

/// How often PodGC runs (`gcCheckPeriod`), ms.
pub const GC_CHECK_PERIOD: Millis = 20 * SECOND;
/// How long an orphaned pod waits before it is deleted (`quarantineTime`), ms.
pub const QUARANTINE: Millis = 40 * SECOND;
/// The out-of-service taint key.
pub const TAINT_OUT_OF_SERVICE: &str = "node.kubernetes.io/out-of-service";

/// When PodGC force-deletes a deleted Node's pods (the part of a Node deletion's cause that
/// says so): after its quarantine (1.20+, `quarantine`) or at its next run.
pub fn orphan_cause(quarantine: bool) -> Cause {
    Cause::new(if quarantine {
        "cause.part.gc_quarantine"
    } else {
        "cause.part.gc_next"
    })
}

/// PodGC's settings and memory.
#[derive(Debug, Clone, Default)]
pub struct PodGc {
    /// Whether `gcTerminating` runs (NodeOutOfServiceVolumeDetach).
    pub out_of_service: bool,
    /// Whether orphaned pods wait out the quarantine (else they go at the first run).
    pub quarantine: bool,
    /// Orphaned pods and when PodGC first saw them: a slot per pod, only looked up, so that the
    /// worker carries no B-tree for this key and value.
    orphans: IdMap<Millis>,
}

impl PodGc {
    /// A collector with these features.
    pub fn new(out_of_service: bool, quarantine: bool) -> Self {
        PodGc {
            out_of_service,
            quarantine,
            orphans: IdMap::default(),
        }
    }

    /// Forgets the quarantine queue, as a restart does.
    pub fn restart(&mut self) {
        self.orphans = IdMap::default();
    }

    /// The pods a run looks at, in pod order: those on nodes that are gone or carry the
    /// out-of-service taint, and those never bound. Every other pod is none of PodGC's business,
    /// so a run costs what those pods and the node list cost, not what the whole cluster does.
    fn candidates(&self, api: &Api) -> Vec<PodId> {
        let mut out: Vec<PodId> = api.unbound.iter().copied().collect();
        for node in &api.nodes {
            let oos = self.out_of_service && node.taints.iter().any(|t| t.key == TAINT_OUT_OF_SERVICE);
            if !node.exists || oos {
                out.extend(node.pods.iter().copied());
            }
        }
        crate::order::sort(&mut out);
        out
    }

    /// One run at `now`.
    pub fn run(&mut self, w: &mut World) {
        let now = w.now;
        let World { api, log, .. } = w;
        let mut doomed: Vec<(PodId, Cause, Option<EventId>)> = Vec::new();
        for p in self.candidates(api) {
            let pod = &api.pods[p];
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
                        let cause = Cause::new("cause.podgc.terminating")
                            .text("node", &node.name)
                            .text("taint", TAINT_OUT_OF_SERVICE);
                        // Its three conditions; the last to hold made the deletion possible.
                        let oos = node.taints.iter().find(|t| t.key == TAINT_OUT_OF_SERVICE);
                        let tainted = oos.and_then(|t| log.index.taint(n, &t.label()));
                        let after = latest([tainted, log.index.pod(p).deleting, log.index.ready(n)]);
                        doomed.push((p, cause, after));
                    }
                }
                Some(n) => {
                    let name = api.nodes[n].name.clone();
                    let deleted = log.index.node(n).and_then(|m| m.deleted);
                    if !self.quarantine {
                        doomed.push((p, Cause::new("cause.podgc.orphaned").text("node", &name), deleted));
                        continue;
                    }
                    let seen = match self.orphans.get(&p) {
                        Some(&seen) => seen,
                        None => {
                            self.orphans.insert(p, now);
                            now
                        }
                    };
                    if now >= seen + QUARANTINE {
                        // The wait for the run that first saw it is part of the pod's way out.
                        let gone = deleted.and_then(|id| log.events.get(id)).map_or(seen, |e| e.at);
                        let cause = Cause::new("cause.podgc.quarantined")
                            .text("node", &name)
                            .time("seen", seen)
                            .time("first", seen - gone)
                            .time("quarantine", QUARANTINE);
                        doomed.push((p, cause, deleted));
                    }
                }
                None if pod.deletion_requested_at.is_some() => {
                    let after = log.index.pod(p).deleting;
                    doomed.push((p, Cause::new("cause.podgc.unscheduled"), after));
                }
                None => {}
            }
        }
        for (p, cause, after) in doomed {
            self.orphans.remove(&p);
            // A status PATCH (phase Failed) and a DELETE with grace 0, through PodGC's client.
            api.clients.send(Controller::PodGc, now, 2);
            api.count(now, |w| w.pod_status_updates += 1);
            if api.remove_pod(now, p) {
                let mut e = Event::new(now, EventKind::PodRemoved, cause).pod(p).after(after);
                e.node = api.pods[p].node;
                log.push(e);
            }
        }
    }
}
