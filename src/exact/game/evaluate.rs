//! Exact evaluation of a fixed pair of policies: with both players' moves fixed the game is
//! a Markov chain. Where every play of the game ends with a win, its value `P(A wins) -
//! P(B wins)` is iterated from -1 and +1 as the game's value is, with each side's move
//! fixed ([`pair_value_sweep`]): two values a state, and the bracket holds the value at
//! every sweep. Otherwise it is solved as the rules-fixed solver solves its chain: `V`,
//! `W`, `Z` (P(A wins), P(B wins), P(never)) iterated from 0, `Z = 1` held on the states
//! from which the pair can reach no win, and the certified intervals `[V, 1 - W - Z]` and so
//! on ([`crate::exact::StateBounds::certified`]).

use super::policy::{MovePolicy, Pick, decide, table_target};
use super::space::{At, GameSpace, Target, flag};
use super::sweep::{RowUpdate, Store, sweep, sweep_by_rows};
use super::value::{row_of_a, settled_bracket, settled_value};
use crate::exact::shared::search::{self, Step, Successors};

/// The pair's flags: "A can win" and "B can win" under the pair.
pub(crate) const PAIR_WINS: u8 = flag::PAIR_WIN_A | flag::PAIR_WIN_B;

/// The game's space with each player's moves fixed by its policy.
pub(crate) struct PairSpace<'a> {
    /// The space.
    pub space: &'a GameSpace,
    /// A's and B's policies.
    pub policies: [&'a dyn MovePolicy; 2],
}

impl PairSpace<'_> {
    /// Calls `f(weight, target)` for what the pair plays at `at`, face slot `k`, where the
    /// weights of a roll's targets sum to 1; `f(1, no-move target)` if nothing moves.
    /// Returns false if a policy picked a move that does not exist.
    #[inline(always)]
    pub(crate) fn played(&self, at: &At, k: usize, mut f: impl FnMut(f64, Target)) -> bool {
        if let Some(table) = self.policies[at.side].table() {
            return match table_target(self.space, table, at, k) {
                Some(Some(t)) => {
                    f(1.0, t);
                    true
                }
                Some(None) => {
                    let face = self.space.faces(at.index)[k].0;
                    f(1.0, Target::Next(self.space.no_move_target(at.index, face)));
                    true
                }
                None => false,
            };
        }
        let index = at.index;
        let mut ok = true;
        self.space
            .with_options(at, k, |options| match options.len() {
                0 => {
                    let face = self.space.faces(index)[k].0;
                    f(1.0, Target::Next(self.space.no_move_target(index, face)));
                }
                1 => f(1.0, options[0]),
                n => match decide(self.space, self.policies[index & 1], index, k) {
                    Pick::One(m) if m < n => f(1.0, options[m]),
                    Pick::One(_) => ok = false,
                    Pick::Uniform => {
                        for &t in options {
                            f(1.0 / n as f64, t);
                        }
                    }
                },
            });
        ok
    }

    /// Whether the pair can reach no win from `index` (P(never) = 1 there).
    #[inline(always)]
    pub(crate) fn never(&self, index: usize) -> bool {
        self.space.flag(index) & PAIR_WINS == 0
    }
}

impl Successors for PairSpace<'_> {
    type State = usize;
    type Batch = ();

    fn pass(&self, forwards: bool, visit: impl Fn(&(), usize) -> bool + Sync) -> bool {
        self.space.pass(forwards, visit)
    }

    fn for_each_successor(&self, _: &(), index: usize, mut f: impl FnMut(Step<usize>)) {
        let at = self.space.at(index);
        for k in 0..self.space.faces(index).len() {
            // A policy's bad pick is reported by the sweep; here it only loses successors.
            self.played(&at, k, |_, t| match t {
                Target::Win(p) => f(Step::Win(p)),
                Target::Next(j) => f(Step::Next(j)),
            });
        }
    }

    fn flags(&self, index: usize) -> u8 {
        self.space.flag(index)
    }

    fn add_flags(&self, index: usize, bits: u8) {
        self.space.add_flags(index, bits)
    }
}

/// Marks, on the reached states, what the pair can reach (clearing earlier marks).
pub(crate) fn classify_pair(pair: &PairSpace<'_>) -> usize {
    pair.space.clear_flags(PAIR_WINS);
    search::can_reach(
        pair,
        PAIR_WINS,
        [flag::PAIR_WIN_A, flag::PAIR_WIN_B],
        flag::REACHED,
    )
}

/// The values to start from: 0, and P(never) = 1 where the pair can reach no win.
pub(crate) fn new_pair_store(pair: &PairSpace<'_>) -> Store<3> {
    let store = Store::new(pair.space.len(), [0.0; 3]);
    for i in 0..pair.space.len() {
        if pair.never(i) {
            store.store(i, [0.0, 0.0, 1.0]);
        }
    }
    store
}

/// One sweep of `V`, `W`, `Z` under the pair; returns the largest change, or `None` if a
/// policy picked a move that does not exist.
pub(crate) fn pair_sweep(pair: &PairSpace<'_>, store: &Store<3>) -> Option<f64> {
    // The never-ending set holds [0, 0, 1] (see `new_pair_store`).
    chain_sweep(
        pair,
        store,
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        |_| [0.0, 0.0, 1.0],
        |index| pair.never(index),
    )
}

/// One sweep of the pair's value bracket `[lower, upper]` of `V - W` (see
/// [`super::value::new_bracket`]): the pair's chain, not the game, so each roll takes the
/// move its side's policy plays. Only for a game in which every play ends with a win
/// (no end component, every reached state can reach a win), where nothing is held at
/// "never".
pub(crate) fn pair_value_sweep(pair: &PairSpace<'_>, bracket: &Store<2>) -> Option<f64> {
    let win = [[1.0, 1.0], [-1.0, -1.0]];
    let space = pair.space;
    // The states the game settles (see `super::value::settled_value`) are held at their
    // exact value under every pair.
    let settled = |index: usize| settled_value(space, index).is_some();
    let held = |index: usize| settled_bracket(space, index);
    // A played from a table, without capture duty: A's options depend on A's
    // configuration and the face alone, so A's updates are made a row at a time
    // ([`super::sweep::RowOfA`]).
    let Some(table) = pair.policies[0]
        .table()
        .filter(|_| !space.rules.profile().capture_duty)
    else {
        return chain_sweep(pair, bracket, win, held, settled);
    };
    let bad = std::sync::atomic::AtomicBool::new(false);
    let cell_by_cell = chain_row(pair, bracket, win, settled, &bad);
    let change = sweep_by_rows(space, bracket, None, held, |a| {
        let mut row = row_of_a(space, bracket, a, Some(table));
        let (cell_by_cell, bad) = (&cell_by_cell, &bad);
        move |index: usize| {
            if index & 1 == 1 || space.flag(index) & flag::REACHED == 0 || settled(index) {
                return cell_by_cell(index);
            }
            let update = row.update(space.decode(index).1);
            if update.is_none() {
                bad.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            update
        }
    });
    drop(cell_by_cell);
    (!bad.into_inner()).then_some(change)
}

/// One Gauss-Seidel sweep of the pair's chain with `K` values per state: a win of player
/// `p` is worth `win[p]`, a state where `never(index)` holds `held(index)` and is not
/// swept. Returns the largest change, or `None` if a policy picked a move that does not
/// exist.
fn chain_sweep<const K: usize>(
    pair: &PairSpace<'_>,
    store: &Store<K>,
    win: [[f64; K]; 2],
    held: impl Fn(usize) -> [f64; K] + Sync,
    never: impl Fn(usize) -> bool + Sync,
) -> Option<f64> {
    let bad = std::sync::atomic::AtomicBool::new(false);
    // No mirror: an extracted pair breaks ties to the frontmost piece of each side, so it
    // need not be its own mirror image even where the game is.
    let change = sweep(
        pair.space,
        store,
        None,
        held,
        chain_row(pair, store, win, never, &bad),
    );
    (!bad.into_inner()).then_some(change)
}

/// The update of a row of the pair's chain, cell by cell (see [`chain_sweep`]); a policy's
/// pick of a move that does not exist sets `bad`.
fn chain_row<'a, const K: usize>(
    pair: &'a PairSpace<'_>,
    store: &'a Store<K>,
    win: [[f64; K]; 2],
    never: impl Fn(usize) -> bool + Sync + 'a,
    bad: &'a std::sync::atomic::AtomicBool,
) -> impl Fn(usize) -> Option<RowUpdate<K>> + Sync + 'a {
    let space = pair.space;
    move |index| {
        if space.flag(index) & flag::REACHED == 0 || never(index) {
            return None;
        }
        let value = |t: Target| match t {
            Target::Win(p) => win[p],
            Target::Next(j) => store.load(j),
        };
        let at = space.at(index);
        let mut outside = [0.0; K];
        let mut stay = [0.0; 2];
        for (k, &(_, p)) in space.faces(index).iter().enumerate() {
            let ok = pair.played(&at, k, |w, t| match t {
                Target::Next(j) if j >> 1 == index >> 1 && !never(j) => stay[j & 1] += p * w,
                t => {
                    let v = value(t);
                    for c in 0..K {
                        outside[c] += p * w * v[c];
                    }
                }
            });
            if !ok {
                bad.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
        Some(RowUpdate { outside, stay })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Die;
    use crate::exact::game::assert_rows_sweep_as_cells;
    use crate::exact::game::policy::MovePolicy;
    use crate::exact::game::{Side, solve_game};
    use crate::exact::shared::SolveOptions;
    use crate::rules::Rules;
    use crate::strategy::Strategy;

    /// With A played from a table, A's updates made a row at a time give the bracket the
    /// cell-by-cell sweep gives, bit for bit on one thread: the optimal pair's own table on
    /// both sides, and that table against a heuristic B, on dice with and without a repeated
    /// face.
    #[test]
    fn a_tables_row_at_a_time_sweeps_as_cell_by_cell() {
        let rules = Rules::new("16/8/2/2".parse().unwrap(), "choice".parse().unwrap());
        for (a, b) in [("1..6", "1..6"), ("1..6", "1,2,2,4,5,6")] {
            let dice: [Die; 2] = [a.parse().unwrap(), b.parse().unwrap()];
            let dice = [&dice[0], &dice[1]];
            let solution = solve_game(
                &rules,
                dice,
                [Side::Optimal, Side::Optimal],
                &SolveOptions::default(),
            )
            .unwrap();
            let table = solution.policy.expect("the optimal pair as a table");
            let space = &solution.space;
            let safe = "safe".parse::<Strategy>().unwrap().seated(dice, 1);
            let opponents: [(&dyn MovePolicy, &str); 2] = [(&table, "its table"), (&safe, "safe")];
            for (b_policy, b_name) in opponents {
                let pair = PairSpace {
                    space,
                    policies: [&table, b_policy],
                };
                let win = [[1.0, 1.0], [-1.0, -1.0]];
                assert_rows_sweep_as_cells(
                    space,
                    |bracket, rows| {
                        if rows {
                            pair_value_sweep(&pair, bracket)
                        } else {
                            chain_sweep(
                                &pair,
                                bracket,
                                win,
                                |i| settled_bracket(space, i),
                                |i| settled_value(space, i).is_some(),
                            )
                        }
                    },
                    &format!("{a} against {b}, B {b_name}"),
                );
            }
        }
    }
}
