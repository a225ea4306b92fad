//! The matrix of a ranking and what it tells: P(row die beats column die) with an interval
//! per pair, the ranking by mean win probability, undecided pairs and intransitive cycles.

use crate::dice::Die;
use crate::exact::{Bounds, ExactResult};
use crate::sim::DuelCounts;
use crate::stats::{self, Interval};
use serde::Serialize;

/// How a pairwise figure was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// Monte Carlo; the interval is a 95 % confidence interval.
    Simulated,
    /// Exact solver; the interval is a certified bound.
    Exact,
}

/// P(row die beats column die) with its interval.
///
/// Some games never end (dice whose pieces get stuck), so P(row wins) and P(column wins)
/// need not add up to 1. Who "beats" whom is therefore decided by the share of the
/// decided games the row die wins, P(row wins | the game ends): above 1/2 means the row
/// die wins more often than the column die. When every game ends this is the same as
/// P(row wins) > 1/2.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PairFigure {
    /// P(row die wins): the figure of merit, each die starting half the games.
    pub p: f64,
    /// 95 % confidence interval (simulation) or certified bounds (exact) of `p`.
    pub interval: Interval,
    /// P(row die wins | the game ends).
    pub share: f64,
    /// Interval of `share`, of the same kind as `interval`.
    pub share_interval: Interval,
    /// P(the game never ends), or the fraction of unfinished games in a simulation.
    pub unfinished: f64,
    /// How the figure was obtained.
    pub method: Method,
    /// Games played, for simulated figures.
    pub games: Option<u64>,
}

impl PairFigure {
    /// The row die wins more games than the column die, beyond doubt at the interval's level.
    pub fn beats(&self) -> bool {
        self.share_interval.lo > 0.5
    }
    /// Not decided: the interval of P(row wins | the game ends) contains 1/2.
    pub fn undecided(&self) -> bool {
        self.share_interval.contains(0.5)
    }
}

/// One die's line in the ranking.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RankEntry {
    /// Position of the die in the input list (0-based).
    #[serde(skip)]
    pub index: usize,
    /// The die.
    pub die: Die,
    /// Mean of P(this die beats the other) over all opponents.
    pub mean_p: f64,
    /// Opponents this die beats decidedly (interval above 0.5).
    pub beaten: usize,
    /// Opponents against which the result is undecided (interval contains 0.5).
    pub undecided: usize,
}

/// The pairwise results of a list of dice.
#[derive(Clone, Debug, PartialEq)]
pub struct Tournament {
    /// The dice, in input order.
    pub dice: Vec<Die>,
    /// `matrix[i][j]`: P(die i beats die j); `None` on the diagonal.
    pub matrix: Vec<Vec<Option<PairFigure>>>,
}

impl Tournament {
    /// A tournament with no results yet.
    pub fn new(dice: Vec<Die>) -> Tournament {
        let n = dice.len();
        Tournament {
            dice,
            matrix: vec![vec![None; n]; n],
        }
    }

    /// The unordered pairs `(i, j)`, `i < j`, in a fixed order (their index is the pair's
    /// random stream in a simulated ranking).
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let n = self.dice.len();
        (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect()
    }

    /// Records a duel's counts for the pair (`i` as die A, `j` as die B).
    pub fn record_duel(&mut self, i: usize, j: usize, counts: &DuelCounts) {
        let total = counts.total();
        let decided = total.a_wins + total.b_wins;
        let unfinished = total.unfinished as f64 / total.games as f64;
        let figure = |wins: u64, p: f64, interval: Interval| PairFigure {
            p,
            interval,
            share: wins as f64 / decided as f64,
            share_interval: stats::wilson(wins, decided, stats::Z95),
            unfinished,
            method: Method::Simulated,
            games: Some(total.games),
        };
        self.matrix[i][j] = Some(figure(total.a_wins, counts.p_a(), counts.ci95_a()));
        self.matrix[j][i] = Some(figure(total.b_wins, counts.p_b(), counts.ci95_b()));
    }

    /// Records an exact result for the pair (`i` as die A, `j` as die B).
    pub fn record_exact(&mut self, i: usize, j: usize, result: &ExactResult) {
        let b = &result.bounds;
        let figure = |p: f64, mine: &Bounds, theirs: &Bounds| {
            let (p_lo, p_hi) = (mine.lo.max(0.0), mine.hi.min(1.0));
            let (q_lo, q_hi) = (theirs.lo.max(0.0), theirs.hi.min(1.0));
            let q = (q_lo + q_hi) / 2.0;
            let (mine, theirs) = (
                Interval { lo: p_lo, hi: p_hi },
                Interval { lo: q_lo, hi: q_hi },
            );
            PairFigure {
                p,
                interval: mine,
                share: share_of(p, q),
                share_interval: share_bounds(mine, theirs),
                unfinished: result.p_never,
                method: Method::Exact,
                games: None,
            }
        };
        self.matrix[i][j] = Some(figure(result.p_a, &b.p_a, &b.p_b));
        self.matrix[j][i] = Some(figure(result.p_b, &b.p_b, &b.p_a));
    }

    /// The ranking, best first: by mean win probability, then by opponents beaten.
    pub fn ranking(&self) -> Vec<RankEntry> {
        let n = self.dice.len();
        let mut entries: Vec<RankEntry> = (0..n)
            .map(|i| {
                let row: Vec<&PairFigure> = self.matrix[i].iter().flatten().collect();
                RankEntry {
                    index: i,
                    die: self.dice[i].clone(),
                    mean_p: row.iter().map(|f| f.p).sum::<f64>() / row.len().max(1) as f64,
                    beaten: row.iter().filter(|f| f.beats()).count(),
                    undecided: row.iter().filter(|f| f.undecided()).count(),
                }
            })
            .collect();
        entries.sort_by(|a, b| {
            b.mean_p
                .total_cmp(&a.mean_p)
                .then(b.beaten.cmp(&a.beaten))
                .then(a.index.cmp(&b.index))
        });
        entries
    }

    /// Pairs `(i, j)`, `i < j`, whose interval contains 0.5.
    pub fn undecided_pairs(&self) -> Vec<(usize, usize)> {
        self.pairs()
            .into_iter()
            .filter(|&(i, j)| self.matrix[i][j].is_some_and(|f| f.undecided()))
            .collect()
    }

    /// Intransitive triples: `[a, b, c]` with a beats b, b beats c, c beats a (decidedly),
    /// each listed once, starting from its smallest index.
    pub fn three_cycles(&self) -> Vec<[usize; 3]> {
        let n = self.dice.len();
        let beats = |i: usize, j: usize| self.matrix[i][j].is_some_and(|f| f.beats());
        let mut cycles = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                for c in a + 1..n {
                    if b != c && beats(a, b) && beats(b, c) && beats(c, a) {
                        cycles.push([a, b, c]);
                    }
                }
            }
        }
        cycles
    }

    /// Groups of two or more dice that beat each other around in a cycle (the strongly
    /// connected components of the "beats decidedly" graph). Finds cycles of any length,
    /// also those that are not triangles because some pair is undecided.
    pub fn cyclic_groups(&self) -> Vec<Vec<usize>> {
        let n = self.dice.len();
        let beats = |i: usize, j: usize| self.matrix[i][j].is_some_and(|f| f.beats());
        // Reachability by Floyd-Warshall: lists have a handful of dice.
        let mut reach = vec![vec![false; n]; n];
        for (i, row) in reach.iter_mut().enumerate() {
            for (j, cell) in row.iter_mut().enumerate() {
                *cell = beats(i, j);
            }
        }
        for k in 0..n {
            for i in 0..n {
                for j in 0..n {
                    if reach[i][k] && reach[k][j] {
                        reach[i][j] = true;
                    }
                }
            }
        }
        let mut seen = vec![false; n];
        let mut groups = Vec::new();
        for i in 0..n {
            if seen[i] || !reach[i][i] {
                continue;
            }
            let group: Vec<usize> = (0..n).filter(|&j| reach[i][j] && reach[j][i]).collect();
            for &j in &group {
                seen[j] = true;
            }
            groups.push(group);
        }
        groups
    }
}

/// P(row wins | the game ends) = `p / (p + q)` for P(row wins) `p` and P(column wins)
/// `q`; 1/2 when neither can win.
pub fn share_of(p: f64, q: f64) -> f64 {
    if p + q > 0.0 { p / (p + q) } else { 0.5 }
}

/// Bounds on P(row wins | the game ends) from bounds on P(row wins) (`mine`) and on
/// P(column wins) (`theirs`): `p / (p + q)` grows with `p` and falls with `q`, so its
/// bounds come from the corners.
pub fn share_bounds(mine: Interval, theirs: Interval) -> Interval {
    Interval {
        lo: share_of(mine.lo, theirs.hi),
        hi: share_of(mine.hi, theirs.lo),
    }
}
