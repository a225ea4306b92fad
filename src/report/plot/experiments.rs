//! The pictures of the experiments: the convergence plot and the stopping-rule plot.

use super::{FONT, failed};
use crate::experiments::convergence::Convergence;
use crate::experiments::stopping::StoppingComparison;
use crate::report::PlotError;
use crate::stats::Z95;
use plotters::prelude::*;

/// Distinct colours for series (Okabe-Ito, readable for colour-blind viewers), then grey.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
    RGBColor(240, 228, 66),
];

fn pick(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// `1000` as `1k`, `1000000` as `1M`: labels of a logarithmic games axis.
fn short_count(x: f64) -> String {
    let (v, unit) = if x >= 1e6 {
        (x / 1e6, "M")
    } else if x >= 1e3 {
        (x / 1e3, "k")
    } else {
        (x, "")
    };
    let digits = if (v - v.round()).abs() < 1e-9 { 0 } else { 1 };
    format!("{v:.digits$}{unit}")
}

/// Labels of a logarithmic probability axis: as few digits as the value needs.
fn short_prob(y: f64) -> String {
    if y <= 0.0 {
        return "0".into();
    }
    let digits = (-y.log10().floor()).max(0.0) as usize;
    format!("{y:.digits$}")
}

/// `[lo, hi]` of positive values, widened by a factor for a logarithmic axis.
fn log_span(values: impl Iterator<Item = f64>, floor: f64) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
            (lo.min(v.max(floor)), hi.max(v))
        });
    if lo > hi {
        return (floor, 1.0);
    }
    (lo / 1.6, hi * 1.6)
}

/// The convergence picture: error against games (log-log) with the `sqrt(p(1-p)/N)`
/// reference line on the left, interval coverage against games on the right.
pub fn convergence_svg(result: &Convergence, title: &str) -> Result<String, PlotError> {
    let points = &result.points;
    if points.is_empty() {
        return Err(PlotError::Failed("no grid points to draw".into()));
    }
    let games_lo = points[0].games as f64 / 1.3;
    let games_hi = points[points.len() - 1].games as f64 * 1.3;
    let (err_lo, err_hi) = log_span(
        points
            .iter()
            .flat_map(|p| [p.mae, p.rmse, p.sd_binomial, p.sd_binomial * 0.7]),
        1e-7,
    );
    let reps = points[0].reps.max(1);
    let band = Z95 * (0.95f64 * 0.05 / f64::from(reps)).sqrt();
    let cov_lo = points
        .iter()
        .flat_map(|p| [p.wilson_coverage, p.normal_coverage])
        .fold(0.95 - band, f64::min)
        .max(0.0)
        - 0.02;

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1200, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        let root = root.titled(title, (FONT, 18)).map_err(failed)?;
        let (left, right) = root.split_horizontally(600);

        let mut chart = ChartBuilder::on(&left)
            .caption("error against games", (FONT, 16))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(65)
            .build_cartesian_2d(
                (games_lo..games_hi).log_scale(),
                (err_lo..err_hi).log_scale(),
            )
            .map_err(failed)?;
        chart
            .configure_mesh()
            .x_desc("games N")
            .y_desc("error of the estimate")
            .x_label_formatter(&|x| short_count(*x))
            .y_label_formatter(&|y| short_prob(*y))
            .label_style((FONT, 13))
            .draw()
            .map_err(failed)?;
        let series = [
            (
                "RMSE",
                pick(1),
                points.iter().map(|p| p.rmse).collect::<Vec<_>>(),
            ),
            (
                "mean |error|",
                pick(0),
                points.iter().map(|p| p.mae).collect(),
            ),
        ];
        for (name, colour, ys) in series {
            let xy: Vec<(f64, f64)> = points
                .iter()
                .zip(&ys)
                .map(|(p, &y)| (p.games as f64, y.max(err_lo)))
                .collect();
            chart
                .draw_series(LineSeries::new(xy.clone(), colour.stroke_width(2)))
                .map_err(failed)?
                .label(name)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
            chart
                .draw_series(xy.iter().map(|&c| Circle::new(c, 3, colour.filled())))
                .map_err(failed)?;
        }
        let reference: Vec<(f64, f64)> = points
            .iter()
            .map(|p| (p.games as f64, p.sd_binomial))
            .collect();
        chart
            .draw_series(DashedLineSeries::new(
                reference.clone(),
                6,
                4,
                BLACK.stroke_width(1),
            ))
            .map_err(failed)?
            .label("sqrt(p(1-p)/N), exact p")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
        let mae_line: Vec<(f64, f64)> = reference
            .iter()
            .map(|&(n, s)| (n, s * (2.0 / std::f64::consts::PI).sqrt()))
            .collect();
        chart
            .draw_series(DashedLineSeries::new(mae_line, 2, 4, BLACK.stroke_width(1)))
            .map_err(failed)?
            .label("sqrt(2/pi) sqrt(p(1-p)/N): mean |error| if normal")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.mix(0.6)));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .label_font((FONT, 12))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.4))
            .draw()
            .map_err(failed)?;

        let mut chart = ChartBuilder::on(&right)
            .caption(
                format!("coverage of the 95 % intervals ({reps} replicates)"),
                (FONT, 16),
            )
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(55)
            .build_cartesian_2d((games_lo..games_hi).log_scale(), cov_lo..1.0)
            .map_err(failed)?;
        chart
            .configure_mesh()
            .x_desc("games N")
            .y_desc("fraction of replicates containing p")
            .x_label_formatter(&|x| short_count(*x))
            .y_label_formatter(&|y| format!("{y:.2}"))
            .label_style((FONT, 13))
            .draw()
            .map_err(failed)?;
        let x_ends = [games_lo, games_hi];
        chart
            .draw_series(LineSeries::new(x_ends.map(|x| (x, 0.95)), BLACK))
            .map_err(failed)?
            .label("nominal 0.95")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
        for (k, level) in [0.95 - band, 0.95 + band].into_iter().enumerate() {
            let s = chart
                .draw_series(DashedLineSeries::new(
                    x_ends.map(|x| (x, level)),
                    4,
                    4,
                    BLACK.mix(0.5).stroke_width(1),
                ))
                .map_err(failed)?;
            if k == 0 {
                s.label(format!(
                    "0.95 +- {band:.3}: sampling range of {reps} replicates"
                ))
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.mix(0.5)));
            }
        }
        let coverage = [
            (
                "Wilson",
                pick(0),
                points.iter().map(|p| p.wilson_coverage).collect::<Vec<_>>(),
            ),
            (
                "normal (Wald)",
                pick(1),
                points.iter().map(|p| p.normal_coverage).collect(),
            ),
        ];
        for (name, colour, ys) in coverage {
            let xy: Vec<(f64, f64)> = points
                .iter()
                .zip(&ys)
                .map(|(p, &y)| (p.games as f64, y))
                .collect();
            chart
                .draw_series(LineSeries::new(xy.clone(), colour.stroke_width(2)))
                .map_err(failed)?
                .label(name)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
            chart
                .draw_series(xy.iter().map(|&c| Circle::new(c, 3, colour.filled())))
                .map_err(failed)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .label_font((FONT, 12))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.4))
            .draw()
            .map_err(failed)?;
        root.present().map_err(failed)?;
    }
    Ok(svg)
}

/// The stopping-rule picture: every replicate's |error| against the games it used
/// (log-log) with the fixed-N 95 % error line `1.96 sd(N)`, and per rule the miss rates.
pub fn stopping_svg(result: &StoppingComparison, title: &str) -> Result<String, PlotError> {
    let rules = &result.rules;
    if rules.is_empty() {
        return Err(PlotError::Failed("no stopping rules to draw".into()));
    }
    let p = result.reference.p_a;
    let floor = 1e-6;
    let (games_lo, games_hi) = log_span(
        rules
            .iter()
            .flat_map(|r| r.outcomes.iter().map(|o| o.games as f64)),
        1.0,
    );
    let (err_lo, err_hi) = log_span(
        rules
            .iter()
            .flat_map(|r| r.outcomes.iter().map(|o| (o.estimate() - p).abs()))
            .chain([result.config.precision]),
        floor,
    );
    let err_lo = err_lo.max(floor);

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1250, 580)).into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        let root = root.titled(title, (FONT, 18)).map_err(failed)?;
        let (left, right) = root.split_horizontally(700);

        let mut chart = ChartBuilder::on(&left)
            .caption(
                "|estimate - exact| against games used, one dot per replicate",
                (FONT, 15),
            )
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(65)
            .build_cartesian_2d(
                (games_lo..games_hi).log_scale(),
                (err_lo..err_hi).log_scale(),
            )
            .map_err(failed)?;
        chart
            .configure_mesh()
            .x_desc("games used")
            .y_desc("|estimate - exact|")
            .x_label_formatter(&|x| short_count(*x))
            .y_label_formatter(&|y| short_prob(*y))
            .label_style((FONT, 13))
            .draw()
            .map_err(failed)?;
        let line: Vec<(f64, f64)> = (0..=60)
            .map(|k| games_lo * (games_hi / games_lo).powf(f64::from(k) / 60.0))
            .map(|n| (n, Z95 * result.reference.sd_estimate(n.max(2.0) as u64)))
            .collect();
        chart
            .draw_series(LineSeries::new(line, BLACK.stroke_width(1)))
            .map_err(failed)?
            .label("1.96 sd(N): 95 % of errors below it at fixed N")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
        let h = result.config.precision;
        chart
            .draw_series(DashedLineSeries::new(
                [(games_lo, h), (games_hi, h)],
                6,
                4,
                BLACK.mix(0.6).stroke_width(1),
            ))
            .map_err(failed)?
            .label(format!("target precision H = {h}"))
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK.mix(0.6)));
        for (i, rule) in rules.iter().enumerate() {
            let colour = pick(i);
            chart
                .draw_series(rule.outcomes.iter().map(|o| {
                    let e = (o.estimate() - p).abs().max(err_lo);
                    Circle::new((o.games as f64, e), 2, colour.mix(0.6).filled())
                }))
                .map_err(failed)?
                .label(rule.rule.clone())
                .legend(move |(x, y)| Circle::new((x + 10, y), 4, colour.filled()));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .label_font((FONT, 12))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.4))
            .draw()
            .map_err(failed)?;

        let n = rules.len() as i32;
        let top = rules
            .iter()
            .flat_map(|r| [r.wilson_miss_rate, r.miss_rate_upper95.unwrap_or(0.0)])
            .fold(0.1f64, f64::max)
            * 1.08;
        let mut chart = ChartBuilder::on(&right)
            .caption("miss rates (bars: Wilson interval at the stop)", (FONT, 15))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(110)
            .build_cartesian_2d(0.0..top.min(1.0), (0..n).into_segmented())
            .map_err(failed)?;
        let names: Vec<String> = rules.iter().map(|r| r.rule.clone()).collect();
        chart
            .configure_mesh()
            .disable_y_mesh()
            .x_desc("fraction of replicates")
            .y_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => names
                    .get((n - 1 - *i) as usize)
                    .cloned()
                    .unwrap_or_default(),
                _ => String::new(),
            })
            .label_style((FONT, 13))
            .draw()
            .map_err(failed)?;
        // Rule 0 at the top.
        let row = |i: usize| n - 1 - i as i32;
        chart
            .draw_series(rules.iter().enumerate().map(|(i, r)| {
                let mut bar = Rectangle::new(
                    [
                        (0.0, SegmentValue::Exact(row(i))),
                        (r.wilson_miss_rate, SegmentValue::Exact(row(i) + 1)),
                    ],
                    pick(i).mix(0.45).filled(),
                );
                bar.set_margin(6, 6, 0, 0);
                bar
            }))
            .map_err(failed)?;
        let claimed: Vec<(usize, f64, f64)> = rules
            .iter()
            .enumerate()
            .filter_map(|(i, r)| Some((i, r.miss_rate?, r.miss_rate_upper95?)))
            .collect();
        chart
            .draw_series(claimed.iter().map(|&(i, m, up)| {
                PathElement::new(
                    vec![
                        (m, SegmentValue::CenterOf(row(i))),
                        (up, SegmentValue::CenterOf(row(i))),
                    ],
                    BLACK.stroke_width(2),
                )
            }))
            .map_err(failed)?;
        chart
            .draw_series(claimed.iter().map(|&(i, m, _)| {
                Circle::new((m, SegmentValue::CenterOf(row(i))), 5, BLACK.filled())
            }))
            .map_err(failed)?
            .label("dot: share of |error| > claimed H (line: to its 95 % upper bound)")
            .legend(|(x, y)| Circle::new((x + 10, y), 4, BLACK.filled()));
        chart
            .draw_series(LineSeries::new(
                [
                    (0.05, SegmentValue::Exact(0)),
                    (0.05, SegmentValue::Exact(n)),
                ],
                RED.stroke_width(1),
            ))
            .map_err(failed)?
            .label("0.05: what an honest 95 % claim allows")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED));
        // The segmented axis has one spare segment at the top: the legend goes there.
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .label_font((FONT, 12))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.4))
            .draw()
            .map_err(failed)?;
        root.present().map_err(failed)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_labels() {
        assert_eq!(short_count(1000.0), "1k");
        assert_eq!(short_count(1_000_000.0), "1M");
        assert_eq!(short_count(2500.0), "2.5k");
        assert_eq!(short_count(100.0), "100");
        assert_eq!(short_prob(0.001), "0.001");
        assert_eq!(short_prob(0.01), "0.01");
        assert_eq!(short_prob(0.1), "0.1");
    }
}
