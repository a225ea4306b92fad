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
                          "max_rolls", "stopping", "precision"]
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


def test_ctrl_c_interrupts_a_long_call_and_its_threads_stop():
    import os
    import signal
    import threading
    import time

    def threads():
        return len(os.listdir("/proc/self/task"))

    before = threads()
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        # About 100 core-seconds of games, should Ctrl-C not stop it.
        wg.duel("1..6", "1..6", games=10**8)
    timer.join()
    # The work stops before its next chunk: its threads end (polled, not timed).
    deadline = time.monotonic() + 60
    while threads() > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert threads() <= before


def test_exact_only_options_need_exact(cli):
    message = cli("rank", "data/wuerfel0.txt", "--store", "somewhere", expect_error=True)
    with pytest.raises(ValueError) as raised:
        wg.rank(["1..6", "2..7"], store="somewhere")
    assert str(raised.value) == message.splitlines()[0] + " --exact"
