//! `strong`: the learned player. Each legal move is scored by the value a trained
//! [`Evaluator`] gives the position it leads to, and the best one is played.
//!
//! The parameters live in *player files* (JSON, format [`FORMAT`] version [`VERSION`]): the
//! board, the profile and the feature set the network was trained for, how it was trained,
//! the weights, and a checksum over all of it. A file is checked completely when read:
//! anything damaged, of another format or version, or not matching its own checksum is
//! refused with the reason. A file plays only the game it was trained for (board and
//! profile; the dice may be any: the features do not depend on them).
//!
//! `strong` names the players that ship with the library (compiled in, one per board in
//! [`SHIPPED`]); `strong:FILE` names the player in one file (one trained with `train`).

use super::network::{Encoder, Evaluator, FEATURES, MAX_HIDDEN, Network};
use crate::rules::{Board, LegalMoves, PieceMove, Player, Profile, Rules};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// The `format` field of a player file.
pub const FORMAT: &str = "wuerfelglueck-strong-player";

/// The longest player file read (the largest network, 256 hidden units on a 64-field board,
/// is about 2 MB of JSON).
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// The version of the player file format this library reads and writes.
pub const VERSION: u32 = 1;

/// The player files compiled into the library: what `strong` plays, one per board.
pub const SHIPPED: &[(&str, &str)] = &[
    (
        "16-8-2-2",
        include_str!("../../players/strong-16-8-2-2-choice.json"),
    ),
    (
        "20-10-2-2",
        include_str!("../../players/strong-20-10-2-2-choice.json"),
    ),
    (
        "40-20-2-4",
        include_str!("../../players/strong-40-20-2-4-choice.json"),
    ),
    (
        "40-20-3-4",
        include_str!("../../players/strong-40-20-3-4-choice.json"),
    ),
    (
        "20-10-4-4",
        include_str!("../../players/strong-20-10-4-4-choice.json"),
    ),
    (
        "22-11-4-4",
        include_str!("../../players/strong-22-11-4-4-choice.json"),
    ),
    (
        "40-20-4-4",
        include_str!("../../players/strong-40-20-4-4-choice.json"),
    ),
];

/// How a player was trained: stored in the file, reported, and enough to train it again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Training {
    /// The method, in words.
    pub method: String,
    /// The die both sides rolled in training.
    pub die: String,
    /// Games of self-play.
    pub games: u64,
    /// Seed of the training's random stream.
    pub seed: u64,
    /// Step size at the start and at the end (lowered linearly in between).
    pub rate: [f32; 2],
    /// The command that trains the same parameters again (on one thread).
    pub command: String,
}

/// A player file as stored.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerFile {
    format: String,
    version: u32,
    board: String,
    profile: String,
    features: String,
    inputs: usize,
    hidden: usize,
    training: Training,
    first_layer: Vec<f32>,
    first_bias: Vec<f32>,
    second_layer: Vec<f32>,
    second_bias: f32,
    /// FNV-1a (64 bits) over the fields above, see [`checksum`].
    checksum: String,
}

/// A trained player: the evaluator and the game it was trained for.
#[derive(Clone, Debug)]
pub struct StrongPlayer {
    board: Board,
    profile: Profile,
    training: Training,
    evaluator: Evaluator,
}

impl StrongPlayer {
    /// A player for the game of `rules` with this network (which must have the encoder's
    /// number of inputs) and its training record.
    pub fn new(rules: &Rules, network: Network, training: Training) -> Result<Self, String> {
        let encoder = Encoder::new(rules);
        if network.inputs() != encoder.inputs() {
            return Err(format!(
                "the network has {} inputs, the board {} needs {}",
                network.inputs(),
                rules.board(),
                encoder.inputs()
            ));
        }
        Ok(StrongPlayer {
            board: *rules.board(),
            profile: *rules.profile(),
            training,
            evaluator: Evaluator { encoder, network },
        })
    }

    /// The board it was trained for.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The profile it was trained for.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// How it was trained.
    pub fn training(&self) -> &Training {
        &self.training
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &Evaluator {
        &self.evaluator
    }

    /// Whether it was trained for the game of `rules`.
    pub fn plays(&self, rules: &Rules) -> bool {
        *rules.board() == self.board && *rules.profile() == self.profile
    }

    /// The player file's text.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string(&self.file()).expect("a player file serializes");
        text.push('\n');
        text
    }

    /// The checksum its player file carries.
    pub fn checksum(&self) -> String {
        self.file().checksum
    }

    fn file(&self) -> PlayerFile {
        let (first, first_bias, second, second_bias) = self.evaluator.network.parts();
        let mut file = PlayerFile {
            format: FORMAT.to_string(),
            version: VERSION,
            board: self.board.to_string(),
            profile: self.profile.to_string(),
            features: FEATURES.to_string(),
            inputs: self.evaluator.network.inputs(),
            hidden: self.evaluator.network.hidden(),
            training: self.training.clone(),
            first_layer: first.to_vec(),
            first_bias: first_bias.to_vec(),
            second_layer: second.to_vec(),
            second_bias,
            checksum: String::new(),
        };
        file.checksum = checksum(&file);
        file
    }

    /// Reads a player file's text, checking everything (see the module docs).
    pub fn from_json(text: &str) -> Result<StrongPlayer, String> {
        let file: PlayerFile = serde_json::from_str(text)
            .map_err(|e| format!("not a player file ({e}); expected the JSON `train` writes"))?;
        if file.format != FORMAT {
            return Err(format!(
                "format is '{}', expected '{FORMAT}'",
                crate::dice::excerpt(&file.format)
            ));
        }
        if file.version != VERSION {
            return Err(format!(
                "format version {} is not the version {VERSION} this program reads",
                file.version
            ));
        }
        let expected = checksum(&file);
        if file.checksum != expected {
            return Err(format!(
                "checksum {} does not match the contents ({expected}): the file is damaged or was edited",
                crate::dice::excerpt(&file.checksum)
            ));
        }
        if file.features != FEATURES {
            return Err(format!(
                "features '{}' are not the features '{FEATURES}' of this program",
                crate::dice::excerpt(&file.features)
            ));
        }
        let board: Board = file.board.parse().map_err(|e| format!("board: {e}"))?;
        let profile: Profile = file.profile.parse().map_err(|e| format!("profile: {e}"))?;
        if !profile.choice {
            return Err(format!(
                "profile '{profile}' has no choice: a player is trained for a game with choices"
            ));
        }
        let rules = Rules::new(board, profile);
        let network = Network::from_parts(
            file.inputs,
            file.hidden,
            file.first_layer,
            file.first_bias,
            file.second_layer,
            file.second_bias,
        )
        .ok_or_else(|| {
            format!(
                "the weights do not form a network of {} inputs and {} hidden units (1 to {}) with finite values",
                file.inputs,
                file.hidden,
                MAX_HIDDEN
            )
        })?;
        StrongPlayer::new(&rules, network, file.training)
    }

    /// Reads a player file: at most [`MAX_FILE_BYTES`] are read, so that a huge or endless
    /// file is refused before it is held in memory.
    pub fn read(path: &Path) -> Result<StrongPlayer, String> {
        use std::io::Read;
        let file = std::fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
        let mut text = String::new();
        file.take(MAX_FILE_BYTES + 1)
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read: {e}"))?;
        if text.len() as u64 > MAX_FILE_BYTES {
            return Err(format!(
                "longer than {MAX_FILE_BYTES} bytes: a player file of at most {MAX_HIDDEN} hidden units is far shorter"
            ));
        }
        StrongPlayer::from_json(&text)
    }

    /// The move `strong` plays: the legal move whose next position has the highest value.
    #[inline]
    pub fn choose(
        &self,
        rules: &Rules,
        own: u64,
        other: u64,
        mover: Player,
        legal: &LegalMoves,
    ) -> Option<PieceMove> {
        self.evaluator.best_move(rules, own, other, mover, legal)
    }
}

/// FNV-1a over everything in the file but the checksum: the text fields, the sizes, the
/// training record (as JSON) and the bits of every weight.
fn checksum(file: &PlayerFile) -> String {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for text in [&file.format, &file.board, &file.profile, &file.features] {
        eat(text.as_bytes());
        eat(&[0]);
    }
    eat(&file.version.to_le_bytes());
    eat(&(file.inputs as u64).to_le_bytes());
    eat(&(file.hidden as u64).to_le_bytes());
    eat(serde_json::to_string(&file.training)
        .expect("a training record serializes")
        .as_bytes());
    for x in file
        .first_layer
        .iter()
        .chain(&file.first_bias)
        .chain(&file.second_layer)
        .chain([&file.second_bias])
    {
        eat(&x.to_bits().to_le_bytes());
    }
    format!("fnv1a64:{hash:016x}")
}

/// What `strong` or `strong:FILE` plays: the shipped players, or the one read from a file.
#[derive(Debug)]
pub struct Strong {
    path: Option<PathBuf>,
    players: Vec<StrongPlayer>,
}

impl Strong {
    /// The players that ship with the library (`strong`), read and checked once.
    pub fn shipped() -> Arc<Strong> {
        static SHIPPED_PLAYERS: OnceLock<Arc<Strong>> = OnceLock::new();
        SHIPPED_PLAYERS
            .get_or_init(|| {
                let players = SHIPPED
                    .iter()
                    .map(|(name, text)| {
                        StrongPlayer::from_json(text).unwrap_or_else(|e| {
                            panic!("the shipped player file for {name} is broken: {e}")
                        })
                    })
                    .collect();
                Arc::new(Strong {
                    path: None,
                    players,
                })
            })
            .clone()
    }

    /// The player of one file (`strong:FILE`).
    pub fn from_file(path: &Path) -> Result<Strong, String> {
        Ok(Strong {
            path: Some(path.to_path_buf()),
            players: vec![StrongPlayer::read(path)?],
        })
    }

    /// The file it was read from; `None` for the shipped players.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The player for the game of `rules`, if there is one.
    #[inline]
    pub fn for_game(&self, rules: &Rules) -> Option<&StrongPlayer> {
        self.players.iter().find(|p| p.plays(rules))
    }

    /// Refuses a game no player here was trained for, naming the games there are.
    pub fn check_game(&self, rules: &Rules) -> Result<(), String> {
        if self.for_game(rules).is_some() {
            return Ok(());
        }
        let games: Vec<String> = self
            .players
            .iter()
            .map(|p| format!("{} with profile {}", p.board, p.profile))
            .collect();
        Err(format!(
            "no strong player was trained for board {} with profile {}: {} {}; train one with `wuerfelglueck train` and play it as strong:FILE",
            rules.board(),
            rules.profile(),
            if self.path.is_some() {
                "this file's player plays"
            } else {
                "the shipped players play"
            },
            games.join(", ")
        ))
    }
}

impl PartialEq for Strong {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path
    }
}
