//! kube-proxy: when the nodes stop sending new connections to a pod.
//!
//! A change to an EndpointSlice makes each proxy that sees it (running, and able to reach the
//! apiserver) call `Sync()`; its runner decides when `syncProxyRules` runs, and the rules take
//! effect when it finishes (`simulation.proxySyncDuration` later). Until 1.33 the runner is
//! `pkg/util/async.BoundedFrequencyRunner`: a token bucket of burst 2 refilled every
//! `minSyncPeriod`, so a quiet proxy syncs at once and a busy one at most once per period. From
//! 1.34 it is `pkg/proxy/runner` (#131615): no burst, and `minSyncPeriod` counts from the end of
//! the previous sync. The rules send cluster traffic to the ready endpoints, or, from 1.26
//! (`ProxyTerminatingEndpoints`), to the serving terminating ones when none is ready
//! (`CategorizeEndpoints`).
//!
//! Every connected proxy sees the same slices at the same moments and runs the same runner, so
//! one runner stands for all of them. Proxies cut off from the apiserver keep their last rules and
//! keep sending to the pods in them.

use crate::api::{Api, PodId};
use crate::cause::Cause;
use crate::scenario::KubeProxyConfig;
use crate::time::Millis;
use crate::timeline::{latest, Event, EventId, EventKind, Log};
use crate::version::Profile;
use crate::world::World;
use std::collections::BTreeSet;

/// A pod that stopped receiving traffic from the connected proxies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped {
    /// The Service (workload index).
    pub service: usize,
    /// The pod.
    pub pod: PodId,
    /// When its containers stopped, if they had by then: new connections sent to it until
    /// `at` went to a node that did not answer (the blackhole).
    pub dead_since: Option<Millis>,
    /// When the last connected proxy's rules stopped sending to it, ms.
    pub at: Millis,
}

/// The connected proxies' shared runner and rules.
#[derive(Debug, Clone)]
pub struct KubeProxy {
    cfg: KubeProxyConfig,
    sync_duration: Millis,
    from_end: bool,
    fallback: bool,
    tokens: f64,
    refilled_at: Millis,
    last_end: Millis,
    /// When the next sync starts, if one is planned.
    pub scheduled: Option<Millis>,
    /// A sync was due while no proxy was in touch with the apiserver: the rules wait for one
    /// to reconnect.
    pub starved: bool,
    /// The event that brought a proxy back after `starved` (its node's `FaultEnded` or
    /// `NodeCreated`): the sync under way follows it.
    pub resumed_by: Option<EventId>,
    running_until: Option<Millis>,
    programmed: Vec<BTreeSet<PodId>>,
    in_progress: Vec<Pending>,
    /// Per Service, how far into `Api::slice_changes` the last sync read.
    read: Vec<usize>,
    /// Per Service, whether the rules are the terminating fallback.
    fell_back: Vec<bool>,
    /// Every pod the connected proxies stopped sending to, in order.
    pub stopped: Vec<Stopped>,
    /// Per Service, how many pods the rules sent to from each time on: (time, count).
    pub sizes: Vec<Vec<(Millis, usize)>>,
}

/// The rules a sync computed for one Service, to take effect when it finishes.
#[derive(Debug, Clone)]
enum Pending {
    /// The whole set (at the start, and around the terminating fallback).
    Full(BTreeSet<PodId>),
    /// Only the pods whose endpoints changed since the last sync: whether each is in the rules.
    Changes(Vec<(PodId, bool)>),
}

/// What a Service's clients saw over a run.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ServiceSummary {
    /// The Service (its workload's name).
    pub service: String,
    /// Pods it should have serving.
    pub desired: u32,
    /// The first pod the connected proxies stopped sending to, ms.
    pub first_traffic_stopped_at_ms: Option<Millis>,
    /// The last, ms.
    pub last_traffic_stopped_at_ms: Option<Millis>,
    /// When a pod the proxies still sent to first stopped running, ms: the blackhole opens.
    pub blackhole_from_ms: Option<Millis>,
    /// When the last such pod left the rules (or the end, if it never did), ms.
    pub blackhole_until_ms: Option<Millis>,
    /// Time during which the rules sent some new connections to a pod that did not answer, ms.
    pub blackhole_ms: Millis,
    /// Time with fewer pods in the connected proxies' rules than desired, ms.
    pub fewer_serving_ms: Millis,
    /// Time with fewer ready endpoints in the EndpointSlice than desired (what clients of the
    /// API, such as external load balancers, see), ms.
    pub fewer_ready_endpoints_ms: Millis,
    /// How many pods the connected proxies' rules sent to, from each time on (from 0): (ms, pods).
    pub serving: Vec<(Millis, u32)>,
    /// The blackhole intervals, overlaps merged: (from, until), ms.
    pub blackholes: Vec<(Millis, Millis)>,
}

impl KubeProxy {
    /// The proxies of a cluster whose Services are the workloads marked in `services`.
    pub fn new(cfg: &KubeProxyConfig, sync_duration: Millis, p: &Profile, services: usize) -> Self {
        KubeProxy {
            cfg: cfg.clone(),
            sync_duration,
            from_end: p.proxy_runner_from_end,
            fallback: p.serving_terminating_fallback,
            tokens: 2.0,
            refilled_at: Millis::MIN,
            last_end: Millis::MIN,
            scheduled: None,
            starved: false,
            resumed_by: None,
            running_until: None,
            programmed: vec![BTreeSet::new(); services],
            in_progress: Vec::new(),
            read: vec![0; services],
            fell_back: vec![false; services],
            stopped: Vec::new(),
            sizes: vec![Vec::new(); services],
        }
    }

    /// The rules of Service `w` for the slice as it is: its ready endpoints, or its serving
    /// terminating ones when none is ready and the version falls back to them.
    /// The sets are built by inserting (`order::set`): a `collect` would sort first, in a copy
    /// of the standard sort that only this would bring into the engine's worker.
    fn rules(&self, api: &Api, w: usize) -> BTreeSet<PodId> {
        let slice = &api.slices[w];
        let ready = crate::order::set(slice.iter().filter(|(_, e)| e.ready).map(|(&p, _)| p));
        if !ready.is_empty() || !self.fallback {
            return ready;
        }
        crate::order::set(
            slice
                .iter()
                .filter(|(_, e)| e.serving && e.terminating)
                .map(|(&p, _)| p),
        )
    }

    /// The pods Service `w`'s rules send to now.
    #[cfg(feature = "clients")]
    pub fn programmed(&self, w: usize) -> &BTreeSet<PodId> {
        &self.programmed[w]
    }

    /// The rules every proxy runs at the start of a run.
    pub fn initialize(&mut self, api: &Api) {
        for w in 0..self.programmed.len() {
            self.programmed[w] = self.rules(api, w);
            self.sizes[w] = vec![(0, self.programmed[w].len())];
            self.read[w] = api.slice_changes.get(w).map_or(0, Vec::len);
            self.fell_back[w] = self.fallback && api.slice_ready.get(w).is_some_and(|&r| r == 0);
        }
    }

    /// What a sync starting now programs for Service `w`: the pods whose endpoints changed since
    /// the last sync, each in or out, so that a sync costs what changed; the whole set while
    /// the version's terminating fallback (`CategorizeEndpoints`: serving terminating endpoints
    /// when none is ready) is or was in play, since then every endpoint counts.
    fn pending(&mut self, api: &Api, w: usize) -> Pending {
        let changes = api.slice_changes.get(w).map_or(&[][..], Vec::as_slice);
        let new = &changes[self.read[w].min(changes.len())..];
        self.read[w] = changes.len();
        let none_ready = api.slice_ready.get(w).is_some_and(|&r| r == 0);
        if self.fallback && (none_ready || self.fell_back[w]) {
            self.fell_back[w] = none_ready;
            return Pending::Full(self.rules(api, w));
        }
        let slice = &api.slices[w];
        let mut out: Vec<(PodId, bool)> = new
            .iter()
            .map(|&p| (p, slice.get(&p).is_some_and(|e| e.ready)))
            .collect();
        // A pod changed twice counts once, as it is now.
        crate::order::sort_by_key(&mut out, |c| c.0);
        out.dedup_by_key(|c| c.0);
        Pending::Changes(out)
    }

    /// A slice change reached the proxies at `now`: plans a sync unless one is planned already.
    /// Returns when it starts, for the driver to wake [`Self::start`].
    pub fn request(&mut self, now: Millis) -> Option<Millis> {
        if self.scheduled.is_some() {
            return None;
        }
        let free = self.running_until.map_or(now, |end| end.max(now));
        let min = self.cfg.min_sync_period;
        let at = if min == 0 {
            free
        } else if self.from_end {
            // pkg/proxy/runner: at least minSyncPeriod after the previous sync finished.
            free.max(self.last_end.saturating_add(min))
        } else {
            // BoundedFrequencyRunner: a token now, or when the next one accrues.
            self.refill(free);
            if self.tokens >= 1.0 - 1e-9 {
                free
            } else {
                free + ((1.0 - self.tokens) * min as f64).ceil() as Millis
            }
        };
        self.scheduled = Some(at);
        Some(at)
    }

    fn refill(&mut self, now: Millis) {
        let min = self.cfg.min_sync_period.max(1) as f64;
        if self.refilled_at != Millis::MIN && now > self.refilled_at {
            self.tokens = (self.tokens + (now - self.refilled_at) as f64 / min).min(2.0);
        }
        self.refilled_at = self.refilled_at.max(now);
    }

    /// A planned sync starts: the rules are computed from the slices the proxies see now.
    /// Returns when it finishes.
    pub fn start(&mut self, now: Millis, api: &Api) -> Millis {
        self.scheduled = None;
        if !self.from_end && self.cfg.min_sync_period > 0 {
            self.refill(now);
            self.tokens -= 1.0;
        }
        self.in_progress = (0..self.programmed.len()).map(|w| self.pending(api, w)).collect();
        let end = now + self.sync_duration;
        self.running_until = Some(end);
        end
    }

    /// The sync finishes: the new rules take effect. Records `TrafficStopped` for every pod the
    /// rules no longer send to. `connected` proxies ran it; `cut_off` ones, running but out of
    /// touch with the apiserver, keep their old rules.
    pub fn finish(&mut self, w: &mut World, (connected, cut_off): (usize, usize)) {
        let now = w.now;
        let World { api, log, .. } = w;
        let api = &*api;
        self.running_until = None;
        self.last_end = now;
        let new = std::mem::take(&mut self.in_progress);
        for (w, pending) in new.into_iter().enumerate() {
            let before = self.programmed[w].len();
            let (gone, came): (Vec<PodId>, Vec<PodId>) = match pending {
                Pending::Full(rules) => {
                    let gone = self.programmed[w].difference(&rules).copied().collect();
                    let came = rules.difference(&self.programmed[w]).copied().collect();
                    self.programmed[w] = rules;
                    (gone, came)
                }
                Pending::Changes(changes) => {
                    // Sorted by pod, as the set differences above are.
                    let rules = &mut self.programmed[w];
                    let (mut gone, mut came) = (Vec::new(), Vec::new());
                    for (p, keep) in changes {
                        if keep {
                            if rules.insert(p) {
                                came.push(p);
                            }
                        } else if rules.remove(&p) {
                            gone.push(p);
                        }
                    }
                    (gone, came)
                }
            };
            self.record_started(now, w, &came, api, log, connected);
            for p in gone {
                let pod = &api.pods[p];
                let dead_since = pod.stopped_at.filter(|_| !pod.running);
                self.stopped.push(Stopped {
                    service: w,
                    pod: p,
                    dead_since,
                    at: now,
                });
                let what = match dead_since {
                    Some(t) => Cause::new("cause.part.traffic_blackhole").time("since", t),
                    None => Cause::new("cause.part.traffic_alive"),
                };
                let others = if cut_off > 0 {
                    Cause::new("cause.part.proxies_cut_off").text("count", cut_off)
                } else {
                    Cause::none()
                };
                let cause = Cause::new("cause.proxy.stopped")
                    .text("connected", connected)
                    .text("mode", self.cfg.mode.name())
                    .time("min", self.cfg.min_sync_period)
                    .time("sync", self.sync_duration)
                    .sub("what", what)
                    .sub("others", others);
                // The slice change the proxies acted on, or a proxy's return if none could read it.
                let after = latest([log.index.pod(p).endpoint, self.resumed_by]);
                let mut e = Event::new(now, EventKind::TrafficStopped, cause).pod(p).after(after);
                e.node = pod.node;
                e.service = Some(w);
                log.push(e);
            }
            if self.programmed[w].len() != before {
                self.sizes[w].push((now, self.programmed[w].len()));
            }
        }
        self.resumed_by = None;
    }

    /// Records `TrafficStarted` for each pod of Service `w` that the rules now send to.
    fn record_started(&self, now: Millis, w: usize, came: &[PodId], api: &Api, log: &mut Log, connected: usize) {
        if !log.wants(now, EventKind::TrafficStarted) {
            return;
        }
        for &p in came {
            let cause = Cause::new("cause.proxy.started")
                .text("connected", connected)
                .text("mode", self.cfg.mode.name())
                .time("min", self.cfg.min_sync_period)
                .time("sync", self.sync_duration);
            let after = log.index.pod(p).endpoint;
            let mut e = Event::new(now, EventKind::TrafficStarted, cause).pod(p).after(after);
            e.node = api.pods[p].node;
            e.service = Some(w);
            log.push(e);
        }
    }

    /// What each Service's clients saw: `services[w]` is Service `w`'s (name, desired pods).
    /// `ready_counts[w]` is the slice's ready endpoints over time.
    pub fn summaries(
        &self,
        api: &Api,
        services: &[Option<(String, u32)>],
        ready_counts: &[Vec<(Millis, usize)>],
        end: Millis,
    ) -> Vec<ServiceSummary> {
        let mut out = Vec::new();
        for (w, s) in services.iter().enumerate() {
            let Some((name, desired)) = s else { continue };
            let stopped: Vec<&Stopped> = self.stopped.iter().filter(|s| s.service == w).collect();
            // Blackhole intervals: pods that left the rules after they died, and pods that are
            // dead and still in the rules at the end.
            let mut holes: Vec<(Millis, Millis)> = stopped
                .iter()
                .filter_map(|s| s.dead_since.map(|d| (d.max(0), s.at)))
                .collect();
            for &p in &self.programmed[w] {
                let pod = &api.pods[p];
                if let (false, Some(d)) = (pod.running, pod.stopped_at) {
                    holes.push((d.max(0), end));
                }
            }
            crate::order::sort(&mut holes);
            let blackhole_ms = union_length(&holes);
            let fewer_serving_ms = time_below(&self.sizes[w], *desired as usize, end);
            out.push(ServiceSummary {
                service: name.clone(),
                desired: *desired,
                first_traffic_stopped_at_ms: stopped.iter().map(|s| s.at).min(),
                last_traffic_stopped_at_ms: stopped.iter().map(|s| s.at).max(),
                blackhole_from_ms: holes.iter().map(|h| h.0).min(),
                blackhole_until_ms: holes.iter().map(|h| h.1).max(),
                blackhole_ms,
                fewer_serving_ms,
                fewer_ready_endpoints_ms: time_below(&ready_counts[w], *desired as usize, end),
                serving: steps_from_zero(&self.sizes[w], end),
                blackholes: merged(&holes),
            });
        }
        out
    }
}

/// The total length of sorted intervals, overlaps counted once.
fn union_length(sorted: &[(Millis, Millis)]) -> Millis {
    let mut total = 0;
    let mut cur: Option<(Millis, Millis)> = None;
    for &(a, b) in sorted {
        match cur {
            Some((s, e)) if a <= e => cur = Some((s, e.max(b))),
            Some((s, e)) => {
                total += e - s;
                cur = Some((a, b));
            }
            None => cur = Some((a, b)),
        }
    }
    total + cur.map_or(0, |(s, e)| e - s)
}

/// Sorted intervals with overlaps merged.
fn merged(sorted: &[(Millis, Millis)]) -> Vec<(Millis, Millis)> {
    let mut out: Vec<(Millis, Millis)> = Vec::new();
    for &(a, b) in sorted {
        match out.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

/// A step function as the run shows it: changes during the warm-up fold into the value at 0,
/// repeats are dropped, and nothing after `end` is kept.
fn steps_from_zero(steps: &[(Millis, usize)], end: Millis) -> Vec<(Millis, u32)> {
    let mut out: Vec<(Millis, u32)> = Vec::new();
    for &(t, v) in steps {
        let (t, v) = (t.max(0), v as u32);
        if t > end {
            break;
        }
        match out.last_mut() {
            Some(last) if last.0 == t => last.1 = v,
            Some(last) if last.1 == v => {}
            _ => out.push((t, v)),
        }
    }
    out
}

/// Time before `end` during which a step function (time, value) is below `desired`.
fn time_below(steps: &[(Millis, usize)], desired: usize, end: Millis) -> Millis {
    let mut total = 0;
    for (i, &(t, v)) in steps.iter().enumerate() {
        // Syncs during the warm-up before t = 0 change the rules too; only the run counts.
        let t = t.max(0);
        let next = steps.get(i + 1).map_or(end, |s| s.0).min(end);
        if v < desired && next > t {
            total += next - t;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_and_steps() {
        assert_eq!(union_length(&[(0, 10), (5, 15), (20, 25)]), 20);
        assert_eq!(time_below(&[(0, 3), (10, 2), (30, 3)], 3, 100), 20);
        assert_eq!(time_below(&[(0, 3), (10, 2)], 3, 50), 40);
        assert_eq!(time_below(&[(0, 3), (-17_000, 2), (-5_000, 2)], 3, 50), 50);
    }
}
