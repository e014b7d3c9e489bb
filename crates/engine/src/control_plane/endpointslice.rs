//! The EndpointSlice controller: a Service's endpoints follow its pods.
//!
//! Follows `pkg/controller/endpointslice` and `staging/src/k8s.io/endpointslice`: a pod add,
//! update or delete enqueues its Service (`--endpointslice-updates-batch-period` 0, so at once);
//! a sync writes the slice with each pod's conditions (`podToEndpoint`): `serving` = the pod's
//! Ready condition, `terminating` = a deletionTimestamp, `ready` = serving and not terminating.
//! `ShouldPodBeInEndpoints` leaves out pods without an IP, terminal pods (from 1.25, #110255) and,
//! before 1.22 (`EndpointSliceTerminatingCondition`), terminating pods. The write goes through
//! the controller's own client; while it waits for the rate limiter, further changes of the same
//! Service fold into it (one worker per Service key).

use crate::api::client::Controller;
use crate::api::endpoints::Endpoint;
use crate::api::{Api, NodeId, Pod, PodId, Watch};
use crate::cause::Cause;
use crate::scenario::WorkloadSpec;
use crate::sched::{Owner, Wake};
use crate::time::Millis;
use crate::timeline::{Event, EventId, EventKind, PodMarks};
use crate::version::Profile;
use crate::world::World;
use std::collections::BTreeSet;

/// The controller's state.
#[derive(Debug, Clone, Default)]
pub struct EndpointSliceController {
    /// Per workload: whether a Service selects its pods.
    pub services: Vec<bool>,
    /// Per Service: pods changed since the last write.
    dirty: Vec<BTreeSet<PodId>>,
    /// Per Service: whether a write waits for the rate limiter.
    writing: Vec<bool>,
    /// Per Service: when the write waiting for the rate limiter was asked for, ms.
    asked: Vec<Millis>,
    terminating_kept: bool,
    terminal_unpublished: bool,
    /// Per Service, how many ready endpoints its slice lists from each time on: (time, count).
    pub ready_counts: Vec<Vec<(Millis, usize)>>,
}

/// A pod's endpoint, or `None` when it is not in the slice (`ShouldPodBeInEndpoints` and
/// `podToEndpoint` with `publishNotReadyAddresses` false).
pub fn endpoint(pod: &Pod, terminating_kept: bool, terminal_unpublished: bool) -> Option<Endpoint> {
    // No IP before the kubelet started the pod's sandbox: it has not reported yet.
    if !pod.exists() || pod.node.is_none() || pod.ready.is_none() {
        return None;
    }
    let terminating = pod.deletion_requested_at.is_some();
    if (pod.failed && terminal_unpublished) || (terminating && !terminating_kept) {
        return None;
    }
    let serving = pod.ready == Some(true) && !pod.failed;
    Some(Endpoint {
        ready: serving && !terminating,
        serving,
        terminating,
    })
}

/// What a slice write reports for one pod whose endpoint changed, if anything.
fn endpoint_event(old: Option<Endpoint>, new: Option<Endpoint>, pod: &Pod) -> Option<(EventKind, Cause)> {
    if new.is_some_and(|e| e.ready) && !old.is_some_and(|e| e.ready) {
        return Some((EventKind::EndpointReady, Cause::new("cause.eps.ready")));
    }
    let why = if pod.failed {
        "cause.part.ep_failed"
    } else if !pod.exists() {
        "cause.part.ep_gone"
    } else if pod.deletion_requested_at.is_some() {
        "cause.part.ep_terminating"
    } else {
        "cause.part.ep_not_ready"
    };
    match (old, new) {
        (Some(_), None) => Some((
            EventKind::EndpointRemoved,
            Cause::new("cause.eps.removed").sub("why", Cause::new(why)),
        )),
        (Some(o), Some(e)) if o.ready && !e.ready => Some((
            EventKind::EndpointNotReady,
            Cause::new("cause.eps.not_ready")
                .text("serving", e.serving)
                .text("terminating", e.terminating)
                .sub("why", Cause::new(why)),
        )),
        _ => None,
    }
}

/// The pod's change its endpoint follows: gone, Failed, deleted, NotReady or Ready.
fn changed_by(pod: &Pod, m: PodMarks) -> Option<EventId> {
    if !pod.exists() {
        m.removed
    } else if pod.failed {
        m.failed
    } else if pod.deletion_requested_at.is_some() {
        m.deleting
    } else if pod.ready == Some(true) {
        m.ready
    } else {
        m.not_ready
    }
}

fn ready_count(slice: &crate::api::endpoints::Slice) -> usize {
    slice.values().filter(|e| e.ready).count()
}

impl EndpointSliceController {
    /// The controller for these workloads on this version.
    pub fn new(workloads: &[WorkloadSpec], p: &Profile) -> Self {
        let services: Vec<bool> = workloads.iter().map(|w| w.service).collect();
        let n = services.len();
        EndpointSliceController {
            services,
            dirty: vec![BTreeSet::new(); n],
            writing: vec![false; n],
            asked: vec![0; n],
            terminating_kept: p.terminating_endpoints_kept,
            terminal_unpublished: p.terminal_pods_unpublished,
            ready_counts: vec![Vec::new(); n],
        }
    }

    /// Whether any Service exists.
    pub fn any(&self) -> bool {
        self.services.iter().any(|&s| s)
    }

    /// A restarted kube-controller-manager resyncs every Service from scratch.
    pub fn restart(&mut self, world: &mut World) {
        self.writing.iter_mut().for_each(|w| *w = false);
        for w in 0..self.services.len() {
            if self.services[w] {
                let api = &world.api;
                let pods = api.pods_by_workload.get(w).cloned().unwrap_or_default();
                self.dirty[w].extend(pods.iter().filter(|&&p| api.pods[p].exists()));
                self.enqueue(world, w);
            }
        }
    }

    /// The slice as the pods are now, written without rate limit or events: the cluster's state
    /// at the start of a run.
    pub fn initialize(&mut self, api: &mut Api) {
        api.slices = vec![Default::default(); self.services.len()];
        api.slice_changes = vec![Vec::new(); self.services.len()];
        api.slice_ready = vec![0; self.services.len()];
        for (w, &service) in self.services.iter().enumerate() {
            if !service {
                continue;
            }
            for &p in api.pods_by_workload.get(w).map(Vec::as_slice).unwrap_or(&[]) {
                if let Some(e) = endpoint(&api.pods[p], self.terminating_kept, self.terminal_unpublished) {
                    api.slices[w].insert(p, e);
                }
            }
            api.slice_ready[w] = ready_count(&api.slices[w]);
            self.ready_counts[w] = vec![(0, api.slice_ready[w])];
        }
    }

    /// A pod changed (the informer shows it now): its Service syncs, at once or, when its
    /// client's rate limiter holds the write back, at a wake-up ([`Self::write`]).
    pub fn pod_changed(&mut self, world: &mut World, p: PodId) {
        let w = world.api.pods[p].workload;
        if !self.services.get(w).copied().unwrap_or(false) {
            return;
        }
        self.dirty[w].insert(p);
        self.enqueue(world, w);
    }

    fn enqueue(&mut self, world: &mut World, w: usize) {
        if self.writing[w] {
            return;
        }
        let now = world.now;
        let at = world.api.clients.send(Controller::EndpointSlice, now, 1);
        if at <= now {
            self.write(world, w);
        } else {
            self.writing[w] = true;
            self.asked[w] = now;
            world.wake_for(Owner::ControllerManager, at, Wake::SliceWrite { service: w });
        }
    }

    /// Writes Service `w`'s slice with every change since the last write.
    pub fn write(&mut self, world: &mut World, w: usize) {
        let now = world.now;
        let World { api, log, .. } = world;
        let asked = std::mem::take(&mut self.writing[w]).then_some(self.asked[w]);
        let mut changed = false;
        for p in std::mem::take(&mut self.dirty[w]) {
            let pod = &api.pods[p];
            let new = endpoint(pod, self.terminating_kept, self.terminal_unpublished);
            let old = api.slices[w].get(&p).copied();
            if new == old {
                continue;
            }
            changed = true;
            if let Some((kind, cause)) = endpoint_event(old, new, pod) {
                let node: Option<NodeId> = pod.node;
                let cause = match asked {
                    Some(asked) if asked < now => {
                        let limits = api.clients.limits();
                        Cause::client_wait(cause, Controller::EndpointSlice.client_name(), (asked, now), limits)
                    }
                    _ => cause,
                };
                let mut e = Event::new(now, kind, cause)
                    .pod(p)
                    .after(changed_by(pod, log.index.pod(p)));
                e.node = node;
                e.service = Some(w);
                log.push(e);
            }
            let is_ready = |e: Option<Endpoint>| usize::from(e.is_some_and(|e| e.ready));
            api.slice_ready[w] = api.slice_ready[w] + is_ready(new) - is_ready(old);
            api.slice_changes[w].push(p);
            match new {
                Some(e) => api.slices[w].insert(p, e),
                None => api.slices[w].remove(&p),
            };
        }
        if changed {
            // The count follows each change, so a write costs its changes, not the slice's size.
            let ready = api.slice_ready[w];
            if self.ready_counts[w].last().is_none_or(|&(_, c)| c != ready) {
                self.ready_counts[w].push((now, ready));
            }
            api.announce(now, Watch::Slice(w));
        }
    }
}
