//! What repairs a failed node besides kube-controller-manager: the remediators of the scenario's
//! `remediation` list, and the mechanics they share.
//!
//! Each remediator watches the Ready condition of the nodes as its informer shows it (the node
//! watch; [`Remediation::node_changed`]), never scanning the cluster: a node whose Ready matches
//! one of its checks (type and status exactly, as Cluster API's `nodeChecks` and medik8s'
//! `matchesUnhealthyConditions` compare) gets one keyed timer at `LTT + timeout` (plus the
//! remediator's requeue quirk: Cluster API and NHC requeue one second after the expiry); a node
//! whose Ready changes drops or moves it. When the timer fires, the remediator's safety breaker
//! ([`Remediation::check`]) is evaluated from the counts it keeps (how many nodes it watches,
//! how many are unhealthy), and it either starts the repair (`RemediationStarted`) or holds it
//! back (`RemediationBlocked`) until another node recovers or a repair finishes.
//!
//! [`Repair`] names what a remediator runs; the repairs themselves are steps on the world
//! ([`repair`]: the drain, the machine's and the Node's deletion, the reboot, the replacement
//! node), run by [`Remediators`] ([`controller`]), which owns the work under way and asks the
//! driver's machines for what needs a kubelet. The per-remediator modules hold their upstream
//! rules and steps: [`mhc`] (Cluster API MachineHealthCheck), [`managed`] (GKE, EKS and AKS
//! auto-repair), [`snr`] (NodeHealthCheck with Self Node Remediation, and its fencing) and
//! [`karpenter`] (node repair, termination, interruption handling, NodeClaim garbage
//! collection). Every drain follows [`crate::control_plane::drain`].

pub mod controller;
pub mod karpenter;
pub mod managed;
pub mod mhc;
mod repair;
pub mod snr;

pub use controller::{Env, MachineTimes, Remediators, Step};

use crate::api::{CondStatus, NodeId};
use crate::idmap::IdMap;
use crate::scenario::{ConditionCheck, Remediator, SnrStrategy};
use crate::sched::{ActionKey, Owner, Wake};
use crate::time::{Millis, SECOND};
use crate::timeline::{Event, EventKind};
use crate::world::World;
use std::collections::BTreeSet;

/// What a remediator does to a node it judged unhealthy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repair {
    /// Delete the Machine: drain, delete the VM, delete the Node, and a replacement Machine
    /// (Cluster API's MachineSet).
    DeleteMachine,
    /// Drain up to a timeout, then re-create the VM under the same name (GKE).
    Recreate,
    /// Terminate the instance; its Auto Scaling group launches a new one (EKS "Replace").
    Replace,
    /// Reboot the VM in place (AKS).
    Reboot,
    /// Karpenter: delete the NodeClaim with its termination time now (forceful drain, the
    /// instance terminated, the Node's finalizer removed).
    Terminate,
    /// Self Node Remediation: the node's agent reboots it; once it is assumed rebooted, the
    /// strategy (the out-of-service taint, or the pods' deletion) frees its pods.
    Fence {
        /// `rebootDuration`, ms.
        reboot: Millis,
        /// The runtime strategy (`OutOfServiceTaint` or `ResourceDeletion`).
        strategy: SnrStrategy,
    },
}

/// What a remediator knows of the cluster it runs in.
#[derive(Debug, Clone, Copy, Default)]
pub struct Cluster {
    /// Kubernetes' minor version.
    pub k8s_minor: u32,
    /// Nodes labelled `node-role.kubernetes.io/worker` (Self Node Remediation's peers).
    pub workers: u32,
}

/// A node whose Ready matches a check.
#[derive(Debug, Clone, Copy)]
struct Matched {
    /// When its Ready entered the matching status (`lastTransitionTime`).
    since: Millis,
    /// The status it matched.
    status: CondStatus,
    /// The check's timeout.
    timeout: Millis,
    /// When the remediator judges it unhealthy.
    due: Millis,
    /// The timer that fires then.
    key: ActionKey,
    /// The Node was deleted (Cluster API: `NodeDeleted`, unhealthy at once).
    deleted: bool,
}

/// One remediator's memory.
#[derive(Debug, Clone)]
pub struct Remediation {
    /// Its position in the scenario's `remediation` list.
    pub index: usize,
    /// Its settings.
    pub spec: Remediator,
    /// The nodes whose Ready matches one of its checks.
    matched: IdMap<Matched>,
    /// The nodes it is repairing (each is repaired once).
    pub repairing: BTreeSet<NodeId>,
    /// The nodes whose repair a breaker held back.
    blocked: BTreeSet<NodeId>,
    /// The nodes among `repairing` that Karpenter's interruption handling drains: their Ready
    /// matches no policy, so its breaker does not count them.
    interrupting: BTreeSet<NodeId>,
    /// Replacement machines created whose node is not Ready yet.
    booting: BTreeSet<NodeId>,
    /// How many machines (nodes) it looks after: the nodes present at the start, plus the
    /// replacements it made.
    pub machines: u32,
    /// The nodes whose machine it removed: nothing more happens to them.
    retired: BTreeSet<NodeId>,
    /// The held-back nodes whose `RemediationBlocked` is already recorded.
    told: BTreeSet<NodeId>,
    /// Self Node Remediation's runtime strategy of each node it fences and its
    /// `rebootDuration`, ms.
    fencing: IdMap<(SnrStrategy, Millis)>,
    /// The cluster it runs in.
    pub cluster: Cluster,
}

/// What the remediator decided when a node's timer fired.
#[derive(Debug, Clone)]
pub enum Verdict {
    /// Start the repair.
    Start(Repair),
    /// Nothing (the node recovered, or the breaker said no).
    Nothing,
}

impl Remediation {
    /// A remediator looking after `machines` nodes.
    pub fn new(index: usize, spec: Remediator, machines: u32, cluster: Cluster) -> Remediation {
        Remediation {
            index,
            spec,
            matched: IdMap::default(),
            repairing: BTreeSet::new(),
            blocked: BTreeSet::new(),
            interrupting: BTreeSet::new(),
            booting: BTreeSet::new(),
            machines,
            retired: BTreeSet::new(),
            told: BTreeSet::new(),
            fencing: IdMap::default(),
            cluster,
        }
    }

    /// The name the scenario gives it (`remediation[].kind`).
    pub fn kind(&self) -> &'static str {
        kind_name(&self.spec)
    }

    /// Its condition checks.
    fn checks(&self) -> Vec<ConditionCheck> {
        match &self.spec {
            Remediator::MachineHealthCheck { conditions, .. } | Remediator::SelfNodeRemediation { conditions, .. } => {
                conditions.clone()
            }
            // Without the `NodeRepair` gate the health controller does not run.
            Remediator::KarpenterNodeRepair {
                node_repair,
                conditions,
                ..
            } => {
                if *node_repair {
                    conditions.clone()
                } else {
                    Vec::new()
                }
            }
            Remediator::GkeAutoRepair { not_ready_timeout, .. } => crate::scenario::ready_checks(*not_ready_timeout),
            Remediator::EksNodeAutoRepair { ready_timeout, .. } => crate::scenario::ready_checks(*ready_timeout),
            Remediator::AksAutoRepair { detection_delay } => crate::scenario::ready_checks(*detection_delay),
        }
    }

    /// How long after the expiry the remediator looks again: Cluster API's `nodeChecks` and
    /// NHC requeue `timeout − elapsed + 1s`; the managed services are modelled exact.
    fn requeue_slack(&self) -> Millis {
        match self.spec {
            Remediator::MachineHealthCheck { .. } | Remediator::SelfNodeRemediation { .. } => SECOND,
            _ => 0,
        }
    }

    /// The node watch delivered a change of node `n`: its timer is set, kept, moved or dropped.
    /// Returns true when the remediator should look again at the nodes its breaker held back
    /// (a node left the unhealthy set).
    pub fn node_changed(&mut self, w: &mut World, n: NodeId) -> bool {
        if self.retired.contains(&n) {
            return false;
        }
        if self.repairing.contains(&n) {
            return self.holds_until_ready() && self.ready_again(w, n);
        }
        let now = w.now;
        let node = &w.api.nodes[n];
        if !node.exists {
            // Only Cluster API judges a Machine whose Node was deleted (`NodeDeleted`).
            self.booting.remove(&n);
            if !self.judges_deleted_nodes() {
                if let Some(m) = self.matched.remove(&n) {
                    w.timers.cancel(m.key);
                }
                self.blocked.remove(&n);
                return false;
            }
            if !self.matched.get(&n).is_some_and(|m| m.deleted) {
                let key = w.wake_keyed(Owner::Remediator, now, self.wake(n));
                let m = Matched {
                    since: now,
                    status: CondStatus::Unknown,
                    timeout: 0,
                    due: now,
                    key,
                    deleted: true,
                };
                self.replace_match(w, n, m);
            }
            return false;
        }
        let ready = node.status.observed(now).ready;
        if ready.is_some_and(|c| c.status == CondStatus::True) {
            self.booting.remove(&n);
        }
        let status = ready.map_or(CondStatus::Unknown, |c| c.status);
        let since = ready.map_or(node.created_at, |c| c.transition);
        let check = self
            .checks()
            .into_iter()
            .find(|c| c.kind == "Ready" && c.status == format!("{status}"));
        let Some(check) = check else {
            let left = self.matched.remove(&n);
            if let Some(m) = left {
                w.timers.cancel(m.key);
            }
            self.blocked.remove(&n);
            return left.is_some();
        };
        if let Some(m) = self.matched.get(&n) {
            if m.status == status && m.since == since {
                return false;
            }
        }
        let due = since + check.timeout + self.requeue_slack();
        let key = w.wake_keyed(Owner::Remediator, due.max(now), self.wake(n));
        self.replace_match(
            w,
            n,
            Matched {
                since,
                status,
                timeout: check.timeout,
                due,
                key,
                deleted: false,
            },
        );
        false
    }

    /// Self Node Remediation's CR stays while the node is unhealthy: NHC deletes it once the
    /// node is healthy, and the NoSchedule taint goes with it.
    fn holds_until_ready(&self) -> bool {
        matches!(self.spec, Remediator::SelfNodeRemediation { .. })
    }

    /// Whether node `n`, under repair, is Ready again: its repair ends (and its NoSchedule taint
    /// goes, for Self Node Remediation).
    fn ready_again(&mut self, w: &mut World, n: NodeId) -> bool {
        let now = w.now;
        let node = &w.api.nodes[n];
        if !node.exists || node.status.observed(now).ready_status() != Some(CondStatus::True) {
            return false;
        }
        self.repairing.remove(&n);
        let taint = (snr::TAINT_SNR, crate::api::Effect::NoSchedule);
        if w.api.swap_taints(now, n, &[], &[taint]) {
            let cause = crate::cause::Cause::new("cause.remediation.snr_untaint").text("taint", snr::TAINT_SNR);
            let e = Event::new(now, EventKind::TaintRemoved, cause)
                .node(n)
                .taint(format!("{}:NoSchedule", snr::TAINT_SNR));
            w.log.push(e.after(w.log.index.ready(n)));
        }
        true
    }

    fn replace_match(&mut self, w: &mut World, n: NodeId, m: Matched) {
        if let Some(old) = self.matched.insert(n, m) {
            w.timers.cancel(old.key);
        }
    }

    fn wake(&self, n: NodeId) -> Wake {
        Step::Check.wake(self.index, n)
    }

    fn judges_deleted_nodes(&self) -> bool {
        matches!(self.spec, Remediator::MachineHealthCheck { .. })
    }

    /// The nodes its breaker held back, to look at again.
    pub fn take_blocked(&mut self) -> Vec<NodeId> {
        std::mem::take(&mut self.blocked).into_iter().collect()
    }

    /// The timer of node `n` fired (or the remediator looks again at a held-back node): is it
    /// still unhealthy, and does the breaker let the repair start? Records `RemediationStarted`
    /// or `RemediationBlocked`.
    pub fn check(&mut self, w: &mut World, n: NodeId) -> Verdict {
        let now = w.now;
        let Some(m) = self.matched.get(&n).copied() else {
            return Verdict::Nothing;
        };
        if now < m.due || self.repairing.contains(&n) || (!m.deleted && !w.api.nodes[n].exists) {
            return Verdict::Nothing;
        }
        let verdict = match &self.spec {
            Remediator::MachineHealthCheck { .. } => {
                let held = now - m.since;
                match mhc::judge(self, (m.status, m.since, m.timeout, m.deleted), held) {
                    Some(v) => v,
                    None => return Verdict::Nothing,
                }
            }
            Remediator::SelfNodeRemediation { .. } => snr::judge(self, (m.status, m.since, m.timeout)),
            Remediator::KarpenterNodeRepair { .. } => karpenter::judge(self, (m.status, m.since, m.timeout)),
            _ => managed::judge(self, w, n, (m.status, m.since)),
        };
        let after = if m.deleted {
            w.log.index.node(n).and_then(|marks| marks.deleted)
        } else {
            w.log.index.ready(n)
        };
        match verdict {
            Ok((repair, cause)) => {
                self.matched.remove(&n);
                self.blocked.remove(&n);
                self.repairing.insert(n);
                let mut e = Event::new(now, EventKind::RemediationStarted, cause).node(n);
                e.remediator = Some(self.kind().to_string());
                w.log.push(e.after(after));
                Verdict::Start(repair)
            }
            Err(why) => {
                self.blocked.insert(n);
                if matches!(self.spec, Remediator::KarpenterNodeRepair { .. }) {
                    w.wake_keyed(Owner::Remediator, now + karpenter::BLOCKED_REQUEUE, self.wake(n));
                }
                if self.told.insert(n) {
                    let mut e = Event::new(now, EventKind::RemediationBlocked, why).node(n);
                    e.remediator = Some(self.kind().to_string());
                    w.log.push(e.after(after));
                }
                Verdict::Nothing
            }
        }
    }

    /// Karpenter's interruption handling acts on node `n` (its message came): unless the node is
    /// already being repaired or gone, its health timer goes, it counts as being repaired, and
    /// `RemediationStarted` is recorded with `cause`. Returns whether it acts.
    pub fn interrupted(
        &mut self,
        w: &mut World,
        n: NodeId,
        cause: crate::cause::Cause,
        after: Option<crate::timeline::EventId>,
    ) -> bool {
        if self.repairing.contains(&n) || self.retired.contains(&n) || !w.api.nodes[n].exists {
            return false;
        }
        if let Some(m) = self.matched.remove(&n) {
            w.timers.cancel(m.key);
        }
        self.blocked.remove(&n);
        self.repairing.insert(n);
        self.interrupting.insert(n);
        let mut e = Event::new(w.now, EventKind::RemediationStarted, cause).node(n);
        e.remediator = Some(self.kind().to_string());
        w.log.push(e.after(after));
        true
    }

    /// Cluster API's `nodeStartupTimeout` check of replacement `s` (for node `old`, created at
    /// `created`) while it has no Node: records `RemediationStarted` and returns true when its
    /// Machine is to be deleted; records `RemediationBlocked` (once) and holds it back until a
    /// repair ends when the breaker says no. `made` is the event the replacement's creation
    /// followed.
    pub fn startup_check(
        &mut self,
        w: &mut World,
        s: NodeId,
        (old, made): (&str, Option<crate::timeline::EventId>),
        created: Millis,
    ) -> bool {
        let Some(verdict) = mhc::judge_startup(self, old, created, w.now) else {
            return false;
        };
        let (kind, cause) = match verdict {
            Ok(cause) => {
                self.booting.remove(&s);
                self.blocked.remove(&s);
                self.repairing.insert(s);
                (EventKind::RemediationStarted, cause)
            }
            Err(why) => {
                self.blocked.insert(s);
                if !self.told.insert(s) {
                    return false;
                }
                (EventKind::RemediationBlocked, why)
            }
        };
        let mut e = Event::new(w.now, kind, cause).node(s).after(made);
        e.remediator = Some(self.kind().to_string());
        w.log.push(e);
        kind == EventKind::RemediationStarted
    }

    /// The replacement Machine `s` that timed out is gone and the next one is created in its
    /// place: it boots, not healthy, until its Node is Ready.
    pub fn replacement_recreated(&mut self, s: NodeId) {
        self.repairing.remove(&s);
        self.told.remove(&s);
        self.booting.insert(s);
    }

    /// The repair of node `n` is over: it is back (a reboot, a re-created VM), or its machine
    /// is gone and `replacement` (if any) was created in its place, without a Ready node yet.
    pub fn finished(&mut self, n: NodeId, gone: bool, replacement: Option<NodeId>) {
        self.repairing.remove(&n);
        self.interrupting.remove(&n);
        self.matched.remove(&n);
        if gone {
            self.retired.insert(n);
        }
        if let Some(r) = replacement {
            self.booting.insert(r);
        }
    }

    /// How many of its nodes count as not healthy now: those whose Ready matches a check
    /// (inside or past the timeout), those being repaired (not those Karpenter drains for an
    /// interruption), and replacements still booting.
    /// Cluster API's `healthCheckTargets` counts the same way (a pending next check, a Machine
    /// being deleted and a Machine without a Node are all not healthy).
    pub fn unhealthy_count(&self) -> u32 {
        let repairing = self.repairing.difference(&self.interrupting).count();
        (self.matched.len() + repairing + self.booting.len()) as u32
    }
}

/// The name of a remediator as the scenario writes it.
pub fn kind_name(r: &Remediator) -> &'static str {
    match r {
        Remediator::MachineHealthCheck { .. } => "MachineHealthCheck",
        Remediator::SelfNodeRemediation { .. } => "SelfNodeRemediation",
        Remediator::KarpenterNodeRepair { .. } => "KarpenterNodeRepair",
        Remediator::GkeAutoRepair { .. } => "GKEAutoRepair",
        Remediator::EksNodeAutoRepair { .. } => "EKSNodeAutoRepair",
        Remediator::AksAutoRepair { .. } => "AKSAutoRepair",
    }
}

/// Whether the remediator's repair brings a new node (so the scenario needs a spare for it).
pub fn replaces_nodes(r: &Remediator) -> bool {
    matches!(
        r,
        Remediator::MachineHealthCheck { .. }
            | Remediator::EksNodeAutoRepair { .. }
            | Remediator::KarpenterNodeRepair { node_repair: true, .. }
            | Remediator::KarpenterNodeRepair {
                interruption_queue: true,
                ..
            }
    )
}
