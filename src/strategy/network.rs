//! The position evaluator behind `strong`: features of a position and a small neural network
//! that maps them to a value, with the gradient step its training needs.
//!
//! # What is evaluated
//! A position *before a roll*, seen from the player about to roll (the *mover*): its pieces
//! `own`, the opponent's pieces `other` (each in its owner's numbering). The value is an
//! estimate of P(mover wins) - P(opponent wins), in [-1, 1], the quantity the two-player
//! game under `choice` is played for (a never-ending game counts 0).
//!
//! # Features
//! For each side (mover first, opponent second), in that side's own numbering:
//! - one input per field (track and goal), 1 where a piece of the side stands;
//! - the number of its pieces waiting in `B`, one-hot (0 ..= pieces);
//! - the number of its track pieces the other side could hit with one roll of an ordinary
//!   die 1..6 (the `safe` strategy's [`Threats`]), one-hot (0 ..= pieces);
//! - its race: the fields its pieces still have to go (a waiting piece counts the whole way
//!   from `B`), divided by that distance for all pieces at home.
//!
//! and, for the contact between the sides, for each distance `d` in 1 ..= [`CONTACT`]:
//! how many of the mover's pieces stand `d` fields ahead of an opponent piece (which could
//! hit them), and how many opponent pieces stand `d` fields ahead of a mover's piece,
//! counted in the direction the hitting piece moves and never past its last track field;
//! and for each side whether one of its pieces stands on the other side's start field
//! while the other side has a piece waiting (a 6 hits it).
//!
//! The binary inputs are few (at most `2 * (pieces + 3)` are 1) and the counted inputs
//! mostly 0, so the first layer is a sum of a few weight rows, not a matrix product.
//!
//! # Network
//! One hidden layer of clipped linear units (`min(max(x, 0), 1)`, cheap and bounded) and a
//! `tanh` output: `v = tanh(b2 + w2 . clip(b1 + W1 x))`.

use super::Threats;
use crate::dice::Die;
use crate::rules::{LegalMoves, MAX_SEATS, PieceMove, Player, Rules, SeatTurn, Seats, Turn};

/// The largest hidden layer a player file may have (the evaluator's buffers are this long).
pub const MAX_HIDDEN: usize = 256;

/// The largest number of inputs that are 1 in one position: fields, waiting, threatened
/// count and the start-field hit per side, for at most 32 pieces each.
const MAX_ACTIVE: usize = 2 * (32 + 3);

/// The longest distance between two pieces the contact inputs count.
pub const CONTACT: u32 = 12;

/// Inputs with a value other than 0 or 1: the two race inputs and the contact counts.
const MAX_VALUED: usize = 2 + 2 * CONTACT as usize;

/// The name of the feature set, stored in player files so that a file made for other
/// features is refused.
pub const FEATURES: &str = "fields+waiting+threatened+race+contact/2";

/// The inputs of one position: the indices of the binary inputs that are 1, and the other
/// inputs that are not 0 with their values. `A` and `V` bound their numbers: the defaults
/// are two players' ([`TableFeatures`] holds a table's).
#[derive(Clone, Copy, Debug)]
pub struct Features<const A: usize = MAX_ACTIVE, const V: usize = MAX_VALUED> {
    active: [u16; A],
    len: usize,
    valued: [(u16, f32); V],
    valued_len: usize,
}

/// The inputs of a position at a table of up to four seats ([`TableEncoder`]).
pub type TableFeatures = Features<{ 2 * MAX_ACTIVE }, { 2 * MAX_VALUED }>;

impl<const A: usize, const V: usize> Features<A, V> {
    /// No input set.
    fn empty() -> Self {
        Features {
            active: [0; A],
            len: 0,
            valued: [(0, 0.0); V],
            valued_len: 0,
        }
    }

    /// The indices of the binary inputs that are 1.
    pub fn active(&self) -> &[u16] {
        &self.active[..self.len]
    }

    /// The inputs of other values that are not 0, with their values.
    pub fn valued(&self) -> &[(u16, f32)] {
        &self.valued[..self.valued_len]
    }

    fn push(&mut self, index: usize) {
        self.active[self.len] = index as u16;
        self.len += 1;
    }

    /// Sets one side's inputs from `base`: one per field its pieces `mine` stand on, then
    /// the one-hot count of its waiting pieces (of `pieces`, after `fields` field inputs).
    /// Returns the fields its pieces still have to go, a waiting piece the whole way.
    #[inline]
    fn push_pieces(&mut self, base: usize, mine: u64, fields: u32, pieces: u32) -> u32 {
        let mut rest = mine;
        let mut to_go = 0u32;
        while rest != 0 {
            let field = rest.trailing_zeros();
            rest &= rest - 1;
            self.push(base + field as usize);
            to_go += fields - 1 - field;
        }
        let waiting = pieces - mine.count_ones();
        self.push(base + (fields + waiting) as usize);
        to_go + waiting * fields
    }

    /// Adds to the contact counts from `base` (one per distance 1 ..= [`CONTACT`]) the
    /// pieces `targets` standing `d` fields ahead of a piece of `hunters`, both in the
    /// hunters' numbering, never past their last track field (`track` fields).
    #[inline]
    fn add_contacts(&mut self, base: usize, targets: u64, hunters: u64, track: u32) {
        let mut hunters = hunters;
        while hunters != 0 {
            let from = hunters.trailing_zeros();
            hunters &= hunters - 1;
            let mut ahead = (targets >> (from + 1)) & ((1u64 << CONTACT) - 1);
            while ahead != 0 {
                let d = ahead.trailing_zeros();
                ahead &= ahead - 1;
                if from + 1 + d < track {
                    self.add(base + d as usize, 1.0);
                }
            }
        }
    }

    fn add(&mut self, index: usize, value: f32) {
        if let Some(slot) = self.valued().iter().position(|&(i, _)| i as usize == index) {
            self.valued[slot].1 += value;
        } else {
            self.valued[self.valued_len] = (index as u16, value);
            self.valued_len += 1;
        }
    }
}

/// Turns positions of one board into [`Features`].
#[derive(Clone, Debug)]
pub struct Encoder {
    fields: u32,
    track: u32,
    pieces: u32,
    /// Binary inputs of one side (fields, waiting one-hot, threatened one-hot, start hit).
    per_side: usize,
    /// The reach of an ordinary die: what "threatened" means in the features.
    reach: Threats,
}

impl Encoder {
    /// The encoder for the board of `rules`.
    pub fn new(rules: &Rules) -> Encoder {
        let board = rules.board();
        let fields = board.fields();
        let pieces = board.pieces();
        Encoder {
            fields,
            track: board.track_len(),
            pieces,
            per_side: (fields + 2 * (pieces + 1) + 1) as usize,
            reach: Threats::of_die(&Die::standard()),
        }
    }

    /// Number of inputs: both sides' binary inputs, the two race inputs, the contact
    /// counts (mover's pieces in reach, then the opponent's).
    pub fn inputs(&self) -> usize {
        2 * self.per_side + MAX_VALUED
    }

    /// The features of the position `own` (the mover's pieces) against `other`.
    #[inline]
    pub fn encode(&self, rules: &Rules, own: u64, other: u64, mover: Player) -> Features {
        let mut f = Features::empty();
        let board = rules.board();
        let race_base = 2 * self.per_side;
        let contact_base = race_base + 2;
        let sides = [(own, other, mover), (other, own, 1 - mover)];
        for (side, &(mine, theirs, owner)) in sides.iter().enumerate() {
            let base = side * self.per_side;
            let to_go = f.push_pieces(base, mine, self.fields, self.pieces);
            let threatened = self.reach.threatened(rules, mine, theirs, owner);
            f.push(base + (self.fields + self.pieces + 1 + threatened) as usize);
            // A piece of this side on the other side's start field, the other side waiting.
            let on_their_start = board.track_in_other_view(owner, mine) & 1 != 0;
            if on_their_start && theirs.count_ones() < self.pieces {
                f.push(base + (self.fields + 2 * (self.pieces + 1)) as usize);
            }
            f.add(
                race_base + side,
                to_go as f32 / (self.pieces * self.fields) as f32,
            );
            // This side's track pieces `d` fields ahead of a piece of the other side, in
            // the other side's numbering (its pieces move up its own numbers).
            f.add_contacts(
                contact_base + side * CONTACT as usize,
                board.track_in_other_view(owner, mine),
                theirs & board.track_mask(),
                self.track,
            );
        }
        f
    }
}

/// The network's parameters.
///
/// One output (`tanh`) for two players, the mover's P(win) - P(loss); one output per seat
/// (a softmax) at a table of three or four, each seat's P(win) ([`Network::chances`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    inputs: usize,
    hidden: usize,
    outputs: usize,
    /// `inputs` rows of `hidden` weights: row `i` is what input `i` adds to the hidden layer.
    first: Vec<f32>,
    first_bias: Vec<f32>,
    /// `outputs` rows of `hidden` weights.
    second: Vec<f32>,
    second_bias: Vec<f32>,
}

/// The most outputs a network has: one per seat of the largest table.
pub const MAX_OUTPUTS: usize = crate::rules::MAX_SEATS;

/// The hidden layer's activations of one evaluation, kept for the gradient step.
struct Activations {
    sum: [f32; MAX_HIDDEN],
    value: f32,
}

impl Network {
    /// A network of `inputs` inputs, `hidden` hidden units and `outputs` outputs with the
    /// given parameters; `None` unless `1 <= hidden <= MAX_HIDDEN`, `outputs` is 1 or 3 to
    /// [`MAX_OUTPUTS`], the lengths match and every number is finite.
    pub fn from_parts(
        inputs: usize,
        hidden: usize,
        outputs: usize,
        first: Vec<f32>,
        first_bias: Vec<f32>,
        second: Vec<f32>,
        second_bias: Vec<f32>,
    ) -> Option<Network> {
        let lengths_match = (1..=MAX_HIDDEN).contains(&hidden)
            && (outputs == 1 || (3..=MAX_OUTPUTS).contains(&outputs))
            && inputs >= 1
            && first.len() == inputs.checked_mul(hidden)?
            && first_bias.len() == hidden
            && second.len() == hidden * outputs
            && second_bias.len() == outputs;
        let finite = first
            .iter()
            .chain(&first_bias)
            .chain(&second)
            .chain(&second_bias)
            .all(|x| x.is_finite());
        (lengths_match && finite).then_some(Network {
            inputs,
            hidden,
            outputs,
            first,
            first_bias,
            second,
            second_bias,
        })
    }

    /// A network with small random weights drawn from `rng` (uniform in +-`scale`), hidden
    /// biases slightly positive so that every unit starts in its linear range.
    pub fn random<R: rand::Rng + ?Sized>(
        inputs: usize,
        hidden: usize,
        outputs: usize,
        rng: &mut R,
    ) -> Network {
        use rand::RngExt;
        let mut draw = |scale: f32| (rng.random::<f32>() * 2.0 - 1.0) * scale;
        let first = (0..inputs * hidden).map(|_| draw(0.1)).collect();
        let first_bias = (0..hidden).map(|_| 0.1 + draw(0.05)).collect();
        let second = (0..hidden * outputs).map(|_| draw(0.1)).collect();
        Network {
            inputs,
            hidden,
            outputs,
            first,
            first_bias,
            second,
            second_bias: vec![0.0; outputs],
        }
    }

    /// Number of inputs.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// Number of hidden units.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Number of outputs: 1 for two players, else one per seat.
    pub fn outputs(&self) -> usize {
        self.outputs
    }

    /// Every parameter in a fixed order (first layer row by row, its biases, second layer
    /// row by row, its biases): what a player file stores and its checksum covers.
    pub fn parts(&self) -> (&[f32], &[f32], &[f32], &[f32]) {
        (
            &self.first,
            &self.first_bias,
            &self.second,
            &self.second_bias,
        )
    }

    /// The value of a position with features `f`: P(mover wins) - P(opponent wins),
    /// estimated, in (-1, 1).
    #[inline]
    pub fn value<const A: usize, const V: usize>(&self, f: &Features<A, V>) -> f32 {
        self.forward(f).value
    }

    /// The hidden layer's sums for `f` (before clipping).
    #[inline]
    fn hidden_sums<const A: usize, const V: usize>(&self, f: &Features<A, V>) -> [f32; MAX_HIDDEN] {
        let h = self.hidden;
        let mut sum = [0.0f32; MAX_HIDDEN];
        let sum_h = &mut sum[..h];
        sum_h.copy_from_slice(&self.first_bias);
        for &i in f.active() {
            let row = &self.first[i as usize * h..(i as usize + 1) * h];
            for (s, w) in sum_h.iter_mut().zip(row) {
                *s += w;
            }
        }
        for &(i, x) in f.valued() {
            let row = &self.first[i as usize * h..(i as usize + 1) * h];
            for (s, w) in sum_h.iter_mut().zip(row) {
                *s += w * x;
            }
        }
        sum
    }

    /// Output `k` before its squashing: its bias plus its weights times the clipped units.
    #[inline]
    fn output_sum(&self, sum: &[f32; MAX_HIDDEN], k: usize) -> f32 {
        let h = self.hidden;
        let mut out = self.second_bias[k];
        for (s, w) in sum[..h].iter().zip(&self.second[k * h..(k + 1) * h]) {
            out += w * s.clamp(0.0, 1.0);
        }
        out
    }

    #[inline]
    fn forward<const A: usize, const V: usize>(&self, f: &Features<A, V>) -> Activations {
        let sum = self.hidden_sums(f);
        let value = self.output_sum(&sum, 0).tanh();
        Activations { sum, value }
    }

    /// At a table (a network of one output per seat): the chances to win of the seats, in
    /// the order the features list them (the mover first), a softmax of the outputs; the
    /// entries past [`Network::outputs`] are 0.
    #[inline]
    pub fn chances<const A: usize, const V: usize>(
        &self,
        f: &Features<A, V>,
    ) -> [f32; MAX_OUTPUTS] {
        softmax(self, &self.hidden_sums(f))
    }

    /// At a table: one gradient step of size `rate` moving the chances of `f` towards
    /// `target` (a distribution over the seats; cross-entropy, whose gradient on the outputs
    /// is `chances - target`).
    pub fn step_towards_chances<const A: usize, const V: usize>(
        &mut self,
        f: &Features<A, V>,
        target: &[f32; MAX_OUTPUTS],
        rate: f32,
    ) {
        let sum = self.hidden_sums(f);
        let chances = softmax(self, &sum);
        let h = self.hidden;
        let mut hidden_delta = [0.0f32; MAX_HIDDEN];
        for k in 0..self.outputs {
            let step = rate * (chances[k] - target[k]);
            let row = &mut self.second[k * h..(k + 1) * h];
            for ((delta, &s), w) in hidden_delta.iter_mut().zip(&sum[..h]).zip(row) {
                if s > 0.0 && s < 1.0 {
                    *delta += step * *w;
                }
                *w -= step * s.clamp(0.0, 1.0);
            }
            self.second_bias[k] -= step;
        }
        self.step_first_layer(f, &hidden_delta[..h]);
    }

    /// Moves the first layer's rows of `f`'s inputs and its biases by `hidden_delta`.
    fn step_first_layer<const A: usize, const V: usize>(
        &mut self,
        f: &Features<A, V>,
        hidden_delta: &[f32],
    ) {
        let h = self.hidden;
        for (b, d) in self.first_bias.iter_mut().zip(hidden_delta) {
            *b -= d;
        }
        for &i in f.active() {
            let row = &mut self.first[i as usize * h..(i as usize + 1) * h];
            for (w, d) in row.iter_mut().zip(hidden_delta) {
                *w -= d;
            }
        }
        for &(i, x) in f.valued() {
            let row = &mut self.first[i as usize * h..(i as usize + 1) * h];
            for (w, d) in row.iter_mut().zip(hidden_delta) {
                *w -= d * x;
            }
        }
    }

    /// One gradient step of size `rate` moving the value of `f` towards `target` (squared
    /// error); returns the value before the step.
    pub fn step_towards<const A: usize, const V: usize>(
        &mut self,
        f: &Features<A, V>,
        target: f32,
        rate: f32,
    ) -> f32 {
        let a = self.forward(f);
        let h = self.hidden;
        // d(error^2 / 2)/d(output sum), through the tanh.
        let delta = (a.value - target) * (1.0 - a.value * a.value);
        let step = rate * delta;
        let mut hidden_delta = [0.0f32; MAX_HIDDEN];
        for ((delta, &s), w) in hidden_delta
            .iter_mut()
            .zip(&a.sum[..h])
            .zip(&mut self.second)
        {
            // The clipped unit passes the gradient only inside (0, 1).
            if s > 0.0 && s < 1.0 {
                *delta = step * *w;
            }
            *w -= step * s.clamp(0.0, 1.0);
        }
        self.second_bias[0] -= step;
        self.step_first_layer(f, &hidden_delta[..h]);
        a.value
    }
}

/// The softmax of the outputs of `network` for the hidden sums `sum`.
#[inline]
fn softmax(network: &Network, sum: &[f32; MAX_HIDDEN]) -> [f32; MAX_OUTPUTS] {
    let mut out = [0.0f32; MAX_OUTPUTS];
    let n = network.outputs;
    for (k, o) in out.iter_mut().enumerate().take(n) {
        *o = network.output_sum(sum, k);
    }
    let top = out[..n].iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0.0;
    for o in &mut out[..n] {
        *o = (*o - top).exp();
        total += *o;
    }
    for o in &mut out[..n] {
        *o /= total;
    }
    out
}

/// How far [`Evaluator::best_move_searching`] looks: each player's die (by player) and the
/// rolls of look-ahead.
#[derive(Clone, Copy, Debug)]
pub struct LookAhead<'a> {
    /// Player 0's and player 1's dice.
    pub dice: [&'a Die; 2],
    /// Rolls of look-ahead, at least 1.
    pub rolls: u32,
}

/// A network with the encoder of its board: the value of positions given as piece masks.
#[derive(Clone, Debug)]
pub struct Evaluator {
    /// The features.
    pub encoder: Encoder,
    /// The network.
    pub network: Network,
}

impl Evaluator {
    /// The value of the position before `mover` rolls: see the module docs.
    #[inline]
    pub fn value(&self, rules: &Rules, own: u64, other: u64, mover: Player) -> f32 {
        self.network
            .value(&self.encoder.encode(rules, own, other, mover))
    }

    /// The value for `mover` of playing `movement` (one of the legal moves of `face`):
    /// 1 for a win, else the value of the next position, from `mover`'s side.
    #[inline]
    pub fn value_of_move(
        &self,
        rules: &Rules,
        own: u64,
        other: u64,
        mover: Player,
        face: u32,
        movement: PieceMove,
    ) -> f32 {
        let turn = rules.roll_with_move(own, other, mover, 0, face, Some(movement));
        self.value_after(rules, &turn, mover)
    }

    /// The value for `mover` of where `turn` (a roll of `mover`'s) left the game: 1 for a
    /// win, else the next position's value from `mover`'s side (negated when the turn
    /// passes to the opponent).
    #[inline]
    pub fn value_after(&self, rules: &Rules, turn: &Turn, mover: Player) -> f32 {
        turn.next_position(mover).map_or(1.0, |n| {
            n.seen_by(mover, self.value(rules, n.own, n.other, n.mover))
        })
    }

    /// The legal move of highest value for `mover` (the first, i.e. frontmost, among equal
    /// values); `None` only when `legal` is empty.
    #[inline]
    pub fn best_move(
        &self,
        rules: &Rules,
        own: u64,
        other: u64,
        mover: Player,
        legal: &LegalMoves,
    ) -> Option<PieceMove> {
        best_by(legal, |m| {
            self.value_of_move(rules, own, other, mover, legal.face(), m)
        })
    }

    /// The value for `mover` of the position before `mover` rolls `die`, looking one roll
    /// ahead: the mean over the faces of the best move's value ([`Evaluator::value_of_move`]),
    /// a roll without a move giving the value of the position it leaves.
    pub fn value_one_roll_ahead(
        &self,
        rules: &Rules,
        own: u64,
        other: u64,
        mover: Player,
        die: &Die,
    ) -> f32 {
        mean_of_best_moves(rules, own, other, mover, die, |turn| {
            self.value_after(rules, turn, mover)
        })
    }

    /// The value for `mover` of the position before `mover` rolls, looking `rolls` rolls
    /// ahead with each player's die (`dice`, by player): the network's value for 0 rolls,
    /// for 1 [`Evaluator::value_one_roll_ahead`], and for more the mean over the faces of
    /// `mover`'s die of the best move's value `rolls - 1` rolls further (a roll without a
    /// move: the value of where it leads; a win: 1).
    pub fn value_rolls_ahead(
        &self,
        rules: &Rules,
        own: u64,
        other: u64,
        mover: Player,
        dice: [&Die; 2],
        rolls: u32,
    ) -> f32 {
        match rolls {
            0 => return self.value(rules, own, other, mover),
            1 => return self.value_one_roll_ahead(rules, own, other, mover, dice[mover]),
            _ => {}
        }
        let after = |turn: &Turn| {
            turn.next_position(mover).map_or(1.0, |n| {
                let value = self.value_rolls_ahead(rules, n.own, n.other, n.mover, dice, rolls - 1);
                n.seen_by(mover, value)
            })
        };
        mean_of_best_moves(rules, own, other, mover, dice[mover], after)
    }

    /// The legal move of highest value for `mover` looking `search.rolls` rolls ahead (at
    /// least 1): each move's next position is valued by [`Evaluator::value_rolls_ahead`],
    /// starting with the die of whoever rolls there (`search.dice[mover]` after a 6, else
    /// the opponent's).
    pub fn best_move_searching(
        &self,
        rules: &Rules,
        own: u64,
        other: u64,
        mover: Player,
        legal: &LegalMoves,
        search: LookAhead<'_>,
    ) -> Option<PieceMove> {
        let LookAhead { dice, rolls } = search;
        best_by(legal, |m| {
            let turn = rules.roll_with_move(own, other, mover, 0, legal.face(), Some(m));
            turn.next_position(mover).map_or(1.0, |n| {
                let value = self.value_rolls_ahead(rules, n.own, n.other, n.mover, dice, rolls);
                n.seen_by(mover, value)
            })
        })
    }
}

/// The mean over the faces of `die` (in its order) of the best value `after` gives a roll's
/// outcome for `mover`: the best legal move's, or where a roll without a move leads. One
/// roll of every look-ahead.
#[inline]
fn mean_of_best_moves(
    rules: &Rules,
    own: u64,
    other: u64,
    mover: Player,
    die: &Die,
    after: impl Fn(&Turn) -> f32,
) -> f32 {
    let mut total = 0.0;
    for &face in die.faces() {
        let legal = rules.legal_moves(own, other, mover, face);
        total += match legal.len() {
            0 => after(&rules.roll_with_move(own, other, mover, 0, face, None)),
            _ => legal
                .iter()
                .map(|m| after(&rules.roll_with_move(own, other, mover, 0, face, Some(m))))
                .fold(f32::NEG_INFINITY, f32::max),
        };
    }
    total / die.faces().len() as f32
}

/// The legal move of highest `value` (the first, i.e. frontmost, among equal values);
/// `None` only when `legal` is empty.
#[inline]
fn best_by(legal: &LegalMoves, mut value: impl FnMut(PieceMove) -> f32) -> Option<PieceMove> {
    if legal.len() <= 1 {
        return legal.frontmost();
    }
    let mut best: Option<(f32, PieceMove)> = None;
    for m in legal.iter() {
        let v = value(m);
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, m));
        }
    }
    best.map(|(_, m)| m)
}

/// The name of the feature set of a table's players.
pub const TABLE_FEATURES: &str = "table:fields+waiting+exposed+race+contact/1";

/// Turns positions at a table of three or four seats into [`TableFeatures`]: the inputs
/// of [`Encoder`] for every seat, in turn order from the mover, each in its own numbering,
/// where "the other side" is every other seat:
/// - its fields, its waiting pieces (one-hot), its race;
/// - how many of its track pieces another seat could hit with one roll of an ordinary die
///   (one-hot; a piece within reach of two seats counts once);
/// - whether one of its pieces stands on another seat's start field while that seat has a
///   piece waiting;
/// - for each distance `d` in 1 ..= [`CONTACT`], how many of its pieces stand `d` fields
///   ahead of a piece of another seat (counted once per hunting piece).
#[derive(Clone, Debug)]
pub struct TableEncoder {
    players: usize,
    fields: u32,
    pieces: u32,
    per_side: usize,
    reach: [Threats; MAX_SEATS],
}

impl TableEncoder {
    /// The encoder for the table `seats` (three or four seats).
    pub fn new(seats: &Seats) -> TableEncoder {
        let board = seats.board();
        let fields = board.fields();
        let pieces = board.pieces();
        TableEncoder {
            players: seats.players(),
            fields,
            pieces,
            per_side: (fields + 2 * (pieces + 1) + 1) as usize,
            reach: [Threats::of_die(&Die::standard()); MAX_SEATS],
        }
    }

    /// Number of inputs: every seat's binary inputs, the seats' races, their contact counts.
    pub fn inputs(&self) -> usize {
        self.players * (self.per_side + 1 + CONTACT as usize)
    }

    /// The number of seats.
    pub fn players(&self) -> usize {
        self.players
    }

    /// The features of the seats' `pieces` (each in its own numbering) before `mover` rolls.
    #[inline]
    pub fn encode(&self, seats: &Seats, pieces: &[u64; MAX_SEATS], mover: usize) -> TableFeatures {
        let mut f = TableFeatures::empty();
        let n = self.players;
        let board = seats.board();
        let track = board.track_len();
        let race_base = n * self.per_side;
        let contact_base = race_base + n;
        for k in 0..n {
            let side = (mover + k) % n;
            let base = k * self.per_side;
            let mine = pieces[side];
            let to_go = f.push_pieces(base, mine, self.fields, self.pieces);
            let exposed = super::exposed_at_table(seats, pieces, side, &self.reach);
            f.push(base + (self.fields + self.pieces + 1 + exposed) as usize);
            f.add(
                race_base + k,
                to_go as f32 / (self.pieces * self.fields) as f32,
            );
            let mut on_a_waiting_start = false;
            for j in (0..n).filter(|&j| j != side) {
                // This side's track pieces in seat j's numbering, where j's pieces hunt.
                let targets = seats.track_for(side, j, mine);
                on_a_waiting_start |= targets & 1 != 0 && pieces[j].count_ones() < self.pieces;
                f.add_contacts(
                    contact_base + k * CONTACT as usize,
                    targets,
                    pieces[j] & board.track_mask(),
                    track,
                );
            }
            if on_a_waiting_start {
                f.push(base + (self.fields + 2 * (self.pieces + 1)) as usize);
            }
        }
        f
    }
}

/// A network of one output per seat with the encoder of its table: the seats' chances to
/// win, each seat maximising its own.
#[derive(Clone, Debug)]
pub struct TableEvaluator {
    /// The features.
    pub encoder: TableEncoder,
    /// The network (one output per seat).
    pub network: Network,
}

impl TableEvaluator {
    /// The chances to win of the seats (indexed by seat) before `mover` rolls.
    #[inline]
    pub fn chances(
        &self,
        seats: &Seats,
        pieces: &[u64; MAX_SEATS],
        mover: usize,
    ) -> [f32; MAX_SEATS] {
        let by_turn = self
            .network
            .chances(&self.encoder.encode(seats, pieces, mover));
        let n = self.encoder.players;
        let mut by_seat = [0.0; MAX_SEATS];
        for (k, p) in by_turn.iter().enumerate().take(n) {
            by_seat[(mover + k) % n] = *p;
        }
        by_seat
    }

    /// The chances to win of the seats after `turn`, a roll of `mover`'s that left `pieces`:
    /// certain for the winner, else the chances before the next roll (the next seat's, or
    /// `mover`'s again).
    #[inline]
    pub fn chances_after(
        &self,
        seats: &Seats,
        pieces: &[u64; MAX_SEATS],
        turn: &SeatTurn,
        mover: usize,
    ) -> [f32; MAX_SEATS] {
        if turn.won {
            let mut certain = [0.0; MAX_SEATS];
            certain[mover] = 1.0;
            certain
        } else if turn.passes {
            self.chances(seats, pieces, seats.next_seat(mover))
        } else {
            self.chances(seats, pieces, mover)
        }
    }

    /// The legal move after which `mover`'s chance to win is highest (the frontmost among
    /// equals); `None` only when `legal` is empty.
    #[inline]
    pub fn best_move<const N: usize>(
        &self,
        seats: &Seats,
        pieces: &[u64; N],
        mover: usize,
        legal: &LegalMoves,
    ) -> Option<PieceMove> {
        best_by(legal, |m| {
            let mut after = [0u64; MAX_SEATS];
            after[..N].copy_from_slice(pieces);
            let turn = seats.roll_with_move(&mut after, mover, 0, legal.face(), Some(m));
            self.chances_after(seats, &after, &turn, mover)[mover]
        })
    }
}
