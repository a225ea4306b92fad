"""Every argument of every public function is checked for its type before anything runs:
a value of another type is a ``TypeError`` naming the argument and the types allowed,
``None`` where the signature does not allow it too; a float that is NaN or infinite, an empty
list and an integer out of its range are a ``ValueError`` naming the argument (issue 52:
``duel(b"1..6", ...)`` played the die 49,46,46,54, ``duel({1: 2}, ...)`` the die "1",
``precision=nan`` said "options: expected value at line 1 column 41", ``advise(position=None)``
complained about 'None' and ``rank([])`` said "<FILE> not provided")."""

import inspect
import math
import typing

import pytest

import wuerfelglueck as wg
import wuerfelglueck.distributed as wgd


def base_calls(tmp_path):
    """Every public function with arguments of the right types, each call refused at once
    by the library (so that an argument that slipped through the checks fails the test
    quickly instead of running a command)."""
    bad_profile = dict(profile="nope")
    return {
        "duel": (wg.duel, ["1..6", "2..7"], dict(games=3)),
        "rank": (wg.rank, [["1..6", "2..7"]], dict(games=3)),
        "solve": (wg.solve, ["1..6", "2..7"], dict(tolerance=-1.0)),
        "table": (wg.table, [["1..6", "2..7"]], dict(games=1)),
        "search": (wg.search, [], dict(faces=2, values="3..1")),
        "advise": (wg.advise, ["1..6", "2..7", "A:3,10 B:A,5 turn:A", 4],
                   dict(profile="bwinf")),
        "play": (wg.play, ["1..6", "2..7"], bad_profile),
        "wubbel": (wg.wubbel, [], dict(tolerance=-1.0)),
        "pig": (wg.pig, [], dict(tolerance=-1.0)),
        "converge": (wg.converge, ["1..6", "2..7"], bad_profile),
        "train": (wg.train, [str(tmp_path / "player.json")], bad_profile),
        "Die": (wg.Die, ["1..6"], {}),
        "Board": (wg.Board, [], dict(track=5)),
        "Rules": (wg.Rules, [], bad_profile),
        "distributed.rank": (wgd.rank, [["1..6", "2..7"], None], bad_profile),
    }


FUNCTIONS = ["duel", "rank", "solve", "table", "search", "advise", "play", "wubbel", "pig",
             "converge", "train", "Die", "Board", "Rules", "distributed.rank"]


def parameters(function):
    """The parameters of a public function (of ``__init__`` for a class), with their
    annotations, but not ``self`` and not ``client`` (any Dask client)."""
    target = function.__init__ if inspect.isclass(function) else function
    target = inspect.unwrap(target)
    hints = typing.get_type_hints(target)
    return [(name, p, hints.get(name)) for name, p in inspect.signature(target).parameters.items()
            if name not in ("self", "client")]


def call_with(function, args, kwargs, name, value):
    """``function`` called with ``args`` and ``kwargs``, argument ``name`` replaced by
    ``value`` (appended for ``*more``)."""
    args, kwargs = list(args), dict(kwargs)
    names = [n for n, p, _ in parameters(function)
             if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD]
    kind = dict((n, p.kind) for n, p, _ in parameters(function))[name]
    if kind is inspect.Parameter.VAR_POSITIONAL:
        args.append(value)
    elif name in names and names.index(name) < len(args):
        args[names.index(name)] = value
    else:
        kwargs[name] = value
    return function(*args, **kwargs)


def cases(select):
    """``(function, parameter)`` for every parameter of every public function that
    ``select(parameter, annotation)`` picks."""
    functions = {"distributed.rank": wgd.rank}
    out = []
    for f in FUNCTIONS:
        function = functions.get(f) or getattr(wg, f)
        out += [(f, name) for name, p, hint in parameters(function) if select(p, hint)]
    return out


def allows(hint, kind) -> bool:
    return any(h is kind or typing.get_origin(h) is kind
               for h in (typing.get_args(hint) or (hint,)))


def test_every_public_function_is_covered():
    public = {n for n in wg.__all__ if inspect.isfunction(getattr(wg, n))}
    public |= {"Die", "Board", "Rules", "distributed.rank"}
    assert public == set(FUNCTIONS)


@pytest.mark.parametrize("function, name", cases(lambda p, hint: True))
def test_every_argument_refuses_a_value_of_another_type(tmp_path, function, name):
    f, args, kwargs = base_calls(tmp_path)[function]
    with pytest.raises(TypeError, match=rf"^{name} must be .*, not object <object object"):
        call_with(f, args, kwargs, name, object())


@pytest.mark.parametrize("function, name", cases(
    lambda p, hint: p.default is not None and p.kind is not inspect.Parameter.VAR_POSITIONAL))
def test_none_is_refused_where_the_signature_does_not_allow_it(tmp_path, function, name):
    f, args, kwargs = base_calls(tmp_path)[function]
    with pytest.raises(TypeError, match=rf"^{name} must be .*, not None$"):
        call_with(f, args, kwargs, name, None)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize("function, name", cases(lambda p, hint: allows(hint, float)))
def test_every_float_argument_refuses_nan_and_infinity(tmp_path, function, name, value):
    f, args, kwargs = base_calls(tmp_path)[function]
    with pytest.raises(ValueError, match=rf"^{name} must be a finite number, got -?(nan|inf)$"):
        call_with(f, args, kwargs, name, value)


@pytest.mark.parametrize("function, name", cases(
    lambda p, hint: allows(hint, typing.get_origin(typing.Sequence[int]))
    or p.kind is inspect.Parameter.VAR_POSITIONAL))
def test_every_list_argument_refuses_an_empty_list(tmp_path, function, name):
    f, args, kwargs = base_calls(tmp_path)[function]
    with pytest.raises(ValueError, match=rf"^{name} must not be empty: expected "):
        call_with(f, args, kwargs, name, [])


@pytest.mark.parametrize("call, error, message", [
    # bytes and a dict were taken for faces.
    (lambda: wg.duel(b"1..6", "1..6"), TypeError,
     "a must be a str, a sequence of int or a Die (a die such as '1..6', [1, 1, 1, 6, 6, 6] "
     "or Die('1..6')), not bytes b'1..6'"),
    (lambda: wg.duel("1..6", {1: 2}), TypeError,
     "b must be a str, a sequence of int or a Die (a die such as '1..6', [1, 1, 1, 6, 6, 6] "
     "or Die('1..6')), not dict {1: 2}"),
    (lambda: wg.solve([1, 2.5, 6], "1..6"), TypeError,
     "a must be a str, a sequence of int or a Die (a die such as '1..6', [1, 1, 1, 6, 6, 6] "
     "or Die('1..6')), not list [1, 2.5, 6] (item 1 is float 2.5)"),
    (lambda: wg.rank(["1..6", b"2..7"]), TypeError,
     "dice must be a path (str or os.PathLike) or a sequence of dice (dice such as "
     "['1..6', '2..7'], each a str, a sequence of int or a Die), not list ['1..6', b'2..7'] "
     "(item 1 is bytes b'2..7')"),
    (lambda: wg.duel("1..6", "1..6", precision=float("nan")), ValueError,
     "precision must be a finite number, got nan"),
    (lambda: wg.solve("1..6", "1..6", tolerance=float("inf")), ValueError,
     "tolerance must be a finite number, got inf"),
    (lambda: wg.advise("1..6", "1..6", None, 3), TypeError,
     "position must be a str (a position such as 'A:3,10 B:A,5 turn:A'), not None"),
    (lambda: wg.rank([]), ValueError,
     "dice must not be empty: expected a path (str or os.PathLike) or a sequence of dice "
     "(dice such as ['1..6', '2..7'], each a str, a sequence of int or a Die)"),
    (lambda: wg.duel("1..6", "1..6", seed=None), TypeError,
     "seed must be an integer in 0..=18446744073709551615, not None"),
    (lambda: wg.duel("1..6", "1..6", style="yes"), TypeError,
     "style must be True or False, not str 'yes'"),
    (lambda: wg.duel("1..6", "1..6", progress=print, games=2.0), TypeError,
     "games must be an integer in 0..=18446744073709551615 or None, not float 2.0"),
])
def test_the_messages_name_the_argument_and_what_it_may_be(call, error, message):
    with pytest.raises(error) as raised:
        call()
    assert str(raised.value) == message


def test_values_of_the_right_types_still_work(tmp_path):
    # Tuples, ranges, Die values and NumPy-like numbers are sequences and numbers.
    small = dict(track=12, pieces=1, goal_fields=1)
    got = wg.duel((1, 2, 3, 4, 5, 6), range(1, 7), games=512, **small)
    assert (got.die_a, got.die_b) == ("1..6", "1..6")
    assert wg.duel(wg.Die("1..6"), "1..6", games=512, precision=None, **small).games == 512
    # A Die reaches the library (which refuses the tolerance before it solves anything; a
    # solve would start rayon's global pool in this process, whose threads stay).
    with pytest.raises(ValueError, match="^--tolerance"):
        wg.wubbel(faces=wg.Die("1..6"), query=(3, 5), hold=range(20, 22), tolerance=-1.0)
    assert wg.search(faces=2, values=[1, 3], max_games=4096, seed=3,
                     **small).to_dict()["family_description"]
    from fractions import Fraction
    assert wg.solve("1..6", "1..6", tolerance=Fraction(1, 10**9), **small).p_a > 0
