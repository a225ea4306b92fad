//! Ranking at tables of N players: every N-subset of a list of dice played at one table
//! (every seating equally often), and each die's mean P(win) over the tables it sits at.
//!
//! With N players a fair share is 1/N. Every subset counts once, so each die sits at
//! `C(n-1, N-1)` tables and meets every other die at the same number of them: the mean is
//! over the same opponents for every die, as the pairwise ranking's mean is.

use crate::dice::Die;
use crate::rules::Seats;
use crate::sim::{Seating, StreamKey, Table, TableCounts, TableError, TableStop};
use crate::stats::{self, Interval};
use crate::strategy::Strategy;
use serde::Serialize;

/// The random streams of table `k` are `TABLE_STREAMS + k`: far from the pairs' streams
/// `0, 1, ...` of a pairwise ranking with the same seed, so the two share no games.
pub const TABLE_STREAMS: u64 = 1 << 32;

/// One table of a ranking: which dice sat at it and what happened.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableResult {
    /// The dice at this table, as indices into the list (increasing).
    pub members: Vec<usize>,
    /// The counts, die `k` of the counts being `members[k]`.
    #[serde(skip)]
    pub counts: TableCounts,
    /// P(win) of each member, in the order of `members`.
    pub p_win: Vec<f64>,
    /// Games played at this table.
    pub games: u64,
    /// Games nobody won.
    pub unfinished: u64,
}

/// One die's line of a table ranking.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableEntry {
    /// Position of the die in the input list (0-based).
    pub index: usize,
    /// The die.
    pub die: Die,
    /// Mean of P(win) over the tables the die sits at.
    pub mean_p_win: f64,
    /// A 95 % interval of `mean_p_win` ([`stats::mean_of_proportions`]: the tables are
    /// independent runs; a score interval, so it has a width even where the die won every
    /// game or none).
    #[serde(serialize_with = "stats::as_pair")]
    pub ci95: Interval,
    /// Tables the die sits at.
    pub tables: usize,
}

/// All tables of a list of dice and the ranking they give.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableRanking {
    /// Players per table.
    pub players: usize,
    /// Every table, subsets in lexicographic order.
    pub tables: Vec<TableResult>,
    /// The ranking, best first (by mean P(win), then input order).
    pub ranking: Vec<TableEntry>,
}

/// Every `k`-subset of `0..n`, in lexicographic order.
pub fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    each_subset(n, k).collect()
}

/// [`subsets`] one at a time, nothing listed ahead: the next subset is made from the last.
pub fn each_subset(n: usize, k: usize) -> impl Iterator<Item = Vec<usize>> {
    let mut next = (k <= n).then(|| (0..k).collect::<Vec<usize>>());
    std::iter::from_fn(move || {
        let current = next.take()?;
        // Raise the last member that can rise; those after it follow it one by one.
        let mut following = current.clone();
        if let Some(i) = (0..k).rev().find(|&i| following[i] < n - k + i) {
            following[i] += 1;
            for j in i + 1..k {
                following[j] = following[j - 1] + 1;
            }
            next = Some(following);
        }
        Some(current)
    })
}

/// The number of tables of `players` among `dice` dice, `C(dice, players)`; `None` when it
/// does not fit in `u64`.
pub fn table_count(dice: usize, players: usize) -> Option<u64> {
    if players > dice {
        return Some(0);
    }
    // C(n - r + i, i) for i = 1..=r: every division is exact; u128 holds each product.
    let (n, r) = (dice as u128, players.min(dice - players) as u128);
    let mut c: u128 = 1;
    for i in 1..=r {
        c = c * (n - r + i) / i;
        if c > u128::from(u64::MAX) {
            return None;
        }
    }
    u64::try_from(c).ok()
}

/// Bytes a ranking at tables keeps per table: its result (members, counts, P(win)) and its
/// share of the report. Measured: 350 B a table of three (34,220 tables of 60 dice), 450 B
/// of four (487,635 tables), in every output format; twice that for the Python package,
/// which makes every form at once, and rounded up.
pub const BYTES_PER_TABLE: u64 = 1024;

/// Bytes a ranking keeps per ordered pair of dice: the matrix, its figures and its cells in
/// the report. Measured: 740 B with `--format csv` (the largest form; 400 dice), about
/// 1,000 B for every form at once (the Python package), and half again on top.
pub const BYTES_PER_PAIR: u64 = 1536;

/// The memory a ranking of `dice` dice keeps: every ordered pair of its matrix and, at tables
/// of `players` (if any), every table; `None` beyond `u64`. The counts are checked before
/// anything is built, so a ranking that cannot fit is refused before its first game.
pub fn ranking_memory(dice: usize, players: Option<usize>) -> Option<u64> {
    let ordered_pairs = (dice as u64).checked_mul(dice as u64)?;
    let tables = match players {
        Some(p) => table_count(dice, p)?,
        None => 0,
    };
    ordered_pairs
        .checked_mul(BYTES_PER_PAIR)?
        .checked_add(tables.checked_mul(BYTES_PER_TABLE)?)
}

/// Plays every `seats.players()`-subset of `dice` at a table (every seating equally
/// often, every die playing `strategy`) to `games` games each, or to every die's half-width `precision`; table `k` uses
/// stream `TABLE_STREAMS + k` of `seed`. `progress` is told the games of every chunk.
#[allow(clippy::too_many_arguments)]
pub fn simulate_tables(
    seats: &Seats,
    dice: &[Die],
    strategy: &Strategy,
    games: Option<u64>,
    precision: f64,
    seed: u64,
    max_rolls: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<TableRanking, TableError> {
    let players = seats.players();
    let mut tables = Vec::new();
    for (k, members) in each_subset(dice.len(), players).enumerate() {
        let seated: Vec<&Die> = members.iter().map(|&i| &dice[i]).collect();
        let table =
            Table::new(seats, &seated, max_rolls, Seating::All)?
                .playing(vec![strategy.clone(); players])?;
        let stop: TableStop = table.stopping(games, precision)?;
        let key = StreamKey::new(seed).with_stream(TABLE_STREAMS + k as u64);
        let counts = table.run(key, stop, progress)?;
        tables.push(TableResult {
            p_win: (0..players).map(|i| counts.p_win(i)).collect(),
            games: counts.games,
            unfinished: counts.unfinished,
            members,
            counts,
        });
    }
    let ranking = rank(dice, &tables);
    Ok(TableRanking {
        players,
        tables,
        ranking,
    })
}

/// Each die's mean P(win) over its tables, best first.
fn rank(dice: &[Die], tables: &[TableResult]) -> Vec<TableEntry> {
    let mut entries: Vec<TableEntry> = (0..dice.len())
        .map(|i| {
            let mine: Vec<(f64, u64)> = tables
                .iter()
                .filter_map(|t| {
                    let k = t.members.iter().position(|&m| m == i)?;
                    Some((t.p_win[k], t.games))
                })
                .collect();
            let mean = mine.iter().map(|(p, _)| p).sum::<f64>() / mine.len().max(1) as f64;
            TableEntry {
                index: i,
                die: dice[i].clone(),
                mean_p_win: mean,
                ci95: stats::mean_of_proportions(&mine, stats::Z95),
                tables: mine.len(),
            }
        })
        .collect();
    entries.sort_by(|a, b| {
        b.mean_p_win
            .total_cmp(&a.mean_p_win)
            .then(a.index.cmp(&b.index))
    });
    entries
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_are_all_there_once() {
        assert_eq!(subsets(4, 2).len(), 6);
        assert_eq!(subsets(6, 3).len(), 20);
        assert_eq!(subsets(6, 4).len(), 15);
        assert_eq!(subsets(5, 4)[0], vec![0, 1, 2, 3]);
        assert_eq!(subsets(3, 3), vec![vec![0, 1, 2]]);
        // Every die sits at C(n-1, k-1) tables.
        let s = subsets(6, 4);
        for i in 0..6 {
            assert_eq!(s.iter().filter(|m| m.contains(&i)).count(), 10);
        }
        assert!(subsets(2, 3).is_empty());
        assert_eq!(subsets(3, 0), vec![Vec::<usize>::new()]);
    }

    #[test]
    fn the_tables_are_counted_with_checked_arithmetic() {
        for (n, k) in [(6, 3), (6, 4), (7, 3), (3, 3), (2, 3)] {
            assert_eq!(
                table_count(n, k),
                Some(subsets(n, k).len() as u64),
                "{n} {k}"
            );
        }
        assert_eq!(table_count(300, 4), Some(330_791_175));
        assert_eq!(table_count(3000, 3), Some(4_495_501_000));
        assert_eq!(table_count(usize::MAX, 4), None);
        assert_eq!(ranking_memory(usize::MAX, None), None);
        assert_eq!(ranking_memory(1 << 40, Some(3)), None);
        // 300 dice at tables of four: far beyond any machine, known before any table.
        let bytes = ranking_memory(300, Some(4)).unwrap();
        assert!(bytes > 300_000_000_000, "{bytes}");
    }

    /// The subsets are made one by one: the first of a count far beyond memory comes at once.
    #[test]
    fn the_subsets_of_a_huge_list_come_one_at_a_time() {
        let mut all = each_subset(1_000_000, 4);
        assert_eq!(all.next(), Some(vec![0, 1, 2, 3]));
        assert_eq!(all.next(), Some(vec![0, 1, 2, 4]));
        assert_eq!(each_subset(5, 2).last(), Some(vec![3, 4]));
    }
}
