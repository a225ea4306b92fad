//! The SVG pictures (plotters, SVG backend): the heat map of a ranking, the landscape of a search, the convergence
//! and stopping-rule plots of `converge`, and the decision map of `wubbel` and `pig`.
//!
//! Each function returns the SVG document as text; the command writes it through
//! [`crate::report::OutputFile`], which applies the one overwrite rule. Text is written as
//! SVG `<text>` elements; the crate's plotters build has no font files, so plotters
//! estimates text widths and the viewer picks the font.

mod decision_map;
mod experiments;
mod heatmap;
mod landscape;

pub use decision_map::decision_map_svg;
pub use experiments::{convergence_svg, stopping_svg};
pub use heatmap::{heat_colour, heatmap_svg};
pub use landscape::landscape_svg;

use crate::report::PlotError;
use std::fmt::Display;

/// The font family of every picture.
const FONT: &str = "sans-serif";

/// A drawing error of plotters as a [`PlotError`].
fn failed(e: impl Display) -> PlotError {
    PlotError::Failed(e.to_string())
}
