//! What every exact solver shares, written once (see the module docs of [`crate::exact`]):
//! the state encoding ([`encode`]) and the reachable configurations ([`reachable`]), the
//! boolean fixed points over a successor function ([`search`]), the per-player move tables
//! ([`tables`]), the exact solve of a group of rows ([`group`]), certified intervals
//! ([`bounds`]), the options ([`options`]), the memory guard ([`memory`]) and large arrays
//! ([`huge`]), what a running solve reports and how long it will take ([`progress`]), the
//! measured costs those estimates rest on ([`costs`]), and what a solve answers or why it
//! failed ([`result`], [`error`]), with the checks every result must pass ([`checks`]).

pub mod bounds;
pub mod checks;
pub(crate) mod costs;
pub mod encode;
pub mod error;
pub(crate) mod group;
pub(crate) mod huge;
pub mod memory;
pub mod options;
pub mod progress;
pub mod reachable;
pub mod result;
pub(crate) mod search;
pub(crate) mod tables;

pub use bounds::{Bounds, StateBounds};
pub use error::ExactError;
pub use memory::{MemoryEstimate, estimate_memory};
pub use options::{OptionsError, SolveOptions};
pub use result::{ExactResult, ResultBounds, SolveStats, SolverUsed, check_profile, p_a_starts};
