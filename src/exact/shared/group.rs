//! The exact solve of a group of rows: the states with the same pieces of both players,
//! differing only in the side to move (and under `three-tries` the tries counter).
//!
//! A roll that moves nothing keeps the pieces: a 6 keeps the side (a self-loop), any other
//! face passes the turn to the same pieces. Sweeping such a group state by state would
//! shrink its error only by the probability of leaving it, `(5/6)^2` per sweep where both
//! players wait for a 6; so every solver solves the group exactly for the current values
//! outside it. With `s` the rows' one-step sums over everything outside the group and `C`
//! the probabilities between its rows, the values are `(I - C)^-1 s`. `I - C` is a
//! non-singular M-matrix and `(I - C)^-1 = sum C^n` is non-negative, so the update is
//! monotone and lower bounds stay lower bounds; elimination without pivoting only ever
//! adds non-negative terms, except in the pivots `1 - ...`, which are probabilities of
//! leaving. Both solvers call [`solve_pair`] for the common group, the two sides of one
//! pair of configurations; the sparse solver's larger groups use [`solve_group`].

/// The largest group: two sides times three tries levels.
pub(crate) const MAX_GROUP: usize = 6;

/// Solves `x = s + C x` for two rows, `c[r][t]` the probability from row `r` to row `t`
/// (the diagonal a self-loop), in closed form, for `K` components at once:
/// `x0 = (s0 (1 - c11) + c01 s1) / ((1 - c00) (1 - c11) - c01 c10)`, then
/// `x1 = (s1 + c10 x0) / (1 - c11)`.
#[inline(always)]
pub(crate) fn solve_pair<const K: usize>(c: [[f64; 2]; 2], s: [[f64; K]; 2]) -> [[f64; K]; 2] {
    let [[c00, c01], [c10, c11]] = c;
    let d = (1.0 - c00) * (1.0 - c11) - c01 * c10;
    let x0: [f64; K] = std::array::from_fn(|k| (s[0][k] * (1.0 - c11) + c01 * s[1][k]) / d);
    let x1: [f64; K] = std::array::from_fn(|k| (s[1][k] + c10 * x0[k]) / (1.0 - c11));
    [x0, x1]
}

/// Solves `x = s + c x` for one row with self-loop probability `c`.
#[inline(always)]
pub(crate) fn solve_one<const K: usize>(c: f64, s: [f64; K]) -> [f64; K] {
    s.map(|v| v / (1.0 - c))
}

/// Solves `(I - C) y = s` for the first `k` rows by Gaussian elimination without pivoting
/// (`I - C` is a non-singular M-matrix, for which that is stable). Destroys `c` and `s`.
#[inline(always)]
#[allow(clippy::needless_range_loop)]
pub(crate) fn solve_group(
    c: &mut [[f64; MAX_GROUP]; MAX_GROUP],
    s: &mut [[f64; 3]; MAX_GROUP],
    k: usize,
) -> [[f64; 3]; MAX_GROUP] {
    // a = I - C, kept implicitly: diagonal in `diag`, off-diagonal entries as -c.
    let mut diag = [1.0f64; MAX_GROUP];
    for (m, d) in diag.iter_mut().enumerate().take(k) {
        *d -= c[m][m];
    }
    for p in 0..k {
        for r in p + 1..k {
            if c[r][p] == 0.0 {
                continue;
            }
            // Row r -= (a_rp / a_pp) row p, with a_rp = -c[r][p]: adds f * row p.
            let f = c[r][p] / diag[p];
            for col in p + 1..k {
                if col == r {
                    diag[r] -= f * c[p][col];
                } else {
                    c[r][col] += f * c[p][col];
                }
            }
            for comp in 0..3 {
                s[r][comp] += f * s[p][comp];
            }
            c[r][p] = 0.0;
        }
    }
    let mut y = [[0.0f64; 3]; MAX_GROUP];
    for p in (0..k).rev() {
        for comp in 0..3 {
            let mut acc = s[p][comp];
            for col in p + 1..k {
                acc += c[p][col] * y[col][comp];
            }
            y[p][comp] = acc / diag[p];
        }
    }
    y
}

#[cfg(test)]
// Index loops: rows and columns of a small dense system read clearer as indices.
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;
    use approx::assert_abs_diff_eq;
    use nalgebra::{DMatrix, DVector};

    /// Substochastic couplings between up to six rows, as under three-tries.
    const RAW: [[f64; MAX_GROUP]; MAX_GROUP] = [
        [0.0, 0.5, 0.0, 0.1, 0.0, 0.0],
        [0.0, 0.0, 0.6, 0.0, 0.0, 0.2],
        [0.3, 0.0, 0.0, 0.4, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0, 0.5, 0.25],
        [0.1, 0.2, 0.0, 0.0, 0.0, 0.6],
        [0.5, 0.0, 0.3, 0.0, 0.1, 0.0],
    ];
    const RHS: [[f64; 3]; MAX_GROUP] = [
        [0.2, 0.1, 0.0],
        [0.1, 0.0, 0.05],
        [0.0, 0.3, 0.0],
        [0.05, 0.2, 0.0],
        [0.1, 0.0, 0.0],
        [0.0, 0.1, 0.1],
    ];

    fn dense(raw: &[[f64; MAX_GROUP]], k: usize, comp: usize) -> DVector<f64> {
        let a = DMatrix::from_fn(k, k, |r, col| f64::from(u8::from(r == col)) - raw[r][col]);
        let b = DVector::from_fn(k, |r, _| RHS[r][comp]);
        a.lu().solve(&b).expect("non-singular")
    }

    #[test]
    fn group_solve_matches_a_dense_lu() {
        for k in 2..=MAX_GROUP {
            let mut c = [[0.0; MAX_GROUP]; MAX_GROUP];
            let mut s = [[0.0; 3]; MAX_GROUP];
            for r in 0..k {
                c[r][..k].copy_from_slice(&RAW[r][..k]);
                s[r] = RHS[r];
            }
            let y = solve_group(&mut c, &mut s, k);
            for comp in 0..3 {
                let x = dense(&RAW, k, comp);
                for r in 0..k {
                    assert_abs_diff_eq!(x[r], y[r][comp], epsilon = 1e-14);
                    assert!(y[r][comp] >= 0.0);
                }
            }
        }
    }

    #[test]
    fn pair_solve_with_self_loops_matches_a_dense_lu() {
        // A pair with self-loops (a 6 that moves nothing) and turn passing between them.
        let mut raw = [[0.0; MAX_GROUP]; MAX_GROUP];
        raw[0][..2].copy_from_slice(&[1.0 / 6.0, 0.5]);
        raw[1][..2].copy_from_slice(&[0.25, 1.0 / 3.0]);
        let y = solve_pair::<3>(
            [[raw[0][0], raw[0][1]], [raw[1][0], raw[1][1]]],
            [RHS[0], RHS[1]],
        );
        for comp in 0..3 {
            let x = dense(&raw, 2, comp);
            assert_abs_diff_eq!(x[0], y[0][comp], epsilon = 1e-15);
            assert_abs_diff_eq!(x[1], y[1][comp], epsilon = 1e-15);
        }
        assert_abs_diff_eq!(solve_one(0.5, [0.25])[0], 0.5, epsilon = 0.0);
    }
}
