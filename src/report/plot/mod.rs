//! The SVG pictures (plotters, SVG backend): the heat map of a ranking, the landscape of a search, the convergence
//! and stopping-rule plots of `converge`, and the decision map of `wubbel` and `pig`.
//!
//! Each function returns the SVG document as text; the command writes it through
//! [`crate::report::OutputFile`], which applies the one overwrite rule. Text is written as
//! SVG `<text>` elements; the crate's plotters build has no font files, so plotters
//! estimates text widths and the viewer picks the font.

//!
//! The pictures need the cargo feature `plot` (on by default; plotters). A build without it
//! refuses `--plot` before any work ([`crate::api::check_plot`]), and these functions,
//! should a caller reach them anyway, answer with `PlotError::Failed` saying so.

#[cfg(feature = "plot")]
mod decision_map;
#[cfg(feature = "plot")]
mod experiments;
#[cfg(feature = "plot")]
mod heatmap;
#[cfg(feature = "plot")]
mod landscape;
#[cfg(not(feature = "plot"))]
mod without;

#[cfg(feature = "plot")]
pub use decision_map::decision_map_svg;
#[cfg(feature = "plot")]
pub use experiments::{convergence_svg, stopping_svg};
#[cfg(feature = "plot")]
pub use heatmap::{heat_colour, heatmap_svg};
#[cfg(feature = "plot")]
pub use landscape::landscape_svg;
#[cfg(not(feature = "plot"))]
pub use without::{convergence_svg, decision_map_svg, heatmap_svg, landscape_svg, stopping_svg};

#[cfg(feature = "plot")]
use crate::report::PlotError;

/// Whether this build draws pictures (the cargo feature `plot`).
pub const DRAWS: bool = cfg!(feature = "plot");

/// Why a build without the feature `plot` draws nothing.
pub const NOT_BUILT: &str =
    "this build draws no pictures: it was built without the cargo feature `plot` (plotters)";

/// The font family of every picture.
#[cfg(feature = "plot")]
const FONT: &str = "sans-serif";

/// A drawing error of plotters as a [`PlotError`].
#[cfg(feature = "plot")]
fn failed(e: impl std::fmt::Display) -> PlotError {
    PlotError::Failed(e.to_string())
}
