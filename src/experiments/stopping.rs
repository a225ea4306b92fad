//! Stopping rules for a simulation, held against the exact value: how many games each one
//! plays and how often its answer misses the truth by more than the precision it claims.
//!
//! # The rules
//! * [`Rule::Fixed`]: a fixed number of games, as published solutions did (10,000 or
//!   1,000,000). Claims no precision; the table shows what it achieves and the half-width
//!   a 95 % interval at that many games would have claimed.
//! * [`Rule::Precision`]: the two-stage rule of `duel --precision H`
//!   ([`crate::sim::games_for_precision`]): a pilot fixes the sample size from a bound on
//!   the variance, the answer is the Wilson interval over all games.
//! * [`Rule::Change`]: "stop when the running win rate changes by less than 0.5 % between
//!   two successive games, after at least 15 games". After game `n` the running rate
//!   `p_n = w_n / n` moves by `(1 - p_{n-1}) / n` on a win and by `p_{n-1} / n` on a loss,
//!   never more than `1/n`, so the rule stops by game 200 whatever happens. In fact much
//!   earlier: the move towards the nearer end is at most `1 / (2n)`, below 0.005 from
//!   game 101 on, so to go on the rule needs every game to push the rate by 0.005 towards
//!   the farther end, which drives it across 1/2 again and again; an exhaustive search over
//!   all (games, wins) states (a test of this module) finds that it always stops by game
//!   101. With win probability `p` it typically stops at the first loss after about
//!   `200 p` games or the first win after about `200 (1 - p)` games: a sample size set by
//!   the threshold and the dice, never by a precision. Its implied claim is "within
//!   0.5 %"; the table measures that claim.
//! * [`Rule::NaiveWilson`]: stop the first time the 95 % Wilson interval is at most `H`
//!   wide on each side, looking after every `look_every` games. Optional stopping: the
//!   half-width depends on the estimate (it is narrowest far from 1/2), so the rule tends
//!   to stop when the estimate happens to be too far from 1/2, and misses more often than
//!   the nominal 5 %, most visibly for lopsided matchups and frequent looks.
//! * [`Rule::WorstCase`]: fixed `N = z^2 / (4 H^2)` games, chosen before any game from the
//!   largest Bernoulli variance 1/4: honest (a fixed-N Wilson interval) and simple, at most
//!   `1 / (4 p (1-p))` times the games the true variance would need.
//! * [`Rule::ConfidenceSequence`]: an anytime-valid 95 % confidence sequence (Robbins'
//!   normal mixture for observations in [0, 1], sub-Gaussian with variance factor 1/4;
//!   Howard, Ramdas, McAuliffe and Sekhon 2021): with probability 0.95 the truth lies inside
//!   the interval at *every* game simultaneously, so one may look after every game and stop
//!   whenever one likes. See [`cs_half_width`]. Stopping when it is at most `H` wide gives
//!   a sample size that does not depend on the data, so this rule is simulated as that
//!   fixed `N`; the table shows the price of the anytime guarantee (about 2.4 times the
//!   worst-case `N`).
//!
//! # Random streams
//! Replicate `r` of every rule uses stream `r` of the seed, so rules are compared on
//! overlapping games (common random numbers; e.g. `fixed-1000` is a prefix of
//! `fixed-10000`). The rules built on `run_duel` use its chunked streams; the rules that
//! look after single games ([`Rule::Change`], [`Rule::NaiveWilson`]) play one game after
//! the other from one generator per replicate, alternating the starting player (A first).

use super::{Reference, quantile};
use crate::rules::Player;
use crate::sim::{
    CHUNK_GAMES, DuelCounts, GameEnd, GameRng, Matchup, PlanError, Stopping, StreamKey, run_duel,
    splitmix64,
};
use crate::stats::{self, Z95};
pub use crate::stats::{CS_ALPHA, bernoulli_cs, cs_half_width, cs_half_width_at};
use rand::SeedableRng;
use rayon::prelude::*;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// A stopping rule (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Exactly this many games (even). Name `fixed-N`.
    Fixed(u64),
    /// The rule of `duel --precision H`. Name `precision`.
    Precision,
    /// Running win rate changes by less than the threshold between successive games.
    /// Name `change`.
    Change,
    /// Wilson half-width at most `H`, looked at after every `look_every` games.
    /// Name `naive-wilson`.
    NaiveWilson,
    /// Fixed `z^2 / (4 H^2)` games. Name `worst-case`.
    WorstCase,
    /// Anytime-valid confidence sequence at most `H` wide. Name `conf-seq`.
    ConfidenceSequence,
}

impl Rule {
    /// The rules of the standard comparison: fixed 1,000, 10,000 and 1,000,000 games,
    /// then `precision`, `change`, `naive-wilson`, `worst-case`, `conf-seq`.
    pub fn standard() -> Vec<Rule> {
        vec![
            Rule::Fixed(1_000),
            Rule::Fixed(10_000),
            Rule::Fixed(1_000_000),
            Rule::Precision,
            Rule::Change,
            Rule::NaiveWilson,
            Rule::WorstCase,
            Rule::ConfidenceSequence,
        ]
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::Fixed(n) => write!(f, "fixed-{n}"),
            Rule::Precision => f.write_str("precision"),
            Rule::Change => f.write_str("change"),
            Rule::NaiveWilson => f.write_str("naive-wilson"),
            Rule::WorstCase => f.write_str("worst-case"),
            Rule::ConfidenceSequence => f.write_str("conf-seq"),
        }
    }
}

impl FromStr for Rule {
    type Err = String;

    /// Parses the names of [`Rule`]'s variants (`fixed-10000`, `precision`, ...).
    fn from_str(s: &str) -> Result<Rule, String> {
        let s = s.trim();
        if let Some(n) = s.strip_prefix("fixed-") {
            let n: u64 = n.replace('_', "").parse().map_err(|_| {
                format!("'{s}': expected fixed-N with a number N, e.g. fixed-10000")
            })?;
            if n < 2 || !n.is_multiple_of(2) {
                return Err(format!("'{s}': N must be even and at least 2"));
            }
            return Ok(Rule::Fixed(n));
        }
        match s {
            "precision" => Ok(Rule::Precision),
            "change" => Ok(Rule::Change),
            "naive-wilson" => Ok(Rule::NaiveWilson),
            "worst-case" => Ok(Rule::WorstCase),
            "conf-seq" => Ok(Rule::ConfidenceSequence),
            _ => Err(format!(
                "unknown stopping rule '{s}': expected fixed-N, precision, change, naive-wilson, worst-case or conf-seq"
            )),
        }
    }
}

/// What precision a rule claims for its answer.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Claim {
    /// No precision claimed.
    None,
    /// The rule states that its answer is within this distance (at 95 %).
    Stated,
    /// The rule's wording suggests this precision (the 0.5 % of the change rule).
    Implied,
}

/// The settings of a stopping-rule comparison.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StoppingConfig {
    /// The precision `H` that `precision`, `naive-wilson`, `worst-case` and `conf-seq`
    /// aim for (half-width of a 95 % interval).
    pub precision: f64,
    /// Replicates per rule.
    pub reps: u32,
    /// Seed; replicate `r` uses stream `r`.
    pub seed: u64,
    /// `naive-wilson` looks after every this many games (even).
    pub look_every: u64,
    /// `change`: the threshold on |p_n - p_{n-1}| (0.005 in the published rule).
    pub change_threshold: f64,
    /// `change`: games before the rule may stop (15 in the published rule).
    pub change_min_games: u64,
}

impl Default for StoppingConfig {
    /// H = 0.01, 100 replicates, seed 1, looks every 1,024 games (one chunk of the
    /// engine), change threshold 0.005 after at least 15 games.
    fn default() -> Self {
        StoppingConfig {
            precision: 0.01,
            reps: 100,
            seed: 1,
            look_every: crate::sim::CHUNK_GAMES,
            change_threshold: 0.005,
            change_min_games: 15,
        }
    }
}

/// One replicate's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RepOutcome {
    /// Games played.
    pub games: u64,
    /// Games A won.
    pub a_wins: u64,
}

impl RepOutcome {
    /// The estimate of P(A wins).
    pub fn estimate(&self) -> f64 {
        self.a_wins as f64 / self.games as f64
    }

    fn from_counts(counts: &DuelCounts) -> RepOutcome {
        let t = counts.total();
        RepOutcome {
            games: t.games,
            a_wins: t.a_wins,
        }
    }
}

/// A rule's figures over all replicates.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RuleSummary {
    /// The rule's name.
    pub rule: String,
    /// What kind of precision it claims.
    pub claim: Claim,
    /// The half-width it claims (stated or implied); `None` if it claims none.
    pub claimed_half_width: Option<f64>,
    /// Replicates.
    pub reps: u32,
    /// Mean games played.
    pub games_mean: f64,
    /// Fewest games played.
    pub games_min: u64,
    /// Most games played.
    pub games_max: u64,
    /// Mean |estimate - exact|.
    pub mean_abs_error: f64,
    /// Root mean square error.
    pub rmse: f64,
    /// Median |estimate - exact|.
    pub median_abs_error: f64,
    /// 95 % quantile of |estimate - exact| (nearest rank): the half-width the rule
    /// actually achieved in 95 % of the replicates.
    pub q95_abs_error: f64,
    /// Largest |estimate - exact|.
    pub max_abs_error: f64,
    /// Replicates with |estimate - exact| above the claimed half-width.
    pub misses: Option<u32>,
    /// `misses / reps`: should be at most 0.05 for an honest 95 % claim.
    pub miss_rate: Option<f64>,
    /// Upper end of the 95 % Wilson interval of the miss rate (Monte Carlo uncertainty).
    pub miss_rate_upper95: Option<f64>,
    /// Mean of `1.96 sqrt(p(1-p)/n)` at the stop with the replicate's own estimate `p`
    /// and games `n`: the half-width a 95 % interval would have claimed.
    pub implicit_half_width: f64,
    /// Fraction of replicates whose 95 % Wilson interval at the stop excludes the exact
    /// value (0.05 for an honest interval).
    pub wilson_miss_rate: f64,
    /// Every replicate's answer, in replicate order.
    pub outcomes: Vec<RepOutcome>,
}

/// The result of a comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StoppingComparison {
    /// The settings.
    pub config: StoppingConfig,
    /// The exact figures.
    pub reference: Reference,
    /// One summary per rule, in the order asked for.
    pub rules: Vec<RuleSummary>,
}

/// The claim of `rule` under `config`: its kind and half-width.
pub fn claim_of(rule: Rule, config: &StoppingConfig) -> (Claim, Option<f64>) {
    match rule {
        Rule::Fixed(_) => (Claim::None, None),
        Rule::Change => (Claim::Implied, Some(config.change_threshold)),
        Rule::Precision | Rule::NaiveWilson | Rule::WorstCase | Rule::ConfidenceSequence => {
            (Claim::Stated, Some(config.precision))
        }
    }
}

/// The worst-case fixed sample size for half-width `h`: `z^2 / (4 h^2)` rounded up to an
/// even number (unlike [`crate::sim::worst_case_games`], not to whole chunks).
/// Saturates at `u64::MAX` for a half-width too fine to plan (which [`duel_stopping`] refuses).
pub fn worst_case_n(h: f64) -> u64 {
    stats::games_for_half_width(0.25, h, Z95).map_or(u64::MAX, |n| n.div_ceil(2).saturating_mul(2))
}

/// The [`run_duel`] stopping rule behind `rule` at half-width `h`, or `None` for the rules
/// that look game by game; an error when that rule cannot run (`converge` checks this
/// before it plays).
pub fn duel_stopping(rule: Rule, h: f64) -> Option<Result<Stopping, PlanError>> {
    match rule {
        Rule::Fixed(n) => Some(Stopping::games(n)),
        Rule::Precision => Some(Stopping::precision(h)),
        Rule::WorstCase => Some(Stopping::games(worst_case_n(h))),
        Rule::ConfidenceSequence => Some(Stopping::games(cs_games(h).0)),
        Rule::Change | Rule::NaiveWilson => None,
    }
}

/// The games (even) after which the confidence sequence is first at most `half_width`
/// wide, and the mixture precision `rho` that makes this smallest (searched on a grid of
/// 0.02 decades around 0.066 times the worst-case fixed sample size).
pub fn cs_games(half_width: f64) -> (u64, f64) {
    let first_even = |rho: f64| {
        // The half-width falls with n over the searched range; bisect on pairs.
        let (mut lo, mut hi) = (1u64, 1u64);
        while cs_half_width(2 * hi, rho) > half_width {
            lo = hi;
            hi *= 2;
        }
        while lo < hi {
            let mid = (lo + hi) / 2;
            if cs_half_width(2 * mid, rho) <= half_width {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        2 * hi
    };
    let centre = 0.066 * worst_case_n(half_width) as f64;
    (-100..=100)
        .map(|k| centre * 10f64.powf(f64::from(k) * 0.02))
        .map(|rho| (first_even(rho), rho))
        .min_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)))
        .expect("non-empty grid")
}

/// One step of the change rule: whether it stops after game `n` (1-based), given A's wins
/// in the first `n - 1` games and whether A won game `n`. It stops when the running win
/// rate moved by less than `threshold`, not before game `min_games` (and never at game 1,
/// which has no previous rate).
pub fn change_rule_stops_at(
    n: u64,
    wins_before: u64,
    won: bool,
    threshold: f64,
    min_games: u64,
) -> bool {
    if n < min_games.max(2) {
        return false;
    }
    let previous = wins_before as f64 / (n - 1) as f64;
    let rate = (wins_before + u64::from(won)) as f64 / n as f64;
    (rate - previous).abs() < threshold
}

/// Where a running win rate first changes by less than `threshold` between two successive
/// games, not before game `min_games`: the number of games then, and A's wins. `None` if
/// the outcomes run out first. `outcomes` yields true for every game A won.
pub fn change_rule_stop(
    outcomes: impl IntoIterator<Item = bool>,
    threshold: f64,
    min_games: u64,
) -> Option<(u64, u64)> {
    let (mut n, mut wins) = (0u64, 0u64);
    for won in outcomes {
        n += 1;
        let stops = change_rule_stops_at(n, wins, won, threshold, min_games);
        wins += u64::from(won);
        if stops {
            return Some((n, wins));
        }
    }
    None
}

/// The generator of replicate `rep` for rules that play single games in sequence.
fn game_rng(seed: u64, rep: u64) -> GameRng {
    const SALT: u64 = 0x5354_4f50_5f52_554c; // "STOP_RUL"
    GameRng::seed_from_u64(splitmix64(splitmix64(seed ^ SALT) ^ rep))
}

/// An endless sequence of games of `matchup`, alternating the default starter (A first),
/// yielding whether A won each.
fn games(matchup: &Matchup, seed: u64, rep: u64) -> impl Iterator<Item = bool> {
    let mut rng = game_rng(seed, rep);
    let matchup = matchup.clone();
    (0u64..).map(move |i| {
        let first = matchup.first_player((i % 2) as Player, &mut rng);
        matches!(
            matchup.play(first, &mut rng),
            GameEnd::Won { winner: 0, .. }
        )
    })
}

/// Plays replicate `rep` of `rule`.
pub fn run_rule(matchup: &Matchup, rule: Rule, config: &StoppingConfig, rep: u64) -> RepOutcome {
    run_rule_watched(matchup, rule, config, rep, &|_| {})
}

/// [`run_rule`] that tells `progress` 0 before every chunk of games (a duel's chunks, or
/// [`CHUNK_GAMES`] games of a rule that looks at every game), so that a caller that gives up
/// unwinds from there instead of waiting for the replicate, whose games are many for a fine
/// `--precision`.
pub fn run_rule_watched(
    matchup: &Matchup,
    rule: Rule,
    config: &StoppingConfig,
    rep: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> RepOutcome {
    let key = StreamKey::new(config.seed).with_stream(rep);
    let h = config.precision;
    let duel = || {
        let stopping = duel_stopping(rule, h)
            .expect("called for the rules that run a duel")
            .expect("converge checks duel_stopping before it plays");
        let counts = run_duel(matchup, key, stopping, &|_| progress(0))
            .expect("a checked stopping rule runs; the worst case reaches the precision");
        RepOutcome::from_counts(&counts)
    };
    // The replicate's games one by one, with a report of 0 before every chunk of them.
    let watched_games = || {
        games(matchup, config.seed, rep)
            .enumerate()
            .map(|(i, won)| {
                if (i as u64).is_multiple_of(CHUNK_GAMES) {
                    progress(0);
                }
                won
            })
    };
    match rule {
        Rule::Fixed(_) | Rule::Precision | Rule::WorstCase | Rule::ConfidenceSequence => duel(),
        Rule::Change => {
            let (games, a_wins) = change_rule_stop(
                watched_games(),
                config.change_threshold,
                config.change_min_games,
            )
            .expect("the game sequence is endless");
            RepOutcome { games, a_wins }
        }
        Rule::NaiveWilson => {
            let look = config.look_every.max(2);
            // Never needed (the Wilson half-width is below h at the worst-case size), but
            // it bounds the loop whatever the settings.
            let cap = worst_case_n(h).div_ceil(look) * look;
            let (mut n, mut wins) = (0u64, 0u64);
            for won in watched_games() {
                n += 1;
                wins += u64::from(won);
                if n % look == 0 && (stats::wilson(wins, n, Z95).half_width() <= h || n >= cap) {
                    break;
                }
            }
            RepOutcome {
                games: n,
                a_wins: wins,
            }
        }
    }
}

/// Summarises the replicates of one rule.
pub fn summarise_rule(
    rule: Rule,
    config: &StoppingConfig,
    reference: &Reference,
    outcomes: Vec<RepOutcome>,
) -> RuleSummary {
    let p = reference.p_a;
    let (claim, claimed) = claim_of(rule, config);
    let reps = outcomes.len();
    let n = reps as f64;
    let errors: Vec<f64> = outcomes.iter().map(|o| (o.estimate() - p).abs()).collect();
    let misses = claimed.map(|h| errors.iter().filter(|&&e| e > h).count() as u32);
    let implicit = outcomes
        .iter()
        .map(|o| {
            let q = o.estimate();
            Z95 * (q * (1.0 - q) / o.games as f64).sqrt()
        })
        .sum::<f64>()
        / n;
    let wilson_misses = outcomes
        .iter()
        .filter(|o| !stats::wilson(o.a_wins, o.games, Z95).contains(p))
        .count();
    RuleSummary {
        rule: rule.to_string(),
        claim,
        claimed_half_width: claimed,
        reps: reps as u32,
        games_mean: outcomes.iter().map(|o| o.games as f64).sum::<f64>() / n,
        games_min: outcomes.iter().map(|o| o.games).min().unwrap_or(0),
        games_max: outcomes.iter().map(|o| o.games).max().unwrap_or(0),
        mean_abs_error: errors.iter().sum::<f64>() / n,
        rmse: (errors.iter().map(|e| e * e).sum::<f64>() / n).sqrt(),
        median_abs_error: quantile(&errors, 0.5),
        q95_abs_error: quantile(&errors, 0.95),
        max_abs_error: errors.iter().copied().fold(0.0, f64::max),
        misses,
        miss_rate: misses.map(|m| f64::from(m) / n),
        miss_rate_upper95: misses.map(|m| stats::wilson(u64::from(m), reps as u64, Z95).hi),
        implicit_half_width: implicit,
        wilson_miss_rate: wilson_misses as f64 / n,
        outcomes,
    }
}

/// Runs every rule for `config.reps` replicates. `progress` is told of each finished
/// replicate (one unit per replicate and rule).
pub fn compare_rules(
    matchup: &Matchup,
    reference: &Reference,
    rules: &[Rule],
    config: &StoppingConfig,
    progress: &(dyn Fn(u64) + Sync),
) -> StoppingComparison {
    let summaries = rules
        .iter()
        .map(|&rule| {
            let outcomes: Vec<RepOutcome> = (0..u64::from(config.reps))
                .into_par_iter()
                .map(|rep| {
                    let outcome = run_rule_watched(matchup, rule, config, rep, progress);
                    progress(1);
                    outcome
                })
                .panic_fuse()
                .collect();
            summarise_rule(rule, config, reference, outcomes)
        })
        .collect();
    StoppingComparison {
        config: *config,
        reference: *reference,
        rules: summaries,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bernoulli_sequence_holds_at_every_game_as_often_as_it_promises() {
        // 400 replicates of 20,000 Bernoulli(p) games, looked at after every game: the
        // share of replicates whose interval ever misses p is at most alpha = 0.1 (Ville).
        // With 400 replicates a true miss rate of 0.1 gives more than 55 misses with
        // probability below 0.01 (binomial tail); the mixture is conservative, so far fewer.
        use rand::Rng;
        let alpha = 0.1;
        for p in [0.5, 0.97, 0.995] {
            let mut misses = 0;
            for rep in 0..400u64 {
                let mut rng = game_rng(77, rep);
                let threshold = (p * 4_294_967_296.0) as u64;
                let mut wins = 0;
                let mut missed = false;
                for n in 1..=20_000u64 {
                    wins += u64::from(u64::from(rng.next_u32()) < threshold);
                    // Looking at every game is slow; every 50th and the first 100 suffice
                    // to catch early and late misses alike.
                    if n <= 100 || n % 50 == 0 {
                        let (lo, hi) = bernoulli_cs(wins, n, alpha);
                        if !(lo <= p && p <= hi) {
                            missed = true;
                            break;
                        }
                    }
                }
                misses += u32::from(missed);
            }
            assert!(misses <= 55, "p = {p}: missed in {misses} of 400");
        }
    }

    #[test]
    fn rule_names_round_trip() {
        for rule in Rule::standard() {
            assert_eq!(rule.to_string().parse::<Rule>(), Ok(rule));
        }
        assert_eq!("fixed-1_000".parse::<Rule>(), Ok(Rule::Fixed(1000)));
        assert!("fixed-7".parse::<Rule>().is_err());
        assert!("fixed-x".parse::<Rule>().is_err());
        assert!("stop-when-bored".parse::<Rule>().is_err());
    }

    #[test]
    fn change_rule_by_hand() {
        // W L W L ...: after game n the rate moves by about 1/(2n); below 0.005 from
        // n = 101 on. At n = 101 (a win after 50 of 100): 51/101 - 1/2 = 0.00495.
        let alternating = (0..).map(|i| i % 2 == 0);
        assert_eq!(change_rule_stop(alternating, 0.005, 15), Some((101, 51)));
        // Never before min_games, even if the rate stands still.
        let wins = std::iter::repeat(true);
        assert_eq!(change_rule_stop(wins, 0.005, 15), Some((15, 15)));
        // L W W W ...: the rate climbs by (1 - p)/n >= 0.005 while 200 (1 - p) >= n.
        // p_n = (n-1)/n; the move after game n is 1/(n(n-1)): below 0.005 from n = 15 on.
        let late = (0..).map(|i| i > 0);
        assert_eq!(change_rule_stop(late, 0.005, 15), Some((15, 14)));
        assert_eq!(change_rule_stop([true; 10], 0.005, 15), None);
    }

    #[test]
    fn change_rule_never_passes_game_101() {
        // Every sequence of outcomes, through the states (games, wins) the rule has not
        // stopped in: none is left after game 101. Rule and state are all the rule sees.
        let mut alive = vec![0u64]; // wins after 0 games
        let mut last_stop = 0;
        for n in 1..=250u64 {
            let mut next = Vec::new();
            for &w in &alive {
                for won in [false, true] {
                    if change_rule_stops_at(n, w, won, 0.005, 15) {
                        last_stop = n;
                    } else {
                        next.push(w + u64::from(won));
                    }
                }
            }
            next.sort_unstable();
            next.dedup();
            alive = next;
        }
        assert!(alive.is_empty());
        assert_eq!(last_stop, 101);
        // With a looser threshold the bound moves accordingly (0.5 / 0.01 = 50).
        let mut alive = vec![0u64];
        let mut n = 0;
        while !alive.is_empty() {
            n += 1;
            let mut next: Vec<u64> = alive
                .iter()
                .flat_map(|&w| [(w, false), (w, true)])
                .filter(|&(w, won)| !change_rule_stops_at(n, w, won, 0.01, 15))
                .map(|(w, won)| w + u64::from(won))
                .collect();
            next.sort_unstable();
            next.dedup();
            alive = next;
        }
        assert_eq!(n, 51);
    }

    #[test]
    fn confidence_sequence_needs_about_2_4_times_the_worst_case() {
        for h in [0.02, 0.01, 0.005] {
            let (n, rho) = cs_games(h);
            assert!(n % 2 == 0);
            assert!(cs_half_width(n, rho) <= h);
            assert!(cs_half_width(n - 2, rho) > h);
            let ratio = n as f64 / worst_case_n(h) as f64;
            assert!(
                (2.3..2.5).contains(&ratio),
                "h {h}: {n} games, ratio {ratio}"
            );
        }
        // Wider than the fixed-n 95 % interval everywhere: a price for looking freely.
        for n in [100u64, 10_000, 1_000_000] {
            assert!(cs_half_width(n, 600.0) > Z95 * 0.5 / (n as f64).sqrt());
        }
    }
}
