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
Every argument is checked against the function's signature before anything runs: a value
of another type (``bytes`` or a ``dict`` for a die, ``None`` where the signature has no
``Optional``, a ``str`` for a number) is a ``TypeError`` naming the argument and the types
allowed. An integer option must be in the range of the library's type (``games`` in
``0..=2**64-1``, ``track`` in ``0..=2**32-1``, ...), a float finite and a list not empty:
otherwise a ``ValueError`` naming the argument.

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
next checkpoint, within a fraction of a second (before a chunk of games, or a pair of games
where games are slow; the start of a pair; the next sweep of an exact solve, or the next pass
of its search; a solve cut off is not stored), and a store record is only ever written whole
(a ``.partial`` file renamed into place).

The functions: :func:`duel`, :func:`rank`, :func:`solve`, :func:`table` (2 to 4 dice at
one table), :func:`search` (the best die of a family), :func:`advise` (every legal move of a
roll under ``profile="choice"``), :func:`play` (one game, roll by roll, as data),
:func:`wubbel`, :func:`pig` and :func:`converge`. Strategies (``strategy``, ``strategy_a``,
``strategy_b``: ``"frontmost"``, ``"rearmost"``, ``"capture"``, ``"safe"``, ``"random"``,
the learned players ``"strong"`` and ``"strong-search"`` (``"strong-search-2"``,
``"strong-search-3"``: more rolls of look-ahead) on the boards they were trained for, ``"strong:FILE"`` for a player file written by :func:`train`) are taken wherever the
command takes them; anything but ``"frontmost"`` needs a profile
with ``choice``.

Quick start::

    import wuerfelglueck as wg
    wg.duel("1..6", "1,1,1,6,6,6", games=20_000).p_a
    wg.rank("data/wuerfel0.txt", precision=0.01).to_pandas()
    wg.solve("1..6", "1..6", pieces=2).to_dict()["p_a"]

Distributed rankings on a Dask cluster: :mod:`wuerfelglueck.distributed`.
"""

from __future__ import annotations

import collections.abc
import copy
import functools
import inspect
import io
import json
import math
import numbers
import operator
import os
import typing
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
    "train",
    "TrainResult",
]

__version__ = "0.2.0"


# ---------------------------------------------------------------------------------------
# Every argument of every public function is checked against the function's annotation
# before anything runs (``_checked``): a value of another type is a ``TypeError`` that names
# the argument and the types allowed; ``None`` is allowed exactly where the annotation says
# ``Optional``; a float must be finite, a sequence non-empty, an integer within the range of
# the library's type (``ValueError``, naming the argument). What a value means (a die's
# notation, ``games`` even, a board that fits) the library checks, with the CLI's messages.

_NOT_SEQUENCES = (str, bytes, bytearray, memoryview, collections.abc.Mapping,
                  collections.abc.Set)

# What some arguments look like, added to their message.
_EXAMPLES = {
    "position": "a position such as 'A:3,10 B:A,5 turn:A'",
    "rules": "e.g. Rules(Board(20, 10, 2, 2), 'bwinf+goal-last'); a rule profile alone "
             "goes to profile=",
}


def _is_sequence(value) -> bool:
    """A list-like value: a ``Sequence`` (a list, a tuple, a range) or a one-dimensional
    array, but not text, bytes, a mapping or a set."""
    if isinstance(value, _NOT_SEQUENCES):
        return False
    return isinstance(value, collections.abc.Sequence) or (
        getattr(value, "ndim", None) == 1 and hasattr(value, "__len__")
        and hasattr(value, "__getitem__"))


def _accepts(value, hint) -> bool:
    """Whether ``value`` is of the annotated type ``hint``."""
    if hint is Any:
        return True
    origin = typing.get_origin(hint)
    if origin is Union:
        return any(_accepts(value, h) for h in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, numbers.Real) and not isinstance(value, bool)
    if origin is collections.abc.Sequence:
        (item,) = typing.get_args(hint)
        return _is_sequence(value) and all(_accepts(v, item) for v in value)
    if origin is collections.abc.Callable:
        return callable(value)
    return isinstance(value, origin or hint)


def _members(hint) -> tuple:
    """The types of a ``Union`` (``Optional``), or ``hint`` alone."""
    return typing.get_args(hint) if typing.get_origin(hint) is Union else (hint,)


def _kinds(name: str, hint) -> list:
    """The types ``hint`` allows, in words (``"a str"``, ``"a sequence of int"``)."""
    members = _members(hint)
    if len(members) > 1:
        kinds = []
        for h in members:
            if h is str and os.PathLike in members:
                kinds.append("a path (str or os.PathLike)")
            elif not (h is os.PathLike and str in members):
                kinds += _kinds(name, h)
        return kinds
    if hint is type(None):
        return ["None"]
    if hint is bool:
        return ["True or False"]
    if hint is int:
        top = _INTEGERS.get(name)
        return [f"an integer in 0..={top}" if top is not None else "an int"]
    if hint is float:
        return ["a finite number (int or float)"]
    if hint is str:
        return ["a str"]
    origin = typing.get_origin(hint)
    if origin is collections.abc.Sequence:
        (item,) = typing.get_args(hint)
        if item == DieLike:
            return ["a sequence of dice"]
        return ["a sequence of " + " or ".join(k.split(" ", 1)[1] for k in _kinds(name, item))]
    if origin is collections.abc.Callable:
        return ["a callable"]
    return [f"an {hint.__name__}" if hint.__name__[0] in "AEIOU" else f"a {hint.__name__}"]


def _expected(name: str, hint) -> str:
    """What argument ``name`` of the annotated type ``hint`` may be, in words."""
    kinds = list(dict.fromkeys(_kinds(name, hint)))
    text = kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " or " + kinds[-1]
    members = _members(hint)
    if name in _EXAMPLES:
        text += f" ({_EXAMPLES[name]})"
    elif set(typing.get_args(DieLike)) <= set(members):
        text += " (a die such as '1..6', [1, 1, 1, 6, 6, 6] or Die('1..6'))"
    elif Sequence[DieLike] in members:
        text += " (dice such as ['1..6', '2..7'], each a str, a sequence of int or a Die)"
    return text


def _shown(value) -> str:
    """``value`` for a message: its type and a short ``repr``."""
    if value is None:
        return "None"
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{type(value).__name__} {text}"


def _check(name: str, value, hint) -> None:
    """Raises the ``TypeError`` or ``ValueError`` of argument ``name`` if ``value`` is not
    an allowed value of the annotated type ``hint``."""
    if not _accepts(value, hint):
        detail = ""
        sequences = [typing.get_args(h)[0] for h in _members(hint)
                     if typing.get_origin(h) is collections.abc.Sequence]
        if sequences and _is_sequence(value):
            bad = next((i, v) for i, v in enumerate(value)
                       if not any(_accepts(v, item) for item in sequences))
            detail = f" (item {bad[0]} is {_shown(bad[1])})"
        raise TypeError(f"{name} must be {_expected(name, hint)}, not {_shown(value)}{detail}")
    if isinstance(value, numbers.Real) and not isinstance(value, numbers.Integral) \
            and not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) \
            and name in _INTEGERS:
        _integer(name, value, _INTEGERS[name])
    if _is_sequence(value) and len(value) == 0:
        raise ValueError(f"{name} must not be empty: expected {_expected(name, hint)}")


def _checked(function):
    """``function`` with every argument checked against its annotation (``_check``) before
    it runs; the signature stays the function's own."""
    signature = inspect.signature(function)
    hints = {}

    @functools.wraps(function)
    def checked(*args, **kwargs):
        if not hints:
            hints.update(typing.get_type_hints(function))
        bound = signature.bind(*args, **kwargs)
        for name, value in bound.arguments.items():
            hint = hints.get(name, Any)
            if signature.parameters[name].kind is inspect.Parameter.VAR_POSITIONAL:
                for v in value:
                    _check(name, v, hint)
            else:
                _check(name, value, hint)
        return function(*args, **kwargs)

    return checked


class Die:
    """A die: a non-empty list of faces, each equally likely.

    ``Die("1..6")``, ``Die("1,1,1,6,6,6")`` or ``Die([1, 2, 3, 4, 5, 6])``; bad input raises
    ``ValueError`` with the library's message. ``str(die)`` is the CLI's notation.
    """

    __slots__ = ("faces", "_text")

    @_checked
    def __init__(self, faces: Union[str, Sequence[int], "Die"]):
        if isinstance(faces, Die):
            faces = faces.faces
        self.faces, self._text = _native.die(_die_text(faces, "die"))

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

    @_checked
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

    @_checked
    def __init__(self, board: Optional[Board] = None, profile: str = "bwinf"):
        if board is None:
            board = Board.__new__(Board)
            board.track, board.offset, board.pieces, board.goal_fields = 40, 20, 4, 4
        self.board, self.profile = board, profile
        self._names = _native.rules(json.dumps(_options(
            "rules", dict(_board_options(board), profile=profile))))

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

        # No interval with the method "evaluator": lo and hi are missing, as in the CSV.
        return pd.DataFrame(
            [dict(**{k: m[k] for k in ("from", "to", "value")},
                  lo=m["interval"][0] if m["interval"] else None,
                  hi=m["interval"][1] if m["interval"] else None,
                  strong=m.get("strong"), best=m["best"], method=self._data["method"])
             for m in self._data["moves"]],
            columns=["from", "to", "value", "lo", "hi", "strong", "best", "method"])

    def __str__(self) -> str:
        d = self._data
        lines = [f"Position {d['position']}: {d['mover']} to move, rolled {d['face']} "
                 f"(rules {d['profile']} on board {d['board']}, {d['method']})"]
        for m in d["moves"]:
            lines.append(f"  {m['from']:>3} -> {m['to']:<3} {m['value']:+.6f}"
                         + ("  best" if m["best"] else ""))
        if d.get("undecided"):
            lines.append("  no move is best beyond doubt: " + ", ".join(d["undecided"]))
        return "\n".join(lines)


class TrainResult(Result):
    """The result of :func:`train` (fields as in ``train --format json``: ``board``,
    ``profile``, ``players``, ``file``, ``checksum``, ``targets``, ``games``, ``seed``,
    ``hidden``, ``counts``, ``seconds``)."""


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

# The board options: given one by one, or all at once by ``rules=`` (never both).
_BOARD = ("track", "offset", "pieces", "goal_fields", "profile")

_U32 = 2**32 - 1
_U64 = 2**64 - 1
# The integer options and the range of the library's type for each (``--track`` is a u32,
# ``--games`` a u64, ...). Only the type's range is checked here, so that a Python integer of
# any size gets a message naming its argument; what a value means (``games`` even, at least
# one thread, a board that fits) the library checks, with the CLI's messages.
_INTEGERS = dict(
    games=_U64, seed=_U64, max_rolls=_U64, threads=_U64, max_sweeps=_U64, reps=_U64,
    min_games=_U64, max_games=_U64, points_per_decade=_U64, look_every=_U64, top=_U64,
    max_die_games=_U64, confirm=_U64, simulate=_U64, players=_U64, face=_U32, goal=_U32,
    bust=_U32, track=_U32, offset=_U32, pieces=_U32, goal_fields=_U32, rollouts=_U64,
    hidden=_U64,
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


_CLI_DEFAULTS = None


def _is_default(command: str, name: str, value) -> bool:
    """Whether ``value`` is the command's own default for option ``name`` (the library's,
    read from the command line's definition): such a value is left to the library."""
    global _CLI_DEFAULTS
    if _CLI_DEFAULTS is None:
        _CLI_DEFAULTS = _native.cli_defaults()
    default = _CLI_DEFAULTS.get(command, {}).get(name)
    if default is None or isinstance(value, bool):
        return False
    if isinstance(value, numbers.Real):
        try:
            return float(default) == value
        except ValueError:
            return False
    return str(value) == default


def _options(command: str, given: dict, rules: Optional[Rules] = None) -> dict:
    """The options of ``command`` for the library, by the command line's names: those
    ``given`` that are not ``None`` (nor ``False``, nor the command's own default), the board
    of ``rules`` (which may not be given together with a board option), integers checked
    against the range of the library's type, paths and sizes as text."""
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
        given = dict(given, **_board_options(rules.board), profile=rules.profile)
    options = {}
    for name, value in given.items():
        if value is None or value is False:
            continue
        if name == "max_memory":
            value = str(value)
        elif name in _INTEGERS:
            value = _integer(name, value, _INTEGERS[name])
        elif isinstance(value, numbers.Integral) and not isinstance(value, bool):
            value = operator.index(value)  # e.g. a NumPy integer, as JSON
        elif isinstance(value, numbers.Real) and not isinstance(value, bool):
            value = float(value)
        elif isinstance(value, os.PathLike):
            value = os.fspath(value)
        if _is_default(command, name, value):
            continue
        options[name] = value
    return options


def _run(command: str, cls, progress: Progress = None, board: Optional[Rules] = None,
         **given) -> Result:
    """Runs ``command`` in the library with the options ``given`` and the board and profile
    of ``board`` (a :class:`Rules`; see :func:`_options`)."""
    text, table, csv = _native.run(command, json.dumps(_options(command, given, board)),
                                   progress)
    return cls(json.loads(text), table, csv)


def _die_text(d: DieLike, option: str) -> str:
    """A die in the CLI's notation: its text, or its faces checked to fit the library's
    type (the library's message, naming the CLI option, e.g. ``--a``)."""
    if isinstance(d, Die):
        return str(d)
    if isinstance(d, str):
        return d
    faces = []
    for f in d:
        if isinstance(f, bool) or not isinstance(f, numbers.Integral):
            raise TypeError(f"{option}: face {f!r} is not a whole number from 0 to {_U32}")
        f = operator.index(f)
        if not 0 <= f <= _U32:
            raise ValueError(f"{option}: face {f} is not a whole number from 0 to {_U32}")
        faces.append(str(f))
    if not faces:
        return ""
    return ",".join(faces)


def _dice(dice) -> dict:
    """The dice of a ranking: a dice file (a path) or a list of dice, as ``rank`` takes them."""
    if isinstance(dice, (str, os.PathLike)):
        return dict(file=os.fspath(dice))
    if isinstance(dice, Die):
        raise TypeError("dice must be a dice file or a list of dice, not one Die")
    return dict(die=[_die_text(d, "--die") for d in dice])


@_checked
def duel(a: DieLike, b: DieLike, *, games: Optional[int] = None,
         precision: Optional[float] = None, seed: int = 1, max_rolls: int = 100_000,
         threads: Optional[int] = None, track: Optional[int] = None,
         offset: Optional[int] = None, pieces: Optional[int] = None,
         goal_fields: Optional[int] = None, profile: Optional[str] = None,
         rules: Optional[Rules] = None, strategy: Optional[str] = None,
         strategy_a: Optional[str] = None, strategy_b: Optional[str] = None,
         style: bool = False, progress: Progress = None) -> DuelResult:
    """Die ``a`` against die ``b``, simulated, each starting half the games (``duel``).

    ``games`` (even) or ``precision`` (the 95 % half-width to reach; 0.002 when neither is
    given). The same seed gives the same counts as ``wuerfelglueck duel`` on any number of
    threads. ``strategy`` (both players), ``strategy_a``, ``strategy_b``: how the players
    pick their moves under a ``choice`` profile (default ``"frontmost"``). ``style=True``
    also counts how each player decides over the games' decisions (``to_dict()["style"]``;
    the games are played a second time to watch them).
    """
    return _run("duel", DuelResult, progress, rules, a=_die_text(a, "--a"),
                b=_die_text(b, "--b"), games=games, precision=precision, seed=seed,
                max_rolls=max_rolls, threads=threads, track=track, offset=offset,
                pieces=pieces, goal_fields=goal_fields, profile=profile, strategy=strategy,
                strategy_a=strategy_a, strategy_b=strategy_b, style=style)


@_checked
def rank(dice: Union[str, os.PathLike, Sequence[DieLike]], *, exact: bool = False,
         games: Optional[int] = None, precision: Optional[float] = None, seed: int = 1,
         max_rolls: int = 100_000, threads: Optional[int] = None, track: Optional[int] = None,
         offset: Optional[int] = None, pieces: Optional[int] = None,
         goal_fields: Optional[int] = None, profile: Optional[str] = None,
         rules: Optional[Rules] = None,
         tolerance: float = 1e-9, max_memory: Union[int, str, None] = None,
         store: Union[str, os.PathLike, None] = None,
         values: Optional[Sequence[Union[str, os.PathLike]]] = None,
         plot: Union[str, os.PathLike, None] = None,
         overwrite: bool = False, strategy: Optional[str] = None,
         players: Optional[int] = None, progress: Progress = None) -> RankResult:
    """Every pair of ``dice`` (a BwInf dice file, or a list of dice): the matrix, the
    ranking, undecided pairs and cycles (``rank``).

    ``exact=True`` solves the pairs exactly where they fit in ``max_memory`` (bytes, or e.g.
    ``"16GiB"``; default 80 % of the RAM) to ``tolerance``; ``store`` keeps each solved pair
    in a directory, so an interrupted ranking resumes; ``values``, with ``exact=True``, lists
    folders of whole games solved before (``wuerfelglueck solve --layered --values-out DIR``),
    whose pairs are read at their openings instead of solved. ``plot`` draws the matrix as an SVG
    heat map (an existing file is replaced only with ``overwrite=True``). ``strategy``: the
    strategy every die plays in a simulated ranking under a ``choice`` profile (refused with
    ``exact=True``, which solves optimal play). ``players=3`` or ``4``: every table of that
    many dice, beside the pairwise ranking. For a cluster see
    :func:`wuerfelglueck.distributed.rank`.
    """
    return _run("rank", RankResult, progress, rules, **_dice(dice), exact=exact, games=games,
                precision=precision, seed=seed, max_rolls=max_rolls, threads=threads,
                track=track, offset=offset, pieces=pieces, goal_fields=goal_fields,
                profile=profile, tolerance=tolerance, max_memory=max_memory, store=store,
                values=None if values is None else [os.fspath(v) for v in values],
                plot=plot, overwrite=overwrite, strategy=strategy, players=players)


@_checked
def solve(a: DieLike, b: DieLike, *, tolerance: float = 1e-12, max_sweeps: int = 100_000,
          max_memory: Union[int, str, None] = None, threads: Optional[int] = None,
          matrix_free: bool = False, f32: bool = False,
          one_value_at_a_time: bool = False, release_blocks: bool = False,
          track: Optional[int] = None,
          offset: Optional[int] = None, pieces: Optional[int] = None,
          goal_fields: Optional[int] = None, profile: Optional[str] = None,
          rules: Optional[Rules] = None, strategy_a: Optional[str] = None,
          strategy_b: Optional[str] = None, policy_out: Union[str, os.PathLike, None] = None,
          force: bool = False, evaluate_pair: bool = False, no_mirror: bool = False,
          style: bool = False, progress: Progress = None) -> SolveResult:
    """Die ``a`` against die ``b``, solved exactly, with certified intervals (``solve``).

    Under a ``choice`` profile ``strategy_a`` and ``strategy_b`` say how each player plays:
    ``"optimal"`` (the default) or a strategy's name; ``policy_out`` writes the pair played
    to a policy file (an existing one only with ``force=True``), ``style=True`` tells how the
    optimal pair plays. Ctrl-C returns at once and the solve stops before its next sweep.
    """
    return _run("solve", SolveResult, progress, rules, a=_die_text(a, "--a"),
                b=_die_text(b, "--b"), tolerance=tolerance, max_sweeps=max_sweeps,
                max_memory=max_memory, threads=threads, matrix_free=matrix_free, f32=f32,
                one_value_at_a_time=one_value_at_a_time, release_blocks=release_blocks,
                track=track, offset=offset, pieces=pieces, goal_fields=goal_fields,
                profile=profile, strategy_a=strategy_a, strategy_b=strategy_b,
                policy_out=policy_out, force=force, evaluate_pair=evaluate_pair,
                no_mirror=no_mirror, style=style)


@_checked
def table(dice: Sequence[DieLike], *, games: Optional[int] = None,
          precision: Optional[float] = None, seed: int = 1, seating: str = "all",
          max_rolls: int = 100_000, threads: Optional[int] = None,
          track: Optional[int] = None, offset: Optional[int] = None,
          pieces: Optional[int] = None, goal_fields: Optional[int] = None,
          profile: Optional[str] = None, rules: Optional[Rules] = None,
          strategy: Union[str, Sequence[str], None] = None, style: bool = False,
          progress: Progress = None) -> TableResult:
    """2 to 4 ``dice`` at one table of as many players (``table``): P(win) of each die.

    ``seating="all"`` plays every assignment of the dice to the seats equally often (then
    ``games`` must be a multiple of the number of seatings, N!); ``"fixed"`` seats the dice
    in the order given (the first moves first). ``games`` or ``precision`` as in
    :func:`duel`. With 3 or 4 players seat s starts at s * track / 4. Under a ``choice``
    profile ``strategy`` is every die's strategy (one name) or each die's (a list, in the
    order of ``dice``): ``"frontmost"``, ``"rearmost"``, ``"capture"``, ``"safe"``,
    ``"random"``, or ``"strong"`` (a learned player trained for the table; shipped for
    40/20/4/4 at three and four, ``"strong:FILE"`` from :func:`train` with ``players``).
    ``style=True`` also counts how each die decides over the games' decisions
    (``to_dict()["style"]``; needs ``choice``).
    """
    if isinstance(dice, (str, Die)):
        raise TypeError("dice must be a list of 2 to 4 dice, e.g. ['1..6', '2..7', '1..4']")
    if not isinstance(seating, str):
        raise TypeError(f"seating must be 'all' or 'fixed', not {seating!r}")
    return _run("table", TableResult, progress, rules,
                die=[_die_text(d, "--die") for d in dice], games=games, precision=precision,
                seed=seed, seating=seating, max_rolls=max_rolls, threads=threads, track=track,
                offset=offset, pieces=pieces, goal_fields=goal_fields, profile=profile,
                strategy=[strategy] if isinstance(strategy, str) else _list_of(strategy),
                style=style)


def _list_of(value) -> Optional[list]:
    """A sequence as a list (``None`` stays ``None``)."""
    return None if value is None else list(value)


def _list(value) -> Union[str, None]:
    """A list option (``hold``, ``query``) as the command line writes it: comma-separated."""
    if _is_sequence(value):
        return ",".join(str(v) for v in value)
    return value


def _game(command: str, goal, bust, faces, tolerance, query, compare, hold, simulate, seed,
          plot, overwrite) -> GameResult:
    return _run(command, GameResult, goal=goal, bust=bust, faces=_die_text(faces, "--faces"),
                tolerance=tolerance, query=_list(query), compare=compare, hold=_list(hold),
                simulate=simulate, seed=seed, plot=plot, overwrite=overwrite)


@_checked
def wubbel(*, goal: Optional[int] = None, bust: Optional[int] = None, faces: DieLike = "1..6",
           tolerance: Optional[float] = None, query: Union[str, Sequence[int], None] = None,
           compare: bool = False,
           hold: Union[str, Sequence[int], None] = None, simulate: Optional[int] = None,
           seed: Optional[int] = None, plot: Union[str, os.PathLike, None] = None,
           overwrite: bool = False) -> GameResult:
    """Wubbel (goal 50, bust face 6): optimal play (``wubbel``); ``query=(e, g)`` adds the
    decisions at scores (e, g); ``compare=True`` evaluates optimal play against "hold at
    n" for each n in ``hold``, checked by ``simulate`` games; ``plot`` writes the decision
    map (SVG; an existing file is replaced only with ``overwrite=True``)."""
    return _game("wubbel", goal, bust, faces, tolerance, query, compare, hold, simulate, seed,
                 plot, overwrite)


@_checked
def pig(*, goal: Optional[int] = None, bust: Optional[int] = None, faces: DieLike = "1..6",
        tolerance: Optional[float] = None, query: Union[str, Sequence[int], None] = None,
        compare: bool = False,
        hold: Union[str, Sequence[int], None] = None, simulate: Optional[int] = None,
        seed: Optional[int] = None, plot: Union[str, os.PathLike, None] = None,
        overwrite: bool = False) -> GameResult:
    """Pig (goal 100, bust face 1): the same as :func:`wubbel` with Pig's defaults."""
    return _game("pig", goal, bust, faces, tolerance, query, compare, hold, simulate, seed,
                 plot, overwrite)


@_checked
def converge(a: DieLike, b: DieLike, *, reps: Optional[int] = None,
             min_games: Optional[int] = None, max_games: Optional[int] = None,
             points_per_decade: Optional[int] = None, stopping: bool = False,
             stopping_rules: Union[str, Sequence[str], None] = None,
             precision: Optional[float] = None,
             look_every: Optional[int] = None, seed: Optional[int] = None,
             max_rolls: Optional[int] = None, threads: Optional[int] = None,
             track: Optional[int] = None, offset: Optional[int] = None,
             pieces: Optional[int] = None, goal_fields: Optional[int] = None,
             profile: Optional[str] = None, plot: Union[str, os.PathLike, None] = None,
             overwrite: bool = False, progress: Progress = None) -> ConvergeResult:
    """The simulation against the exact solver (``converge``): error and interval coverage
    over a grid of game counts, or with ``stopping=True`` the stopping rules
    (``stopping_rules`` is the CLI's ``--rules``). Options left at ``None`` take the
    command's defaults (board 40/20/2/4); ``plot`` writes the command's SVG picture."""
    return _run("converge", ConvergeResult, progress, a=_die_text(a, "--a"),
                b=_die_text(b, "--b"), reps=reps, min_games=min_games, max_games=max_games,
                points_per_decade=points_per_decade, stopping=stopping,
                rules=_list(stopping_rules), precision=precision, look_every=look_every,
                seed=seed, max_rolls=max_rolls, threads=threads, track=track, offset=offset,
                pieces=pieces, goal_fields=goal_fields, profile=profile, plot=plot,
                overwrite=overwrite)


@_checked
def train(out: Union[str, os.PathLike], *, overwrite: bool = False,
          games: Optional[int] = None, seed: Optional[int] = None,
          hidden: Optional[int] = None, rate: Optional[str] = None,
          lambda_: Optional[float] = None, die: Optional[DieLike] = None,
          max_rolls: Optional[int] = None, track: Optional[int] = None,
          offset: Optional[int] = None, pieces: Optional[int] = None,
          goal_fields: Optional[int] = None, profile: Optional[str] = None,
          players: Optional[int] = None, targets: Optional[str] = None,
          exact_tolerance: Optional[float] = None, explore: Optional[float] = None,
          positions: Optional[str] = None, threads: Optional[int] = None,
          max_memory: Union[int, str, None] = None,
          rules: Optional[Rules] = None, progress: Progress = None) -> TrainResult:
    """Trains a learned player (``train``) and writes its player file ``out`` (refused if it
    exists, unless ``overwrite``), to be played as ``"strong:FILE"`` or
    ``"strong-search:FILE"``. ``lambda_`` is the CLI's ``--lambda``; ``rate`` is
    ``"FIRST,LAST"``; ``players`` 3 or 4 trains a player for a table of that many seats
    (played with :func:`table`). ``targets="exact"`` solves the game first and fits the
    network to its exact values (``exact_tolerance``, ``explore``, ``positions``: the CLI's
    ``--exact-tolerance``, ``--explore`` and ``--positions``; ``threads`` those of the solve, 1
    for the same file on every run; ``max_memory`` the solve's limit, bytes or e.g. ``"12GiB"``) instead of learning by self-play. Options left at
    ``None`` take the command's defaults (profile ``choice``, die 1..6, two players,
    self-play)."""
    return _run("train", TrainResult, progress, rules, out=out, overwrite=overwrite,
                games=games, seed=seed, hidden=hidden, rate=rate,
                die=None if die is None else _die_text(die, "--die"), max_rolls=max_rolls,
                track=track, offset=offset, pieces=pieces, goal_fields=goal_fields,
                profile=profile, players=players, targets=targets,
                exact_tolerance=exact_tolerance, explore=explore, positions=positions,
                threads=threads, max_memory=max_memory,
                **{"lambda": lambda_})


@_checked
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
           plot: Union[str, os.PathLike, None] = None, overwrite: bool = False,
           progress: Progress = None) -> SearchResult:
    """The best die of a family (``search``): the dice of ``file`` (a dice file), or every
    die with ``faces`` faces drawn from ``values`` (``"1..6"``, or ``(1, 6)``).

    Answers, each with probability at least 1 - ``error_probability``: the best mean
    P(win), the Condorcet winner, the maximin die and cycles among the ``top`` dice; games
    go to the pairs still undecided (``design``: ``"racing"``, ``"round-robin"`` or
    ``"screening"``), at most ``max_games`` per pair; ``confirm`` dice are solved exactly
    pair by pair. ``store`` keeps the search in a directory so that it resumes. Options left
    at ``None`` take the command's defaults.
    """
    if _is_sequence(values):
        if len(values) != 2:
            raise ValueError(f"values must be 'A..B' or (A, B), got {values!r}")
        values = f"{values[0]}..{values[1]}"
    return _run("search", SearchResult, progress, rules, file=file, faces=faces,
                values=values, error_probability=error_probability, epsilon=epsilon,
                max_games=max_games, top=top, design=design, max_die_games=max_die_games,
                seed=seed, max_rolls=max_rolls, threads=threads, track=track, offset=offset,
                pieces=pieces, goal_fields=goal_fields, profile=profile, strategy=strategy,
                confirm=confirm, tolerance=tolerance, max_memory=max_memory, store=store,
                plot=plot, overwrite=overwrite)


@_checked
def advise(a: DieLike, b: DieLike, position: str, face: int, *,
           track: Optional[int] = None, offset: Optional[int] = None,
           pieces: Optional[int] = None, goal_fields: Optional[int] = None,
           profile: Optional[str] = None, rules: Optional[Rules] = None,
           tolerance: Optional[float] = None, max_memory: Union[int, str, None] = None,
           strategy_a: Optional[str] = None, strategy_b: Optional[str] = None,
           rollouts: Optional[int] = None, seed: Optional[int] = None,
           max_rolls: Optional[int] = None, games: Optional[int] = None,
           variance_reduction: Optional[str] = None) -> AdviseResult:
    """Every legal move of roll ``face`` in ``position`` (e.g. ``"A:0,17,c B:A,5 turn:A"``)
    with its value (``advise``): solved exactly where it fits in ``max_memory``, else
    simulated (``rollouts`` games per move, the players then playing ``strategy_a`` and
    ``strategy_b``; ``rollouts=0``: the learned player's scores alone, without an interval).
    Each move also carries ``strong``, the learned player's score, where one plays the game.
    The profile defaults to ``"choice"``, as the command's; a profile without ``choice`` is
    refused. ``games`` is the older name of ``rollouts``. ``variance_reduction`` (``"on"``,
    ``"auto"`` or ``"off"``, the default) takes each roll's luck, as the learned player values
    it, out of the simulated games: the same values with far smaller intervals, at several
    times the time a game (``"on"`` refuses a board without a learned player, ``"auto"``
    plays plain games there).
    """
    return _run("advise", AdviseResult, None, rules, a=_die_text(a, "--a"),
                b=_die_text(b, "--b"), position=str(position), face=face, track=track,
                offset=offset, pieces=pieces, goal_fields=goal_fields, profile=profile,
                tolerance=tolerance, max_memory=max_memory, strategy_a=strategy_a,
                strategy_b=strategy_b, rollouts=rollouts, games=games, seed=seed,
                max_rolls=max_rolls, variance_reduction=variance_reduction)


@_checked
def play(a: DieLike, b: DieLike, *more: DieLike, seed: int = 1, first: str = "a",
         max_rolls: Optional[int] = None, players: Optional[int] = None,
         track: Optional[int] = None, offset: Optional[int] = None,
         pieces: Optional[int] = None, goal_fields: Optional[int] = None,
         profile: Optional[str] = None, rules: Optional[Rules] = None,
         strategy: Optional[str] = None, strategy_a: Optional[str] = None,
         strategy_b: Optional[str] = None,
         strategy_c: Optional[str] = None, strategy_d: Optional[str] = None) -> PlayResult:
    """One game, roll by roll (``play``), returned as data: ``to_dict()["turns"]`` has one
    entry per roll (``roll``, ``player``, ``face``, ``move`` ``{from, to}`` or ``None``,
    ``rule``, ``choices``, ``captured``, ``rolls_again``, ``winner``, ``pieces``);
    ``str(result)`` is the narration the command prints.

    ``first`` (``"a"`` or ``"b"``) starts; dice after ``b`` (``more``) sit at seats C and D
    of a table of 3 or 4 (``players`` defaults to their count), where seat A moves first;
    under ``choice`` each seat plays its strategy (``strategy_a`` .. ``strategy_d``, else
    ``strategy``).
    """
    if players is None and more:
        players = 2 + len(more)
    return _run("play", PlayResult, None, rules, a=_die_text(a, "--a"), b=_die_text(b, "--b"),
                die=[_die_text(d, "--die") for d in more], seed=seed, first=first,
                max_rolls=max_rolls, players=players, track=track, offset=offset,
                pieces=pieces, goal_fields=goal_fields, profile=profile, strategy=strategy,
                strategy_a=strategy_a, strategy_b=strategy_b, strategy_c=strategy_c,
                strategy_d=strategy_d)
