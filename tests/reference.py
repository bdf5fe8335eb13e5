"""Slow, obviously-correct reference solvers, straight from the definitions.

Nothing here is clever: each function restates a definition as a fixpoint
or a search over plain Python lists, so the compiled kernels can be checked
against it on many small inputs.
"""
import functools

WIN, LOSS, DRAW = 1, -1, 0


def solve_rounds(n, succ, misere=False, labels=None):
    """Win/loss/draw and remoteness by rounds: round k decides exactly the
    vertices of remoteness k.

    ``succ[v]`` lists the successors of v (repeats allowed); ``labels`` maps
    vertex -> WIN/LOSS for vertices whose outcome is fixed (their moves are
    ignored).  Returns (outcome, remoteness) lists; remoteness -1 for draws.
    """
    labels = labels or {}
    outcome = [None] * n
    rem = [None] * n
    for v in range(n):
        if v in labels:
            outcome[v], rem[v] = labels[v], 0
        elif not succ[v]:
            outcome[v], rem[v] = (WIN if misere else LOSS), 0
    k = 0
    while True:
        k += 1
        decided = []
        for u in range(n):
            if outcome[u] is not None:
                continue
            # WIN at round k: a LOSS successor of remoteness k - 1.
            if any(outcome[v] == LOSS and rem[v] == k - 1 for v in succ[u]):
                decided.append((u, WIN))
            # LOSS at round k: every successor a WIN, the farthest at k - 1.
            elif all(outcome[v] == WIN and rem[v] < k for v in succ[u]) and \
                    max(rem[v] for v in succ[u]) == k - 1:
                decided.append((u, LOSS))
        if not decided:
            break
        for u, o in decided:
            outcome[u], rem[u] = o, k
    for v in range(n):
        if outcome[v] is None:
            outcome[v], rem[v] = DRAW, -1
    return outcome, rem


def check_moves(n, succ, outcome, rem, move, labels=None, misere=False):
    """Assert that ``move`` is an optimal move for every vertex."""
    labels = labels or {}
    for v in range(n):
        if v in labels or not succ[v]:
            assert move[v] == -1, (v, move[v])
            continue
        w = move[v]
        assert w in succ[v], f"move[{v}] = {w} is not a successor"
        if outcome[v] == WIN:
            assert outcome[w] == LOSS and rem[w] == rem[v] - 1, v
        elif outcome[v] == LOSS:
            assert outcome[w] == WIN and rem[w] == rem[v] - 1, v
        else:
            assert outcome[w] == DRAW, v


def mex(values):
    """Smallest non-negative integer not in ``values``."""
    values = set(values)
    g = 0
    while g in values:
        g += 1
    return g


def grundy_recursive(n, succ):
    """Grundy values of an acyclic graph by naive memoised recursion."""
    memo = {}

    def g(v):
        if v not in memo:
            memo[v] = mex(g(w) for w in succ[v])
        return memo[v]

    return [g(v) for v in range(n)]


def nim_tree(piles, misere=False):
    """WIN/LOSS of a Nim position by full game-tree search (small piles)."""
    memo = {}

    def win(pos):
        if pos not in memo:
            if not any(pos):
                memo[pos] = misere          # no move: normal LOSS, misère WIN
            else:
                memo[pos] = any(not win(tuple(sorted(pos[:i] + (k,) + pos[i + 1:])))
                                for i, x in enumerate(pos) for k in range(x))
        return memo[pos]

    return WIN if win(tuple(sorted(piles))) else LOSS


def nim_winning_moves_tree(piles, misere=False):
    """Every move to a LOSS position, as the position it leads to (a tuple
    of piles), in pile order, by game-tree search."""
    after = (tuple(piles[:i]) + (k,) + tuple(piles[i + 1:])
             for i, x in enumerate(piles) for k in range(x))
    return [pos for pos in after if nim_tree(list(pos), misere) == LOSS]


INF = "inf"


def loopy_staged(n, succ):
    """Generalized Sprague-Grundy values, straight from the staged definition.

    Returns a list of ints (finite values) and (INF, frozenset K) pairs.
    """
    label = [None] * n
    m = 0
    while any(x is None for x in label):
        changed = True
        while changed:
            changed = False
            for u in range(n):
                if label[u] is not None or any(label[w] == m for w in succ[u]):
                    continue
                if all(any(label[x] == m for x in succ[w])
                       for w in succ[u] if label[w] is None or label[w] == INF):
                    label[u] = m
                    changed = True
        for u in range(n):
            if label[u] is None and not any(label[w] == m for w in succ[u]):
                label[u] = INF
        m += 1
    return [(INF, frozenset(label[w] for w in succ[u] if label[w] != INF))
            if label[u] == INF else label[u] for u in range(n)]


def octal_values_naive(code, n, base=8):
    """G(0..n) of an octal/hex game, straight from the code's definition:
    every way to take k tokens and leave 0, 1, 2 (or 3) non-empty heaps."""
    head, _, tail = code.partition(".")
    digits = [int(head or "0", 16)] + [int(ch, 16) for ch in tail]
    G = []
    for h in range(n + 1):
        options = set()
        for k, d in enumerate(digits):
            rest = h - k
            if rest < 0:
                continue
            if d & 1 and rest == 0 and k > 0:
                options.add(0)
            if d & 2 and rest > 0 and k > 0:
                options.add(G[rest])
            if d & 4:
                for a in range(1, rest):
                    options.add(G[a] ^ G[rest - a])
            if d & 8:
                for a in range(1, rest):
                    for b in range(1, rest - a):
                        options.add(G[a] ^ G[b] ^ G[rest - a - b])
        G.append(mex(options))
    return G


def heap_options_naive(code, h, base=8):
    """The options of one heap of h in an octal/hex game, as tuples of the
    heaps left, straight from the code's digits."""
    head, _, tail = code.partition(".")
    digits = [int(head or "0", 16)] + [int(ch, 16) for ch in tail]
    for k, d in enumerate(digits):
        rest = h - k
        if rest < 0:
            continue
        if d & 1 and rest == 0 and k > 0:
            yield ()
        if d & 2 and rest > 0 and k > 0:
            yield (rest,)
        if d & 4:
            for a in range(1, rest):
                yield (a, rest - a)
        if d & 8:
            for a in range(1, rest):
                for b in range(1, rest - a):
                    yield (a, b, rest - a - b)


def sum_outcome_naive(code, heaps, misere, base=8):
    """True if the player to move wins the sum of heaps, by the definition:
    some move to a position the other player loses; with no move at all,
    the player to move loses (normal play) or wins (misère play)."""
    return _sum_wins(code, misere, base)(tuple(sorted(heaps)))


@functools.lru_cache(maxsize=None)
def _sum_wins(code, misere, base):
    """The outcome function of one game and rule (positions remembered)."""
    @functools.lru_cache(maxsize=None)
    def wins(position):
        moved = False
        for i, h in enumerate(position):
            rest = position[:i] + position[i + 1:]
            for option in heap_options_naive(code, h, base):
                moved = True
                if not wins(tuple(sorted(rest + option))):
                    return True
        return misere and not moved
    return wins


def find_period_naive(G, heaps, t, extra_p):
    """The period search by its definition: for each p, the preperiod e from
    a scan down from the top; the smallest p the periodicity theorem proves
    with len(G) values, as (e, p, values_needed), else the candidate p <=
    (2 len(G) - t) // (heaps + extra_p) that needs the fewest values."""
    N = len(G)
    best = None
    for p in range(1, min(N - 1, (2 * N - t) // (heaps + extra_p)) + 1):
        n = N - p - 1
        while n >= 0 and G[n + p] == G[n]:
            n -= 1
        e = n + 1
        end = max(heaps * e + (heaps - 1 + extra_p) * p + t, e + 1)
        if end + p <= N:
            return (e, p, end + p)
        if best is None or end + p < best[2]:
            best = (e, p, end + p)
    return best


def grundys_game_naive(n):
    G = []
    for h in range(n + 1):
        G.append(mex(G[a] ^ G[h - a] for a in range(1, h) if 2 * a != h))
    return G


def subtraction_naive(s, n):
    G = []
    for h in range(n + 1):
        G.append(mex(G[h - k] for k in s if k <= h))
    return G


# ---------------------------------------------------------------------------
# Ties, and games given by their rules.

TIE = 2


def solve_rounds_ties(n, succ, misere=False, labels=None):
    """:func:`solve_rounds` with ties, by rounds again.

    ``labels`` maps vertex -> WIN/LOSS/TIE (their moves are ignored).  First
    the WIN/LOSS rounds exactly as in :func:`solve_rounds` (a TIE successor is
    not a WIN, so it keeps its predecessor from being a LOSS).  Then the TIE
    rounds: round k makes every still undecided vertex with a TIE successor
    of remoteness k - 1 a TIE of remoteness k (the fewest moves to a tie
    ending).  Vertices never decided are draws (remoteness -1).
    """
    succ_of = dict(enumerate(succ))
    outcome, rem = solve_positions(succ_of, dict(labels or {}), misere=misere)
    return [outcome[v] for v in range(n)], [rem[v] for v in range(n)]


def explore_positions(start, moves, primitive=None):
    """Every position reachable from ``start``, as dicts (no numbering).

    Returns ``(succ, labels)``: ``succ[p]`` the list of ``moves(p)`` (empty
    where the game is over), ``labels[p]`` the primitive value of the
    positions where it is not None.  Depth first, with a plain stack.
    """
    succ, labels = {}, {}
    stack, seen = [start], {start}
    while stack:
        p = stack.pop()
        value = primitive(p) if primitive is not None else None
        if value is not None:
            labels[p] = value
            succ[p] = []
            continue
        succ[p] = list(moves(p))
        for c in succ[p]:
            if c not in seen:
                seen.add(c)
                stack.append(c)
    return succ, labels


def solve_positions(succ, labels, misere=False):
    """Outcome and remoteness of every position of ``succ`` (a dict of lists),
    ties included: see :func:`solve_rounds_ties`.  Returns two dicts."""
    outcome, rem = {}, {}
    for p in succ:
        if p in labels:
            outcome[p], rem[p] = labels[p], 0
        elif not succ[p]:
            outcome[p], rem[p] = (WIN if misere else LOSS), 0
    k = 0
    while True:                             # WIN / LOSS, round by round
        k += 1
        decided = []
        for u in succ:
            if u in outcome:
                continue
            if any(outcome.get(v) == LOSS and rem[v] == k - 1 for v in succ[u]):
                decided.append((u, WIN))
            elif all(outcome.get(v) == WIN and rem[v] < k for v in succ[u]) and \
                    max(rem[v] for v in succ[u]) == k - 1:
                decided.append((u, LOSS))
        if not decided:
            break
        for u, o in decided:
            outcome[u], rem[u] = o, k
    k = 0
    while True:                             # then TIE, round by round
        k += 1
        decided = [u for u in succ if u not in outcome and
                   any(outcome.get(v) == TIE and rem[v] == k - 1 for v in succ[u])]
        if not decided:
            break
        for u in decided:
            outcome[u], rem[u] = TIE, k
    for p in succ:
        if p not in outcome:
            outcome[p], rem[p] = DRAW, -1
    return outcome, rem


def keeps_value(o, r, o2, r2):
    """A move from a position of value (o, r) to one of (o2, r2) is optimal."""
    if o == DRAW:
        return o2 == DRAW
    if o == TIE:
        return o2 == TIE and r2 == r - 1
    return o2 == -o and r2 == r - 1


def check_moves_ties(succ, labels, outcome, rem, move):
    """Assert that ``move[p]`` (None or -1 for no move) is a legal, value-keeping
    move of every position ``p`` of ``succ`` (dicts keyed by position)."""
    for p in succ:
        m = move[p]
        if p in labels or not succ[p]:
            assert m is None or m == -1, (p, m)
            continue
        assert m in succ[p], f"move of {p!r} is {m!r}, not one of its moves {succ[p]!r}"
        assert keeps_value(outcome[p], rem[p], outcome[m], rem[m]), \
            (p, outcome[p], rem[p], m, outcome[m], rem[m])


def first_keeping_moves(succ, labels, outcome, rem):
    """Each position's first move (in ``succ`` order) that keeps its value;
    -1 where the game is over or there is no such move (dicts in and out)."""
    out = {}
    for p in succ:
        out[p] = -1
        if p in labels:
            continue
        for c in succ[p]:
            if keeps_value(outcome[p], rem[p], outcome[c], rem[c]):
                out[p] = c
                break
    return out


# ---------------------------------------------------------------------------
# Take-and-break games given by their move rules, as the kernels take them.

def extend_naive(G, start, stop, take0=(), take1=(), take2=(), take3=(), unequal=False):
    """G[0:stop] of a take-and-break game, G[0:start] as given and each
    later value the mex of its options, straight from the rules (the
    numbers k of tokens a move takes, see ``grundy._core.octal``): a heap
    of n has the option 0 for each k of ``take0`` equal to n (the whole
    heap removed); G(n - k) for each k of ``take1`` below n (one smaller
    heap left: k >= 1); G(a) ^ G(b) for each k of ``take2`` and every split
    a + b = n - k into non-empty heaps (a != b if ``unequal``); G(a) ^ G(b)
    ^ G(c) for each k of ``take3`` and every split into three."""
    if any(k < 1 for k in take1):
        raise ValueError("take1 of 0 tokens leaves the heap as it is: not a move")
    G = [int(g) for g in G[:start]]
    for n in range(start, stop):
        options = set()
        options.update(0 for k in take0 if n == k)
        options.update(G[n - k] for k in take1 if n > k)
        for k in take2:
            m = n - k
            options.update(G[a] ^ G[m - a] for a in range(1, m)
                           if not (unequal and 2 * a == m))
        for k in take3:
            m = n - k
            options.update(G[a] ^ G[b] ^ G[m - a - b]
                           for a in range(1, m) for b in range(1, m - a))
        G.append(mex(options))
    return G
