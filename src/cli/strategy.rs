//! `--strategy`, `--strategy-a`, `--strategy-b`: which piece each player moves under
//! `--profile choice`.

use super::CliError;
use crate::rules::Rules;
use crate::strategy::Strategy;
use clap::Args;

/// The players' strategies (options shared by `duel`, `rank` and `play`).
#[derive(Args, Debug, Clone, Default)]
pub struct StrategyArgs {
    /// Strategy of both players under --profile choice (default frontmost, the bwinf rule 3):
    /// frontmost, rearmost, capture, safe or random. Other strategies than frontmost need
    /// --profile choice (or choice+capture-duty).
    #[arg(long, value_name = "NAME")]
    pub strategy: Option<String>,
    /// Strategy of die A (player 1); overrides --strategy for A.
    #[arg(long = "strategy-a", value_name = "NAME")]
    pub strategy_a: Option<String>,
    /// Strategy of die B (player 2); overrides --strategy for B.
    #[arg(long = "strategy-b", value_name = "NAME")]
    pub strategy_b: Option<String>,
}

impl StrategyArgs {
    /// Die A's and die B's strategies, checked against the profile: anything but
    /// `frontmost` needs `choice`.
    pub fn strategies(&self, rules: &Rules) -> Result<[Strategy; 2], CliError> {
        let parse = |option: &str, text: &Option<String>| -> Result<Option<Strategy>, CliError> {
            text.as_deref()
                .map(|t| {
                    t.parse::<Strategy>()
                        .map_err(|e| CliError::input(format!("{option}: {e}")))
                })
                .transpose()
        };
        let both = parse("--strategy", &self.strategy)?;
        let a = parse("--strategy-a", &self.strategy_a)?;
        let b = parse("--strategy-b", &self.strategy_b)?;
        let chosen = [
            (a.or_else(|| both.clone()), self.option_for(0)),
            (b.or(both), self.option_for(1)),
        ];
        let mut strategies = [Strategy::Frontmost, Strategy::Frontmost];
        for (slot, (strategy, option)) in strategies.iter_mut().zip(chosen) {
            let Some(strategy) = strategy else { continue };
            if !strategy.is_frontmost() && !rules.profile().choice {
                return Err(CliError::input(format!(
                    "{option} {}: a strategy picks among moves, which needs --profile choice \
                     (or choice+capture-duty); under --profile {} rule 3 fixes every move \
                     (the frontmost piece that can move)",
                    strategy.name(),
                    rules.profile()
                )));
            }
            *slot = strategy;
        }
        Ok(strategies)
    }

    /// The option that set player `player`'s strategy, for messages.
    fn option_for(&self, player: usize) -> &'static str {
        match (player, &self.strategy_a, &self.strategy_b) {
            (0, Some(_), _) => "--strategy-a",
            (1, _, Some(_)) => "--strategy-b",
            _ => "--strategy",
        }
    }

    /// Whether any strategy option was given.
    pub fn given(&self) -> bool {
        self.strategy.is_some() || self.strategy_a.is_some() || self.strategy_b.is_some()
    }
}
