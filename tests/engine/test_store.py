"""Saved solutions: round trips for every kind, and damaged files refused.

A damaged file (truncated anywhere, any byte changed, the header edited,
not a grundy file at all, a newer format) must give FileFormatError naming
the file, or, where the change touches bytes nobody reads (a timestamp),
load exactly the solution that was saved: never a crash or a wrong answer.
"""
import io
import json
import os
import zipfile

import numpy as np
import pytest

import grundy
from grundy import FileFormatError, MemoryLimitError
from grundy import BatchGame, Game

# -- things to save ---------------------------------------------------------------------


class Subtract(Game):
    """Take 1, 2 or 3 from a heap, positions as (heap, "name") tuples; 0 is a TIE
    when the heap started odd, to have all outcomes."""

    def start(self):
        return (9, "heap")

    def moves(self, p):
        return [(p[0] - k, "heap") for k in (1, 2, 3) if k <= p[0]]

    def primitive(self, p):
        return grundy.TIE if p[0] == 0 else None


class Cycle(BatchGame):
    """Codes 0..19 in a ring with chords: draws, wins and losses."""

    def start(self):
        return 0

    def moves(self, codes):
        codes = np.asarray(codes)
        children = np.stack([(codes + 1) % 20, (codes * 3) % 23]).T
        keep = children < 20
        offsets = np.concatenate([[0], np.cumsum(keep.sum(axis=1))])
        return offsets, children[keep]

    def primitive(self, codes):
        return np.where(np.asarray(codes) == 19, grundy.LOSS, 0)


def graph_named():
    return grundy.GameGraph.from_edges(
        [("a", "b"), ("b", ("t", 1)), (("t", 1), "a"), (("t", 1), None), (None, b"x"),
         (b"x", frozenset({1, 2})), (frozenset({1, 2}), 1.5), ("loop", "loop")],
        names=True).solve()


def police():
    return grundy.PoliceThief.parse("4 5\nP..*E\n.*...\n...T.\nE.*..").solve()


SOLUTIONS = {
    "graph": lambda: grundy.GameGraph.from_edges([(0, 1), (1, 2), (2, 0), (2, 3), (4, 4)]).solve(),
    "graph-named": graph_named,
    "graph-misere-empty-names": lambda: grundy.GameGraph([0, 0], [], positions=["only"]).solve(
        misere=True),
    "graph-int-names": lambda: grundy.GameGraph.from_edges([(10, 20), (20, 30)], names=True).solve(),
    "impartial-sums": lambda: grundy.ImpartialGame(
        lambda n: [grundy.Sum(a, n - 1 - a) for a in range(n)] + ([n - 2] if n > 1 else [])
    ).solve(5),
    "police": police,
    "police-rules": lambda: grundy.PoliceThief(["P..", ".*.", "..T"], police_moves="rook",
                                               thief_moves=[(0, 1), (1, 1)],
                                               passing=False).solve(),
    "game": lambda: grundy.solve_game(Subtract()),
    "batch": lambda: grundy.solve_game(Cycle()),
}


def assert_same(a, b):
    assert type(a) is type(b)
    for name in ("outcome", "remoteness", "move"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and np.array_equal(x, y), name
    assert list(a.positions) == list(b.positions)
    assert a.start == b.start
    assert a.counts() == b.counts()
    for p in list(a.positions)[:50]:
        assert a[p] == b[p]
        assert a.line(p) == b.line(p)


@pytest.mark.parametrize("kind", SOLUTIONS)
@pytest.mark.parametrize("mmap", [False, True])
def test_round_trip(kind, mmap, tmp_path):
    sol = SOLUTIONS[kind]()
    path = tmp_path / "sol.npz"
    sol.save(path)
    back = grundy.load(path, mmap=mmap)
    assert_same(sol, back)
    if mmap:
        assert isinstance(back.outcome, np.memmap) or isinstance(back.outcome.base, np.memmap)
    assert not back.outcome.flags.writeable
    # numpy reads the same arrays: the documented format.
    with np.load(path) as z:
        assert np.array_equal(z["outcome"], sol.outcome)


def test_police_round_trip_keeps_the_board(tmp_path):
    sol = police()
    sol.save(tmp_path / "p.npz")
    back = grundy.load(tmp_path / "p.npz", mmap=True, verify=False)
    assert back.board.rows == sol.board.rows
    assert back.result == sol.result
    assert back.line() == sol.line()


TAKE_AND_BREAK = [
    lambda: grundy.OctalGame("0.77"), lambda: grundy.HexGame("0.3F"),
    lambda: grundy.GrundysGame(), lambda: grundy.SubtractionGame({1, 3, 4}),
    lambda: grundy.TakeAndBreakGame("mine", take1=[1, 2], take2=[2], unequal=True),
]


@pytest.mark.parametrize("make", TAKE_AND_BREAK)
def test_take_and_break_round_trip(make, tmp_path):
    game = make()
    game.nim_sequence(400)
    period = game.periodicity(400)
    game.save(tmp_path / "g.npz")
    back = grundy.load(tmp_path / "g.npz")
    assert type(back) is type(game) and back.name == game.name
    assert back._n == 401                     # the values come back, not recomputed
    assert np.array_equal(back.nim_sequence(400), game.nim_sequence(400))
    assert back.periodicity(400) == period
    # It goes on growing like the original.
    assert np.array_equal(back.nim_sequence(700), make().nim_sequence(700))


def test_take_and_break_empty_cache(tmp_path):
    grundy.GrundysGame().save(tmp_path / "g.npz")
    back = grundy.load(tmp_path / "g.npz")
    assert back.nim_sequence(20).tolist() == grundy.GrundysGame().nim_sequence(20).tolist()


@pytest.mark.parametrize("mmap", [False, True])
def test_loopy_round_trip(mmap, tmp_path):
    g = grundy.GameGraph.from_edges([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e")],
                                    names=True)
    lv = g.loopy_values()
    lv.save(tmp_path / "l.npz")
    back = grundy.load(tmp_path / "l.npz", mmap=mmap)
    assert type(back) is grundy.LoopyValues
    assert [back[p] for p in "abcde"] == [lv[p] for p in "abcde"]
    assert np.array_equal(back.outcome, lv.outcome) and back.stages == lv.stages


def test_random_graphs_round_trip(tmp_path):
    rng = np.random.default_rng(5)
    for trial in range(30):
        n = int(rng.integers(1, 40))
        m = int(rng.integers(0, 3 * n))
        edges = rng.integers(0, n, size=(m, 2))
        sol = grundy.GameGraph.from_edges(edges, n=n).solve(misere=bool(trial % 2))
        sol.save(tmp_path / "r.npz")
        assert_same(sol, grundy.load(tmp_path / "r.npz", mmap=bool(trial % 3)))


# -- what cannot be saved ----------------------------------------------------------------

def test_unsavable_positions_are_refused(tmp_path):
    class Thing:
        pass
    sol = grundy.GameGraph([0, 1, 1], [1], positions=[Thing(), "b"]).solve()
    with pytest.raises(TypeError, match="cannot save the position .*Thing"):
        sol.save(tmp_path / "x.npz")
    assert not os.listdir(tmp_path)           # nothing left behind
    nan = grundy.GameGraph([0, 0], [], positions=[float("nan")]).solve()
    with pytest.raises(TypeError, match="cannot save the position nan"):
        nan.save(tmp_path / "x.npz")


def test_compiled_source_solution_is_refused(tmp_path):
    from grundy._core.police import PoliceThiefSource
    step, back = np.array([[1], [-1]]), np.array([[-1], [0]])
    src = PoliceThiefSource(step, step, back, back, np.zeros(2, np.uint8), True)
    with pytest.raises(TypeError, match="compiled game cannot be saved"):
        grundy.solve_source(src).save(tmp_path / "x.npz")


@pytest.mark.parametrize("path, exc, match", [
    (None, TypeError, "path must be"), (3, TypeError, "path must be"),
    ("", ValueError, "empty"), (b"x.npz", TypeError, "path must be"),
])
def test_bad_paths(path, exc, match):
    sol = SOLUTIONS["graph"]()
    with pytest.raises(exc, match=match):
        sol.save(path)
    with pytest.raises(exc, match=match):
        grundy.load(path)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(FileNotFoundError):
        grundy.load(tmp_path / "none.npz")
    with pytest.raises(FileNotFoundError):
        SOLUTIONS["graph"]().save(tmp_path / "no" / "such" / "dir.npz")


def test_load_refuses_beyond_max_memory(tmp_path):
    board = grundy.PoliceThief(["P" + "." * 18 + "T"] + ["." * 20] * 19)
    board.solve().save(tmp_path / "p.npz")                    # 320,000 positions, 960 kB
    with pytest.raises(MemoryLimitError, match="reading"):
        grundy.load(tmp_path / "p.npz", max_memory=200_000)
    grundy.load(tmp_path / "p.npz", mmap=True, max_memory=200_000)   # mapped: not read


def test_bad_options(tmp_path):
    SOLUTIONS["graph"]().save(tmp_path / "g.npz")
    with pytest.raises(TypeError, match="mmap"):
        grundy.load(tmp_path / "g.npz", mmap="yes")
    with pytest.raises(TypeError, match="verify"):
        grundy.load(tmp_path / "g.npz", verify=1)


# -- damaged and foreign files ----------------------------------------------------------

def fingerprint(obj):
    """Everything a loaded object answers, to compare a damaged load with the original."""
    if isinstance(obj, grundy.TakeAndBreakGame):
        return (type(obj), obj.name, obj.nim_sequence(obj._n - 1).tolist() if obj._n else [],
                obj._period)
    if isinstance(obj, grundy.LoopyValues):
        return (obj.finite.tolist(), obj.outcome.tolist(), list(obj.positions), obj.stages)
    return (type(obj), obj.outcome.tolist(), obj.remoteness.tolist(), obj.move.tolist(),
            list(obj.positions), obj.start)


def loads_same_or_refused(path, original, mmap):
    try:
        back = grundy.load(path, mmap=mmap)
        got = fingerprint(back)
    except FileFormatError as exc:
        assert str(path) in str(exc)
        return "refused"
    assert got == fingerprint(original)
    return "same"


def saved_bytes(tmp_path, obj):
    obj.save(tmp_path / "orig.npz")
    return (tmp_path / "orig.npz").read_bytes()


KINDS = {
    "graph-named": graph_named, "police": police, "game": lambda: grundy.solve_game(Subtract()),
    "octal": lambda: (lambda g: (g.nim_sequence(100), g.periodicity(100), g)[2])(grundy.OctalGame("0.137")),
}


@pytest.mark.parametrize("kind", KINDS)
def test_truncated_anywhere_is_refused(kind, tmp_path):
    obj = KINDS[kind]()
    data = saved_bytes(tmp_path, obj)
    rng = np.random.default_rng(1)
    cuts = set(rng.integers(0, len(data), size=60).tolist()) | {0, 1, 4, 30, len(data) - 1}
    for cut in sorted(cuts):
        path = tmp_path / f"cut{cut}.npz"
        path.write_bytes(data[:cut])
        for mmap in (False, True):
            with pytest.raises(FileFormatError, match="cut"):
                grundy.load(path, mmap=mmap)


@pytest.mark.parametrize("kind", KINDS)
def test_flipped_bytes_are_refused_or_harmless(kind, tmp_path):
    obj = KINDS[kind]()
    data = saved_bytes(tmp_path, obj)
    rng = np.random.default_rng(2)
    where = set(rng.integers(0, len(data), size=150).tolist())
    # Also every byte of the header member and of the end records.
    where |= set(range(0, min(400, len(data)))) | set(range(max(0, len(data) - 200), len(data)))
    seen = {"refused": 0, "same": 0}
    path = tmp_path / "flip.npz"
    for i in sorted(where):
        bad = bytearray(data)
        bad[i] ^= 1 << int(rng.integers(0, 8))
        path.write_bytes(bytes(bad))
        for mmap in (False, True):
            seen[loads_same_or_refused(path, obj, mmap)] += 1
    assert seen["refused"] > seen["same"]


def rewrite(path, edit_header=None, edit_members=None):
    """Rewrite an archive with its header (and members) edited: valid CRCs."""
    with zipfile.ZipFile(path) as z:
        members = {name: z.read(name) for name in z.namelist()}
    header = json.loads(members["header.json"])
    if edit_header:
        edit_header(header)
    members["header.json"] = json.dumps(header).encode()
    if edit_members:
        edit_members(members)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        for name, data in members.items():
            z.writestr(name, data)


def set_key(*keys, value):
    def edit(h):
        d = h
        for k in keys[:-1]:
            d = d[k]
        d[keys[-1]] = value
    return edit


def npy(arr):
    buf = io.BytesIO()
    np.save(buf, arr)
    return buf.getvalue()


@pytest.mark.parametrize("kind, edit, match", [
    ("graph", set_key("format", value="other"), "not a saved grundy solution"),
    ("graph", set_key("version", value=2), r"newer grundy .*format version 2.*upgrade"),
    ("graph", set_key("version", value="1"), "format version '1'"),
    ("graph", set_key("kind", value="chess"), "unknown kind 'chess'"),
    ("graph", set_key("kind", value="police"), "lacks 'rows'"),
    ("graph", set_key("arrays", "outcome", "shape", value=[4]), r"outcome.npy holds int8\[5\]"),
    ("graph", set_key("arrays", "outcome", "dtype", value="<f8"), "not integers"),
    ("graph", set_key("arrays", "move", value=None), "entry for 'move'"),
    ("graph", set_key("data", value=[]), "damaged"),
    ("graph", set_key("data", "start", value=[99]), "99"),
    ("graph-named", set_key("data", "positions", value=["a"] * 8), "distinct"),
    ("graph-named", set_key("data", "positions", value=[{"x": 1}] * 8), "not one the format"),
    ("police", set_key("data", "rows", value=["P.T"]), "3 free cells has 18 positions"),
    ("police", set_key("data", "passing", value="yes"), "passing"),
    ("octal", set_key("data", "rules", value=[[1], [], [], []]), "not those of its code"),
    ("octal", set_key("data", "period", value=[0, 3, 10 ** 6]), "is not proved"),
    ("octal", set_key("data", "class", value="os.system"), "unknown game class"),
])
def test_edited_header_is_refused(kind, edit, match, tmp_path):
    obj = {"graph": SOLUTIONS["graph"], **KINDS}[kind]()
    path = tmp_path / "edit.npz"
    obj.save(path)
    rewrite(path, edit)
    for mmap in (False, True):
        with pytest.raises(FileFormatError, match=match):
            grundy.load(path, mmap=mmap)


@pytest.mark.parametrize("edit, match", [
    (lambda m: m.update({"move.npy": npy(np.array([1, 2, 3, 9, 4]))}), r"move\[3\] = 9"),
    (lambda m: m.update({"outcome.npy": npy(np.array([1, 1, 1, 5, 1], np.int8))}), r"outcome\[3\] = 5"),
    (lambda m: m.update({"indices.npy": npy(np.array([1, 2, 0, 3, 77]))}), "77"),
    (lambda m: m.pop("move.npy"), "'move' is missing"),
    (lambda m: m.update({"move.npy": npy(np.array([1, 2]))}), "holds int64"),
])
def test_edited_arrays_are_refused(edit, match, tmp_path):
    path = tmp_path / "edit.npz"
    SOLUTIONS["graph"]().save(path)
    rewrite(path, edit_members=edit)
    with pytest.raises(FileFormatError, match=match):
        grundy.load(path)


def test_mapped_load_catches_flipped_data_unless_told_not_to(tmp_path):
    sol = police()
    data = bytearray(saved_bytes(tmp_path, sol))
    with zipfile.ZipFile(tmp_path / "orig.npz") as z:
        info = z.getinfo("outcome.npy")
    data[info.header_offset + 30 + len("outcome.npy") + 200] ^= 0x40   # inside the data
    path = tmp_path / "flip.npz"
    path.write_bytes(bytes(data))
    for mmap in (False, True):
        with pytest.raises(FileFormatError, match="CRC"):
            grundy.load(path, mmap=mmap)
    grundy.load(path, mmap=True, verify=False)       # documented: not checked


@pytest.mark.parametrize("content, match", [
    (b"", "not a zip"), (b"hello", "not a zip"), (b"PK\x03\x04" + b"\0" * 50, "not a zip"),
])
def test_foreign_files(content, match, tmp_path):
    path = tmp_path / "f.npz"
    path.write_bytes(content)
    with pytest.raises(FileFormatError, match=match):
        grundy.load(path)


def test_plain_npz_and_compressed_members(tmp_path):
    np.savez(tmp_path / "plain.npz", outcome=np.zeros(3, np.int8))
    with pytest.raises(FileFormatError, match="without header.json"):
        grundy.load(tmp_path / "plain.npz")
    path = tmp_path / "c.npz"
    SOLUTIONS["graph"]().save(path)
    with zipfile.ZipFile(path) as z:
        members = {name: z.read(name) for name in z.namelist()}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    with pytest.raises(FileFormatError, match="compressed"):
        grundy.load(path)


def test_directory_is_an_os_error(tmp_path):
    with pytest.raises(IsADirectoryError):
        grundy.load(tmp_path)


def test_saving_is_atomic_when_interrupted(tmp_path, monkeypatch):
    # Ctrl-C halfway through a save leaves the old file intact and no part file.
    path = tmp_path / "p.npz"
    SOLUTIONS["graph"]().save(path)
    before = path.read_bytes()
    real = np.lib.format.write_array

    def interrupted(*args, **kwargs):
        real(*args, **kwargs)
        raise KeyboardInterrupt

    monkeypatch.setattr(np.lib.format, "write_array", interrupted)
    with pytest.raises(KeyboardInterrupt):
        police().save(path)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["p.npz"]


# -- found by a hostile review --------------------------------------------------------

def test_mapped_load_reads_the_file_it_checked(tmp_path, monkeypatch):
    # A save to the same path in the middle of a mapped load (an atomic
    # rename) must not mix the two files: the arrays come from the file opened.
    import grundy.engine.store as store
    path = tmp_path / "s.npz"
    first = SOLUTIONS["graph"]()
    first.save(path)
    other = grundy.GameGraph.from_edges([(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]).solve()
    real = store._npy_header
    swapped = []

    def swap_then_read(*args, **kwargs):
        if not swapped:
            other.save(path)
            swapped.append(True)
        return real(*args, **kwargs)

    monkeypatch.setattr(store, "_npy_header", swap_then_read)
    back = grundy.load(path, mmap=True)
    assert swapped and fingerprint(back) == fingerprint(first)


def test_header_is_counted_against_max_memory(tmp_path):
    names = [f"position-{i:08d}" for i in range(20_000)]
    sol = grundy.GameGraph(np.zeros(20_001, np.int64), [], positions=names).solve()
    sol.save(tmp_path / "n.npz")
    with pytest.raises(MemoryLimitError, match="header"):
        grundy.load(tmp_path / "n.npz", max_memory=100_000)
    with pytest.raises(MemoryLimitError, match="header"):
        grundy.load(tmp_path / "n.npz", mmap=True, max_memory=100_000)


def test_compressed_header_is_refused(tmp_path):
    path = tmp_path / "c.npz"
    SOLUTIONS["graph"]().save(path)
    with zipfile.ZipFile(path) as z:
        members = {name: z.read(name) for name in z.namelist()}
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data, zipfile.ZIP_DEFLATED if name == "header.json"
                       else zipfile.ZIP_STORED)
    with pytest.raises(FileFormatError, match="header.json is compressed"):
        grundy.load(path)


def test_police_board_must_fit_the_arrays_before_it_is_built(tmp_path):
    path = tmp_path / "p.npz"
    police().save(path)
    rewrite(path, set_key("data", "rows", value=["P" + "." * 3000 + "T"] * 3000))
    with pytest.raises(FileFormatError, match="free cells has .* positions, the file holds"):
        grundy.load(path)


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
def test_special_files_are_refused_at_once(special, tmp_path):
    if special == "fifo":
        special = str(tmp_path / "fifo")
        os.mkfifo(special)
    elif not os.path.exists(special):
        pytest.skip(f"no {special} here")
    code = f"import grundy\ntry:\n    grundy.load({special!r})\nexcept grundy.FileFormatError as e:\n    print(e)\n"
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "not a regular file" in r.stdout, r.stderr


def test_deep_nesting(tmp_path):
    deep = 0
    for _ in range(5000):
        deep = (deep,)
    sol = grundy.GameGraph([0, 0], [], positions=[deep]).solve()
    with pytest.raises(TypeError, match="nested this deeply"):
        sol.save(tmp_path / "d.npz")
    path = tmp_path / "h.npz"
    graph_named().save(path)
    rewrite(path, set_key("data", "positions", value="DEEP"),
            edit_members=lambda m: m.update({"header.json": m["header.json"].replace(
                b'"DEEP"', b"[" * 5000 + b"]" * 5000)}))
    with pytest.raises(FileFormatError, match="nested too deeply|not one the format"):
        grundy.load(path)


@pytest.mark.parametrize("period", [[0, 5, 10], [0, 0, 0], [71, 12, 200], [70, 12, 167]])
def test_a_saved_period_is_proved_again(period, tmp_path):
    path = tmp_path / "k.npz"
    game = grundy.OctalGame("0.77")
    game.nim_sequence(300)
    game.periodicity()
    game.save(path)
    rewrite(path, set_key("data", "period", value=period))
    with pytest.raises(FileFormatError, match="is not proved by the 301 saved values"):
        grundy.load(path)


def test_mapped_values_are_range_checked_when_verified(tmp_path):
    path = tmp_path / "m.npz"
    SOLUTIONS["graph"]().save(path)
    rewrite(path, edit_members=lambda m: m.update({"move.npy": npy(np.array([1, 2, 3, -7, 4]))}))
    with pytest.raises(FileFormatError, match=r"move\[3\] = -7"):
        grundy.load(path, mmap=True)
    assert grundy.load(path, mmap=True, verify=False).move[3] == -7     # documented


@pytest.mark.parametrize("max_memory, exc", [(-1, ValueError), (True, TypeError),
                                             ("lots", TypeError)])
def test_bad_max_memory_is_the_callers_error(max_memory, exc, tmp_path):
    SOLUTIONS["graph"]().save(tmp_path / "g.npz")
    with pytest.raises(exc, match="max_memory") as info:
        grundy.load(tmp_path / "g.npz", max_memory=max_memory)
    assert not isinstance(info.value, FileFormatError)


def test_long_names_permissions_and_links(tmp_path):
    sol = SOLUTIONS["graph"]()
    long = tmp_path / ("x" * 240 + ".npz")
    sol.save(long)
    assert_same(sol, grundy.load(long))
    private = tmp_path / "private.npz"
    sol.save(private)
    os.chmod(private, 0o600)
    sol.save(private)
    assert os.stat(private).st_mode & 0o777 == 0o600
    target, link = tmp_path / "target.npz", tmp_path / "link.npz"
    sol.save(target)
    os.symlink(target, link)
    police().save(link)
    assert os.path.islink(link)
    assert isinstance(grundy.load(target), grundy.PoliceThiefSolution)
    assert sorted(os.listdir(tmp_path)) == sorted([long.name, "private.npz", "target.npz",
                                                   "link.npz"])


def test_duplicate_members_and_json_constants(tmp_path):
    path = tmp_path / "d.npz"
    SOLUTIONS["graph"]().save(path)
    with zipfile.ZipFile(path, "a") as z:
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            z.writestr("move.npy", npy(np.array([1, 2, 3, -1, 4])))
    with pytest.raises(FileFormatError, match="appears twice"):
        grundy.load(path)
    path = tmp_path / "n.npz"
    graph_named().save(path)
    with zipfile.ZipFile(path) as z:
        members = {name: z.read(name) for name in z.namelist()}
    members["header.json"] = members["header.json"].replace(b'"a"', b"NaN", 1)
    with zipfile.ZipFile(path, "w") as z:
        for name, data in members.items():
            z.writestr(name, data)
    with pytest.raises(FileFormatError, match="NaN, which grundy never writes"):
        grundy.load(path)


def test_numpy_bool_names_save(tmp_path):
    sol = grundy.GameGraph([0, 1, 1], [1], positions=[np.True_, np.False_]).solve()
    sol.save(tmp_path / "b.npz")
    assert list(grundy.load(tmp_path / "b.npz").positions) == [True, False]
