//! The decision map of `wubbel` and `pig` as an SVG picture.
//!
//! For every own score `e` (x axis) and opponent score `g` (y axis) one cell, coloured by the
//! smallest turn total at which the optimal player SAVEs; black where the optimal player
//! never banks but rolls on to the goal, and a white dot where the decisions at `(e, g)` are
//! not a plain threshold: the optimal player rolls again at some turn total above the first
//! SAVE (mostly close to the goal; in a few places between two SAVE ranges).

use super::{FONT, failed as plot_err};
use crate::pig::Solution;
use crate::report::PlotError;
use plotters::prelude::*;

/// Viridis-like colour for `t` in `[0, 1]`.
fn colour(t: f64) -> RGBColor {
    const STOPS: [(u8, u8, u8); 5] = [
        (68, 1, 84),
        (59, 82, 139),
        (33, 145, 140),
        (94, 201, 98),
        (253, 231, 37),
    ];
    let x = t.clamp(0.0, 1.0) * (STOPS.len() - 1) as f64;
    let i = (x.floor() as usize).min(STOPS.len() - 2);
    let f = x - i as f64;
    let mix = |a: u8, b: u8| (f64::from(a) + f * (f64::from(b) - f64::from(a))).round() as u8;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// The decision map as an SVG document.
pub fn decision_map_svg(solution: &Solution) -> Result<String, PlotError> {
    let game = solution.game();
    let goal = game.goal();
    let cells: Vec<(u32, u32, Option<u32>, bool)> = (0..goal)
        .flat_map(|e| (0..goal).map(move |g| (e, g)))
        .map(|(e, g)| {
            (
                e,
                g,
                solution.save_threshold(e, g),
                solution.is_threshold_rule(e, g),
            )
        })
        .collect();
    let low = cells.iter().filter_map(|c| c.2).min().unwrap_or(1);
    let top = cells
        .iter()
        .filter_map(|c| c.2)
        .max()
        .unwrap_or(low)
        .max(low + 1);
    let scale = |t: u32| colour(f64::from(t - low) / f64::from(top - low));

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (860, 790)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let title = format!(
            "goal {}, die {}, bust face {}: turn total at which to SAVE (P(first wins) = {:.6})",
            goal,
            game.die(),
            game.bust(),
            solution.p_start()
        );
        let root = root.titled(&title, (FONT, 18)).map_err(plot_err)?;
        let (main, foot) = root.split_vertically(740);
        foot.draw(&Text::new(
            "black: never SAVE, roll on to the goal;  white dot: not a threshold, \
             ROLL again at some turn total above the first SAVE",
            (20, 10),
            (FONT, 14),
        ))
        .map_err(plot_err)?;
        let (left, right) = main.split_horizontally(740);

        let mut chart = ChartBuilder::on(&left)
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(55)
            .build_cartesian_2d(0u32..goal, 0u32..goal)
            .map_err(plot_err)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc("own score e")
            .y_desc("opponent score g")
            .label_style((FONT, 14))
            .draw()
            .map_err(plot_err)?;
        chart
            .draw_series(cells.iter().map(|&(e, g, t, _)| {
                let fill = t.map_or(BLACK, scale);
                Rectangle::new([(e, g), (e + 1, g + 1)], fill.filled())
            }))
            .map_err(plot_err)?;
        chart
            .draw_series(
                cells
                    .iter()
                    .filter(|c| !c.3)
                    .map(|&(e, g, _, _)| Circle::new((e, g), 2, WHITE.filled())),
            )
            .map_err(plot_err)?;

        let mut bar = ChartBuilder::on(&right)
            .margin_top(12)
            .margin_bottom(57)
            .margin_right(12)
            .y_label_area_size(40)
            .build_cartesian_2d(0u32..1u32, low..top + 1)
            .map_err(plot_err)?;
        bar.configure_mesh()
            .disable_mesh()
            .disable_x_axis()
            .y_desc("SAVE from u =")
            .label_style((FONT, 14))
            .draw()
            .map_err(plot_err)?;
        bar.draw_series(
            (low..=top).map(|t| Rectangle::new([(0, t), (1, t + 1)], scale(t).filled())),
        )
        .map_err(plot_err)?;
        root.present().map_err(plot_err)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixpoint::StopRule;
    use crate::pig::{Game, solve};

    #[test]
    fn draws_every_cell_and_the_labels() {
        let s = solve(&Game::wubbel(), &StopRule::default()).unwrap();
        let svg = decision_map_svg(&s).unwrap();
        assert!(svg.starts_with("<svg"));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(svg.matches("<rect").count() >= 50 * 50);
        assert!(svg.contains("own score e"));
        assert!(svg.contains("opponent score g"));
    }

    #[test]
    fn marks_exactly_the_cells_the_legend_names() {
        use crate::pig::Decision;
        let s = solve(&Game::wubbel(), &StopRule::default()).unwrap();
        let (mut never, mut mixed) = (0, 0);
        for e in 0..50 {
            for g in 0..50 {
                let d = s.decisions(e, g);
                never += usize::from(!d.contains(&Decision::Save));
                mixed += usize::from(d.windows(2).any(|w| w == [Decision::Save, Decision::Roll]));
            }
        }
        let svg = decision_map_svg(&s).unwrap();
        assert_eq!(svg.matches("<circle").count(), mixed);
        assert_eq!(
            svg.matches(r##"fill="#000000" stroke="none"/>"##).count(),
            never
        );
        assert!(never > 0 && mixed > 0);
    }

    #[test]
    fn colour_scale_runs_from_purple_to_yellow() {
        assert_eq!(colour(0.0), RGBColor(68, 1, 84));
        assert_eq!(colour(1.0), RGBColor(253, 231, 37));
        assert_eq!(colour(0.5), RGBColor(33, 145, 140));
    }
}
