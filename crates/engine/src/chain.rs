//! Walking an outcome's events back along `after`: the chain of events that led to one.
//!
//! Every event names the one that made it possible (`TimelineEvent::after`), always an earlier
//! one, so a walk back ends, at a fault, an operator's action or the cluster's opening state.
//! Explanations of where the time went read these chains; none is built from a template.

use crate::outcome::TimelineEvent;

/// The events that led to event `id`, from the first (which names none before it) to `id`
/// itself, as indices into `events`. Empty when `id` is not an event of the list.
pub fn chain(events: &[TimelineEvent], id: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = Some(id).filter(|&i| i < events.len());
    while let Some(i) = at {
        out.push(i);
        // `after` always names an earlier event (the wire form checks it too), so this ends.
        at = events[i].after.filter(|&a| a < i);
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cause::Cause;
    use crate::timeline::EventKind;

    fn event(id: usize, after: Option<usize>) -> TimelineEvent {
        TimelineEvent {
            id,
            at_ms: id as i64,
            kind: EventKind::FaultStarted,
            node: None,
            pod: None,
            taint: None,
            zone: None,
            state: None,
            service: None,
            volume: None,
            remediator: None,
            client: None,
            cause: Cause::none(),
            after,
        }
    }

    #[test]
    fn walks_back_to_the_first_and_ignores_a_link_forward() {
        let events = vec![
            event(0, None),
            event(1, Some(0)),
            event(2, None),
            event(3, Some(1)),
            event(4, Some(9)),
        ];
        assert_eq!(chain(&events, 3), vec![0, 1, 3]);
        assert_eq!(chain(&events, 2), vec![2]);
        assert_eq!(chain(&events, 4), vec![4]);
        assert_eq!(chain(&events, 7), Vec::<usize>::new());
    }
}
