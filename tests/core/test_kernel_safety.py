"""The compiled kernels, called directly with random arrays, valid and not.

Each kernel's contract (its docstring) is restated here by a small
validator.  A call the validator finds valid must succeed and give what a
slow reference in Python gives (``reference.py``); an invalid one must raise
the error the kernel documents, its message naming the problem, and leave
its output arrays as they were.  The inputs are mostly valid (a third to
two thirds, kernel by kernel), then broken in one way or another.  Where a
kernel leaves a precondition to its caller unchecked (the order of
``sums_grundy``, the reverse tables of police and thief), such inputs are
"unchecked" calls: they must not crash nor raise, and their results must
stay in the documented domain.

Every fuzz run happens in a child process: this file run as a script with a
case and a seed (``python test_kernel_safety.py graphs 0``).  A kernel that
crashes kills the child, not pytest, and is reported as a crash, with the
last calls it made (the child writes each call to stderr before making it).
The child prints the calls it checked, kernel by kernel, as JSON, and the
test checks that valid and invalid calls of every kernel were made.
"""
import bisect
import collections
import contextlib
import json
import os
import random
import re
import signal
import subprocess
import sys

import numpy as np
import pytest

from grundy import GameGraph
from grundy._core import blocks, csr, explore, grundy as kgrundy, loopy, octal, police, retrograde

if __name__ == "__main__":              # a child run: reference.py is in tests/
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from reference import (DRAW, INF, LOSS, TIE, WIN, extend_naive, find_period_naive,  # noqa: E402
                       first_keeping_moves, grundy_recursive, loopy_staged, mex,
                       solve_positions)

INT64_MIN, INT64_MAX = -2 ** 63, 2 ** 63 - 1
MAX_CODES = 2 ** 40 - 1                   # the most codes a CodeTable holds
DTYPE = (ValueError, "dtype mismatch")    # an array of the wrong dtype (Cython's check)
REM_DTYPE = (TypeError, "no matching signature")   # a remoteness neither uint16 nor int32
STATUSES = ("ok", "overflow", "memory limit")


# -- the child's bookkeeping ----------------------------------------------------------------

def show(value):
    if isinstance(value, np.ndarray):
        return f"{value.dtype}{value.tolist()}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(show(v) for v in value) + "]"
    return repr(value)


class Calls:
    """The calls a child checked, kernel -> {"valid": k, "invalid": k, ...},
    and those that failed their check (the fuzzing goes on after one, so
    that one bug does not hide the others)."""

    def __init__(self):
        self.counts = collections.defaultdict(collections.Counter)
        self.failures = []

    @contextlib.contextmanager
    def check(self, kernel, kind, **inputs):
        """One call of ``kernel`` (``kind``: valid, invalid or unchecked),
        written to stderr before it is made; a failed check is kept, with
        the call."""
        text = f"{kernel}({', '.join(f'{k}={show(v)}' for k, v in inputs.items())})"
        sys.stderr.write(f"{kind} call {text}\n")
        sys.stderr.flush()
        try:
            yield
        except Exception as exc:    # any failure: reported, with the call
            reason = str(exc) if isinstance(exc, AssertionError) else \
                f"raised {type(exc).__name__}: {exc}"
            self.failures.append(f"{kind} call {text}: {reason}")
            sys.stderr.write(f"FAILED: {self.failures[-1]}\n")
            self.counts[kernel]["failed"] += 1
        else:
            self.counts[kernel][kind] += 1

    def summary(self):
        return {"calls": {kernel: dict(c) for kernel, c in sorted(self.counts.items())},
                "failed": len(self.failures), "failures": self.failures[:8]}


def raises(problems, fn, *args, **kwargs):
    """Call fn, which must raise one of the errors of ``problems`` (a list of
    (type, message regex) or (type, message regex, why the input is bad))."""
    assert problems
    wanted = " or ".join(p[0].__name__ + (f" /{p[1]}/" if p[1] else "") +
                         (f" ({p[2]})" if p[2:] else "") for p in problems)
    try:
        fn(*args, **kwargs)
    except Exception as exc:    # the type is what is checked
        if not any(isinstance(exc, p[0]) and re.search(p[1], str(exc), re.I) for p in problems):
            raise AssertionError(f"raised {type(exc).__name__}: {exc}; expected {wanted}") \
                from None
        return
    raise AssertionError(f"no error; expected {wanted}")


def same(a, b):
    """Two arrays with the same dtype, shape and values."""
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)


def random_ints(rng, lo, hi, size, dtype=np.int64):
    return np.array([rng.randrange(lo, hi) for _ in range(size)], dtype=dtype)


# -- explicit graphs ------------------------------------------------------------------------

def csr_problems(indptr, indices):
    """Why (indptr, indices) is not a CSR graph (check_csr): [] if it is one."""
    p, ix = indptr.tolist(), indices.tolist()
    n = len(p) - 1
    if n < 0:
        return [(ValueError, "at least one entry")]
    found = []
    if p[0] != 0:
        found.append((ValueError, r"indptr\[0\] must be 0"))
    if p[-1] != len(ix):
        found.append((ValueError, r"must equal len\(indices\)"))
    if any(a > b for a, b in zip(p, p[1:])):
        found.append((ValueError, "non-decreasing"))
    if any(not 0 <= v < n for v in ix):
        found.append((ValueError, "is not a vertex"))
    return found


def successors(indptr, indices):
    return [indices[indptr[v]:indptr[v + 1]].tolist() for v in range(len(indptr) - 1)]


def random_csr(rng):
    """(indptr, indices): a random graph (often acyclic, multi-edges and
    self-loops allowed), broken in one of several ways a third of the time."""
    n = rng.randrange(0, 10)
    succ = [[] for _ in range(n)]
    dag = rng.random() < 0.4
    perm = rng.sample(range(n), n)
    for _ in range(rng.randrange(0, 3 * n + 1)):
        u, v = rng.randrange(n), rng.randrange(n)
        if dag:
            if u == v:
                continue
            u, v = perm[min(u, v)], perm[max(u, v)]
        succ[u].append(v)
    indptr = np.cumsum([0] + [len(s) for s in succ]).astype(np.int64)
    indices = np.array([v for s in succ for v in s], dtype=np.int64)
    if rng.random() < 0.35:
        how = rng.randrange(7)
        if how == 0:
            indptr = indptr[:0]
        elif how == 1:
            indptr[0] = rng.choice([-1, 1])
        elif how == 2:
            indptr[-1] += rng.choice([-1, 1])
        elif how == 3 and len(indptr) > 2:
            i = rng.randrange(1, len(indptr) - 1)
            indptr[i] = indptr[i + 1] + 1
        elif how == 4 and len(indices):
            indices[rng.randrange(len(indices))] = rng.choice([-1, n, n + 5, INT64_MIN])
        elif how == 5:
            indices = np.append(indices, rng.randrange(n + 1)).astype(np.int64)
        else:                   # the old garbage
            indptr = random_ints(rng, -3, 8, rng.randrange(0, 6))
            indices = random_ints(rng, -3, 8, rng.randrange(0, 6))
    return indptr, indices


def has_cycle(n, succ):
    """A cycle is what is left after removing, again and again, the
    vertices whose successors were all removed."""
    left = set(range(n))
    while True:
        sinks = {v for v in left if all(w not in left for w in succ[v])}
        if not sinks:
            return bool(left)
        left -= sinks


def check_edges_to_csr(rng, calls, succ):
    n = len(succ)
    edges = [(u, v) for u in range(n) for v in succ[u]]
    rng.shuffle(edges)
    src = np.array([u for u, _ in edges], dtype=np.int64)
    dst = np.array([v for _, v in edges], dtype=np.int64)
    size = n
    how = rng.randrange(30)
    if how < 4:
        size = rng.choice([-1, 0, max(n - 1, 0), INT64_MIN])
    elif how < 7:
        dst = np.append(dst, 0).astype(np.int64)
    elif how < 10 and len(src):
        (src if rng.random() < 0.5 else dst)[rng.randrange(len(src))] = rng.choice([-1, n, 99])
    elif how == 10:
        size = rng.choice([2 ** 61, 2 ** 62, INT64_MAX])        # an indptr too big to exist
    problems = []
    if len(src) != len(dst):
        problems.append((ValueError, "differ in length"))
    if size < 0:
        problems.append((ValueError, "n must be >= 0"))
    if any(not (0 <= u < size and 0 <= v < size) for u, v in zip(src.tolist(), dst.tolist())):
        problems.append((ValueError, "outside the valid range|has no vertices"))
    if not problems and 8 * (size + 1) > INT64_MAX:
        problems.append((MemoryError, "", "the arrays returned cannot be allocated: csr.pyx "
                         "says a failure to allocate them is a MemoryError"))
    kind = "invalid" if problems else "valid"
    with calls.check("edges_to_csr", kind, src=src, dst=dst, n=size):
        if problems:
            raises(problems, csr.edges_to_csr, src, dst, size)
            return
        indptr, indices = csr.edges_to_csr(src, dst, size)
        pairs = list(zip(src.tolist(), dst.tolist()))
        assert indptr.dtype == indices.dtype == np.int64
        assert indptr.tolist() == [sum(u < v for u, _ in pairs) for v in range(size + 1)]
        # Stable: each vertex's successors in the order its edges came.
        assert indices.tolist() == [v for w in range(size) for u, v in pairs if u == w]


def random_labels(rng, n):
    """None, or an int8 array of fixed outcomes (mostly none), sometimes bad."""
    if rng.random() < 0.35:
        return None
    labels = np.array([rng.choice([0, 0, 0, WIN, LOSS, TIE]) for _ in range(n)], dtype=np.int8)
    if rng.random() < 0.1:
        # Another integer type (converted, as the CSR arrays are): the values
        # must be labels all the same, not become labels once cast to int8.
        labels = np.array([rng.choice([0, 0, WIN, LOSS, TIE, -2, 255, 256, 257, 258, 300, -129])
                           for _ in range(n)], dtype=rng.choice([np.int16, np.int64]))
    elif rng.random() < 0.2:
        if n and rng.random() < 0.5:
            labels[rng.randrange(n)] = rng.choice([-2, 3, 100, -128])
        else:
            labels = np.zeros(rng.choice([n + 1, max(n - 1, 0), 0]), dtype=np.int8)
    return labels


def label_problems(labels, n):
    if labels is None:
        return []
    if labels.shape != (n,):
        return [(ValueError, "labels has shape")]
    bad = [v for v in labels.tolist() if v not in (0, WIN, LOSS, TIE)]
    if bad:
        return [(ValueError, "label of vertex", f"{bad[0]} is not a label")]
    return []


def reference_solve(succ, labels, misere):
    """Outcome and remoteness (-1 at draws) of every vertex, by rounds."""
    n = len(succ)
    fixed = {} if labels is None else {v: int(x) for v, x in enumerate(labels.tolist()) if x}
    outcome, rem = solve_positions(dict(enumerate(succ)), fixed, misere=misere)
    return [outcome[v] for v in range(n)], [rem[v] for v in range(n)], fixed


def check_solve(rng, calls, kernel, src, n, succ, fixed, misere, **inputs):
    """retrograde.solve on a source: its raw outputs (state bytes as int8
    outcomes, remoteness 0 at draws) against the reference (``succ`` and
    ``fixed``: the rules, restated; None for a source that breaks a
    precondition of its own, when only the output's domain is checked).
    Returns (outcome, remoteness) if the solve was valid, else None."""
    # The arrays as a caller gives them (not zeroed), two times out of three;
    # else something may be off: a length, the remoteness type, the threads.
    fine = rng.random() < 0.65
    state = random_ints(rng, 0, 256, n if fine else rng.choice([n, n + 1, max(n - 1, 0)]),
                        np.uint8)
    rem = random_ints(rng, 0, 100, n if fine else rng.choice([n, n, n + 1]),
                      rng.choice([np.uint16, np.int32] if fine else
                                 [np.uint16, np.int32, np.int64]))
    threads = rng.choice([1, 1, 2] if fine else [1, 2, 0, 1025])
    problems = []
    if rem.dtype not in (np.uint16, np.int32):
        problems.append(REM_DTYPE)
    if not 1 <= threads <= 1024:
        problems.append((ValueError, "threads must be"))
    if len(state) != n or len(rem) != n:
        problems.append((ValueError, rf"must have {n} entries"))
    kind = "invalid" if problems else ("valid" if succ is not None else "unchecked")
    before = state.copy(), rem.copy()
    with calls.check(kernel, kind, state=state, remoteness=rem, misere=misere,
                     threads=threads, **inputs):
        if problems:
            raises(problems, retrograde.solve, src, state, rem, misere, threads=threads)
            assert same(state, before[0]) and same(rem, before[1]), "outputs written"
            return None
        status = retrograde.solve(src, state, rem, misere, threads=threads)
        outcome = state.view(np.int8)
        if succ is None:
            assert status in STATUSES, status
            assert set(outcome.tolist()) <= {WIN, LOSS, DRAW, TIE}, outcome
            return None
        assert status == "ok", status
        expected, expected_rem, _ = reference_solve(succ, fixed_array(fixed, n), misere)
        assert outcome.tolist() == expected, f"outcome {outcome.tolist()} != {expected}"
        assert rem.tolist() == [max(r, 0) for r in expected_rem], \
            f"remoteness {rem.tolist()} != {expected_rem} (0 at draws)"
        return outcome.copy(), rem.copy()


def fixed_array(fixed, n):
    labels = np.zeros(n, dtype=np.int8)
    for v, x in fixed.items():
        labels[v] = x
    return labels


def in_domain(rng, n):
    """An outcome and remoteness as a solve leaves them (remoteness 0 at
    draws), at random: the move rule is defined for any such pair."""
    outcome = np.array([rng.choice([WIN, LOSS, DRAW, TIE]) for _ in range(n)], dtype=np.int8)
    rem = np.array([0 if o == DRAW else rng.randrange(0, 4) for o in outcome.tolist()],
                   dtype=rng.choice([np.uint16, np.int32]))
    return outcome, rem


def check_best_moves(rng, calls, kernel, src, n, succ, fixed, solved, **inputs):
    """retrograde.best_moves of a source, against the move rule applied to
    the rules restated (``succ``, ``fixed``): each position's first
    successor that keeps its value."""
    outcome, rem = solved if solved is not None and rng.random() < 0.7 else in_domain(rng, n)
    start = rng.randrange(0, n + 1)
    stop = rng.randrange(start, n + 1)
    extra = [0, 0, 2]               # room past stop - start: left as it was
    threads = [1, 1, 2]
    if rng.random() < 0.35:         # something may be off
        how = rng.randrange(6)
        if how == 0:
            outcome = outcome.astype(np.uint8)
        elif how == 1:
            rem = rem.astype(np.int64)
        elif how == 2:
            outcome, rem = (outcome, rem[:-1]) if rng.random() < 0.5 else (outcome[:-1], rem)
        elif how == 3:
            start, stop = rng.randrange(-1, n + 2), rng.randrange(-1, n + 2)
        elif how == 4:
            extra = [-1]
        else:
            threads = [0, -1]
    k = stop - start
    move = random_ints(rng, -9, 9, max(k + rng.choice(extra), 0))
    wide = rng.choice([None, random_ints(rng, -9, 9, max(k + rng.choice(extra), 0))])
    threads = rng.choice(threads)
    problems = []
    if rem.dtype not in (np.uint16, np.int32):
        problems.append(REM_DTYPE)
    if outcome.dtype != np.int8:
        problems.append(DTYPE)
    if threads < 1:
        problems.append((ValueError, "threads must be"))
    if len(outcome) != n or len(rem) != n:
        problems.append((ValueError, rf"must have {n} entries"))
    if not 0 <= start <= stop <= n or len(move) < k:
        problems.append((ValueError, "do not fit"))
    if wide is not None and len(wide) < k:
        problems.append((ValueError, "do not fit the remoteness array"))
    kind = "invalid" if problems else "valid"
    before = move.copy(), None if wide is None else wide.copy()
    with calls.check(kernel, kind, outcome=outcome, remoteness=rem, start=start, stop=stop,
                     move=move, wide=wide, threads=threads, **inputs):
        if problems:
            raises(problems, retrograde.best_moves, src, outcome, rem, start, stop, move,
                   threads, wide)
        else:
            retrograde.best_moves(src, outcome, rem, start, stop, move, threads, wide)
            expected = first_keeping_moves(dict(enumerate(succ)), fixed, outcome.tolist(),
                                           rem.tolist())
            assert move[:k].tolist() == [expected[v] for v in range(start, stop)], \
                f"moves {move[:k].tolist()}, expected {[expected[v] for v in range(start, stop)]}"
            assert same(move[k:], before[0][k:]), "move written past stop - start"
            if wide is not None:
                shown = [-1 if o == DRAW else r for o, r in zip(outcome.tolist(), rem.tolist())]
                assert wide[:k].tolist() == shown[start:stop], wide
                assert same(wide[k:], before[1][k:]), "wide written past stop - start"
            return
        assert same(move, before[0]), "move written"
        assert wide is None or same(wide, before[1]), "wide written"


def check_graph_kernels(rng, calls):
    indptr, indices = random_csr(rng)
    problems = csr_problems(indptr, indices)
    n = len(indptr) - 1
    with calls.check("check_csr", "invalid" if problems else "valid",
                     indptr=indptr, indices=indices):
        if problems:
            raises(problems, csr.check_csr, indptr, indices)
        else:
            assert csr.check_csr(indptr, indices) is None
    succ = None if problems else successors(indptr, indices)
    check_edges_to_csr(rng, calls, succ if succ is not None else
                       [[] for _ in range(rng.randrange(0, 4))])

    # The CSR plug-in, and the engine's driver and best moves on it.
    labels = random_labels(rng, max(n, 0))
    src_problems = problems or label_problems(labels, n)
    source = None
    with calls.check("CSRSource", "invalid" if src_problems else "valid",
                     indptr=indptr, indices=indices, labels=labels):
        if src_problems:
            raises(src_problems, csr.CSRSource, indptr, indices, labels,
                   threads=rng.choice([1, 2]))
        else:
            source = csr.CSRSource(indptr, indices, labels, threads=rng.choice([1, 2]))
            assert source.n_positions == n
            assert source.max_successors >= max([len(s) for s in succ], default=0)
    if source is not None:
        misere = rng.random() < 0.5
        fixed = {v: int(x) for v, x in enumerate(labels.tolist()) if x} if labels is not None \
            else {}
        solved = check_solve(rng, calls, "solve(CSRSource)", source, n, succ, fixed, misere,
                             indptr=indptr, indices=indices, labels=labels)
        check_best_moves(rng, calls, "best_moves(CSRSource)", source, n, succ, fixed, solved,
                         indptr=indptr, indices=indices, labels=labels)
        if solved is not None and rng.random() < 0.3:
            # Cross-check: the public solve of the same graph.
            sol = GameGraph.from_csr(indptr, indices).solve(misere=misere,
                                                            labels=fixed_array(fixed, n),
                                                            threads=1)
            assert sol.outcome.tolist() == solved[0].tolist()
            assert sol.remoteness.tolist() == [-1 if o == DRAW else r for o, r in
                                               zip(solved[0].tolist(), solved[1].tolist())]
            outcome, rem, _ = reference_solve(succ, fixed_array(fixed, n), misere)
            moves = first_keeping_moves(dict(enumerate(succ)), fixed, outcome, rem)
            assert sol.move.tolist() == [moves[v] for v in range(n)]

    # Grundy values: acyclic graphs (or a cycle found), and games with cycles.
    for name in ("dag_grundy", "loopy_grundy"):
        value = random_ints(rng, -5, 9, rng.choice([n, n, n, n + 2, max(n - 1, 0)]) if n >= 0
                            else rng.randrange(0, 3))
        vproblems = problems or ([(ValueError, "value has length")] if len(value) != n else [])
        with calls.check(name, "invalid" if vproblems else "valid",
                         indptr=indptr, indices=indices, value=value):
            before = value.copy()
            if vproblems:
                raises(vproblems, getattr(kgrundy if name == "dag_grundy" else loopy, name),
                       indptr, indices, value)
                assert same(value, before), "value written"
            elif name == "dag_grundy":
                cycle = kgrundy.dag_grundy(indptr, indices, value)
                if has_cycle(n, succ):
                    assert cycle is not None, "no cycle found"
                    c = cycle.tolist()
                    assert c and all(c[(i + 1) % len(c)] in succ[c[i]] for i in range(len(c))), \
                        f"{c} is not a cycle"
                else:
                    assert cycle is None, f"cycle {cycle} in an acyclic graph"
                    assert value.tolist() == grundy_recursive(n, succ)
            else:
                stages = loopy.loopy_grundy(indptr, indices, value)
                expected = [-1 if isinstance(g, tuple) and g[0] == INF else g
                            for g in loopy_staged(n, succ)]
                assert value.tolist() == expected, f"{value.tolist()} != {expected}"
                # One stage a finite value, and perhaps one that finds none.
                top = max([g for g in expected if g >= 0], default=-1)
                assert (stages == 0) if n == 0 else top + 1 <= stages <= top + 2, stages

    check_sums_grundy(rng, calls)


def random_sums(rng):
    """The arguments of sums_grundy: ``first`` old positions (their values
    given), new ones whose options are sums of old positions and of new ones
    earlier in ``order``; then, half the time, something broken."""
    first = rng.randrange(0, 4)
    n_new = rng.randrange(0, 6)
    order = [first + i for i in rng.sample(range(n_new), n_new)]
    options = {}
    for i, p in enumerate(order):
        earlier = list(range(first)) + order[:i]
        options[p] = [[rng.choice(earlier) for _ in range(rng.randrange(0, 4) if earlier else 0)]
                      for _ in range(rng.randrange(0, 4))]
    option_ptr, component_ptr, components = [0], [0], []
    for p in range(first, first + n_new):
        for comps in options[p]:
            components += comps
            component_ptr.append(len(components))
        option_ptr.append(len(component_ptr) - 1)
    value = [rng.randrange(0, 6) for _ in range(first)] + \
        [rng.randrange(-3, 9) for _ in range(n_new + rng.choice([0, 0, 0, 2]))]
    args = [order, first, option_ptr, component_ptr, components, value]
    if rng.random() < 0.5:
        how = rng.randrange(10)
        i = rng.randrange(6)
        if how == 0:
            args[i] = args[i][:-1] if i != 1 else -1          # one entry short
        elif how == 1 and i in (2, 3):
            args[i] = args[i] + [args[i][-1] + 1]
        elif how == 2 and len(option_ptr) > 2:
            args[2] = option_ptr[:]
            args[2][1] = option_ptr[-1] + 1                  # not non-decreasing
        elif how == 3 and len(component_ptr) > 2:
            args[3] = component_ptr[:]
            args[3][1] = component_ptr[-1] + 1
        elif how == 4 and components:
            args[4] = components[:]
            args[4][rng.randrange(len(components))] = rng.choice([-1, first + n_new, 99])
        elif how == 5 and order:
            args[0] = order[:]
            args[0][rng.randrange(len(order))] = rng.choice([first - 1, first + n_new])
        elif how == 6:
            args[0] = order[::-1]                            # maybe not an order any more
        elif how == 7 and order:
            args[0] = order[:-1] if rng.random() < 0.5 else order + [order[0]]
        elif how == 8:
            args[2] = option_ptr[:1] if rng.random() < 0.5 else []
    order, first, option_ptr, component_ptr, components, value = args
    return (np.array(order, dtype=np.int64), first, np.array(option_ptr, dtype=np.int64),
            np.array(component_ptr, dtype=np.int64), np.array(components, dtype=np.int64),
            np.array(value, dtype=np.int64))


def check_sums_grundy(rng, calls):
    order, first, option_ptr, component_ptr, components, value = random_sums(rng)
    o, op, cp, cs = order.tolist(), option_ptr.tolist(), component_ptr.tolist(), \
        components.tolist()
    n_new, n_options = len(op) - 1, len(cp) - 1
    n = first + n_new
    problems = []
    if n_new < 0 or n_options < 0 or first < 0 or len(value) < n:
        problems.append((ValueError, "do not match"))
    else:
        if op[0] != 0 or op[-1] != n_options or cp[0] != 0 or cp[-1] != len(cs):
            problems.append((ValueError, "do not match"))
        if any(a > b for a, b in zip(op, op[1:])) or any(a > b for a, b in zip(cp, cp[1:])):
            problems.append((ValueError, "non-decreasing"))
        if any(not 0 <= c < n for c in cs):
            problems.append((ValueError, r"components\[\d+\] = -?\d+ is not a position"))
        if any(not first <= p < n for p in o):
            problems.append((ValueError, r"order\[\d+\] = -?\d+ is not a new position"))

    def sums_of(p):
        return [cs[cp[j]:cp[j + 1]] for j in range(op[p - first], op[p - first + 1])]

    # The caller's precondition: order lists every new position once, after
    # the new positions its options are made of.
    ordered = not problems and sorted(o) == list(range(first, n)) and all(
        c < first or c in o[:i] for i, p in enumerate(o) for comps in sums_of(p) for c in comps)
    kind = "invalid" if problems else ("valid" if ordered else "unchecked")
    before = value.copy()
    with calls.check("sums_grundy", kind, order=order, first=first, option_ptr=option_ptr,
                     component_ptr=component_ptr, components=components, value=value):
        if problems:
            raises(problems, kgrundy.sums_grundy, order, first, option_ptr, component_ptr,
                   components, value)
            assert same(value, before), "value written"
            return
        assert kgrundy.sums_grundy(order, first, option_ptr, component_ptr, components,
                                   value) is None
        expected = before.tolist()
        if ordered:
            for p in o:             # the mex of the options' xors, by definition
                xors = []
                for comps in sums_of(p):
                    x = 0
                    for c in comps:
                        x ^= expected[c]
                    xors.append(x)
                expected[p] = mex(xors)
            assert value.tolist() == expected, f"{value.tolist()} != {expected}"
        else:
            # Whatever the order: only the listed positions are written, each
            # a mex of as many values as it has options.
            assert all(value[p] == before[p] for p in range(len(value)) if p not in o)
            assert all(0 <= value[p] <= len(sums_of(p)) for p in o), value


def fuzz_graphs(seed, rounds=1200):
    rng = random.Random(seed)
    calls = Calls()
    for _ in range(rounds):
        check_graph_kernels(rng, calls)
    return calls.summary()


# -- police and thief: a compiled source ------------------------------------------------

def steps(rng, F, k):
    """A step table: each step (column) a partial one-to-one map of the
    cells, as a translation on a board is (so no cell has more than k
    cells stepping into it)."""
    table = np.full((F, k), -1, dtype=np.int64)
    for d in range(k):
        image = rng.sample(range(F), F)
        for c in range(F):
            if rng.random() < 0.7:
                table[c, d] = image[c]
    return table


def reversed_steps(rng, table):
    """For each cell, the cells with a step into it, -1 padded."""
    F, k = table.shape
    pred = np.full((F, k), -1, dtype=np.int64)
    for x in range(F):
        into = [c for c in range(F) for d in range(k) if table[c, d] == x]
        rng.shuffle(into)
        pred[x, :len(into)] = into
    return pred


def random_police(rng):
    """The arguments of PoliceThiefSource: consistent tables, a third of the
    time broken (a checked problem) or inconsistent (unchecked)."""
    F = rng.randrange(1, 5)
    pn, tn = steps(rng, F, rng.randrange(1, 4)), steps(rng, F, rng.randrange(1, 4))
    args = [pn, tn, reversed_steps(rng, pn), reversed_steps(rng, tn),
            np.array([rng.random() < 0.3 for _ in range(F)], dtype=np.uint8), rng.random() < 0.5]
    if rng.random() < 0.45:
        how, i = rng.randrange(9), rng.randrange(4)
        if how == 0:
            args[i] = args[i][:-1]                              # a cell short
        elif how == 1:
            args[4] = args[4][:rng.choice([F - 1, 0])]
        elif how == 2:
            args[i] = np.hstack([args[i], np.full((F, 1), -1, dtype=np.int64)])   # wider
        elif how == 3:
            args[:5] = [a[:, :0] for a in args[:4]] + [args[4]]   # no steps
        elif how == 4:
            args[:5] = [np.zeros((0, a.shape[1]), np.int64) for a in args[:4]] + \
                [args[4][:0]]                                     # no cells
        elif how == 5:
            table = args[i].copy()
            table[rng.randrange(F), rng.randrange(table.shape[1])] = rng.choice([-2, F, 99])
            args[i] = table
        elif how == 6:
            args[:4] = [np.full((F, 251), -1, dtype=np.int64) for _ in range(4)]
        elif how == 7:
            args[i] = args[i][0]                                  # one-dimensional
        else:       # inconsistent reverse tables (random cells): unchecked
            args[2 + i % 2] = random_ints(rng, -1, F, args[2 + i % 2].size).reshape(
                args[2 + i % 2].shape)
    return args


def police_problems(pn, tn, pp, tp, exits):
    """Why the tables are refused: [] if they are not; and whether the
    reverse tables are those of the steps (the caller's precondition)."""
    tables = [np.asarray(a) for a in (pn, tn, pp, tp)]
    if any(t.ndim != 2 for t in tables):
        return [(ValueError, "wrong number of dimensions")], False
    F = len(tables[0])
    found = []
    if any(len(t) != F for t in tables) or len(exits) != F:
        found.append((ValueError, "differ in their number of cells"))
    if tables[2].shape[1] != tables[0].shape[1] or tables[3].shape[1] != tables[1].shape[1]:
        found.append((ValueError, "differ in width"))
    if F == 0 or tables[0].shape[1] == 0 or tables[1].shape[1] == 0:
        found.append((ValueError, "must be non-empty"))
    if tables[0].shape[1] > 250 or tables[1].shape[1] > 250:
        found.append((ValueError, "at most 250 steps"))
    if any(((t < -1) | (t >= F)).any() for t in tables):
        found.append((ValueError, "outside"))
    if found:
        return found, False
    consistent = True
    for step, pred in ((tables[0], tables[2]), (tables[1], tables[3])):
        for x in range(F):
            row = pred[x].tolist()
            into = row[:row.index(-1)] if -1 in row else row
            consistent &= row[len(into):] == [-1] * (len(row) - len(into)) and \
                sorted(into) == sorted(c for c in range(F) for y in step[c].tolist() if y == x)
    return [], consistent


def police_rules(pn, tn, exits, passing):
    """The game restated from the source's docstring: state (p * F + t) * 2
    + police_to_move; over when the police stands on the thief (it has won)
    or the thief on an exit (it has won); a step of the side to move, then
    its pass.  Returns (succ, fixed)."""
    F = len(pn)
    succ, fixed = [], {}
    for s in range(2 * F * F):
        police_moves = s % 2 == 1
        p, t = divmod(s // 2, F)
        if p == t:
            fixed[s] = WIN if police_moves else LOSS
        elif exits[t]:
            fixed[s] = LOSS if police_moves else WIN
        if police_moves:
            moves = [(c * F + t) * 2 for c in pn[p].tolist() if c >= 0] + ([s - 1] * passing)
        else:
            moves = [(p * F + c) * 2 + 1 for c in tn[t].tolist() if c >= 0] + ([s + 1] * passing)
        succ.append([] if s in fixed else moves)
    return succ, fixed


def fuzz_sources(seed, rounds=1500):
    rng = random.Random(seed)
    calls = Calls()
    for _ in range(rounds):
        args = random_police(rng)
        problems, consistent = police_problems(*args[:5])
        kind = "invalid" if problems else ("valid" if consistent else "unchecked")
        src = None
        with calls.check("PoliceThiefSource", kind, tables=args[:4], exits=args[4],
                         passing=args[5]):
            if problems:
                raises(problems, police.PoliceThiefSource, *args)
            else:
                src = police.PoliceThiefSource(*args)
                F = len(args[0])
                assert src.n_positions == 2 * F * F
        if src is None:
            continue
        n = src.n_positions
        succ, fixed = police_rules(args[0], args[1], args[4], args[5])
        misere = rng.random() < 0.3
        solved = check_solve(rng, calls, "solve(PoliceThiefSource)", src, n,
                             succ if consistent else None, fixed, misere,
                             tables=args[:4], exits=args[4], passing=args[5])
        # The best moves read the steps, never the reverse tables.
        check_best_moves(rng, calls, "best_moves(PoliceThiefSource)", src, n, succ, fixed,
                         solved, tables=args[:4], exits=args[4], passing=args[5])
    return calls.summary()


# -- take-and-break values ---------------------------------------------------------------------

def random_rules(rng):
    """take0..take3: mostly k >= 1 (k >= 0 for splits), now and then a bad k
    (negative, or a take1 of 0 tokens, a move that leaves the heap as it is)."""
    rules = []
    for i in range(4):
        low = 1 if i < 2 else 0
        rule = [rng.randrange(low, 6) for _ in range(rng.randrange(0, 4))]
        if rng.random() < 0.04:
            rule.append(rng.choice([-1, -5, 0]) if i == 1 else rng.choice([-1, -5]))
        rules.append(np.array(rule, dtype=np.int64))
    return rules


def random_values(rng):
    """G with its first values given (small, now and then larger), the rest
    stale; start and stop mostly within it."""
    G = np.array([rng.randrange(0, 9) if rng.random() < 0.9 else rng.randrange(0, 300)
                  for _ in range(rng.randrange(0, 40))], dtype=np.uint32)
    if rng.random() < 0.75:
        start = rng.randrange(0, len(G) + 1)
        stop = rng.randrange(start, len(G) + 1)
    else:
        start, stop = rng.randrange(-2, 45), rng.randrange(-2, 45)
    return G, start, stop


def extend_problems(G, start, stop, rules):
    """Why plain_extend/sparse_extend must refuse the call: [] if they must not."""
    found = []
    if not 0 <= start <= stop <= len(G):
        found.append((ValueError, r"0 <= start <= stop <= len\(G\)"))
    if any(k < 0 for rule in rules for k in rule.tolist()):
        found.append((ValueError, "move rules must take k >= 0"))
    if 0 in rules[1].tolist():
        found.append((ValueError, "take|token|rule", "take1 holds 0: a move that leaves the "
                      "heap as it is, G(n) an option of itself, read before it is computed"))
    return found


def check_extend(calls, kernel, G, start, stop, rules, unequal, mask=None):
    """One call of plain_extend (mask None) or sparse_extend, on one thread:
    G[start:stop] by definition, or the error and G unchanged."""
    def run():
        if mask is None:
            return octal.plain_extend(G, start, stop, *rules, unequal)
        return octal.sparse_extend(G, start, stop, *rules, unequal, mask)

    problems = extend_problems(G, start, stop, rules)
    before = G.copy()
    inputs = dict(G=G, start=start, stop=stop, rules=rules, unequal=unequal)
    if mask is not None:
        inputs["mask"] = mask
    with calls.check(kernel, "invalid" if problems else "valid", **inputs):
        if problems:
            raises(problems, run)
            assert same(G, before), "G changed"
            return
        result = run()
        expected = extend_naive(before.tolist(), start, stop, *[r.tolist() for r in rules],
                                unequal=unequal)
        assert G[:stop].tolist() == expected, f"G = {G[:stop].tolist()} != {expected}"
        assert same(G[stop:], before[stop:]), "G changed past stop"
        if mask is None:
            assert result == stop, result
        else:
            assert 0 <= result <= stop - start, f"{result} values by the plain scan"


def fuzz_octal(seed, rounds=1500):
    rng = random.Random(seed)
    calls = Calls()
    for _ in range(rounds):
        G, start, stop = random_values(rng)
        rules = random_rules(rng)
        unequal = rng.random() < 0.5
        check_extend(calls, "plain_extend", G.copy(), start, stop, rules, unequal)
        check_extend(calls, "sparse_extend", G.copy(), start, stop, rules[:3], unequal,
                     mask=rng.choice([rng.randrange(0, 16), 0xFFFFFFFE, 0xFFFFFFFF]))

        # The period search, on values that are often eventually periodic.
        if rng.random() < 0.6:
            pre, period = rng.randrange(0, 6), rng.randrange(1, 6)
            cycle = [rng.randrange(0, 4) for _ in range(period)]
            values = [rng.randrange(0, 4) for _ in range(pre)] + \
                [cycle[i % period] for i in range(rng.randrange(0, 40))]
        else:
            values = [rng.randrange(0, 4) for _ in range(rng.randrange(0, 30))]
        P = np.array(values, dtype=np.uint32)
        if rng.random() < 0.6:
            heaps, t, extra = rng.randrange(1, 4), rng.randrange(0, 4), rng.randrange(0, 2)
        else:
            heaps, t, extra = rng.randrange(-1, 5), rng.randrange(-2, 4), rng.randrange(-1, 3)
        bad = not (1 <= heaps <= 3 and t >= 0 and 0 <= extra <= 1)
        with calls.check("find_period", "invalid" if bad else "valid", G=P, heaps=heaps, t=t,
                         extra_p=extra):
            if bad:
                raises([(ValueError, "are required")], octal.find_period, P, heaps, t, extra)
            else:
                found = octal.find_period(P, heaps, t, extra)
                expected = find_period_naive(values, heaps, t, extra)
                assert found == expected, f"{found} != {expected}"
    return calls.summary()


# -- the code table of explored games ----------------------------------------------------------

def fuzz_explore(seed, rounds=1500):
    rng = random.Random(seed)
    calls = Calls()
    pool = [INT64_MIN, INT64_MAX, -1, 0, 1] + [rng.randrange(-2 ** 40, 2 ** 40)
                                                for _ in range(20)]
    capacity = rng.randrange(0, 40)
    table = explore.CodeTable(capacity)
    ref = {}            # code -> id, in order of first insertion
    for _ in range(rounds):
        keys = np.array([rng.choice(pool) for _ in range(rng.randrange(0, 9))], dtype=np.int64)
        if rng.random() < 0.15:
            keys = keys.astype(rng.choice([np.int32, np.uint64, np.float64, np.int8]))
        elif rng.random() < 0.05:
            keys = np.repeat(keys, 2)[::2]                      # not contiguous
        for method in ("insert", "lookup"):
            if rng.random() < 0.1 and keys.dtype == np.int64 and keys.flags.c_contiguous:
                ids = keys = keys.copy()                        # in place
            else:
                ids = random_ints(rng, 0, 9, max(len(keys) + rng.choice([0, 0, 0, 2, -1]), 0),
                                  rng.choice([np.int64] * 6 + [np.int32, np.uint64]))
            problems = []
            if keys.dtype != np.int64 or ids.dtype != np.int64:
                problems.append(DTYPE)
            if not keys.flags.c_contiguous:
                problems.append((ValueError, "not C-contiguous"))
            if len(ids) < len(keys):
                problems.append((ValueError, "ids is shorter than keys"))
            before = keys.copy(), ids.copy(), list(ref)
            with calls.check(method, "invalid" if problems else "valid", keys=keys, ids=ids):
                if problems:
                    raises(problems, getattr(table, method), keys, ids)
                    assert same(ids, before[1]) and same(keys, before[0]), "ids written"
                else:
                    m = len(keys)
                    if method == "insert":
                        new = table.insert(keys, ids)
                        codes = before[0].tolist()
                        expected = [ref.setdefault(k, len(ref)) for k in codes]
                        assert new == len(ref) - len(before[2]), new
                    else:
                        assert table.lookup(keys, ids) is None
                        expected = [ref.get(k, -1) for k in before[0].tolist()]
                    assert ids[:m].tolist() == expected, f"ids {ids[:m].tolist()} != {expected}"
                    assert ids is keys or same(ids[m:], before[1][m:]), "ids written past keys"
                assert table.codes().tolist() == list(ref) and table.n == len(ref)

        size = rng.randrange(-3, 100) if rng.random() < 0.85 else \
            rng.choice([MAX_CODES + 1, -2 ** 40, INT64_MIN])
        bad = not 0 <= size <= MAX_CODES
        with calls.check("reserve", "invalid" if bad else "valid", n_codes=size):
            if bad:
                raises([(ValueError, "out of range")], table.reserve, size)
            else:
                assert table.reserve(size) is None
                assert table.capacity >= size, table.capacity
            assert table.codes().tolist() == list(ref)
        with calls.check("bytes_for", "invalid" if bad else "valid", n_codes=size):
            if bad:
                raises([(ValueError, "out of range")], table.bytes_for, size)
            else:
                # 12 bytes a slot; slots a power of two, at least 16, 2 n <= slots < 4 n.
                got = table.bytes_for(size)
                slots = got // 12
                assert got % 12 == 0 and slots >= 16 and slots & (slots - 1) == 0, got
                assert 2 * size <= slots and (slots == 16 or slots < 4 * size), got
        with calls.check("CodeTable", "invalid" if bad else "valid", capacity=size):
            if bad:
                raises([(ValueError, "out of range")], explore.CodeTable, size)
            else:
                other = explore.CodeTable(size)
                assert other.n == 0 and other.capacity >= size and other.codes().tolist() == []
    return calls.summary()


# -- the engine's block kernel -----------------------------------------------------------------

MARK_WIN, MARK_LOSS, MARK_TIE, MANY = 255, 254, 253, 252     # the state bytes (states.pxd)
MARKS = {WIN: MARK_WIN, LOSS: MARK_LOSS, TIE: MARK_TIE}
DISAGREE = (ValueError, "predecessors and moves disagree")
NO_COUNTER = (ValueError, r"holds MANY \(252\) but has no counter kept aside")
REFUSED_MOVE = {"disagree": DISAGREE, "no counter": NO_COUNTER}
LEVEL_BAD = r"level -?\d+ does not fit the remoteness|too large to convert"
# A block's arrays before one of its calls in a solve by blocks: ``kind``
# "apply" (``payload``: the arrays received) or "level" (its frontier).
Snap = collections.namedtuple("Snap", "kind index block payload level ties bounds")
BATCH = 1 << 16                 # positions a batch of level_given (grundy.distributed.games)


class BlockGame:
    """A random graph as the block kernel sees it: its CSRSource, the
    predecessors of every position (the reverse of the moves, sources in
    increasing order, as CSRSource's), and its outcome and remoteness by the
    reference.  Often a position or two has 250 to 300 moves (to one to
    three positions, now and then WINs whatever it is: its counter, kept
    aside, may reach 0); a chain of moves now and then (more levels); TIE
    labels and misère play now and then."""

    def __init__(self, rng):
        n = rng.randrange(0, 14) if rng.random() < 0.8 else rng.randrange(14, 24)
        succ = [[] for _ in range(n)]
        dag = rng.random() < 0.4
        perm = rng.sample(range(n), n)
        for _ in range(rng.randrange(0, 3 * n + 1)):
            u, v = rng.randrange(n), rng.randrange(n)
            if dag:
                if u == v:
                    continue
                u, v = perm[min(u, v)], perm[max(u, v)]
            succ[u].append(v)
        if rng.random() < 0.3:
            for u, v in zip(perm, perm[1:]):
                succ[u].append(v)
        many = rng.sample(range(n), min(n, rng.choice([1, 1, 2]))) if rng.random() < 0.5 else []
        for u in many:
            targets = rng.sample(range(n), rng.choice([1, 1, 2, 3]) if n >= 3 else 1)
            total = rng.choice([251, 252, 253, 260, 300])
            succ[u] += [rng.choice(targets) for _ in range(total - len(succ[u]))]
        self.labels = None if rng.random() < 0.5 else np.array(
            [rng.choice([0, 0, 0, 0, WIN, LOSS, TIE]) for _ in range(n)], dtype=np.int8)
        self.misere = rng.random() < 0.3
        self.n, self.succ = n, succ
        self.prim = [0] * n if self.labels is None else self.labels.tolist()
        self.solve()
        # Now and then every move of a position of many moves to WINs that do
        # not depend on it (at remoteness 0 or 1): it is a LOSS by its counter.
        sure = [v for v in range(n) if self.outcome[v] == WIN and self.rem[v] <= 1]
        for u in many:
            if rng.random() < 0.5 and set(sure) - {u} and not self.prim[u]:
                targets = rng.sample(sorted(set(sure) - {u}), 1)
                succ[u] = [rng.choice(targets + sure) for _ in range(len(succ[u]))]
                succ[u] = [v if v != u else targets[0] for v in succ[u]]
                self.solve()
        self.pred = [[] for _ in range(n)]
        for u, s in enumerate(succ):
            for v in s:
                self.pred[v].append(u)
        indptr = np.cumsum([0] + [len(s) for s in succ]).astype(np.int64)
        indices = np.array([v for s in succ for v in s], dtype=np.int64)
        self.src = csr.CSRSource(indptr, indices, self.labels)
        self.text = f"CSRSource(succ={compact(succ)}, " \
            f"labels={self.prim if self.labels is not None else None})"

    def solve(self):
        fixed = {v: x for v, x in enumerate(self.prim) if x}
        outcome, rem = solve_positions(dict(enumerate(self.succ)), fixed, misere=self.misere)
        self.outcome = [outcome[v] for v in range(self.n)]
        self.rem = [rem[v] for v in range(self.n)]

    def initial(self, lo, hi):
        """What initial_states(src, lo, hi) is: state bytes, counter ids and counts."""
        return block_initial(self.prim[lo:hi], [len(s) for s in self.succ[lo:hi]], self.misere)

    def non_wins(self, v):
        """v's moves to positions that are not WINs (the counter of a draw)."""
        return sum(1 for w in self.succ[v] if self.outcome[w] != WIN)


def compact(lists):
    """Lists of positions as the calls show them: a long one as {position:
    times} (the block kernel sees the moves through the predecessors only,
    whose order does not change what it does with them)."""
    return [x if len(x) <= 12 else dict(sorted(collections.Counter(x).items())) for x in lists]


def block_initial(prim, moves, misere):
    """The state bytes of positions from their primitive values and numbers
    of moves (states.pxd): a mark where the game is over, the terminal mark
    at no move, else the count, MANY from 252 on (kept aside as ids, counts)."""
    state, ids, left = [], [], []
    for s, (p, d) in enumerate(zip(prim, moves)):
        if p:
            state.append(MARKS[p])
        elif d == 0:
            state.append(MARK_WIN if misere else MARK_LOSS)
        elif d >= MANY:
            state.append(MANY)
            ids.append(s)
            left.append(d)
        else:
            state.append(d)
    return state, ids, left


class BlockArrays:
    """A block's arrays, as grundy.distributed.block.Block holds them."""

    def __init__(self, lo, state, ids, left, rem):
        self.lo, self.state, self.ids, self.left, self.rem = lo, state, ids, left, rem

    def copy(self):
        return BlockArrays(self.lo, self.state.copy(), self.ids.copy(), self.left.copy(),
                           self.rem.copy())


class BlockModel:
    """A block's arrays as lists, and the block kernel's rules restated on
    them (its docstrings and lanes.settle): the moves of a level taken one
    after the other, in the order given."""

    def __init__(self, block):
        self.state, self.ids = block.state.tolist(), block.ids.tolist()
        self.left, self.rem = block.left.tolist(), block.rem.tolist()
        self.decided = []

    def settle(self, u, to_win, ties, level):
        """A move from u to a position of the last level: None, or why it is
        refused: "disagree" for a move to a WIN reaching a LOSS its moves to
        WINs decided (remoteness > 0: it had them all, the predecessors and
        moves disagree), "no counter" for a move to a WIN reaching a MANY
        without its counter kept aside."""
        c = self.state[u]
        if c >= MARK_TIE:
            refused = not ties and not to_win and c == MARK_LOSS and self.rem[u] > 0
            return "disagree" if refused else None
        if ties:
            mark = MARK_TIE
        elif to_win:
            mark = MARK_WIN
        elif c == MANY:
            if u not in self.ids:
                return "no counter"
            k = self.ids.index(u)
            self.left[k] -= 1
            if self.left[k]:
                return None
            mark = MARK_LOSS
        elif c == 1:
            mark = MARK_LOSS
        else:
            self.state[u] = c - 1
            return None
        self.state[u], self.rem[u] = mark, level
        self.decided.append(u)
        return None

    def level(self, frontier, lists, lo, bounds, level, ties):
        """The predecessors ``lists[i]`` of ``frontier[i]``: this block's
        settled, the others routed.  Returns (the routes of each block,
        None or what stopped the walk: "outside", "disagree" or "no counter")."""
        n = len(self.state)
        routes = [[] for _ in bounds[1:]]
        for v, preds in zip(frontier, lists):
            lost = not ties and self.state[v] == MARK_LOSS
            for u in preds:
                if not bounds[0] <= u < bounds[-1]:
                    return routes, "outside"
                if lo <= u < lo + n:
                    why = self.settle(u - lo, lost, ties, level)
                    if why:
                        return routes, why
                else:
                    b = bisect.bisect_right(bounds, u) - 1
                    routes[b].append((u - bounds[b]) << 1 | lost)
        return routes, None

    def apply(self, messages, level, ties):
        for message in messages:
            for entry in np.asarray(message).tolist():
                if not 0 <= entry >> 1 < len(self.state):
                    return "outside"
                why = self.settle(entry >> 1, entry & 1, ties, level)
                if why:
                    return why
        return None

    def check(self, block, decided):
        """The block's arrays and the positions decided are the model's."""
        for name in ("state", "ids", "left", "rem"):
            got = getattr(block, name).tolist()
            assert got == getattr(self, name), f"{name} {got}, expected {getattr(self, name)}"
        assert decided.dtype == np.int64, decided.dtype
        assert sorted(decided.tolist()) == sorted(self.decided), \
            f"decided {decided.tolist()}, expected {self.decided} (in any order)"


def check_routes(arrays, routes, wide):
    """The arrays a level routed: each block's entries (in any order), uint32
    or, if wide, int64."""
    assert isinstance(arrays, list) and len(arrays) == len(routes), arrays
    for b, (array, route) in enumerate(zip(arrays, routes)):
        assert array.dtype == (np.int64 if wide else np.uint32), array.dtype
        assert sorted(array.tolist()) == sorted(route), \
            f"routed to block {b}: {array.tolist()}, expected {route} (in any order)"


def random_bounds(rng, n):
    """Where each of 1 to 4 blocks starts, and the last ends (empty blocks allowed)."""
    cuts = sorted(rng.randrange(0, n + 1) for _ in range(rng.randrange(0, 4)))
    return [0] + cuts + [n]


def solve_by_blocks(rng, game, bounds, wide, rem_dtype, given=None, snaps=None):
    """Solve ``game`` by blocks in this process, as a distributed solve's
    blocks do (grundy.distributed.block.Block: the state bytes from
    initial_states; a win/loss pass, then a tie pass if a block has TIEs;
    each level, every block applies what the others routed to it, then
    walks the predecessors of its frontier: level_source, or with ``given``
    (the predecessors of each position) level_given in batches, as
    BatchRules does), until a level decides nothing anywhere.  Unless some
    ``given`` predecessors disagree with the moves (``snaps`` None), each
    call is checked against the BlockModel and the blocks are added to
    ``snaps`` before their calls.  Returns the blocks."""
    follow = snaps is not None
    parts = []
    for lo, hi in zip(bounds, bounds[1:]):
        state, ids, left = blocks.initial_states(game.src, lo, hi, game.misere)
        if follow:
            assert (state.tolist(), ids.tolist(), left.tolist()) == game.initial(lo, hi), \
                f"initial_states(src, {lo}, {hi}) = {state.tolist()}, {ids.tolist()}, " \
                f"{left.tolist()}; expected {game.initial(lo, hi)}"
        parts.append(BlockArrays(lo, state, ids, left, np.zeros(hi - lo, dtype=rem_dtype)))
    edges = np.array(bounds, dtype=np.int64)
    dtype = np.int64 if wide else np.uint32

    def step(part, frontier, level, ties):
        """Block.rules.level: the positions decided now, and the arrays routed."""
        if given is None:
            lists = [game.pred[v + part.lo] for v in frontier.tolist()]
            model = BlockModel(part) if follow else None
            now, arrays, count = blocks.level_source(
                game.src, part.state, part.ids, part.left, part.rem, frontier, part.lo, edges,
                level, ties, wide)
            if follow:
                assert count == sum(len(x) for x in lists), f"{count} predecessors"
                routes, bad = model.level(frontier.tolist(), lists, part.lo, bounds, level, ties)
                assert bad is None, bad
                model.check(part, now)
                check_routes(arrays, routes, wide)
            return now, arrays
        size = rng.choice([1, 2, 5, BATCH])
        decided, routed = [], []
        for a in range(0, len(frontier), size):
            batch = frontier[a:a + size]
            lists = [given[v + part.lo] for v in batch.tolist()]
            offsets = np.cumsum([0] + [len(x) for x in lists]).astype(np.int64)
            preds = np.array([u for x in lists for u in x], dtype=np.int64)
            model = BlockModel(part) if follow else None
            now, arrays = blocks.level_given(part.state, part.ids, part.left, part.rem, batch,
                                             offsets, preds, part.lo, edges, level, ties, wide)
            if follow:
                routes, bad = model.level(batch.tolist(), lists, part.lo, bounds, level, ties)
                assert bad is None, bad
                model.check(part, now)
                check_routes(arrays, routes, wide)
            decided.append(now)
            routed.append(arrays)
        return (np.concatenate(decided) if decided else np.zeros(0, np.int64),
                [np.concatenate([r[j] for r in routed]) if routed else np.zeros(0, dtype)
                 for j in range(len(parts))])

    for ties in (False, True) if any((p.state == MARK_TIE).any() for p in parts) else (False,):
        decided = [blocks.known(p.state, ties) for p in parts]
        received = [[] for _ in parts]
        level = 0
        while True:
            size, routed = 0, []
            for b, part in enumerate(parts):
                if received[b]:
                    if follow:
                        snaps.append(Snap("apply", b, part.copy(), received[b], level, ties,
                                          bounds))
                        model = BlockModel(part)
                    more = blocks.apply(part.state, part.ids, part.left, part.rem, received[b],
                                        level, ties)
                    if follow:
                        assert model.apply(received[b], level, ties) is None
                        model.check(part, more)
                    decided[b] = np.concatenate([decided[b], more])
                if follow:
                    snaps.append(Snap("level", b, part.copy(), decided[b], level + 1, ties,
                                      bounds))
                size += len(decided[b])
                decided[b], arrays = step(part, decided[b], level + 1, ties)
                routed.append(arrays)
            received = [[routed[j][b] for j in range(len(parts)) if j != b]
                        for b in range(len(parts))]
            if size == 0:
                break
            level += 1
    return parts


def check_solve_by_blocks(rng, calls, game, snaps, given):
    """One solve by blocks (level_source, or level_given with the
    predecessors listed from the moves): the outcome and remoteness of
    every position are the reference's, and the counters left are the
    moves not to WINs."""
    bounds = random_bounds(rng, game.n)
    wide, rem_dtype = rng.random() < 0.3, rng.choice([np.uint16, np.int32])
    lists = None
    if given:
        # In any order; the labelled positions (their moves ignored) listed or not.
        drop = game.labels is not None and rng.random() < 0.5
        lists = [rng.sample(p, len(p)) for p in game.pred]
        lists = [[u for u in p if not (drop and game.prim[u])] for p in lists]
    with calls.check("blocks(level_given)" if given else "blocks(level_source)", "valid",
                     game=game.text, misere=game.misere, bounds=bounds, wide=wide,
                     remoteness=np.dtype(rem_dtype).name,
                     predecessors=None if lists is None else compact(lists)):
        parts = solve_by_blocks(rng, game, bounds, wide, rem_dtype, lists, snaps)
        outcome = np.concatenate([blocks.decode(p.state) for p in parts])
        rem = np.concatenate([p.rem for p in parts])
        assert outcome.dtype == np.int8 and rem.dtype == rem_dtype
        assert outcome.tolist() == game.outcome, \
            f"outcome {outcome.tolist()}, expected {game.outcome}"
        assert rem.tolist() == [max(r, 0) for r in game.rem], \
            f"remoteness {rem.tolist()}, expected {game.rem} (0 at draws)"
        for p in parts:
            ids = p.ids.tolist()
            for s, c in enumerate(p.state.tolist()):
                v, o = s + p.lo, game.outcome[s + p.lo]
                if c < MANY:
                    assert o != DRAW or c == game.non_wins(v), f"position {v}: counter {c}"
                elif c == MANY or s in ids:
                    left = p.left[ids.index(s)]
                    assert o == WIN or left == (0 if o == LOSS else game.non_wins(v)), \
                        f"position {v} ({o}): {left} moves left"


def check_disagree(rng, calls, game):
    """A solve by blocks whose given predecessors list a position u once
    more among those of v, a successor of u.  If u is a LOSS (by its
    counter), it is then sent one more move to a WIN than it has: the
    ValueError of predecessors and moves that disagree (the module's and
    apply's docstrings: a block checks that no position is sent more moves
    to WINs than it has).  Else nothing says the block can tell: the
    solve must not crash, raise that error or nothing, and its outcome
    stay outcomes."""
    losses = [u for u in range(game.n) if game.outcome[u] == LOSS and game.rem[u] > 0]
    edges = [(u, v) for u in range(game.n) for v in set(game.succ[u])]
    if not edges:
        return
    if losses and rng.random() < 0.8:
        u = rng.choice(losses)
        v = rng.choice(game.succ[u])
    else:
        u, v = rng.choice(edges)
    lists = [list(p) for p in game.pred]
    lists[v].insert(rng.randrange(len(lists[v]) + 1), u)
    bounds = random_bounds(rng, game.n)
    wide, rem_dtype = rng.random() < 0.3, rng.choice([np.uint16, np.int32])
    problems = []
    if u in losses:
        # Its moves to WINs arrive at the levels after theirs: the d-th of
        # its d moves decides it, the one more comes at that level or later.
        d = len(game.succ[u])
        arrivals = sorted([game.rem[w] + 1 for w in game.succ[u]] + [game.rem[v] + 1])
        problems.append(DISAGREE + (
            f"position {u}, a LOSS at {game.rem[u]}, has {d} moves, all to WINs, and is sent "
            f"{d + 1}: its counter reaches 0 at level {arrivals[d - 1]}, the one too many "
            f"arrives at level {arrivals[d]}",))
    with calls.check("blocks(a predecessor twice)", "invalid" if problems else "unchecked",
                     game=game.text, misere=game.misere, bounds=bounds, wide=wide,
                     remoteness=np.dtype(rem_dtype).name, twice=(u, v),
                     predecessors=compact(lists)):
        if problems:
            raises(problems, solve_by_blocks, rng, game, bounds, wide, rem_dtype, lists)
            return
        try:
            parts = solve_by_blocks(rng, game, bounds, wide, rem_dtype, lists)
        except ValueError as exc:
            assert re.search(DISAGREE[1], str(exc)), f"raised ValueError: {exc}"
            return
        outcome = np.concatenate([blocks.decode(p.state) for p in parts])
        assert set(outcome.tolist()) <= {WIN, LOSS, DRAW, TIE}, outcome


def counter_problems(state, ids, left, rem, level):
    """Why the block's arrays are refused before anything is written
    (apply, level_source and level_given check them first)."""
    found = []
    if state.dtype != np.uint8 or ids.dtype != np.int64 or left.dtype != np.int64:
        found.append(DTYPE)
    if rem.dtype not in (np.uint16, np.int32):
        found.append(REM_DTYPE)
    n, i, k = len(state), ids.tolist(), left.tolist()
    if len(i) != len(k):
        found.append((ValueError, "the block's counters differ in length"))
    elif any(not 0 <= i[j] < n or k[j] < 0 or (j and i[j] <= i[j - 1]) for j in range(len(i))):
        found.append((ValueError, r"the block's counter \d+ \(position -?\d+, -?\d+ moves "
                      r"left\) is not in increasing order"))
    if len(rem) != n:
        found.append((ValueError, "the block's arrays differ in length"))
    top = 0xFFFF if rem.dtype == np.uint16 else 0x7FFFFFFF
    if not 1 <= level <= top:
        found.append((OverflowError, LEVEL_BAD))
    return found


def break_counters(rng, block, n):
    """The block's counters (or remoteness, or a dtype) broken in one way."""
    how = rng.randrange(7)
    ids, left = block.ids, block.left
    if how == 0:
        if rng.random() < 0.5:
            block.left = np.append(left, 1).astype(np.int64)
        else:
            block.ids = np.append(ids, n + 3).astype(np.int64)
    elif how == 1 and len(ids) >= 2:
        j = rng.randrange(1, len(ids))
        ids[j] = ids[j - 1] if rng.random() < 0.5 else ids[j - 1] - 1    # repeated, decreasing
    elif how == 2 and len(ids):
        ids[rng.randrange(len(ids))] = rng.choice([-1, n, n + 7, INT64_MIN, INT64_MAX])
    elif how == 3 and len(left):
        left[rng.randrange(len(left))] = rng.choice([-1, INT64_MIN])
    elif how == 4:
        block.ids = np.array([rng.choice([-1, n, 0])], dtype=np.int64)   # maybe fine if 0
        block.left = np.array([rng.choice([1, -1])], dtype=np.int64)
    elif how == 5:
        block.rem = block.rem[:-1] if len(block.rem) and rng.random() < 0.5 else \
            np.append(block.rem, 0).astype(block.rem.dtype)
    else:
        which = rng.choice(["state", "ids", "left", "rem"])
        setattr(block, which, getattr(block, which).astype(
            {"state": np.int8, "ids": np.int32, "left": np.uint64, "rem": np.int64}[which]))


def bad_level(rng, rem_dtype):
    top = 0xFFFF if rem_dtype == np.uint16 else 0x7FFFFFFF
    return rng.choice([0, -1, top + 1, 2 ** 40, INT64_MAX, INT64_MIN, 2 ** 63, -2 ** 63 - 1])


def bounds_problems(bounds, lo, n):
    if len(bounds) < 2:
        return [(ValueError, "bounds must hold at least one block's start and end")]
    found = []
    if any(a > b for a, b in zip(bounds, bounds[1:])):
        found.append((ValueError, r"bounds\[\d+\] = -?\d+ is below bounds\[\d+\]"))
    if not any(a == lo and b - lo == n for a, b in zip(bounds, bounds[1:])):
        found.append((ValueError, r"the block -?\d+\.\.-?\d+ is not one of the bounds' blocks"))
    return found


def check_level(rng, calls, kernel, game, snap):
    """level_source or level_given on a block as a solve by blocks left it
    (``snap``), its frontier's predecessors from the moves; else broken in
    one way or another.  A valid call does what the BlockModel does; one
    refused by the checks made before the walk leaves the arrays as they
    were; a predecessor outside every block is refused during the walk."""
    _, index, block, frontier, level, ties, edges = snap
    block, frontier, edges = block.copy(), frontier.copy(), list(edges)
    lo, n = block.lo, len(block.state)
    wide = rng.random() < 0.3
    given = kernel == "level_given"
    if rng.random() < 0.2:
        level = 0xFFFF if block.rem.dtype == np.uint16 else 0x7FFFFFFF    # the last that fits
    if rng.random() < 0.2:
        frontier = frontier[::-1].copy()
    # The predecessors of the frontier: the source's, or listed in any order.
    lists = [rng.sample(game.pred[v + lo], len(game.pred[v + lo])) if given
             else game.pred[v + lo] for v in frontier.tolist()]
    offsets = np.cumsum([0] + [len(x) for x in lists]).astype(np.int64)
    preds = np.array([u for x in lists for u in x], dtype=np.int64)
    why = ()
    if rng.random() < 0.5:
        how = rng.randrange(9)
        if how == 0:
            bad = rng.choice([-1, n, n + 5, INT64_MIN, INT64_MAX])
            frontier = np.insert(frontier, rng.randrange(len(frontier) + 1), bad)
            offsets = np.append(offsets, offsets[-1])
            lists.append([])
        elif how == 1:
            break_counters(rng, block, n)
        elif how == 2:
            level = bad_level(rng, block.rem.dtype)
        elif how == 3:
            edges = edges[:rng.randrange(0, 2)]
        elif how == 4 and len(edges) > 2:
            j = rng.randrange(1, len(edges) - 1)
            edges[j] = edges[j + 1] + rng.randrange(1, 3)
        elif how == 5:
            lo += rng.choice([-1, 1])
        elif how == 6:
            edges = edges[:index + 1] + edges[index + 2:] if rng.random() < 0.5 else \
                [x + rng.choice([-1, 1]) for x in edges]
        elif how == 7 and kernel == "level_given":
            k = rng.randrange(4)
            if k == 0:
                offsets = offsets[:-1] if rng.random() < 0.5 else np.append(offsets, offsets[-1])
            elif k == 1:
                offsets[0] = rng.choice([1, -1])
            elif k == 2 and len(offsets) > 2:
                j = rng.randrange(1, len(offsets) - 1)
                offsets[j] = offsets[j - 1] - 1 if rng.random() < 0.5 else offsets[j + 1] + 1
            else:
                offsets[-1] = len(preds) + rng.randrange(1, 3)
        elif how == 8 and given:
            # A predecessor in no block, among the walked ones (or past them:
            # never read).
            bad = rng.choice([edges[0] - 1, edges[-1], edges[-1] + 3, INT64_MIN, INT64_MAX])
            if n and not lists:
                frontier, lists = np.array([rng.randrange(n)], dtype=np.int64), [[]]
            if lists and rng.random() < 0.8:
                i = rng.randrange(len(lists))
                lists[i].insert(rng.randrange(len(lists[i]) + 1), bad)
                offsets = np.cumsum([0] + [len(x) for x in lists]).astype(np.int64)
                preds = np.array([u for x in lists for u in x], dtype=np.int64)
            else:
                preds = np.append(preds, bad).astype(np.int64)
        elif how == 8 and kernel == "level_source" and len(edges) > 2:
            # Bounds that hold the block but not every position of the source:
            # a predecessor may be in none of the blocks.  level_given refuses
            # such a predecessor; level_source must not route it to a block
            # that does not hold it.
            edges = edges[index:index + 2]
    if not given:
        why = ("a predecessor of the frontier in none of the bounds' blocks (they do not "
               "cover the source's positions): level_given refuses such a predecessor "
               "with this error; level_source routes it to a block not holding it",)
    problems = counter_problems(block.state, block.ids, block.left, block.rem, level)
    if frontier.dtype != np.int64 or offsets.dtype != np.int64 or preds.dtype != np.int64:
        problems.append(DTYPE)
    if given and len(offsets) != len(frontier) + 1:
        problems.append((ValueError, rf"{len(offsets)} offsets for {len(frontier)} positions"))
    if any(not 0 <= v < n for v in frontier.tolist()):
        problems.append((ValueError, r"frontier\[\d+\] = -?\d+ is not a position of the block"))
    problems += bounds_problems(edges, lo, n)
    o = offsets.tolist()
    if given and len(o) == len(frontier) + 1 and (
            o[0] != 0 or any(a > b for a, b in zip(o, o[1:])) or max(o) > len(preds)):
        problems.append((ValueError, r"offsets\[\d+\] = -?\d+: offsets must start at 0, "
                         r"never decrease and end by \d+"))
    kind = "invalid" if problems else "valid"
    model = None
    if not problems:
        if not given:           # the source's, of the block lo may have moved to
            lists = [game.pred[v + lo] for v in frontier.tolist()]
        model = BlockModel(block)
        routes, bad = model.level(frontier.tolist(), lists, lo, edges, level, ties)
        if bad == "outside":
            problems.append((ValueError, r"a predecessor -?\d+ is outside the positions of "
                             r"the blocks") + why)
        elif bad:
            problems.append(REFUSED_MOVE[bad])
        kind = "invalid" if problems else "valid"
    before = block.copy()
    inputs = dict(state=block.state, many_ids=block.ids, many_left=block.left,
                  remoteness=block.rem, frontier=frontier)
    if given:
        inputs.update(offsets=offsets, preds=preds)
        args = (block.state, block.ids, block.left, block.rem, frontier, offsets, preds)
    else:
        inputs = dict(src=game.text, **inputs)
        args = (game.src, block.state, block.ids, block.left, block.rem, frontier)
    edges = np.array(edges, dtype=np.int64)
    inputs.update(lo=lo, bounds=edges, level=level, ties=ties, wide=wide)
    fn = getattr(blocks, kernel)
    with calls.check(kernel, kind, **inputs):
        if problems:
            raises(problems, fn, *args, lo, edges, level, ties, wide)
            if model is None:           # refused before the walk
                for name in ("state", "ids", "left", "rem"):
                    assert same(getattr(block, name), getattr(before, name)), f"{name} written"
            return
        result = fn(*args, lo, edges, level, ties, wide)
        assert isinstance(result, tuple) and len(result) == (2 if given else 3), result
        model.check(block, result[0])
        check_routes(result[1], routes, wide)
        if not given:
            assert result[2] == sum(len(x) for x in lists), f"{result[2]} predecessors"


def check_apply(rng, calls, game, snap):
    """apply on a block as a solve by blocks left it (``snap``), with what
    the other blocks routed to it then, or random moves (never to a LOSS
    decided at an earlier level by its counter: nothing says whether the
    block can tell such a move from a right one); else broken in one way."""
    block, level, ties = snap.block.copy(), snap.level, snap.ties
    n = len(block.state)
    messages = [m.copy() for m in snap.payload] if snap.kind == "apply" else []
    if n and (not messages or rng.random() < 0.4):
        state, rem = block.state.tolist(), block.rem.tolist()
        allowed = [u for u in range(n) if not (state[u] == MARK_LOSS and 0 < rem[u] < level)]
        messages = [np.array([rng.choice(allowed) << 1 | rng.randrange(2)
                              for _ in range(rng.randrange(0, 6) if allowed else 0)],
                             dtype=rng.choice([np.uint32, np.int64]))
                    for _ in range(rng.randrange(0, 4))]
    first = True                    # the bad entry comes first of all
    if rng.random() < 0.5:
        how = rng.randrange(3)
        if how == 0:
            break_counters(rng, block, n)
        elif how == 1:
            level = bad_level(rng, block.rem.dtype)
        else:
            if not messages:
                messages = [np.zeros(0, dtype=np.uint32)]
            j = rng.randrange(len(messages))
            m = messages[j]
            bad = rng.choice([n << 1, n << 1 | 1, 0xFFFFFFFF] if m.dtype == np.uint32 else
                             [n << 1, -1, -2, INT64_MIN, INT64_MAX])
            i = rng.randrange(len(m) + 1)
            messages[j] = np.insert(m, i, bad).astype(m.dtype)
            first = i == 0 and not any(len(x) for x in messages[:j])
    problems = counter_problems(block.state, block.ids, block.left, block.rem, level)
    written = not problems                  # refused after writing, perhaps
    if not problems:
        model = BlockModel(block)
        bad = model.apply(messages, level, ties)
        if bad == "outside":
            problems.append((ValueError, r"a routed position -?\d+ is outside the block's "
                             r"\d+ positions"))
            written = not first
        elif bad:
            problems.append(REFUSED_MOVE[bad])
    before = block.copy()
    with calls.check("apply", "invalid" if problems else "valid", state=block.state,
                     many_ids=block.ids, many_left=block.left, remoteness=block.rem,
                     messages=messages, level=level, ties=ties):
        args = (block.state, block.ids, block.left, block.rem, messages, level, ties)
        if problems:
            raises(problems, blocks.apply, *args)
            if not written:
                for name in ("state", "ids", "left", "rem"):
                    assert same(getattr(block, name), getattr(before, name)), f"{name} written"
            return
        model.check(block, blocks.apply(*args))


def check_initial(rng, calls, game):
    """initial_states on a range of the source's positions (or not within
    them), and initial_from on their primitive values and move counts (or
    broken ones)."""
    N = game.n
    misere = rng.random() < 0.3
    lo = rng.randrange(0, N + 1)
    hi = rng.randrange(lo, N + 1)
    if rng.random() < 0.3:
        lo, hi = rng.choice([(-1, hi), (lo, N + 1), (hi + 1, hi), (INT64_MIN, hi),
                             (lo, INT64_MAX), (N + 2, N + 5)])
    ok = 0 <= lo <= hi <= N
    with calls.check("initial_states", "valid" if ok else "invalid", src=game.text, lo=lo,
                     hi=hi, misere=misere):
        if not ok:
            raises([(ValueError, rf"positions {lo}\.\.{hi} are not within 0\.\.{N}")],
                   blocks.initial_states, game.src, lo, hi, misere)
        else:
            state, ids, left = blocks.initial_states(game.src, lo, hi, misere)
            assert state.dtype == np.uint8 and ids.dtype == left.dtype == np.int64
            expected = block_initial(game.prim[lo:hi], [len(s) for s in game.succ[lo:hi]],
                                     misere)
            assert (state.tolist(), ids.tolist(), left.tolist()) == expected, \
                f"{state.tolist()}, {ids.tolist()}, {left.tolist()}; expected {expected}"

    lo, hi = sorted((rng.randrange(0, N + 1), rng.randrange(0, N + 1)))
    prim = np.array(game.prim[lo:hi], dtype=np.int8)
    # The move counts of the positions where the game is over are not read.
    moves = np.array([len(game.succ[s]) if not game.prim[s] else rng.randrange(-3, 300)
                      for s in range(lo, hi)], dtype=np.int64)
    if rng.random() < 0.5:
        how = rng.randrange(4)
        if how == 0:
            moves = np.append(moves, 1) if rng.random() < 0.5 or not len(moves) else moves[:-1]
        elif how == 1 and len(prim):
            prim[rng.randrange(len(prim))] = rng.choice([3, -2, 100, -128, 127])
        elif how == 2 and len(moves):
            moves[rng.randrange(len(moves))] = rng.choice([-1, -300, INT64_MIN])
        else:
            prim = prim.astype(rng.choice([np.int16, np.int64, np.uint8]))
    problems = []
    if prim.dtype != np.int8 or moves.dtype != np.int64:
        problems.append(DTYPE)
    p, m = prim.tolist(), moves.tolist()
    if len(p) != len(m):
        problems.append((ValueError, rf"{len(p)} primitive values for {len(m)} move counts"))
    if any(x not in (0, WIN, LOSS, TIE) for x in p):
        problems.append((ValueError, r"primitive\(\d+\) gave -?\d+: expected 0, WIN"))
    if any(x == 0 and d < 0 for x, d in zip(p, m)):
        problems.append((ValueError, r"position \d+ has -\d+ moves: a position has 0 or more"))
    with calls.check("initial_from", "invalid" if problems else "valid", primitive=prim,
                     moves=moves, misere=misere):
        if problems:
            raises(problems, blocks.initial_from, prim, moves, misere)
            return
        state, ids, left = blocks.initial_from(prim, moves, misere)
        assert state.dtype == np.uint8 and ids.dtype == left.dtype == np.int64
        expected = block_initial(p, m, misere)
        assert (state.tolist(), ids.tolist(), left.tolist()) == expected, \
            f"{state.tolist()}, {ids.tolist()}, {left.tolist()}; expected {expected}"


def check_known_decode(rng, calls, state):
    """known and decode of a block's state bytes (or of another array)."""
    if rng.random() < 0.3:
        state = state.astype(rng.choice([np.int8, np.uint16, np.int64])) if \
            rng.random() < 0.6 else np.repeat(state, 2)[::2]        # not contiguous
    problems = []
    if state.dtype != np.uint8:
        problems.append(DTYPE)
    if not state.flags.c_contiguous:
        problems.append((ValueError, "not C-contiguous"))
    ties = rng.random() < 0.5
    marks = state.tolist()
    with calls.check("known", "invalid" if problems else "valid", state=state, ties=ties):
        if problems:
            raises(problems, blocks.known, state, ties)
        else:
            got = blocks.known(state, ties)
            assert got.dtype == np.int64, got.dtype
            assert got.tolist() == [s for s, c in enumerate(marks)
                                    if (c == MARK_TIE if ties else c >= MARK_LOSS)], got
    with calls.check("decode", "invalid" if problems else "valid", state=state):
        if problems:
            raises(problems, blocks.decode, state)
        else:
            got = blocks.decode(state)
            expected = [{MARK_WIN: WIN, MARK_LOSS: LOSS, MARK_TIE: TIE}.get(c, DRAW)
                        for c in marks]
            assert got.dtype == np.int8 and got.tolist() == expected, got


def check_unchecked_blocks(rng, calls, game, snap, kernel):
    """Calls that break a precondition the kernel does not check (or read
    out of bounds where it fails to refuse them): made last, so that a
    crash does not hide the other checks.

    - level_source on a block lying (partly) outside the source's positions:
      it reads the predecessors of positions that do not exist.  The other
      kernels check their ranges (initial_states refuses lo..hi outside
      the source): a ValueError;
    - state bytes holding MANY for a position without a counter kept aside:
      a move to a WIN reaching it is refused (ValueError), the state byte
      and counters untouched."""
    block, frontier, level, ties = snap.block.copy(), snap.payload, snap.level, snap.ties
    n, N = len(block.state), game.n
    if kernel == "level_source":
        if not n:
            return
        lo = rng.choice([-rng.randrange(1, 4), N - n + rng.randrange(1, 4)])
        edges = np.array([lo, lo + n], dtype=np.int64)
        frontier = np.arange(n, dtype=np.int64) if rng.random() < 0.5 else frontier
        with calls.check("level_source", "invalid", src=game.text, state=block.state,
                         many_ids=block.ids, many_left=block.left, remoteness=block.rem,
                         frontier=frontier, lo=lo, bounds=edges, level=level, ties=ties):
            raises([(ValueError, r"position|block|source|within",
                     f"the block {lo}..{lo + n - 1} is not within the source's positions "
                     f"0..{N - 1}")],
                   blocks.level_source, game.src, block.state, block.ids, block.left,
                   block.rem, frontier, lo, edges, level, ties)
        return
    open_ = [s for s, c in enumerate(block.state.tolist()) if c < MANY]
    if not open_:
        return
    u = rng.choice(open_)
    block.state[u] = MANY
    keep = [k for k, s in enumerate(block.ids.tolist()) if s != u and rng.random() < 0.5]
    block.ids, block.left = block.ids[keep].copy(), block.left[keep].copy()
    messages = [np.array([u << 1], dtype=np.uint32)]
    with calls.check("apply", "invalid", state=block.state, many_ids=block.ids,
                     many_left=block.left, remoteness=block.rem, messages=messages,
                     level=max(level, 1), ties=False):
        before = (block.state.copy(), block.left.copy(), block.rem.copy())
        raises([(ValueError, r"holds MANY \(252\) but has no counter kept aside",
                 f"position {u} holds MANY without a counter")],
               blocks.apply, block.state, block.ids, block.left, block.rem, messages,
               max(level, 1), False)
        for got, was in zip((block.state, block.left, block.rem), before):
            assert np.array_equal(got, was), "a refused move changed the block"


def fuzz_blocks(seed, rounds=400):
    rng = random.Random(seed)
    calls = Calls()
    late = []
    for _ in range(rounds):
        game = BlockGame(rng)
        check_initial(rng, calls, game)
        snaps = []
        check_solve_by_blocks(rng, calls, game, snaps, given=False)
        check_solve_by_blocks(rng, calls, game, snaps, given=True)
        check_disagree(rng, calls, game)
        # Blocks as the solves by blocks left them, before one of their calls.
        levels = [s for s in snaps if s.kind == "level"]
        applies = [s for s in snaps if s.kind == "apply"] or levels
        for kernel in ("level_source", "level_given"):
            check_level(rng, calls, kernel, game, rng.choice(levels))
        for _ in range(2):
            check_apply(rng, calls, game, rng.choice(applies))
        check_known_decode(rng, calls, rng.choice(levels).block.state)
        if rng.random() < 0.02:
            late.append((game, rng.choice(levels)))
    for game, snap in late:
        for kernel in rng.sample(["level_source", "apply"], 2):
            check_unchecked_blocks(rng, calls, game, snap, kernel)
    return calls.summary()


# -- the tests: one child a run ------------------------------------------------------------------

CASES = {"graphs": fuzz_graphs, "sources": fuzz_sources, "octal": fuzz_octal,
         "explore": fuzz_explore, "blocks": fuzz_blocks}


def run_child(case, seed, timeout=120):
    """Run one fuzz case in a child process: the calls it checked, by kernel
    and kind, once it is known that it did not crash and no check failed."""
    proc = subprocess.run([sys.executable, os.path.abspath(__file__), case, str(seed)],
                          capture_output=True, text=True, timeout=timeout)
    if proc.returncode < 0:
        name = signal.Signals(-proc.returncode).name
        lines = proc.stderr.splitlines()
        failed = [x for x in lines if x.startswith("FAILED: ")]
        pytest.fail(f"the {case} fuzzer (seed {seed}) CRASHED, killed by {name}: a kernel "
                    f"crashed the interpreter.  The last calls (the last one made the "
                    f"crash, or an earlier one corrupted memory):\n" + "\n".join(lines[-3:]) +
                    f"\n{len(failed)} calls failed their check before, the first ones:\n" +
                    "\n".join(failed[:5]))
    lines = [x for x in proc.stdout.splitlines() if x.startswith("@@")]
    assert lines, f"the {case} fuzzer (seed {seed}) died (exit {proc.returncode}) " \
        f"without its summary:\n{proc.stderr[-3000:]}"
    report = json.loads(lines[-1][2:])
    assert report["failed"] == 0, \
        f"the {case} fuzzer (seed {seed}): {report['failed']} calls failed their check " \
        f"(the first ones below); calls by kernel: {report['calls']}\n" + \
        "\n".join(report["failures"])
    assert proc.returncode == 0, proc.stderr[-3000:]
    return report["calls"]


def assert_exercised(counts, kernels, valid, invalid):
    """Each kernel called validly at least ``valid`` times and invalidly at
    least ``invalid`` times (checked, not merely survived)."""
    for kernel in kernels:
        got = counts.get(kernel, {})
        assert got.get("valid", 0) >= valid and got.get("invalid", 0) >= invalid, \
            (kernel, got)


@pytest.mark.parametrize("seed", range(2))
def test_graph_kernels(seed):
    # check_csr, edges_to_csr, CSRSource, the retrograde driver and best moves
    # on it (and the public solve as a cross-check), dag_grundy, loopy_grundy
    # and sums_grundy.
    counts = run_child("graphs", seed)
    assert_exercised(counts, ["check_csr", "edges_to_csr", "CSRSource", "solve(CSRSource)",
                              "best_moves(CSRSource)", "dag_grundy", "loopy_grundy",
                              "sums_grundy"], valid=200, invalid=100)
    assert counts["sums_grundy"].get("unchecked", 0) >= 30, counts["sums_grundy"]


@pytest.mark.parametrize("seed", range(2))
def test_police_source(seed):
    # PoliceThiefSource's checks; the retrograde driver and best moves on it,
    # against the game restated in Python.
    counts = run_child("sources", seed)
    assert_exercised(counts, ["PoliceThiefSource", "solve(PoliceThiefSource)",
                              "best_moves(PoliceThiefSource)"], valid=200, invalid=100)
    assert counts["PoliceThiefSource"].get("unchecked", 0) >= 20, counts["PoliceThiefSource"]


@pytest.mark.parametrize("seed", range(2))
def test_octal_kernels(seed):
    # plain_extend, sparse_extend (one thread) and find_period.
    counts = run_child("octal", seed)
    assert_exercised(counts, ["plain_extend", "sparse_extend", "find_period"],
                     valid=400, invalid=200)


@pytest.mark.parametrize("seed", range(2))
def test_explore_kernel(seed):
    # CodeTable: insert, lookup, reserve, bytes_for, the constructor.
    counts = run_child("explore", seed)
    assert_exercised(counts, ["insert", "lookup", "reserve", "bytes_for", "CodeTable"],
                     valid=400, invalid=150)


@pytest.mark.parametrize("seed", range(2))
def test_block_kernels(seed):
    # The engine's block kernel: whole solves by blocks (level_source, and
    # level_given with the predecessors listed), checked call by call and
    # against the reference; given predecessors that disagree with the
    # moves; then initial_states, initial_from, level_source, level_given,
    # apply, known and decode one call at a time, valid and not.
    counts = run_child("blocks", seed)
    assert_exercised(counts, ["blocks(level_source)", "blocks(level_given)"], valid=300,
                     invalid=0)
    assert counts["blocks(a predecessor twice)"].get("invalid", 0) >= 80, \
        counts["blocks(a predecessor twice)"]
    assert_exercised(counts, ["initial_states", "initial_from", "level_source", "level_given",
                              "apply", "known", "decode"], valid=150, invalid=50)


if __name__ == "__main__":
    report = CASES[sys.argv[1]](int(sys.argv[2]))
    print("@@" + json.dumps(report))
    sys.exit(1 if report["failed"] else 0)
