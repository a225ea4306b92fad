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
* an exact pair is placed by Dask worker resources: every worker declares how many bytes
  its exact solves may use as its ``MEMORY`` resource, and each exact pair's task asks for
  ``MEMORY`` = the least memory its solve needs (``wuerfelglueck``'s estimate, the same the
  local memory guard uses). Dask runs a task only where that much of the resource is free,
  so a pair goes only to a worker that has room for it, and two large solves never share a
  worker whose ``MEMORY`` holds only one. On the worker the solve's limit is that worker's
  ``MEMORY`` (or ``max_memory``, if given). A pair that fits no worker's ``MEMORY`` (or
  not ``max_memory``) asks for no resource and is simulated (marked, with a note), as the
  local ranking does with a pair that does not fit ``max_memory``.

Declaring the resource: ``LocalCluster(..., resources={"MEMORY": 8 * 2**30})``, or
``dask worker SCHEDULER --resources MEMORY=8589934592`` (bytes). A cluster none of whose
workers declares ``MEMORY`` is refused for an exact ranking (``ValueError``) unless
``memory_constrained=False`` says memory is not a constraint: then exact pairs ask for no
resource and run wherever there is a free thread, each with its worker's ``memory_limit``
(or ``max_memory``) as its limit.

Run one task per worker at a time (``threads_per_worker=1``) unless the worker's ``MEMORY``
is meant to be shared: a task runs on as many threads as its worker has (``nthreads``)
unless ``threads`` is given.

Example (two local worker processes)::

    from dask.distributed import Client, LocalCluster
    import wuerfelglueck.distributed as wgd

    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        result = wgd.rank("data/wuerfel0.txt", client, precision=0.001)

    # Exact: each worker may use 4 GiB for solves.
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                      dashboard_address=None, resources={"MEMORY": 4 * 2**30}) as cluster, \
            Client(cluster) as client:
        result = wgd.rank(["1..6", "2..7", "0..9"], client, exact=True, pieces=2)
"""

from __future__ import annotations

import json
import os
import time
from typing import Any, Callable, Optional, Sequence, Union

from . import DieLike, RankResult, Rules, _checked, _dice, _native, _options

__all__ = ["rank"]


MEMORY = "MEMORY"
"""The name of the Dask worker resource that holds the bytes a worker's exact solves may use."""


def _pair_task(options, stream, i, j):
    """One pair on a worker; returns the pair's payload (JSON text) for the client and the
    address of the worker that computed it."""
    options = dict(options)
    try:
        from distributed import get_worker

        worker = get_worker()
    except (ImportError, ValueError):
        worker = None
    address = None
    if worker is not None:
        address = worker.address
        if options.get("threads") is None:
            options["threads"] = max(1, int(worker.state.nthreads))
        if options.get("exact") and options.get("max_memory") is None:
            # The worker's declared budget for solves, else its Dask memory limit.
            limit = (worker.state.total_resources.get(MEMORY)
                     or worker.memory_manager.memory_limit)
            if limit:
                options["max_memory"] = str(int(limit))
    return _native.rank_pair(json.dumps(options), stream, i, j), address


def _declared_memory(client) -> list:
    """The ``MEMORY`` resource of every worker of ``client`` that declares one."""
    workers = client.scheduler_info(n_workers=-1)["workers"]
    return [w["resources"][MEMORY] for w in workers.values()
            if MEMORY in (w.get("resources") or {})]


def _max_memory_bytes(max_memory) -> Optional[int]:
    """``max_memory`` in bytes (the library reads ``"16GiB"`` and the like)."""
    if max_memory is None:
        return None
    return int(_native.memory_bytes(str(max_memory)))


@_checked
def rank(dice: Union[str, os.PathLike, Sequence[DieLike]], client: Any, *, exact: bool = False,
         store: Union[str, os.PathLike, None] = None, games: Optional[int] = None,
         precision: Optional[float] = None, seed: int = 1, max_rolls: int = 100_000,
         threads: Optional[int] = None, track: Optional[int] = None, offset: Optional[int] = None,
         pieces: Optional[int] = None, goal_fields: Optional[int] = None,
         profile: Optional[str] = None, rules: Optional[Rules] = None, tolerance: float = 1e-9,
         max_memory: Union[int, str, None] = None, memory_constrained: bool = True,
         values: Optional[Sequence[Union[str, os.PathLike]]] = None,
         progress: Optional[Callable[[int, str], Any]] = None) -> RankResult:
    """:func:`wuerfelglueck.rank` with every pair as a task on the workers of ``client``.

    Returns the same :class:`~wuerfelglueck.RankResult` as the local ``rank`` (only
    ``seconds`` differs). ``progress(pairs_done, message)`` hears of every finished pair
    (the message names the pair and the address of the worker that computed it). A dice
    file is read on the client. With ``exact=True`` every exact pair's task asks for the
    ``MEMORY`` resource its solve needs (see the module's documentation); a cluster whose
    workers declare no ``MEMORY`` raises ``ValueError`` unless ``memory_constrained=False``.
    The first failing pair (in pair order) raises the local ranking's ``RuntimeError``; with ``store`` the pairs solved so far are kept.
    ``values``: folders of whole games solved before, as for the local ``rank`` (on a file
    system the workers see); their pairs are read there and need no ``MEMORY``.
    Ctrl-C cancels the tasks not yet finished.
    """
    from distributed import as_completed

    if store is not None:
        # Workers may run in other directories: give them the full path.
        store = os.path.abspath(store)
    if values is not None:
        values = [os.path.abspath(v) for v in values]
    options = _options("rank", dict(**_dice(dice), exact=exact, games=games,
                                    precision=precision, seed=seed, max_rolls=max_rolls,
                                    threads=threads, track=track, offset=offset,
                                    pieces=pieces, goal_fields=goal_fields, profile=profile,
                                    tolerance=tolerance, max_memory=max_memory, store=store,
                                    values=values),
                       rules)
    if not isinstance(memory_constrained, bool):
        raise TypeError(f"memory_constrained must be True or False, not {memory_constrained!r}")
    started = time.monotonic()
    dice, pairs = _native.rank_plan(json.dumps(options))
    # The workers get the dice themselves, not the file they came from.
    options.pop("file", None)
    options["die"] = dice
    largest = None
    if exact and memory_constrained:
        declared = _declared_memory(client)
        if not declared:
            raise ValueError(
                "no worker of the cluster declares the MEMORY resource (the bytes its exact "
                "solves may use), so exact pairs cannot be placed by memory: start the "
                "workers with resources={'MEMORY': bytes} (LocalCluster) or "
                "--resources MEMORY=bytes (dask worker), or pass memory_constrained=False "
                "if memory is not a constraint")
        largest = max(declared)
        cap = _max_memory_bytes(max_memory)
        if cap is not None:
            largest = min(largest, cap)
    futures = {}
    try:
        for stream, (i, j, need) in enumerate(pairs):
            # A pair that fits nowhere is simulated by its worker: it needs no MEMORY.
            resources = {MEMORY: need} if largest is not None and need <= largest else None
            future = client.submit(
                _pair_task, options, stream, i, j,
                key=f"wuerfelglueck-pair-{stream + 1}-of-{len(pairs)}-{os.urandom(4).hex()}",
                resources=resources, pure=False,
            )
            futures[future.key] = (stream, future)
        payloads = [None] * len(pairs)
        for done, future in enumerate(as_completed([f for _, f in futures.values()]), 1):
            stream = futures[future.key][0]
            payloads[stream], address = future.result()
            if progress is not None:
                progress(done, f"pair {stream + 1}/{len(pairs)} done on {address}")
    except BaseException:
        client.cancel([f for _, f in futures.values()])
        raise
    seconds = time.monotonic() - started
    text, table, csv = _native.rank_assemble(json.dumps(options), payloads, seconds)
    return RankResult(json.loads(text), table, csv)
