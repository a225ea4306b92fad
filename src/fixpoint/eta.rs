//! How long a running value iteration still needs: the widths of the last sweeps shrink by a
//! nearly constant factor (the contraction of the iteration), so the sweeps still needed to
//! reach the tolerance follow from that factor, and their time from the last sweep's.

/// The remaining work of an iteration, as far as its last two sweeps tell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Remaining {
    /// Sweeps still needed for the width to reach the tolerance.
    pub sweeps: u64,
    /// Their time in seconds, at the last sweep's pace.
    pub seconds: f64,
}

/// Watches the sweeps of one iteration ([`Eta::sweep`]) and estimates what remains.
#[derive(Clone, Copy, Debug, Default)]
pub struct Eta {
    /// The width and the clock after the last sweep.
    last: Option<(f64, f64)>,
}

/// Beyond this many sweeps an estimate says nothing useful (a width that barely shrinks).
const MAX_SWEEPS: f64 = 1e6;

impl Eta {
    /// A watch with no sweep seen yet.
    pub fn new() -> Eta {
        Eta::default()
    }

    /// Records a sweep that left the width at `width`, `seconds` after the start, and
    /// returns what remains to reach `tolerance`: `None` after the first sweep, while the
    /// width does not shrink, or when the estimate would exceed a million sweeps; zero sweeps
    /// once the width is within the tolerance.
    pub fn sweep(&mut self, width: f64, seconds: f64, tolerance: f64) -> Option<Remaining> {
        let previous = self.last.replace((width, seconds));
        if width <= tolerance {
            return Some(Remaining {
                sweeps: 0,
                seconds: 0.0,
            });
        }
        let (last_width, last_seconds) = previous?;
        let factor = width / last_width;
        let pace = seconds - last_seconds;
        // Negated so that a NaN anywhere gives no estimate.
        if !(factor > 0.0 && factor < 1.0 && pace >= 0.0 && tolerance > 0.0) {
            return None;
        }
        // width * factor^k <= tolerance  <=>  k >= ln(tolerance / width) / ln(factor).
        let sweeps = ((tolerance / width).ln() / factor.ln()).ceil();
        if !(sweeps.is_finite() && sweeps <= MAX_SWEEPS) {
            return None;
        }
        Some(Remaining {
            sweeps: sweeps as u64,
            seconds: sweeps * pace,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_geometric_iteration_is_extrapolated_exactly() {
        // Width halves every sweep, each sweep takes 2 s: from 1/8 down to 2^-20 is 17 more.
        let mut eta = Eta::new();
        assert_eq!(
            eta.sweep(0.25, 2.0, 2f64.powi(-20)),
            None,
            "one sweep tells nothing"
        );
        let r = eta.sweep(0.125, 4.0, 2f64.powi(-20)).unwrap();
        assert_eq!(r.sweeps, 17);
        assert!((r.seconds - 34.0).abs() < 1e-9);
        // Done: nothing remains.
        assert_eq!(eta.sweep(1e-7, 6.0, 2f64.powi(-20)).unwrap().sweeps, 0);
    }

    #[test]
    fn a_width_that_does_not_shrink_gives_no_estimate() {
        let mut eta = Eta::new();
        eta.sweep(0.5, 1.0, 1e-9);
        assert_eq!(eta.sweep(0.5, 2.0, 1e-9), None);
        assert_eq!(eta.sweep(0.6, 3.0, 1e-9), None);
        // A shrink so slow that it would take more than a million sweeps.
        assert_eq!(eta.sweep(0.6 * (1.0 - 1e-9), 4.0, 1e-9), None);
    }
}
