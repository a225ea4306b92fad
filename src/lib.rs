//! # wuerfelglueck
//!
//! Which die gives the best chance to win "Mensch ärgere Dich nicht"? The reference answer to
//! task 4 "Würfelglück" of the 40th Bundeswettbewerb Informatik: a rules engine
//! ([`rules`]), dice input ([`dice`]), a parallel, reproducible Monte Carlo engine ([`sim`]),
//! and the value-iteration core ([`fixpoint`]) behind the exact solvers.
#![deny(missing_docs)]
#![warn(unreachable_pub)]

pub mod api;
#[cfg(feature = "cli")]
pub mod cli;
pub mod dice;
pub mod dice_search;
pub mod exact;
pub mod experiments;
pub mod files;
pub mod fixpoint;
pub mod learn;
pub mod pig;
pub mod rank;
pub mod report;
pub mod rules;
pub mod sim;
pub mod sizes;
pub mod stats;
pub mod strategy;
#[cfg(feature = "server")]
pub mod web;
pub mod work;
