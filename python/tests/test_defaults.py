"""The package's defaults are the command line's: every keyword argument with a default other
than ``None`` (``None`` is "the command's default") has the value the CLI's own definition
gives the option of the same name (``_native.cli_defaults``, read from the CLI's parser)."""

import inspect
import math

import wuerfelglueck as wg
from wuerfelglueck import _native

COMMANDS = ["duel", "rank", "solve", "table", "search", "advise", "play", "converge",
            "wubbel", "pig", "train"]


def same(python_value, cli_text: str) -> bool:
    if isinstance(python_value, bool):
        return cli_text == str(python_value).lower()
    if isinstance(python_value, (int, float)):
        try:
            return math.isclose(float(cli_text), python_value, rel_tol=0, abs_tol=0)
        except ValueError:
            return False
    return str(python_value) == cli_text


def test_every_default_is_the_cli_default():
    # A function whose keyword arguments all default to None (advise, converge, search)
    # leaves every default to the command itself: nothing to compare there.
    defaults = _native.cli_defaults()
    compared, differ = 0, []
    for command in COMMANDS:
        cli = defaults[command]
        for name, p in inspect.signature(getattr(wg, command)).parameters.items():
            if p.default is inspect.Parameter.empty or p.default is None or name not in cli:
                continue
            compared += 1
            if not same(p.default, cli[name]):
                differ.append(f"{command}({name}={p.default!r}) but the CLI's "
                              f"--{name.replace('_', '-')} defaults to {cli[name]}")
    assert not differ, differ
    assert compared >= 10, compared


def test_the_cli_defaults_are_read_from_the_parser():
    defaults = _native.cli_defaults()
    assert set(COMMANDS) <= set(defaults)
    assert defaults["duel"]["max_rolls"] == "100000"
    assert defaults["advise"]["rollouts"] == "20000"


def test_all_lists_only_public_names():
    for name in wg.__all__:
        assert not name.startswith("_"), name
        assert hasattr(wg, name), name
    public = {n for n, v in vars(wg).items()
              if not n.startswith("_") and (inspect.isfunction(v) or inspect.isclass(v))
              and getattr(v, "__module__", "").startswith("wuerfelglueck")}
    assert public <= set(wg.__all__), public - set(wg.__all__)
