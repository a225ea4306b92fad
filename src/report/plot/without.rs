//! The drawing functions of a build without the cargo feature `plot`: each refuses with
//! [`super::NOT_BUILT`] (the commands refuse `--plot` before any work, so none is reached
//! from them).

use crate::experiments::convergence::Convergence;
use crate::experiments::stopping::StoppingComparison;
use crate::pig::Solution;
use crate::rank::Tournament;
use crate::report::{DieLine, PlotError};

fn not_built() -> Result<String, PlotError> {
    Err(PlotError::Failed(super::NOT_BUILT.to_string()))
}

/// Refused: see [`super::NOT_BUILT`].
pub fn decision_map_svg(_: &Solution) -> Result<String, PlotError> {
    not_built()
}

/// Refused: see [`super::NOT_BUILT`].
pub fn convergence_svg(_: &Convergence, _: &str) -> Result<String, PlotError> {
    not_built()
}

/// Refused: see [`super::NOT_BUILT`].
pub fn stopping_svg(_: &StoppingComparison, _: &str) -> Result<String, PlotError> {
    not_built()
}

/// Refused: see [`super::NOT_BUILT`].
pub fn heatmap_svg(_: &Tournament) -> Result<String, PlotError> {
    not_built()
}

/// Refused: see [`super::NOT_BUILT`].
pub fn landscape_svg(_: &[DieLine], _: &str, _: &str) -> Result<String, PlotError> {
    not_built()
}
