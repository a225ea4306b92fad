//! How long a running value iteration still needs: the widths of the last sweeps shrink by a
//! nearly constant factor (the contraction of the iteration), so the sweeps still needed to
//! reach the tolerance follow from that factor, and their time from the last sweeps' pace.

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
    /// The width and the clock after the last [`SPAN`] + 1 sweeps, oldest first (`len` of
    /// them filled).
    last: [(f64, f64); SPAN + 1],
    len: usize,
}

/// Sweeps over which the narrowing and the pace are averaged: a single sweep's narrowing
/// can be twice another's while the iteration settles.
const SPAN: usize = 3;

/// Beyond this many sweeps an estimate says nothing useful (a width that barely shrinks).
const MAX_SWEEPS: f64 = 1e6;

impl Eta {
    /// A watch with no sweep seen yet.
    pub fn new() -> Eta {
        Eta::default()
    }

    /// Records a sweep that left the width at `width`, `seconds` after the start, and
    /// returns what remains to reach `tolerance` at the mean narrowing and pace of the last
    /// three sweeps (fewer while there are fewer): `None` after the first sweep, while the
    /// width does not shrink, or when the estimate would exceed a million sweeps; zero
    /// sweeps once the width is within the tolerance.
    pub fn sweep(&mut self, width: f64, seconds: f64, tolerance: f64) -> Option<Remaining> {
        if self.len == self.last.len() {
            self.last.rotate_left(1);
            self.len -= 1;
        }
        self.last[self.len] = (width, seconds);
        self.len += 1;
        if width <= tolerance {
            return Some(Remaining {
                sweeps: 0,
                seconds: 0.0,
            });
        }
        if self.len < 2 {
            return None;
        }
        let (first_width, first_seconds) = self.last[0];
        let span = (self.len - 1) as f64;
        let factor = (width / first_width).powf(1.0 / span);
        let pace = (seconds - first_seconds) / span;
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
        let mut eta = Eta::new();
        eta.sweep(0.6, 1.0, 1e-9);
        assert_eq!(eta.sweep(0.6 * (1.0 - 1e-9), 2.0, 1e-9), None);
    }

    #[test]
    fn the_narrowing_and_the_pace_are_those_of_the_last_three_sweeps() {
        let tolerance = 2f64.powi(-20);
        let mut eta = Eta::new();
        eta.sweep(1.0, 1.0, tolerance);
        eta.sweep(0.5, 2.0, tolerance);
        // Halved, then an eighth: a quarter a sweep on average, 2 s a sweep; from 2^-4 to
        // 2^-20 in 8 more sweeps.
        let r = eta.sweep(0.0625, 5.0, tolerance).unwrap();
        assert_eq!(r.sweeps, 8);
        assert!((r.seconds - 16.0).abs() < 1e-9);
        // Two sweeps later the first one has left the span: from 2^-1 over three sweeps to
        // 2^-10 (an eighth a sweep), 3 s a sweep; 4 more to 2^-20.
        eta.sweep(2f64.powi(-7), 8.0, tolerance);
        let r = eta.sweep(2f64.powi(-10), 11.0, tolerance).unwrap();
        assert_eq!(r.sweeps, 4);
        assert!((r.seconds - 12.0).abs() < 1e-9);
    }
}
