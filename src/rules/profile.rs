//! Profiles: the rule switches of the rules chapter (`docs/src/rules.md`) that published
//! solutions read differently.

use std::fmt;

/// A rule profile: `bwinf` with any of the optional switches turned on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Profile {
    /// `goal-last`: goal pieces move only when no track piece can move.
    pub goal_last: bool,
    /// `no-jump-in-goal`: a piece may not jump over own pieces on goal fields.
    pub no_jump_in_goal: bool,
    /// `three-tries`: with nothing to move, a player may roll up to three times for a 6.
    pub three_tries: bool,
    /// `roll-off`: both players roll, the higher face starts, instead of alternating starts.
    pub roll_off: bool,
    /// `choice`: under rule 3 the player chooses which movable piece moves (the game as
    /// played at the table); rules 1 and 2 stay compulsory.
    pub choice: bool,
    /// `capture-duty` (only with `choice`): if a rule-3 move captures, a capturing move
    /// must be chosen ("Schlagzwang").
    pub capture_duty: bool,
}

/// Why a profile name was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileError(pub String);

impl fmt::Display for ProfileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::error::Error for ProfileError {}

impl Profile {
    /// The default profile: the BwInf rules with every switch off.
    pub const BWINF: Profile = Profile {
        goal_last: false,
        no_jump_in_goal: false,
        three_tries: false,
        roll_off: false,
        choice: false,
        capture_duty: false,
    };

    /// The switch names in the order they are printed.
    pub const SWITCHES: [&'static str; 6] = [
        "goal-last",
        "no-jump-in-goal",
        "three-tries",
        "roll-off",
        "choice",
        "capture-duty",
    ];

    /// Whether the move a face makes depends on the mover's own pieces alone (so it can be
    /// tabulated per player, as the Markov-chain solvers do). `capture-duty` breaks this:
    /// which moves are allowed depends on where the opponent stands.
    pub fn moves_depend_on_own_pieces_only(&self) -> bool {
        !self.capture_duty
    }

    /// Checks that the switches can be combined: `capture-duty` needs `choice`.
    pub fn check(&self) -> Result<(), ProfileError> {
        if self.capture_duty && !self.choice {
            return Err(ProfileError(
                "capture-duty needs choice: without choice rule 3 already fixes the move \
                 (write choice+capture-duty)"
                    .into(),
            ));
        }
        Ok(())
    }

    fn switch_mut(&mut self, name: &str) -> Option<&mut bool> {
        match name {
            "goal-last" => Some(&mut self.goal_last),
            "no-jump-in-goal" => Some(&mut self.no_jump_in_goal),
            "three-tries" => Some(&mut self.three_tries),
            "roll-off" => Some(&mut self.roll_off),
            "choice" => Some(&mut self.choice),
            "capture-duty" => Some(&mut self.capture_duty),
            _ => None,
        }
    }

    fn switch(&self, name: &str) -> bool {
        let mut copy = *self;
        copy.switch_mut(name).map(|b| *b).unwrap_or(false)
    }

    /// The names of the switches that are on, in the order of [`Profile::SWITCHES`].
    pub fn switches_on(&self) -> impl Iterator<Item = &'static str> + '_ {
        Self::SWITCHES.into_iter().filter(|name| self.switch(name))
    }
}

impl fmt::Display for Profile {
    /// `bwinf`, or `bwinf+goal-last+three-tries` with the switches that are on.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bwinf")?;
        for name in self.switches_on() {
            write!(f, "+{name}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Profile {
    type Err = ProfileError;

    /// Parses `bwinf` or a list of switches joined by `+` or `,`, with or without a
    /// leading `bwinf`: `bwinf+goal-last`, `goal-last,three-tries`. Refuses combinations
    /// [`Profile::check`] refuses.
    fn from_str(s: &str) -> Result<Profile, ProfileError> {
        let mut profile = Profile::BWINF;
        for name in s.split(['+', ',']).map(str::trim) {
            if name.is_empty() || name == "bwinf" {
                continue;
            }
            match profile.switch_mut(name) {
                Some(flag) => *flag = true,
                None => {
                    return Err(ProfileError(format!(
                        "unknown profile switch {}: expected bwinf or any of {}",
                        crate::dice::excerpt(name),
                        Self::SWITCHES.join(", ")
                    )));
                }
            }
        }
        profile.check()?;
        Ok(profile)
    }
}
