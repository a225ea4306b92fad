//! The landscape of a search (`search --plot`): every die's mean P(win) against the family,
//! plotted against three features of its faces.

use super::{FONT, failed};
use crate::report::{DieLine, PlotError};
use plotters::prelude::*;

/// Three panels side by side: mean P(win) against the number of 6s, the smallest face and
/// the mean face, one point per die; the best die is drawn larger and red. Points with
/// the same x are spread a little sideways so that the panels show how many dice there are.
pub fn landscape_svg(dice: &[DieLine], best: &str, title: &str) -> Result<String, PlotError> {
    if dice.is_empty() {
        return Err(PlotError::Failed("no dice to draw".into()));
    }
    type Feature = (&'static str, fn(&DieLine) -> f64, bool);
    let features: [Feature; 3] = [
        ("number of 6s", |d| d.sixes as f64, true),
        ("smallest face", |d| f64::from(d.smallest_face), true),
        ("mean face", |d| d.mean_face, false),
    ];
    let (w, h) = (1500u32, 520u32);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        let root = root.titled(title, (FONT, 22).into_font()).map_err(failed)?;
        let panels = root.split_evenly((1, 3));
        let y_max = dice
            .iter()
            .map(|d| d.mean_p)
            .filter(|p| p.is_finite())
            .fold(0.0f64, f64::max)
            .max(0.05);
        for (panel, (name, feature, discrete)) in panels.iter().zip(features) {
            let xs: Vec<f64> = dice.iter().map(feature).collect();
            let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let pad = ((hi - lo) * 0.05).max(0.5);
            let mut chart = ChartBuilder::on(panel)
                .margin(12)
                .x_label_area_size(45)
                .y_label_area_size(60)
                .build_cartesian_2d((lo - pad)..(hi + pad), 0.0..(y_max * 1.05))
                .map_err(failed)?;
            chart
                .configure_mesh()
                .x_desc(name)
                .y_desc("mean P(win) against the family")
                .label_style((FONT, 14))
                .axis_desc_style((FONT, 15))
                .draw()
                .map_err(failed)?;
            let jitter = |k: usize| {
                if discrete {
                    // A fixed spread by index: the same picture on every run.
                    ((k * 7919) % 101) as f64 / 100.0 * 0.5 - 0.25
                } else {
                    0.0
                }
            };
            chart
                .draw_series(dice.iter().enumerate().filter(|(_, d)| d.die != best).map(
                    |(k, d)| {
                        Circle::new(
                            (feature(d) + jitter(k), d.mean_p),
                            2,
                            RGBColor(0, 114, 178).mix(0.6).filled(),
                        )
                    },
                ))
                .map_err(failed)?;
            chart
                .draw_series(
                    dice.iter().filter(|d| d.die == best).map(|d| {
                        Circle::new((feature(d), d.mean_p), 6, RGBColor(213, 94, 0).filled())
                    }),
                )
                .map_err(failed)?
                .label(format!("best: {best}"))
                .legend(|(x, y)| Circle::new((x, y), 5, RGBColor(213, 94, 0).filled()));
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::LowerRight)
                .label_font((FONT, 14))
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .draw()
                .map_err(failed)?;
        }
        root.present().map_err(failed)?;
    }
    Ok(svg)
}
