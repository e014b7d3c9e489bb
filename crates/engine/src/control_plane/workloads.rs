//! Workload controllers: ReplicaSet (behind a Deployment), StatefulSet and DaemonSet.
//!
//! The ReplicaSet controller treats a pod with a `deletionTimestamp` as gone and replaces it at
//! once (`updatePod` in `pkg/controller/replicaset/replica_set.go`, `IsPodActive`). The StatefulSet
//! controller reuses the pod's name, so it waits until the old object is removed. The DaemonSet
//! controller keeps one pod per node. Bare pods are never recreated.

use crate::api::{tolerates, Api, Effect, NodeId, Pod, PodId};
use crate::cause::Cause;
use crate::control_plane::admission::{daemonset_tolerations, default_toleration_seconds};
use crate::rng::{Rng, Stream};
use crate::scenario::{ApiServerConfig, WorkloadKind, WorkloadSpec};
use crate::time::Millis;
use crate::timeline::{Event, EventKind, Log};
use std::collections::BTreeSet;

/// The alphabet of generated name suffixes (`utilrand.String`).
const ALPHABET: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";

/// All workload controllers.
#[derive(Debug, Clone)]
pub struct Workloads {
    /// The workloads.
    pub specs: Vec<WorkloadSpec>,
    /// Every pod each workload ever created, in creation order.
    pub pods: Vec<Vec<PodId>>,
    /// The pod-template hash of each Deployment's ReplicaSet.
    pub template_hash: Vec<String>,
    replaced: BTreeSet<PodId>,
    names: Rng,
    used_names: BTreeSet<String>,
    api_server: ApiServerConfig,
}

impl Workloads {
    /// Controllers for `specs`, naming pods from the run's seed.
    pub fn new(specs: Vec<WorkloadSpec>, api_server: ApiServerConfig, seed: u64) -> Self {
        let mut names = Rng::stream(seed, Stream::Names);
        let template_hash = specs.iter().map(|_| random_string(&mut names, 10)).collect();
        let pods = vec![Vec::new(); specs.len()];
        Workloads {
            specs,
            pods,
            template_hash,
            replaced: BTreeSet::new(),
            names,
            used_names: BTreeSet::new(),
            api_server,
        }
    }

    /// The name of the controller that owns a workload's pods, as shown in causes.
    pub fn owner_name(&self, w: usize) -> String {
        let s = &self.specs[w];
        match s.kind {
            WorkloadKind::Deployment => format!("ReplicaSet {}-{}", s.name, self.template_hash[w]),
            WorkloadKind::StatefulSet => format!("StatefulSet {}", s.name),
            WorkloadKind::DaemonSet => format!("DaemonSet {}", s.name),
            WorkloadKind::Pod => format!("Pod {}", s.name),
        }
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
            if self.used_names.insert(candidate.clone()) {
                return candidate;
            }
        }
    }

    /// Reconciles one workload: creates whatever pods are missing. `why` explains the trigger.
    pub fn sync(&mut self, now: Millis, w: usize, api: &mut Api, log: &mut Log) -> Vec<PodId> {
        let spec = self.specs[w].clone();
        let mut created = Vec::new();
        match spec.kind {
            WorkloadKind::Deployment => {
                let active = self.pods[w].iter().filter(|&&p| api.pods[p].is_active()).count() as u32;
                for i in active..spec.replicas {
                    let replaces = self.pods[w]
                        .iter()
                        .copied()
                        .find(|&p| !api.pods[p].is_active() && !self.replaced.contains(&p));
                    let base = format!("{}-{}", spec.name, self.template_hash[w]);
                    let name = self.unique_name(&base);
                    let cause = match replaces {
                        Some(old) => Cause::new("cause.rs.replacement").text("old", &api.pods[old].name),
                        None => Cause::new("cause.rs.create"),
                    }
                    .text("owner", self.owner_name(w))
                    .text("active", i)
                    .text("replicas", spec.replicas);
                    created.push(self.create(now, w, name, None, None, replaces, api, log, cause));
                }
            }
            WorkloadKind::StatefulSet => {
                for ordinal in 0..spec.replicas {
                    let exists = self.pods[w]
                        .iter()
                        .any(|&p| api.pods[p].ordinal == Some(ordinal) && api.pods[p].exists());
                    if exists {
                        continue;
                    }
                    let name = format!("{}-{ordinal}", spec.name);
                    let replaces = self.pods[w]
                        .iter()
                        .rev()
                        .copied()
                        .find(|&p| api.pods[p].ordinal == Some(ordinal));
                    let cause = match replaces {
                        Some(_) => Cause::new("cause.sts.recreate"),
                        None => Cause::new("cause.sts.create"),
                    }
                    .text("owner", self.owner_name(w))
                    .text("pod", &name);
                    self.used_names.insert(name.clone());
                    created.push(self.create(now, w, name, Some(ordinal), None, replaces, api, log, cause));
                }
            }
            WorkloadKind::DaemonSet => {
                let mut template = spec.tolerations.clone();
                daemonset_tolerations(&mut template);
                for n in 0..api.nodes.len() {
                    if !api.nodes[n].exists {
                        continue;
                    }
                    let has = self.pods[w]
                        .iter()
                        .any(|&p| api.pods[p].is_active() && api.pods[p].node == Some(n));
                    // nodeShouldRunDaemonPod: not on a node with a taint the daemon pods do not tolerate.
                    let blocked = api.nodes[n].taints.iter().any(|t| {
                        matches!(t.effect, Effect::NoSchedule | Effect::NoExecute)
                            && !template.iter().any(|tol| tolerates(tol, t))
                    });
                    if has || blocked {
                        continue;
                    }
                    let name = self.unique_name(&spec.name);
                    let cause = Cause::new("cause.ds.create")
                        .text("owner", self.owner_name(w))
                        .text("node", &api.nodes[n].name);
                    created.push(self.create(now, w, name, None, Some(n), None, api, log, cause));
                }
            }
            WorkloadKind::Pod => {
                if self.pods[w].is_empty() {
                    self.used_names.insert(spec.name.clone());
                    let cause = Cause::new("cause.pod.bare");
                    created.push(self.create(now, w, spec.name.clone(), None, None, None, api, log, cause));
                }
            }
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
        let mut tolerations = spec.tolerations.clone();
        if spec.kind == WorkloadKind::DaemonSet {
            daemonset_tolerations(&mut tolerations);
        }
        default_toleration_seconds(&mut tolerations, &self.api_server);
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
            replaces,
            daemon: spec.kind == WorkloadKind::DaemonSet,
            status_reason: None,
        };
        let id = api.create_pod(now, pod);
        if let Some(old) = replaces {
            self.replaced.insert(old);
        }
        self.pods[w].push(id);
        log.push(Event::new(now, EventKind::PodCreated, cause).pod(id));
        if let Some(n) = node {
            api.bind_pod(now, id, n);
            if log.wants(now, EventKind::PodScheduled) {
                let cause = Cause::new("cause.ds.bind")
                    .text("owner", self.owner_name(w))
                    .text("node", &api.nodes[n].name);
                log.push(Event::new(now, EventKind::PodScheduled, cause).node(n).pod(id));
            }
        }
        id
    }
}

fn random_string(rng: &mut Rng, len: usize) -> String {
    (0..len)
        .map(|_| ALPHABET[rng.below(ALPHABET.len() as u64) as usize] as char)
        .collect()
}
