//! The one seeded source of randomness.
//!
//! A run has one seed. Every component draws from its own stream derived from that seed and a fixed
//! key (for example "the lease loop of node 3"), so changing one component's settings never
//! reshuffles the random phases of another. The generator is SplitMix64: tiny, fast, and identical
//! on every target, including `wasm32`.

/// A deterministic pseudo-random stream.
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
}

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Keys naming the independent streams derived from a run's seed.
#[derive(Debug, Clone, Copy)]
pub enum Stream {
    /// The status loop of one kubelet (by node index).
    KubeletStatus(usize),
    /// The lease loop of one kubelet (by node index).
    KubeletLease(usize),
    /// The phases of kube-controller-manager's loops.
    ControllerManager,
    /// Generated pod names.
    Names,
    /// The phases of the cloud-controller-manager's loop and the cloud's caches.
    CloudControllerManager,
    /// One client's request phase and the backends its dials reach (by client index).
    #[cfg(feature = "clients")]
    Client(usize),
    /// The phases of one load balancer's health checks (by the workload index of its Service).
    #[cfg(feature = "clients")]
    LoadBalancer(usize),
}

impl Rng {
    /// A stream for `key`, derived from the run's `seed`.
    pub fn stream(seed: u64, key: Stream) -> Rng {
        let (tag, index) = match key {
            Stream::KubeletStatus(i) => (1u64, i as u64),
            Stream::KubeletLease(i) => (2, i as u64),
            Stream::ControllerManager => (3, 0),
            Stream::Names => (4, 0),
            Stream::CloudControllerManager => (5, 0),
            #[cfg(feature = "clients")]
            Stream::Client(i) => (6, i as u64),
            #[cfg(feature = "clients")]
            Stream::LoadBalancer(i) => (7, i as u64),
        };
        let state = mix(mix(seed ^ 0x6b75_6265_6c69_6665) ^ mix(tag << 56 ^ index));
        Rng { state }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.state)
    }

    /// A uniform float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform integer in `[0, bound)`; `bound` of 0 gives 0.
    pub fn below(&mut self, bound: u64) -> u64 {
        if bound == 0 {
            0
        } else {
            ((u128::from(self.next_u64()) * u128::from(bound)) >> 64) as u64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_independent_and_repeatable() {
        let a: Vec<u64> = (0..4)
            .map(|_| Rng::stream(7, Stream::KubeletLease(1)).next_u64())
            .collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        let mut x = Rng::stream(7, Stream::KubeletLease(1));
        let mut y = Rng::stream(7, Stream::KubeletLease(2));
        assert_ne!(x.next_u64(), y.next_u64());
        let mut z = Rng::stream(8, Stream::KubeletLease(1));
        assert_ne!(Rng::stream(7, Stream::KubeletLease(1)).next_u64(), z.next_u64());
    }

    #[test]
    fn unit_and_below_stay_in_range() {
        let mut r = Rng::stream(1, Stream::Names);
        for _ in 0..10_000 {
            let u = r.unit();
            assert!((0.0..1.0).contains(&u));
            assert!(r.below(7) < 7);
        }
        assert_eq!(r.below(0), 0);
    }
}
