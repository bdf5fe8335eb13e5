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
from grundy._core import csr, explore, grundy as kgrundy, loopy, octal, police, retrograde

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


# -- the tests: one child a run ------------------------------------------------------------------

CASES = {"graphs": fuzz_graphs, "sources": fuzz_sources, "octal": fuzz_octal,
         "explore": fuzz_explore}


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


if __name__ == "__main__":
    report = CASES[sys.argv[1]](int(sys.argv[2]))
    print("@@" + json.dumps(report))
    sys.exit(1 if report["failed"] else 0)
