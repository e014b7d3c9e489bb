//! The per-zone rate-limited timed queue of the node lifecycle controller.
//!
//! Follows `RateLimitedTimedQueue` and `TokenBucketRateLimiter` in
//! `pkg/controller/nodelifecycle/scheduler/rate_limited_queue.go`: a heap ordered by `processAt`,
//! a de-duplicating set of names, and a token bucket with burst 1 that starts full.

use crate::time::Millis;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A token bucket (`flowcontrol.NewTokenBucketRateLimiter(qps, burst)`); a QPS of 0 never accepts.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenBucket {
    /// Tokens per second.
    pub qps: f64,
    /// Most tokens held.
    pub burst: f64,
    tokens: f64,
    last: Option<Millis>,
}

impl TokenBucket {
    /// A full bucket.
    pub fn new(qps: f64, burst: f64) -> TokenBucket {
        TokenBucket {
            qps,
            burst,
            tokens: burst,
            last: None,
        }
    }

    fn refill(&mut self, now: Millis) {
        if let Some(last) = self.last {
            if now > last {
                self.tokens = (self.tokens + (now - last) as f64 / 1000.0 * self.qps).min(self.burst);
            }
        }
        self.last = Some(self.last.map_or(now, |l| l.max(now)));
    }

    /// Takes a token if one is available (`TryAccept`).
    pub fn try_accept(&mut self, now: Millis) -> bool {
        if self.qps <= 0.0 {
            return false;
        }
        self.refill(now);
        // A tiny epsilon absorbs float error in the accumulation (0.1 × 10 s should be 1 token).
        if self.tokens >= 1.0 - 1e-9 {
            self.tokens = (self.tokens - 1.0).max(0.0);
            true
        } else {
            false
        }
    }

    /// Whether a token is available now, without taking it.
    pub fn has_token(&mut self, now: Millis) -> bool {
        if self.qps <= 0.0 {
            return false;
        }
        self.refill(now);
        self.tokens >= 1.0 - 1e-9
    }
}

/// One queued node.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueItem<V> {
    /// The queued value (a node).
    pub value: V,
    /// When it may be processed, ms.
    pub process_at: Millis,
    /// When it was added, ms.
    pub added_at: Millis,
}

/// What the callback of [`RateLimitedTimedQueue::try_process`] decides for one item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TryResult {
    /// Done: drop it from the heap (it stays in the set).
    Done,
    /// Try again after this many ms.
    RetryAfter(Millis),
}

/// Where a value stands in the queue's de-duplicating set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Member {
    /// Not in the set.
    Out,
    /// In the set, processed (no heap entry).
    Done,
    /// In the set with the heap entry of this sequence number.
    Live(u64),
}

/// The queue (`RateLimitedTimedQueue`) of node indices: a heap ordered by process time, then by
/// insertion, and a de-duplicating set. Removal marks the value's heap entry stale instead of
/// searching the heap, so adding, removing and processing one node cost O(log n) however many
/// nodes wait.
#[derive(Debug, Clone)]
pub struct RateLimitedTimedQueue {
    heap: BinaryHeap<Reverse<(Millis, u64, Millis, usize)>>,
    /// The set, by value.
    set: Vec<Member>,
    /// Heap entries that are live (not stale).
    live: usize,
    seq: u64,
    /// The limiter.
    pub limiter: TokenBucket,
}

impl RateLimitedTimedQueue {
    /// An empty queue with a full bucket of burst 1 (`EvictionRateLimiterBurst`).
    pub fn new(qps: f64) -> Self {
        RateLimitedTimedQueue {
            heap: BinaryHeap::new(),
            set: Vec::new(),
            live: 0,
            seq: 0,
            limiter: TokenBucket::new(qps, 1.0),
        }
    }

    fn member(&self, value: usize) -> Member {
        self.set.get(value).copied().unwrap_or(Member::Out)
    }

    fn set_member(&mut self, value: usize, m: Member) {
        if self.set.len() <= value {
            self.set.resize(value + 1, Member::Out);
        }
        self.set[value] = m;
    }

    fn push(&mut self, value: usize, process_at: Millis, added_at: Millis) {
        self.seq += 1;
        self.set_member(value, Member::Live(self.seq));
        self.heap.push(Reverse((process_at, self.seq, added_at, value)));
        self.live += 1;
    }

    /// Adds `value` unless it is already in the set; returns whether it was added.
    pub fn add(&mut self, value: usize, now: Millis) -> bool {
        if self.member(value) != Member::Out {
            return false;
        }
        self.push(value, now, now);
        true
    }

    /// Removes `value` from heap and set; returns whether it was in the set.
    pub fn remove(&mut self, value: &usize) -> bool {
        match self.member(*value) {
            Member::Out => false,
            m => {
                if matches!(m, Member::Live(_)) {
                    self.live -= 1;
                }
                self.set_member(*value, Member::Out);
                true
            }
        }
    }

    /// Whether `value` is in the de-duplicating set.
    pub fn contains(&self, value: &usize) -> bool {
        self.member(*value) != Member::Out
    }

    /// Whether the heap is empty.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Drops stale entries from the top of the heap; returns the live head.
    fn head(&mut self) -> Option<&(Millis, u64, Millis, usize)> {
        while let Some(&Reverse((_, seq, _, v))) = self.heap.peek() {
            if self.member(v) == Member::Live(seq) {
                break;
            }
            self.heap.pop();
        }
        self.heap.peek().map(|Reverse(e)| e)
    }

    /// Processes due items while tokens last (`Try`). A token is spent even when the head item is
    /// not due yet or its callback asks for a retry.
    pub fn try_process(&mut self, now: Millis, mut f: impl FnMut(&QueueItem<usize>) -> TryResult) {
        while self.head().is_some() {
            if !self.limiter.try_accept(now) {
                break;
            }
            if self.head().is_some_and(|h| h.0 > now) {
                break;
            }
            let Some(Reverse((process_at, _, added_at, value))) = self.heap.pop() else {
                break;
            };
            self.live -= 1;
            self.set_member(value, Member::Done);
            let item = QueueItem {
                value,
                process_at,
                added_at,
            };
            match f(&item) {
                TryResult::Done => {}
                TryResult::RetryAfter(wait) => {
                    // Upstream adds 1ns to the wait; at 1 ms resolution it rounds up to 1 ms.
                    if self.contains(&item.value) {
                        self.push(item.value, now + wait + 1, item.added_at);
                    }
                }
            }
        }
    }

    /// Replaces the limiter's rate (`SwapLimiter`): a no-op for the same rate; a new bucket
    /// otherwise, pre-drained when the old one had no token to give at swap time.
    pub fn swap_limiter(&mut self, qps: f64, now: Millis) {
        if self.limiter.qps == qps {
            return;
        }
        let had_token = self.limiter.has_token(now);
        let mut fresh = TokenBucket::new(qps, 1.0);
        if qps > 0.0 && !had_token {
            fresh.try_accept(now);
        }
        self.limiter = fresh;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn g37_add_after_try_is_ignored_until_removed() {
        let mut q = RateLimitedTimedQueue::new(1000.0);
        q.add(0, 0);
        q.add(1, 0);
        q.add(2, 0);
        q.remove(&1);
        let mut seen = Vec::new();
        // Burst 1: one item per token, and 1000 qps refills one token per millisecond.
        for t in 0..5 {
            q.try_process(t, |i| {
                seen.push(i.value);
                TryResult::Done
            });
        }
        assert_eq!(seen, [0, 2]);
        assert!(!q.add(0, 1), "still in the set after processing");
        let mut again = 0;
        q.try_process(10, |_| {
            again += 1;
            TryResult::Done
        });
        assert_eq!(again, 0);
        q.remove(&0);
        assert!(q.add(0, 20));
    }

    #[test]
    fn g38_retry_requeues_after_wait() {
        let mut q = RateLimitedTimedQueue::new(1_000.0);
        q.add(0, 1);
        q.add(1, 2);
        q.add(2, 3);
        let mut order = Vec::new();
        let mut retried = false;
        for t in 3..10 {
            q.try_process(t, |i| {
                order.push(format!("{}@{}", i.value, i.process_at));
                if i.value == 1 && !retried {
                    retried = true;
                    // Retried at now + 2 ms (+1 ns upstream, +1 ms at this resolution).
                    return TryResult::RetryAfter(2);
                }
                TryResult::Done
            });
        }
        assert_eq!(order, ["0@1", "1@2", "2@3", "1@7"]);
    }

    #[test]
    fn g39_swap_limiter() {
        let mut q = RateLimitedTimedQueue::new(0.1);
        q.swap_limiter(0.0, 0);
        assert!(!q.limiter.try_accept(1_000_000));
        q.swap_limiter(5.5, 0);
        assert_eq!(q.limiter.qps, 5.5);
        let before = q.limiter.clone();
        q.swap_limiter(5.5, 0);
        assert_eq!(q.limiter, before);
    }

    #[test]
    fn g40_three_nodes_ten_seconds_apart() {
        let mut q = RateLimitedTimedQueue::new(0.1);
        for n in [0, 1, 2] {
            q.add(n, 0);
        }
        let mut times = Vec::new();
        let mut t = 0;
        while times.len() < 3 && t < 60_000 {
            q.try_process(t, |_| {
                times.push(t);
                TryResult::Done
            });
            t += 100;
        }
        assert_eq!(times, [0, 10_000, 20_000]);
    }
}
