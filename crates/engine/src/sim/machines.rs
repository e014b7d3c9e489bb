//! The machines: what the control plane asks of the nodes' hardware and kubelets
//! ([`MachineRequest`]), carried out by the driver once the asking step ends, in the order asked.
//! A machine powers off (its kubelet and containers stop, as in a crash), boots again (its
//! kubelet starts on the same Node), is created for a spare node (its kubelet registers the Node
//! after the boot), or is discarded before it registered; a Node's deletion runs its kubelet's
//! parked loops first.
//!
//! A spare node is one of the scenario's nodes added here: when a remediator that replaces
//! nodes is listed, every node a fault names gets one, named `<node>-r1` (`-r2`… if that name is
//! taken), absent until a remediator creates its machine; it then registers as a joining node
//! does. Without such a remediator there are no spares, so a scenario runs as before.

use super::{Simulation, Wake, REGISTRATION_FIRST_STEP};
use crate::api::NodeId;
use crate::cause::Cause;
use crate::control_plane::node_group;
use crate::idmap::IdMap;
use crate::scenario::{settings, ActionKind, Config, NodeSpec};
use crate::sched::Owner;
use crate::time::Millis;
use crate::timeline::{latest, Event, EventId, EventKind};
use crate::world::MachineRequest;

/// How long the machines take: the cloud's durations, or without a cloud the `cloud` section's
/// defaults from the settings table: (boot, VM deletion, instance termination), ms.
pub(super) fn durations(cfg: &Config) -> (Millis, Millis, Millis) {
    match cfg.cloud.as_ref() {
        Some(c) => (
            c.node_boot_duration,
            c.instance_deletion_duration,
            c.instance_termination_duration,
        ),
        None => (
            settings::NODE_BOOT_DURATION.default_ms(None),
            settings::INSTANCE_DELETION_DURATION.default_ms(None),
            settings::INSTANCE_TERMINATION_DURATION.default_ms(None),
        ),
    }
}

/// Adds one absent spare node per faulted node when `needed`; returns each faulted node's
/// spare.
pub(super) fn add_spares(cfg: &mut Config, needed: bool) -> IdMap<NodeId> {
    let mut spares = IdMap::default();
    if !needed {
        return spares;
    }
    let faulted = crate::order::set(
        cfg.actions
            .iter()
            .filter(|a| a.action.is_fault())
            .filter_map(|a| a.node),
    );
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

/// The machines' memory: each machine created for a spare node, with the node it replaces,
/// the remediator (or the Auto Scaling group's reason, `node_group::BY_*`) that made it, when,
/// and the event that made it, when the maker says.
pub(super) type Created = IdMap<(NodeId, &'static str, Millis, Option<EventId>)>;

impl Simulation {
    /// Carries out what the step asked of the machines, in order.
    pub(super) fn run_machines(&mut self) {
        if self.w.machines.is_empty() {
            return;
        }
        for r in std::mem::take(&mut self.w.machines) {
            self.machine(r);
        }
    }

    fn machine(&mut self, r: MachineRequest) {
        match r {
            MachineRequest::PowerOff { node, gone_at } => self.power_off_machine(node, gone_at),
            MachineRequest::Boot { node, why, uncordon } => {
                let fault = self.kubelets[node].fault.unwrap_or(ActionKind::NodeCrash);
                let repair = self.w.log.index.repair(node);
                self.recover(node, fault, (why, repair));
                if let Some(cause) = uncordon {
                    self.uncordon(node, cause);
                }
            }
            MachineRequest::Create { node, old, by, at } => {
                // The old machine's deletion (its Node's, recorded first) or the repair that
                // asked for the new one.
                let index = &self.w.log.index;
                let old_marks = index.node(old).and_then(|m| latest([m.deleted, index.repair(old)]));
                let after = latest([old_marks, index.node(node).and_then(|m| m.remediation)]);
                self.created.insert(node, (old, by, self.w.now, after));
                let step = REGISTRATION_FIRST_STEP;
                self.push_for(Owner::Kubelet(node), at, Wake::Register { node, step });
            }
            MachineRequest::Discard { node } => self.w.timers.cancel_owner(Owner::Kubelet(node)),
            MachineRequest::DeleteNode { node, cause, after } => self.delete_node_with(node, cause, after),
            MachineRequest::Then { owner, at, wake } => self.w.wake_for(owner, at, wake),
        }
    }

    /// The machine of node `n` powers off (its kubelet and containers stop, as in a crash);
    /// `gone_at`, when the provider reports the instance gone.
    fn power_off_machine(&mut self, n: NodeId, gone_at: Option<Millis>) {
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
        // A remediator's repair terminates the instance: the cloud controller's deletion of the
        // Node follows from it.
        let repair = self.w.log.index.node(n).and_then(|m| m.remediation);
        if let (Some(at), Some(ccm)) = (gone_at, self.ccm.as_mut()) {
            let instance = &mut ccm.instances[n];
            if instance.gone_from.is_none_or(|g| g > at) {
                instance.gone_from = Some(at);
                if let Some(id) = repair {
                    instance.terminated_by = Some((id, now));
                    instance.fault = Some(id);
                }
            }
        }
    }

    /// A re-created VM registers its Node schedulable: the cordon goes (and with it the node
    /// lifecycle controller's `node.kubernetes.io/unschedulable` taint).
    fn uncordon(&mut self, n: NodeId, cause: Cause) {
        if !self.w.api.nodes[n].unschedulable {
            return;
        }
        let now = self.w.now;
        self.w.api.nodes[n].unschedulable = false;
        self.w.api.node_changed(n);
        let after = self.w.log.index.node(n).and_then(|m| m.back);
        self.w
            .log
            .push(Event::new(now, EventKind::NodeUncordoned, cause).node(n).after(after));
        self.nlc.do_no_schedule_tainting_pass(&mut self.w, n);
    }

    /// The cause of a created machine's Node registration, if node `n` is one, and the event
    /// that made the machine.
    pub(super) fn replacement_cause(&self, n: NodeId) -> Option<(Cause, Option<EventId>)> {
        let (old, by, created, after) = *self.created.get(&n)?;
        let key = match by {
            node_group::BY_REBALANCE => "cause.cloud.asg_rebalance_joined",
            node_group::BY_TERMINATION => "cause.cloud.asg_replacement_joined",
            _ => "cause.remediation.replacement_joined",
        };
        let cause = Cause::new(key)
            .text("remediator", by)
            .text("old", &self.w.api.nodes[old].name)
            .time("created", created)
            .time("boot", self.w.now - created);
        Some((cause, after))
    }
}
