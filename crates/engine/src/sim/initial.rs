//! The timeline's opening: the cluster as it runs at time 0.

use super::Simulation;
use crate::api::CondStatus;
use crate::cause::Cause;
use crate::timeline::{Event, EventKind};

impl Simulation {
    pub(super) fn record_initial_state(&mut self) {
        let api = &self.w.api;
        for (n, node) in api.nodes.iter().enumerate().filter(|(_, node)| node.exists) {
            let zone = if node.zone.is_empty() {
                Cause::new("cause.part.no_zone")
            } else {
                Cause::new("cause.part.zone").text("zone", &node.zone)
            };
            self.w.log.push(
                Event::new(
                    0,
                    EventKind::NodeRegistered,
                    Cause::new("cause.initial.registered").sub("zone", zone),
                )
                .node(n),
            );
            if node.status.latest().ready_status() == Some(CondStatus::True) {
                let beat = if self.kubelet_settings.node_lease {
                    "cause.part.beat_lease"
                } else {
                    "cause.part.beat_no_lease"
                };
                let cause = Cause::new("cause.initial.ready").sub("beat", Cause::new(beat));
                self.w.log.push(Event::new(0, EventKind::NodeReady, cause).node(n));
            }
        }
        for (p, pod) in api.pods.iter().enumerate() {
            if !pod.exists() {
                continue;
            }
            let owner = self.workloads.owner_name(pod.workload);
            self.w.log.push(
                Event::new(
                    0,
                    EventKind::PodCreated,
                    Cause::new("cause.initial.pod").text("owner", owner),
                )
                .pod(p),
            );
            if let Some(n) = pod.node {
                self.w.log.push(
                    Event::new(
                        0,
                        EventKind::PodScheduled,
                        Cause::new("cause.initial.running").text("node", &api.nodes[n].name),
                    )
                    .node(n)
                    .pod(p),
                );
                if pod.ready == Some(true) {
                    self.w.log.push(
                        Event::new(0, EventKind::PodReady, Cause::new("cause.initial.pod_ready"))
                            .node(n)
                            .pod(p),
                    );
                }
            }
        }
    }
}
