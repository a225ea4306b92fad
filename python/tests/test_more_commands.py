"""table, search, advise, play and the strategies: the package's results equal the CLI's
JSON for the same options, and bad input is a ValueError with the CLI's message."""

import pytest

import wuerfelglueck as wg
from conftest import without_timing

SMALL = dict(track=12, pieces=2, goal_fields=2)
SMALL_ARGS = ["--track", 12, "--pieces", 2, "--goal-fields", 2]
TINY = dict(track=8, pieces=1, goal_fields=1)
TINY_ARGS = ["--track", 8, "--pieces", 1, "--goal-fields", 1]


def close(got, want, tolerance, where="result"):
    """`got` equals `want` except that numbers that are not integers may differ by
    `tolerance`, and the sweep counts are only checked to be counts: an exact solve run in
    the package (under ``choice``) does not end on the same last bits, nor after the same
    number of sweeps, from run to run, while the CLI's runs do; its figures agree within the
    tolerance."""
    if where.rsplit(".", 1)[-1] in ("iterations", "value_sweeps", "pair_sweeps"):
        assert isinstance(got, int) and got >= 0 and isinstance(want, int), where
    elif isinstance(want, dict):
        assert isinstance(got, dict) and got.keys() == want.keys(), where
        for key in want:
            close(got[key], want[key], tolerance, f"{where}.{key}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            close(g, w, tolerance, f"{where}[{i}]")
    elif isinstance(want, float) and not isinstance(got, bool):
        assert got == pytest.approx(want, abs=tolerance), where
    else:
        assert got == want, where


def refused(cli, call, *args):
    """The CLI's message for `args`, checked to be the message of the package's ValueError."""
    want = cli(*args, expect_error=True)
    with pytest.raises(ValueError) as e:
        call()
    assert str(e.value) == want.splitlines()[0]
    return want


@pytest.mark.parametrize("seating", ["all", "fixed"])
def test_table_equals_cli(cli, seating):
    dice = ["1..6", "2..7", "1,1,6,6,6,6"]
    got = wg.table(dice, games=1200, seed=7, seating=seating, **SMALL)
    want = cli("table", *[x for d in dice for x in ("--die", d)], "--games", 1200, "--seed", 7,
               "--seating", seating, *SMALL_ARGS, "--format", "json")
    assert got.to_dict() == want
    frame = got.to_pandas()
    assert list(frame["die"]) == dice
    assert list(frame["p_win"]) == want["p_win"]
    assert "1,1,6,6,6,6" in str(got)


def test_table_reports_progress_and_refuses_bad_input(cli):
    seen = []
    wg.table(["1..6", "2..7"], games=20_000, progress=lambda n, msg: seen.append((n, msg)),
             **SMALL)
    assert seen and seen[-1][1] == "1..6 | 2..7"
    refused(cli, lambda: wg.table(["1..6", "2..7", "1..4"], games=1000, **SMALL),
            "table", "--die", "1..6", "--die", "2..7", "--die", "1..4", "--games", 1000,
            *SMALL_ARGS)
    refused(cli, lambda: wg.table(["1..6"], games=1000),
            "table", "--die", "1..6", "--games", 1000)


def test_search_equals_cli(cli):
    got = wg.search(faces=2, values="1..3", max_games=4096, seed=3, **TINY)
    want = cli("search", "--faces", 2, "--values", "1..3", "--max-games", 4096, "--seed", 3,
               *TINY_ARGS, "--format", "json")
    assert without_timing(got.to_dict()) == without_timing(want)
    frame = got.to_pandas()
    assert list(frame["die"]) == [d["die"] for d in want["dice"]]
    assert frame["best_mean_candidate"].sum() == len(want["best_mean"]["candidates"])
    # (A, B) is the same family as "A..B".
    same = wg.search(faces=2, values=(1, 3), max_games=4096, seed=3, **TINY)
    assert without_timing(same.to_dict()) == without_timing(got.to_dict())


def test_search_refuses_bad_input(cli):
    refused(cli, lambda: wg.search(faces=2, values="3..1", **TINY),
            "search", "--faces", 2, "--values", "3..1", *TINY_ARGS)
    refused(cli, lambda: wg.search(faces=2, values="1..3", max_games=1000, **TINY),
            "search", "--faces", 2, "--values", "1..3", "--max-games", 1000, *TINY_ARGS)


def test_advise_equals_cli(cli):
    position = "A:0,5 B:A turn:A"
    got = wg.advise("1..6", "2..7", position, 3, **SMALL)
    want = cli("advise", "--a", "1..6", "--b", "2..7", "--position", position, "--face", 3,
               *SMALL_ARGS, "--format", "json")
    # The exact solve's parallel sweeps do not end on the same bits from run to run (the
    # CLI's own runs differ so too). Each run's interval is certified to hold the true value,
    # so the two runs' intervals overlap, and each value lies in the other run's interval
    # widened by its own; everything else is compared exactly.
    mine = got.to_dict()
    figures = ("value", "interval")
    close([{k: v for k, v in m.items() if k not in figures} for m in mine["moves"]],
          [{k: v for k, v in m.items() if k not in figures} for m in want["moves"]], 0)
    close({k: v for k, v in mine.items() if k != "moves"},
          {k: v for k, v in want.items() if k != "moves"}, 0)
    for m, w in zip(mine["moves"], want["moves"]):
        (m_lo, m_hi), (w_lo, w_hi) = m["interval"], w["interval"]
        assert m_lo <= w_hi and w_lo <= m_hi
        assert abs(m["value"] - w["value"]) <= (m_hi - m_lo) + (w_hi - w_lo)
    assert got.profile == "bwinf+choice"  # advise's default profile is choice
    assert len(want["moves"]) == 2, "the roll leaves a choice"
    frame = got.to_pandas()
    assert list(frame.columns) == ["from", "to", "value", "lo", "hi", "strong", "best",
                                   "method"]
    assert list(frame["value"]) == [m["value"] for m in mine["moves"]]
    assert "best" in str(got)
    # On the full board, which is not solved, --rollouts 0 scores the moves with the learned
    # player alone: no interval, so lo and hi are missing.
    scored = wg.advise("1..6", "1..6", "A:2,9,17,27 B:4,12,15,33 turn:A", 3, rollouts=0)
    frame = scored.to_pandas()
    assert scored.method == "evaluator" and len(frame) == 4
    assert frame["lo"].isna().all() and list(frame["strong"]) == list(frame["value"])
    assert frame["best"].sum() == 1


def test_advise_with_variance_reduction_equals_cli(cli):
    # Simulated advice on the full board with each roll's luck taken out: the same games and
    # the same figures as the command line's for the same seed.
    position = "A:2,9,17,27 B:4,12,15,33 turn:A"
    got = wg.advise("1..6", "1..6", position, 3, rollouts=40, seed=3,
                    variance_reduction="on")
    want = cli("advise", "--a", "1..6", "--b", "1..6", "--position", position, "--face", 3,
               "--rollouts", 40, "--seed", 3, "--variance-reduction", "on", "--format", "json")
    assert got.to_dict() == want
    assert want["variance_reduced"] is True


def test_table_with_a_strategy_per_die_equals_cli(cli):
    dice = ["1..6", "1..6", "1..6"]
    strategies = ["safe", "capture", "frontmost"]
    got = wg.table(dice, games=1200, seed=5, profile="choice", strategy=strategies, **SMALL)
    want = cli("table", *[x for d in dice for x in ("--die", d)],
               *[x for s in strategies for x in ("--strategy", s)], "--games", 1200,
               "--seed", 5, "--profile", "choice", *SMALL_ARGS, "--format", "json")
    assert got.to_dict() == want
    assert got.to_dict()["strategies"] == strategies
    # One name is every die's strategy.
    every = wg.table(dice, games=1200, seed=5, profile="choice", strategy="safe", **SMALL)
    assert every.to_dict()["strategies"] == ["safe"] * 3
    refused(cli, lambda: wg.table(dice, games=1200, profile="choice", strategy=["safe", "safe"],
                                  **SMALL),
            "table", *[x for d in dice for x in ("--die", d)], "--strategy", "safe",
            "--strategy", "safe", "--games", 1200, "--profile", "choice", *SMALL_ARGS)


def test_duel_style_equals_cli(cli):
    got = wg.duel("1..6", "2..7", games=2000, seed=4, profile="choice", strategy_a="capture",
                  strategy_b="safe", style=True, **SMALL)
    want = cli("duel", "--a", "1..6", "--b", "2..7", "--games", 2000, "--seed", 4,
               "--profile", "choice", "--strategy-a", "capture", "--strategy-b", "safe",
               "--style", *SMALL_ARGS, "--format", "json")
    assert got.to_dict() == want
    style = want["style"]["players"][0]["captures"]
    assert style["decisions"] > 0 and style["taken"] == style["decisions"]


def test_advise_refuses_a_profile_without_choice(cli):
    message = refused(cli, lambda: wg.advise("1..6", "1..6", "A:0 B:A", 3, profile="bwinf",
                                             **SMALL),
                      "advise", "--a", "1..6", "--b", "1..6", "--position", "A:0 B:A",
                      "--face", 3, "--profile", "bwinf", *SMALL_ARGS)
    assert "choice" in message


@pytest.mark.parametrize("kwargs, args", [
    (dict(seed=4), ["--seed", 4]),
    (dict(seed=2, first="b", profile="choice", strategy_a="capture", strategy_b="random"),
     ["--seed", 2, "--first", "b", "--profile", "choice", "--strategy-a", "capture",
      "--strategy-b", "random"]),
])
def test_play_equals_cli(cli, kwargs, args):
    got = wg.play("1..6", "2..7", **kwargs, **SMALL)
    want = cli("play", "--a", "1..6", "--b", "2..7", *args, *SMALL_ARGS, "--format", "json")
    assert got.to_dict() == want
    turns = want["turns"]
    assert want["end"] == "won" and turns[-1]["winner"] == want["winner"]
    frame = got.to_pandas()
    assert list(frame["face"]) == [t["face"] for t in turns]
    assert list(frame["player"]) == [t["player"] for t in turns]
    # str() is the command's narration of the same game.
    assert str(got).splitlines()[-1] == f"{want['winner']} wins after {len(turns)} rolls."


def test_play_at_a_table_of_three_equals_cli(cli):
    got = wg.play("1..6", "2..7", "1,1,6,6,6,6", seed=3, **SMALL)
    want = cli("play", "--a", "1..6", "--b", "2..7", "--die", "1,1,6,6,6,6", "--players", 3,
               "--seed", 3, *SMALL_ARGS, "--format", "json")
    assert got.to_dict() == want
    assert set(got.to_pandas()["player"]) <= {"A", "B", "C"}
    assert "pieces_C" in got.to_pandas().columns


def test_play_at_a_table_under_choice_plays_each_seats_strategy(cli):
    got = wg.play("1..6", "2..7", "1..6", "1..6", seed=5, profile="choice", strategy="capture",
                  strategy_c="rearmost", strategy_d="safe", **SMALL)
    want = cli("play", "--a", "1..6", "--b", "2..7", "--die", "1..6", "--die", "1..6",
               "--players", 4, "--seed", 5, "--profile", "choice", "--strategy", "capture",
               "--strategy-c", "rearmost", "--strategy-d", "safe", *SMALL_ARGS, "--format", "json")
    assert got.to_dict() == want
    assert want["strategies"] == ["capture", "capture", "rearmost", "safe"]


def test_play_refuses_bad_input(cli):
    refused(cli, lambda: wg.play("1..6", "1..6", players=3),
            "play", "--a", "1..6", "--b", "1..6", "--players", 3)
    refused(cli, lambda: wg.play("1..6", "1..6", strategy="capture"),
            "play", "--a", "1..6", "--b", "1..6", "--strategy", "capture")


def test_duel_with_strategies_equals_cli(cli):
    got = wg.duel("1..6", "2..7", games=4000, profile="choice", strategy="safe",
                  strategy_b="capture", **SMALL)
    want = cli("duel", "--a", "1..6", "--b", "2..7", "--games", 4000, "--profile", "choice",
               "--strategy", "safe", "--strategy-b", "capture", *SMALL_ARGS, "--format", "json")
    assert got.to_dict() == want
    assert (got.strategy_a, got.strategy_b) == ("safe", "capture")


def test_rank_with_a_strategy_equals_cli(cli):
    dice = ["1..6", "2..7", "1,1,6,6,6,6"]
    got = wg.rank(dice, games=2000, profile="choice", strategy="rearmost", **SMALL)
    want = cli("rank", *[x for d in dice for x in ("--die", d)], "--games", 2000,
               "--profile", "choice", "--strategy", "rearmost", *SMALL_ARGS, "--format", "json")
    assert without_timing(got.to_dict()) == without_timing(want)
    assert got.strategy_a == "rearmost"
    # A strategy changes the figures (else this test could not tell it was played).
    plain = wg.rank(dice, games=2000, profile="choice", **SMALL)
    assert plain.matrix != got.matrix


def test_solve_with_strategies_equals_cli(cli):
    got = wg.solve("1..6", "2..7", profile="choice", strategy_a="capture", **TINY)
    want = cli("solve", "--a", "1..6", "--b", "2..7", "--profile", "choice",
               "--strategy-a", "capture", *TINY_ARGS, "--format", "json")
    # The CLI's own code path, run in the package: the figures agree within the solve's
    # tolerance (1e-12; 1e-11 for the sums of bounds), not to the last bit (see close()).
    close(without_timing(got.to_dict()), without_timing(want), 1e-11)
    assert got.strategy_a == "capture"


def test_strategies_refuse_bad_input(cli):
    refused(cli, lambda: wg.duel("1..6", "1..6", games=100, strategy_a="capture"),
            "duel", "--a", "1..6", "--b", "1..6", "--games", 100, "--strategy-a", "capture")
    refused(cli, lambda: wg.duel("1..6", "1..6", games=100, profile="choice",
                                 strategy="nonsense"),
            "duel", "--a", "1..6", "--b", "1..6", "--games", 100, "--profile", "choice",
            "--strategy", "nonsense")
    refused(cli, lambda: wg.rank(["1..6", "2..7"], exact=True, profile="choice",
                                 strategy="safe", **TINY),
            "rank", "--die", "1..6", "--die", "2..7", "--exact", "--profile", "choice",
            "--strategy", "safe", *TINY_ARGS)
    refused(cli, lambda: wg.solve("1..6", "1..6", profile="choice", strategy_b="nonsense",
                                  **TINY),
            "solve", "--a", "1..6", "--b", "1..6", "--profile", "choice", "--strategy-b",
            "nonsense", *TINY_ARGS)


def test_train_writes_a_player_that_plays(cli, tmp_path):
    out = tmp_path / "player.json"
    got = wg.train(out, games=3000, seed=4, lambda_=0.5, **SMALL)
    assert got.board == "12/6/2/2" and got.games == 3000 and got.checksum.startswith("fnv1a64:")
    # The same seed from the command line gives the same file, byte for byte.
    again = tmp_path / "again.json"
    cli("train", "--out", again, "--games", 3000, "--seed", 4, "--lambda", 0.5, *SMALL_ARGS,
        "--format", "json")
    assert out.read_bytes() == again.read_bytes()
    # The player plays where it was trained, and is refused elsewhere with the CLI's message.
    played = wg.duel("1..6", "1..6", games=2000, profile="choice", strategy_a=f"strong:{out}",
                     strategy_b="random", **SMALL)
    assert played.strategy_a == f"strong:{out}"
    refused(cli, lambda: wg.duel("1..6", "1..6", games=100, profile="choice",
                                 strategy=f"strong:{out}", **TINY),
            "duel", "--a", "1..6", "--b", "1..6", "--games", 100, "--profile", "choice",
            "--strategy", f"strong:{out}", *TINY_ARGS)
    # Nothing is overwritten unless asked.
    with pytest.raises(ValueError, match="exists"):
        wg.train(out, games=10, **SMALL)


def test_train_on_exact_values_is_the_cli_s(cli, tmp_path):
    out = tmp_path / "fitted.json"
    # On one thread the solve, and so the file, is the same from run to run.
    got = wg.train(out, games=500, seed=2, targets="exact", exact_tolerance=1e-7, explore=0.1,
                   positions="every-roll", threads=1, **SMALL)
    assert got.targets == "exact" and got.counts["targets"] > 0
    again = tmp_path / "again.json"
    cli("train", "--out", again, "--games", 500, "--seed", 2, "--targets", "exact",
        "--exact-tolerance", "1e-7", "--explore", 0.1, "--positions", "every-roll",
        "--threads", 1, *SMALL_ARGS,
        "--format", "json")
    assert out.read_bytes() == again.read_bytes()
    # Settings of exact targets without them are refused, as on the command line.
    refused(cli, lambda: wg.train(tmp_path / "x.json", games=10, explore=0.1, **SMALL),
            "train", "--out", tmp_path / "x.json", "--games", 10, "--explore", 0.1, *SMALL_ARGS)
    # A solve beyond the memory allowed is refused before it allocates, as on the command line.
    refused(cli, lambda: wg.train(tmp_path / "y.json", games=10, targets="exact",
                                  max_memory="64KiB", **SMALL),
            "train", "--out", tmp_path / "y.json", "--games", 10, "--targets", "exact",
            "--max-memory", "64KiB", *SMALL_ARGS)
    assert not (tmp_path / "y.json").exists()


def test_a_table_player_trains_and_plays_at_its_table(cli, tmp_path):
    out = tmp_path / "table-player.json"
    got = wg.train(out, games=2000, seed=3, players=3, **SMALL)
    assert got.players == 3 and got.board == "12/6/2/2"
    dice = ["1..6", "1..6", "1..6"]
    strategies = [f"strong:{out}", "safe", "capture"]
    played = wg.table(dice, games=1200, seed=5, profile="choice", strategy=strategies,
                      style=True, **SMALL)
    want = cli("table", *[x for d in dice for x in ("--die", d)],
               *[x for s in strategies for x in ("--strategy", s)], "--games", 1200,
               "--seed", 5, "--profile", "choice", "--style", *SMALL_ARGS, "--format", "json")
    assert played.to_dict() == want
    assert len(want["style"]["dice"]) == 3 and want["style"]["games"] == 1200
    # A table player does not play a duel.
    refused(cli, lambda: wg.duel("1..6", "1..6", games=100, profile="choice",
                                 strategy=f"strong:{out}", **SMALL),
            "duel", "--a", "1..6", "--b", "1..6", "--games", 100, "--profile", "choice",
            "--strategy", f"strong:{out}", *SMALL_ARGS)
