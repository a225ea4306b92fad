"""The Dask ranking equals the local one, and goes through the same store."""

import json
import signal

import pytest

import wuerfelglueck as wg
import wuerfelglueck.distributed as wgd
from conftest import without_timing

distributed = pytest.importorskip("distributed")

SMALL = dict(track=20, offset=10, pieces=2, goal_fields=2)
DICE = ["1..6", "2..7", "1,1,1,6,6,6", "0..9"]


def sigint_state():
    """This thread's SIGINT handler and blocked signals: a cluster must leave them as it
    found them, or a later Ctrl-C test (and a user's Ctrl-C) could be silently lost."""
    return signal.getsignal(signal.SIGINT), signal.pthread_sigmask(signal.SIG_BLOCK, [])


@pytest.fixture(scope="module")
def client():
    before = sigint_state()
    # Each worker may use 1 GiB for exact solves (the MEMORY resource).
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None,
                                  resources={wgd.MEMORY: 2**30}) as cluster, \
            distributed.Client(cluster) as client:
        yield client
    assert sigint_state() == before


def two_workers(small: int, large: int):
    """A cluster of two in-process workers, one whose MEMORY is ``small`` bytes and one
    whose MEMORY is ``large``."""
    worker = lambda memory: {"cls": distributed.Worker,  # noqa: E731
                             "options": {"nthreads": 1, "resources": {wgd.MEMORY: memory},
                                         "dashboard": False}}
    return distributed.SpecCluster(
        workers={"small": worker(small), "large": worker(large)},
        scheduler={"cls": distributed.Scheduler, "options": {"dashboard_address": None}})


def test_simulated_ranking_equals_local(client):
    far = wgd.rank(DICE, client, games=8192, seed=11)
    near = wg.rank(DICE, games=8192, seed=11)
    assert without_timing(far.to_dict()) == without_timing(near.to_dict())


def test_precision_ranking_of_a_file_equals_local(client, root):
    far = wgd.rank(root / "data" / "wuerfel2.txt", client, precision=0.01, seed=4)
    near = wg.rank(root / "data" / "wuerfel2.txt", precision=0.01, seed=4)
    assert without_timing(far.to_dict()) == without_timing(near.to_dict())


def test_exact_ranking_equals_local_and_resumes_from_the_store(client, tmp_path):
    store = tmp_path / "store"
    near = wg.rank(DICE, exact=True, **SMALL)
    far = wgd.rank(DICE, client, exact=True, store=store, **SMALL)
    assert without_timing(far.to_dict()) == without_timing(near.to_dict())
    records = sorted(store.glob("*.json"))
    assert len(records) == 6
    # A run cut off after some pairs: remove two records; the rerun reads the others.
    for r in records[:2]:
        r.unlink()
    again = wgd.rank(DICE, client, exact=True, store=store, **SMALL)
    assert sum("read from" in n for n in again.notes) == 4
    assert again.matrix == far.matrix
    assert len(sorted(store.glob("*.json"))) == 6
    # The local ranking reads the cluster's records.
    local = wg.rank(DICE, exact=True, store=store, **SMALL)
    assert sum("read from" in n for n in local.notes) == 6


def test_an_exact_ranking_reads_whole_games_solved_before_as_the_local_one(client, cli,
                                                                             tmp_path):
    game = dict(track=16, offset=8, pieces=2, goal_fields=2, profile="choice")
    args = ["--track", 16, "--offset", 8, "--pieces", 2, "--goal-fields", 2,
            "--profile", "choice"]
    dice = ["1..6", "2..7", "1,1,2,6,6,6"]
    folders = []
    for k, (a, b) in enumerate([("1..6", "2..7"), ("1,1,2,6,6,6", "1..6")]):
        folders.append(tmp_path / f"values-{k}")
        cli("solve", "--a", a, "--b", b, *args, "--layered", "--tolerance", 1e-9,
            "--values-out", folders[-1], "--format", "json")
    # Pairs read from a folder need no MEMORY; the third pair is solved on a worker.
    options = wg._options("rank", dict(die=dice, exact=True, values=[str(f) for f in folders],
                                       **game))
    _, pairs = wg._native.rank_plan(json.dumps(options))
    assert [need == 0 for _, _, need in pairs] == [True, True, False]
    # One thread each: the solve of the third pair then gives the same bits on both sides.
    near = wg.rank(dice, exact=True, values=folders, threads=1, **game)
    far = wgd.rank(dice, client, exact=True, values=folders, threads=1, **game)
    assert without_timing(far.to_dict()) == without_timing(near.to_dict())
    assert sum("layered values" in n for n in far.notes) == 2


def test_a_pair_that_fits_no_worker_is_simulated_and_marked(client):
    # A max_memory below every pair's need: the local ranking simulates every pair.
    near = wg.rank(DICE[:3], exact=True, max_memory=1000, games=2048, **SMALL)
    far = wgd.rank(DICE[:3], client, exact=True, max_memory=1000, games=2048, **SMALL)
    assert without_timing(far.to_dict()) == without_timing(near.to_dict())
    assert all(m in (None, "simulated") for row in far.method for m in row)


def test_bad_input_fails_before_any_task(client):
    with pytest.raises(ValueError, match="--games"):
        wgd.rank(DICE, client, games=3)


def test_an_exact_pair_runs_only_on_a_worker_with_memory_for_it():
    dice = ["1..6", "2..7"]
    options = wg._options("rank", dict(die=dice, exact=True, **SMALL))
    _, [(_, _, need)] = wg._native.rank_plan(json.dumps(options))
    with two_workers(need // 2, 4 * need) as cluster, distributed.Client(cluster) as client:
        large = [a for a, w in client.scheduler_info(n_workers=-1)["workers"].items()
                 if w["resources"][wgd.MEMORY] == 4 * need]
        for _ in range(10):  # not by luck: every run goes to the one worker with room
            seen = []
            got = wgd.rank(dice, client, exact=True, progress=lambda n, m: seen.append(m),
                           **SMALL)
            assert got.method[0][1] == "exact"
            assert seen == [f"pair 1/1 done on {large[0]}"]


def test_an_exact_ranking_needs_workers_that_declare_memory():
    before = sigint_state()
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=1,
                                  dashboard_address=None,
                                  worker_dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        with pytest.raises(ValueError, match="no worker of the cluster declares the MEMORY"):
            wgd.rank(DICE[:2], client, exact=True, **SMALL)
        # Saying memory is not a constraint places the pairs anywhere.
        got = wgd.rank(DICE[:2], client, exact=True, memory_constrained=False, **SMALL)
        assert got.method[0][1] == "exact"
        # A simulated ranking needs no MEMORY.
        wgd.rank(DICE[:2], client, games=1024)
    assert sigint_state() == before
