//! The repairs: what a remediator does once its check lets the repair start ([`Repair`]), step
//! by step: Cluster API's and the managed services' drain, the wait for the volumes, the
//! machine's deletion, the Node's deletion, the replacement and its startup check, the reboot.

use super::controller::{Env, Remediators, Step};
use super::{kind_name, mhc, Repair, Verdict};
use crate::api::{CondStatus, NodeId};
use crate::cause::Cause;
use crate::control_plane::drain::{cordon, DrainPolicy, Removal, Stuck};
use crate::scenario::Remediator;
use crate::timeline::{Event, EventKind};
use crate::world::{MachineRequest, World};

impl Remediators {
    /// A remediator's timer for node `n` fired.
    pub(super) fn check(&mut self, w: &mut World, env: &Env, index: usize, n: NodeId) {
        let Some(k) = self.list.iter().position(|r| r.index == index) else {
            return;
        };
        let mhc = matches!(self.list[k].spec, Remediator::MachineHealthCheck { .. });
        if mhc && self.awaits_first_node(w, n) {
            // A replacement held back at its startup check.
            return self.startup_check(w, index, n);
        }
        let Verdict::Start(repair) = self.list[k].check(w, n) else {
            return;
        };
        let now = w.now;
        let latency = w.api.api_latency;
        let times = self.settings.times;
        match repair {
            // The MHC marks the Machine, the MachineSet deletes it: two round trips.
            Repair::DeleteMachine => Self::at(w, index, n, now + 2 * latency, Step::Drain),
            Repair::Recreate => Self::at(w, index, n, now + latency, Step::Drain),
            Repair::Fence { reboot, strategy } => self.fence(w, env, (index, n), reboot, strategy),
            Repair::Terminate => self.karpenter_terminate(w, (index, n)),
            Repair::Reboot => Self::reboot(w, index, n, times.boot),
            Repair::Replace => {
                let e = times.termination;
                w.machines.push(MachineRequest::PowerOff {
                    node: n,
                    gone_at: Some(now + e),
                });
                let spare = self.replace(w, index, n, now + e + times.boot);
                if let Some(r) = self.remediator_mut(index) {
                    r.finished(n, true, spare);
                }
            }
        }
    }

    /// The machine of node `n` powers off and boots again, `boot` later.
    fn reboot(w: &mut World, index: usize, n: NodeId, boot: crate::time::Millis) {
        w.machines.push(MachineRequest::PowerOff { node: n, gone_at: None });
        Self::at(w, index, n, w.now + boot, Step::Booted);
    }

    /// The next step of a repair.
    pub(super) fn repair_step(&mut self, w: &mut World, env: &mut Env, index: usize, n: NodeId, step: Step) {
        let Some(spec) = self.spec(index).cloned() else {
            return;
        };
        match step {
            Step::Drain => self.repair_drain(w, env, index, n, &spec),
            Step::VolumeWait => self.repair_volume_wait(w, index, n, &spec),
            Step::MachineGone => self.machine_gone(w, index, n),
            Step::Booted => self.machine_booted(w, index, n, &spec),
            Step::SelfReboot => Self::reboot(w, index, n, self.settings.times.boot),
            Step::AssumedRebooted => self.assumed_rebooted(w, index, n),
            Step::OutOfServicePoll => self.out_of_service_poll(w, index, n),
            Step::TerminationDrain => self.karpenter_drain(w, env, index, n),
            Step::InstancePoll => self.karpenter_instance_gone(w, index, n),
            Step::InterruptionMessage => self.interruption_message(w, index, n),
            Step::InterruptionDrain => self.interruption_drain(w, env, index, n),
            Step::InterruptionVolumes => self.interruption_volumes(w, env, index, n),
            Step::InterruptionTerminate => self.interruption_terminate(w, env, index, n),
            Step::StartupCheck => self.startup_check(w, index, n),
            Step::StartupMachineGone => self.startup_machine_gone(w, index, n),
            Step::Check | Step::NodeClaimGc => unreachable!("dispatched by Remediators::step"),
        }
    }

    /// One drain pass of a repair: cordon, evict what is not being deleted yet, and see whether
    /// the node is drained (Cluster API's `drainNode` ignores, on an unreachable node, pods
    /// deleted longer ago than `SkipWaitForDeleteTimeoutSeconds`; GKE gives up after its drain
    /// timeout). Not drained: again after 20 s.
    fn repair_drain(&mut self, w: &mut World, env: &mut Env, index: usize, n: NodeId, spec: &Remediator) {
        let now = w.now;
        let kind = kind_name(spec);
        if !w.api.nodes[n].exists {
            // Node NotFound: "skipping Node drain".
            return Self::at(w, index, n, now, Step::VolumeWait);
        }
        let started = *self.drain_started.get_or_insert_with((index, n), || now);
        let cause = Cause::new("cause.remediation.cordon").text("remediator", kind);
        let remediation = w.log.index.node(n).and_then(|m| m.remediation);
        cordon(w, env.nlc, n, (cause, remediation));
        // `IsNodeUnreachable`: Ready Unknown (Ready False is not unreachable).
        let unreachable = w.api.nodes[n].status.observed(now).ready_status() == Some(CondStatus::Unknown);
        let (stuck, timeout) = match spec {
            Remediator::MachineHealthCheck { cluster_api_minor, .. } if unreachable => {
                (Stuck::DeletedFor(mhc::skip_wait_for_delete(*cluster_api_minor)), None)
            }
            Remediator::GkeAutoRepair { drain_timeout, .. } => (Stuck::Never, Some(*drain_timeout)),
            _ => (Stuck::Never, None),
        };
        let grace = match spec {
            Remediator::MachineHealthCheck { cluster_api_minor, .. } if unreachable => {
                mhc::unreachable_grace_seconds(*cluster_api_minor)
            }
            _ => None,
        };
        let policy = DrainPolicy {
            removal: Removal::Evict,
            stuck,
            retry: mhc::DRAIN_RETRY_INTERVAL,
        };
        let dead = kubelet_gone(w, env, n);
        let pass = policy.pass(w, n, |w, p| {
            let cause = drain_evict_cause(w, kind, p, (grace, dead));
            let mut e = Event::new(w.now, EventKind::PodDeletionRequested, cause)
                .pod(p)
                .after(w.log.index.node(n).and_then(|m| m.cordoned));
            e.node = Some(n);
            w.log.push(e);
        });
        let over = timeout.filter(|&t| now - started >= t);
        if pass.waiting && over.is_none() {
            return Self::at(w, index, n, now + policy.retry, Step::Drain);
        }
        self.drain_started.remove(&(index, n));
        let why = match (over, stuck) {
            (Some(t), _) if pass.waiting => Cause::new("cause.part.drain_timeout").time("timeout", t),
            _ if now == started => Cause::new("cause.part.drain_first"),
            (_, Stuck::DeletedFor(skip)) => Cause::new("cause.part.drain_skipped")
                .time("skip", skip)
                .time("retry", policy.retry),
            _ => Cause::new("cause.part.drain_empty").time("retry", policy.retry),
        };
        let cause = Cause::new("cause.remediation.drained")
            .text("remediator", kind)
            .time("started", started)
            .sub("why", why);
        let after = w.log.index.repair(n);
        w.log
            .push(Event::new(now, EventKind::NodeDrained, cause).node(n).after(after));
        match spec {
            // The VM is re-created under the same name: it powers off and boots again.
            Remediator::GkeAutoRepair { .. } => Self::reboot(w, index, n, self.settings.times.boot),
            _ => Self::at(w, index, n, now, Step::VolumeWait),
        }
    }

    /// Cluster API's `shouldWaitForNodeVolumes`, then the infrastructure's deletion (`V`).
    fn repair_volume_wait(&mut self, w: &mut World, index: usize, n: NodeId, spec: &Remediator) {
        let now = w.now;
        let minor = match spec {
            Remediator::MachineHealthCheck { cluster_api_minor, .. } => *cluster_api_minor,
            _ => 99,
        };
        let node = &w.api.nodes[n];
        let unreachable = node.status.observed(now).ready_status() == Some(CondStatus::Unknown);
        let attached = w.api.volumes.list.iter().any(|v| v.attached_to.contains(&n));
        if mhc::should_wait_for_node_volumes(minor, node.exists, unreachable, attached) {
            return Self::at(w, index, n, now + mhc::DRAIN_RETRY_INTERVAL, Step::VolumeWait);
        }
        let v = self.settings.times.deletion;
        w.machines.push(MachineRequest::PowerOff {
            node: n,
            gone_at: Some(now + v),
        });
        Self::at(w, index, n, now + v, Step::MachineGone);
    }

    /// The machine's VM is gone: Cluster API deletes the Node (`deleteNode`, polled every 2 s),
    /// the Machine's finalizer goes, and the MachineSet creates the replacement Machine.
    fn machine_gone(&mut self, w: &mut World, index: usize, n: NodeId) {
        let now = w.now;
        if w.api.nodes[n].exists {
            // The VM's deletion began once the drain (and the volume wait) was over.
            let after = w.log.index.repair(n);
            let cause = Cause::new("cause.remediation.mhc_node_deleted")
                .text("remediator", "MachineHealthCheck")
                .time("deletion", self.settings.times.deletion)
                .sub("gc", self.orphan_gc());
            w.machines.push(MachineRequest::DeleteNode { node: n, cause, after });
        }
        let join = self.join_duration(index);
        let spare = self.replace(w, index, n, now + join);
        if let Some(r) = self.remediator_mut(index) {
            r.finished(n, true, spare);
        }
        self.recheck_all_blocked(w, index);
    }

    /// How long a replacement made by remediator `index` takes to register: the
    /// MachineHealthCheck's `replacementJoinDuration`, else the cloud's boot.
    fn join_duration(&self, index: usize) -> crate::time::Millis {
        let set = self.spec(index).and_then(|r| match r {
            Remediator::MachineHealthCheck { replacement_join, .. } => *replacement_join,
            _ => None,
        });
        set.unwrap_or(self.settings.times.boot)
    }

    /// Whether node `n` is a replacement that has not registered yet.
    fn awaits_first_node(&self, w: &World, n: NodeId) -> bool {
        self.replacements.contains_key(&n)
            && !w.api.nodes[n].exists
            && w.log.index.node(n).is_none_or(|m| m.back.is_none())
    }

    /// Cluster API's startup check of replacement `s`: still without a Node past
    /// `nodeStartupTimeout`, its Machine is deleted (no Node to drain: the MachineSet's two round
    /// trips, then the VM's deletion) and its pending registration never comes.
    fn startup_check(&mut self, w: &mut World, index: usize, s: NodeId) {
        let now = w.now;
        let Some(&(old, created)) = self.replacements.get(&s) else {
            return;
        };
        let mhc = matches!(self.spec(index), Some(Remediator::MachineHealthCheck { .. }));
        if !mhc || !self.awaits_first_node(w, s) {
            return;
        }
        let old_name = w.api.nodes[old].name.clone();
        let Some(r) = self.remediator_mut(index) else {
            return;
        };
        // The replacement Machine was created once the old one was gone (or its repair began).
        let marks = &w.log.index;
        let made = marks
            .node(old)
            .and_then(|m| crate::timeline::latest([m.deleted, marks.repair(old)]));
        if !r.startup_check(w, s, (&old_name, made), created) {
            return;
        }
        w.machines.push(MachineRequest::Discard { node: s });
        let at = now + 2 * w.api.api_latency + self.settings.times.deletion;
        Self::at(w, index, s, at, Step::StartupMachineGone);
    }

    /// The timed-out replacement Machine is gone: the MachineSet creates the next one for the
    /// same node (the model reuses the spare's name).
    fn startup_machine_gone(&mut self, w: &mut World, index: usize, s: NodeId) {
        let Some(&(old, _)) = self.replacements.get(&s) else {
            return;
        };
        let join = self.join_duration(index);
        self.create_replacement(w, index, old, s, w.now + join);
        if let Some(r) = self.remediator_mut(index) {
            r.replacement_recreated(s);
        }
        self.recheck_all_blocked(w, index);
    }

    /// A rebooted or re-created VM has booted: its kubelet starts on the same Node (a
    /// re-created GKE VM registers it schedulable: the cordon of the repair's drain goes, and
    /// with it the node lifecycle controller's `node.kubernetes.io/unschedulable` taint).
    fn machine_booted(&mut self, w: &mut World, index: usize, n: NodeId, spec: &Remediator) {
        let boot = self.settings.times.boot;
        let gke = matches!(spec, Remediator::GkeAutoRepair { .. });
        let snr = matches!(spec, Remediator::SelfNodeRemediation { .. });
        let key = match spec {
            _ if snr => "cause.remediation.snr_rebooted",
            Remediator::GkeAutoRepair { .. } => "cause.remediation.gke_recreated",
            _ => "cause.remediation.aks_rebooted",
        };
        let why = Cause::new(key).time("boot", boot);
        let uncordon = gke.then(|| Cause::new("cause.remediation.gke_uncordon").time("boot", boot));
        w.machines.push(MachineRequest::Boot { node: n, why, uncordon });
        if snr {
            // The repair ends when NHC sees the node healthy (`Remediation::node_changed`).
            return;
        }
        if let Some(r) = self.remediator_mut(index) {
            r.finished(n, false, None);
        }
        self.recheck_all_blocked(w, index);
    }
}

/// Whether node `n`'s pods stay Terminating once deleted: its machine is off, or it is
/// unreachable (Ready Unknown) while its fault lasts, so no kubelet confirms a deletion.
pub(super) fn kubelet_gone(w: &World, env: &Env, n: NodeId) -> bool {
    let unreachable = w.api.nodes[n].status.observed(w.now).ready_status() == Some(CondStatus::Unknown);
    (env.powered_off)(n) || (unreachable && w.log.index.silenced(n).is_some())
}

/// The cause of a drain's eviction of pod `p` by `remediator`, with the grace the drain gives
/// (`None`: the pod's own); `dead`: its node's kubelet is gone ([`kubelet_gone`]), so the pod
/// stays Terminating.
pub(super) fn drain_evict_cause(
    w: &World,
    remediator: &str,
    p: crate::api::PodId,
    (grace, dead): (Option<i64>, bool),
) -> Cause {
    let dead = if dead {
        Cause::new("cause.part.drain_dead_node")
    } else {
        Cause::none()
    };
    Cause::new("cause.remediation.drain_evict")
        .text("remediator", remediator)
        .text("grace", grace.unwrap_or(w.api.pods[p].grace_seconds))
        .sub("dead", dead)
}
