"""Saved solutions: ``obj.save(path)`` and :func:`load`, in one file format.

A saved file is a numpy ``.npz`` archive (a zip file, members stored
uncompressed) holding:

- ``header.json``, first: a JSON object with ``"format": "grundy"``, the
  format ``"version"`` (1), the ``"kind"`` of what was saved (``"graph"``,
  ``"police"``, ``"game"``, ``"take-and-break"``, ``"loopy"``), the
  ``"library"`` version that wrote it, ``"arrays"`` (the name, dtype and
  shape of every array member) and ``"data"``: what the kind needs to answer
  questions (a police board's rows and move sets, a take-and-break game's
  rules and proved period, the names of a graph's positions...);
- one ``NAME.npy`` member per array (numpy's own ``.npy`` format), such as
  ``outcome.npy``, ``remoteness.npy``, ``move.npy``, ``indptr.npy``.

``numpy.load`` reads the arrays of such a file too.  Because the members are
stored uncompressed, ``load(path, mmap=True)`` maps the arrays read-only
from the file instead of reading them, so a solution larger than memory
answers queries, reading only the pages it needs.

Positions that are not numbers are saved in the header as JSON: ints,
strings, bools, None, floats, bytes, and tuples, frozensets and
:class:`grundy.Sum` of them.  Anything else is refused when saving.

Every damaged file is refused with :class:`FileFormatError` naming the file
and the problem: truncated, a flipped byte (each member carries a CRC-32,
checked when read; with ``mmap=True`` it is checked by a streaming pass
unless ``verify=False``), a header that does not fit the arrays, a file that
is not a grundy file, or one written by a newer format version.  An edit
made with its CRC recomputed is caught where the file can be checked against
itself: array shapes and value ranges, a graph's structure, a board against
its arrays, a period against the values that prove it.

Examples
--------
>>> import grundy, os, tempfile
>>> sol = grundy.GameGraph.from_edges([("a", "b"), ("b", "c")], names=True).solve()
>>> path = os.path.join(tempfile.mkdtemp(), "chain.npz")
>>> sol.save(path)
>>> back = grundy.load(path)
>>> back, back["a"]
(GraphSolution(n_positions=3, WIN=1, LOSS=2, DRAW=0), Evaluation(LOSS, remoteness=2, move='b'))
"""
from __future__ import annotations

import contextlib
import io
import json
import math
import os
import errno
import secrets
import stat
import struct
import zipfile
import zlib
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from grundy._common import check_bool, check_memory, shorten
from grundy._version import __version__
from grundy.engine.positions import decode_positions, encode_positions

__all__ = ["load", "FileFormatError"]

FORMAT = "grundy"
VERSION = 1
HEADER = "header.json"
# Bytes of memory per byte of header.json once parsed (position names as
# Python objects): the header is counted against max_memory before it is read.
_HEADER_EXPANSION = 32
_CHUNK = 1 << 24                    # bytes per step of the CRC check

class FileFormatError(ValueError):
    """A file that :func:`grundy.load` cannot read as a saved solution.

    The message names the file and what is wrong with it.

    Parameters
    ----------
    path : str
        The file.
    problem : str
        What is wrong with it.

    Attributes
    ----------
    path : str
        The file.

    Examples
    --------
    >>> import grundy, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "notes.txt")
    >>> with open(path, "w") as f:
    ...     _ = f.write("hello")
    >>> try:
    ...     grundy.load(path)
    ... except grundy.FileFormatError as exc:
    ...     print(str(exc).replace(path, "notes.txt"))
    notes.txt: not a saved grundy solution (not a zip/npz archive)
    """

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path


# -- positions as JSON ----------------------------------------------------------------

def positions_data(positions: Sequence[Hashable] | npt.NDArray[np.int64] | None, n: int
                   ) -> tuple[Any, dict[str, npt.NDArray[Any]]]:
    """How a kind saves its position names: ``(data, arrays)``.

    None (numbered 0..n-1), the array member ``positions`` (names that are
    all int64 numbers: mappable), or the JSON list of names.
    """
    if positions is None or isinstance(positions, range):
        return None, {}
    if isinstance(positions, np.ndarray):
        return "array", {"positions": np.ascontiguousarray(positions, dtype=np.int64)}
    if all(type(p) is int and -2 ** 63 <= p < 2 ** 63 for p in positions):
        return "array", {"positions": np.array(positions, dtype=np.int64).reshape(n)}
    return encode_positions(positions), {}


def positions_of(data: Any, arrays: Mapping[str, npt.NDArray[Any]], n: int
                 ) -> npt.NDArray[np.int64] | list[Hashable] | None:
    """The position names saved by :func:`positions_data` (checked: n of them)."""
    if data is None:
        return None
    names: npt.NDArray[np.int64] | list[Hashable]
    if data == "array":
        saved = arrays.get("positions")
        if saved is None or saved.dtype != np.int64:
            raise ValueError("the header names an int64 'positions' array the file lacks")
        names = saved
    else:
        names = decode_positions(data)
    if len(names) != n:
        raise ValueError(f"{len(names)} saved position names for {n} positions")
    return names


def saved_solution(arrays: Mapping[str, npt.NDArray[Any]], n: int
                   ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The ``outcome``, ``remoteness`` and ``move`` arrays of a saved solution
    of n positions, their values checked."""
    return (need(arrays, "outcome", np.int8, n, -1, 2),
            need(arrays, "remoteness", np.int64, n, -1, 2 ** 63 - 1),
            need(arrays, "move", np.int64, n, -1, n - 1))


# -- writing ------------------------------------------------------------------------

def save(obj: Any, path: str | os.PathLike[str]) -> None:
    """Write ``obj`` (anything with ``_saved()``) to ``path``, atomically.

    The file appears complete or not at all: it is written beside ``path``
    under a temporary name and renamed when done.
    """
    # Through a symbolic link to its target; errors name the path given.
    given = check_path(path)
    path = os.path.realpath(given)
    kind, data, arrays = obj._saved()
    header = {"format": FORMAT, "version": VERSION, "kind": kind,
              "library": f"grundy {__version__}",
              "arrays": {name: {"dtype": np.dtype(a.dtype).str, "shape": list(a.shape)}
                         for name, a in arrays.items()},
              "data": data}
    text = json.dumps(header, allow_nan=False, separators=(",", ":")).encode()
    # Beside the file (the rename must not cross file systems), under a
    # short name of its own, created like any new file (the umask's
    # permissions), never over another; a file replaced keeps its permissions.
    tmp = os.path.join(os.path.dirname(path), f".grundy-{secrets.token_hex(6)}.part")
    try:
        f = open(tmp, "xb")
        try:
            os.chmod(tmp, stat.S_IMODE(os.stat(path).st_mode))
        except FileNotFoundError:
            pass
    except OSError as exc:
        raise type(exc)(exc.errno, f"cannot write beside {given!r}: {exc.strerror}") from None
    with replaced_when_done(tmp, path), f, \
            zipfile.ZipFile(f, "w", zipfile.ZIP_STORED, allowZip64=True) as zf:
        zf.writestr(HEADER, text)
        for name, arr in arrays.items():
            with zf.open(name + ".npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.ascontiguousarray(arr),
                                          allow_pickle=False)


@contextlib.contextmanager
def replaced_when_done(tmp: str, path: str) -> Iterator[None]:
    """Around the writing of ``tmp``: renamed over ``path`` when the block
    ends, removed if it fails (however it fails, Ctrl-C included).

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> path, tmp = os.path.join(folder, "a.txt"), os.path.join(folder, "a.part")
    >>> with replaced_when_done(tmp, path), open(tmp, "w") as f:
    ...     _ = f.write("done")
    >>> os.listdir(folder), open(path).read()
    (['a.txt'], 'done')
    """
    try:
        yield
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def check_path(path: Any) -> str:
    """A path as text: TypeError unless a str or os.PathLike of str, ValueError if empty.

    >>> check_path("a.npz")
    'a.npz'
    """
    if isinstance(path, bool) or not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, got {shorten(path)}")
    text = os.fspath(path)
    if not isinstance(text, str):
        raise TypeError(f"path must be a str or os.PathLike of str, got {shorten(path)}")
    if not text:
        raise ValueError("path is empty")
    return text


# -- reading ------------------------------------------------------------------------

def load(path: str | os.PathLike[str], kinds: Mapping[str, Callable[[Any, Saved], Any]], *,
         mmap: bool = False, verify: bool = True, max_memory: int | None = None) -> Any:
    """What ``obj.save(path)`` wrote: ``kinds[kind](data, arrays)`` of the file's header.

    The reading half of the format (:func:`grundy.load` gives it the kinds
    of every class that saves).  Every problem with the file, a rebuild
    that refuses the data included, is a :class:`FileFormatError`.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    kinds : mapping
        Kind -> the function rebuilding an object from the header's
        ``data`` and the arrays (``cls._from_saved``).
    mmap, verify, max_memory
        As for :func:`grundy.load`.

    Returns
    -------
    object
        What the kind's function returns.

    Examples
    --------
    >>> import os, tempfile
    >>> from grundy.engine.graph import GraphSolution, GameGraph
    >>> path = os.path.join(tempfile.mkdtemp(), "g.npz")
    >>> GameGraph.from_edges([(0, 1)]).solve().save(path)
    >>> load(path, {"graph": GraphSolution._from_saved}).line(0)
    [0, 1]
    """
    path = check_path(path)
    mmap = check_bool(mmap, "mmap")
    verify = check_bool(verify, "verify")
    check_memory(0, max_memory, "loading")           # a bad max_memory is the caller's
    # Opened without blocking (a FIFO would wait for a writer) and looked at
    # before anything is read (/dev/zero never ends); OSError (a missing
    # file...) as it is.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, "Is a directory", path)
        raise FileFormatError(path, "not a saved grundy solution (not a regular file)")
    with os.fdopen(fd, "rb") as f:
        try:
            header, arrays = _read(f, path, st.st_size, mmap, verify, max_memory, kinds)
            return kinds[header["kind"]](header["data"], arrays)
        except FileFormatError:
            raise
        except OSError as exc:
            if exc.errno == errno.ENOMEM:
                raise MemoryError(f"{path}: cannot map the file: out of address space "
                                  f"(load it without mmap, or raise the limit)") from None
            if exc.errno != errno.EINVAL:       # EINVAL: a seek to a damaged offset
                raise
            raise FileFormatError(path, _problem(exc)) from None
        except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, TypeError, KeyError,
                EOFError, struct.error, NotImplementedError, OverflowError, zlib.error,
                UnicodeDecodeError, IndexError, RecursionError) as exc:
            raise FileFormatError(path, _problem(exc)) from None


def _problem(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if isinstance(exc, (zipfile.BadZipFile, EOFError, struct.error, zlib.error)):
        return f"damaged or truncated ({text})"
    if isinstance(exc, KeyError):
        return f"damaged: the header or archive lacks {text}"
    if isinstance(exc, RecursionError):
        return "damaged: the header is nested too deeply"
    return f"damaged: {text}"


def _read(f: Any, path: str, size: int, mmap: bool, verify: bool, max_memory: int | None,
          kinds: Mapping[str, Any]) -> tuple[dict[str, Any], Saved]:
    """The checked header and the arrays of an open file."""
    if not zipfile.is_zipfile(f):
        raise FileFormatError(path, "not a saved grundy solution (not a zip/npz archive)")
    f.seek(0)
    zf = zipfile.ZipFile(f)
    members = {info.filename: info for info in zf.infolist()}
    if len(members) != len(zf.infolist()):
        raise FileFormatError(path, "damaged: a member appears twice in the archive")
    if HEADER not in members:
        raise FileFormatError(path, f"not a saved grundy solution (an archive without "
                                    f"{HEADER}; a plain numpy .npz?)")
    info = members[HEADER]
    if info.compress_type != zipfile.ZIP_STORED or info.file_size != info.compress_size:
        raise FileFormatError(path, f"damaged: {HEADER} is compressed (grundy stores it "
                                    f"as it is)")
    check_memory(_HEADER_EXPANSION * info.file_size, max_memory,
                 f"reading the header of {shorten(path)} ({info.file_size:,} bytes)")
    header = _check_header(path, json.loads(_member(zf, info, path).decode("utf-8"),
                                            parse_constant=_no_constant), kinds)
    specs = header["arrays"]
    needed = 0
    for name, spec in specs.items():
        member = members.get(name + ".npy")
        if member is None:
            raise FileFormatError(path, f"damaged: the array {name!r} is missing")
        if member.compress_type != zipfile.ZIP_STORED:
            raise FileFormatError(path, f"damaged: the array {name!r} is compressed "
                                        f"(grundy stores arrays uncompressed)")
        needed += member.file_size
    if not mmap:
        check_memory(needed, max_memory, f"reading {shorten(path)}")
    arrays = Saved()
    arrays.check_values = verify or not mmap
    for name, spec in specs.items():
        member = members[name + ".npy"]
        if mmap:
            arrays[name] = _mapped(f, path, size, member, spec, verify)
        else:
            arrays[name] = _in_memory(_member(zf, member, path), path, member.filename, spec)
    return header, arrays


def _no_constant(name: str) -> None:
    raise ValueError(f"the header holds {name}, which grundy never writes")


def _member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, path: str) -> bytes:
    """A member's bytes, CRC checked (zipfile raises BadZipFile otherwise)."""
    try:
        return zf.read(info)
    except RuntimeError as exc:            # zipfile's word for a (flipped) encryption bit
        raise FileFormatError(path, f"damaged: {info.filename}: {exc}") from None


def _check_header(path: str, header: Any, kinds: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise FileFormatError(path, f"not a saved grundy solution ({HEADER} does not say "
                                    f"\"format\": \"grundy\")")
    version = header.get("version")
    if type(version) is not int or version < 1:
        raise FileFormatError(path, f"damaged: format version {shorten(version)}")
    if version > VERSION:
        raise FileFormatError(path, f"written by a newer grundy "
                                    f"({header.get('library', 'of an unknown version')}, "
                                    f"format version {version}); this grundy reads format "
                                    f"version {VERSION}: upgrade grundy to read it")
    kind = header.get("kind")
    if not isinstance(kind, str) or kind not in kinds:
        raise FileFormatError(path, f"damaged: unknown kind {shorten(kind)} (known: "
                                    f"{', '.join(kinds)})")
    specs = header.get("arrays")
    if not isinstance(specs, dict) or not isinstance(header.get("data"), dict):
        raise FileFormatError(path, "damaged: the header lacks its arrays or data")
    for name, spec in specs.items():
        ok = (isinstance(spec, dict) and isinstance(spec.get("dtype"), str)
              and isinstance(spec.get("shape"), list)
              and all(type(k) is int and k >= 0 for k in spec["shape"]))
        if not ok:
            raise FileFormatError(path, f"damaged: the header's entry for {shorten(name)} "
                                        f"is {shorten(spec)}")
        try:
            dtype = np.dtype(spec["dtype"])
        except TypeError:
            raise FileFormatError(path, f"damaged: dtype {shorten(spec['dtype'])}") from None
        if dtype.kind not in "iub" or dtype.hasobject:
            raise FileFormatError(path, f"damaged: {name} has dtype {dtype}, not integers")
    return header


def npy_header(f: Any) -> tuple[tuple[int, int], tuple[tuple[int, ...], bool, Any] | None]:
    """The .npy format version at f's position, and the header after it
    (shape, Fortran order, dtype), or None for a version other than 1.0 and
    2.0.  ValueError (or EOFError) for what is not a .npy header.

    Examples
    --------
    >>> import io
    >>> f = io.BytesIO()
    >>> np.save(f, np.zeros(3, np.uint32))
    >>> _ = f.seek(0)
    >>> npy_header(f)
    ((1, 0), ((3,), False, dtype('uint32')))
    """
    version = np.lib.format.read_magic(f)
    if version == (1, 0):
        return version, np.lib.format.read_array_header_1_0(f)
    if version == (2, 0):
        return version, np.lib.format.read_array_header_2_0(f)
    return version, None


def _npy_header(f: Any, path: str, name: str, spec: Mapping[str, Any]
                ) -> tuple[np.dtype[Any], tuple[int, ...]]:
    """Read a member's .npy header and check it against the file's header."""
    version, header = npy_header(f)
    if header is None:
        raise FileFormatError(path, f"damaged: {name} is .npy version {version}")
    shape, fortran, dtype = header
    if fortran:
        raise FileFormatError(path, f"damaged: {name} is in Fortran order")
    if dtype != np.dtype(spec["dtype"]) or list(shape) != spec["shape"]:
        raise FileFormatError(path, f"damaged: {name} holds {dtype}{list(shape)}, the header "
                                    f"says {spec['dtype']}{spec['shape']}")
    return dtype, shape


def _in_memory(data: bytes, path: str, name: str, spec: Mapping[str, Any]
               ) -> npt.NDArray[Any]:
    """The array of a member's bytes (read-only, no copy)."""
    bio = io.BytesIO(data)
    dtype, shape = _npy_header(bio, path, name, spec)
    offset = bio.tell()
    count = math.prod(shape)
    if len(data) - offset != count * dtype.itemsize:
        raise FileFormatError(path, f"damaged: {name} holds {len(data) - offset:,} bytes of "
                                    f"data for {count:,} values of {dtype}")
    return np.frombuffer(data, dtype=dtype, count=count, offset=offset).reshape(shape)


def _mapped(f: Any, path: str, size: int, member: zipfile.ZipInfo, spec: Mapping[str, Any],
            verify: bool) -> npt.NDArray[Any]:
    """A read-only memory map of a stored member's array."""
    f.seek(member.header_offset)
    local = f.read(30)
    if len(local) != 30 or local[:4] != b"PK\x03\x04":
        raise FileFormatError(path, f"damaged: no local header for {member.filename}")
    name_len, extra_len = struct.unpack("<HH", local[26:30])
    if f.read(name_len) != member.filename.encode():
        raise FileFormatError(path, f"damaged: the local header of {member.filename} "
                                    f"names another member")
    start = member.header_offset + 30 + name_len + extra_len
    end = start + member.file_size
    if end > size:
        raise FileFormatError(path, f"truncated: {member.filename} needs bytes up to "
                                    f"{end:,}, the file has {size:,}")
    if verify:
        f.seek(start)
        crc, left = 0, member.file_size
        while left:
            chunk = f.read(min(left, _CHUNK))
            if not chunk:
                raise FileFormatError(path, f"truncated inside {member.filename}")
            crc = zlib.crc32(chunk, crc)
            left -= len(chunk)
        if crc != member.CRC:
            raise FileFormatError(path, f"damaged: {member.filename} fails its CRC-32 check")
    f.seek(start)
    dtype, shape = _npy_header(f, path, member.filename, spec)
    offset = f.tell()
    count = math.prod(shape)
    if end - offset != count * dtype.itemsize:
        raise FileFormatError(path, f"damaged: {member.filename} holds {end - offset:,} bytes "
                                    f"of data for {count:,} values of {dtype}")
    if count == 0:
        return np.zeros(shape, dtype=dtype)
    # From the file opened and checked, not its name: a save to the same path
    # meanwhile (a rename) cannot mix two files' arrays.
    return np.memmap(f, dtype=dtype, mode="r", offset=offset, shape=shape)


class Saved(dict[str, npt.NDArray[Any]]):
    """The arrays of a file by name, and whether their values are checked:
    always, except for arrays mapped with ``verify=False`` (checking reads
    every byte, which is what that option avoids)."""

    check_values = True


def need(arrays: Mapping[str, npt.NDArray[Any]], name: str, dtype: Any, n: int | None = None,
         low: int | None = None, high: int | None = None) -> npt.NDArray[Any]:
    """A saved array by name, of the dtype (and length) its kind writes, its
    values in ``low..high`` (checked in slices: no temporaries of its size)."""
    arr = arrays.get(name)
    if arr is None:
        raise ValueError(f"the array {name!r} is missing")
    if arr.dtype != np.dtype(dtype) or arr.ndim != 1 or (n is not None and len(arr) != n):
        raise ValueError(f"the array {name!r} is {arr.dtype}{list(arr.shape)}, expected "
                         f"{np.dtype(dtype)}[{'n' if n is None else n}]")
    if low is not None and high is not None and getattr(arrays, "check_values", True):
        step = 1 << 24
        for start in range(0, len(arr), step):
            part = arr[start:start + step]
            if int(part.min()) < low or int(part.max()) > high:
                bad = start + int(np.flatnonzero((part < low) | (part > high))[0])
                raise ValueError(f"{name}[{bad}] = {int(arr[bad])}: expected {low}..{high}")
    return arr
