//! Reproducible random streams: one generator per chunk of games.
//!
//! # Portability
//! The generator is Xoshiro256++ from `rand_xoshiro`, a named algorithm whose output for
//! a seed is fixed (unlike `rand`'s `SmallRng`, which may change between versions). A chunk's
//! seed is a SplitMix64 hash of the user's seed, the matchup and the chunk index, so
//! results depend on those three numbers only, never on how rayon spreads chunks over
//! threads. Distinct keys give independent-looking 256-bit states; streams of 2^256 period
//! started at unrelated points overlap with negligible probability for any feasible run.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The generator used for every simulated game.
pub type GameRng = Xoshiro256PlusPlus;

/// One step of SplitMix64 (Steele, Lea and Flood 2014): a bijective 64-bit mixer.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Identifies a family of streams: the user's seed and which matchup (e.g. the pair's
/// index in a ranking) the games belong to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamKey {
    /// The user's `--seed`.
    pub seed: u64,
    /// Which matchup or experiment within the run.
    pub stream: u64,
}

impl StreamKey {
    /// Key for a single duel.
    pub fn new(seed: u64) -> StreamKey {
        StreamKey { seed, stream: 0 }
    }

    /// The same seed, another matchup.
    pub fn with_stream(self, stream: u64) -> StreamKey {
        StreamKey { stream, ..self }
    }

    /// The generator for chunk `chunk`.
    pub fn rng(&self, chunk: u64) -> GameRng {
        let h = splitmix64(splitmix64(splitmix64(self.seed) ^ self.stream) ^ chunk);
        GameRng::seed_from_u64(h)
    }
}
