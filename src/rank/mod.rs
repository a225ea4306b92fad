//! Ranking a list of dice: every pair, the matrix of P(row die beats column die), the
//! ranking by mean win probability, undecided pairs and intransitive cycles.
//!
//! The matrix can come from simulation ([`simulated`]) or from the exact solver
//! ([`exact`]); the analysis ([`tournament`]) does not care which, as long as every figure
//! carries an interval (a confidence interval or certified bounds).

pub mod exact;
pub mod simulated;
pub mod solved_games;
pub mod store;
pub mod table;
pub mod tournament;

pub use exact::{
    ExactListeners, ExactPairOutcome, PairFailure, RankError, exact_pair, exact_ranking_pair,
    exact_strategy_name, solve_tournament,
};
pub use simulated::{
    SimulationPlan, simulate_pair, simulate_tournament, simulate_tournament_playing,
};
pub use solved_games::SolvedGames;
pub use tournament::{Method, PairFigure, RankEntry, Tournament, share_bounds, share_of};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Die;
    use crate::exact::SolveOptions;
    use crate::rules::Rules;
    use crate::sim::{DuelCounts, Stopping};
    use crate::stats::Interval;
    use crate::strategy::Strategy;

    /// A figure for a pair in which every game ends, so the share equals p.
    fn figure(p: f64, lo: f64, hi: f64) -> Option<PairFigure> {
        let interval = Interval { lo, hi };
        Some(PairFigure {
            p,
            interval,
            share: p,
            share_interval: interval,
            unfinished: 0.0,
            method: Method::Exact,
            games: None,
        })
    }

    /// Three dice in a rock-paper-scissors cycle, built by hand.
    fn cyclic() -> Tournament {
        let dice = ["1..6", "2..7", "3..8"]
            .map(|d| d.parse().unwrap())
            .to_vec();
        let mut t = Tournament::new(dice);
        let set = |t: &mut Tournament, i: usize, j: usize, p: f64| {
            t.matrix[i][j] = figure(p, p - 0.01, p + 0.01);
            t.matrix[j][i] = figure(1.0 - p, 0.99 - p, 1.01 - p);
        };
        set(&mut t, 0, 1, 0.6);
        set(&mut t, 1, 2, 0.6);
        set(&mut t, 2, 0, 0.7);
        t
    }

    #[test]
    fn finds_a_rock_paper_scissors_cycle() {
        let t = cyclic();
        assert_eq!(t.three_cycles(), vec![[0, 1, 2]]);
        assert_eq!(t.cyclic_groups(), vec![vec![0, 1, 2]]);
        assert!(t.undecided_pairs().is_empty());
    }

    #[test]
    fn a_pair_with_unfinished_games_is_decided_by_the_decided_games() {
        // Row wins 49.9 %, column 13 %, 37 % never end: the row die clearly beats the
        // column die although its P(win) interval contains 1/2.
        let mut t = Tournament::new(vec!["3..8".parse().unwrap(), "6..11".parse().unwrap()]);
        let counts = DuelCounts {
            a_started: crate::sim::StartCounts {
                games: 50_000,
                a_wins: 24_950,
                b_wins: 6_500,
                unfinished: 18_550,
                endless: 18_550,
                rolls: 0,
            },
            b_started: crate::sim::StartCounts {
                games: 50_000,
                a_wins: 24_950,
                b_wins: 6_500,
                unfinished: 18_550,
                endless: 18_550,
                rolls: 0,
            },
        };
        t.record_duel(0, 1, &counts);
        let row = t.matrix[0][1].unwrap();
        assert!(row.interval.contains(0.5));
        assert!(row.beats() && !row.undecided());
        assert!((row.share - 24_950.0 / 31_450.0).abs() < 1e-12);
        assert!((row.unfinished - 0.371).abs() < 1e-12);
        assert!(t.matrix[1][0].unwrap().share_interval.hi < 0.5);
    }

    #[test]
    fn ranks_by_mean_and_marks_undecided_pairs() {
        let mut t = cyclic();
        // Make 0 vs 1 a coin flip: the cycle disappears, the pair is undecided.
        t.matrix[0][1] = figure(0.5, 0.49, 0.51);
        t.matrix[1][0] = figure(0.5, 0.49, 0.51);
        assert!(t.three_cycles().is_empty());
        assert!(t.cyclic_groups().is_empty());
        assert_eq!(t.undecided_pairs(), vec![(0, 1)]);
        let ranking = t.ranking();
        // Means: die 2: (0.7 + 0.4) / 2 = 0.55; die 1: (0.5 + 0.6) / 2 = 0.55; die 0: 0.4.
        assert_eq!(ranking[2].index, 0);
        assert_eq!(ranking[0].beaten + ranking[1].beaten, 2);
        assert_eq!(ranking.iter().map(|e| e.undecided).sum::<usize>(), 2);
    }

    /// The pair-by-pair functions a distributed ranking uses give the local rankings'
    /// results, pair for pair, note for note.
    #[test]
    fn pair_by_pair_rankings_equal_the_local_ones() {
        use crate::rules::{Board, Profile};
        let rules = Rules::new(Board::new(20, 10, 2, 2).unwrap(), Profile::default());
        let dice: Vec<Die> = ["1..6", "1,1,1,6,6,6", "2..7"]
            .iter()
            .map(|d| d.parse().unwrap())
            .collect();
        let plan = SimulationPlan {
            stopping: Stopping::games(2048).unwrap(),
            seed: 7,
            max_rolls: 100_000,
        };
        let none = |_: u64| {};
        let local = simulate_tournament(&rules, &dice, &plan, &none, &|_, _| {}).unwrap();
        let mut by_pair = Tournament::new(dice.clone());
        for (stream, &(i, j)) in by_pair.pairs().iter().enumerate() {
            let counts = simulate_pair(
                &rules,
                &dice,
                &Strategy::Frontmost,
                &plan,
                stream,
                (i, j),
                &none,
                &|_| {},
            );
            by_pair.record_duel(i, j, &counts.unwrap());
        }
        assert_eq!(by_pair, local);

        // A limit that the pair with 2..7 cannot meet, so both paths simulate some pairs.
        let options =
            SolveOptions::new(1e-9, 100_000, Some(crate::exact::memory::FIXED_BYTES)).unwrap();
        let (local, local_notes) = solve_tournament(
            &rules,
            &dice,
            &options,
            &plan,
            (None, &SolvedGames::default()),
            &|_| {},
            ExactListeners::none(),
        )
        .unwrap();
        let mut by_pair = Tournament::new(dice.clone());
        let mut notes = Vec::new();
        for (stream, &(i, j)) in by_pair.pairs().iter().enumerate() {
            let outcome = exact_ranking_pair(
                &rules,
                &dice,
                &options,
                &plan,
                (None, &SolvedGames::default()),
                stream,
                (i, j),
                ExactListeners::none(),
                &mut notes,
            )
            .unwrap();
            by_pair.record_exact_outcome(i, j, &outcome, options.tolerance, &mut notes);
        }
        assert_eq!(by_pair, local);
        assert_eq!(notes, local_notes);
    }
}
