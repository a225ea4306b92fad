//! The game's successor function over the per-player tables
//! ([`crate::exact::shared::tables::PlayerTables`]): where each face leads from a pair of
//! configurations, computed on the fly instead of stored.
//!
//! Pairs that cannot occur in a game (two pieces on one track field, a configuration that
//! has already won) are part of the product but never the successor of a pair that can
//! occur; every pass skips them (their slots stay 0 and are never read). The others are
//! "live". As a [`Successors`] space the game addresses a state as its cell (the pair of
//! configurations) and side to move, and keeps the state's flags in the cell's byte,
//! shifted by the side ([`super::layout`]): no extra memory per state.

use super::layout::{GoalClass, SIDE_BITS, by_goal_count};
use crate::dice::Die;
use crate::exact::shared::encode::ConfigIndex;
use crate::exact::shared::reachable;
use crate::exact::shared::search::{Step, Successors, in_order};
use crate::exact::shared::tables::{MoveEntry, NO_LANDING, PlayerTables};
use crate::rules::{GameState, Rules};
use std::sync::atomic::AtomicU8;
use std::sync::atomic::Ordering::{Relaxed, SeqCst};
use std::sync::atomic::fence;

/// B's move with one face from the configuration of the current row.
#[derive(Clone, Copy)]
pub struct RowMove {
    /// The face's probability.
    pub p: f64,
    /// B wins.
    pub won: bool,
    /// B rolls again.
    pub same: bool,
    /// B's configuration afterwards.
    pub next: usize,
    /// The field B's piece landed on, in A's numbering, or [`NO_LANDING`].
    pub landing: u8,
    /// Who rolls next and the tries counter, per tries counter before the roll
    /// ([`crate::exact::shared::tables::MoveEntry::turn`]).
    pub turn: [u8; 3],
}

/// A row of the product: B's configuration `b` and its moves, computed once per row.
pub struct Row {
    /// B's configuration.
    pub b: usize,
    /// B's moves from it, one per distinct face.
    pub moves: Vec<RowMove>,
    /// Per landing field of a move of A ([`MoveEntry::landing`], [`NO_LANDING`] included):
    /// the first cell of the row the move leads to (B's configuration after the capture
    /// there, if any). Looked up once per row, not once per move.
    landing_rows: Box<[usize; 256]>,
}

impl Row {
    /// The cell A's move `e` leads to from the pair `(a, b)` of this row (`e` not winning).
    #[inline(always)]
    pub fn a_target(&self, e: &MoveEntry) -> usize {
        self.landing_rows[usize::from(e.landing)] + e.next as usize
    }
}

/// The game in table form, with a flag byte per cell.
pub struct Game {
    ta: PlayerTables,
    tb: PlayerTables,
    /// Configurations of A (the columns) and of B (the rows).
    pub na: usize,
    /// Configurations of B.
    pub nb: usize,
    /// `(face index, probability)` of A's distinct faces.
    pub fa: Vec<(usize, f64)>,
    fb: Vec<(usize, f64)>,
    won_a: Vec<bool>,
    won_b: Vec<bool>,
    /// Track fields each configuration occupies, in A's numbering; a pair that shares one
    /// cannot occur in a game (nor follow from one that can) and is skipped.
    occ_a: Vec<u64>,
    occ_b: Vec<u64>,
    /// Per configuration: it may roll again without moving (`three-tries`, nothing in
    /// play), so its states have three tries levels ([`Game::levels`]).
    tries_a: Vec<bool>,
    tries_b: Vec<bool>,
    /// Some configuration of either player has tries levels.
    pub three_tries: bool,
    /// Fields of the track (the landing fields of moves that can capture).
    track_len: usize,
    /// Each player's configurations by pieces in the goal, in index order.
    pub classes_a: Vec<GoalClass>,
    /// B's classes.
    pub classes_b: Vec<GoalClass>,
    /// The opening pair `(a, b)` (both sides: either player may start).
    pub start: (usize, usize),
    /// Per cell: the flags of side 0 in the bits [`SIDE_BITS`], of side 1 shifted by one.
    pub flags: Vec<AtomicU8>,
    /// Per row (configuration of B): the flag bits some state of the row gained since the
    /// row was last visited by [`Successors::pass_gained`] (all clear at first, as are the
    /// flags).
    gained: Vec<AtomicU8>,
}

impl Game {
    /// The reachable configurations of the player with `die`, in the solver's order, and
    /// their classes by goal count ([`by_goal_count`]).
    pub fn configs(rules: &Rules, die: &Die) -> (ConfigIndex, Vec<GoalClass>) {
        by_goal_count(rules.board(), reachable::player_configs(rules, die))
    }

    /// Tabulates the game of `a` (player 1) against `b` over their [`Game::configs`]; all
    /// flags clear.
    pub fn new(
        rules: &Rules,
        [a, b]: [&Die; 2],
        [(ca, classes_a), (cb, classes_b)]: [(ConfigIndex, Vec<GoalClass>); 2],
    ) -> Game {
        let board = rules.board();
        let ta = PlayerTables::new(rules, 0, a, &ca);
        let tb = PlayerTables::new(rules, 1, b, &cb);
        let track = board.track_mask();
        let start = GameState::start(0).pieces;
        let sa = ca.index(start[0]).expect("opening configuration") as usize;
        let sb = cb.index(start[1]).expect("opening configuration") as usize;
        let (na, nb) = (ca.len(), cb.len());
        let (tries_a, tries_b) = (takes_tries(&ta), takes_tries(&tb));
        Game {
            three_tries: tries_a.iter().chain(&tries_b).any(|&t| t),
            track_len: board.track_len() as usize,
            tries_a,
            tries_b,
            fa: probs(&ta),
            fb: probs(&tb),
            won_a: ca.masks().iter().map(|&m| rules.has_won(m)).collect(),
            won_b: cb.masks().iter().map(|&m| rules.has_won(m)).collect(),
            occ_a: ca.masks().iter().map(|&m| m & track).collect(),
            occ_b: cb
                .masks()
                .iter()
                .map(|&m| board.track_in_other_view(1, m))
                .collect(),
            na,
            nb,
            classes_a,
            classes_b,
            ta,
            tb,
            start: (sa, sb),
            flags: (0..na * nb).map(|_| AtomicU8::new(0)).collect(),
            gained: (0..nb).map(|_| AtomicU8::new(0)).collect(),
        }
    }

    /// The cell of the pair `(a, b)`.
    #[inline(always)]
    pub fn cell(&self, a: usize, b: usize) -> usize {
        b * self.na + a
    }

    /// The flags of side `side` of `cell`, in the bits [`SIDE_BITS`].
    #[inline(always)]
    pub fn side_flags(&self, cell: usize, side: usize) -> u8 {
        (self.flags[cell].load(Relaxed) >> side) & SIDE_BITS
    }

    /// Whether B has won in configuration `b`: its row holds no live pair and every pass
    /// skips it.
    #[inline(always)]
    pub fn won_b(&self, b: usize) -> bool {
        self.won_b[b]
    }

    /// The track fields B's configuration `b` occupies, in A's numbering.
    #[inline(always)]
    pub fn occ_b(&self, b: usize) -> u64 {
        self.occ_b[b]
    }

    /// Whether the pair of `a` and a B configuration that has not won and occupies `occ_b`
    /// can occur: A has not won, no shared track field.
    #[inline(always)]
    pub fn live(&self, a: usize, occ_b: u64) -> bool {
        !self.won_a[a] && self.occ_a[a] & occ_b == 0
    }

    /// B's configuration `b` and its moves.
    pub fn row(&self, b: usize) -> Row {
        let moves = self
            .fb
            .iter()
            .map(|&(k, p)| {
                let e = self.tb.entry(b as u32, k);
                RowMove {
                    p,
                    won: e.won,
                    same: e.turn[0] & 4 != 0,
                    next: e.next as usize,
                    landing: e.landing,
                    turn: e.turn,
                }
            })
            .collect();
        let mut landing_rows = Box::new([b * self.na; 256]);
        for (field, row) in landing_rows.iter_mut().enumerate().take(self.track_len) {
            *row = self.tb.capture(b as u32, field as u8) as usize * self.na;
        }
        Row {
            b,
            moves,
            landing_rows,
        }
    }

    /// A's moves from configuration `a`, one per distinct face, in the order of
    /// [`Game::fa`].
    #[inline(always)]
    pub fn a_entries(&self, a: usize) -> &[MoveEntry] {
        self.ta.entries(a as u32)
    }

    /// The cell B's move `m` (of the current row, not winning) leads to from A's
    /// configuration `a`: A loses the piece B lands on, if it has one there (the capture
    /// table is read only then).
    #[inline(always)]
    pub fn b_target(&self, m: &RowMove, a: usize) -> usize {
        let hit = m.landing != NO_LANDING && self.occ_a[a] >> m.landing & 1 != 0;
        let a2 = if hit {
            self.ta.capture(a as u32, m.landing) as usize
        } else {
            a
        };
        m.next * self.na + a2
    }

    /// Tries levels of the states at side `side` of the pair `(a, b)`: 3 when the mover
    /// may roll again without moving (`three-tries`, nothing in play), else 1 (only level
    /// 0 occurs).
    #[inline(always)]
    pub fn levels(&self, a: usize, b: usize, side: usize) -> u8 {
        let tries = if side == 0 {
            self.tries_a[a]
        } else {
            self.tries_b[b]
        };
        if tries { 3 } else { 1 }
    }

    /// Calls `f(probability, successor)` for each distinct face of the mover at side
    /// `side` of the pair `(a, row.b)` with tries level `tries`: the successor's cell,
    /// side to move and tries level (non-zero only for another try, which stays in the
    /// cell), or `None` when the mover wins. A face that moves nothing leads to the cell
    /// itself.
    #[inline(always)]
    pub fn for_each_move(
        &self,
        row: &Row,
        a: usize,
        (side, tries): (usize, u8),
        mut f: impl FnMut(f64, Option<Target>),
    ) {
        let tries = usize::from(tries);
        if side == 0 {
            for (e, &(_, p)) in self.a_entries(a).iter().zip(&self.fa) {
                let turn = e.turn[tries];
                let next = || (row.a_target(e), usize::from(turn & 4 == 0), turn & 3);
                f(p, (!e.won).then(next));
            }
        } else {
            for m in &row.moves {
                let turn = m.turn[tries];
                let next = || (self.b_target(m, a), usize::from(turn & 4 != 0), turn & 3);
                f(m.p, (!m.won).then(next));
            }
        }
    }
}

/// A successor state: cell, side to move, tries level.
pub type Target = (usize, usize, u8);

/// Per configuration of `t`: whether it has tries levels, i.e. some face at tries level 0
/// gives another try. The solver keeps only level 0 of each state and folds the others
/// into the exact solve of the cell ([`super::tries`]); that is exact because of what is
/// checked here (and what the rules guarantee): a face either acts the same at every level
/// without another try, or moves nothing and gives the tries `0 -> 1 -> 2 ->` pass. So the
/// levels of a state share every successor outside the cell and can reach a win exactly
/// when level 0 can. Panics if a table breaks this.
fn takes_tries(t: &PlayerTables) -> Vec<bool> {
    let faces = t.faces.len();
    (0..t.moves.len() / faces.max(1))
        .map(|c| {
            let entries = (0..faces).map(|k| t.entry(c as u32, k));
            let takes = entries.clone().any(|e| e.turn[0] & 3 != 0);
            for e in entries.filter(|_| takes) {
                let same_everywhere = e.turn == [e.turn[0]; 3] && e.turn[0] & 3 == 0;
                let another_try = !e.won
                    && e.next == c as u32
                    && e.landing == NO_LANDING
                    && e.turn == [4 | 1, 4 | 2, 0];
                assert!(
                    same_everywhere || another_try,
                    "tries levels of configuration {c}: {e:?}"
                );
            }
            takes
        })
        .collect()
}

/// `(face index, probability)` of the distinct faces of a player's tables.
fn probs(t: &PlayerTables) -> Vec<(usize, f64)> {
    let total: u32 = t.faces.iter().map(|&(_, c)| c).sum();
    t.faces
        .iter()
        .enumerate()
        .map(|(k, &(_, c))| (k, f64::from(c) / f64::from(total)))
        .collect()
}

impl Successors for Game {
    /// `(cell, side to move)`.
    type State = (usize, usize);
    type Batch = Row;

    /// Rows most advanced first (least advanced first if `forwards`), the live pairs of a
    /// row on all threads, side 0 then side 1 of a pair (and side 0 again if side 1
    /// changed).
    fn pass(&self, forwards: bool, visit: impl Fn(&Row, (usize, usize)) -> bool + Sync) -> bool {
        self.rows_pass(forwards, None, visit)
    }

    /// [`Game::pass`] over the rows that gained a bit of `gained` only: the reachability
    /// search's later passes spread the few states a capture reached, not the whole product.
    fn pass_gained(
        &self,
        forwards: bool,
        gained: u8,
        visit: impl Fn(&Row, (usize, usize)) -> bool + Sync,
    ) -> bool {
        self.rows_pass(forwards, Some(gained), visit)
    }

    #[inline(always)]
    fn for_each_successor(
        &self,
        row: &Row,
        (cell, side): (usize, usize),
        mut f: impl FnMut(Step<(usize, usize)>),
    ) {
        let a = cell - row.b * self.na;
        // The search sees only level 0 of each state: the moves of the other tries levels
        // count as its own (the levels form one turn within the cell, see `takes_tries`).
        for tries in 0..self.levels(a, row.b, side) {
            self.for_each_move(row, a, (side, tries), |_, m| match m {
                None => f(Step::Win(side)),
                Some((next, to, 0)) => f(Step::Next((next, to))),
                // The next try: visited as the next level.
                Some(_) => {}
            });
        }
    }

    #[inline(always)]
    fn flags(&self, (cell, side): (usize, usize)) -> u8 {
        self.side_flags(cell, side)
    }

    #[inline(always)]
    fn add_flags(&self, (cell, side): (usize, usize), bits: u8) {
        let shifted = bits << side;
        if self.flags[cell].load(Relaxed) & shifted != shifted {
            // Sequentially consistent with the clearing in `rows_pass`: either the row's
            // visit sees this flag or its record still shows it. On x86 these are the
            // same instructions as relaxed ones.
            self.flags[cell].fetch_or(shifted, SeqCst);
            // Written only when it changes: both threads add to the same rows.
            let row = &self.gained[cell / self.na];
            if row.load(SeqCst) & bits != bits {
                row.fetch_or(bits, SeqCst);
            }
        }
    }
}

impl Game {
    /// The passes of [`Successors`]: every row, or with `only_gained` the rows that gained
    /// one of its bits since their last such visit. Each thread takes the next row and
    /// visits it whole ([`in_order`]). A row's record is cleared before its pairs are
    /// visited, and whatever a visit adds to a row is recorded after the flag (both
    /// sequentially consistent, with a fence before the row's flags are read), so a later
    /// visit sees it: in this pass if the row's visit had not begun, else in the next.
    fn rows_pass(
        &self,
        forwards: bool,
        only_gained: Option<u8>,
        visit: impl Fn(&Row, (usize, usize)) -> bool + Sync,
    ) -> bool {
        let visit_row = |b: usize| {
            if self.won_b[b] {
                return false;
            }
            if let Some(bits) = only_gained {
                let gained = self.gained[b].fetch_and(!bits, SeqCst);
                if gained & bits == 0 {
                    return false;
                }
                fence(SeqCst);
            }
            let row = self.row(b);
            let occ = self.occ_b[b];
            let mut changed = false;
            for k in 0..self.na {
                let a = if forwards { self.na - 1 - k } else { k };
                if !self.live(a, occ) {
                    continue;
                }
                let cell = self.cell(a, b);
                // A roll that moves nothing passes the turn within the cell: when side
                // 1 changed, side 0 may follow at once rather than a pass later.
                let first = visit(&row, (cell, 0));
                let second = visit(&row, (cell, 1));
                changed |= first | second | (second && visit(&row, (cell, 0)));
            }
            changed
        };
        in_order(self.nb, 1, forwards, true, |rows| {
            rows.fold(false, |changed, b| visit_row(b) | changed)
        })
    }
}
