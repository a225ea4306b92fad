//! Optimal play: the values `P(e, g, u)` for every state, block by block from high to low
//! scores, each block by a bracketing fixed-point iteration on [`crate::fixpoint`].
//!
//! The block engine here (`solve_block`) also evaluates fixed strategies
//! ([`super::policy`]): a half is either played optimally or by a given decision per state.

use super::game::{Decision, Game, Layout};
use crate::fixpoint::{self, Convergence, NotConverged, RuleError, StopRule, SweepReport};
use rayon::prelude::*;
use std::fmt;

/// One roll, with faces as offsets: bust probability and the scoring steps.
#[derive(Clone, Debug)]
pub(crate) struct Kernel {
    pub(crate) bust: f64,
    pub(crate) steps: Vec<(usize, f64)>,
}

impl Kernel {
    pub(crate) fn new(game: &Game) -> Kernel {
        Kernel {
            bust: game.bust_probability(),
            steps: game
                .scoring_faces()
                .iter()
                .map(|&(f, p)| (f as usize, p))
                .collect(),
        }
    }

    /// Value of rolling at turn total `u` of a half with `len = goal - e` turn totals, whose
    /// values are `x`, when a bust hands the other player the start value `other_start`.
    #[inline(always)]
    pub(crate) fn roll(&self, x: &[f64], u: usize, other_start: f64) -> f64 {
        let len = x.len();
        let mut roll = self.bust * (1.0 - other_start);
        for &(f, p) in &self.steps {
            roll += p * if u + f >= len { 1.0 } else { x[u + f] };
        }
        roll
    }
}

/// How the player of a half decides after a roll that did not bust.
pub(crate) enum Chooser {
    /// The better of ROLL and SAVE.
    Optimal,
    /// `saves[u]`: whether to SAVE at turn total `u` (`saves[0]` is ignored).
    Fixed(Vec<bool>),
}

/// One half of a block: the states `(e, g, 0..goal - e)` of one player to move.
pub(crate) struct Half {
    /// `save[u] = 1 - P_other(g, e + u, 0)`, the value of banking `u` (`save[0]` unused).
    pub(crate) save: Vec<f64>,
    pub(crate) chooser: Chooser,
}

/// One Gauss-Seidel sweep over a half in decreasing `u`: since every scoring face is at least
/// 1, each value depends only on higher turn totals of the same half (already updated) and on
/// `other_start`, so the sweep is exact backward induction given `other_start`.
/// Returns the largest change.
fn sweep_half(kernel: &Kernel, half: &Half, other_start: f64, x: &mut [f64]) -> f64 {
    let mut change: f64 = 0.0;
    for u in (0..x.len()).rev() {
        let roll = kernel.roll(x, u, other_start);
        let new = if u == 0 {
            roll
        } else {
            match &half.chooser {
                Chooser::Optimal => roll.max(half.save[u]),
                Chooser::Fixed(saves) if saves[u] => half.save[u],
                Chooser::Fixed(_) => roll,
            }
        };
        change = change.max(fixpoint::update(&mut x[u], new));
    }
    change
}

/// Lower and upper bounds for the values of a block, as iterated.
#[derive(Clone, Debug)]
pub(crate) struct Bounds {
    pub(crate) lo_x: Vec<f64>,
    pub(crate) hi_x: Vec<f64>,
    /// Empty when the block is a single half (`e == g` in self-play).
    pub(crate) lo_y: Vec<f64>,
    pub(crate) hi_y: Vec<f64>,
}

fn width(lo: &[f64], hi: &[f64]) -> f64 {
    lo.iter()
        .zip(hi)
        .map(|(l, h)| (h - l).abs())
        .fold(0.0, f64::max)
}

fn midpoints(lo: &[f64], hi: &[f64]) -> Vec<f64> {
    lo.iter().zip(hi).map(|(l, h)| 0.5 * (l + h)).collect()
}

/// The solved block: midpoints of the final bounds.
pub(crate) struct BlockResult {
    pub(crate) x: Vec<f64>,
    pub(crate) y: Vec<f64>,
    pub(crate) convergence: Convergence,
}

/// Solves one block: the half `mover` (values `x`) and the half `other` (values `y`) whose
/// busts hand the move to each other; `other == None` when the block is one half whose
/// busts hand the move to itself (self-play with `e == g`).
///
/// Iterates a lower and an upper bound at once (see the module documentation of
/// [`crate::pig`]): `x_lo` from `y_hi`, `x_hi` from `y_lo`, then `y` from the new `x`. The
/// gap reported to [`fixpoint::iterate`] is the largest distance between the bounds.
pub(crate) fn solve_block(
    kernel: &Kernel,
    mover: &Half,
    other: Option<&Half>,
    rule: &StopRule,
    observe: &mut dyn FnMut(&Bounds),
) -> Result<BlockResult, NotConverged> {
    let n = mover.save.len();
    let m = other.map_or(0, |o| o.save.len());
    let mut b = Bounds {
        lo_x: vec![0.0; n],
        hi_x: vec![1.0; n],
        lo_y: vec![0.0; m],
        hi_y: vec![1.0; m],
    };
    let convergence = fixpoint::iterate(rule, |_| {
        let change = match other {
            Some(other) => {
                let (y_lo, y_hi) = (b.lo_y[0], b.hi_y[0]);
                let c1 = sweep_half(kernel, mover, y_hi, &mut b.lo_x);
                let c2 = sweep_half(kernel, mover, y_lo, &mut b.hi_x);
                let (x_lo, x_hi) = (b.lo_x[0], b.hi_x[0]);
                let c3 = sweep_half(kernel, other, x_hi, &mut b.lo_y);
                let c4 = sweep_half(kernel, other, x_lo, &mut b.hi_y);
                c1.max(c2).max(c3).max(c4)
            }
            None => {
                let (x_lo, x_hi) = (b.lo_x[0], b.hi_x[0]);
                let c1 = sweep_half(kernel, mover, x_hi, &mut b.lo_x);
                let c2 = sweep_half(kernel, mover, x_lo, &mut b.hi_x);
                c1.max(c2)
            }
        };
        let gap = width(&b.lo_x, &b.hi_x).max(width(&b.lo_y, &b.hi_y));
        observe(&b);
        SweepReport { change, gap }
    })?;
    Ok(BlockResult {
        x: midpoints(&b.lo_x, &b.hi_x),
        y: midpoints(&b.lo_y, &b.hi_y),
        convergence,
    })
}

/// Why Wubbel/Pig was not solved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SolveError {
    /// The stopping rule cannot be honoured (the rule every solver shares,
    /// [`StopRule::validate`]); refused before any work.
    Rule(RuleError),
    /// A block whose iteration did not converge.
    Block {
        /// Own score of the block's first half.
        own: u32,
        /// Opponent score of the block's first half.
        opponent: u32,
        /// What the iteration reported.
        cause: NotConverged,
    },
}

impl SolveError {
    /// The error of the block `(e, g)` whose iteration ended with `cause`.
    pub(crate) fn block(e: usize, g: usize) -> impl FnOnce(NotConverged) -> SolveError {
        move |cause| SolveError::Block {
            own: e as u32,
            opponent: g as u32,
            cause,
        }
    }
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Rule(e) => write!(f, "{e}"),
            SolveError::Block {
                own,
                opponent,
                cause,
            } => write!(f, "block (e = {own}, g = {opponent}): {cause}"),
        }
    }
}

impl std::error::Error for SolveError {}

/// How the iteration went, over all blocks.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct SolveStats {
    /// Number of blocks solved.
    pub blocks: usize,
    /// Sweeps summed over all blocks.
    pub sweeps: usize,
    /// Most sweeps any block needed.
    pub max_block_sweeps: usize,
    /// Largest final bracket width of any block (each at most the tolerance).
    pub max_gap: f64,
    /// Bound on the error of every stored value, up to rounding: half the largest final
    /// width of each score level, summed over the levels (a block's exact values move by at
    /// most as much as the higher blocks' values they depend on).
    pub error_bound: f64,
}

impl SolveStats {
    pub(crate) fn add_level(&mut self, results: &[BlockResult]) {
        let mut level_gap: f64 = 0.0;
        for r in results {
            self.blocks += 1;
            self.sweeps += r.convergence.sweeps;
            self.max_block_sweeps = self.max_block_sweeps.max(r.convergence.sweeps);
            level_gap = level_gap.max(r.convergence.gap);
        }
        self.max_gap = self.max_gap.max(level_gap);
        self.error_bound += 0.5 * level_gap;
    }
}

/// The blocks of score level `s = e + g` as `(e, g)` with both scores below the goal; with
/// `ordered == false` only `e <= g`.
pub(crate) fn level_blocks(goal: usize, s: usize, ordered: bool) -> Vec<(usize, usize)> {
    let first = s.saturating_sub(goal - 1);
    let last = if ordered { s.min(goal - 1) } else { s / 2 };
    (first..=last).map(|e| (e, s - e)).collect()
}

/// `1 - P_other(g, e + u, 0)` for `u` in `1..goal - e`, from the table `other` of the player
/// who moves after a SAVE (`save[0]` is NaN and never read).
pub(crate) fn save_values(layout: &Layout, other: &[f64], e: usize, g: usize) -> Vec<f64> {
    let len = layout.half(e, g).len();
    (0..len)
        .map(|u| {
            if u == 0 {
                f64::NAN
            } else {
                1.0 - other[layout.start(g, e + u)]
            }
        })
        .collect()
}

/// The halves of the self-play block `(e, g)`, given the values of all higher levels.
pub(crate) fn optimal_halves(
    layout: &Layout,
    values: &[f64],
    e: usize,
    g: usize,
) -> (Half, Option<Half>) {
    let mover = Half {
        save: save_values(layout, values, e, g),
        chooser: Chooser::Optimal,
    };
    let other = (e != g).then(|| Half {
        save: save_values(layout, values, g, e),
        chooser: Chooser::Optimal,
    });
    (mover, other)
}

/// The values of optimal play for every state, and the decisions they imply.
#[derive(Clone, Debug)]
pub struct Solution {
    game: Game,
    layout: Layout,
    kernel: Kernel,
    values: Vec<f64>,
    stats: SolveStats,
}

/// Computes `P(e, g, u)` for all states under optimal play by both players.
///
/// Blocks `{(e, g, ·), (g, e, ·)}` are solved level by level, `e + g` from `2 (goal - 1)`
/// down to 0: a SAVE leads to a higher level, a bust and a scoring roll stay in the block.
/// Blocks of one level are independent and solved in parallel (the result does not depend
/// on the number of threads). `rule` applies to each block.
pub fn solve(game: &Game, rule: &StopRule) -> Result<Solution, SolveError> {
    rule.validate().map_err(SolveError::Rule)?;
    let layout = Layout::new(game.goal());
    let kernel = Kernel::new(game);
    let goal = game.goal() as usize;
    let mut values = vec![f64::NAN; layout.total()];
    let mut stats = SolveStats::default();
    // The blocks are iterated on the pool's threads, under the caller's cancellation.
    let cancel = fixpoint::cancel_flag();
    for s in (0..=2 * (goal - 1)).rev() {
        let blocks = level_blocks(goal, s, false);
        let results = blocks
            .par_iter()
            .map(|&(e, g)| {
                let (mover, other) = optimal_halves(&layout, &values, e, g);
                fixpoint::cancellable_under(cancel.as_ref(), || {
                    solve_block(&kernel, &mover, other.as_ref(), rule, &mut |_| {})
                })
                .map_err(SolveError::block(e, g))
            })
            .collect::<Result<Vec<_>, _>>()?;
        for (&(e, g), r) in blocks.iter().zip(&results) {
            values[layout.half(e, g)].copy_from_slice(&r.x);
            if e != g {
                values[layout.half(g, e)].copy_from_slice(&r.y);
            }
        }
        stats.add_level(&results);
    }
    Ok(Solution {
        game: game.clone(),
        layout,
        kernel,
        values,
        stats,
    })
}

impl Solution {
    /// The game solved.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// How the iteration went.
    pub fn stats(&self) -> &SolveStats {
        &self.stats
    }

    fn check(&self, e: u32, g: u32) {
        let goal = self.game.goal();
        assert!(
            e < goal && g < goal,
            "scores ({e}, {g}) must be below the goal {goal}"
        );
    }

    /// `P(e, g, u)`: probability that the player to move wins with `e` banked points, the
    /// opponent `g`, and `u` points this turn, under optimal play; 1 when `e + u` reaches the
    /// goal.
    ///
    /// # Panics
    /// If `e` or `g` is not below the goal.
    pub fn value(&self, e: u32, g: u32, u: u32) -> f64 {
        self.check(e, g);
        if u64::from(e) + u64::from(u) >= u64::from(self.game.goal()) {
            return 1.0;
        }
        self.values[self.layout.start(e as usize, g as usize) + u as usize]
    }

    /// The starting player's win probability `P(0, 0, 0)`.
    pub fn p_start(&self) -> f64 {
        self.value(0, 0, 0)
    }

    /// The values `P(e, g, u)` for `u` in `0..goal - e`.
    ///
    /// # Panics
    /// If `e` or `g` is not below the goal.
    pub fn half(&self, e: u32, g: u32) -> &[f64] {
        self.check(e, g);
        &self.values[self.layout.half(e as usize, g as usize)]
    }

    /// Win probability of rolling (once more) in state `(e, g, u)`, `e + u` below the goal.
    ///
    /// # Panics
    /// If a score is not below the goal or `e + u` reaches it.
    pub fn roll_value(&self, e: u32, g: u32, u: u32) -> f64 {
        let half = self.half(e, g);
        assert!((u as usize) < half.len(), "e + u must be below the goal");
        self.kernel.roll(half, u as usize, self.value(g, e, 0))
    }

    /// Win probability of banking in state `(e, g, u)`: `1 - P(g, e + u, 0)`; `None` for
    /// `u = 0`, where saving is not allowed.
    ///
    /// # Panics
    /// If a score is not below the goal or `e + u` reaches it.
    pub fn save_value(&self, e: u32, g: u32, u: u32) -> Option<f64> {
        assert!(e + u < self.game.goal(), "e + u must be below the goal");
        (u > 0).then(|| 1.0 - self.value(g, e + u, 0))
    }

    /// The optimal decision in state `(e, g, u)`; SAVE on a tie (same value, shorter game).
    ///
    /// # Panics
    /// If a score is not below the goal or `e + u` reaches it.
    pub fn decision(&self, e: u32, g: u32, u: u32) -> Decision {
        match self.save_value(e, g, u) {
            Some(save) if save >= self.roll_value(e, g, u) => Decision::Save,
            _ => Decision::Roll,
        }
    }

    /// The decisions for `u = 0, 1, .., goal - e - 1` at scores `(e, g)`.
    ///
    /// # Panics
    /// If `e` or `g` is not below the goal.
    pub fn decisions(&self, e: u32, g: u32) -> Vec<Decision> {
        self.check(e, g);
        (0..self.game.goal() - e)
            .map(|u| self.decision(e, g, u))
            .collect()
    }

    /// The smallest turn total at which to SAVE at scores `(e, g)`; `None` if the optimal
    /// player rolls on until the goal.
    ///
    /// # Panics
    /// If `e` or `g` is not below the goal.
    pub fn save_threshold(&self, e: u32, g: u32) -> Option<u32> {
        self.check(e, g);
        (1..self.game.goal() - e).find(|&u| self.decision(e, g, u) == Decision::Save)
    }

    /// Whether the decisions at `(e, g)` are a threshold rule: ROLL below
    /// [`Solution::save_threshold`], SAVE from there on.
    ///
    /// # Panics
    /// If `e` or `g` is not below the goal.
    pub fn is_threshold_rule(&self, e: u32, g: u32) -> bool {
        let decisions = self.decisions(e, g);
        decisions
            .windows(2)
            .all(|w| !(w[0] == Decision::Save && w[1] == Decision::Roll))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Die;

    fn tight() -> StopRule {
        StopRule {
            tolerance: 1e-13,
            max_sweeps: 100_000,
        }
    }

    /// Plain value iteration over the whole state space at once, Jacobi style, without
    /// blocks or brackets: an independent check for small games.
    fn naive(game: &Game) -> Vec<Vec<Vec<f64>>> {
        let goal = game.goal() as usize;
        let bust = game.bust_probability();
        let steps: Vec<(usize, f64)> = game
            .scoring_faces()
            .iter()
            .map(|&(f, p)| (f as usize, p))
            .collect();
        let mut p = vec![vec![vec![0.5; goal]; goal]; goal];
        for _ in 0..200_000 {
            let old = p.clone();
            let mut change: f64 = 0.0;
            for e in 0..goal {
                for g in 0..goal {
                    for u in 0..goal - e {
                        let mut roll = bust * (1.0 - old[g][e][0]);
                        for &(f, w) in &steps {
                            roll += w * if e + u + f >= goal {
                                1.0
                            } else {
                                old[e][g][u + f]
                            };
                        }
                        let v = if u == 0 {
                            roll
                        } else {
                            roll.max(1.0 - old[g][e + u][0])
                        };
                        change = change.max((v - p[e][g][u]).abs());
                        p[e][g][u] = v;
                    }
                }
            }
            if change < 1e-15 {
                break;
            }
        }
        p
    }

    #[test]
    fn agrees_with_naive_value_iteration_on_small_games() {
        for (goal, die, bust) in [
            (1, "1..6", 6),
            (2, "1,2", 2),
            (7, "1..6", 6),
            (9, "1..6", 1),
            (8, "0,1,1,3,4", 4),
            (6, "2,2,5,1", 1),
            (10, "1,2,3", 2),
        ] {
            let game = Game::new(goal, die.parse::<Die>().unwrap(), bust).unwrap();
            let solution = solve(&game, &tight()).unwrap();
            let reference = naive(&game);
            for e in 0..goal {
                for g in 0..goal {
                    for u in 0..goal - e {
                        let (a, b) = (
                            solution.value(e, g, u),
                            reference[e as usize][g as usize][u as usize],
                        );
                        assert!(
                            (a - b).abs() < 1e-10,
                            "{goal} {die} {bust}: P({e},{g},{u}) = {a}, naive {b}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn hand_computed_small_games() {
        // Goal 1: any scoring roll wins. P = 5/6 + 1/6 (1 - P), so P = 6/7.
        let game = Game::new(1, Die::standard(), 6).unwrap();
        let s = solve(&game, &tight()).unwrap();
        assert!((s.p_start() - 6.0 / 7.0).abs() < 1e-12);
        // A coin: heads +1, tails busts; goal 2. Solved by hand:
        // P(1,1,0) = 2/3, P(1,0,0) = 4/5, P(0,1,0) = 2/5, P(0,0,0) = 4/7, ROLL at (0,g,1).
        let game = Game::new(2, "1,2".parse().unwrap(), 2).unwrap();
        let s = solve(&game, &tight()).unwrap();
        for (e, g, want) in [
            (1, 1, 2.0 / 3.0),
            (1, 0, 0.8),
            (0, 1, 0.4),
            (0, 0, 4.0 / 7.0),
        ] {
            assert!((s.value(e, g, 0) - want).abs() < 1e-12, "P({e},{g},0)");
        }
        assert_eq!(s.decisions(0, 0), vec![Decision::Roll, Decision::Roll]);
        assert_eq!(s.decisions(0, 1), vec![Decision::Roll, Decision::Roll]);
    }

    #[test]
    fn terminal_states_and_last_steps() {
        let s = solve(&Game::wubbel(), &StopRule::default()).unwrap();
        for e in 0..50 {
            for g in 0..50 {
                assert_eq!(s.value(e, g, 50 - e), 1.0);
                assert_eq!(s.value(e, g, 60), 1.0);
            }
        }
        // At 49 any scoring face wins at once: 5/6 + 1/6 (1 - P(g, 49, 0)).
        for g in 0..50 {
            let want = 5.0 / 6.0 + (1.0 - s.value(g, 49, 0)) / 6.0;
            assert!((s.value(49, g, 0) - want).abs() < 1e-11);
        }
        // One point short: rolling wins unless the die shows the 6.
        for g in 0..50 {
            let want = 5.0 / 6.0 + (1.0 - s.value(g, 0, 0)) / 6.0;
            assert!((s.roll_value(0, g, 49) - want).abs() < 1e-11);
        }
    }

    #[test]
    fn values_satisfy_the_bellman_equations() {
        for game in [Game::wubbel(), Game::pig()] {
            let s = solve(&game, &StopRule::default()).unwrap();
            let goal = game.goal();
            let steps = game.scoring_faces();
            let p = game.bust_probability();
            for e in 0..goal {
                for g in 0..goal {
                    for u in 0..goal - e {
                        // Written out again here, not through Kernel::roll.
                        let mut roll = p * (1.0 - s.value(g, e, 0));
                        for &(f, w) in steps {
                            roll += w * s.value(e, g, u + f);
                        }
                        let v = s.value(e, g, u);
                        if u == 0 {
                            assert!((v - roll).abs() < 1e-10);
                            continue;
                        }
                        let save = 1.0 - s.value(g, e + u, 0);
                        assert!((v - roll.max(save)).abs() < 1e-10, "({e},{g},{u})");
                        // The SAVE relation holds exactly where the solver saves.
                        if s.decision(e, g, u) == Decision::Save {
                            assert_eq!(s.save_value(e, g, u), Some(save));
                            assert!((v - save).abs() < 1e-10);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn monotone_bracketing_convergence() {
        // Rebuild some blocks of a solved Wubbel and watch every sweep: lower bounds of the
        // start values only rise, upper bounds only fall, and they close in.
        let game = Game::wubbel();
        let s = solve(&game, &StopRule::default()).unwrap();
        let kernel = Kernel::new(&game);
        let rule = StopRule {
            tolerance: 1e-13,
            max_sweeps: 10_000,
        };
        for (e, g) in [(0, 0), (0, 30), (12, 13), (25, 25), (40, 3), (49, 49)] {
            let (mover, other) = optimal_halves(&s.layout, &s.values, e, g);
            let mut trace: Vec<[f64; 4]> = Vec::new();
            let r = solve_block(&kernel, &mover, other.as_ref(), &rule, &mut |b| {
                let y = if b.lo_y.is_empty() {
                    [b.lo_x[0], b.hi_x[0]]
                } else {
                    [b.lo_y[0], b.hi_y[0]]
                };
                trace.push([b.lo_x[0], b.hi_x[0], y[0], y[1]]);
            })
            .unwrap();
            assert!(trace.len() >= 2);
            for w in trace.windows(2) {
                let (a, b) = (w[0], w[1]);
                let eps = 1e-15;
                assert!(
                    b[0] >= a[0] - eps && b[1] <= a[1] + eps,
                    "({e},{g}) x: {a:?} -> {b:?}"
                );
                assert!(
                    b[2] >= a[2] - eps && b[3] <= a[3] + eps,
                    "({e},{g}) y: {a:?} -> {b:?}"
                );
                assert!(b[0] <= b[1] + eps && b[2] <= b[3] + eps);
            }
            let last = trace.last().unwrap();
            assert!(last[1] - last[0] <= 1e-13);
            assert!((r.x[0] - s.value(e as u32, g as u32, 0)).abs() < 1e-12);
            assert!(r.convergence.gap <= 1e-13);
        }
    }

    #[test]
    fn passing_would_never_help() {
        // Forbidding SAVE at u = 0 changes nothing if having the move is never worse than
        // handing it over: P(e, g, 0) >= 1 - P(g, e, 0).
        for game in [Game::wubbel(), Game::pig()] {
            let s = solve(&game, &StopRule::default()).unwrap();
            for e in 0..game.goal() {
                for g in 0..game.goal() {
                    assert!(s.value(e, g, 0) + s.value(g, e, 0) >= 1.0 - 1e-12);
                }
            }
        }
    }

    #[test]
    fn published_pig_figure() {
        // Neller & Presser, "Optimal Play of the Dice Game Pig", The UMAP Journal 25(1),
        // 2004: the first player wins with probability about 0.5306 under optimal play.
        let s = solve(&Game::pig(), &StopRule::default()).unwrap();
        assert_eq!((s.p_start() * 10_000.0).round(), 5306.0, "{}", s.p_start());
        assert!(s.stats().error_bound < 1e-9);
    }

    #[test]
    fn error_bound_is_honest_against_a_tighter_solve() {
        let game = Game::wubbel();
        let loose = solve(
            &game,
            &StopRule {
                tolerance: 1e-6,
                max_sweeps: 10_000,
            },
        )
        .unwrap();
        let exact = solve(&game, &tight()).unwrap();
        let bound = loose.stats().error_bound + exact.stats().error_bound;
        let worst = loose
            .values
            .iter()
            .zip(&exact.values)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(worst <= bound, "{worst} > {bound}");
        assert!(worst > 0.0);
    }

    #[test]
    fn gives_up_instead_of_answering() {
        let rule = StopRule {
            tolerance: 1e-12,
            max_sweeps: 3,
        };
        let err = solve(&Game::wubbel(), &rule).unwrap_err();
        assert!(
            matches!(err, SolveError::Block { cause, .. } if cause.0.sweeps == 3),
            "{err:?}"
        );
    }

    #[test]
    fn refuses_a_rule_it_cannot_honour_before_any_work() {
        // 1e-300 would never certify: the same rule as every other solver refuses it.
        for rule in [
            StopRule {
                tolerance: 1e-300,
                max_sweeps: usize::MAX,
            },
            StopRule {
                tolerance: 1e-9,
                max_sweeps: 0,
            },
        ] {
            let err = solve(&Game::wubbel(), &rule).unwrap_err();
            assert!(matches!(err, SolveError::Rule(_)), "{err:?}");
        }
    }
}
