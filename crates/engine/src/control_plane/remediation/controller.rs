//! The remediators as one controller: their memory, their node watch, their steps and the
//! wake-ups that run them.
//!
//! Every remediator's timer is a [`Wake::Remediation`] whose step is a [`Step`] of this module;
//! the driver hands each one to [`Remediators::step`] whole. What a repair needs of the
//! machines (a power-off, a boot, a new machine, a Node deletion) it asks for in
//! [`World::machines`]; the timers a step sets after such a request are queued behind it
//! ([`World::wake_after_machines`]), so that they keep the order the step gave them.
//!
//! A replacement node is one of the scenario's spare nodes (see the driver's machines): every
//! node a fault names has one, absent until a remediator creates its machine.

use super::{kind_name, Cluster, Remediation};
use crate::api::NodeId;
use crate::cause::Cause;
use crate::control_plane::cloud_node_lifecycle::Instance;
use crate::control_plane::node_lifecycle::NodeLifecycleController;
use crate::control_plane::podgc::orphan_cause;
use crate::idmap::{IdMap, PairMap};
use crate::scenario::{ActionKind, Config, Provider, Remediator};
use crate::sched::{Owner, RemediationWake, Wake};
use crate::time::{Millis, SECOND};
use crate::world::{MachineRequest, World};

/// How long the machines the driver runs take, ms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MachineTimes {
    /// A new or rebooted machine's boot (`cloud.nodeBootDuration`).
    pub boot: Millis,
    /// A machine's VM deletion (`cloud.instanceDeletionDuration`).
    pub deletion: Millis,
    /// An instance's termination until it is gone (`cloud.instanceTerminationDuration`).
    pub termination: Millis,
}

/// What a step reads and writes besides the world and its own memory.
pub struct Env<'a> {
    /// The node lifecycle controller: its NoSchedule pass sees a drain's cordon at once.
    pub nlc: &'a mut NodeLifecycleController,
    /// Each node's instance as the provider reports it (empty without a cloud).
    pub instances: &'a [Instance],
    /// Whether a node's machine is powered off.
    pub powered_off: &'a dyn Fn(NodeId) -> bool,
}

impl Env<'_> {
    /// When the provider reports node `n`'s instance gone, if it will.
    pub fn gone_at(&self, n: NodeId) -> Option<Millis> {
        self.instances.get(n).and_then(|i| i.gone_from)
    }
}

/// The steps of the remediators' work, each a [`Wake::Remediation`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// A remediator's timer for a node fires: is it unhealthy, may the repair start?
    Check,
    /// A drain pass (cordon, evict, see whether the node is drained).
    Drain,
    /// The wait for the node's volumes to detach.
    VolumeWait,
    /// The machine's VM is gone: the Node is deleted and the replacement created.
    MachineGone,
    /// A rebooted or re-created VM has booted: its kubelet starts.
    Booted,
    /// Self Node Remediation's agent on the node sees the remediation for itself and reboots.
    SelfReboot,
    /// Self Node Remediation's `timeAssumedRebooted` (+1 s) has come: the strategy runs.
    AssumedRebooted,
    /// Self Node Remediation's out-of-service poll (every 5 s).
    OutOfServicePoll,
    /// Karpenter's termination drain pass.
    TerminationDrain,
    /// Karpenter's poll of the terminated instance (every 5 s).
    InstancePoll,
    /// Karpenter's interruption message about the node's instance comes in.
    InterruptionMessage,
    /// A pass of the graceful drain Karpenter's interruption handling starts (every 1 s).
    InterruptionDrain,
    /// Karpenter's wait for the drained node's volumes to detach (every 1 s).
    InterruptionVolumes,
    /// Karpenter terminates the drained node's instance.
    InterruptionTerminate,
    /// Cluster API's `nodeStartupTimeout` check of a replacement Machine (the node is the
    /// replacement's).
    StartupCheck,
    /// The replacement Machine that never got a Node is gone: the MachineSet creates the next.
    StartupMachineGone,
    /// Karpenter's NodeClaim garbage collection runs (every 2 min; no node).
    NodeClaimGc,
}

/// Every step, by its number in a [`RemediationWake`].
const STEPS: [Step; 17] = [
    Step::Check,
    Step::Drain,
    Step::VolumeWait,
    Step::MachineGone,
    Step::Booted,
    Step::SelfReboot,
    Step::AssumedRebooted,
    Step::OutOfServicePoll,
    Step::TerminationDrain,
    Step::InstancePoll,
    Step::InterruptionMessage,
    Step::InterruptionDrain,
    Step::InterruptionVolumes,
    Step::InterruptionTerminate,
    Step::StartupCheck,
    Step::StartupMachineGone,
    Step::NodeClaimGc,
];

impl Step {
    /// The wake-up that runs this step of remediator `remediator` for node `node`.
    pub fn wake(self, remediator: usize, node: NodeId) -> Wake {
        Wake::Remediation(RemediationWake {
            remediator,
            node,
            step: self as u8,
        })
    }

    fn of(code: u8) -> Step {
        STEPS[usize::from(code)]
    }
}

/// The scenario's settings the remediators read.
#[derive(Debug, Clone)]
pub(super) struct Settings {
    /// The machines' durations.
    pub times: MachineTimes,
    /// The cloud provider, if the scenario names one.
    pub provider: Option<Provider>,
    /// `outOfServiceVolumeDetach` (PodGC's `gcTerminating`).
    pub out_of_service_volume_detach: bool,
    /// Whether PodGC waits out its quarantine for orphaned pods.
    pub podgc_quarantine: bool,
    /// Each spot interruption: its node, when its notice starts and how long it is, ms.
    pub spot_notices: Vec<(NodeId, Millis, Millis)>,
}

/// The remediators of a run and the work under way.
#[derive(Debug, Clone)]
pub struct Remediators {
    /// The remediators this build acts on.
    pub list: Vec<Remediation>,
    /// Each faulted node's spare, while no remediator has used it for a replacement.
    pub(super) spares: IdMap<NodeId>,
    /// Each replacement node: the node it replaces and when its machine was created.
    pub(super) replacements: IdMap<(NodeId, Millis)>,
    /// When each repair's drain began, by (remediator, node).
    pub(super) drain_started: PairMap<Millis>,
    /// The instance event each node's Karpenter interruption message is about: the action and
    /// when it happened (the notice's start, for a spot interruption).
    pub(super) interruptions: IdMap<(ActionKind, Millis)>,
    /// What they read of the scenario.
    pub(super) settings: Settings,
}

impl Remediators {
    /// The remediators of `cfg` this build acts on, each looking after the nodes present at the
    /// start; `spares` gives each faulted node's spare.
    pub fn new(cfg: &Config, spares: IdMap<NodeId>, times: MachineTimes) -> Remediators {
        let present = || cfg.nodes.iter().filter(|n| n.join_at.is_none());
        let machines = present().count() as u32;
        let cluster = Cluster {
            k8s_minor: cfg.profile.version.minor,
            workers: present()
                .filter(|n| n.labels.contains_key("node-role.kubernetes.io/worker"))
                .count() as u32,
        };
        let list = cfg
            .remediation
            .iter()
            .enumerate()
            .filter(|(_, r)| r.is_modelled())
            .map(|(i, r)| Remediation::new(i, r.clone(), machines, cluster))
            .collect();
        let spot_notices = cfg
            .actions
            .iter()
            .filter(|a| a.action == ActionKind::SpotInterruption)
            .filter_map(|a| a.node.map(|n| (n, a.at, a.notice)))
            .collect();
        Remediators {
            list,
            spares,
            replacements: IdMap::default(),
            drain_started: PairMap::default(),
            interruptions: IdMap::default(),
            settings: Settings {
                times,
                provider: cfg.cloud.as_ref().map(|c| c.provider),
                out_of_service_volume_detach: cfg.out_of_service_volume_detach,
                podgc_quarantine: cfg.profile.podgc_quarantine,
                spot_notices,
            },
        }
    }

    /// Whether any remediator runs.
    pub fn any(&self) -> bool {
        !self.list.is_empty()
    }

    /// Runs the step a remediator's wake-up names.
    pub fn step(&mut self, w: &mut World, env: &mut Env, wake: RemediationWake) {
        let (index, n) = (wake.remediator, wake.node);
        match Step::of(wake.step) {
            Step::Check => self.check(w, env, index, n),
            Step::NodeClaimGc => self.nodeclaim_gc(w, env, index),
            step => self.repair_step(w, env, index, n, step),
        }
    }

    /// The remediators' informers deliver a change of node `n`.
    pub fn node_changed(&mut self, w: &mut World, n: NodeId) {
        for k in 0..self.list.len() {
            if self.list[k].node_changed(w, n) {
                self.recheck_blocked(w, k);
            }
        }
    }

    /// A node left a remediator's unhealthy set, or a repair ended: the nodes its breaker held
    /// back are looked at again.
    fn recheck_blocked(&mut self, w: &mut World, k: usize) {
        let r = &mut self.list[k];
        let index = r.index;
        for node in r.take_blocked() {
            w.wake_after_machines(Owner::Remediator, w.now, Step::Check.wake(index, node));
        }
    }

    /// [`Self::recheck_blocked`] for the remediator at `index` in the scenario's list.
    pub(super) fn recheck_all_blocked(&mut self, w: &mut World, index: usize) {
        if let Some(k) = self.list.iter().position(|r| r.index == index) {
            self.recheck_blocked(w, k);
        }
    }

    /// The remediator at `index` in the scenario's list.
    pub(super) fn remediator_mut(&mut self, index: usize) -> Option<&mut Remediation> {
        self.list.iter_mut().find(|r| r.index == index)
    }

    /// The settings of the remediator at `index`.
    pub(super) fn spec(&self, index: usize) -> Option<&Remediator> {
        self.list.iter().find(|r| r.index == index).map(|r| &r.spec)
    }

    /// Sets the timer of `step` of remediator `remediator` for `node` at `at`.
    pub(super) fn at(w: &mut World, remediator: usize, node: NodeId, at: Millis, step: Step) {
        w.wake_after_machines(Owner::Remediator, at, step.wake(remediator, node));
    }

    /// The part of a Node deletion's cause that says when PodGC frees its pods.
    pub(super) fn orphan_gc(&self) -> Cause {
        orphan_cause(self.settings.podgc_quarantine)
    }

    /// Node `old`'s spare, if it has one left, for a machine made outside the remediators (an
    /// EKS managed node group's Auto Scaling group): no remediator may use it any more.
    pub fn take_spare(&mut self, old: NodeId) -> Option<NodeId> {
        self.spares.remove(&old)
    }

    /// The spare of node `old`, if it has one left, becomes a replacement machine created now
    /// by remediator `index`, whose kubelet registers at `at`. Returns the spare.
    pub(super) fn replace(&mut self, w: &mut World, index: usize, old: NodeId, at: Millis) -> Option<NodeId> {
        let spare = self.spares.remove(&old)?;
        self.create_replacement(w, index, old, spare, at);
        Some(spare)
    }

    /// A replacement machine for node `old` is created now and its kubelet registers the spare
    /// node `spare` at `at`.
    pub(super) fn create_replacement(&mut self, w: &mut World, index: usize, old: NodeId, spare: NodeId, at: Millis) {
        let by = self.spec(index).map_or("", kind_name);
        self.replacements.insert(spare, (old, w.now));
        w.machines.push(MachineRequest::Create {
            node: spare,
            old,
            by,
            at,
        });
        if let Some(&Remediator::MachineHealthCheck {
            node_startup_timeout: t @ 1..,
            ..
        }) = self.spec(index)
        {
            // `nodeChecks` looks again `timeout − elapsed + 1s` after the Machine's creation.
            Self::at(w, index, spare, w.now + t + SECOND, Step::StartupCheck);
        }
    }
}
