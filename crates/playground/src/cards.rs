//! The milestone cards: what each says, measured from the fault. The headline (the failed node's
//! Unknown, NoExecute taint, first deletion and first replacement Ready, or a many-node outage's
//! first and last of each), then the cards that apply: with a Service, traffic stopped and the
//! Service whole again; with a cloud or a remediator, the Node deleted and the remediation
//! started (or held back, and why); with a volume, the volume free; with a StatefulSet on a
//! volume, the database Ready again (or why not). The shell draws them.

use crate::explain::{milestone_text, range_text, restored_text, Milestones, Outage};
use crate::i18n::{cause, tr, Lang};
use crate::model::Run;
use kubelife_engine::cause::Arg;
use kubelife_engine::milestones::Restored;
use kubelife_engine::{Cause, Outcome};

/// One card: its test id (also its tour anchor), its label's key, its value, and a line under
/// it that says why, when the value alone would mislead (otherwise "after the fault").
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    /// Test id and tour anchor.
    pub id: &'static str,
    /// The label's catalogue key.
    pub key: &'static str,
    /// The value: a time, `never`, `blocked`.
    pub text: String,
    /// Why, in the reader's language, when the card needs it.
    pub why: Option<String>,
}

fn card(id: &'static str, key: &'static str, text: String) -> Card {
    Card {
        id,
        key,
        text,
        why: None,
    }
}

/// The headline cards: a many-node outage's spread, else the failed node's own milestones. The
/// phone strip shows the same ones.
pub fn headline(lang: Lang, run: &Run) -> Vec<Card> {
    match &run.outage {
        Some(o) => outage_cards(lang, o),
        None => node_cards(lang, &run.outcome, &run.milestones),
    }
}

/// Who force-deleted a pod without a graceful DELETE first, by its `PodRemoved`'s cause: the
/// first deletion card's label names them.
const DELETERS: [(&str, &str); 3] = [
    ("cause.podgc.", "ui.milestone.deleted_podgc"),
    ("cause.remediation.", "ui.milestone.deleted_remediator"),
    ("cause.force_deleted", "ui.milestone.deleted_forced"),
];

/// The headline cards of one failed node: its milestones after its fault. A first deletion
/// that was a force delete (PodGC's orphans, a remediator's, an operator's) says by whom.
fn node_cards(lang: Lang, o: &Outcome, ms: &Milestones) -> Vec<Card> {
    let first = ms.events.eviction.and_then(|i| o.events.get(i));
    let forced = first.filter(|e| e.kind == kubelife_engine::EventKind::PodRemoved);
    let by = forced.and_then(|e| DELETERS.iter().find(|d| e.cause.key.starts_with(d.0)));
    vec![
        card(
            "milestone-unknown",
            "ui.milestone.unknown",
            milestone_text(lang, ms.unknown),
        ),
        card("milestone-taint", "ui.milestone.taint", milestone_text(lang, ms.taint)),
        card(
            "milestone-eviction",
            by.map_or("ui.milestone.eviction", |d| d.1),
            milestone_text(lang, ms.eviction),
        ),
        card(
            "milestone-replacement",
            "ui.milestone.replacement",
            milestone_text(lang, ms.replacement),
        ),
    ]
}

/// The headline cards of a many-node outage: the first and last of each milestone, and when
/// every workload was whole again.
fn outage_cards(lang: Lang, o: &Outage) -> Vec<Card> {
    vec![
        card("milestone-unknown", "ui.milestone.unknown", range_text(lang, o.unknown)),
        card("milestone-taint", "ui.milestone.taint", range_text(lang, o.taint)),
        card(
            "milestone-eviction",
            "ui.milestone.evictions",
            range_text(lang, o.eviction),
        ),
        card(
            "milestone-replacement",
            "ui.milestone.all_replaced",
            restored_text(lang, o.replaced),
        ),
    ]
}

/// A held-back repair's reason in a few words, by the key of its breaker (or of the blocked
/// cause itself when it has none): the same values as the event's full text.
const BLOCKED: [(&str, &str); 5] = [
    ("cause.part.mhc_breaker", "ui.blocked.mhc"),
    ("cause.part.karpenter_breaker", "ui.blocked.karpenter"),
    ("cause.part.nhc_breaker", "ui.blocked.nhc"),
    ("cause.part.eks_breaker", "ui.blocked.eks"),
    ("cause.remediation.aks_blocked", "ui.blocked.aks"),
];

/// Why a remediation was held back, from its `RemediationBlocked`'s cause, in a few words; the
/// whole cause when it names no breaker the page knows.
pub fn blocked_reason(lang: Lang, why: &Cause) -> String {
    let breaker = match why.arg("breaker") {
        Some(Arg::Cause(b)) => b,
        _ => why,
    };
    match BLOCKED.iter().find(|b| b.0 == breaker.key) {
        Some(&(_, key)) => cause(
            lang,
            &Cause {
                key,
                args: breaker.args.clone(),
            },
        ),
        None => cause(lang, why),
    }
}

/// The cards that apply beside the headline, in order.
pub fn more(lang: Lang, run: &Run) -> Vec<Card> {
    let ms = &run.milestones;
    let mut out = Vec::new();
    if !run.outcome.summary.services.is_empty() {
        out.push(card(
            "milestone-traffic-stopped",
            "ui.milestone.traffic_stopped",
            milestone_text(lang, ms.traffic_stopped),
        ));
        let restored = restored_text(lang, ms.service_restored);
        out.push(card(
            "milestone-service-restored",
            "ui.milestone.service_restored",
            restored,
        ));
    }
    let blocked = ms.events.blocked.and_then(|i| run.outcome.events.get(i));
    // With a cloud controller or a remediator: the failed node's deletion and its remediation,
    // or the breaker that held the remediation back.
    if run.cfg.cloud.is_some() || !run.cfg.remediation.is_empty() {
        out.push(card(
            "milestone-node-deleted",
            "ui.milestone.node_deleted",
            milestone_text(lang, ms.node_deleted),
        ));
        out.push(match blocked {
            Some(e) if ms.remediation.is_none() => Card {
                why: Some(blocked_reason(lang, &e.cause)),
                ..card(
                    "milestone-remediation",
                    "ui.milestone.remediation",
                    tr(lang, "ui.milestone.blocked").into(),
                )
            },
            _ => card(
                "milestone-remediation",
                "ui.milestone.remediation",
                milestone_text(lang, ms.remediation),
            ),
        });
    }
    if run.volumes {
        out.push(card(
            "milestone-volume-free",
            "ui.milestone.volume_free",
            milestone_text(lang, ms.volume_free),
        ));
    }
    if let Some(db) = run.database {
        let why =
            (db == Restored::Never && blocked.is_some()).then(|| tr(lang, "ui.milestone.database_blocked").into());
        out.push(Card {
            why,
            ..card(
                "milestone-database-ready",
                "ui.milestone.database_ready",
                restored_text(lang, db),
            )
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(query: &str, lang: Lang) -> Vec<Card> {
        let run = Run::simulate(crate::link::decode(query).settings);
        let mut out = headline(lang, &run);
        out.extend(more(lang, &run));
        out
    }

    fn find<'a>(cards: &'a [Card], id: &str) -> &'a Card {
        cards
            .iter()
            .find(|c| c.id == id)
            .unwrap_or_else(|| panic!("no {id} in {cards:#?}"))
    }

    /// Each case: a link query, the card, its label key, value and why (`None`: the card is
    /// absent).
    #[test]
    fn the_cards_say_what_happened_and_why() {
        type Case = (
            &'static str,
            &'static str,
            Option<(&'static str, &'static str, Option<&'static str>)>,
        );
        const HELD: &str = "remediation=mhc&max-unhealthy=40%25&fault-nodes=2";
        let cases: [Case; 11] = [
            // Without a volume there is no database card.
            ("db-volume=none", "milestone-database-ready", None),
            // A crash nobody repairs: db-0 stays on node-1, so the database never comes back.
            (
                "",
                "milestone-database-ready",
                Some(("ui.milestone.database_ready", "never", None)),
            ),
            // EKS: PodGC deletes node-1's orphans once the cloud controller deleted the Node.
            (
                "fault=node-1:InstanceTerminated:30&cloud=aws",
                "milestone-eviction",
                Some(("ui.milestone.deleted_podgc", "1m31.2s", None)),
            ),
            (
                "fault=node-1:InstanceTerminated:30&cloud=aws",
                "milestone-database-ready",
                Some(("ui.milestone.database_ready", "9m51.8s", None)),
            ),
            (
                "remediation=mhc",
                "milestone-remediation",
                Some(("ui.milestone.remediation", "5m45.5s", None)),
            ),
            // An operator's drain is the fault: kubectl drain evicts at once, the web pod's
            // replacement is Ready 5.1s later (podStartup 5s).
            (
                "fault=node-1:Drain:30",
                "milestone-eviction",
                Some(("ui.milestone.eviction", "0s", None)),
            ),
            (
                "fault=node-1:Drain:30",
                "milestone-replacement",
                Some(("ui.milestone.replacement", "5.1s", None)),
            ),
            (
                "fault=node-1:Drain:30",
                "milestone-database-ready",
                Some(("ui.milestone.database_ready", "23.6s", None)),
            ),
            // Two nodes down, both repaired: the MachineHealthCheck's drains are the outage's
            // deletions.
            (
                "remediation=mhc&fault-nodes=2",
                "milestone-eviction",
                Some(("ui.milestone.evictions", "5m45.5s – 8m11.2s", None)),
            ),
            // Two nodes of three down, at most 40% (one) allowed: the repair is held back.
            (
                HELD,
                "milestone-remediation",
                Some((
                    "ui.milestone.remediation",
                    "blocked",
                    Some("maxUnhealthy: 2 of 3 machines not healthy, at most 1 allowed"),
                )),
            ),
            (
                HELD,
                "milestone-database-ready",
                Some((
                    "ui.milestone.database_ready",
                    "never",
                    Some("the remediation was held back"),
                )),
            ),
        ];
        for (query, id, want) in cases {
            let all = cards(query, Lang::En);
            let got = all.iter().find(|c| c.id == id);
            let got = got.map(|c| (c.key, c.text.as_str(), c.why.as_deref()));
            assert_eq!(got, want, "{query}: {id}");
        }
    }

    /// The outage's workload lines name the node whose held-back repair keeps them short.
    #[test]
    fn a_workload_short_behind_a_held_back_repair_names_the_node() {
        let run = Run::simulate(crate::link::decode("remediation=mhc&max-unhealthy=40%25&fault-nodes=2").settings);
        let blocked: Vec<(&str, Option<&str>)> = run
            .spread
            .workloads
            .iter()
            .map(|w| (w.workload.as_str(), w.blocked.as_deref()))
            .collect();
        // web's pods moved; db-0 and agent's pod wait on node-1, which nothing repairs.
        assert_eq!(
            blocked,
            [("web", None), ("db", Some("node-1")), ("agent", Some("node-1"))]
        );
        let ok = Run::simulate(crate::link::decode("remediation=mhc&fault-nodes=2").settings);
        assert!(ok.spread.workloads.iter().all(|w| w.blocked.is_none()));
    }

    #[test]
    fn a_held_back_repair_reads_in_chinese() {
        let all = cards("remediation=mhc&max-unhealthy=40%25&fault-nodes=2", Lang::Zh);
        let c = find(&all, "milestone-remediation");
        assert_eq!(c.text, "被拦下");
        assert_eq!(
            c.why.as_deref(),
            Some("maxUnhealthy：3 台机器中 2 台不健康，最多允许 1 台")
        );
    }
}
