//! Test support shared by the workspace's test suites, used only as a dev-dependency (no
//! runtime crate depends on it): a small seeded random number generator, so that random
//! tests are repeatable, and the lists of the shared corpus (`../shared/corpus` beside the
//! workspace), so that every corpus test reads the same files and skips the same way when
//! the corpus is absent.
//!
//! ```
//! use shogi_testkit::Rng;
//!
//! let mut a = Rng::new(7);
//! let mut b = Rng::new(7);
//! let picks: Vec<usize> = (0..5).map(|_| a.below(10)).collect();
//! assert_eq!(picks, (0..5).map(|_| b.below(10)).collect::<Vec<_>>());
//! assert!(picks.iter().all(|&p| p < 10));
//! assert_eq!(a.below(0), 0);
//! ```

pub mod corpus;

/// A xorshift64 generator (Marsaglia's 13/7/17 triple): fast, seeded, the same sequence on
/// every machine. Not for anything but tests.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator started at `seed` (zero is replaced by a fixed non-zero seed, since
    /// xorshift stays at zero forever).
    pub fn new(seed: u64) -> Rng {
        Rng(if seed == 0 {
            0x9e37_79b9_7f4a_7c15
        } else {
            seed
        })
    }

    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n`; 0 when `n` is 0 (so picking from an empty range never panics).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn first_value_is_xorshift64_of_the_seed() {
        // From 1: 1 ^ 1<<13 = 0x2001; ^ >>7 = 0x2041; ^ <<17 = 0x4082_2041 (1082269761).
        assert_eq!(Rng::new(1).next(), 0x4082_2041);
    }

    #[test]
    fn zero_seed_does_not_stick_at_zero() {
        let mut r = Rng::new(0);
        assert_ne!(r.next(), 0);
    }
}
