//! Fixed strategies and their exact evaluation against each other (policy evaluation on the
//! same block engine and [`crate::fixpoint`] core as the optimal solver).

use super::game::{Decision, Game, Layout};
use super::solve::{
    Chooser, Half, Kernel, Solution, SolveError, SolveStats, level_blocks, save_values, solve_block,
};
use crate::fixpoint::{self, StopRule};
use rayon::prelude::*;

/// A stationary strategy: after a roll that did not bust, whether to bank.
///
/// Asked only for turn totals `u >= 1` with `own + u` below the goal (at `u = 0` every
/// player rolls; at the goal the game is won).
pub trait Strategy: Sync {
    /// Whether to SAVE with `own` banked points against `opponent`, `turn` points this turn.
    fn saves(&self, own: u32, opponent: u32, turn: u32) -> bool;

    /// A short name for tables, e.g. `hold 20`.
    fn name(&self) -> String;
}

/// "Hold at n": roll until the turn total reaches `n` (or the goal), then SAVE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HoldAt(pub u32);

impl Strategy for HoldAt {
    fn saves(&self, _own: u32, _opponent: u32, turn: u32) -> bool {
        turn >= self.0
    }

    fn name(&self) -> String {
        format!("hold {}", self.0)
    }
}

/// The optimal strategy: the decisions of [`Solution::decision`].
impl Strategy for Solution {
    fn saves(&self, own: u32, opponent: u32, turn: u32) -> bool {
        self.decision(own, opponent, turn) == Decision::Save
    }

    fn name(&self) -> String {
        "optimal".to_string()
    }
}

/// Exact win probabilities of two strategies `a` and `b` against each other.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Probability that `a` wins when `a` moves first.
    pub a_first: f64,
    /// Probability that `b` wins when `b` moves first.
    pub b_first: f64,
    /// How the iteration went.
    pub stats: SolveStats,
}

impl Evaluation {
    /// Probability that `a` wins when the first move goes to either player with
    /// probability 1/2.
    pub fn a_average(&self) -> f64 {
        0.5 * (self.a_first + 1.0 - self.b_first)
    }
}

fn fixed(strategy: &dyn Strategy, e: usize, g: usize, len: usize) -> Chooser {
    Chooser::Fixed(
        (0..len)
            .map(|u| u > 0 && strategy.saves(e as u32, g as u32, u as u32))
            .collect(),
    )
}

/// Evaluates `a` against `b` exactly: the probability that the player to move wins, for
/// every state and both players, by the same blockwise bracketing iteration as
/// [`super::solve()`], with each player's decisions fixed instead of optimised.
///
/// One evaluation gives both seatings: `a` first and `b` first.
pub fn evaluate(
    game: &Game,
    a: &dyn Strategy,
    b: &dyn Strategy,
    rule: &StopRule,
) -> Result<Evaluation, SolveError> {
    rule.validate().map_err(SolveError::Rule)?;
    let layout = Layout::new(game.goal());
    let kernel = Kernel::new(game);
    let goal = game.goal() as usize;
    // va: a to move, a has e, b has g; vb: b to move, b has e, a has g.
    let mut va = vec![f64::NAN; layout.total()];
    let mut vb = vec![f64::NAN; layout.total()];
    let mut stats = SolveStats::default();
    // The blocks are iterated on the pool's threads, under the caller's cancellation.
    let cancel = fixpoint::cancel_flag();
    for s in (0..=2 * (goal - 1)).rev() {
        let blocks = level_blocks(goal, s, true);
        let results = blocks
            .par_iter()
            .map(|&(e, g)| {
                let len_a = layout.half(e, g).len();
                let len_b = layout.half(g, e).len();
                let half_a = Half {
                    save: save_values(&layout, &vb, e, g),
                    chooser: fixed(a, e, g, len_a),
                };
                let half_b = Half {
                    save: save_values(&layout, &va, g, e),
                    chooser: fixed(b, g, e, len_b),
                };
                fixpoint::cancellable_under(cancel.as_ref(), || {
                    solve_block(&kernel, &half_a, Some(&half_b), rule, &mut |_| {})
                })
                .map_err(SolveError::block(e, g))
            })
            .collect::<Result<Vec<_>, _>>()?;
        for (&(e, g), r) in blocks.iter().zip(&results) {
            va[layout.half(e, g)].copy_from_slice(&r.x);
            vb[layout.half(g, e)].copy_from_slice(&r.y);
        }
        stats.add_level(&results);
    }
    Ok(Evaluation {
        a_first: va[layout.start(0, 0)],
        b_first: vb[layout.start(0, 0)],
        stats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Die;
    use crate::pig::solve;

    #[test]
    fn optimal_against_itself_reproduces_the_solution() {
        let game = Game::wubbel();
        let s = solve(&game, &StopRule::default()).unwrap();
        let ev = evaluate(&game, &s, &s, &StopRule::default()).unwrap();
        assert!((ev.a_first - s.p_start()).abs() < 1e-10);
        assert!((ev.b_first - s.p_start()).abs() < 1e-10);
    }

    #[test]
    fn hand_computed_hold_strategies() {
        // Goal 1 with a coin (1 scores, 2 busts): every strategy plays the same, the first
        // player wins with p = 1/2 + 1/2 (1 - p), p = 2/3.
        let game = Game::new(1, "1,2".parse::<Die>().unwrap(), 2).unwrap();
        let ev = evaluate(&game, &HoldAt(1), &HoldAt(5), &StopRule::default()).unwrap();
        assert!((ev.a_first - 2.0 / 3.0).abs() < 1e-12);
        assert!((ev.b_first - 2.0 / 3.0).abs() < 1e-12);
        // Goal 2 with the coin, hold 1 (a) against hold 2 (b, rolls to the goal). By hand,
        // with A(e,g) = P(a wins | a to move, a has e, b has g), B(g,e) likewise for b:
        //   A(1,0) = 1/2 + 1/2 (1 - B(0,1))
        //   B(0,1) = 1/4 + 3/4 (1 - A(1,0))   (b needs two heads; both other ways hand a
        //                                      the move with a still at 1)
        //   => B(0,1) = 2/5, A(1,0) = 4/5.
        //   A(0,0) = 1/2 (1 - B(0,1)) + 1/2 (1 - B(0,0))   (heads: a banks 1)
        //   B(0,0) = 1/4 + 3/4 (1 - A(0,0))
        //   => A(0,0) = 3/10 + 3/8 A(0,0) => A(0,0) = 12/25, B(0,0) = 16/25.
        let game = Game::new(2, "1,2".parse::<Die>().unwrap(), 2).unwrap();
        let ev = evaluate(&game, &HoldAt(1), &HoldAt(2), &StopRule::default()).unwrap();
        assert!((ev.a_first - 12.0 / 25.0).abs() < 1e-12, "{}", ev.a_first);
        assert!((ev.b_first - 16.0 / 25.0).abs() < 1e-12, "{}", ev.b_first);
    }

    fn optimal_beats_thresholds(game: &Game, thresholds: &[u32]) {
        let rule = StopRule::default();
        let s = solve(game, &rule).unwrap();
        let v = s.p_start();
        for &k in thresholds {
            let ev = evaluate(game, &s, &HoldAt(k), &rule).unwrap();
            // The optimal strategy guarantees the game's value in either seat ...
            assert!(ev.a_first >= v - 1e-10, "hold {k}: {} < {v}", ev.a_first);
            assert!(ev.b_first <= v + 1e-10, "hold {k}: {} > {v}", ev.b_first);
            // ... and strictly beats the fixed strategy.
            assert!(ev.a_average() > 0.5 + 1e-4, "hold {k}: {}", ev.a_average());
            assert!(ev.a_first > v && ev.b_first < v, "hold {k}");
        }
    }

    #[test]
    fn optimal_beats_every_threshold_in_wubbel() {
        optimal_beats_thresholds(&Game::wubbel(), &[5, 10, 12, 15, 18, 20, 25, 30, 40]);
    }

    #[test]
    fn optimal_beats_every_threshold_in_pig() {
        optimal_beats_thresholds(&Game::pig(), &[10, 15, 20, 25, 30]);
    }
}
