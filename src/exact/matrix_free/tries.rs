//! `three-tries`: the tries levels of a cell, solved with the cell and never stored.
//!
//! Under `three-tries` a player with nothing in play rolls up to three times for a 6, so
//! its states carry a tries counter (0, 1, 2). Another try moves nothing, so it stays in
//! the cell; every move that leaves the cell resets the counter to 0
//! (`game::takes_tries` checks this on the tables). So nothing outside a cell ever reads
//! a state at tries level 1 or 2: the solver stores only level 0, and the cell update
//! solves the group of up to six rows (2 sides × 3 levels) exactly for the current values
//! outside the cell ([`crate::exact::shared::group::solve_group`]), keeping the rows at level 0.
//! Eliminating rows exactly keeps the update monotone, so every property of the iteration
//! holds, and memory is the same as without `three-tries`. Only the configurations with
//! nothing in play have levels (4 of 5,001 per player for 1,1,1,6,6,6 on the BwInf board),
//! so the cells that take this path are a few per thousand; all others take the pair
//! update of [`super::sweep`].

use super::game::{Game, Row};
use crate::exact::shared::group::{MAX_GROUP, solve_group};

/// Solves the cell of the pair `(a, row.b)` with all its tries levels, for the sides that
/// are not skipped; `read(cell, side)` gives the stored values (level 0) of any state, and
/// of a skipped side of this cell its fixed value (a never-ending side: `Z = 1`; no
/// updated row leads to an unreached one). Returns the new values at level 0 per side (a
/// skipped side's entry is meaningless).
// Rare (a few cells per thousand): kept out of the hot loop of the pair update.
#[inline(never)]
pub(crate) fn solve_cell<const K: usize>(
    game: &Game,
    row: &Row,
    a: usize,
    skip: [bool; 2],
    read: impl Fn(usize, usize) -> [f64; K],
) -> [[f64; K]; 2] {
    let cell = game.cell(a, row.b);
    // The group's rows (side, level) and each one's place in it.
    let mut rows = [(0usize, 0u8); MAX_GROUP];
    let mut place = [[None::<usize>; 3]; 2];
    let mut n = 0;
    for side in (0..2).filter(|&s| !skip[s]) {
        for tries in 0..game.levels(a, row.b, side) {
            place[side][usize::from(tries)] = Some(n);
            rows[n] = (side, tries);
            n += 1;
        }
    }
    let mut c = [[0.0f64; MAX_GROUP]; MAX_GROUP];
    let mut s = [[0.0f64; 3]; MAX_GROUP];
    for (r, &(side, tries)) in rows[..n].iter().enumerate() {
        game.for_each_move(row, a, (side, tries), |p, m| match m {
            // The mover wins: its component.
            None => s[r][side] += p,
            Some((next, to, level)) => {
                if next == cell
                    && let Some(j) = place[to][usize::from(level)]
                {
                    c[r][j] += p;
                } else {
                    // Outside the cell, or a skipped side of it: always level 0.
                    debug_assert_eq!(level, 0);
                    for (x, v) in s[r].iter_mut().zip(read(next, to)) {
                        *x += p * v;
                    }
                }
            }
        });
    }
    let y = solve_group(&mut c, &mut s, n);
    let level0 = |side: usize| {
        let r = place[side][0].unwrap_or(0);
        std::array::from_fn(|k| y[r][k])
    };
    [level0(0), level0(1)]
}
