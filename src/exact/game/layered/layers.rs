//! The game's states in groups by how far each side has got home, the structure a layered
//! solve follows.
//!
//! A piece in the goal never leaves it (no capture reaches the goal) and only moves deeper.
//! Write a side's *goal configuration* as a number whose bit `i` says whether goal field
//! `i` holds a piece, deeper fields in higher bits: a piece entering the goal sets a bit, a
//! piece moving deeper clears a bit and sets a higher one, so every move either keeps the
//! number or raises it, and a capture keeps it. The states therefore fall into groups by
//! the pair of goal configurations `(A's, B's)`, and from a group play only reaches groups
//! whose two numbers are both at least as large. Solved from the last group back, each
//! group's fixed point needs only its own states and the final values of the groups it
//! exits into (as the Royal Game of Ur was solved by pieces scored, and awari by stones on
//! the board). The *core* is the group where neither side has a piece home: on the BwInf
//! board (40/20/4/4) 102,091 configurations of each side, against at most 10,701 of a side
//! in every other group ([`GoalGroups`] counts them; `tests/game.rs` checks the counts
//! against the binomial sums they must equal).

use crate::exact::game::space::PlayerTable;
use crate::rules::Rules;

/// A side's goal configuration: bit `i` set where goal field `i` holds a piece (deeper
/// fields higher).
pub(crate) type GoalConfig = u32;

/// A group of states: both sides' goal configurations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Group {
    /// A's goal configuration.
    pub a: GoalConfig,
    /// B's goal configuration.
    pub b: GoalConfig,
}

impl Group {
    /// The group where neither side has a piece home.
    pub const CORE: Group = Group { a: 0, b: 0 };

    /// Whether this is the core.
    pub fn is_core(self) -> bool {
        self == Group::CORE
    }

    /// Whether play can lead from this group into `later` (both goal configurations at
    /// least as large): the groups a group's values are read from.
    pub fn can_reach(self, later: Group) -> bool {
        later.a >= self.a && later.b >= self.b
    }

    /// Whether one roll can lead from this group into `other`: a move changes only the
    /// mover's goal configuration and a capture neither side's, so a group's sweeps read
    /// only the groups that share one side's goal configuration with it (and are at
    /// least as far on the other side). A finished group is needed while a group still to
    /// solve reads it.
    pub fn reads(self, other: Group) -> bool {
        (other.a == self.a && other.b >= self.b) || (other.b == self.b && other.a >= self.a)
    }
}

/// Each side's configurations by goal configuration.
#[derive(Clone, Debug)]
pub(crate) struct GoalGroups {
    /// Per side, the goal configuration of each configuration (by its index in the
    /// side's [`PlayerTable`]).
    goal: [Vec<GoalConfig>; 2],
    /// Per side, how many configurations have each goal configuration.
    counts: [Vec<u64>; 2],
    /// Per side, `steps[side][g][h]`: whether one move of that side leads from goal
    /// configuration `g` to `h` (`g` itself included where some move keeps it).
    steps: [Vec<Vec<bool>>; 2],
}

impl GoalGroups {
    /// The goal configurations of both players' configurations under `rules`.
    pub(crate) fn new(rules: &Rules, players: &[PlayerTable; 2]) -> GoalGroups {
        let board = rules.board();
        let track = board.track_len();
        let goal_mask = board.goal_mask();
        let per_side = |p: &PlayerTable| {
            let goal: Vec<GoalConfig> = p
                .configs
                .masks()
                .iter()
                .map(|&own| ((own & goal_mask) >> track) as GoalConfig)
                .collect();
            let goals = 1usize << board.goal_len();
            let mut counts = vec![0u64; goals];
            for &g in &goal {
                counts[g as usize] += 1;
            }
            let mut steps = vec![vec![false; goals]; goals];
            for (i, &g) in goal.iter().enumerate() {
                for k in 0..p.faces.len() {
                    for m in p.moves(i, k) {
                        steps[g as usize][goal[m.next as usize] as usize] = true;
                    }
                }
            }
            (goal, counts, steps)
        };
        let (goal_a, counts_a, steps_a) = per_side(&players[0]);
        let (goal_b, counts_b, steps_b) = per_side(&players[1]);
        GoalGroups {
            goal: [goal_a, goal_b],
            counts: [counts_a, counts_b],
            steps: [steps_a, steps_b],
        }
    }

    /// Whether one roll can lead from group `from` into the group `to`: one side's move
    /// steps its goal configuration as some move of its table does, a capture changes
    /// neither side's, and a roll that moves nothing stays. The groups a group's sweeps
    /// read; within [`Group::reads`].
    pub(crate) fn reads(&self, from: Group, to: Group) -> bool {
        let step = |side: usize, g: GoalConfig, h: GoalConfig| {
            g == h || self.steps[side][g as usize][h as usize]
        };
        (from.b == to.b && step(0, from.a, to.a)) || (from.a == to.a && step(1, from.b, to.b))
    }

    /// The goal configuration of `side`'s configuration `config`.
    #[inline(always)]
    pub(crate) fn goal_config(&self, side: usize, config: usize) -> GoalConfig {
        self.goal[side][config]
    }

    /// How many of `side`'s configurations have the goal configuration `g`.
    #[cfg(test)]
    pub(crate) fn configs_with(&self, side: usize, g: GoalConfig) -> u64 {
        self.counts[side].get(g as usize).copied().unwrap_or(0)
    }

    /// The configuration pairs of `group` (`None` if the count overflows).
    #[cfg(test)]
    pub(crate) fn pairs(&self, group: Group) -> Option<u64> {
        self.configs_with(0, group.a)
            .checked_mul(self.configs_with(1, group.b))
    }

    /// Every group with states, in an order to solve them: each after every group it can
    /// reach. The groups where both sides have a piece home come first: they reach only
    /// one another, so a long solve outside the core finishes that part (the one a
    /// whole-remaining-game evaluation needs) before the far larger groups where only one
    /// side has. Within each part by the sum of both goal configurations, largest first,
    /// which a move never lowers (groups of the same sum cannot reach one another). The
    /// core comes last.
    pub(crate) fn solve_order(&self) -> Vec<Group> {
        let present = |side: usize| {
            (0..self.counts[side].len() as GoalConfig)
                .filter(move |&g| self.counts[side][g as usize] > 0)
                .collect::<Vec<_>>()
        };
        let mut groups: Vec<Group> = present(0)
            .into_iter()
            .flat_map(|a| present(1).into_iter().map(move |b| Group { a, b }))
            .collect();
        let both_home = |g: &Group| g.a > 0 && g.b > 0;
        groups.sort_by_key(|g| (!both_home(g), std::cmp::Reverse(g.a + g.b), g.a, g.b));
        groups
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Die;

    fn groups(board: &str, dice: [&str; 2]) -> (Rules, [PlayerTable; 2], GoalGroups) {
        let rules = Rules::new(board.parse().unwrap(), "choice".parse().unwrap());
        let dice: [Die; 2] = dice.map(|d| d.parse().unwrap());
        let players = [0, 1].map(|p| PlayerTable::new(&rules, p, &dice[p]));
        let groups = GoalGroups::new(&rules, &players);
        (rules, players, groups)
    }

    /// The property the layering rests on: no move lowers the mover's goal configuration
    /// and no capture changes the captured side's, for every configuration and face of
    /// both sides; and every group can reach exactly the groups the solve order puts
    /// before it, or itself.
    #[test]
    fn no_move_or_capture_leads_back_to_an_earlier_group() {
        for (board, dice) in [
            ("16/8/4/4", ["1..6", "1..6"]),
            ("20/10/3/4", ["1..6", "1,2,5,6"]),
            ("12/6/2/2", ["2,4,6", "1..8"]),
        ] {
            let (rules, players, groups) = groups(board, dice);
            let mut moves = 0u64;
            for (side, p) in players.iter().enumerate() {
                for i in 0..p.configs.len() {
                    let g = groups.goal_config(side, i);
                    for k in 0..p.faces.len() {
                        for m in p.moves(i, k) {
                            moves += 1;
                            let after = groups.goal_config(side, m.next as usize);
                            assert!(after >= g, "{board}: a move from goal {g:b} to {after:b}");
                            // Whatever the opponent's goal configuration `h`, the group
                            // moved into is one the group moved from reads.
                            for h in 0..4 {
                                let [from, to] = [g, after].map(|own| {
                                    if side == 0 {
                                        Group { a: own, b: h }
                                    } else {
                                        Group { a: h, b: own }
                                    }
                                });
                                assert!(from.reads(to), "{board}: {from:?} to {to:?}");
                            }
                        }
                    }
                    for f in 0..rules.board().track_len() as usize {
                        let j = p.captured(i, f);
                        assert_eq!(groups.goal_config(side, j), g, "{board}: a capture");
                    }
                }
            }
            assert!(moves > 1000, "{board}: {moves} moves");
            // The groups a group reads, from the tables, lie within the coarse relation
            // and are fewer where some side has more than one goal field.
            let order = groups.solve_order();
            let (mut exact, mut coarse) = (0, 0);
            for &g in &order {
                for &h in &order {
                    if groups.reads(g, h) {
                        assert!(g.reads(h), "{board}: {g:?} reads {h:?}");
                        exact += 1;
                    }
                    coarse += usize::from(g.reads(h));
                }
            }
            assert!(exact < coarse, "{board}: {exact} of {coarse}");
            let order = groups.solve_order();
            assert_eq!(order.last(), Some(&Group::CORE), "{board}");
            // Where both sides have a piece home comes first, all of it.
            let both_home = order.iter().filter(|g| g.a > 0 && g.b > 0).count();
            assert!(both_home > 0, "{board}");
            assert!(
                order[..both_home].iter().all(|g| g.a > 0 && g.b > 0),
                "{board}: {order:?}"
            );
            for (n, g) in order.iter().enumerate() {
                for later in &order[n + 1..] {
                    assert!(!g.can_reach(*later), "{board}: {g:?} before {later:?}");
                }
            }
        }
    }

    /// On the BwInf board every placement of the pieces outside the goal occurs under
    /// `choice`: a side with `j` pieces home has `sum_{k <= 4 - j} C(40, k)` configurations
    /// for each of its goal configurations with `j` pieces (102,091 with none, 10,701 with
    /// one, 821, 41, 1), counted here by the configurations' search, not by the formula.
    #[test]
    fn the_bwinf_board_groups_have_the_binomial_sizes() {
        let (_, players, groups) = groups("40/20/4/4", ["1..6", "1..6"]);
        let binomial = |n: u64, k: u64| (0..k).fold(1u64, |c, i| c * (n - i) / (i + 1));
        let placements = |home: u32| {
            (0..=u64::from(4 - home))
                .map(|k| binomial(40, k))
                .sum::<u64>()
        };
        assert_eq!(placements(0), 102_091);
        assert_eq!(placements(1), 10_701);
        for (side, player) in players.iter().enumerate() {
            let mut total = 0;
            for g in 0..16 {
                let expected = placements(GoalConfig::count_ones(g));
                assert_eq!(groups.configs_with(side, g), expected, "goal {g:04b}");
                total += expected;
            }
            assert_eq!(total, player.configs.len() as u64);
        }
        assert_eq!(groups.pairs(Group::CORE), Some(102_091 * 102_091));
        let order = groups.solve_order();
        assert_eq!(order.len(), 256);
        let outside: u64 = order
            .iter()
            .filter(|g| !g.is_core())
            .map(|&g| groups.pairs(g).unwrap())
            .sum();
        let largest = order
            .iter()
            .filter(|g| !g.is_core())
            .map(|&g| groups.pairs(g).unwrap())
            .max();
        assert_eq!(largest, Some(102_091 * 10_701));
        assert_eq!(
            outside + groups.pairs(Group::CORE).unwrap(),
            149_986 * 149_986
        );
    }
}
