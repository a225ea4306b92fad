//! The heat map of a ranking's matrix (`rank --plot`).

use super::{FONT, failed};
use crate::rank::Tournament;
use crate::report::{PlotError, fixed};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Diverging colour for a win probability: blue below 1/2, white at 1/2, red above.
pub fn heat_colour(p: f64) -> RGBColor {
    let t = ((p - 0.5) * 2.0).clamp(-1.0, 1.0);
    let (end, t) = if t < 0.0 {
        ((33.0, 102.0, 172.0), -t)
    } else {
        ((178.0, 24.0, 43.0), t)
    };
    // Square root: differences near 1/2 (the interesting ones) stay visible.
    let t = t.sqrt();
    let mix = |e: f64| (255.0 + t * (e - 255.0)).round() as u8;
    RGBColor(mix(end.0), mix(end.1), mix(end.2))
}

fn text_colour(fill: RGBColor) -> RGBColor {
    let luminance =
        0.299 * f64::from(fill.0) + 0.587 * f64::from(fill.1) + 0.114 * f64::from(fill.2);
    if luminance < 140.0 { WHITE } else { BLACK }
}

/// The pairwise matrix of a ranking as a heat map: cell (i, j) is coloured by P(die i
/// beats die j) and shows it with its interval's half-width and, if some games never end,
/// their share ("no end"); undecided pairs ([`crate::rank::PairFigure::undecided`]: the
/// interval of P(row wins | the game ends) contains 1/2) are framed. The last column is each die's mean over its opponents, the
/// figure the ranking sorts by. Rows and columns are labelled with the dice.
pub fn heatmap_svg(tournament: &Tournament) -> Result<String, PlotError> {
    let n = tournament.dice.len();
    if n == 0 {
        return Err(PlotError::Failed("no dice to draw".into()));
    }
    let labels: Vec<String> = tournament
        .dice
        .iter()
        .enumerate()
        .map(|(i, d)| format!("{}: {d}", i + 1))
        .collect();
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(1) as i32;
    let cell = 86i32;
    let left = 24 + 8 * longest;
    let top = 100 + 8 * longest;
    let width = (left + cell * (n as i32 + 1) + 30).max(620);
    let height = top + cell * n as i32 + 60;

    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (width as u32, height as u32)).into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        draw_heatmap(&root, tournament, &labels, left, top, cell).map_err(failed)?;
        root.present().map_err(failed)?;
    }
    Ok(svg)
}

fn draw_heatmap<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    t: &Tournament,
    labels: &[String],
    left: i32,
    top: i32,
    cell: i32,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let n = t.dice.len() as i32;
    let centred = Pos::new(HPos::Center, VPos::Center);
    let title = TextStyle::from((FONT, 18).into_font()).pos(Pos::new(HPos::Left, VPos::Top));
    root.draw(&Text::new(
        "P(row die beats column die), +- half-width of its interval".to_string(),
        (16, 12),
        title,
    ))?;
    let figures = t
        .matrix
        .iter()
        .flatten()
        .flatten()
        .next()
        .map(|f| match f.method {
            crate::rank::Method::Simulated => "95 % confidence intervals of simulations",
            crate::rank::Method::Exact => "certified bounds of the exact solver",
        })
        .unwrap_or("");
    let note = TextStyle::from((FONT, 13).into_font()).pos(Pos::new(HPos::Left, VPos::Top));
    let notes = [
        format!("{figures};"),
        "\"no end\": share of games that never end;".to_string(),
        "framed: undecided (the interval of P(row wins | the game ends) contains 0.5)".to_string(),
    ];
    for (k, line) in notes.into_iter().enumerate() {
        root.draw(&Text::new(line, (16, 36 + 16 * k as i32), note.clone()))?;
    }
    let row_label =
        TextStyle::from((FONT, 14).into_font()).pos(Pos::new(HPos::Right, VPos::Center));
    let col_label = TextStyle::from((FONT, 14).into_font().transform(FontTransform::Rotate270))
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (i, label) in labels.iter().enumerate() {
        let i = i as i32;
        root.draw(&Text::new(
            label.clone(),
            (left - 8, top + i * cell + cell / 2),
            row_label.clone(),
        ))?;
        root.draw(&Text::new(
            label.clone(),
            (left + i * cell + cell / 2, top - 8),
            col_label.clone(),
        ))?;
    }
    root.draw(&Text::new(
        "mean".to_string(),
        (left + n * cell + cell / 2, top - 8),
        col_label,
    ))?;
    let ranking = t.ranking();
    for i in 0..n {
        for j in 0..=n {
            let (x0, y0) = (left + j * cell, top + i * cell);
            let corners = [(x0, y0), (x0 + cell, y0 + cell)];
            let (fill, main, sub, framed) = if j == n {
                let mean = ranking
                    .iter()
                    .find(|e| e.index == i as usize)
                    .map_or(f64::NAN, |e| e.mean_p);
                (heat_colour(mean), fixed(mean, 4), Vec::new(), false)
            } else if let Some(f) = t.matrix[i as usize][j as usize] {
                let mut sub = vec![format!("+-{:.4}", f.interval.half_width())];
                if f.unfinished >= 0.0005 {
                    sub.push(format!("no end {:.3}", f.unfinished));
                }
                (heat_colour(f.p), fixed(f.p, 4), sub, f.undecided())
            } else {
                (RGBColor(230, 230, 230), "-".to_string(), Vec::new(), false)
            };
            root.draw(&Rectangle::new(corners, fill.filled()))?;
            root.draw(&Rectangle::new(corners, WHITE.stroke_width(2)))?;
            if framed {
                let inner = [(x0 + 4, y0 + 4), (x0 + cell - 4, y0 + cell - 4)];
                root.draw(&Rectangle::new(inner, BLACK.stroke_width(2)))?;
            }
            let ink = text_colour(fill);
            let big = TextStyle::from((FONT, 16).into_font())
                .color(&ink)
                .pos(centred);
            let small = TextStyle::from((FONT, 11).into_font())
                .color(&ink)
                .pos(centred);
            let (cx, cy) = (x0 + cell / 2, y0 + cell / 2);
            // The figure, then up to two small lines below it, centred as a block.
            let top = cy - 7 * sub.len() as i32;
            root.draw(&Text::new(main, (cx, top), big))?;
            for (k, line) in sub.into_iter().enumerate() {
                root.draw(&Text::new(
                    line,
                    (cx, top + 19 + 14 * k as i32),
                    small.clone(),
                ))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heat_colours_diverge_from_white() {
        assert_eq!(heat_colour(0.5), RGBColor(255, 255, 255));
        assert_eq!(heat_colour(1.0), RGBColor(178, 24, 43));
        assert_eq!(heat_colour(0.0), RGBColor(33, 102, 172));
        assert_eq!(text_colour(heat_colour(1.0)), WHITE);
        assert_eq!(text_colour(heat_colour(0.55)), BLACK);
    }
}
