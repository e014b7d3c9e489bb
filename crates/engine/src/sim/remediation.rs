//! The driver's side of the remediators ([`crate::control_plane::remediation`]): their node
//! watch, their timers, and the repairs themselves (drain, the machine's deletion, the Node's
//! deletion, the replacement node, the reboot).
//!
//! A replacement node is one of the scenario's nodes added by the driver for this purpose: every
//! node a fault names gets one spare, named `<node>-r1` (`-r2`… if that name is taken), absent
//! until a remediator creates it; it then registers after the cloud's `nodeBootDuration` as a
//! joining node does. Spares exist only when a remediator that replaces nodes is listed, so a
//! scenario without one runs as before.

use super::{Simulation, Wake, REGISTRATION_FIRST_STEP};
use crate::api::eviction::Eviction;
use crate::api::{CondStatus, NodeId};
use crate::cause::Cause;
use crate::control_plane::remediation::{self, mhc, Cluster, Remediation, Repair, Verdict};
use crate::scenario::{ActionKind, Config, NodeSpec, Remediator};
use crate::sched::{Owner, RepairStep};
use crate::time::{Millis, MINUTE, SECOND};
use crate::timeline::{Event, EventKind};
use std::collections::BTreeMap;

/// A machine's VM deletion when no cloud is named (`V`, the cloud section's default), ms.
const DEFAULT_INSTANCE_DELETION: Millis = MINUTE;
/// A new or rebooted machine's boot when no cloud is named (`B`, the cloud section's default), ms.
const DEFAULT_NODE_BOOT: Millis = 90 * SECOND;
/// EC2's termination until `terminated` when no cloud is named (`E`), ms.
const DEFAULT_INSTANCE_TERMINATION: Millis = 30 * SECOND;

/// Adds one absent spare node per faulted node when a listed remediator replaces nodes; returns
/// each faulted node's spare.
pub(super) fn add_spares(cfg: &mut Config) -> BTreeMap<NodeId, NodeId> {
    let mut spares = BTreeMap::new();
    if !cfg.remediation.iter().any(remediation::replaces_nodes) {
        return spares;
    }
    let faulted: std::collections::BTreeSet<NodeId> = cfg
        .actions
        .iter()
        .filter(|a| is_fault(a.action))
        .filter_map(|a| a.node)
        .collect();
    for n in faulted {
        let base = cfg.nodes[n].name.clone();
        let name = (1..)
            .map(|i| format!("{base}-r{i}"))
            .find(|c| cfg.nodes.iter().all(|o| &o.name != c))
            .expect("a free name");
        let spare = NodeSpec {
            name,
            join_at: Some(Millis::MAX / 4),
            ..cfg.nodes[n].clone()
        };
        cfg.nodes.push(spare);
        spares.insert(n, cfg.nodes.len() - 1);
    }
    spares
}

fn is_fault(a: ActionKind) -> bool {
    a.is_fault()
}

impl Simulation {
    /// The remediators this build acts on, each looking after the nodes present at the start.
    pub(super) fn new_remediators(&self) -> Vec<Remediation> {
        let present = || self.cfg.nodes.iter().filter(|n| n.join_at.is_none());
        let machines = present().count() as u32;
        let cluster = Cluster {
            k8s_minor: self.cfg.profile.version.minor,
            workers: present()
                .filter(|n| n.labels.contains_key("node-role.kubernetes.io/worker"))
                .count() as u32,
        };
        self.cfg
            .remediation
            .iter()
            .enumerate()
            .filter(|(_, r)| r.is_modelled())
            .map(|(i, r)| Remediation::new(i, r.clone(), machines, cluster))
            .collect()
    }

    fn remediator_mut(&mut self, index: usize) -> Option<&mut Remediation> {
        self.remediators.iter_mut().find(|r| r.index == index)
    }

    /// The remediators' informers deliver a change of node `n`.
    pub(super) fn remediation_node_changed(&mut self, n: NodeId) {
        for k in 0..self.remediators.len() {
            if self.remediators[k].node_changed(&mut self.w, n) {
                self.recheck_blocked(k);
            }
        }
    }

    /// A node left a remediator's unhealthy set, or a repair ended: the nodes its breaker held
    /// back are looked at again.
    pub(super) fn recheck_blocked_of(&mut self, k: usize) {
        self.recheck_blocked(k);
    }

    fn recheck_blocked(&mut self, k: usize) {
        let r = &mut self.remediators[k];
        let index = r.index;
        for node in r.take_blocked() {
            let wake = Wake::RemediationCheck {
                remediator: index,
                node,
            };
            self.w.wake_keyed(Owner::Remediator, self.w.now, wake);
        }
    }

    /// A remediator's timer for node `n` fired.
    pub(super) fn remediation_check(&mut self, index: usize, n: NodeId) {
        let Some(k) = self.remediators.iter().position(|r| r.index == index) else {
            return;
        };
        let mhc = matches!(self.remediators[k].spec, Remediator::MachineHealthCheck { .. });
        if mhc && self.awaits_first_node(n) {
            // A replacement held back at its startup check.
            return self.startup_check(index, n);
        }
        let Verdict::Start(repair) = self.remediators[k].check(&mut self.w, n) else {
            return;
        };
        let now = self.w.now;
        let latency = self.w.api.api_latency;
        match repair {
            // The MHC marks the Machine, the MachineSet deletes it: two round trips.
            Repair::DeleteMachine => self.repair_at(index, n, now + 2 * latency, RepairStep::Drain),
            Repair::Recreate => self.repair_at(index, n, now + latency, RepairStep::Drain),
            Repair::Fence { reboot, strategy } => self.fence(index, n, reboot, strategy),
            Repair::Terminate => self.karpenter_terminate(index, n),
            Repair::Reboot => {
                self.power_off_machine(n, None);
                let boot = self.boot_duration();
                self.repair_at(index, n, now + boot, RepairStep::Booted);
            }
            Repair::Replace => {
                let e = self
                    .cfg
                    .cloud
                    .as_ref()
                    .map_or(DEFAULT_INSTANCE_TERMINATION, |c| c.instance_termination_duration);
                self.power_off_machine(n, Some(now + e));
                let spare = self.spares.remove(&n);
                if let Some(s) = spare {
                    let boot = self.boot_duration();
                    self.create_replacement(index, n, s, now + e + boot);
                }
                if let Some(r) = self.remediator_mut(index) {
                    r.finished(n, true, spare);
                }
            }
        }
    }

    fn repair_at(&mut self, remediator: usize, node: NodeId, at: Millis, step: RepairStep) {
        let wake = Wake::RepairStep { remediator, node, step };
        self.w.wake_keyed(Owner::Remediator, at, wake);
    }

    pub(super) fn boot_duration(&self) -> Millis {
        self.cfg
            .cloud
            .as_ref()
            .map_or(DEFAULT_NODE_BOOT, |c| c.node_boot_duration)
    }

    /// The next step of a repair.
    pub(super) fn repair_step(&mut self, index: usize, n: NodeId, step: RepairStep) {
        let Some(spec) = self.remediator_mut(index).map(|r| r.spec.clone()) else {
            return;
        };
        match step {
            RepairStep::Drain => self.repair_drain(index, n, &spec),
            RepairStep::VolumeWait => self.repair_volume_wait(index, n, &spec),
            RepairStep::MachineGone => self.machine_gone(index, n),
            RepairStep::Booted => self.machine_booted(index, n, &spec),
            RepairStep::SelfReboot => {
                self.power_off_machine(n, None);
                let boot = self.boot_duration();
                self.repair_at(index, n, self.w.now + boot, RepairStep::Booted);
            }
            RepairStep::AssumedRebooted => self.assumed_rebooted(index, n),
            RepairStep::OutOfServicePoll => self.out_of_service_poll(index, n),
            RepairStep::TerminationDrain => self.karpenter_drain(index, n),
            RepairStep::InstancePoll => self.karpenter_instance_gone(index, n),
            RepairStep::InterruptionMessage => self.interruption_message(index, n),
            RepairStep::InterruptionDrain => self.interruption_drain(index, n),
            RepairStep::InterruptionVolumes => self.interruption_volumes(index, n),
            RepairStep::InterruptionTerminate => self.interruption_terminate(index, n),
            RepairStep::StartupCheck => self.startup_check(index, n),
            RepairStep::StartupMachineGone => self.startup_machine_gone(index, n),
        }
    }

    /// One drain pass of a repair: cordon, evict what is not being deleted yet, and see whether
    /// the node is drained (Cluster API's `drainNode` ignores, on an unreachable node, pods
    /// deleted longer ago than `SkipWaitForDeleteTimeoutSeconds`; GKE gives up after its drain
    /// timeout). Not drained: again after 20 s.
    fn repair_drain(&mut self, index: usize, n: NodeId, spec: &Remediator) {
        let now = self.w.now;
        let kind = remediation::kind_name(spec);
        if !self.w.api.nodes[n].exists {
            // Node NotFound: "skipping Node drain".
            return self.repair_at(index, n, now, RepairStep::VolumeWait);
        }
        let started = *self.drain_started.entry((index, n)).or_insert(now);
        self.cordon_for(n, kind);
        // `IsNodeUnreachable`: Ready Unknown (Ready False is not unreachable).
        let unreachable = self.w.api.nodes[n].status.observed(now).ready_status() == Some(CondStatus::Unknown);
        let (skip, timeout) = match spec {
            Remediator::MachineHealthCheck { cluster_api_minor, .. } => {
                (unreachable.then(|| mhc::skip_wait_for_delete(*cluster_api_minor)), None)
            }
            Remediator::GkeAutoRepair { drain_timeout, .. } => (None, Some(*drain_timeout)),
            _ => (None, None),
        };
        let mut pending = false;
        for p in self.w.api.nodes[n].pods.clone() {
            let pod = &self.w.api.pods[p];
            if !pod.exists() || pod.daemon {
                continue;
            }
            if let Some(d) = pod.deletion_requested_at {
                pending |= !skip.is_some_and(|s| mhc::should_skip_pod(now - d, s));
                continue;
            }
            pending = true;
            if let Eviction::Granted(_) = self.w.api.evict(now, p) {
                let cause = Cause::new("cause.remediation.drain_evict")
                    .text("remediator", kind)
                    .text("grace", self.w.api.pods[p].grace_seconds);
                let mut e = Event::new(now, EventKind::PodDeletionRequested, cause)
                    .pod(p)
                    .after(self.w.log.index.node(n).and_then(|m| m.cordoned));
                e.node = Some(n);
                self.w.log.push(e);
            }
        }
        let over = timeout.is_some_and(|t| now - started >= t);
        if pending && !over {
            return self.repair_at(index, n, now + mhc::DRAIN_RETRY_INTERVAL, RepairStep::Drain);
        }
        self.drain_started.remove(&(index, n));
        match spec {
            Remediator::GkeAutoRepair { .. } => {
                // The VM is re-created under the same name: it powers off and boots again.
                self.power_off_machine(n, None);
                let boot = self.boot_duration();
                self.repair_at(index, n, now + boot, RepairStep::Booted);
            }
            _ => self.repair_at(index, n, now, RepairStep::VolumeWait),
        }
    }

    /// The drain cordons the node first.
    fn cordon_for(&mut self, n: NodeId, kind: &str) {
        if self.w.api.nodes[n].unschedulable {
            return;
        }
        let now = self.w.now;
        self.w.api.nodes[n].unschedulable = true;
        self.w.api.node_changed(n);
        let cause = Cause::new("cause.remediation.cordon").text("remediator", kind);
        self.w.log.push(Event::new(now, EventKind::NodeCordoned, cause).node(n));
        self.nlc.do_no_schedule_tainting_pass(&mut self.w, n);
    }

    /// GKE's re-created VM registers its node schedulable: the cordon of the repair's drain goes
    /// (and with it the node lifecycle controller's `node.kubernetes.io/unschedulable` taint).
    fn uncordon_recreated(&mut self, n: NodeId) {
        if !self.w.api.nodes[n].unschedulable {
            return;
        }
        let now = self.w.now;
        self.w.api.nodes[n].unschedulable = false;
        self.w.api.node_changed(n);
        let cause = Cause::new("cause.remediation.gke_uncordon").time("boot", self.boot_duration());
        let after = self.w.log.index.node(n).and_then(|m| m.back);
        self.w
            .log
            .push(Event::new(now, EventKind::NodeUncordoned, cause).node(n).after(after));
        self.nlc.do_no_schedule_tainting_pass(&mut self.w, n);
    }

    /// Cluster API's `shouldWaitForNodeVolumes`, then the infrastructure's deletion (`V`).
    fn repair_volume_wait(&mut self, index: usize, n: NodeId, spec: &Remediator) {
        let now = self.w.now;
        let minor = match spec {
            Remediator::MachineHealthCheck { cluster_api_minor, .. } => *cluster_api_minor,
            _ => 99,
        };
        let node = &self.w.api.nodes[n];
        let unreachable = node.status.observed(now).ready_status() == Some(CondStatus::Unknown);
        let attached = self.w.api.volumes.list.iter().any(|v| v.attached_to.contains(&n));
        if mhc::should_wait_for_node_volumes(minor, node.exists, unreachable, attached) {
            return self.repair_at(index, n, now + mhc::DRAIN_RETRY_INTERVAL, RepairStep::VolumeWait);
        }
        let v = self
            .cfg
            .cloud
            .as_ref()
            .map_or(DEFAULT_INSTANCE_DELETION, |c| c.instance_deletion_duration);
        self.power_off_machine(n, Some(now + v));
        self.repair_at(index, n, now + v, RepairStep::MachineGone);
    }

    /// The machine's VM is gone: Cluster API deletes the Node (`deleteNode`, polled every 2 s),
    /// the Machine's finalizer goes, and the MachineSet creates the replacement Machine.
    fn machine_gone(&mut self, index: usize, n: NodeId) {
        let now = self.w.now;
        if self.w.api.nodes[n].exists {
            let started = self.w.log.index.node(n).and_then(|m| m.silenced);
            let cause = Cause::new("cause.remediation.mhc_node_deleted")
                .text("remediator", "MachineHealthCheck")
                .sub("gc", self.orphan_gc());
            self.delete_node_with(n, cause, started);
        }
        let spare = self.spares.remove(&n);
        if let Some(s) = spare {
            let join = self.join_duration(index);
            self.create_replacement(index, n, s, now + join);
        }
        if let Some(r) = self.remediator_mut(index) {
            r.finished(n, true, spare);
        }
        self.recheck_all_blocked(index);
    }

    /// How long a replacement made by remediator `index` takes to register: the
    /// MachineHealthCheck's `replacementJoinDuration`, else the cloud's boot.
    fn join_duration(&self, index: usize) -> Millis {
        let set = self
            .remediators
            .iter()
            .find(|r| r.index == index)
            .and_then(|r| match r.spec {
                Remediator::MachineHealthCheck { replacement_join, .. } => replacement_join,
                _ => None,
            });
        set.unwrap_or_else(|| self.boot_duration())
    }

    /// Whether node `n` is a replacement that has not registered yet.
    fn awaits_first_node(&self, n: NodeId) -> bool {
        self.replacement_of.contains_key(&n)
            && !self.w.api.nodes[n].exists
            && self.w.log.index.node(n).is_none_or(|m| m.back.is_none())
    }

    /// Cluster API's startup check of replacement `s`: still without a Node past
    /// `nodeStartupTimeout`, its Machine is deleted (no Node to drain: the MachineSet's two round
    /// trips, then the VM's deletion) and its pending registration never comes.
    fn startup_check(&mut self, index: usize, s: NodeId) {
        let now = self.w.now;
        let Some(&(old, _, created)) = self.replacement_of.get(&s) else {
            return;
        };
        let mhc = self
            .remediators
            .iter()
            .any(|r| r.index == index && matches!(r.spec, Remediator::MachineHealthCheck { .. }));
        if !mhc || !self.awaits_first_node(s) {
            return;
        }
        let old_name = self.w.api.nodes[old].name.clone();
        let Some(r) = self.remediators.iter_mut().find(|r| r.index == index) else {
            return;
        };
        if !r.startup_check(&mut self.w, s, &old_name, created) {
            return;
        }
        self.w.timers.cancel_owner(Owner::Kubelet(s));
        let v = self
            .cfg
            .cloud
            .as_ref()
            .map_or(DEFAULT_INSTANCE_DELETION, |c| c.instance_deletion_duration);
        let at = now + 2 * self.w.api.api_latency + v;
        self.repair_at(index, s, at, RepairStep::StartupMachineGone);
    }

    /// The timed-out replacement Machine is gone: the MachineSet creates the next one for the
    /// same node (the model reuses the spare's name).
    fn startup_machine_gone(&mut self, index: usize, s: NodeId) {
        let Some(&(old, _, _)) = self.replacement_of.get(&s) else {
            return;
        };
        let join = self.join_duration(index);
        self.create_replacement(index, old, s, self.w.now + join);
        if let Some(r) = self.remediator_mut(index) {
            r.replacement_recreated(s);
        }
        self.recheck_all_blocked(index);
    }

    fn recheck_all_blocked(&mut self, index: usize) {
        if let Some(k) = self.remediators.iter().position(|r| r.index == index) {
            self.recheck_blocked(k);
        }
    }

    /// A replacement machine for node `old` is created now and its kubelet registers the spare
    /// node `spare` at `at`.
    pub(super) fn create_replacement(&mut self, index: usize, old: NodeId, spare: NodeId, at: Millis) {
        let kind = self
            .remediators
            .iter()
            .find(|r| r.index == index)
            .map_or("", |r| r.kind());
        self.replacement_of.insert(spare, (old, kind, self.w.now));
        let step = REGISTRATION_FIRST_STEP;
        self.push_for(Owner::Kubelet(spare), at, Wake::Register { node: spare, step });
        let startup = self.remediators.iter().find(|r| r.index == index).map(|r| &r.spec);
        if let Some(&Remediator::MachineHealthCheck {
            node_startup_timeout: t @ 1..,
            ..
        }) = startup
        {
            // `nodeChecks` looks again `timeout − elapsed + 1s` after the Machine's creation.
            self.repair_at(index, spare, self.w.now + t + SECOND, RepairStep::StartupCheck);
        }
    }

    /// The cause of a replacement node's registration, if it is one.
    pub(super) fn replacement_cause(&self, n: NodeId) -> Option<Cause> {
        let (old, kind, created) = *self.replacement_of.get(&n)?;
        Some(
            Cause::new("cause.remediation.replacement_joined")
                .text("remediator", kind)
                .text("old", &self.w.api.nodes[old].name)
                .time("created", created)
                .time("boot", self.w.now - created),
        )
    }

    /// A rebooted or re-created VM has booted: its kubelet starts on the same Node.
    fn machine_booted(&mut self, index: usize, n: NodeId, spec: &Remediator) {
        let key = match spec {
            Remediator::GkeAutoRepair { .. } => "cause.remediation.gke_recreated",
            _ => "cause.remediation.aks_rebooted",
        };
        let fault = self.kubelets[n].fault.unwrap_or(ActionKind::NodeCrash);
        let snr = matches!(spec, Remediator::SelfNodeRemediation { .. });
        let key = if snr { "cause.remediation.snr_rebooted" } else { key };
        let why = Cause::new(key).time("boot", self.boot_duration());
        self.recover(n, fault, why);
        if matches!(spec, Remediator::GkeAutoRepair { .. }) {
            self.uncordon_recreated(n);
        }
        if snr {
            // The repair ends when NHC sees the node healthy (`Remediation::node_changed`).
            return;
        }
        if let Some(r) = self.remediator_mut(index) {
            r.finished(n, false, None);
        }
        self.recheck_all_blocked(index);
    }

    /// The machine of node `n` powers off for its repair (its kubelet and containers stop, as in
    /// a crash); `gone_at`, when the provider reports the instance gone.
    pub(super) fn power_off_machine(&mut self, n: NodeId, gone_at: Option<Millis>) {
        let now = self.w.now;
        self.catch_up(n);
        self.wake_up(n);
        if !self.kubelets[n].fault.is_some_and(ActionKind::powers_off) {
            self.kubelets[n].shutting_down = false;
            self.kubelets[n].fault = Some(ActionKind::NodeCrash);
            self.w.timers.cancel_owner(Owner::Kubelet(n));
            for p in self.w.api.nodes[n].pods.clone() {
                self.w.api.stop_pod(now, p);
            }
        }
        if let (Some(at), Some(ccm)) = (gone_at, self.ccm.as_mut()) {
            let instance = &mut ccm.instances[n];
            if instance.gone_from.is_none_or(|g| g > at) {
                instance.gone_from = Some(at);
            }
        }
    }
}
