"""Bad input raises ValueError with the CLI's message; field names are the CLI's."""

import pytest

import wuerfelglueck as wg


@pytest.mark.parametrize("kwargs, args", [
    (dict(a="1..x", b="1..6"), ["--a", "1..x", "--b", "1..6"]),
    (dict(a="1..6", b="", ), ["--a", "1..6", "--b", ""]),
    (dict(a="1..6", b="1..6", games=3), ["--a", "1..6", "--b", "1..6", "--games", 3]),
    (dict(a="1..6", b="1..6", precision=1e-9), ["--a", "1..6", "--b", "1..6", "--precision", 1e-9]),
    (dict(a="1..6", b="1..6", track=5), ["--a", "1..6", "--b", "1..6", "--track", 5]),
    (dict(a="1..6", b="1..6", profile="bwinf+nope"),
     ["--a", "1..6", "--b", "1..6", "--profile", "bwinf+nope"]),
    (dict(a="6", b="6", profile="bwinf+roll-off"),
     ["--a", "6", "--b", "6", "--profile", "bwinf+roll-off"]),
    (dict(a="1..6", b="1..6", threads=0), ["--a", "1..6", "--b", "1..6", "--threads", 0]),
])
def test_duel_errors_are_the_cli_messages(cli, kwargs, args):
    message = cli("duel", *args, expect_error=True)
    with pytest.raises(ValueError) as raised:
        wg.duel(**kwargs)
    assert str(raised.value) == message


def test_rank_and_solve_errors_are_the_cli_messages(cli, tmp_path):
    bad = tmp_path / "dice.txt"
    bad.write_text("2\n6 1 2 3 4 5 6\n")
    message = cli("rank", bad, expect_error=True)
    with pytest.raises(ValueError, match="line") as raised:
        wg.rank(bad)
    assert str(raised.value) == message
    message = cli("solve", "--a", "1..6", "--b", "1..6", "--tolerance=-1", expect_error=True)
    with pytest.raises(ValueError) as raised:
        wg.solve("1..6", "1..6", tolerance=-1)
    assert str(raised.value) == message
    message = cli("solve", "--a", "1..6", "--b", "1..6", "--max-memory", "lots",
                  expect_error=True)
    with pytest.raises(ValueError) as raised:
        wg.solve("1..6", "1..6", max_memory="lots")
    assert str(raised.value) == message


def test_values_check_their_input():
    assert str(wg.Die([1, 1, 6])) == str(wg.Die("1,1,6"))
    assert wg.Die("1..6").faces == [1, 2, 3, 4, 5, 6]
    for bad in ("", "a", [], [-1]):
        with pytest.raises(ValueError):
            wg.Die(bad)
    with pytest.raises(ValueError, match="offset"):
        wg.Board(track=40, offset=40)
    with pytest.raises(ValueError, match="--profile"):
        wg.Rules(profile="chess")
    rules = wg.Rules(wg.Board(20, 10, 2, 2), "bwinf+goal-last")
    assert wg.duel("1..6", "1..6", games=1024, rules=rules).board == "20/10/2/2"


def test_field_names_are_the_cli_json_names():
    duel = wg.duel("1..6", "2..7", games=1024).to_dict()
    assert list(duel) == ["die_a", "die_b", "profile", "board", "strategy_a", "strategy_b",
                          "games", "a_wins", "b_wins",
                          "unfinished", "endless", "p_a", "ci95", "p_b", "p_a_if_a_starts",
                          "p_a_if_b_starts", "games_a_started", "mean_rolls", "seed",
                          "max_rolls", "stopping", "precision", "style"]
    ranked = wg.rank(["1..6", "2..7"], games=1024).to_dict()
    for field in ("dice", "matrix", "ci95", "share", "unfinished", "method", "ranking",
                  "undecided", "cycles", "cyclic_groups", "profile", "board", "strategy_a",
                  "strategy_b", "seed",
                  "seconds", "notes"):
        assert field in ranked
    assert set(ranked["ranking"][0]) == {"die", "mean_p", "beaten", "undecided"}
    solved = wg.solve("1..6", "1..6", pieces=1).to_dict()
    for field in ("p_a", "p_a_if_a_starts", "p_a_if_b_starts", "p_b", "p_never", "bounds",
                  "states", "transitions", "iterations", "seconds"):
        assert field in solved


def test_progress_is_reported_and_an_exception_in_it_stops_the_call():
    seen = []
    wg.duel("1..6", "1..6", games=400_000, progress=lambda n, msg: seen.append((n, msg)))
    assert seen and seen[-1][0] == 400_000 and "1..6 vs 1..6" in seen[-1][1]

    class Stop(Exception):
        pass

    def stop(n, msg):
        raise Stop

    with pytest.raises(Stop):
        wg.duel("1..6", "1..6", games=10**9, progress=stop)


def test_exact_only_options_need_exact(cli):
    message = cli("rank", "data/wuerfel0.txt", "--store", "somewhere", expect_error=True)
    with pytest.raises(ValueError) as raised:
        wg.rank(["1..6", "2..7"], store="somewhere")
    assert str(raised.value) == message.splitlines()[0] + " --exact"


U64, U32 = 2**64 - 1, 2**32 - 1
# Every integer option of duel, rank and solve, with the range of the library's type.
INTEGERS = [("duel", "games", U64), ("duel", "seed", U64), ("duel", "max_rolls", U64),
            ("duel", "threads", U64), ("duel", "track", U32), ("duel", "offset", U32),
            ("duel", "pieces", U32), ("duel", "goal_fields", U32), ("rank", "games", U64),
            ("rank", "seed", U64), ("solve", "max_sweeps", U64), ("solve", "threads", U64),
            ("solve", "pieces", U32)]


def call(command, **kwargs):
    if command == "rank":
        return wg.rank(["1..6", "2..7"], **kwargs)
    return getattr(wg, command)("1..6", "2..7", **kwargs)


@pytest.mark.parametrize("command, name, top", INTEGERS)
@pytest.mark.parametrize("outside", ["huge", "negative"])
def test_an_integer_out_of_its_range_names_the_argument_and_the_range(command, name, top,
                                                                       outside):
    value = 2**70 if outside == "huge" else -1
    with pytest.raises(ValueError) as raised:
        call(command, **{name: value})
    assert str(raised.value) == f"{name} must be an integer in 0..={top}, got {value}"


@pytest.mark.parametrize("value", [1.5, "10", True])
def test_a_non_integer_names_the_argument(value):
    with pytest.raises(TypeError, match=r"^games must be an integer in 0\.\.=18446744073709551615 or None, not "):
        wg.duel("1..6", "1..6", games=value)


def test_the_whole_range_of_an_integer_is_accepted():
    # The largest seed (a u64) reaches the library (it did not fit the old i64 field).
    got = wg.duel("1..6", "2..7", games=1024, seed=2**64 - 1, **SMALL_BOARD)
    assert got.seed == 2**64 - 1


def test_faces_and_board_values_out_of_range_name_the_argument():
    with pytest.raises(ValueError, match=r"^--a: face 1180591620717411303424 is not a whole number from 0 to 4294967295$"):
        wg.duel([1, 2**70], "1..6")
    with pytest.raises(ValueError, match=r"^die: face -1 is not a whole number"):
        wg.Die([1, -1])
    with pytest.raises(ValueError, match=r"^track must be an integer in 0\.\.=4294967295, got 1180591620717411303424$"):
        wg.Board(track=2**70)


@pytest.mark.parametrize("rules", ["x", "bwinf", 40, wg.Board()])
def test_rules_must_be_a_rules_value(rules):
    # A wrong type is a TypeError, as for every argument (test_argument_types.py).
    with pytest.raises(TypeError, match=r"^rules must be a Rules or None \(e\.g\. Rules\("):
        wg.duel("1..6", "1..6", games=1024, rules=rules)


SMALL_BOARD = dict(track=20, offset=10, pieces=2, goal_fields=2)


@pytest.mark.parametrize("name, value", [("track", 20), ("offset", 10), ("pieces", 2),
                                         ("goal_fields", 2), ("profile", "bwinf"),
                                         ("track", 40)])
@pytest.mark.parametrize("command", ["duel", "rank", "solve"])
def test_rules_and_a_board_option_together_are_refused(command, name, value):
    rules = wg.Rules(wg.Board(**SMALL_BOARD))
    with pytest.raises(ValueError) as raised:
        call(command, rules=rules, **{name: value})
    assert str(raised.value).startswith(f"rules= and {name}= both given")
    # Either alone is fine.
    assert call("duel", rules=rules, games=1024).board == "20/10/2/2"


def test_the_offset_defaults_to_half_the_track_as_in_the_cli(cli):
    # Regression: with track=20 the default offset 20 was refused.
    assert str(wg.Board(20, pieces=2, goal_fields=2)) == "20/10/2/2"
    args = ["--a", "1..6", "--b", "2..7", "--games", "200", "--track", "20", "--pieces", "2",
            "--goal-fields", "2"]
    ours = wg.duel("1..6", "2..7", games=200, track=20, pieces=2, goal_fields=2)
    theirs = cli("duel", *args, "--format", "json")
    assert ours.to_dict()["board"] == theirs["board"] == "20/10/2/2"
    assert ours.to_dict()["a_wins"] == theirs["a_wins"]
