"""Nim-values computed into a file: a ``.npy`` file of uint32 values that a
run fills and a later run goes on from, with a JSON record beside it.

The record (``FILE.json``) names the game (class, name, rules), how many
values are known and their CRC-32; it is written atomically after each
save, so a run stopped at any moment (Ctrl-C, a crash, a full disk) leaves
a file that the next run checks and resumes.  A new or grown file reserves
its disk space at once (a full disk is a ``MemoryLimitError``, not a
SIGBUS later).  ``TakeAndBreakGame.compute`` drives it.

Examples
--------
>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "g.npy")
>>> values = open_values(path, 4, 0, 0, ValueError)
>>> values[:] = [0, 0, 0, 1]
>>> write_record(path + ".json", {"class": "GrundysGame"}, 4, crc32(values, 0, 4))
>>> read_record(path + ".json", {"class": "GrundysGame"}, ValueError) == (4, crc32(values, 0, 4))
True
"""
from __future__ import annotations

import errno
import json
import os
import shutil
import zlib
from typing import Any

import numpy as np

from grundy._common import MemoryLimitError, format_bytes, shorten
from grundy.engine.store import npy_header, replaced_when_done

__all__ = ["read_record", "write_record", "open_values", "crc32"]

# A values file's record: {"format", "version", the game's identity, "known", "crc32"}.
_RECORD_FORMAT = "grundy-values"
_RECORD_VERSION = 1


def read_record(record: str, me: dict[str, Any], error: type[Exception]
                 ) -> tuple[int, int]:
    """(values known, their CRC-32) from a values file's record, checked
    against the game ``me``."""
    try:
        with open(record, "rb") as f:
            text = f.read(1 << 20)
        data = json.loads(text)
    except (OSError, ValueError) as exc:
        raise error(record, f"not a record of computed values ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != _RECORD_FORMAT:
        raise error(record, "not a record of computed values")
    if data.get("version") != _RECORD_VERSION:
        raise error(record, f"format version {shorten(data.get('version'))}: this grundy "
                    f"reads version {_RECORD_VERSION}; upgrade grundy")
    theirs = {k: data.get(k) for k in me}
    if theirs != me:
        raise error(record, f"holds the values of {data.get('class')!s:.40} "
                    f"{shorten(data.get('name'))}, not of {me['class']} {shorten(me['name'])}")
    known, crc = data.get("known"), data.get("crc32")
    if not (type(known) is int and known >= 0 and type(crc) is int and 0 <= crc < 1 << 32):
        raise error(record, f"bad count {shorten(known)} or CRC {shorten(crc)}")
    return known, crc


def open_values(path: str, size: int, known: int, crc: int, error: type[Exception]) -> Any:
    """The values file mapped read-write, with room for ``size`` values: a
    new file, or an existing one whose header and length agree and whose
    first ``known`` values have the CRC-32 ``crc`` (checked read-only,
    before anything is written), copied into a bigger one if it is short.
    The disk space of a new or bigger file is reserved at once."""
    if not os.path.exists(path):
        return _new_values(path, size, None, 0)
    try:
        with open(path, "rb") as f:
            version, header = npy_header(f)
            if header is None:
                raise ValueError(f"npy format version {version}")
            shape, fortran, dtype = header
            offset = f.tell()
    except (OSError, ValueError, EOFError) as exc:
        raise error(path, f"not a values file ({exc})") from None
    if dtype != np.dtype("<u4") or fortran or len(shape) != 1 or shape[0] < known:
        raise error(path, f"holds {dtype} values of shape {shape}, not {known:,} or more "
                    f"uint32 values")
    actual = os.path.getsize(path)
    if actual != offset + 4 * shape[0]:
        raise error(path, f"{actual:,} bytes, not the {offset + 4 * shape[0]:,} its header "
                    f"says: truncated or grown")
    G = np.memmap(path, dtype="<u4", mode="r", offset=offset, shape=(shape[0],))
    if crc32(G, 0, known) != crc:
        raise error(path, f"the {known:,} values known do not match the CRC-32 of its record")
    if shape[0] >= size:
        return np.memmap(path, dtype="<u4", mode="r+", offset=offset, shape=(shape[0],))
    return _new_values(path, size, G, known)


def _new_values(path: str, size: int, old: Any, known: int) -> Any:
    """A values file of ``size`` values (its space reserved), holding the
    first ``known`` values of ``old``, written beside ``path`` and renamed
    over it."""
    needed = 4 * size + 128
    free = shutil.disk_usage(os.path.dirname(os.path.abspath(path))).free
    if needed > free:
        raise MemoryLimitError(f"the values need {format_bytes(needed)} of disk beside "
                               f"{path!r}; {format_bytes(free)} is free", needed)
    tmp = path + ".part"
    G = np.lib.format.open_memmap(tmp, mode="w+", dtype="<u4", shape=(size,))
    with replaced_when_done(tmp, path):
        if hasattr(os, "posix_fallocate"):
            with open(tmp, "r+b") as f:
                try:
                    os.posix_fallocate(f.fileno(), 0, os.path.getsize(tmp))
                except OSError as exc:
                    if exc.errno == errno.ENOSPC:
                        raise MemoryLimitError(f"the values need {format_bytes(needed)} of "
                                               f"disk beside {path!r}: the disk is full",
                                               needed) from None
                    # Some file systems cannot reserve: the space is not promised.
        for i in range(0, known, 1 << 24):
            G[i:min(known, i + (1 << 24))] = old[i:min(known, i + (1 << 24))]
        G.flush()
    return G


def crc32(values: Any, start: int, stop: int, crc: int = 0) -> int:
    """The CRC-32 of values[start:stop] (uint32) going on from ``crc``, in
    slices of 2^24 values: a long file keeps Ctrl-C quick."""
    for i in range(start, stop, 1 << 24):
        crc = zlib.crc32(values[i:min(stop, i + (1 << 24))].data.cast("B"), crc)
    return crc


def write_record(record: str, game: dict[str, Any], known: int, crc: int) -> None:
    """The record of a values file (the game, the values known and their
    CRC-32), written atomically (a temporary file renamed over it)."""
    tmp = record + ".part"
    with replaced_when_done(tmp, record), open(tmp, "w") as f:
        json.dump(dict(game, format=_RECORD_FORMAT, version=_RECORD_VERSION, known=known,
                       crc32=crc), f)
        f.flush()
        os.fsync(f.fileno())
