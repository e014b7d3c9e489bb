//! Workload controllers: ReplicaSet (behind a Deployment), StatefulSet and DaemonSet.
//!
//! The ReplicaSet controller treats a pod with a `deletionTimestamp` as gone and replaces it at
//! once (`updatePod` in `pkg/controller/replicaset/replica_set.go`, `IsPodActive`). The StatefulSet
//! controller reuses the pod's name, so it waits until the old object is removed. The DaemonSet
//! controller keeps one pod per node. Bare pods are never recreated.

use crate::api::client::Controller;
use crate::api::{tolerates, Api, Effect, NodeId, Pod, PodId, Toleration};
use crate::cause::Cause;
use crate::control_plane::admission::{daemonset_tolerations, default_toleration_seconds};
use crate::rng::{Rng, Stream};
use crate::scenario::{ApiServerConfig, WorkloadKind, WorkloadSpec};
use crate::time::Millis;
use crate::timeline::{latest, Event, EventId, EventKind, Log};
use crate::world::World;
use std::collections::BTreeSet;
use std::rc::Rc;

/// The alphabet of generated name suffixes (`utilrand.String`).
const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// All workload controllers, with the indexes that let one pod event cost O(log n): which pods
/// of a Deployment wait to be replaced, which StatefulSet ordinals have no pod, and which nodes
/// lack a DaemonSet pod.
#[derive(Debug, Clone)]
pub struct Workloads {
    /// The workloads.
    pub specs: Vec<WorkloadSpec>,
    /// The pod-template hash of each Deployment's ReplicaSet.
    pub template_hash: Vec<String>,
    /// Per Deployment: pods no longer active and not yet replaced, oldest first.
    unreplaced: Vec<BTreeSet<PodId>>,
    /// Per StatefulSet: the newest pod of each ordinal.
    ordinal_pod: Vec<Vec<Option<PodId>>>,
    /// Per StatefulSet: ordinals with no existing pod (`usize`, as the pods' sets, so that both
    /// share one copy of the set's code).
    missing_ordinals: Vec<BTreeSet<usize>>,
    /// Per DaemonSet: its active pod on each node.
    daemon_pod: Vec<Vec<Option<PodId>>>,
    /// Per DaemonSet: nodes without an active pod of it (some may not exist or be blocked).
    daemon_missing: Vec<BTreeSet<NodeId>>,
    /// Per DaemonSet: its pod template's tolerations plus the controller's own.
    daemon_tolerations: Vec<Vec<Toleration>>,
    /// Per workload: its pods' tolerations after admission (the same for every pod it creates).
    pod_tolerations: Vec<Rc<Vec<Toleration>>>,
    /// Per workload: the owner's name as causes show it.
    owners: Vec<String>,
    /// Whether a bare pod was created.
    bare_created: Vec<bool>,
    names: Rng,
    /// A 64-bit digest of every pod name given out (a collision of two digests is as unlikely
    /// as it gets; it would only draw one more suffix), by `order::words`.
    used_names: BTreeSet<(usize, usize)>,
}

impl Workloads {
    /// Controllers for `specs` on a cluster of `nodes` nodes, naming pods from the run's seed.
    pub fn new(specs: Vec<WorkloadSpec>, api_server: ApiServerConfig, seed: u64, nodes: usize) -> Self {
        let mut names = Rng::stream(seed, Stream::Names);
        let template_hash = specs.iter().map(|_| random_string(&mut names, 10)).collect();
        let count = specs.len();
        let kind_is = |k: WorkloadKind| specs.iter().map(move |s| s.kind == k);
        let daemon_tolerations = specs
            .iter()
            .map(|s| {
                let mut t = s.tolerations.clone();
                if s.kind == WorkloadKind::DaemonSet {
                    daemonset_tolerations(&mut t);
                }
                t
            })
            .collect();
        let pod_tolerations = specs
            .iter()
            .map(|s| {
                let mut t = s.tolerations.clone();
                if s.kind == WorkloadKind::DaemonSet {
                    daemonset_tolerations(&mut t);
                }
                default_toleration_seconds(&mut t, &api_server);
                Rc::new(t)
            })
            .collect();
        let owners = specs
            .iter()
            .zip(&template_hash)
            .map(|(s, hash): (&WorkloadSpec, &String)| match s.kind {
                WorkloadKind::Deployment => format!("ReplicaSet {}-{hash}", s.name),
                WorkloadKind::StatefulSet => format!("StatefulSet {}", s.name),
                WorkloadKind::DaemonSet => format!("DaemonSet {}", s.name),
                WorkloadKind::Pod => format!("Pod {}", s.name),
            })
            .collect();
        Workloads {
            pod_tolerations,
            owners,
            template_hash,
            unreplaced: vec![BTreeSet::new(); count],
            ordinal_pod: specs.iter().map(|s| vec![None; s.replicas as usize]).collect(),
            missing_ordinals: specs
                .iter()
                .map(|s| match s.kind {
                    WorkloadKind::StatefulSet => crate::order::set(0..s.replicas as usize),
                    _ => BTreeSet::new(),
                })
                .collect(),
            daemon_pod: kind_is(WorkloadKind::DaemonSet)
                .map(|d| if d { vec![None; nodes] } else { Vec::new() })
                .collect(),
            daemon_missing: kind_is(WorkloadKind::DaemonSet)
                .map(|d| {
                    if d {
                        crate::order::set(0..nodes)
                    } else {
                        BTreeSet::new()
                    }
                })
                .collect(),
            daemon_tolerations,
            bare_created: vec![false; count],
            specs,
            names,
            used_names: BTreeSet::new(),
        }
    }

    /// The name of the controller that owns a workload's pods, as shown in causes.
    pub fn owner_name(&self, w: usize) -> &str {
        &self.owners[w]
    }

    /// Desired Ready pods of a workload (for a DaemonSet: one per existing node).
    pub fn desired(&self, w: usize, api: &Api) -> u32 {
        match self.specs[w].kind {
            WorkloadKind::DaemonSet => api.nodes.iter().filter(|n| n.exists).count() as u32,
            _ => self.specs[w].replicas,
        }
    }

    fn unique_name(&mut self, base: &str) -> String {
        loop {
            let candidate = format!("{base}-{}", random_string(&mut self.names, 5));
            if self.used_names.insert(digest(&candidate)) {
                return candidate;
            }
        }
    }

    /// Brings the indexes up to date with the pods that stopped being active or were removed
    /// since the last sync (the informers' view of those changes).
    fn observe(&mut self, api: &mut Api) {
        for p in std::mem::take(&mut api.became_inactive) {
            let pod = &api.pods[p];
            let w = pod.workload;
            match self.specs[w].kind {
                WorkloadKind::Deployment => {
                    self.unreplaced[w].insert(p);
                }
                // A daemon pod that failed on a node shutting down is not replaced there.
                WorkloadKind::DaemonSet if !pod.failed => {
                    if let Some(n) = pod.node.filter(|&n| self.daemon_pod[w][n] == Some(p)) {
                        self.daemon_pod[w][n] = None;
                        self.daemon_missing[w].insert(n);
                    }
                }
                _ => {}
            }
        }
        for p in std::mem::take(&mut api.removed) {
            let pod = &api.pods[p];
            let w = pod.workload;
            if let Some(o) = pod.ordinal {
                if self.ordinal_pod[w].get(o as usize) == Some(&Some(p)) {
                    self.missing_ordinals[w].insert(o as usize);
                }
            }
        }
    }

    /// Reconciles one workload: creates whatever pods are missing.
    pub fn sync(&mut self, world: &mut World, w: usize) -> Vec<PodId> {
        let now = world.now;
        let World { api, log, .. } = world;
        self.observe(api);
        match self.specs[w].kind {
            WorkloadKind::Deployment => self.sync_replicaset(now, w, api, log),
            WorkloadKind::StatefulSet => self.sync_statefulset(now, w, api, log),
            WorkloadKind::DaemonSet => self.sync_daemonset(now, w, api, log),
            WorkloadKind::Pod => {
                if self.bare_created[w] {
                    return Vec::new();
                }
                self.bare_created[w] = true;
                let name = self.specs[w].name.clone();
                self.used_names.insert(digest(&name));
                let cause = Cause::new("cause.pod.bare");
                vec![self.create(now, w, name, None, None, None, api, log, cause)]
            }
        }
    }

    /// A pod turned Failed. The ReplicaSet controller no longer counts it (`IsPodActive`) and
    /// replaces it; the StatefulSet controller deletes it (`isFailed`, a terminal pod goes at
    /// once) and recreates its ordinal.
    pub fn pod_failed(&mut self, world: &mut World, p: PodId) {
        let now = world.now;
        let World { api, log, .. } = world;
        let w = api.pods[p].workload;
        if self.specs[w].kind == WorkloadKind::StatefulSet && api.pods[p].exists() {
            // The DELETE and its SuccessfulDelete event.
            api.clients.send(Controller::StatefulSet, now, 2);
            if api.remove_pod(now, p) {
                let cause = Cause::new("cause.sts.delete_failed")
                    .text("owner", self.owner_name(w))
                    .text("pod", &api.pods[p].name);
                let mut e = Event::new(now, EventKind::PodRemoved, cause)
                    .pod(p)
                    .after(log.index.pod(p).failed);
                e.node = api.pods[p].node;
                log.push(e);
            }
        }
        self.sync(world, w);
    }

    /// The ReplicaSet controller (`manageReplicas`): a pod being deleted no longer counts, so a
    /// replacement is created at once (`IsPodActive`).
    fn sync_replicaset(&mut self, now: Millis, w: usize, api: &mut Api, log: &mut Log) -> Vec<PodId> {
        let replicas = self.specs[w].replicas;
        let active = api.active_by_workload.get(w).copied().unwrap_or(0);
        let base = format!("{}-{}", self.specs[w].name, self.template_hash[w]);
        let mut created = Vec::new();
        for i in active..replicas {
            let replaces = self.unreplaced[w].pop_first();
            let name = self.unique_name(&base);
            // Causes of the warm-up's pods are never recorded, so they are not built.
            let cause = if log.wants(now, EventKind::PodCreated) {
                match replaces {
                    Some(old) if api.pods[old].failed => {
                        Cause::new("cause.rs.replacement_failed").text("old", &api.pods[old].name)
                    }
                    // Force-deleted (PodGC, an operator) before it was ever Terminating.
                    Some(old) if !api.pods[old].exists() => {
                        Cause::new("cause.rs.replacement_removed").text("old", &api.pods[old].name)
                    }
                    Some(old) => Cause::new("cause.rs.replacement").text("old", &api.pods[old].name),
                    None => Cause::new("cause.rs.create"),
                }
                .text("owner", self.owner_name(w))
                .text("active", i)
                .text("replicas", replicas)
            } else {
                Cause::none()
            };
            created.push(self.create(now, w, name, None, None, replaces, api, log, cause));
        }
        created
    }

    /// The StatefulSet controller: an ordinal gets a new pod, of the same name, only once the old
    /// object is gone.
    fn sync_statefulset(&mut self, now: Millis, w: usize, api: &mut Api, log: &mut Log) -> Vec<PodId> {
        let mut created = Vec::new();
        while let Some(ordinal) = self.missing_ordinals[w].pop_first() {
            let name = format!("{}-{ordinal}", self.specs[w].name);
            let replaces = self.ordinal_pod[w][ordinal];
            let cause = match replaces {
                Some(_) => Cause::new("cause.sts.recreate"),
                None => Cause::new("cause.sts.create"),
            }
            .text("owner", self.owner_name(w))
            .text("pod", &name);
            self.used_names.insert(digest(&name));
            let p = self.create(now, w, name, Some(ordinal as u32), None, replaces, api, log, cause);
            self.ordinal_pod[w][ordinal] = Some(p);
            created.push(p);
        }
        created
    }

    /// The DaemonSet controller: one pod on every node it should run on.
    fn sync_daemonset(&mut self, now: Millis, w: usize, api: &mut Api, log: &mut Log) -> Vec<PodId> {
        let mut created = Vec::new();
        let candidates: Vec<NodeId> = self.daemon_missing[w].iter().copied().collect();
        for n in candidates {
            if !api.nodes[n].exists {
                continue;
            }
            // nodeShouldRunDaemonPod: not on a node with a taint the daemon pods do not tolerate.
            let template = &self.daemon_tolerations[w];
            let blocked = api.nodes[n].taints.iter().any(|t| {
                matches!(t.effect, Effect::NoSchedule | Effect::NoExecute)
                    && !template.iter().any(|tol| tolerates(tol, t))
            });
            if blocked {
                continue;
            }
            let name = self.unique_name(&self.specs[w].name.clone());
            let cause = if log.wants(now, EventKind::PodCreated) {
                Cause::new("cause.ds.create")
                    .text("owner", self.owner_name(w))
                    .text("node", &api.nodes[n].name)
            } else {
                Cause::none()
            };
            let p = self.create(now, w, name, None, Some(n), None, api, log, cause);
            self.daemon_pod[w][n] = Some(p);
            self.daemon_missing[w].remove(&n);
            created.push(p);
        }
        created
    }

    #[allow(clippy::too_many_arguments)]
    fn create(
        &mut self,
        now: Millis,
        w: usize,
        name: String,
        ordinal: Option<u32>,
        node: Option<NodeId>,
        replaces: Option<PodId>,
        api: &mut Api,
        log: &mut Log,
        cause: Cause,
    ) -> PodId {
        let spec = &self.specs[w];
        let tolerations = Rc::clone(&self.pod_tolerations[w]);
        let pod = Pod {
            name,
            workload: w,
            ordinal,
            node: None,
            tolerations,
            grace_seconds: spec.termination_grace_period_seconds,
            created_at: now,
            ready: None,
            deletion_requested_at: None,
            removed_at: None,
            running: false,
            failed: false,
            stopped_at: None,
            replaces,
            daemon: spec.kind == WorkloadKind::DaemonSet,
            status_reason: None,
        };
        // The CREATE and its SuccessfulCreate event, requests of the controller's client.
        let who = match spec.kind {
            WorkloadKind::StatefulSet => Controller::StatefulSet,
            WorkloadKind::DaemonSet => Controller::DaemonSet,
            _ => Controller::ReplicaSet,
        };
        api.clients.send(who, now, 2);
        let after = created_after(log, replaces, node, spec.kind);
        let id = api.create_pod(now, pod);
        let created = log.push(Event::new(now, EventKind::PodCreated, cause).pod(id).after(after));
        if let Some(n) = node {
            api.bind_pod(now, id, n);
            if log.wants(now, EventKind::PodScheduled) {
                let cause = Cause::new("cause.ds.bind")
                    .text("owner", self.owner_name(w))
                    .text("node", &api.nodes[n].name);
                log.push(
                    Event::new(now, EventKind::PodScheduled, cause)
                        .node(n)
                        .pod(id)
                        .after(created),
                );
            }
        }
        id
    }
}

/// The event that let a controller create a pod: for a replacement, the old pod's leaving (a
/// StatefulSet waits for its object to be gone; a ReplicaSet replaces it as soon as it stops
/// being active: deleted, Failed or gone, whichever came first); for a DaemonSet's pod, its node
/// appearing or losing the taint that kept the pod off, whichever came last.
fn created_after(log: &Log, replaces: Option<PodId>, node: Option<NodeId>, kind: WorkloadKind) -> Option<EventId> {
    if let Some(old) = replaces {
        let m = log.index.pod(old);
        return match kind {
            WorkloadKind::StatefulSet => m.removed,
            _ => [m.deleting, m.failed, m.removed].into_iter().flatten().min(),
        };
    }
    let n = log.index.node(node?)?;
    latest([n.back, n.untainted])
}

/// FNV-1a over the name's bytes, as `order::words`.
fn digest(name: &str) -> (usize, usize) {
    crate::order::words(name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    }))
}

fn random_string(rng: &mut Rng, len: usize) -> String {
    (0..len)
        .map(|_| ALPHABET[rng.below(ALPHABET.len() as u64) as usize] as char)
        .collect()
}
