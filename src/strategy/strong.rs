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
//! [`SHIPPED`], and one per table of three and four on the full board); `strong:FILE` names
//! the player in one file (one trained with `train`, for two players or, with `--players N`,
//! for a table: such a file says so in its `players` field and plays only at that table).

use super::network::{
    Encoder, Evaluator, FEATURES, MAX_HIDDEN, Network, TABLE_FEATURES, TableEncoder, TableEvaluator,
};
use crate::rules::{Board, LegalMoves, MAX_SEATS, PieceMove, Player, Profile, Rules, Seats};
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

/// The player files compiled into the library: what `strong` plays, one per board for two
/// players and one per table (named with its seats).
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
    (
        "40-20-4-4-3-players",
        include_str!("../../players/strong-40-20-4-4-choice-3-players.json"),
    ),
    (
        "40-20-4-4-4-players",
        include_str!("../../players/strong-40-20-4-4-choice-4-players.json"),
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
    /// The seats it plays at: 2 (the field is left out) or a table of 3 or 4.
    #[serde(default = "two_players", skip_serializing_if = "is_two_players")]
    players: usize,
    first_layer: Vec<f32>,
    first_bias: Vec<f32>,
    second_layer: Vec<f32>,
    second_bias: OutputBias,
    /// FNV-1a (64 bits) over the fields above, see [`checksum`].
    checksum: String,
}

impl PlayerFile {
    /// The file's text: one line of JSON.
    fn text(&self) -> String {
        let mut text = serde_json::to_string(self).expect("a player file serializes");
        text.push('\n');
        text
    }
}

fn two_players() -> usize {
    2
}

fn is_two_players(players: &usize) -> bool {
    *players == 2
}

/// The output layer's bias: one number for two players, one per seat at a table.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(untagged)]
enum OutputBias {
    One(f32),
    PerSeat(Vec<f32>),
}

impl OutputBias {
    fn of(biases: &[f32]) -> OutputBias {
        match biases {
            [one] => OutputBias::One(*one),
            many => OutputBias::PerSeat(many.to_vec()),
        }
    }

    fn values(&self) -> &[f32] {
        match self {
            OutputBias::One(one) => std::slice::from_ref(one),
            OutputBias::PerSeat(many) => many,
        }
    }
}

/// A network, checked, with what its file says it was trained for.
struct Loaded {
    board: Board,
    profile: Profile,
    players: usize,
    training: Training,
    network: Network,
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
        self.file().text()
    }

    /// The checksum its player file carries.
    pub fn checksum(&self) -> String {
        self.file().checksum
    }

    fn file(&self) -> PlayerFile {
        player_file(
            &self.board,
            &self.profile,
            2,
            &self.training,
            &self.evaluator.network,
        )
    }

    /// Reads a player file's text, checking everything (see the module docs); a player for
    /// a table of three or four is refused (see [`TablePlayer::from_json`]).
    pub fn from_json(text: &str) -> Result<StrongPlayer, String> {
        let loaded = load(text)?;
        if loaded.players != 2 {
            return Err(format!(
                "the player was trained for a table of {} players, not for two",
                loaded.players
            ));
        }
        StrongPlayer::new(
            &Rules::new(loaded.board, loaded.profile),
            loaded.network,
            loaded.training,
        )
    }

    /// Reads a player file: at most [`MAX_FILE_BYTES`] are read, so that a huge or endless
    /// file is refused before it is held in memory.
    pub fn read(path: &Path) -> Result<StrongPlayer, String> {
        StrongPlayer::from_json(&read_text(path)?)
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

/// Reads at most [`MAX_FILE_BYTES`] of a file, so that a huge file is refused before it is
/// held in memory; only a regular file (a FIFO would make the reading wait, a device such
/// as `/dev/zero` would never end).
fn read_text(path: &Path) -> Result<String, String> {
    let bytes = crate::files::read_regular(path, Some(MAX_FILE_BYTES + 1))
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "longer than {MAX_FILE_BYTES} bytes: a player file of at most {MAX_HIDDEN} hidden units is far shorter"
        ));
    }
    String::from_utf8(bytes).map_err(|_| "cannot read: stream did not contain valid UTF-8".into())
}

/// The player file of a network trained for `board`, `profile` and `players` seats.
fn player_file(
    board: &Board,
    profile: &Profile,
    players: usize,
    training: &Training,
    network: &Network,
) -> PlayerFile {
    let (first, first_bias, second, second_bias) = network.parts();
    let mut file = PlayerFile {
        format: FORMAT.to_string(),
        version: VERSION,
        board: board.to_string(),
        profile: profile.to_string(),
        features: features_for(players).to_string(),
        inputs: network.inputs(),
        hidden: network.hidden(),
        training: training.clone(),
        players,
        first_layer: first.to_vec(),
        first_bias: first_bias.to_vec(),
        second_layer: second.to_vec(),
        second_bias: OutputBias::of(second_bias),
        checksum: String::new(),
    };
    file.checksum = checksum(&file);
    file
}

/// The feature set of a player for `players` seats.
fn features_for(players: usize) -> &'static str {
    if players == 2 {
        FEATURES
    } else {
        TABLE_FEATURES
    }
}

/// Parses and checks a player file's text (see the module docs): its network and the game
/// it was trained for.
fn load(text: &str) -> Result<Loaded, String> {
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
    if !(2..=MAX_SEATS).contains(&file.players) {
        return Err(format!(
            "players {}: expected 2 to {MAX_SEATS}",
            file.players
        ));
    }
    let features = features_for(file.players);
    if file.features != features {
        return Err(format!(
            "features '{}' are not the features '{features}' of this program for {} players",
            crate::dice::excerpt(&file.features),
            file.players
        ));
    }
    let board: Board = file.board.parse().map_err(|e| format!("board: {e}"))?;
    let profile: Profile = file.profile.parse().map_err(|e| format!("profile: {e}"))?;
    if !profile.choice {
        return Err(format!(
            "profile '{profile}' has no choice: a player is trained for a game with choices"
        ));
    }
    let outputs = if file.players == 2 { 1 } else { file.players };
    let network = Network::from_parts(
        file.inputs,
        file.hidden,
        outputs,
        file.first_layer,
        file.first_bias,
        file.second_layer,
        file.second_bias.values().to_vec(),
    )
    .ok_or_else(|| {
        format!(
            "the weights do not form a network of {} inputs, {} hidden units (1 to {}) and {outputs} output(s) with finite values",
            file.inputs, file.hidden, MAX_HIDDEN
        )
    })?;
    Ok(Loaded {
        board,
        profile,
        players: file.players,
        training: file.training,
        network,
    })
}

/// FNV-1a over everything in the file but the checksum: the text fields, the sizes, the
/// seats (only when not 2, so that two players' files read as before), the training record
/// (as JSON) and the bits of every weight.
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
    if file.players != 2 {
        eat(&(file.players as u64).to_le_bytes());
    }
    eat(serde_json::to_string(&file.training)
        .expect("a training record serializes")
        .as_bytes());
    for x in file
        .first_layer
        .iter()
        .chain(&file.first_bias)
        .chain(&file.second_layer)
        .chain(file.second_bias.values())
    {
        eat(&x.to_bits().to_le_bytes());
    }
    format!("fnv1a64:{hash:016x}")
}

/// A learned player for a table of three or four: every seat's chance to win from a
/// [`TableEvaluator`]; it plays the move after which its own chance is highest.
#[derive(Clone, Debug)]
pub struct TablePlayer {
    board: Board,
    profile: Profile,
    training: Training,
    evaluator: TableEvaluator,
}

impl TablePlayer {
    /// A player for the table `seats` (three or four seats) with this network (the encoder's
    /// number of inputs, one output per seat) and its training record.
    pub fn new(seats: &Seats, network: Network, training: Training) -> Result<Self, String> {
        let encoder = TableEncoder::new(seats);
        if seats.players() < 3 {
            return Err("a table player plays at a table of three or four".to_string());
        }
        if network.inputs() != encoder.inputs() || network.outputs() != seats.players() {
            return Err(format!(
                "the network has {} inputs and {} outputs, a table of {} on board {} needs {} and {}",
                network.inputs(),
                network.outputs(),
                seats.players(),
                seats.board(),
                encoder.inputs(),
                seats.players()
            ));
        }
        Ok(TablePlayer {
            board: *seats.board(),
            profile: *seats.rules().profile(),
            training,
            evaluator: TableEvaluator { encoder, network },
        })
    }

    /// Reads a table player's file text, checking everything (see the module docs).
    pub fn from_json(text: &str) -> Result<TablePlayer, String> {
        let loaded = load(text)?;
        table_player(loaded)
    }

    /// The number of seats it plays at.
    pub fn players(&self) -> usize {
        self.evaluator.encoder.players()
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
    pub fn evaluator(&self) -> &TableEvaluator {
        &self.evaluator
    }

    /// Whether it was trained for the table `seats`.
    pub fn plays(&self, seats: &Seats) -> bool {
        *seats.board() == self.board
            && *seats.rules().profile() == self.profile
            && seats.players() == self.players()
    }

    /// The player file's text.
    pub fn to_json(&self) -> String {
        self.file().text()
    }

    /// The checksum its player file carries.
    pub fn checksum(&self) -> String {
        self.file().checksum
    }

    fn file(&self) -> PlayerFile {
        player_file(
            &self.board,
            &self.profile,
            self.players(),
            &self.training,
            &self.evaluator.network,
        )
    }
}

/// A learned player of either kind: for two players or for a table of three or four.
#[derive(Clone, Debug)]
pub enum Trained {
    /// A player for two.
    Duel(StrongPlayer),
    /// A player for a table of three or four.
    Table(TablePlayer),
}

impl Trained {
    /// Reads a player file's text of either kind, checking everything (see the module docs).
    pub fn from_json(text: &str) -> Result<Trained, String> {
        let loaded = load(text)?;
        if loaded.players == 2 {
            StrongPlayer::new(
                &Rules::new(loaded.board, loaded.profile),
                loaded.network,
                loaded.training,
            )
            .map(Trained::Duel)
        } else {
            table_player(loaded).map(Trained::Table)
        }
    }

    /// The player file's text.
    pub fn to_json(&self) -> String {
        match self {
            Trained::Duel(p) => p.to_json(),
            Trained::Table(p) => p.to_json(),
        }
    }

    /// The checksum its player file carries.
    pub fn checksum(&self) -> String {
        match self {
            Trained::Duel(p) => p.checksum(),
            Trained::Table(p) => p.checksum(),
        }
    }

    /// The board it was trained for.
    pub fn board(&self) -> &Board {
        match self {
            Trained::Duel(p) => p.board(),
            Trained::Table(p) => p.board(),
        }
    }

    /// The profile it was trained for.
    pub fn profile(&self) -> &Profile {
        match self {
            Trained::Duel(p) => p.profile(),
            Trained::Table(p) => p.profile(),
        }
    }

    /// The seats it plays at.
    pub fn players(&self) -> usize {
        match self {
            Trained::Duel(_) => 2,
            Trained::Table(p) => p.players(),
        }
    }
}

/// A loaded table player, its table set up from the file's board and profile.
fn table_player(loaded: Loaded) -> Result<TablePlayer, String> {
    let seats = Seats::new(Rules::new(loaded.board, loaded.profile), loaded.players)
        .map_err(|e| format!("the table it was trained for: {e}"))?;
    TablePlayer::new(&seats, loaded.network, loaded.training)
}

/// What `strong` or `strong:FILE` plays: the shipped players, or the one read from a file;
/// players for two and players for tables of three or four.
#[derive(Debug)]
pub struct Strong {
    path: Option<PathBuf>,
    players: Vec<StrongPlayer>,
    tables: Vec<TablePlayer>,
}

impl Strong {
    /// No players yet.
    fn empty(path: Option<PathBuf>) -> Strong {
        Strong {
            path,
            players: Vec::new(),
            tables: Vec::new(),
        }
    }

    /// Adds the player of a player file's text, for two players or for a table.
    fn add(&mut self, text: &str) -> Result<(), String> {
        match Trained::from_json(text)? {
            Trained::Duel(p) => self.players.push(p),
            Trained::Table(p) => self.tables.push(p),
        }
        Ok(())
    }

    /// The players that ship with the library (`strong`), read and checked once.
    pub fn shipped() -> Arc<Strong> {
        static SHIPPED_PLAYERS: OnceLock<Arc<Strong>> = OnceLock::new();
        SHIPPED_PLAYERS
            .get_or_init(|| {
                let mut strong = Strong::empty(None);
                for (name, text) in SHIPPED {
                    strong.add(text).unwrap_or_else(|e| {
                        panic!("the shipped player file for {name} is broken: {e}")
                    });
                }
                Arc::new(strong)
            })
            .clone()
    }

    /// The player of one file (`strong:FILE`), for two players or for a table.
    pub fn from_file(path: &Path) -> Result<Strong, String> {
        let mut strong = Strong::empty(Some(path.to_path_buf()));
        strong.add(&read_text(path)?)?;
        Ok(strong)
    }

    /// The file it was read from; `None` for the shipped players.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The player for the game of `rules` (two players), if there is one.
    #[inline]
    pub fn for_game(&self, rules: &Rules) -> Option<&StrongPlayer> {
        self.players.iter().find(|p| p.plays(rules))
    }

    /// The player for the table `seats` (three or four), if there is one.
    #[inline]
    pub fn for_table(&self, seats: &Seats) -> Option<&TablePlayer> {
        self.tables.iter().find(|p| p.plays(seats))
    }

    /// Whether a player here plays at the table `seats`: the table player of its board,
    /// profile and seats, or at a table of two the two-player player of the game.
    pub fn plays_at(&self, seats: &Seats) -> bool {
        if seats.players() == 2 {
            self.for_game(seats.rules()).is_some()
        } else {
            self.for_table(seats).is_some()
        }
    }

    /// The games the players here were trained for, in words.
    fn games(&self) -> String {
        let duels = self
            .players
            .iter()
            .map(|p| format!("{} with profile {}", p.board, p.profile));
        let tables = self.tables.iter().map(|p| {
            format!(
                "{} with profile {} at a table of {}",
                p.board,
                p.profile,
                p.players()
            )
        });
        duels.chain(tables).collect::<Vec<_>>().join(", ")
    }

    fn whose(&self) -> String {
        match &self.path {
            Some(path) => format!("the player of {} plays", path.display()),
            None => "the shipped players play".into(),
        }
    }

    /// Whose players these are and the games they were trained for, in words: "the player of
    /// p.json plays 16/8/2/2 with profile choice at a table of 3", "the shipped players play
    /// ...".
    pub fn trained_for(&self) -> String {
        format!("{} {}", self.whose(), self.games())
    }

    /// Refuses a game no player here was trained for, naming the games there are.
    pub fn check_game(&self, rules: &Rules) -> Result<(), String> {
        if self.for_game(rules).is_some() {
            return Ok(());
        }
        Err(format!(
            "no strong player was trained for board {} with profile {}: {}; train one with `wuerfelglueck train` and play it as strong:FILE",
            rules.board(),
            rules.profile(),
            self.trained_for()
        ))
    }
}

impl PartialEq for Strong {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path
    }
}
