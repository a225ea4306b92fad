//! The exact solution of a table of N players (`docs/src/rules.md`, "Three and four players") where
//! the chain fits: one piece each on the full board with 3 or 4 players, two pieces each on small
//! boards. It exists to check the simulator, so it is written for clarity over speed, on the shared
//! exact layer (see the module docs of [`crate::exact`]):
//!
//! * the state space is the product of each seat's reachable configurations, times the seat
//!   to move and the tries counter; a state's successors come from [`Seats::roll`], the
//!   table's one rule function, tabulated once per state and face;
//! * [`search::reach`] finds the states reachable from the opening, [`search::can_reach`]
//!   the ones that can reach a win, [`search::can_reach_never`] the never-ending set `N`;
//! * one Gauss-Seidel sweep updates, for every reachable state outside `N`, each seat's
//!   win probability `V_s <- sum_face p * (1 if s wins by it, else V_s(next))` and the
//!   never-ending probability `Z <- sum_face p * Z(next)` (with `Z = 1` held on `N`), all
//!   from 0; a roll that leads back to the same state (a 6 that moves nothing) is solved
//!   exactly by dividing by `1 - p(self)`. [`crate::fixpoint::iterate`] drives the sweeps.
//!
//! # The certificate with N players
//! The update is monotone and starts from 0, so every `V_s` and `Z` is a lower bound of
//! its probability (as in the two-player solver). The chain leaves the transient states
//! with probability 1, so at the opening the N win probabilities and P(never) sum to 1;
//! hence `P(seat s wins) <= 1 - sum_{t != s} V_t - Z`. The sweeps stop when the mass not
//! yet assigned, `1 - sum_t V_t - Z`, is at most the tolerance: it is the width of every
//! seat's interval.
//!
//! The groups of states linked by "nothing moved" (the same pieces, another seat to move)
//! are swept one state at a time here, not solved as a block as the two-player solver does;
//! that costs sweeps, not correctness.

use crate::dice::Die;
use crate::exact::shared::bounds::Bounds;
use crate::exact::shared::encode::ConfigIndex;
use crate::exact::shared::options::SolveOptions;
use crate::exact::shared::reachable::player_configs;
use crate::exact::shared::search::{self, Step, Successors};
use crate::fixpoint::{self, NotConverged, SweepReport};
use crate::rules::{MAX_SEATS, Seats};
use std::fmt;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

const REACHED: u8 = 1;
const SPREAD: u8 = 2;
const WINS: u8 = 4;
const NEVER: u8 = 8;

/// A successor code at or above this is a win of seat `code - WIN_CODE`.
const WIN_CODE: u32 = u32::MAX - MAX_SEATS as u32;
/// An unused face slot of a state (its mover's die has fewer distinct faces).
const NO_FACE: u32 = u32::MAX;

/// Why a table was not solved exactly.
#[derive(Clone, Debug, PartialEq)]
pub enum SeatsExactError {
    /// Not one die per seat.
    DiceCount {
        /// Dice given.
        dice: usize,
        /// Seats.
        players: usize,
    },
    /// The options are refused by the shared stopping rule.
    Options(String),
    /// The chain's tables would exceed the memory limit (or do not fit an index).
    Memory {
        /// States of the product space.
        states: u64,
        /// Bytes the tables need.
        bytes: u64,
        /// The limit.
        limit: u64,
    },
    /// The iteration did not certify the tolerance within the sweep limit.
    NotConverged(NotConverged),
}

impl fmt::Display for SeatsExactError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeatsExactError::DiceCount { dice, players } => {
                write!(
                    f,
                    "{dice} dice for {players} players: expected one die per seat"
                )
            }
            SeatsExactError::Options(e) => write!(f, "{e}"),
            SeatsExactError::Memory {
                states,
                bytes,
                limit,
            } => write!(
                f,
                "{states} states need {bytes} bytes of tables, more than the limit of {limit}"
            ),
            SeatsExactError::NotConverged(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SeatsExactError {}

/// The exact figures of one table with the dice in fixed seats (seat 0 moves first).
#[derive(Clone, Debug, PartialEq)]
pub struct SeatsExact {
    /// `p_win[s]`: certified bounds of P(seat `s` wins).
    pub p_win: Vec<Bounds>,
    /// Certified bounds of P(the game never ends).
    pub p_never: Bounds,
    /// Sweeps run.
    pub sweeps: usize,
    /// States reachable from the opening.
    pub reachable: u64,
    /// Of those, states from which no win can be reached.
    pub never_states: u64,
}

impl SeatsExact {
    /// The midpoint of seat `s`'s interval.
    pub fn p(&self, seat: usize) -> f64 {
        (self.p_win[seat].lo + self.p_win[seat].hi) / 2.0
    }
}

/// The chain of a table: configurations, successor table and flags.
struct Chain<'a> {
    seats: &'a Seats,
    players: usize,
    /// Each seat's reachable configurations (the shared search,
    /// [`crate::exact::shared::reachable::player_configs`]).
    configs: Vec<ConfigIndex>,
    /// `stride[s]`: the index weight of seat `s`'s configuration; `stride[players]` is the
    /// number of configuration tuples.
    stride: Vec<usize>,
    len: usize,
    /// Per seat: the distinct faces of its die and their probabilities.
    faces: Vec<Vec<(u32, f64)>>,
    width: usize,
    /// `succ[state * width + k]`: where the mover's `k`-th distinct face leads.
    succ: Vec<u32>,
    flags: Vec<AtomicU8>,
}

impl<'a> Chain<'a> {
    fn build(seats: &'a Seats, dice: &[&Die], limit: Option<u64>) -> Result<Self, SeatsExactError> {
        let players = seats.players();
        let rules = seats.rules();
        if let Err(crate::exact::shared::ExactError::Memory {
            states,
            bytes,
            limit,
            ..
        }) = crate::exact::shared::memory::check_enumeration(rules, dice, limit)
        {
            return Err(SeatsExactError::Memory {
                states,
                bytes,
                limit,
            });
        }
        let configs: Vec<ConfigIndex> = dice.iter().map(|d| player_configs(rules, d)).collect();
        let faces: Vec<Vec<(u32, f64)>> = dice
            .iter()
            .map(|d| {
                let n = d.faces().len() as f64;
                d.face_counts()
                    .into_iter()
                    .map(|(face, count)| (face, f64::from(count) / n))
                    .collect()
            })
            .collect();
        let width = faces.iter().map(Vec::len).max().unwrap_or(1);
        let mut stride = vec![1usize; players + 1];
        let mut product: u64 = 1;
        for s in 0..players {
            stride[s] = product as usize;
            product = product.saturating_mul(configs[s].len() as u64);
        }
        stride[players] = product as usize;
        let tries_levels = if rules.profile().three_tries { 3 } else { 1 };
        let states = product
            .saturating_mul(players as u64)
            .saturating_mul(tries_levels);
        let per_state = 8 * (players as u64 + 1) + 4 * width as u64 + 1;
        let bytes = states.saturating_mul(per_state);
        let limit_bytes = limit.unwrap_or(u64::MAX);
        if bytes > limit_bytes || states >= u64::from(WIN_CODE) {
            return Err(SeatsExactError::Memory {
                states,
                bytes,
                limit: limit_bytes,
            });
        }
        let len = states as usize;
        let mut chain = Chain {
            seats,
            players,
            configs,
            stride,
            len,
            faces,
            width,
            succ: Vec::new(),
            flags: (0..len).map(|_| AtomicU8::new(0)).collect(),
        };
        chain.succ = chain.tabulate();
        Ok(chain)
    }

    /// The successor table, from [`Seats::roll`] on every state and distinct face.
    fn tabulate(&self) -> Vec<u32> {
        use rayon::prelude::*;
        let mut succ = vec![NO_FACE; self.len * self.width];
        succ.par_chunks_mut(self.width)
            .enumerate()
            .for_each(|(state, slots)| {
                let (mut pieces, mover, tries) = self.decode(state);
                // A table where a seat has won is over: no state leads there, and moves out
                // of a won configuration are not in the seats' configurations.
                if pieces[..self.players]
                    .iter()
                    .any(|&p| rules_won(self.seats, p))
                {
                    return;
                }
                let start = pieces;
                for (slot, &(face, _)) in slots.iter_mut().zip(&self.faces[mover]) {
                    pieces = start;
                    let turn = self.seats.roll(&mut pieces, mover, tries, face);
                    *slot = if turn.won {
                        WIN_CODE + mover as u32
                    } else {
                        let next = if turn.passes {
                            self.seats.next_seat(mover)
                        } else {
                            mover
                        };
                        self.encode(&pieces, next, turn.tries) as u32
                    };
                }
            });
        succ
    }

    fn decode(&self, state: usize) -> ([u64; MAX_SEATS], usize, u8) {
        let product = self.stride[self.players];
        let tuple = state % product;
        let rest = state / product;
        let mover = rest % self.players;
        let tries = (rest / self.players) as u8;
        let mut pieces = [0u64; MAX_SEATS];
        for (s, slot) in pieces.iter_mut().enumerate().take(self.players) {
            let configs = &self.configs[s];
            *slot = configs.mask(((tuple / self.stride[s]) % configs.len()) as u32);
        }
        (pieces, mover, tries)
    }

    fn encode(&self, pieces: &[u64; MAX_SEATS], mover: usize, tries: u8) -> usize {
        let mut tuple = 0;
        for (s, (configs, mask)) in self.configs.iter().zip(pieces).enumerate() {
            let k = configs
                .index(*mask)
                .expect("the configurations are closed under moves and captures");
            tuple += k as usize * self.stride[s];
        }
        (usize::from(tries) * self.players + mover) * self.stride[self.players] + tuple
    }

    fn opening(&self) -> usize {
        self.encode(&self.seats.start().pieces, 0, 0)
    }
}

/// Whether a seat's pieces `own` have all reached the goal.
fn rules_won(seats: &Seats, own: u64) -> bool {
    seats.rules().has_won(own)
}

impl Successors for Chain<'_> {
    type State = usize;
    type Batch = ();

    fn pass(&self, forwards: bool, visit: impl Fn(&(), usize) -> bool + Sync) -> bool {
        search::in_order(self.len, 4096, !forwards, true, |items| {
            let mut any = false;
            for s in items {
                any |= visit(&(), s);
            }
            any
        })
    }

    /// Every win is reported as player 0's: the searches here only ask "can a win be
    /// reached", whoever wins.
    fn for_each_successor(&self, _: &(), state: usize, mut f: impl FnMut(Step<usize>)) {
        for &code in &self.succ[state * self.width..(state + 1) * self.width] {
            match code {
                NO_FACE => {}
                c if c >= WIN_CODE => f(Step::Win(0)),
                c => f(Step::Next(c as usize)),
            }
        }
    }

    fn flags(&self, state: usize) -> u8 {
        self.flags[state].load(Relaxed)
    }

    fn add_flags(&self, state: usize, bits: u8) {
        self.flags[state].fetch_or(bits, Relaxed);
    }
}

/// Solves the table `seats` with `dice[s]` in seat `s` (seat 0 moves first) to the
/// certified width `options.tolerance`.
pub fn solve_seats(
    seats: &Seats,
    dice: &[&Die],
    options: &SolveOptions,
) -> Result<SeatsExact, SeatsExactError> {
    if dice.len() != seats.players() {
        return Err(SeatsExactError::DiceCount {
            dice: dice.len(),
            players: seats.players(),
        });
    }
    options
        .validate()
        .map_err(|e| SeatsExactError::Options(e.to_string()))?;
    if seats.rules().profile().choice {
        // Every seat would pick its own moves: a game of N players with no single value,
        // which this solver (the rules' own moves) does not play.
        return Err(SeatsExactError::Options(format!(
            "profile {}: the exact table solver plays the rules' own moves; with choice at a \
             table of {} each seat picks its moves and there is no single value to solve for",
            seats.rules().profile(),
            seats.players()
        )));
    }
    let chain = Chain::build(seats, dice, options.max_memory)?;
    let opening = chain.opening();
    search::reach(&chain, &[opening], REACHED, SPREAD);
    search::can_reach(&chain, WINS, [WINS, WINS], REACHED);
    search::can_reach_never(&chain, WINS, NEVER, REACHED);
    let n = chain.players;
    let stride = n + 1;
    let mut values = vec![0.0f64; chain.len * stride];
    let (mut reachable, mut never_states) = (0u64, 0u64);
    for s in 0..chain.len {
        let f = chain.flags(s);
        if f & REACHED != 0 {
            reachable += 1;
            if f & WINS == 0 {
                never_states += 1;
                values[s * stride + n] = 1.0;
            }
        }
    }
    let opening_gap = |values: &[f64]| {
        1.0 - values[opening * stride..(opening + 1) * stride]
            .iter()
            .sum::<f64>()
    };
    let mut acc = vec![0.0f64; stride];
    let convergence = fixpoint::iterate(&options.stop_rule(), |_| {
        let mut change = 0.0f64;
        for s in (0..chain.len).rev() {
            let f = chain.flags(s);
            if f & REACHED == 0 || f & WINS == 0 {
                continue;
            }
            let (_, mover, _) = chain.decode(s);
            acc.fill(0.0);
            let mut self_p = 0.0;
            let slots = &chain.succ[s * chain.width..(s + 1) * chain.width];
            for (&code, &(_, p)) in slots.iter().zip(&chain.faces[mover]) {
                if code >= WIN_CODE {
                    acc[(code - WIN_CODE) as usize] += p;
                } else if code as usize == s {
                    self_p += p;
                } else {
                    let t = code as usize * stride;
                    for (a, v) in acc.iter_mut().zip(&values[t..t + stride]) {
                        *a += p * v;
                    }
                }
            }
            let scale = 1.0 / (1.0 - self_p);
            for (k, &a) in acc.iter().enumerate() {
                change = change.max(fixpoint::update(&mut values[s * stride + k], a * scale));
            }
        }
        SweepReport {
            change,
            gap: opening_gap(&values),
        }
    })
    .map_err(SeatsExactError::NotConverged)?;
    let at = &values[opening * stride..(opening + 1) * stride];
    Ok(SeatsExact {
        p_win: (0..n).map(|s| Bounds::certified_among(at, s)).collect(),
        p_never: Bounds::certified_among(at, n),
        sweeps: convergence.sweeps,
        reachable,
        never_states,
    })
}

/// P(die `i` wins) at a table with every seating equally often: the mean over the N!
/// seatings of the exact figure of the seat die `i` sits in, with bounds from the seats'
/// bounds. Each seating is its own chain, solved one after another.
pub fn solve_all_seatings(
    seats: &Seats,
    dice: &[&Die],
    options: &SolveOptions,
) -> Result<Vec<Bounds>, SeatsExactError> {
    let n = seats.players();
    if dice.len() != n {
        return Err(SeatsExactError::DiceCount {
            dice: dice.len(),
            players: n,
        });
    }
    let seatings = crate::sim::permutations(n);
    let mut sums = vec![Bounds::ZERO; n];
    for seating in &seatings {
        let seated: Vec<&Die> = (0..n).map(|s| dice[seating[s]]).collect();
        let exact = solve_seats(seats, &seated, options)?;
        for s in 0..n {
            sums[seating[s]].lo += exact.p_win[s].lo;
            sums[seating[s]].hi += exact.p_win[s].hi;
        }
    }
    let k = seatings.len() as f64;
    Ok(sums
        .into_iter()
        .map(|b| Bounds {
            lo: b.lo / k,
            hi: b.hi / k,
        })
        .collect())
}
