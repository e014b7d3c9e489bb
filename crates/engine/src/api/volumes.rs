//! Persistent volumes as the apiserver holds them: one per claim, with the nodes it is attached
//! to (`node.status.volumesAttached`, written by the attach-detach controller) and the nodes
//! whose kubelet reports it mounted (`node.status.volumesInUse`), and the attaches and detaches
//! the storage driver has under way (the `VolumeAttachment` objects the attach-detach controller
//! created or deleted: they outlive a restart of kube-controller-manager).

use super::{NodeId, PodId};
use crate::timeline::EventId;
use std::collections::BTreeSet;

/// What a workload claims: its name, whether the volume is `ReadWriteMany`, and, for a claim
/// per pod, how many ordinals.
#[derive(Debug, Clone, PartialEq)]
pub struct Claim {
    /// The workload's name.
    pub workload: String,
    /// `ReadWriteMany`.
    pub many: bool,
    /// `Some(replicas)` for one claim per StatefulSet ordinal; `None` for one shared claim.
    pub per_pod: Option<u32>,
}

/// Index of a volume in [`Volumes::list`].
pub type VolumeId = usize;

/// A volume's attaches or detaches under way: nodes, each with the event that let the operation
/// start, in node order. A volume has a few at most, so a vector serves, and the wasm carries no
/// tree of its own for them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Operations(Vec<(NodeId, Option<EventId>)>);

impl Operations {
    /// Whether an operation on node `n` is under way.
    pub fn contains_key(&self, n: &NodeId) -> bool {
        self.0.iter().any(|(m, _)| m == n)
    }

    /// Records an operation on node `n`, after `after` (replacing one under way there).
    pub fn insert(&mut self, n: NodeId, after: Option<EventId>) {
        match self.0.binary_search_by_key(&n, |&(m, _)| m) {
            Ok(i) => self.0[i].1 = after,
            Err(i) => self.0.insert(i, (n, after)),
        }
    }

    /// Ends the operation on node `n`: the event it followed, if one was under way.
    pub fn remove(&mut self, n: &NodeId) -> Option<Option<EventId>> {
        let i = self.0.iter().position(|(m, _)| m == n)?;
        Some(self.0.remove(i).1)
    }

    /// Whether no operation is under way.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// One claim's volume.
#[derive(Debug, Clone, PartialEq)]
pub struct Volume {
    /// The claim's name (`data-<pod>` for a StatefulSet's `volumeClaimTemplates`, `<workload>-data`
    /// for a shared claim).
    pub name: String,
    /// Whether several nodes may attach it (`ReadWriteMany`, `IsMultiAttachAllowed`).
    pub many: bool,
    /// Nodes it is attached to.
    pub attached_to: BTreeSet<NodeId>,
    /// Nodes whose kubelet reports it in use (mounted).
    pub in_use_by: BTreeSet<NodeId>,
    /// Nodes it is being attached to (a `VolumeAttachment` exists, not yet `status.attached`),
    /// each with the event that let the attach start, for the one that ends it.
    pub attaching: Operations,
    /// Nodes it is being detached from (their `VolumeAttachment` is being deleted), each with
    /// the event that let the detach start.
    pub detaching: Operations,
    /// Every pod that ever used it.
    pub pods: Vec<PodId>,
}

impl Volume {
    /// Whether `node.status.volumesAttached` of node `n` lists the volume: attached there and no
    /// detach under way, since the attach-detach controller takes it out of the list before it
    /// starts a detach (`RemoveVolumeFromReportAsAttached`, "no longer safe to mount"). The
    /// kubelet mounts only a volume listed there (`VerifyControllerAttachedVolume`).
    pub fn reported_attached(&self, n: NodeId) -> bool {
        self.attached_to.contains(&n) && !self.detaching.contains_key(&n)
    }

    /// Whether a storage operation on the volume under way keeps the controller from starting
    /// an attach to node `n` (`IsOperationPending`): for a volume several nodes may attach, one
    /// on `n`; for any other, one on any node (its operations are keyed by the volume alone).
    pub fn operation_pending(&self, n: NodeId) -> bool {
        if self.many {
            self.attaching.contains_key(&n) || self.detaching.contains_key(&n)
        } else {
            !self.attaching.is_empty() || !self.detaching.is_empty()
        }
    }
}

/// All volumes, and which one each workload's pods use.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Volumes {
    /// The volumes.
    pub list: Vec<Volume>,
    /// Per workload: its shared volume, if any.
    shared: Vec<Option<VolumeId>>,
    /// Per StatefulSet with a claim per pod: the volume of each ordinal.
    per_ordinal: Vec<Vec<VolumeId>>,
}

impl Volumes {
    /// The volumes the workloads claim (`claims[w]` for workload `w`).
    pub fn new(claims: &[Option<Claim>]) -> Volumes {
        let mut v = Volumes {
            shared: vec![None; claims.len()],
            per_ordinal: vec![Vec::new(); claims.len()],
            ..Volumes::default()
        };
        for (w, claim) in claims.iter().enumerate() {
            let Some(c) = claim else { continue };
            let mut add = |name: String| {
                v.list.push(Volume {
                    name,
                    many: c.many,
                    attached_to: BTreeSet::new(),
                    in_use_by: BTreeSet::new(),
                    attaching: Operations::default(),
                    detaching: Operations::default(),
                    pods: Vec::new(),
                });
                v.list.len() - 1
            };
            match c.per_pod {
                Some(replicas) => {
                    let ids = (0..replicas).map(|o| add(format!("data-{}-{o}", c.workload))).collect();
                    v.per_ordinal[w] = ids;
                }
                None => v.shared[w] = Some(add(format!("{}-data", c.workload))),
            }
        }
        v
    }

    /// Whether any workload claims a volume.
    pub fn any(&self) -> bool {
        !self.list.is_empty()
    }

    /// The volume a pod of workload `w` with this ordinal uses.
    pub fn of(&self, w: usize, ordinal: Option<u32>) -> Option<VolumeId> {
        if let Some(o) = ordinal {
            if let Some(&v) = self.per_ordinal.get(w).and_then(|ids| ids.get(o as usize)) {
                return Some(v);
            }
        }
        self.shared.get(w).copied().flatten()
    }
}
