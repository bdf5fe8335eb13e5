"""Take-and-break values on several threads (``threads=``): identical to the
serial kernels and to the definitions for any number of threads, both
kernels, every kind of rule; random calls, valid and invalid, checked in a
child process; bad ``threads``; Ctrl-C while threads run.

The kernels are called with ``thread_work=0`` as well, so the threads start
at n = 0, where the values they wait for are a large part of every option
set (the late options are most of the work there), and with more threads
than cores (which the API does not start), where threads are often off
their core and the others compute their values too."""
import json
import os
import pickle
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading

import numpy as np
import pytest

from grundy import GrundysGame, HexGame, OctalGame, SubtractionGame, TakeAndBreakGame
from grundy._core import octal as kernel
from grundy.impartial.octal.stats import rare as _rare

if __name__ == "__main__":      # a child run (see _fuzz_with_threads): reference.py is in tests/
    sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
from reference import (extend_naive, grundys_game_naive, octal_values_naive,  # noqa: E402
                       subtraction_naive)

THREADS = (1, 2, 3, 4, 8)             # 8: more threads than this machine's cores
MASKS = (0xFFFFFFFE, 0xFFFFFFFF, 0x2, 0x5, 0xFFFFFFF0)


def random_code(rng, base):
    d0 = rng.choice([0, 4] if base == 8 else [0, 4, 8, 12])
    digits = [rng.randrange(base) for _ in range(rng.randrange(1, 5))]
    if not any(digits):
        digits[-1] = rng.randrange(1, base)
    return f"{d0}." + "".join("0123456789ABCDEF"[d] for d in digits)


def plain(game, n, threads, start=0, G=None, thread_work=0):
    """G(0..n-1) by the plain kernel from ``start`` (G[:start] given)."""
    out = np.zeros(n, dtype=np.uint32)
    if start:
        out[:start] = G[:start]
    kernel.plain_extend(out, start, n, *game._rules, game._unequal, threads, thread_work)
    return out


def sparse(game, n, mask, threads, start=0, G=None, thread_work=0):
    """G(0..n-1) by the sparse kernel from ``start`` (G[:start] given)."""
    out = np.zeros(n, dtype=np.uint32)
    if start:
        out[:start] = G[:start]
    kernel.sparse_extend(out, start, n, *game._rules[:3], game._unequal, mask, threads,
                         thread_work)
    return out


# -- against the definitions ----------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_random_octal_codes_every_thread_count(seed):
    rng = random.Random(7000 + seed)
    for _ in range(8):
        code = random_code(rng, 8)
        try:
            game = OctalGame(code)
        except ValueError:
            continue
        n = 150
        expected = octal_values_naive(code, n - 1)
        for threads in THREADS:
            assert plain(game, n, threads).tolist() == expected, (code, threads)
            # Resumed halfway, as the game's cache does.
            half = plain(game, n, threads, start=n // 2, G=np.array(expected, np.uint32))
            assert half.tolist() == expected, (code, threads)
            if game.splits:
                for mask in MASKS:
                    assert sparse(game, n, mask, threads).tolist() == expected, \
                        (code, threads, mask)
            assert OctalGame(code).nim_sequence(n - 1, threads=threads).tolist() == expected


@pytest.mark.parametrize("seed", range(3))
def test_random_hex_codes_three_heaps(seed):
    rng = random.Random(8000 + seed)
    for _ in range(6):
        code = random_code(rng, 16)
        try:
            game = HexGame(code)
        except ValueError:
            continue
        expected = octal_values_naive(code, 59, base=16)
        for threads in THREADS:
            assert plain(game, 60, threads).tolist() == expected, (code, threads)


def test_grundys_game_against_the_definition():
    expected = grundys_game_naive(700)
    game = GrundysGame()
    for threads in THREADS:
        assert plain(game, 701, threads).tolist() == expected, threads
        for mask in MASKS:
            assert sparse(game, 701, mask, threads).tolist() == expected, (threads, mask)
        assert GrundysGame().nim_sequence(700, threads=threads).tolist() == expected


def test_subtraction_games_and_rules_without_splits():
    # No split: the values are computed serially unless thread_work is 0,
    # where the late options are the take1 moves of fewer than `threads` tokens.
    for s in ({1, 2}, {1, 3, 4}, {2, 3, 7}, {1, 5, 6, 11}):
        expected = subtraction_naive(s, 400)
        game = SubtractionGame(s)
        for threads in THREADS:
            assert plain(game, 401, threads).tolist() == expected, (s, threads)
            assert SubtractionGame(s).nim_sequence(400, threads=threads).tolist() == expected
    game = TakeAndBreakGame("t", take0=[3], take1=[1, 2], take2=[0, 2], unequal=True)
    expected = plain(game, 300, 1)
    for threads in THREADS:
        assert np.array_equal(plain(game, 300, threads), expected), threads
        for mask in MASKS:
            assert np.array_equal(sparse(game, 300, mask, threads), expected), (threads, mask)


# -- mid sizes: threads against the serial kernels -----------------------------------------

@pytest.mark.parametrize("make, e", [(GrundysGame, 15), (lambda: OctalGame("0.6"), 15),
                                     (lambda: OctalGame("4.07"), 14),
                                     (lambda: OctalGame("0.51"), 14),
                                     (lambda: OctalGame("4.3"), 13)],
                         ids=["grundy", "0.6", "4.07", "0.51", "4.3"])
def test_mid_sizes_every_thread_count(make, e):
    n = 1 << e
    serial = make().nim_sequence(n, threads=1)
    for threads in (2, 8):
        assert np.array_equal(make().nim_sequence(n, threads=threads), serial), threads
    # The kernels themselves, from the middle, threads from the start.
    game = make()
    G = serial.astype(np.uint32)
    start = 3000
    for threads in (2, 3):
        assert np.array_equal(plain(game, 6000, threads, start, G), G[:6000]), threads
        for mask in (0xFFFFFFFE, 0xFFFFFFFF, 0x6):
            assert np.array_equal(sparse(game, n + 1, mask, threads, start, G), G), \
                (threads, mask)


def test_three_heaps_mid_size():
    game = HexGame("0.8F")
    serial = plain(game, 1200, 1, thread_work=1 << 62)
    for threads in (2, 4):
        assert np.array_equal(plain(game, 1200, threads), serial), threads
        assert np.array_equal(game.nim_sequence(1199, threads=threads), serial)


def test_sparse_counts_its_plain_fallbacks():
    # Mask 0x5 makes most of Grundy's game rare: many values fall back to
    # the plain scan.  The count may differ with threads, the values never.
    game = GrundysGame()
    expected = plain(game, 5000, 1)
    for threads in (1, 2):
        G = np.zeros(5000, dtype=np.uint32)
        count = kernel.sparse_extend(G, 0, 5000, *game._rules[:3], True, 0x5, threads, 0)
        assert np.array_equal(G, expected)
        assert count > 1000, count


def test_periodicity_and_value_with_threads():
    g3000 = grundys_game_naive(3000)[-1]
    for threads in (1, 2, 8, None):
        dawson = OctalGame("0.137")
        assert dawson.periodicity(threads=threads) == (52, 34, 174)
        assert dawson.value(10 ** 100, threads=threads) == 0
        assert OctalGame("0.6").periodicity(4096, threads=threads) is None
        assert GrundysGame().value(3000, threads=threads) == g3000


def test_games_shared_by_python_threads():
    # Two Python threads, each running the kernels on two threads, on one game
    # and on two games.
    expected = GrundysGame().nim_sequence(25000, threads=1)
    shared = GrundysGame()
    results = {}

    def work(key, game, n):
        results[key] = game.nim_sequence(n, threads=2).copy()

    runs = [threading.Thread(target=work, args=(i, shared if i < 2 else GrundysGame(),
                                                 15000 + 2500 * i)) for i in range(4)]
    for t in runs:
        t.start()
    for t in runs:
        t.join()
    for i in range(4):
        assert np.array_equal(results[i], expected[:15000 + 2500 * i + 1]), i


# -- what the kernels keep between calls ------------------------------------------------

@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("code", ["grundy", "0.6"])
def test_state_kept_over_many_calls(code, threads, tmp_path):
    # One ExtendState through ~100 small calls, as TakeAndBreakGame._extend
    # makes them: the mask changes (and back), plain calls in between (which
    # keep no rare list), the buffer replaced by a bigger copy or a memory
    # map, threads from the start or not; then a call that starts below where
    # the state got to (the values recomputed).  Every value as the reference's.
    game = GrundysGame() if code == "grundy" else OctalGame(code)
    N, checked = 12000, 2500
    reference = grundys_game_naive(checked - 1) if code == "grundy" else \
        octal_values_naive(code, checked - 1)
    expected = plain(game, N, 1, thread_work=1 << 62)
    assert expected[:checked].tolist() == reference
    masks = (0xFFFFFFFE, 0xFFFFFFFF, 0x6)
    rng = random.Random(threads * 100 + len(code))
    state = kernel.ExtendState()
    assert state.upto == 0 and state.mask is None and state.rare_count == 0
    G = np.zeros(700, dtype=np.uint32)
    n, calls = 0, 0
    while n < N:
        hi = min(N, n + rng.randrange(1, 300))
        if hi > len(G):
            size = min(N, 2 * len(G))
            if calls % 2:
                bigger = np.lib.format.open_memmap(str(tmp_path / f"G{calls}.npy"), mode="w+",
                                                   dtype=np.uint32, shape=(size,))
            else:
                bigger = np.zeros(size, dtype=np.uint32)
            bigger[:n] = G[:n]
            G = bigger
        # Phases: one mask, another, the plain scan, the first mask, any mix.
        phase = 5 * n // N
        kind = ("a", "b", "plain", "a", rng.choice(["a", "b", "c", "plain"]))[phase]
        work = rng.choice([0, 1024])
        if kind == "plain":
            kernel.plain_extend(G, n, hi, *game._rules, game._unequal, threads, work,
                                state=state)
            assert state.mask is None and state.rare_count == 0
        else:
            mask = masks["abc".index(kind)]
            kernel.sparse_extend(G, n, hi, *game._rules[:3], game._unequal, mask, threads,
                                 work, state=state)
            rare = int(np.count_nonzero(_rare(G[:hi], mask)))
            assert state.mask == mask and state.rare_count == rare, (n, hi, kind)
        assert state.upto == hi
        assert np.array_equal(G[:hi], expected[:hi]), (n, hi, kind)
        n, calls = hi, calls + 1
    assert calls > 60
    # From below where the state got to (as after a MemoryError): rebuilt.
    again = G.copy()
    again[5000:] = 0
    kernel.sparse_extend(again, 5000, N, *game._rules[:3], game._unequal, 0xFFFFFFFE,
                         threads, 0, state=state)
    assert np.array_equal(again, expected) and state.upto == N
    # A copy (pickled) is an empty state.
    fresh = pickle.loads(pickle.dumps(state))
    assert fresh.upto == 0 and fresh.mask is None and "upto=12000" in repr(state)


def test_state_through_the_game():
    # values() in steps, then compute() into a file (the values move to a
    # memory map), then values past the file's end (back to memory): one
    # game, its kept state carried through, on 1 and 2 threads.
    expected = grundys_game_naive(2999)
    full = GrundysGame().nim_sequence(40000, threads=1)
    assert full[:3000].tolist() == expected
    for threads in (1, 2):
        game = GrundysGame()
        for n in (100, 900, 5000, 9000, 9001, 12000):
            assert np.array_equal(game.nim_sequence(n, threads=threads), full[:n + 1])
        with tempfile.TemporaryDirectory() as folder:
            path = f"{folder}/values.npy"
            assert game.compute(25000, path, threads=threads) == 25001
            assert game._kept.upto == 25001
            assert np.array_equal(game.nim_sequence(40000, threads=threads), full)
        assert game._kept.upto == 40001


_RESUME_CHILD = r'''
import json, os, signal, threading, time
import numpy as np
from grundy import GrundysGame
game = GrundysGame()
def fire():
    time.sleep(0.5)
    os.kill(os.getpid(), signal.SIGINT)
threading.Thread(target=fire, daemon=True).start()
try:
    game.nim_sequence(1 << 26, threads={threads})
    report = dict(interrupted=False)
except KeyboardInterrupt:
    known, upto = game._n, game._kept.upto
    # Go on from the interrupted call's state.
    top = known + 30000
    same = np.array_equal(game.nim_sequence(top, threads={threads}),
                          GrundysGame().nim_sequence(top, threads=1))
    report = dict(interrupted=True, known=known, upto=upto, same=bool(same),
                  head=game.nim_sequence(2999).tolist())
print("@@" + json.dumps(report))
'''


def _interrupted_child(src, timeout):
    """Run a child that sends itself SIGINT mid-kernel and prints "@@" and a
    JSON report: the report, after checking the child was interrupted."""
    try:
        proc = subprocess.run([sys.executable, "-c", src], capture_output=True,
                              timeout=timeout, cwd=tempfile.gettempdir())
    except subprocess.TimeoutExpired:
        pytest.fail("no KeyboardInterrupt: the child was still running (killed)")
    lines = [x for x in proc.stdout.decode(errors="replace").splitlines() if x.startswith("@@")]
    assert lines, f"the child died: exit {proc.returncode}, {proc.stderr.decode()[-800:]}"
    rep = json.loads(lines[-1][2:])
    assert rep["interrupted"], "the run finished before the SIGINT, or swallowed it"
    return rep


@pytest.mark.parametrize("threads", [1, 2])
def test_state_after_ctrl_c(threads):
    # An interrupted call leaves the state at the values it finished, and
    # the next calls go on from it.
    rep = _interrupted_child(_RESUME_CHILD.format(threads=threads), 60)
    # The state covers the values finished: exactly those when the signal
    # lands in the kernel; more when it lands in Python between two calls
    # (the kernel's last chunk done, the game not told): the next call then
    # starts below the state's end and reads G from 0 again.
    assert rep["known"] > 8192 and rep["upto"] >= rep["known"], rep
    assert rep["same"] and rep["head"] == grundys_game_naive(2999)


def test_state_used_by_one_call_at_a_time():
    # Two Python threads calling the kernels with one state at once: the
    # second is refused (a ValueError), never a corrupted state.
    game = GrundysGame()
    expected = plain(game, 30000, 1, thread_work=1 << 62)
    state = kernel.ExtendState()
    G = np.zeros(30000, dtype=np.uint32)
    errors = []

    def work():
        try:
            kernel.sparse_extend(G, 0, 30000, *game._rules[:3], True, 0xFFFFFFFE, 1,
                                 state=state)
        except ValueError as exc:
            errors.append(str(exc))

    runs = [threading.Thread(target=work) for _ in range(2)]
    for t in runs:
        t.start()
    for t in runs:
        t.join()
    assert np.array_equal(G, expected)
    assert all("in use" in e for e in errors) and len(errors) <= 1
    assert state.upto == 30000


# -- the option -------------------------------------------------------------------------

def test_openmp_flag_and_thread_cap():
    assert kernel.OPENMP in (True, False)
    # The API starts at most one thread per usable core (more could only
    # wait for each other, and a thousand threads may not even start).
    expected = GrundysGame().nim_sequence(9000, threads=1)
    assert np.array_equal(GrundysGame().nim_sequence(9000, threads=1024), expected)


def test_cli_octal_threads():
    outs = set()
    for t in ("1", "2", "7"):
        r = subprocess.run([sys.executable, "-m", "grundy", "octal", "grundy", "30000",
                            "--period", "--threads", t], capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 0, r.stderr
        outs.add(r.stdout)
    assert len(outs) == 1
    values = outs.pop().split("\n")[0].split()
    assert values[:3001] == [str(v) for v in grundys_game_naive(3000)]
    r = subprocess.run([sys.executable, "-m", "grundy", "octal", "0.137", "50", "--threads",
                        "0"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "grundy: error:" in r.stderr and "got '0'" in r.stderr


@pytest.mark.parametrize("bad, exc, message", [
    (0, ValueError, r"threads must be >= 1.*got 0"),
    (-3, ValueError, r"threads.*got -3"),
    (10 ** 6, ValueError, r"threads.*1[,_]?000[,_]?000"),
    (1.5, TypeError, r"threads.*1\.5"),
    ("2", TypeError, r"threads.*'2'"),
    (True, TypeError, r"threads.*True"),
])
def test_bad_threads(bad, exc, message):
    game = GrundysGame()
    with pytest.raises(exc, match=message):
        game.nim_sequence(10, threads=bad)
    with pytest.raises(exc, match=message):
        game.value(10, threads=bad)
    with pytest.raises(exc, match=message):
        game.periodicity(100, threads=bad)
    G = np.zeros(10, dtype=np.uint32)
    with pytest.raises(exc, match=message):
        kernel.plain_extend(G, 0, 10, *game._rules, True, bad)
    with pytest.raises(exc, match=message):
        kernel.sparse_extend(G, 0, 10, *game._rules[:3], True, 1, bad)
    assert game._n == 0 and not G.any()                 # nothing was computed


def _extend_problems(G, start, stop, rules):
    """Why the kernels must refuse a call, as (regex of the ValueError's
    message, why): [] if they must not (a valid call)."""
    found = []
    if not 0 <= start <= stop <= len(G):
        found.append((r"0 <= start <= stop <= len\(G\)", "start, stop outside G"))
    if any(k < 0 for rule in rules for k in rule.tolist()):
        found.append(("move rules must take k >= 0", "a negative k"))
    if 0 in rules[1].tolist():
        found.append(("take|token|rule", "take1 holds 0: a move that leaves the heap as it is, "
                      "G(n) an option of itself, read before it is computed"))
    return found


def _check_threaded_call(G, start, stop, rules, unequal, mask, threads):
    """One call of plain_extend (``mask`` None) or sparse_extend on
    ``threads`` threads from n = 0 (thread_work 0): for a valid call, the
    values of the serial kernel and of the definition; else the error, G
    unchanged.  Returns "valid" or "invalid"."""
    def run(values, threads):
        if mask is None:
            return kernel.plain_extend(values, start, stop, *rules, unequal, threads, 0)
        return kernel.sparse_extend(values, start, stop, *rules, unequal, mask, threads, 0)

    rules = rules if mask is None else rules[:3]
    problems = _extend_problems(G, start, stop, rules)
    before = G.copy()
    if problems:
        wanted = " or ".join(f"ValueError /{p}/ ({why})" for p, why in problems)
        try:
            run(G, threads)
        except ValueError as exc:
            assert any(re.search(p, str(exc), re.I) for p, _ in problems), \
                f"ValueError: {exc}; expected {wanted}"
        except Exception as exc:        # the type is what is checked
            raise AssertionError(f"{type(exc).__name__}: {exc}; expected {wanted}") from None
        else:
            raise AssertionError(f"no error; expected {wanted}")
        assert np.array_equal(G, before), f"G changed: {G.tolist()}"
        return "invalid"
    serial = before.copy()
    run(serial, 1)
    result = run(G, threads)
    expected = extend_naive(before.tolist(), start, stop, *[r.tolist() for r in rules],
                            unequal=unequal)
    assert G[:stop].tolist() == expected, f"G = {G[:stop].tolist()}, by definition {expected}"
    assert np.array_equal(G, serial), f"G = {G.tolist()}, serially {serial.tolist()}"
    if mask is None:
        assert result == stop, result
    else:
        assert 0 <= result <= stop - start, f"{result} values by the plain scan"
    return "valid"


def _fuzz_with_threads(seed, rounds=1000):
    """The child of test_kernels_with_garbage_and_threads: random calls,
    valid two times out of three, each checked; each call is written to
    stderr before it is made (the last line names a call that crashes).
    Returns the calls checked by kernel and kind, and the failed checks."""
    rng = random.Random(seed)
    counts = {"plain_extend": {"valid": 0, "invalid": 0},
              "sparse_extend": {"valid": 0, "invalid": 0}}
    failures = []
    for _ in range(rounds):
        G = np.array([rng.randrange(0, 9) for _ in range(rng.randrange(0, 40))],
                     dtype=np.uint32)
        if rng.random() < 0.75:
            start = rng.randrange(0, len(G) + 1)
            stop = rng.randrange(start, len(G) + 1)
        else:
            start, stop = rng.randrange(-2, 45), rng.randrange(-2, 45)
        rules = []
        for i in range(4):          # take0..take3: k >= 1 (k >= 0 for splits), or a bad k
            rule = [rng.randrange(1 if i < 2 else 0, 6) for _ in range(rng.randrange(0, 4))]
            if rng.random() < 0.04:
                rule.append(rng.choice([-1, 0] if i == 1 else [-1, -3]))
            rules.append(np.array(rule, dtype=np.int64))
        unequal = rng.random() < 0.5
        threads = rng.choice([2, 3, 8])
        for name, mask in (("plain_extend", None),
                           ("sparse_extend", rng.choice([rng.randrange(0, 16), 0xFFFFFFFE]))):
            text = (f"{name}(G={G.tolist()}, start={start}, stop={stop}, "
                    f"rules={[r.tolist() for r in rules]}, unequal={unequal}, mask={mask}, "
                    f"threads={threads})")
            sys.stderr.write(text + "\n")
            sys.stderr.flush()
            try:
                kind = _check_threaded_call(G.copy(), start, stop, rules, unequal, mask, threads)
            except Exception as exc:    # any failure: reported, with the call
                failures.append(f"{text}: {exc}" if isinstance(exc, AssertionError) else
                                f"{text}: raised {type(exc).__name__}: {exc}")
                sys.stderr.write(f"FAILED: {failures[-1]}\n")
            else:
                counts[name][kind] += 1
    return {"calls": counts, "failed": len(failures), "failures": failures[:8]}


@pytest.mark.parametrize("seed", range(2))
def test_kernels_with_garbage_and_threads(seed):
    # Random calls on 2, 3 and 8 threads, in a child process (a crash kills
    # it, not pytest): a valid call gives the serial kernel's values and the
    # definition's, an invalid one a ValueError naming its problem, G as it
    # was.
    proc = subprocess.run([sys.executable, os.path.abspath(__file__), "garbage", str(seed)],
                          capture_output=True, text=True, timeout=120)
    lines = proc.stderr.splitlines()
    failed = [x for x in lines if x.startswith("FAILED: ")]
    if proc.returncode < 0:
        pytest.fail(f"CRASHED, killed by {signal.Signals(-proc.returncode).name}: a kernel "
                    f"crashed the interpreter.  The last calls (the last one made the crash, "
                    f"or an earlier one corrupted memory):\n" + "\n".join(lines[-3:]) +
                    f"\n{len(failed)} calls failed their check before, the first ones:\n" +
                    "\n".join(failed[:5]))
    reports = [x for x in proc.stdout.splitlines() if x.startswith("@@")]
    assert reports, f"the child died (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
    report = json.loads(reports[-1][2:])
    assert report["failed"] == 0, \
        f"{report['failed']} calls failed their check (the first ones below); calls " \
        f"checked: {report['calls']}\n" + "\n".join(report["failures"])
    assert proc.returncode == 0, proc.stderr[-3000:]
    for name, got in report["calls"].items():
        assert got["valid"] >= 400 and got["invalid"] >= 200, (name, got)


# -- Ctrl-C --------------------------------------------------------------------------------

CTRL_C_LIMIT = 2.0

_SIGINT_CHILD = r'''
import json, os, signal, threading, time
import numpy as np
from grundy import GrundysGame
game = GrundysGame()
t = [None]
def fire():
    time.sleep(1.0)
    t[0] = time.monotonic()
    os.kill(os.getpid(), signal.SIGINT)
threading.Thread(target=fire, daemon=True).start()
try:
    game.nim_sequence(1 << 26, kernel={kernel!r}, threads={threads})
    report = dict(interrupted=False)
except KeyboardInterrupt:
    latency = time.monotonic() - t[0]
    known = game._n
    check = min(known, 6000)
    same = np.array_equal(game.nim_sequence(check - 1, threads=1),
                          GrundysGame().nim_sequence(check - 1, threads=1))
    report = dict(interrupted=True, latency=latency, known=known, same=bool(same))
print("@@" + json.dumps(report))
'''


@pytest.mark.parametrize("kernel_name, threads", [("auto", 2), ("plain", 2), ("auto", 8)])
def test_ctrl_c_stops_the_threads(kernel_name, threads):
    src = _SIGINT_CHILD.format(kernel=kernel_name, threads=threads)

    rep = _interrupted_child(src, 20)
    assert rep["latency"] < CTRL_C_LIMIT, f"KeyboardInterrupt {rep['latency']:.2f} s after SIGINT"
    assert rep["known"] > 1000 and rep["same"], rep


if __name__ == "__main__":
    report = _fuzz_with_threads(int(sys.argv[2]))      # argv[1]: "garbage"
    print("@@" + json.dumps(report))
    sys.exit(1 if report["failed"] else 0)
