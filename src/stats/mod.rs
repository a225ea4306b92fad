//! Statistics: binomial confidence intervals and the sample sizes they imply
//! ([`binomial`]), and confidence sequences, which hold at every game at once
//! ([`sequence`](mod@sequence)). Used by the simulation, the rankings, the search for the
//! best die and the experiments alike; depends on nothing else in the crate.

pub mod binomial;
pub mod sequence;

pub use binomial::{
    Interval, Z95, Z99, Z999, agrees_with, as_pair, games_for_half_width, max_variance,
    mean_of_proportions, normal, score_interval, signed_mean_interval, wilson,
};
pub use sequence::{CS_ALPHA, bernoulli_cs, cs_half_width, cs_half_width_at, sequence};
