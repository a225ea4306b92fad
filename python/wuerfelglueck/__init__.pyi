"""Type stubs of wuerfelglueck (Python bindings of the Rust library)."""

import os
from typing import Any, Callable, Optional, Sequence, Union

import pandas

__version__: str

DieLike = Union[str, Sequence[int], "Die"]
PathLike = Union[str, os.PathLike]
Progress = Optional[Callable[[int, str], Any]]

class Die:
    faces: list[int]
    def __init__(self, faces: DieLike) -> None: ...

class Board:
    track: int
    offset: int
    pieces: int
    goal_fields: int
    def __init__(self, track: int = 40, offset: Optional[int] = None, pieces: int = 4,
                 goal_fields: int = 4) -> None: ...

class Rules:
    board: Board
    profile: str
    def __init__(self, board: Optional[Board] = None, profile: str = "bwinf") -> None: ...

class Result:
    def to_dict(self) -> dict[str, Any]: ...
    def to_json(self) -> str: ...
    def to_pandas(self) -> pandas.DataFrame: ...
    def __getattr__(self, name: str) -> Any: ...

class DuelResult(Result):
    die_a: str
    die_b: str
    profile: str
    board: str
    strategy_a: str
    strategy_b: str
    games: int
    a_wins: int
    b_wins: int
    unfinished: int
    endless: int
    p_a: float
    ci95: list[float]
    p_b: float
    p_a_if_a_starts: Optional[float]
    p_a_if_b_starts: Optional[float]
    games_a_started: int
    mean_rolls: Optional[float]
    seed: int
    max_rolls: int
    stopping: str
    precision: Optional[float]

class RankResult(Result):
    dice: list[str]
    matrix: list[list[Optional[float]]]
    ci95: list[list[Optional[list[float]]]]
    share: list[list[Optional[float]]]
    unfinished: list[list[Optional[float]]]
    method: list[list[Optional[str]]]
    ranking: list[dict[str, Any]]
    undecided: list[list[int]]
    cycles: list[list[int]]
    cyclic_groups: list[list[int]]
    profile: str
    board: str
    strategy_a: str
    strategy_b: str
    seed: Optional[int]
    seconds: float
    notes: list[str]

class SolveResult(Result):
    p_a: float
    p_a_if_a_starts: float
    p_a_if_b_starts: float
    p_b: float
    p_never: float
    p_never_if_a_starts: float
    p_never_if_b_starts: float
    bounds: dict[str, list[float]]
    p_a_starts: float
    states: int
    product_states: int
    never_states: int
    transitions: int
    iterations: int
    memory_bytes: int
    build_seconds: float
    solve_seconds: float
    seconds: float

class GameResult(Result):
    goal: int
    bust: int
    faces: list[int]
    p_start: float
    iterations: int

class ConvergeResult(Result): ...

class TableResult(Result):
    dice: list[str]
    players: int
    seating: str
    p_win: list[float]
    ci95: list[list[float]]
    unfinished: int
    endless: int
    per_seat: list[list[Optional[float]]]
    games: int
    seed: int
    profile: str
    board: str
    max_rolls: int
    mean_rolls: Optional[float]
    precision: Optional[float]

class SearchResult(Result):
    family: list[str]
    family_description: str
    best_mean: dict[str, Any]
    condorcet: Optional[str]
    condorcet_status: str
    maximin: dict[str, Any]
    cycles: list[Any]
    top: list[str]
    games: int
    dice: list[dict[str, Any]]
    confirmation: list[dict[str, Any]]
    profile: str
    strategy: str
    board: str
    seed: int
    seconds: float
    notes: list[str]

class AdviseResult(Result):
    board: str
    profile: str
    position: str
    mover: str
    face: int
    method: str
    strategies: list[str]
    games: int
    moves: list[dict[str, Any]]
    undecided: list[str]
    variance_reduced: bool
    note: str

class PlayResult(Result):
    dice: list[str]
    board: str
    profile: str
    seed: int
    first: str
    strategies: Optional[list[str]]
    start: dict[str, str]
    turns: list[dict[str, Any]]
    end: str
    winner: Optional[str]

def duel(a: DieLike, b: DieLike, *, games: Optional[int] = None,
         precision: Optional[float] = None, seed: int = 1, max_rolls: int = 100_000,
         threads: Optional[int] = None, track: Optional[int] = None,
         offset: Optional[int] = None, pieces: Optional[int] = None,
         goal_fields: Optional[int] = None, profile: Optional[str] = None,
         rules: Optional[Rules] = None, strategy: Optional[str] = None,
         strategy_a: Optional[str] = None, strategy_b: Optional[str] = None,
         style: bool = False, progress: Progress = None) -> DuelResult: ...
def rank(dice: Union[PathLike, Sequence[DieLike]], *, exact: bool = False,
         games: Optional[int] = None, precision: Optional[float] = None, seed: int = 1,
         max_rolls: int = 100_000, threads: Optional[int] = None,
         track: Optional[int] = None, offset: Optional[int] = None,
         pieces: Optional[int] = None, goal_fields: Optional[int] = None,
         profile: Optional[str] = None, rules: Optional[Rules] = None,
         tolerance: float = 1e-9,
         max_memory: Union[int, str, None] = None, store: Optional[PathLike] = None,
         values: Optional[Sequence[PathLike]] = None,
         plot: Optional[PathLike] = None, overwrite: bool = False,
         strategy: Optional[str] = None, players: Optional[int] = None,
         progress: Progress = None) -> RankResult: ...
def solve(a: DieLike, b: DieLike, *, tolerance: float = 1e-12, max_sweeps: int = 100_000,
          max_memory: Union[int, str, None] = None, threads: Optional[int] = None,
          matrix_free: bool = False, f32: bool = False,
          one_value_at_a_time: bool = False, release_blocks: bool = False,
          track: Optional[int] = None,
          offset: Optional[int] = None, pieces: Optional[int] = None,
          goal_fields: Optional[int] = None, profile: Optional[str] = None,
          rules: Optional[Rules] = None, strategy_a: Optional[str] = None,
          strategy_b: Optional[str] = None, policy_out: Optional[PathLike] = None,
          force: bool = False, evaluate_pair: bool = False, no_mirror: bool = False,
          style: bool = False, progress: Progress = None) -> SolveResult: ...
def table(dice: Sequence[DieLike], *, games: Optional[int] = None,
          precision: Optional[float] = None, seed: int = 1, seating: str = "all",
          max_rolls: int = 100_000, threads: Optional[int] = None,
          track: Optional[int] = None, offset: Optional[int] = None,
          pieces: Optional[int] = None, goal_fields: Optional[int] = None,
          profile: Optional[str] = None, rules: Optional[Rules] = None,
          strategy: Union[str, Sequence[str], None] = None, style: bool = False,
          progress: Progress = None) -> TableResult: ...
def search(file: Optional[PathLike] = None, *, faces: Optional[int] = None,
           values: Union[str, Sequence[int], None] = None,
           error_probability: Optional[float] = None, epsilon: Optional[float] = None,
           max_games: Optional[int] = None, top: Optional[int] = None,
           design: Optional[str] = None, max_die_games: Optional[int] = None,
           seed: Optional[int] = None, max_rolls: Optional[int] = None,
           threads: Optional[int] = None, track: Optional[int] = None,
           offset: Optional[int] = None, pieces: Optional[int] = None,
           goal_fields: Optional[int] = None, profile: Optional[str] = None,
           rules: Optional[Rules] = None, strategy: Optional[str] = None,
           confirm: Optional[int] = None, tolerance: Optional[float] = None,
           max_memory: Union[int, str, None] = None, store: Optional[PathLike] = None,
           plot: Optional[PathLike] = None, overwrite: bool = False,
           progress: Progress = None) -> SearchResult: ...
def advise(a: DieLike, b: DieLike, position: str, face: int, *,
           track: Optional[int] = None, offset: Optional[int] = None,
           pieces: Optional[int] = None, goal_fields: Optional[int] = None,
           profile: Optional[str] = None, rules: Optional[Rules] = None,
           tolerance: Optional[float] = None, max_memory: Union[int, str, None] = None,
           strategy_a: Optional[str] = None, strategy_b: Optional[str] = None,
           rollouts: Optional[int] = None, seed: Optional[int] = None,
           max_rolls: Optional[int] = None, games: Optional[int] = None,
           variance_reduction: Optional[str] = None) -> AdviseResult: ...
def play(a: DieLike, b: DieLike, *more: DieLike, seed: int = 1, first: str = "a",
         max_rolls: Optional[int] = None, players: Optional[int] = None,
         track: Optional[int] = None, offset: Optional[int] = None,
         pieces: Optional[int] = None, goal_fields: Optional[int] = None,
         profile: Optional[str] = None, rules: Optional[Rules] = None,
         strategy: Optional[str] = None, strategy_a: Optional[str] = None,
         strategy_b: Optional[str] = None,
         strategy_c: Optional[str] = None, strategy_d: Optional[str] = None) -> PlayResult: ...
def wubbel(*, goal: Optional[int] = None, bust: Optional[int] = None, faces: DieLike = "1..6",
           tolerance: Optional[float] = None, query: Union[str, Sequence[int], None] = None,
           compare: bool = False, hold: Union[str, Sequence[int], None] = None,
           simulate: Optional[int] = None, seed: Optional[int] = None,
           plot: Optional[PathLike] = None, overwrite: bool = False) -> GameResult: ...
def pig(*, goal: Optional[int] = None, bust: Optional[int] = None, faces: DieLike = "1..6",
        tolerance: Optional[float] = None, query: Union[str, Sequence[int], None] = None,
        compare: bool = False, hold: Union[str, Sequence[int], None] = None,
        simulate: Optional[int] = None, seed: Optional[int] = None,
        plot: Optional[PathLike] = None, overwrite: bool = False) -> GameResult: ...
class TrainResult(Result): ...

def train(out: PathLike, *, overwrite: bool = False, games: Optional[int] = None,
          seed: Optional[int] = None, hidden: Optional[int] = None,
          rate: Optional[str] = None, lambda_: Optional[float] = None,
          die: Optional[DieLike] = None, max_rolls: Optional[int] = None,
          track: Optional[int] = None, offset: Optional[int] = None,
          pieces: Optional[int] = None, goal_fields: Optional[int] = None,
          profile: Optional[str] = None, players: Optional[int] = None,
          targets: Optional[str] = None, exact_tolerance: Optional[float] = None,
          explore: Optional[float] = None, positions: Optional[str] = None,
          threads: Optional[int] = None, max_memory: Union[int, str, None] = None,
          rules: Optional[Rules] = None, progress: Progress = None) -> TrainResult: ...

def converge(a: DieLike, b: DieLike, *, reps: Optional[int] = None,
             min_games: Optional[int] = None, max_games: Optional[int] = None,
             points_per_decade: Optional[int] = None, stopping: bool = False,
             stopping_rules: Union[str, Sequence[str], None] = None,
             precision: Optional[float] = None, look_every: Optional[int] = None,
             seed: Optional[int] = None, max_rolls: Optional[int] = None,
             threads: Optional[int] = None, track: Optional[int] = None,
             offset: Optional[int] = None, pieces: Optional[int] = None,
             goal_fields: Optional[int] = None, profile: Optional[str] = None,
             plot: Optional[PathLike] = None, overwrite: bool = False,
             progress: Progress = None) -> ConvergeResult: ...
