//! A simulated ranking: every pair played with its own random streams, pair by pair or
//! one pair at a time (for a caller that spreads the pairs over processes).

use super::Tournament;
use crate::dice::Die;
use crate::rules::Rules;
use crate::sim::{
    DuelCounts, DuelPlan, Matchup, SimError, Stopping, StreamKey, run_duel_announced,
};
use crate::strategy::Strategy;

/// Settings of a simulated ranking.
#[derive(Clone, Copy, Debug)]
pub struct SimulationPlan {
    /// Games per pair, or the precision to reach per pair.
    pub stopping: Stopping,
    /// The user's seed; pair `k` uses stream `k`.
    pub seed: u64,
    /// Roll cap per game.
    pub max_rolls: u64,
}

/// Simulates every pair of `dice`, every die playing `frontmost`. `progress` is told of
/// every chunk of games played.
pub fn simulate_tournament(
    rules: &Rules,
    dice: &[Die],
    plan: &SimulationPlan,
    progress: &(dyn Fn(u64) + Sync),
    announce: &(dyn Fn(&str, &DuelPlan) + Sync),
) -> Result<Tournament, SimError> {
    simulate_tournament_playing(rules, dice, &Strategy::Frontmost, plan, progress, announce)
}

/// [`simulate_tournament`] with every die playing `strategy` (each pair resolves it against
/// the other die, see [`Matchup::playing`]); anything but `frontmost` needs `choice`.
pub fn simulate_tournament_playing(
    rules: &Rules,
    dice: &[Die],
    strategy: &Strategy,
    plan: &SimulationPlan,
    progress: &(dyn Fn(u64) + Sync),
    announce: &(dyn Fn(&str, &DuelPlan) + Sync),
) -> Result<Tournament, SimError> {
    let mut tournament = Tournament::new(dice.to_vec());
    let pairs = tournament.pairs();
    for (stream, &(i, j)) in pairs.iter().enumerate() {
        let name = format!(
            "pair {}/{} ({} vs {})",
            stream + 1,
            pairs.len(),
            dice[i],
            dice[j]
        );
        let counts = simulate_pair(
            rules,
            dice,
            strategy,
            plan,
            stream,
            (i, j),
            progress,
            &|p| announce(&name, p),
        )?;
        tournament.record_duel(i, j, &counts);
    }
    Ok(tournament)
}

/// One pair of a simulated ranking: dice `i` (as A) and `j` (as B) of `dice`, both playing
/// `strategy`, pair number `stream` in [`Tournament::pairs`] order, which selects the pair's
/// own random streams.
///
/// [`simulate_tournament`] runs this for every pair in turn; a caller that spreads the pairs
/// over processes or machines (the Python package's Dask ranking) runs it for one pair and
/// gets exactly the counts of the local ranking for the same seed.
#[allow(clippy::too_many_arguments)]
pub fn simulate_pair(
    rules: &Rules,
    dice: &[Die],
    strategy: &Strategy,
    plan: &SimulationPlan,
    stream: usize,
    (i, j): (usize, usize),
    progress: &(dyn Fn(u64) + Sync),
    announce: &(dyn Fn(&DuelPlan) + Sync),
) -> Result<DuelCounts, SimError> {
    let matchup = Matchup::new(rules, [&dice[i], &dice[j]], plan.max_rolls)?
        .playing([strategy.clone(), strategy.clone()])?;
    let key = StreamKey::new(plan.seed).with_stream(stream as u64);
    run_duel_announced(&matchup, key, plan.stopping, progress, announce)
}
