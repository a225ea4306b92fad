"""Which die wins "Mensch ärgere Dich nicht"? Python bindings of the Rust library
``wuerfelglueck`` (BwInf 40, task 4 "Würfelglück").

Every function does what the command of the same name does, with the same options as
keyword arguments (``--goal-fields`` is ``goal_fields``), the same defaults, the same results
(``to_dict()`` has exactly the field names of the command's ``--format json``) and the same
error messages (a ``ValueError`` for bad input, a ``RuntimeError`` for a failure while
running). The Rust library does all the work; this module only names the options.

The board is given by ``track``, ``offset``, ``pieces``, ``goal_fields`` and ``profile``
(the BwInf board 40/20/4/4 and profile ``"bwinf"`` when left at ``None``), or all at once by
``rules=`` (a :class:`Rules`), not both: ``rules=`` with any board option is a ``ValueError``.
An integer option must be a Python ``int`` in the range of the library's type (``games`` in
``0..=2**64-1``, ``track`` in ``0..=2**32-1``, ...): outside it, ``ValueError`` naming the
argument and the range; a non-integer is a ``TypeError``.

Ctrl-C (``SIGINT``) during a long call raises ``KeyboardInterrupt`` within about 0.1 s
through Python's own SIGINT handler: the call polls ``signal``'s handler while it waits. A
process whose SIGINT is ignored (a program started in the background of a
non-interactive shell, ``cmd &`` in a script, inherits SIGINT ignored, and Python then
installs no handler) or whose handler does not raise cannot be stopped that way; the
package keeps that choice and does not install a handler of its own.

Dice are written as in the CLI (``"1..6"``, ``"1,1,1,6,6,6"``), as lists of faces, or as
:class:`Die` values. Long calls release the GIL, can be stopped with Ctrl-C, and report
progress to an optional ``progress(games_played, message)`` callback (called about every
0.1 s on the calling thread when something changed). After Ctrl-C the work stops at its
next checkpoint (a chunk of games, the start of a pair, the next sweep of an exact solve; a
solve cut off is not stored), and a store record is only ever written whole (a ``.partial``
file renamed into place).

The functions: :func:`duel`, :func:`rank`, :func:`solve`, :func:`table` (2 to 4 dice at
one table), :func:`search` (the best die of a family), :func:`advise` (every legal move of a
roll under ``profile="choice"``), :func:`play` (one game, roll by roll, as data),
:func:`wubbel`, :func:`pig` and :func:`converge`. Strategies (``strategy``, ``strategy_a``,
``strategy_b``: ``"frontmost"``, ``"rearmost"``, ``"capture"``, ``"safe"``, ``"random"``)
are taken wherever the command takes them; anything but ``"frontmost"`` needs a profile
with ``choice``.

Quick start::

    import wuerfelglueck as wg
    wg.duel("1..6", "1,1,1,6,6,6", games=20_000).p_a
    wg.rank("data/wuerfel0.txt", precision=0.01).to_pandas()
    wg.solve("1..6", "1..6", pieces=2).to_dict()["p_a"]

Distributed rankings on a Dask cluster: :mod:`wuerfelglueck.distributed`.
"""

from __future__ import annotations

import copy
import io
import json
import numbers
import operator
import os
from typing import Any, Callable, Optional, Sequence, Union

from . import _native

__all__ = [
    "Die",
    "Board",
    "Rules",
    "Result",
    "DuelResult",
    "RankResult",
    "SolveResult",
    "GameResult",
    "ConvergeResult",
    "TableResult",
    "SearchResult",
    "AdviseResult",
    "PlayResult",
    "duel",
    "rank",
    "solve",
    "table",
    "search",
    "advise",
    "play",
    "wubbel",
    "pig",
    "converge",
]

__version__ = "0.1.0"


class Die:
    """A die: a non-empty list of faces, each equally likely.

    ``Die("1..6")``, ``Die("1,1,1,6,6,6")`` or ``Die([1, 2, 3, 4, 5, 6])``; bad input raises
    ``ValueError`` with the library's message. ``str(die)`` is the CLI's notation.
    """

    __slots__ = ("faces", "_text")

    def __init__(self, faces: Union[str, Sequence[int], "Die"]):
        if isinstance(faces, Die):
            faces = faces.faces
        self.faces, self._text = _native.die(_die(faces, "die"))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Die({self._text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Die) and self.faces == other.faces

    def __hash__(self) -> int:
        return hash(tuple(self.faces))


class Board:
    """The board: ``track`` fields, player 2's start ``offset`` (half the track when not
    given), ``pieces`` per player and ``goal_fields`` per player (the BwInf board by
    default). Checked by :class:`Rules`."""

    __slots__ = ("track", "offset", "pieces", "goal_fields")

    def __init__(self, track: int = 40, offset: Optional[int] = None, pieces: int = 4,
                 goal_fields: int = 4):
        if offset is None and isinstance(track, numbers.Integral) and not isinstance(track, bool):
            offset = operator.index(track) // 2
        self.track, self.offset, self.pieces, self.goal_fields = track, offset, pieces, goal_fields
        Rules(self)  # the library's check, with its message

    def __str__(self) -> str:
        return f"{self.track}/{self.offset}/{self.pieces}/{self.goal_fields}"

    def __repr__(self) -> str:
        return (f"Board(track={self.track}, offset={self.offset}, pieces={self.pieces}, "
                f"goal_fields={self.goal_fields})")


class Rules:
    """A board and a rule profile (``"bwinf"``, optionally with switches joined by ``+``:
    ``goal-last``, ``no-jump-in-goal``, ``three-tries``, ``roll-off``). Pass it to any
    function as ``rules=``; bad values raise ``ValueError`` with the CLI's message."""

    __slots__ = ("board", "profile", "_names")

    def __init__(self, board: Optional[Board] = None, profile: str = "bwinf"):
        if board is None:
            board = Board.__new__(Board)
            board.track, board.offset, board.pieces, board.goal_fields = 40, 20, 4, 4
        self.board, self.profile = board, profile
        self._names = _native.rules(_options(_board_options(board), profile=profile))

    def __repr__(self) -> str:
        return f"Rules({self.board!r}, profile={self._names[1]!r})"


class Result:
    """A command's results. The fields of the command's JSON are attributes (``r.p_a``);
    ``to_dict()`` is that JSON as a dict, ``str(r)`` the command's table (where it has one),
    ``to_pandas()`` its CSV as a data frame (where it is tabular)."""

    def __init__(self, data: dict, table: str = "", csv: Optional[str] = None):
        self._data, self._table, self._csv = data, table, csv

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["_data"][name]
        except KeyError:
            raise AttributeError(f"{type(self).__name__} has no field {name!r}") from None

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._data))

    def to_dict(self) -> dict:
        """The results with exactly the field names of the command's ``--format json``."""
        return copy.deepcopy(self._data)

    def to_json(self) -> str:
        """The results as JSON text."""
        return json.dumps(self._data)

    def to_pandas(self):
        """The command's ``--format csv`` output as a ``pandas.DataFrame``."""
        import pandas as pd

        if self._csv is None:
            raise TypeError(f"{type(self).__name__} has no tabular form")
        return pd.read_csv(io.StringIO(self._csv), keep_default_na=False, na_values=[""])

    def __str__(self) -> str:
        return self._table or json.dumps(self._data, indent=2)

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in list(self._data.items())[:4])
        return f"{type(self).__name__}({shown}, ...)"


class DuelResult(Result):
    """The result of :func:`duel` (fields as in ``duel --format json``)."""


class RankResult(Result):
    """The result of :func:`rank` (fields as in ``rank --format json``); ``to_pandas()`` has
    one row per ordered pair (``rank --format csv``)."""


class SolveResult(Result):
    """The result of :func:`solve` (fields as in ``solve --format json``)."""


class GameResult(Result):
    """The result of :func:`wubbel` or :func:`pig` (fields as in ``wubbel --format json``)."""


class ConvergeResult(Result):
    """The result of :func:`converge` (fields as in ``converge --format json``);
    ``to_pandas()`` is the table of grid points (or of stopping rules)."""

    def to_pandas(self):
        import pandas as pd

        for field in ("points", "rules"):
            rows = self._data.get(field)
            if isinstance(rows, list) and rows and isinstance(rows[0], dict):
                return pd.DataFrame(rows)
        raise TypeError("this converge result has no table of points or rules")


class TableResult(Result):
    """The result of :func:`table` (fields as in ``table --format json``); ``to_pandas()``
    has one row per die (``table --format csv``)."""


class SearchResult(Result):
    """The result of :func:`search` (fields as in ``search --format json``); ``to_pandas()``
    has one row per die of the family (the columns of ``search --format csv``)."""

    def to_pandas(self):
        import pandas as pd

        best = set(self._data["best_mean"].get("candidates") or [])
        maximin = set(self._data["maximin"].get("candidates") or [])
        rows = [dict(d, best_mean_candidate=d["die"] in best,
                     maximin_candidate=d["die"] in maximin) for d in self._data["dice"]]
        return pd.DataFrame(rows)

    def __str__(self) -> str:
        d = self._data
        best = d["best_mean"]
        return (f"{d['family_description']}: best mean {best['die']} "
                f"(P(win) {best['mean_p']:.4f}, {best['status']}), maximin "
                f"{d['maximin']['die']} ({d['maximin']['status']}), Condorcet "
                f"{d['condorcet']} ({d['condorcet_status']}); {d['games']} games")


class AdviseResult(Result):
    """The result of :func:`advise` (fields as in ``advise --format json``); ``to_pandas()``
    has one row per legal move (the columns of ``advise --format csv``)."""

    def to_pandas(self):
        import pandas as pd

        return pd.DataFrame(
            [dict(**{k: m[k] for k in ("from", "to", "value")}, lo=m["interval"][0],
                  hi=m["interval"][1], best=m["best"], method=self._data["method"])
             for m in self._data["moves"]],
            columns=["from", "to", "value", "lo", "hi", "best", "method"])

    def __str__(self) -> str:
        d = self._data
        lines = [f"Position {d['position']}: {d['mover']} to move, rolled {d['face']} "
                 f"(rules {d['profile']} on board {d['board']}, {d['method']})"]
        for m in d["moves"]:
            lines.append(f"  {m['from']:>3} -> {m['to']:<3} {m['value']:+.6f}"
                         + ("  best" if m["best"] else ""))
        return "\n".join(lines)


class PlayResult(Result):
    """The result of :func:`play`: the game as data (fields as in ``play --format json``:
    ``dice``, ``board``, ``profile``, ``seed``, ``first``, ``strategies``, ``start``,
    ``turns``, ``end``, ``winner``). ``str(r)`` is the narration ``play`` prints;
    ``to_pandas()`` has one row per roll."""

    def to_pandas(self):
        import pandas as pd

        rows = []
        for t in self._data["turns"]:
            move, captured = t["move"], t["captured"]
            row = dict(roll=t["roll"], player=t["player"], face=t["face"],
                       move_from=move and move["from"], move_to=move and move["to"],
                       rule=t["rule"], choices=" ".join(t["choices"]),
                       captured_player=captured and captured["player"],
                       captured_field=captured and captured["field"],
                       rolls_again=t["rolls_again"], winner=t["winner"])
            row.update({f"pieces_{k}": v for k, v in t["pieces"].items()})
            rows.append(row)
        return pd.DataFrame(rows)


Progress = Optional[Callable[[int, str], Any]]
DieLike = Union[str, Sequence[int], Die]

# Every option the native module takes, with the CLI's defaults (`solve` and `rank` differ
# only in the tolerance, set by each function).
_DEFAULTS = dict(
    games=None, precision=None, seed=1, max_rolls=100_000, threads=None,
    track=40, offset=None, pieces=4, goal_fields=4, profile="bwinf",
    tolerance=1e-9, max_sweeps=100_000, max_memory=None, store=None,
    matrix_free=False, f32=False, plot=None, overwrite=False,
    strategy=None, strategy_a=None, strategy_b=None,
)

# The board options: given one by one, or all at once by ``rules=`` (never both).
_BOARD = ("track", "offset", "pieces", "goal_fields", "profile")

_U32 = 2**32 - 1
_U64 = 2**64 - 1
# The integer options and the range of the library's type for each (``--track`` is a u32,
# ``--games`` a u64, ...). Only the type's range is checked here, so that a Python integer of
# any size gets a message naming its argument; what a value means (``games`` even, at least
# one thread, a board that fits) the library checks, with the CLI's messages.
_INTEGERS = dict(
    games=_U64, seed=_U64, max_rolls=_U64, threads=_U64, max_sweeps=_U64,
    track=_U32, offset=_U32, pieces=_U32, goal_fields=_U32,
)


def _integer(name: str, value, top: int) -> int:
    """``value`` as an int in ``0..=top``, or a ``TypeError``/``ValueError`` naming ``name``."""
    expected = f"{name} must be an integer in 0..={top}"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{expected}, not {type(value).__name__} {value!r}")
    value = operator.index(value)
    if not 0 <= value <= top:
        raise ValueError(f"{expected}, got {value}")
    return value


def _board_options(board: Board) -> dict:
    return dict(track=board.track, offset=board.offset, pieces=board.pieces,
                goal_fields=board.goal_fields)


def _options(base: Optional[dict] = None, rules: Optional[Rules] = None, **given) -> dict:
    """The native module's option dict: the defaults, then ``base``, then the options
    ``given`` (``None`` is "not given" for the board options), then the board of ``rules``,
    which may not be given together with a board option."""
    if rules is not None:
        if not isinstance(rules, Rules):
            raise ValueError(
                f"rules must be None or a wuerfelglueck.Rules, e.g. "
                f"Rules(Board(20, 10, 2, 2), 'bwinf+goal-last'); got {type(rules).__name__} "
                f"{rules!r} (a rule profile alone goes to profile=)")
        clash = [name for name in _BOARD if given.get(name) is not None]
        if clash:
            raise ValueError(
                f"rules= and {clash[0]}= both given: rules= sets the whole board and profile, "
                f"so give either rules= or {', '.join(n + '=' for n in _BOARD)}, not both")
    opts = dict(_DEFAULTS)
    opts.update(base or {})
    opts.update({k: v for k, v in given.items() if not (k in _BOARD and v is None)})
    if rules is not None:
        opts.update(_board_options(rules.board), profile=rules.profile)
    for name, top in _INTEGERS.items():
        if opts[name] is not None or name not in ("games", "threads", "offset"):
            opts[name] = _integer(name, opts[name], top)
    if opts["max_memory"] is not None:
        opts["max_memory"] = str(opts["max_memory"])
    for path in ("store", "plot"):
        if opts[path] is not None:
            opts[path] = os.fspath(opts[path])
    return opts


def _die(d: DieLike, option: str):
    """A die for the native module: its text, or its faces checked to fit the library's
    type (the library's message, naming the CLI option, e.g. ``--a``)."""
    if isinstance(d, Die):
        return list(d.faces)
    if isinstance(d, str):
        return d
    faces = []
    for f in d:
        if isinstance(f, bool) or not isinstance(f, numbers.Integral):
            raise TypeError(f"{option}: face {f!r} is not a whole number from 0 to {_U32}")
        f = operator.index(f)
        if not 0 <= f <= _U32:
            raise ValueError(f"{option}: face {f} is not a whole number from 0 to {_U32}")
        faces.append(f)
    return faces


def _dice(dice) -> Union[str, list]:
    """A dice file (a path) or a list of dice."""
    if isinstance(dice, (str, os.PathLike)):
        return os.fspath(dice)
    return [_die(d, "--die") for d in dice]


def _result(cls, native) -> Result:
    text, table, csv = native
    return cls(json.loads(text), table, csv)


def duel(a: DieLike, b: DieLike, *, games: Optional[int] = None,
         precision: Optional[float] = None, seed: int = 1, max_rolls: int = 100_000,
         threads: Optional[int] = None, track: Optional[int] = None,
         offset: Optional[int] = None, pieces: Optional[int] = None,
         goal_fields: Optional[int] = None, profile: Optional[str] = None,
         rules: Optional[Rules] = None, strategy: Optional[str] = None,
         strategy_a: Optional[str] = None, strategy_b: Optional[str] = None,
         progress: Progress = None) -> DuelResult:
    """Die ``a`` against die ``b``, simulated, each starting half the games (``duel``).

    ``games`` (even) or ``precision`` (the 95 % half-width to reach; 0.002 when neither is
    given). The same seed gives the same counts as ``wuerfelglueck duel`` on any number of
    threads. ``strategy`` (both players), ``strategy_a``, ``strategy_b``: how the players
    pick their moves under a ``choice`` profile (default ``"frontmost"``).
    """
    opts = _options(games=games, precision=precision, seed=seed, max_rolls=max_rolls,
                    threads=threads, track=track, offset=offset, pieces=pieces,
                    goal_fields=goal_fields, profile=profile, rules=rules,
                    strategy=strategy, strategy_a=strategy_a, strategy_b=strategy_b)
    return _result(DuelResult, _native.duel(_die(a, "--a"), _die(b, "--b"), opts, progress))


def rank(dice, *, exact: bool = False, games: Optional[int] = None,
         precision: Optional[float] = None, seed: int = 1, max_rolls: int = 100_000,
         threads: Optional[int] = None, track: Optional[int] = None,
         offset: Optional[int] = None, pieces: Optional[int] = None,
         goal_fields: Optional[int] = None, profile: Optional[str] = None,
         rules: Optional[Rules] = None,
         tolerance: float = 1e-9, max_memory: Union[int, str, None] = None,
         store: Union[str, os.PathLike, None] = None, plot: Union[str, os.PathLike, None] = None,
         overwrite: bool = False, strategy: Optional[str] = None,
         progress: Progress = None) -> RankResult:
    """Every pair of ``dice`` (a BwInf dice file, or a list of dice): the matrix, the
    ranking, undecided pairs and cycles (``rank``).

    ``exact=True`` solves the pairs exactly where they fit in ``max_memory`` (bytes, or e.g.
    ``"16GiB"``; default 80 % of the RAM) to ``tolerance``; ``store`` keeps each solved pair
    in a directory, so an interrupted ranking resumes. ``plot`` draws the matrix as an SVG
    heat map (an existing file is replaced only with ``overwrite=True``). ``strategy``: the
    strategy every die plays in a simulated ranking under a ``choice`` profile (refused with
    ``exact=True``, which solves optimal play). For a cluster see
    :func:`wuerfelglueck.distributed.rank`.
    """
    opts = _options(games=games, precision=precision, seed=seed, max_rolls=max_rolls,
                    threads=threads, track=track, offset=offset, pieces=pieces,
                    goal_fields=goal_fields, profile=profile, rules=rules,
                    tolerance=tolerance, max_memory=max_memory, store=store, plot=plot,
                    overwrite=overwrite, strategy=strategy)
    _exact_only(exact, tolerance=tolerance != 1e-9, max_memory=max_memory, store=store)
    return _result(RankResult, _native.rank(_dice(dice), exact, opts, progress))


def _exact_only(exact: bool, **given) -> None:
    """The CLI refuses the exact-only options without --exact; so does the package."""
    if not exact:
        for name, used in given.items():
            if used not in (None, False):
                # clap's words for the CLI's `requires = "exact"`.
                raise ValueError("the following required arguments were not provided: --exact")


def solve(a: DieLike, b: DieLike, *, tolerance: float = 1e-12, max_sweeps: int = 100_000,
          max_memory: Union[int, str, None] = None, threads: Optional[int] = None,
          matrix_free: bool = False, f32: bool = False, track: Optional[int] = None,
          offset: Optional[int] = None, pieces: Optional[int] = None,
          goal_fields: Optional[int] = None, profile: Optional[str] = None,
          rules: Optional[Rules] = None, strategy_a: Optional[str] = None,
          strategy_b: Optional[str] = None, progress: Progress = None) -> SolveResult:
    """Die ``a`` against die ``b``, solved exactly, with certified intervals (``solve``).

    Under a ``choice`` profile ``strategy_a`` and ``strategy_b`` say how each player plays:
    ``"optimal"`` (the default) or a strategy's name. A call with a strategy runs the CLI's
    own ``solve`` (it has no progress callback, and after Ctrl-C it finishes in the
    background); without one, Ctrl-C returns at once and the solve stops before its next
    sweep.
    """
    if strategy_a is not None or strategy_b is not None:
        argv = ["solve", "--a", _die_text(a, "--a"), "--b", _die_text(b, "--b")]
        argv += _argv(tolerance=tolerance, max_sweeps=max_sweeps, max_memory=max_memory,
                      threads=threads, matrix_free=matrix_free, f32=f32,
                      **_board(track, offset, pieces, goal_fields, profile, rules),
                      strategy_a=strategy_a, strategy_b=strategy_b)
        return SolveResult(json.loads(_native.cli(argv)))
    opts = _options(tolerance=tolerance, max_sweeps=max_sweeps, max_memory=max_memory,
                    threads=threads, matrix_free=matrix_free, f32=f32, track=track,
                    offset=offset, pieces=pieces, goal_fields=goal_fields, profile=profile,
                    rules=rules)
    return _result(SolveResult, _native.solve(_die(a, "--a"), _die(b, "--b"), opts, progress))


def _argv(**options) -> list:
    """Command-line options from keyword arguments; ``None`` and ``False`` are left out (the
    command's default), ``True`` is a switch, a list is comma-separated."""
    argv = []
    for name, value in options.items():
        if value is None or value is False:
            continue
        option = "--" + name.replace("_", "-")
        if value is True:
            argv.append(option)
        elif isinstance(value, (list, tuple)):
            argv += [option, ",".join(str(v) for v in value)]
        elif isinstance(value, Die):
            argv += [option, str(value)]
        else:
            argv += [option, str(value)]
    return argv


def _game(command: str, goal, bust, faces, tolerance, query, compare, hold, simulate, seed,
          plot, overwrite):
    if isinstance(faces, (list, tuple)):
        faces = ",".join(str(f) for f in faces)
    if isinstance(query, (list, tuple)):
        query = ",".join(str(q) for q in query)
    argv = [command] + _argv(goal=goal, bust=bust, faces=faces, tolerance=tolerance,
                             query=query, compare=compare, hold=hold, simulate=simulate,
                             seed=seed, plot=_path(plot), overwrite=overwrite)
    text = _native.cli(argv)
    return GameResult(json.loads(text))


def wubbel(*, goal: Optional[int] = None, bust: Optional[int] = None, faces: DieLike = "1..6",
           tolerance: Optional[float] = None, query=None, compare: bool = False,
           hold: Optional[Sequence[int]] = None, simulate: Optional[int] = None,
           seed: Optional[int] = None, plot: Union[str, os.PathLike, None] = None,
           overwrite: bool = False) -> GameResult:
    """Wubbel (goal 50, bust face 6): optimal play (``wubbel``); ``query=(e, g)`` adds the
    decisions at scores (e, g); ``compare=True`` evaluates optimal play against "hold at
    n" for each n in ``hold``, checked by ``simulate`` games; ``plot`` writes the decision
    map (SVG; an existing file is replaced only with ``overwrite=True``)."""
    return _game("wubbel", goal, bust, faces, tolerance, query, compare, hold, simulate, seed,
                 plot, overwrite)


def pig(*, goal: Optional[int] = None, bust: Optional[int] = None, faces: DieLike = "1..6",
        tolerance: Optional[float] = None, query=None, compare: bool = False,
        hold: Optional[Sequence[int]] = None, simulate: Optional[int] = None,
        seed: Optional[int] = None, plot: Union[str, os.PathLike, None] = None,
        overwrite: bool = False) -> GameResult:
    """Pig (goal 100, bust face 1): the same as :func:`wubbel` with Pig's defaults."""
    return _game("pig", goal, bust, faces, tolerance, query, compare, hold, simulate, seed,
                 plot, overwrite)


def converge(a: DieLike, b: DieLike, *, reps: Optional[int] = None,
             min_games: Optional[int] = None, max_games: Optional[int] = None,
             points_per_decade: Optional[int] = None, stopping: bool = False,
             stopping_rules: Optional[Sequence[str]] = None, precision: Optional[float] = None,
             look_every: Optional[int] = None, seed: Optional[int] = None,
             max_rolls: Optional[int] = None, threads: Optional[int] = None,
             track: Optional[int] = None, offset: Optional[int] = None,
             pieces: Optional[int] = None, goal_fields: Optional[int] = None,
             profile: Optional[str] = None, plot: Union[str, os.PathLike, None] = None,
             overwrite: bool = False) -> ConvergeResult:
    """The simulation against the exact solver (``converge``): error and interval coverage
    over a grid of game counts, or with ``stopping=True`` the stopping rules
    (``stopping_rules`` is the CLI's ``--rules``). Options left at ``None`` take the
    command's defaults (board 40/20/2/4); ``plot`` writes the command's SVG picture. Ctrl-C
    returns at once; the run finishes in the background."""
    argv = ["converge", "--a", str(Die(a)) if isinstance(a, Die) else _text(a),
            "--b", str(Die(b)) if isinstance(b, Die) else _text(b)]
    argv += _argv(reps=reps, min_games=min_games, max_games=max_games,
                  points_per_decade=points_per_decade, stopping=stopping,
                  rules=stopping_rules, precision=precision, look_every=look_every,
                  seed=seed, max_rolls=max_rolls, threads=threads, track=track,
                  offset=offset, pieces=pieces, goal_fields=goal_fields, profile=profile,
                  plot=_path(plot), overwrite=overwrite)
    text = _native.cli(argv)
    return ConvergeResult(json.loads(text))


def _path(p) -> Optional[str]:
    return None if p is None else os.fspath(p)


def _text(d: DieLike) -> str:
    return d if isinstance(d, str) else ",".join(str(f) for f in d)


def _die_text(d: DieLike, option: str) -> str:
    """A die in the CLI's notation, for a command line."""
    if isinstance(d, Die):
        return str(d)
    d = _die(d, option)
    return d if isinstance(d, str) else ",".join(str(f) for f in d)


def _board(track, offset, pieces, goal_fields, profile, rules) -> dict:
    """The board options for a command line: as given, or those of ``rules`` (not both)."""
    given = dict(track=track, offset=offset, pieces=pieces, goal_fields=goal_fields,
                 profile=profile)
    if rules is None:
        return given
    _options(rules=rules, **given)  # refuses rules= with a board option, or a non-Rules
    return dict(_board_options(rules.board), profile=rules.profile)


def table(dice: Sequence[DieLike], *, games: Optional[int] = None,
          precision: Optional[float] = None, seed: int = 1, seating: str = "all",
          max_rolls: int = 100_000, threads: Optional[int] = None,
          track: Optional[int] = None, offset: Optional[int] = None,
          pieces: Optional[int] = None, goal_fields: Optional[int] = None,
          profile: Optional[str] = None, rules: Optional[Rules] = None,
          progress: Progress = None) -> TableResult:
    """2 to 4 ``dice`` at one table of as many players (``table``): P(win) of each die.

    ``seating="all"`` plays every assignment of the dice to the seats equally often (then
    ``games`` must be a multiple of the number of seatings, N!); ``"fixed"`` seats the dice
    in the order given (the first moves first). ``games`` or ``precision`` as in
    :func:`duel`. With 3 or 4 players seat s starts at s * track / 4.
    """
    if isinstance(dice, (str, Die)):
        raise TypeError("dice must be a list of 2 to 4 dice, e.g. ['1..6', '2..7', '1..4']")
    opts = _options(games=games, precision=precision, seed=seed, max_rolls=max_rolls,
                    threads=threads, track=track, offset=offset, pieces=pieces,
                    goal_fields=goal_fields, profile=profile, rules=rules)
    if not isinstance(seating, str):
        raise TypeError(f"seating must be 'all' or 'fixed', not {seating!r}")
    return _result(TableResult,
                   _native.table([_die(d, "--die") for d in dice], seating, opts, progress))


def search(file: Union[str, os.PathLike, None] = None, *, faces: Optional[int] = None,
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
           max_memory: Union[int, str, None] = None,
           store: Union[str, os.PathLike, None] = None,
           plot: Union[str, os.PathLike, None] = None, overwrite: bool = False) -> SearchResult:
    """The best die of a family (``search``): the dice of ``file`` (a dice file), or every
    die with ``faces`` faces drawn from ``values`` (``"1..6"``, or ``(1, 6)``).

    Answers, each with probability at least 1 - ``error_probability``: the best mean
    P(win), the Condorcet winner, the maximin die and cycles among the ``top`` dice; games
    go to the pairs still undecided (``design``: ``"racing"``, ``"round-robin"`` or
    ``"screening"``), at most ``max_games`` per pair; ``confirm`` dice are solved exactly
    pair by pair. ``store`` keeps the search in a directory so that it resumes. Options left
    at ``None`` take the command's defaults. Runs the CLI's own ``search`` (no progress
    callback; after Ctrl-C it finishes in the background).
    """
    if isinstance(values, (list, tuple)):
        if len(values) != 2:
            raise ValueError(f"values must be 'A..B' or (A, B), got {values!r}")
        values = f"{values[0]}..{values[1]}"
    argv = ["search"] + ([] if file is None else [os.fspath(file)])
    argv += _argv(faces=faces, values=values, error_probability=error_probability,
                  epsilon=epsilon, max_games=max_games, top=top, design=design,
                  max_die_games=max_die_games, seed=seed, max_rolls=max_rolls,
                  threads=threads, **_board(track, offset, pieces, goal_fields, profile, rules),
                  strategy=strategy, confirm=confirm, tolerance=tolerance,
                  max_memory=max_memory, store=_path(store), plot=_path(plot),
                  overwrite=overwrite)
    return SearchResult(json.loads(_native.cli(argv)))


def advise(a: DieLike, b: DieLike, position: str, face: int, *,
           track: Optional[int] = None, offset: Optional[int] = None,
           pieces: Optional[int] = None, goal_fields: Optional[int] = None,
           profile: Optional[str] = None, rules: Optional[Rules] = None,
           tolerance: Optional[float] = None, max_memory: Union[int, str, None] = None,
           strategy_a: Optional[str] = None, strategy_b: Optional[str] = None,
           games: Optional[int] = None, seed: Optional[int] = None,
           max_rolls: Optional[int] = None) -> AdviseResult:
    """Every legal move of roll ``face`` in ``position`` (e.g. ``"A:0,17,c B:A,5 turn:A"``)
    with its value (``advise``): solved exactly where it fits in ``max_memory``, else
    simulated (``games`` per move, the players then playing ``strategy_a`` and
    ``strategy_b``). The profile defaults to ``"choice"``, as the command's; a profile
    without ``choice`` is refused. Runs the CLI's own ``advise``.
    """
    argv = ["advise", "--a", _die_text(a, "--a"), "--b", _die_text(b, "--b"),
            "--position", str(position), "--face", str(face)]
    argv += _argv(**_board(track, offset, pieces, goal_fields, profile, rules),
                  tolerance=tolerance, max_memory=max_memory, strategy_a=strategy_a,
                  strategy_b=strategy_b, games=games, seed=seed, max_rolls=max_rolls)
    return AdviseResult(json.loads(_native.cli(argv)))


def play(a: DieLike, b: DieLike, *more: DieLike, seed: int = 1, first: str = "a",
         max_rolls: Optional[int] = None, players: Optional[int] = None,
         track: Optional[int] = None, offset: Optional[int] = None,
         pieces: Optional[int] = None, goal_fields: Optional[int] = None,
         profile: Optional[str] = None, rules: Optional[Rules] = None,
         strategy: Optional[str] = None, strategy_a: Optional[str] = None,
         strategy_b: Optional[str] = None) -> PlayResult:
    """One game, roll by roll (``play``), returned as data: ``to_dict()["turns"]`` has one
    entry per roll (``roll``, ``player``, ``face``, ``move`` ``{from, to}`` or ``None``,
    ``rule``, ``choices``, ``captured``, ``rolls_again``, ``winner``, ``pieces``);
    ``str(result)`` is the narration the command prints.

    ``first`` (``"a"`` or ``"b"``) starts; dice after ``b`` (``more``) sit at seats C and D
    of a table of 3 or 4 (``players`` defaults to their count), where seat A moves first.
    """
    argv = ["play", "--a", _die_text(a, "--a"), "--b", _die_text(b, "--b")]
    for d in more:
        argv += ["--die", _die_text(d, "--die")]
    if players is None and more:
        players = 2 + len(more)
    argv += _argv(seed=seed, first=first, max_rolls=max_rolls, players=players,
                  **_board(track, offset, pieces, goal_fields, profile, rules),
                  strategy=strategy, strategy_a=strategy_a, strategy_b=strategy_b)
    data = json.loads(_native.cli(argv))
    # The same game again (the same seed), as the narration: one game is quick.
    return PlayResult(data, _native.cli(argv, "table"))
