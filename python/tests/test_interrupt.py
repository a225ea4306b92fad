"""Ctrl-C during a long call: ``KeyboardInterrupt`` at once, the work's threads stop, no
store record is left half-written. One test per command family of the package (``duel``,
``rank`` simulated, ``rank(exact=True, store=...)``, ``solve``).

The SIGINT is sent from inside the call, never by a wall-clock timer: the progress callback
starts a thread that sends it once the call has reported progress, so it arrives while the
work runs, asynchronously, as a user's Ctrl-C does. Each call would run for a long time if
the interrupt were missed, and each test checks that the call stopped before its work was
done (not just that a KeyboardInterrupt came at some point: a signal left pending until the
call returned would raise one too).

A process can run with SIGINT ignored (started in the background of a non-interactive shell,
``cmd &`` in a script, it inherits SIGINT ignored and Python installs no handler): a SIGINT
then does nothing, and the old timer-based test ran its whole 10**8-game duel and failed
with "DID NOT RAISE". The tests therefore install Python's default handler themselves and
check that it is still the handler when the signal is sent.
"""

import os
import signal
import threading
import time

import pytest

import wuerfelglueck as wg

SMALL3 = dict(track=30, offset=15, pieces=3, goal_fields=3)  # an exact pair: about 1.5 s


def work_threads() -> int:
    """The package's work threads in this process: the call's thread is named
    ``wuerfelglueck`` and the threads of its pool inherit the name (Linux names a new
    thread after the thread that created it)."""
    n = 0
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/comm") as f:
                n += f.read().strip() == "wuerfelglueck"
        except FileNotFoundError:  # the thread ended meanwhile
            pass
    return n


def no_work_threads_left() -> bool:
    """Waits (polling) until the work's threads have ended; the limit only bounds a broken
    run, it is not a timing assumption."""
    deadline = time.monotonic() + 300
    while work_threads() and time.monotonic() < deadline:
        time.sleep(0.02)
    return work_threads() == 0


class Interrupter:
    """A progress callback that sends SIGINT to this process, once, the first time
    ``when(games, message)`` holds, from a thread of its own."""

    def __init__(self, when):
        self.when = when
        self.calls = []
        self.sender = None
        self.sent_at = None

    def __call__(self, games: int, message: str) -> None:
        self.calls.append((games, message))
        if self.sender is None and self.when(games, message):
            assert signal.getsignal(signal.SIGINT) is signal.default_int_handler, \
                "SIGINT's handler was replaced during the call"

            def send():
                self.sent_at = time.monotonic()
                os.kill(os.getpid(), signal.SIGINT)

            self.sender = threading.Thread(target=send, name="sigint")
            self.sender.start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.sender is not None:
            self.sender.join()

    @classmethod
    def once_work_runs(cls) -> "Interrupter":
        """An interrupter for a call without a progress callback: a thread that sends SIGINT
        once the call's work thread exists (so the signal can only be seen by the call's own
        polling of Python's signal handler, no Python code runs on the calling thread)."""
        stop = cls(lambda *_: True)

        def watch():
            while not work_threads():
                time.sleep(0.005)
            stop.sent_at = time.monotonic()
            os.kill(os.getpid(), signal.SIGINT)

        stop.sender = threading.Thread(target=watch, name="sigint")
        stop.sender.start()
        return stop

    def interrupted(self, call) -> float:
        """Runs ``call``, which must raise KeyboardInterrupt; returns the seconds from the
        signal to the exception."""
        with pytest.raises(KeyboardInterrupt):
            call()
        raised_at = time.monotonic()
        assert self.sender is not None, "the call never reported progress"
        self.sender.join()
        return raised_at - self.sent_at


@pytest.fixture
def python_sigint():
    """Python's default SIGINT handler for the test (whatever the process inherited), and
    no work thread of an earlier test still winding down."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    assert no_work_threads_left()
    yield
    signal.signal(signal.SIGINT, previous)


# The bound on the delay between the signal and the exception: the call polls every 0.1 s;
# the rest is slack for a loaded machine. A call that missed the signal runs for minutes.
PROMPT = 10.0


def test_ctrl_c_stops_a_duel(python_sigint):
    total = 10**9  # over a core-minute (eight games at a time on AVX-512)
    stop = Interrupter(lambda games, _: games > 0)
    delay = stop.interrupted(lambda: wg.duel("1..6", "1..6", games=total, progress=stop))
    assert delay < PROMPT
    assert max(g for g, _ in stop.calls) < total  # stopped before the end
    assert no_work_threads_left()


def test_ctrl_c_stops_a_call_without_a_progress_callback(python_sigint):
    # 10**10 games: over ten minutes on two cores, should the call not poll the signal.
    with Interrupter.once_work_runs() as stop:
        delay = stop.interrupted(lambda: wg.duel("1..6", "1..6", games=10**10))
    assert delay < PROMPT
    assert no_work_threads_left()


def test_ctrl_c_stops_a_simulated_ranking(python_sigint):
    total = 3 * 10**9
    stop = Interrupter(lambda games, _: games > 0)
    delay = stop.interrupted(
        lambda: wg.rank(["1..6", "2..7", "0..9"], games=10**9, progress=stop))
    assert delay < PROMPT
    assert max(g for g, _ in stop.calls) < total
    assert no_work_threads_left()


def test_ctrl_c_stops_an_exact_ranking_and_its_store_stays_whole(python_sigint, tmp_path, cli):
    store = tmp_path / "store"
    dice = ["1..6", "2..7", "0..9"]
    # Once the second pair has started, the first pair's record is in the store.
    stop = Interrupter(lambda _, message: message.startswith("exact 2/"))
    delay = stop.interrupted(
        lambda: wg.rank(dice, exact=True, store=store, progress=stop, **SMALL3))
    assert delay < PROMPT
    # The pair being solved stops before its next sweep (it is not stored), the next one
    # does not start.
    assert no_work_threads_left()
    names = sorted(p.name for p in store.iterdir())
    assert all(n.endswith(".json") for n in names), names  # no .partial file
    assert 1 <= len(names) < 3, names
    # Every record reads back: the CLI checks a record (dice, board, bounds) when it reads
    # one, and solves only the pairs that are missing.
    board = [x for k, v in SMALL3.items() for x in ("--" + k.replace("_", "-"), v)]
    again = cli("rank", *[x for d in dice for x in ("--die", d)], *board, "--exact",
                "--store", store, "--format", "json")
    assert sum("read from" in n for n in again["notes"]) == len(names), again["notes"]
    assert len(list(store.iterdir())) == 3


def test_ctrl_c_stops_a_solve_within_a_sweep(python_sigint):
    # The whole solve first, as the yardstick: the matrix-free solver spends most of its
    # time (about three quarters) in value sweeps. Interrupted as it starts, the same solve
    # stops before its next sweep, so its threads end in well under half that time instead
    # of the solve running on in the background. Both runs share the machine's load, so the
    # comparison holds on a slow machine too.
    started = time.monotonic()
    wg.solve("1..6", "2..7", pieces=3, matrix_free=True)
    whole = time.monotonic() - started
    stop = Interrupter(lambda _, message: message.startswith("exact"))
    started = time.monotonic()
    delay = stop.interrupted(
        lambda: wg.solve("1..6", "2..7", pieces=3, matrix_free=True, progress=stop))
    assert delay < PROMPT
    assert no_work_threads_left()
    assert time.monotonic() - started < whole / 2, (time.monotonic() - started, whole)


# Ctrl-C after about a second of work, in a process of its own: the call raises at once and
# its work stops within a fraction of a second, whatever the call (issue 52: a duel of 10^11
# games and `wubbel(goal=300)` kept a core busy for about 7 s after KeyboardInterrupt, a
# table of 6 * 10^9 games for minutes). The child reports when its process stopped using
# the CPU; it exits then, so a call whose work runs on is seen as a process that does not end.
CHILD = r"""
import os, signal, sys, time
import wuerfelglueck as wg

signal.signal(signal.SIGINT, signal.default_int_handler)

def cpu_in(seconds):
    start = time.process_time()
    time.sleep(seconds)
    return time.process_time() - start

print("started", flush=True)
try:
    eval(sys.argv[1])
    print("finished before the interrupt", flush=True)
    sys.exit(1)
except KeyboardInterrupt:
    interrupted = time.monotonic()
# Quiet: a tenth of a second in which the process used less than 3 % of a core, then a
# second of confirmation (work that ran on, even starved on a loaded machine, uses more).
while cpu_in(0.1) >= 0.003 and time.monotonic() - interrupted < 60:
    pass
quiet = time.monotonic() - interrupted
print(f"quiet {quiet:.3f} confirmation {cpu_in(1.0):.3f}", flush=True)
os._exit(0)  # at once: nothing is left to finish
"""

LONG_CALLS = [
    # The lanes path (AVX-512) or chunk by chunk: 10^11 games are about 3 core-hours.
    'wg.duel("1..6", "1..6", games=10**11)',
    # A searching strategy: a chunk of its games takes about 25 s.
    'wg.duel("1..6", "1..6", games=10**8, profile="choice", strategy="strong-search-2")',
    'wg.table(["1..6", "2..7", "0..9"], games=6 * 10**9)',
    # The blocks of Wubbel's solve run on the pool's threads (about 7 s in all).
    "wg.wubbel(goal=300)",
    "wg.wubbel(compare=True, simulate=10**9)",
    # A position too large to solve in 1 GB: simulated, game by game.
    'wg.advise("1..6", "1..6", "A:2,9,17,27 B:4,12,15,33 turn:A", 3, rollouts=10**7, '
    'max_memory="1GB")',
    # The sparse solver's search and build of the transitions (seconds before a sweep).
    'wg.solve("1..6", "2..7", pieces=3)',
    # The stopping rules' replicates, each many games for a fine precision.
    'wg.converge("1..6", "2..7", stopping=True, precision=0.0002)',
]

# The work must stop within this many seconds of the signal: measured 0.0 to 0.2 s on two
# cores under the load of other builds (a tenth of a second is the child's resolution),
# against 2 to over 120 s before. The process must end within WAIT.
STOPPED = 2.0
WAIT = 30.0


@pytest.mark.parametrize("call", LONG_CALLS)
def test_ctrl_c_stops_the_work_of_any_long_call_at_once(call, tmp_path):
    import subprocess
    import sys

    child = subprocess.Popen([sys.executable, "-c", CHILD, call], cwd=tmp_path,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "started", child.stderr.read()
        time.sleep(1.0)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=WAIT)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        pytest.fail(f"{call}: still running {WAIT} s after Ctrl-C")
    assert child.returncode == 0, (out, err)
    words = out.split()
    assert words[0] == "quiet", out
    quiet, confirmation = float(words[1]), float(words[3])
    assert quiet < STOPPED, f"{call}: the work ran on for {quiet} s after Ctrl-C"
    assert confirmation < 0.1, f"{call}: {confirmation} s of CPU in the second after it stopped"
