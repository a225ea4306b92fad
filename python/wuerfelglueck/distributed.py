"""Rankings on a Dask cluster: every pair of a ranking is one task.

:func:`rank` takes the options of :func:`wuerfelglueck.rank` and a ``dask.distributed``
``Client``. Each pair (its exact solve, or its simulation: all of its chunks of games) runs as
one task on a worker, through the same library function the local ranking calls for that
pair, with the pair's own random streams; the client assembles the matrix pair by pair as
the local ranking does. So:

* the same seed gives the same counts (and the same result object) as the local ``rank``;
* with ``exact=True`` and ``store=DIR`` (a directory every worker and the client can reach,
  e.g. on a shared file system) each solved pair is written to the store by its worker at
  once, and a pair already there is read instead of solved: a cluster run that is cut off
  resumes from the store, and local and cluster runs share it;
* an exact pair goes only to a worker whose memory limit (``memory_limit`` of the Dask
  worker) is at least the least memory its solve needs (``wuerfelglueck``'s estimate, the
  same the local memory guard uses). A pair that fits no worker runs where there is room
  and is simulated there (marked, with a note), as the local ranking does with a pair that
  does not fit ``max_memory``. Without ``max_memory`` a task's limit is its worker's
  ``memory_limit``.

Run one task per worker at a time (``threads_per_worker=1``): a task runs on as many
threads as its worker has (``nthreads``) unless ``threads`` is given.

Example (two local worker processes)::

    from dask.distributed import Client, LocalCluster
    import wuerfelglueck.distributed as wgd

    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        result = wgd.rank("data/wuerfel0.txt", client, precision=0.001)
"""

from __future__ import annotations

import time
from typing import Any, Callable, Optional, Union
import os

from . import RankResult, Rules, _dice, _exact_only, _native, _options, _result

__all__ = ["rank"]


def _pair_task(dice, exact, opts, stream, i, j):
    """One pair on a worker; returns the pair's payload (JSON text) for the client."""
    opts = dict(opts)
    try:
        from distributed import get_worker

        worker = get_worker()
    except (ImportError, ValueError):
        worker = None
    if worker is not None:
        if opts["threads"] is None:
            opts["threads"] = max(1, int(worker.state.nthreads))
        limit = worker.memory_manager.memory_limit
        if exact and opts["max_memory"] is None and limit:
            opts["max_memory"] = str(int(limit))
    return _native.rank_pair(dice, exact, opts, stream, i, j)


def _fitting_workers(client, need: int) -> Optional[list]:
    """The workers whose memory limit is at least ``need`` bytes (no limit counts as
    enough); ``None`` if there is none (the pair then runs anywhere)."""
    workers = client.scheduler_info(n_workers=-1)["workers"]
    fit = [addr for addr, w in workers.items()
           if not w.get("memory_limit") or w["memory_limit"] >= need]
    return fit or None


def rank(dice, client, *, exact: bool = False, store: Union[str, os.PathLike, None] = None,
         games: Optional[int] = None, precision: Optional[float] = None, seed: int = 1,
         max_rolls: int = 100_000, threads: Optional[int] = None, track: int = 40,
         offset: int = 20, pieces: int = 4, goal_fields: int = 4, profile: str = "bwinf",
         rules: Optional[Rules] = None, tolerance: float = 1e-9,
         max_memory: Union[int, str, None] = None,
         progress: Optional[Callable[[int, str], Any]] = None) -> RankResult:
    """:func:`wuerfelglueck.rank` with every pair as a task on the workers of ``client``.

    Returns the same :class:`~wuerfelglueck.RankResult` as the local ``rank`` (only
    ``seconds`` differs). ``progress(pairs_done, message)`` hears of every finished pair. A
    dice file is read on the client. The first failing pair (in pair order) raises the
    local ranking's ``RuntimeError``; with ``store`` the pairs solved so far are kept.
    Ctrl-C cancels the tasks not yet finished.
    """
    from distributed import as_completed

    opts = _options(games=games, precision=precision, seed=seed, max_rolls=max_rolls,
                    threads=threads, track=track, offset=offset, pieces=pieces,
                    goal_fields=goal_fields, profile=profile, rules=rules,
                    tolerance=tolerance, max_memory=max_memory, store=store)
    _exact_only(exact, tolerance=tolerance != 1e-9, max_memory=max_memory, store=store)
    if opts["store"] is not None:
        # Workers may run in other directories: give them the full path.
        opts["store"] = os.path.abspath(opts["store"])
    started = time.monotonic()
    faces, pairs = _native.rank_plan(_dice(dice), exact, opts)
    futures = {}
    try:
        for stream, (i, j, need) in enumerate(pairs):
            where = _fitting_workers(client, need) if exact else None
            future = client.submit(
                _pair_task, faces, exact, opts, stream, i, j,
                key=f"wuerfelglueck-pair-{stream + 1}-of-{len(pairs)}-{os.urandom(4).hex()}",
                workers=where, allow_other_workers=False, pure=False,
            )
            futures[future.key] = (stream, future)
        payloads = [None] * len(pairs)
        for done, future in enumerate(as_completed([f for _, f in futures.values()]), 1):
            stream = futures[future.key][0]
            payloads[stream] = future.result()
            if progress is not None:
                i, j, _ = pairs[stream]
                progress(done, f"pair {stream + 1}/{len(pairs)} done")
    except BaseException:
        client.cancel([f for _, f in futures.values()])
        raise
    seconds = time.monotonic() - started
    return _result(RankResult,
                   _native.rank_assemble(faces, exact, opts, payloads, seconds))
