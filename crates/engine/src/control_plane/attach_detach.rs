//! The attach-detach controller: when a volume leaves a dead node and reaches the new one.
//!
//! Follows `pkg/controller/volume/attachdetach`. The desired state holds, per volume, the nodes
//! whose pods use it and are not terminated (`DetermineVolumeAction`, `IsPodTerminated`: phase
//! Failed or Succeeded, or deleted with no container reported running; a Terminating pod on a
//! dead node still reports its containers running, so it keeps its volume). The reconciler runs
//! every 100 ms (`ReconcilerLoopPeriod`):
//! - an attachment no longer desired gets a detach request time; it is detached at once when the
//!   node's kubelet no longer reports it in use, when the node carries
//!   `node.kubernetes.io/out-of-service` (with `NodeOutOfServiceVolumeDetach`), or, after
//!   `maxWaitForUnmountDuration` (6 minutes, strictly more), by force: from 1.25 only if the node
//!   is not Ready (#110721), and never with `--disable-force-detach-on-timeout` (1.30+);
//! - a detach starts by taking the volume out of the node's `status.volumesAttached`
//!   (`RemoveVolumeFromReportAsAttached`, "no longer safe to mount"), so the kubelet mounts it
//!   there no more; once started it is never called off, even when a pod using the volume is
//!   scheduled to that node meanwhile (the desired state then holds the pair again, and the
//!   attach waits for the detach to finish);
//! - a desired attachment first waits for any operation on the volume under way
//!   (`IsOperationPending`, keyed by the volume alone unless it is `ReadWriteMany`), without an
//!   event; then, when the volume is not `ReadWriteMany` and attached elsewhere, it reports a
//!   Multi-Attach error once per (volume, node) entry (`reportMultiAttachError`; the text reads
//!   "Waiting for detach" from 1.37, #138837) and waits; otherwise it is attached.
//!
//! So a volume is never detached from under a pod that uses it on its node: the desired state
//! holds (node, volume) from the pod's scheduling until it is terminated, a detach is only asked
//! for outside it, and a request not yet started is dropped once a pod on the node uses the
//! volume again (`ResetDetachRequestTime`; "if during this time the volume becomes used by a new
//! pod, the detach request will be aborted", `NewReconciler`).
//!
//! Attach and detach take the storage driver's time (`simulation.attachDuration`,
//! `detachDuration`); each is a request of the controller's client.

use crate::api::client::Controller;
use crate::api::volumes::VolumeId;
use crate::api::{Api, CondStatus, NodeId, PodId};
use crate::cause::Cause;
use crate::control_plane::podgc::TAINT_OUT_OF_SERVICE;
use crate::idmap::PairMap;
use crate::sched::Wake;
use crate::time::{Millis, MINUTE};
use crate::timeline::{latest, Event, EventId, EventKind, Log};
use crate::world::World;
use std::collections::BTreeSet;

/// `ReconcilerMaxWaitForUnmountDuration`, ms.
pub const MAX_WAIT_FOR_UNMOUNT: Millis = 6 * MINUTE;
/// `ReconcilerLoopPeriod`, ms.
pub const RECONCILER_LOOP_PERIOD: Millis = 100;

/// What the controller needs to know of the version and the configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct AdcSettings {
    /// Whether force detach on timeout needs the node to be not Ready (1.25+).
    pub force_needs_unhealthy_node: bool,
    /// `--disable-force-detach-on-timeout`.
    pub disable_force_detach: bool,
    /// Whether the out-of-service taint detaches at once (`NodeOutOfServiceVolumeDetach`).
    pub out_of_service: bool,
    /// Whether the Multi-Attach event says "Waiting for detach" (1.37+).
    pub waiting_wording: bool,
    /// A storage driver's attach, ms.
    pub attach_duration: Millis,
    /// A storage driver's detach, ms.
    pub detach_duration: Millis,
}

/// An attach or detach the driver completes later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// `volume` becomes attached to `node` at `at`.
    Attach {
        /// The volume.
        volume: VolumeId,
        /// The node.
        node: NodeId,
        /// When, ms.
        at: Millis,
    },
    /// `volume` stops being attached to `node` at `at`.
    Detach {
        /// The volume.
        volume: VolumeId,
        /// The node.
        node: NodeId,
        /// When, ms.
        at: Millis,
    },
}

/// The controller's memory.
#[derive(Debug, Clone)]
pub struct AttachDetachController {
    settings: AdcSettings,
    detach_requested: PairMap<Millis>,
    reported: BTreeSet<(VolumeId, NodeId)>,
    /// Volumes whose desired and actual states may differ: the reconciler looks at them.
    pub busy: BTreeSet<VolumeId>,
}

/// One volume's desired state: the nodes that should have it, in node order, each with the pods
/// there that use it. A volume's pods are on a few nodes, so a sorted vector serves, and the
/// wasm carries no tree of its own for it.
#[derive(Default)]
struct Desired(Vec<(NodeId, Vec<PodId>)>);

impl Desired {
    /// Adds pod `p` on node `n`.
    fn push(&mut self, n: NodeId, p: PodId) {
        match self.0.binary_search_by_key(&n, |(m, _)| *m) {
            Ok(i) => self.0[i].1.push(p),
            Err(i) => self.0.insert(i, (n, vec![p])),
        }
    }

    /// The pods on node `n` that use the volume, if it should have it.
    fn get(&self, n: &NodeId) -> Option<&Vec<PodId>> {
        let i = self.0.binary_search_by_key(n, |(m, _)| *m).ok()?;
        Some(&self.0[i].1)
    }

    /// Whether node `n` should have the volume.
    fn contains_key(&self, n: &NodeId) -> bool {
        self.get(n).is_some()
    }

    /// The nodes, in order, with their pods.
    fn iter(&self) -> impl Iterator<Item = (&NodeId, &Vec<PodId>)> {
        self.0.iter().map(|(n, pods)| (n, pods))
    }
}

/// Whether a pod keeps its volume in the desired state (`DetermineVolumeAction`).
fn holds_volume(api: &Api, p: PodId) -> bool {
    let pod = &api.pods[p];
    pod.exists() && pod.node.is_some() && !pod.failed
}

impl AttachDetachController {
    /// A controller with nothing in flight.
    pub fn new(settings: AdcSettings) -> Self {
        AttachDetachController {
            settings,
            detach_requested: PairMap::default(),
            reported: BTreeSet::new(),
            busy: BTreeSet::new(),
        }
    }

    /// A restarted kube-controller-manager rebuilds its state from the objects
    /// (`populateActualStateOfWorld`, `processVolumeAttachments`): timers start over and every
    /// volume is looked at again. An attach or detach under way is not started twice: its
    /// `VolumeAttachment` is there, the new controller marks it uncertain, and its repeated
    /// attach finds the object already exists and waits for the same one (the CSI attacher's
    /// `Attach` on `AlreadyExists`); the driver finishes it once.
    pub fn restart(&mut self, api: &Api) {
        let settings = self.settings.clone();
        *self = AttachDetachController::new(settings);
        self.busy.extend(0..api.volumes.list.len());
    }

    /// The nodes that should have volume `v`, with the pods there that use it.
    fn desired(api: &Api, v: VolumeId) -> Desired {
        let mut out = Desired::default();
        for &p in &api.volumes.list[v].pods {
            if holds_volume(api, p) {
                out.push(api.pods[p].node.expect("bound"), p);
            }
        }
        out
    }

    /// One reconciler pass over the busy volumes; returns the driver operations it started.
    /// The storage driver's operations it starts finish at wake-ups of their own, which no
    /// restart cancels.
    pub fn reconcile(&mut self, w: &mut World) {
        let now = w.now;
        let World { api, log, .. } = w;
        let mut ops = Vec::new();
        for v in std::mem::take(&mut self.busy) {
            let desired = Self::desired(api, v);
            self.reported.retain(|&(rv, n)| rv != v || desired.contains_key(&n));
            let mut busy = self.detach_pass(now, v, &desired, api, log, &mut ops);
            busy |= self.attach_pass(now, v, &desired, api, log, &mut ops);
            if busy {
                self.busy.insert(v);
            }
        }
        for op in ops {
            match op {
                Operation::Attach { volume, node, at } => w.wake(at, Wake::AttachDone { volume, node }),
                Operation::Detach { volume, node, at } => w.wake(at, Wake::DetachDone { volume, node }),
            }
        }
    }

    /// Attachments no longer desired; returns whether some still wait.
    fn detach_pass(
        &mut self,
        now: Millis,
        v: VolumeId,
        desired: &Desired,
        api: &mut Api,
        log: &mut Log,
        ops: &mut Vec<Operation>,
    ) -> bool {
        let mut waiting = false;
        let attached: Vec<NodeId> = api.volumes.list[v].attached_to.iter().copied().collect();
        for n in attached {
            if desired.contains_key(&n) {
                self.detach_requested.remove(&(v, n));
                continue;
            }
            if api.volumes.list[v].detaching.contains_key(&n) {
                waiting = true;
                continue;
            }
            let requested = *self.detach_requested.get_or_insert_with((v, n), || {
                let e = volume_event(
                    now,
                    EventKind::VolumeDetachRequested,
                    api,
                    v,
                    n,
                    Cause::new("cause.adc.detach_requested"),
                );
                log.push(e.after(left_desired(api, log, v, n)));
                now
            });
            let node = &api.nodes[n];
            let healthy = node.exists && node.status.observed(now).ready_status() == Some(CondStatus::True);
            let expired = now - requested > MAX_WAIT_FOR_UNMOUNT && !self.settings.disable_force_detach;
            let force = expired && (!self.settings.force_needs_unhealthy_node || !healthy);
            let oos = self.settings.out_of_service && node.taints.iter().any(|t| t.key == TAINT_OUT_OF_SERVICE);
            let mounted = api.volumes.list[v].in_use_by.contains(&n);
            if mounted && !force && !oos {
                waiting = true;
                continue;
            }
            // Asked for, and unmounted or given up on: the last of these let the detach start.
            let name = api.volumes.list[v].name.as_str();
            let mut after = latest([log.index.volume(name, n).detach_requested, left_desired(api, log, v, n)]);
            if mounted {
                // verifySafeToDetach is false: the volume goes although the node may still use it.
                let why = if oos {
                    Cause::new("cause.part.force_oos").text("taint", TAINT_OUT_OF_SERVICE)
                } else {
                    Cause::new("cause.part.force_timeout")
                        .time("since", requested)
                        .time("wait", MAX_WAIT_FOR_UNMOUNT)
                };
                let cause = Cause::new("cause.adc.force_detached").sub("why", why);
                // The 6-minute wait runs from the detach request; the taint is an operator's.
                let oos_taint = node.taints.iter().find(|t| t.key == TAINT_OUT_OF_SERVICE);
                let before = match oos_taint {
                    Some(t) if oos => latest([after, log.index.taint(n, &t.label())]),
                    _ => log.index.volume(name, n).detach_requested,
                };
                let e = volume_event(now, EventKind::VolumeForceDetached, api, v, n, cause);
                after = log.push(e.after(before)).or(before);
            }
            api.clients.send(Controller::AttachDetach, now, 1);
            api.volumes.list[v].detaching.insert(n, after);
            waiting = true;
            ops.push(Operation::Detach {
                volume: v,
                node: n,
                at: now + self.settings.detach_duration,
            });
        }
        waiting
    }

    /// Desired attachments not made yet; returns whether some still wait.
    fn attach_pass(
        &mut self,
        now: Millis,
        v: VolumeId,
        desired: &Desired,
        api: &mut Api,
        log: &mut Log,
        ops: &mut Vec<Operation>,
    ) -> bool {
        let mut waiting = false;
        for (&n, pods) in desired.iter() {
            let vol = &api.volumes.list[v];
            // `attachDesiredVolumes` looks first for an operation under way
            // (`IsOperationPending`): the attach waits for it, without a Multi-Attach error,
            // also for a detach from this very node that started before its pod came back.
            if vol.operation_pending(n) {
                waiting = true;
                continue;
            }
            if vol.attached_to.contains(&n) {
                continue;
            }
            let elsewhere = vol.attached_to.iter().any(|&o| o != n);
            if !vol.many && elsewhere {
                waiting = true;
                if self.reported.insert((v, n)) {
                    self.report_multi_attach(now, v, n, pods, desired, api, log);
                }
                continue;
            }
            api.clients.send(Controller::AttachDetach, now, 1);
            let after = attach_after(log, &vol.name, pods, log.index.controller_manager_started);
            api.volumes.list[v].attaching.insert(n, after);
            waiting = true;
            ops.push(Operation::Attach {
                volume: v,
                node: n,
                at: now + self.settings.attach_duration,
            });
        }
        waiting
    }

    /// `reportMultiAttachError`: a FailedAttachVolume event on each pod waiting on node `n`,
    /// naming the pods elsewhere in the desired state that use the volume.
    #[allow(clippy::too_many_arguments)]
    fn report_multi_attach(
        &self,
        now: Millis,
        v: VolumeId,
        n: NodeId,
        pods: &[PodId],
        desired: &Desired,
        api: &Api,
        log: &mut Log,
    ) {
        let others: Vec<&str> = desired
            .iter()
            .filter(|(&o, _)| o != n)
            .flat_map(|(_, ps)| ps.iter().map(|&p| api.pods[p].name.as_str()))
            .collect();
        let name = &api.volumes.list[v].name;
        let prefix = if self.settings.waiting_wording {
            format!("Waiting for detach for volume {name:?}")
        } else {
            format!("Multi-Attach error for volume {name:?}")
        };
        let message = match (others.is_empty(), self.settings.waiting_wording) {
            (false, _) => format!("{prefix} Volume is already used by pod(s) {}", others.join(", ")),
            (true, true) => format!("{prefix} Volume is already exclusively attached to one node, waiting on detach before it can be attached to another node"),
            (true, false) => format!("{prefix} Volume is already exclusively attached to one node and can't be attached to another"),
        };
        for &p in pods {
            let cause = Cause::new("cause.adc.multi_attach").text("message", &message);
            let mut e = volume_event(now, EventKind::MultiAttachError, api, v, n, cause);
            e.pod = Some(p);
            let scheduled = log.index.pod(p).scheduled;
            log.push(e.after(scheduled));
        }
    }

    /// The driver finished an attach.
    pub fn attach_done(&mut self, w: &mut World, v: VolumeId, n: NodeId) {
        let now = w.now;
        let World { api, log, .. } = w;
        let after = api.volumes.list[v].attaching.remove(&n).flatten();
        api.volumes.list[v].attached_to.insert(n);
        let cause = Cause::new("cause.adc.attached").time("took", self.settings.attach_duration);
        log.push(volume_event(now, EventKind::VolumeAttached, api, v, n, cause).after(after));
        self.busy.insert(v);
    }

    /// The driver finished a detach.
    pub fn detach_done(&mut self, w: &mut World, v: VolumeId, n: NodeId) {
        let now = w.now;
        let World { api, log, .. } = w;
        let after = api.volumes.list[v].detaching.remove(&n).flatten();
        self.detach_requested.remove(&(v, n));
        api.volumes.list[v].attached_to.remove(&n);
        api.volumes.list[v].in_use_by.remove(&n);
        let took = self.settings.detach_duration;
        // A pod scheduled here since the detach started waited for it: the operation is not
        // called off, and the volume is attached here again.
        let back: Vec<&str> = Self::desired(api, v)
            .get(&n)
            .map(|ps| ps.iter().map(|&p| api.pods[p].name.as_str()).collect())
            .unwrap_or_default();
        let cause = if back.is_empty() {
            Cause::new("cause.adc.detached").time("took", took)
        } else {
            Cause::new("cause.adc.detached_in_flight")
                .time("took", took)
                .text("pods", back.join(", "))
        };
        log.push(volume_event(now, EventKind::VolumeDetached, api, v, n, cause).after(after));
        self.busy.insert(v);
    }

    /// Something that decides volume `v`'s fate changed.
    pub fn touch(&mut self, v: VolumeId) {
        self.busy.insert(v);
    }

    /// Node `n` changed (its health or taints): every volume attached there is looked at again.
    pub fn touch_node(&mut self, n: NodeId, api: &Api) {
        for (v, vol) in api.volumes.list.iter().enumerate() {
            if vol.attached_to.contains(&n) {
                self.busy.insert(v);
            }
        }
    }
}

/// The event that took volume `v` out of node `n`'s desired state: the last of its pods there to
/// be removed or to fail (`IsPodTerminated`).
fn left_desired(api: &Api, log: &Log, v: VolumeId, n: NodeId) -> Option<EventId> {
    let pods = api.volumes.list[v]
        .pods
        .iter()
        .filter(|&&p| api.pods[p].node == Some(n));
    latest(pods.flat_map(|&p| {
        let m = log.index.pod(p);
        [m.removed, m.failed]
    }))
}

/// The event that let an attach of the volume called `name` start: its pods being bound to the
/// node, its last detach (from another node, or from this one when the detach was under way as
/// the pod came back), or the controller's restart, whichever came last.
fn attach_after(log: &Log, name: &str, pods: &[PodId], restarted: Option<EventId>) -> Option<EventId> {
    let bound = pods.iter().map(|&p| log.index.pod(p).scheduled);
    latest(bound.chain([log.index.volume_detached(name), restarted]))
}

fn volume_event(now: Millis, kind: EventKind, api: &Api, v: VolumeId, n: NodeId, cause: Cause) -> Event {
    let mut e = Event::new(now, kind, cause).node(n);
    e.volume = Some(api.volumes.list[v].name.clone());
    e
}
