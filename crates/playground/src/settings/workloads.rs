//! What sits around the page's `web` and `db`: a Service, a volume, a disruption budget.

use kubelife_engine::scenario::{IntOrString, PdbSection, ServiceField, VolumeSection, WorkloadSection};
use serde::{Deserialize, Serialize};

/// A workload's volume, as the page offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum VolumeChoice {
    /// No volume.
    #[default]
    None,
    /// One ReadWriteOnce claim per pod (a StatefulSet's `volumeClaimTemplates`).
    RwoPerPod,
    /// One ReadWriteOnce claim every pod shares.
    RwoShared,
    /// One ReadWriteMany claim every pod shares.
    Rwx,
}

impl VolumeChoice {
    /// Every choice, in the order the page lists them, with its name in links and its label's
    /// catalogue key.
    pub const ALL: [(VolumeChoice, &'static str, &'static str); 4] = [
        (VolumeChoice::None, "none", "ui.extras.volume.none"),
        (VolumeChoice::RwoPerPod, "rwo-per-pod", "ui.extras.volume.rwo-per-pod"),
        (VolumeChoice::RwoShared, "rwo-shared", "ui.extras.volume.rwo-shared"),
        (VolumeChoice::Rwx, "rwx", "ui.extras.volume.rwx"),
    ];

    /// Its name in links.
    pub fn name(self) -> &'static str {
        VolumeChoice::ALL.iter().find(|c| c.0 == self).map_or("none", |c| c.1)
    }

    /// The choice a link names.
    pub fn parse(name: &str) -> Option<VolumeChoice> {
        VolumeChoice::ALL.iter().find(|c| c.1 == name).map(|c| c.0)
    }

    /// The scenario's `volume`.
    pub(super) fn section(self) -> Option<VolumeSection> {
        let (mode, per_pod) = match self {
            VolumeChoice::None => return None,
            VolumeChoice::RwoPerPod => ("ReadWriteOnce", true),
            VolumeChoice::RwoShared => ("ReadWriteOnce", false),
            VolumeChoice::Rwx => ("ReadWriteMany", false),
        };
        Some(VolumeSection {
            access_mode: Some(mode.into()),
            per_pod: Some(per_pod),
        })
    }
}

/// A workload's PodDisruptionBudget, as the page offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum PdbChoice {
    /// No budget.
    #[default]
    None,
    /// `minAvailable: N`.
    MinAvailable(u32),
    /// `maxUnavailable: N`.
    MaxUnavailable(u32),
}

impl PdbChoice {
    /// The scenario's `pdb`.
    pub(super) fn section(self) -> Option<PdbSection> {
        match self {
            PdbChoice::None => None,
            PdbChoice::MinAvailable(n) => Some(PdbSection {
                min_available: Some(IntOrString::Int(i64::from(n))),
                ..PdbSection::default()
            }),
            PdbChoice::MaxUnavailable(n) => Some(PdbSection {
                max_unavailable: Some(IntOrString::Int(i64::from(n))),
                ..PdbSection::default()
            }),
        }
    }

    /// As a link writes it: `min:N`, `max:N`.
    pub fn text(self) -> Option<String> {
        match self {
            PdbChoice::None => None,
            PdbChoice::MinAvailable(n) => Some(format!("min:{n}")),
            PdbChoice::MaxUnavailable(n) => Some(format!("max:{n}")),
        }
    }

    /// Reads `min:N`, `max:N` or `none`.
    pub fn parse(t: &str) -> Option<PdbChoice> {
        if t == "none" {
            return Some(PdbChoice::None);
        }
        let (kind, n) = t.split_once(':')?;
        let n = n.parse::<u32>().ok().filter(|&n| n <= 30)?;
        match kind {
            "min" => Some(PdbChoice::MinAvailable(n)),
            "max" => Some(PdbChoice::MaxUnavailable(n)),
            _ => None,
        }
    }
}

/// What sits around a workload: a Service in front, a volume, a disruption budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct WorkloadExtras {
    /// Behind a Service.
    pub service: bool,
    /// Its volume.
    pub volume: VolumeChoice,
    /// Its PodDisruptionBudget.
    pub pdb: PdbChoice,
}

impl WorkloadExtras {
    /// What a workload section has of them, when the page offers it.
    pub(super) fn of(w: &WorkloadSection) -> Option<WorkloadExtras> {
        let volume = VolumeChoice::ALL
            .iter()
            .map(|c| c.0)
            .find(|c| c.section() == w.volume)?;
        let whole = |v: &Option<IntOrString>| match v {
            Some(IntOrString::Int(n)) => u32::try_from(*n).ok(),
            _ => None,
        };
        let pdb = match &w.pdb {
            None => PdbChoice::None,
            Some(p) => [
                whole(&p.min_available).map(PdbChoice::MinAvailable),
                whole(&p.max_unavailable).map(PdbChoice::MaxUnavailable),
            ]
            .into_iter()
            .flatten()
            .find(|c| c.section().as_ref() == Some(p))?,
        };
        // The page has no Service object yet: a workload with one is not the page's.
        let service = match &w.service {
            None | Some(ServiceField::Enabled(false)) => false,
            Some(ServiceField::Enabled(true)) => true,
            Some(ServiceField::Object(_)) => return None,
        };
        Some(WorkloadExtras { service, volume, pdb })
    }

    /// Fills a workload section's `service`, `volume` and `pdb`.
    pub(super) fn apply(self, w: &mut WorkloadSection) {
        w.service = self.service.then_some(ServiceField::Enabled(true));
        w.volume = self.volume.section();
        w.pdb = self.pdb.section();
    }
}

/// The default `web`: a Deployment behind a Service.
pub const WEB_EXTRAS: WorkloadExtras = WorkloadExtras {
    service: true,
    volume: VolumeChoice::None,
    pdb: PdbChoice::None,
};

/// The default `db`: a StatefulSet with a ReadWriteOnce volume per pod.
pub const DB_EXTRAS: WorkloadExtras = WorkloadExtras {
    service: false,
    volume: VolumeChoice::RwoPerPod,
    pdb: PdbChoice::None,
};

pub(super) fn web_extras() -> WorkloadExtras {
    WEB_EXTRAS
}

pub(super) fn db_extras() -> WorkloadExtras {
    DB_EXTRAS
}
