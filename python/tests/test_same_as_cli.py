"""The package's results equal the CLI's JSON for the same options and seed."""

import pytest

import wuerfelglueck as wg
from conftest import without_timing


def test_duel_equals_cli(cli):
    got = wg.duel("1..6", [1, 1, 1, 6, 6, 6], games=20_480, seed=5, threads=2)
    want = cli("duel", "--a", "1..6", "--b", "1,1,1,6,6,6", "--games", 20480, "--seed", 5,
               "--format", "json")
    assert got.to_dict() == want
    assert got.p_a == want["p_a"]


def test_duel_with_precision_on_a_small_board_equals_cli(cli):
    got = wg.duel("0..9", "2..7", precision=0.01, seed=2, pieces=2, track=20, offset=10,
                  goal_fields=2, profile="bwinf+roll-off")
    want = cli("duel", "--a", "0..9", "--b", "2..7", "--precision", 0.01, "--seed", 2,
               "--pieces", 2, "--track", 20, "--offset", 10, "--goal-fields", 2,
               "--profile", "bwinf+roll-off", "--format", "json")
    assert got.to_dict() == want


def test_rank_of_a_file_equals_cli(cli, root):
    got = wg.rank(root / "data" / "wuerfel0.txt", games=4096, seed=3)
    want = cli("rank", "data/wuerfel0.txt", "--games", 4096, "--seed", 3, "--format", "json")
    assert without_timing(got.to_dict()) == without_timing(want)
    # The table form: one row per ordered pair, with the CLI's CSV columns.
    frame = got.to_pandas()
    assert len(frame) == 6 * 5
    assert list(frame.columns) == ["row_die", "col_die", "p_row_wins", "ci95_lo", "ci95_hi",
                                   "p_row_wins_given_end", "unfinished", "method", "games",
                                   "undecided"]


def test_exact_rank_with_a_store_equals_cli(cli, tmp_path):
    board = dict(track=20, offset=10, pieces=2, goal_fields=2)
    args = ["--track", 20, "--offset", 10, "--pieces", 2, "--goal-fields", 2]
    dice = ["1..6", "2..7", "1,6,6,6,6,6"]
    got = wg.rank(dice, exact=True, store=tmp_path / "py", **board)
    want = cli("rank", *[x for d in dice for x in ("--die", d)], *args, "--exact",
               "--store", tmp_path / "cli", "--format", "json")
    assert without_timing(got.to_dict()) == without_timing(want)
    assert set(got.method[0][1:]) == {"exact"}
    # Both wrote the same records.
    py = sorted(p.name for p in (tmp_path / "py").iterdir())
    assert py == sorted(p.name for p in (tmp_path / "cli").iterdir())
    assert len(py) == 3


def test_exact_rank_from_values_folders_equals_cli(cli, tmp_path):
    game = ["--track", 16, "--offset", 8, "--pieces", 2, "--goal-fields", 2,
            "--profile", "choice"]
    folders = []
    for a, b in [("1..6", "2..7"), ("2..7", "1,1,2,6,6,6"), ("1,1,2,6,6,6", "1..6")]:
        folder = tmp_path / f"{len(folders)}"
        cli("solve", "--a", a, "--b", b, *game, "--layered", "--tolerance", 1e-9,
            "--values-out", folder, "--format", "json")
        folders.append(folder)
    dice = ["1..6", "2..7", "1,1,2,6,6,6"]
    got = wg.rank(dice, exact=True, values=folders, track=16, offset=8, pieces=2,
                  goal_fields=2, profile="choice")
    want = cli("rank", *[x for d in dice for x in ("--die", d)], *game, "--exact",
               "--values", *folders, "--format", "json")
    assert without_timing(got.to_dict()) == without_timing(want)
    assert len(want["notes"]) == 3 and all("layered values" in n for n in want["notes"])


def test_solve_equals_cli(cli):
    got = wg.solve("1..6", "2..7", pieces=2, tolerance=1e-10)
    want = cli("solve", "--a", "1..6", "--b", "2..7", "--pieces", 2, "--tolerance", 1e-10,
               "--format", "json")
    assert without_timing(got.to_dict()) == without_timing(want)


@pytest.mark.parametrize("game", ["wubbel", "pig"])
def test_games_equal_cli(cli, game):
    got = getattr(wg, game)(goal=30, query=(10, 5))
    want = cli(game, "--goal", 30, "--query", "10,5", "--format", "json")
    assert got.to_dict() == want


def test_converge_equals_cli(cli):
    got = wg.converge("1..6", "2..7", reps=4, max_games=2000)
    want = cli("converge", "--a", "1..6", "--b", "2..7", "--reps", 4, "--max-games", 2000,
               "--format", "json")
    assert without_timing(got.to_dict()) == without_timing(want)
    assert list(got.to_pandas()["games"]) == [p["games"] for p in want["points"]]
