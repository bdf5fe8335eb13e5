"""Take-and-break values computed into a file: compute(), stopped and resumed,
and the files it refuses."""
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import grundy
from grundy import GrundysGame, OctalGame
from reference import grundys_game_naive, octal_values_naive


def test_values_in_the_file_are_the_values(tmp_path):
    path = str(tmp_path / "kayles.npy")
    game = OctalGame("0.77")
    assert game.compute(3000, path) == 3001
    expected = OctalGame("0.77").nim_sequence(3000, kernel="plain").tolist()
    assert np.load(path).tolist() == expected
    assert game.nim_sequence(3000).tolist() == expected
    record = json.load(open(path + ".json"))
    assert record["known"] == 3001 and record["name"] == "0.77"
    # Asking for more than the file holds extends in memory as usual.
    assert game.nim_sequence(3100).tolist() == OctalGame("0.77").nim_sequence(3100).tolist()


def test_resumed_with_more_values(tmp_path):
    path = str(tmp_path / "g.npy")
    assert GrundysGame().compute(500, path) == 501
    assert GrundysGame().compute(1500, path) == 1501       # a bigger file, 501 copied
    assert np.load(path).tolist() == grundys_game_naive(1500)
    # A game that knows more than the file gives the file its values.
    game = OctalGame("0.137")
    game.nim_sequence(800)
    path2 = str(tmp_path / "dawson.npy")
    OctalGame("0.137").compute(100, path2)
    assert game.compute(900, path2) == 901
    assert np.load(path2).tolist() == octal_values_naive("0.137", 900)


def test_progress_counts_to_n_plus_one(tmp_path):
    calls = []
    GrundysGame().compute(5000, str(tmp_path / "g.npy"), progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (5001, 5001) and all(t == 5001 for _, t in calls)


CHILD = r"""
import sys, grundy
try:
    grundy.GrundysGame().compute(1 << 24, sys.argv[1], every=0.05, threads=int(sys.argv[2]))
except KeyboardInterrupt:
    print("stopped", flush=True)
"""


@pytest.mark.parametrize("threads", [1, 2])
def test_stopped_by_ctrl_c_and_resumed(tmp_path, threads):
    path = str(tmp_path / "g.npy")
    proc = subprocess.Popen([sys.executable, "-c", CHILD, path, str(threads)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    record = path + ".json"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if json.load(open(record))["known"] > 20000:
                break
        except (OSError, ValueError):
            pass
        time.sleep(0.05)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert time.monotonic() - sent < 5, "Ctrl-C took more than a few seconds"
    assert out.decode().strip() == "stopped", err.decode()
    known = json.load(open(record))["known"]
    assert 20000 < known < (1 << 24) + 1
    values = np.load(path, mmap_mode="r")
    fresh = GrundysGame().nim_sequence(known - 1)
    assert np.array_equal(values[:known], fresh)
    # Resumed to a little further: the file's values are used, not recomputed.
    game = GrundysGame()
    assert game.compute(known + 1000, path, threads=threads) == known + 1001
    assert np.array_equal(np.load(path)[:known + 1001], GrundysGame().nim_sequence(known + 1000))


def test_refused_files(tmp_path):
    path = str(tmp_path / "g.npy")
    GrundysGame().compute(300, path)
    with pytest.raises(grundy.FileFormatError, match=r"values of GrundysGame 'grundy', not of OctalGame '0\.77'"):
        OctalGame("0.77").compute(300, path)
    # A flipped value: the CRC of the values known.
    G = np.load(path, mmap_mode="r+")
    G[100] ^= 1
    G.flush()
    del G
    with pytest.raises(grundy.FileFormatError, match="CRC-32"):
        GrundysGame().compute(400, path)
    # Values with no record, a record with no values.
    other = str(tmp_path / "other.npy")
    np.save(other, np.zeros(10, np.uint32))
    with pytest.raises(grundy.FileFormatError, match="no record"):
        GrundysGame().compute(10, other)
    os.rename(path, str(tmp_path / "moved.npy"))
    with pytest.raises(grundy.FileFormatError, match="missing"):
        GrundysGame().compute(10, path)


@pytest.mark.parametrize("record, match", [
    ("{not json", "not a record"),
    ('{"format": "grundy-values", "version": 2}', "version 2.*upgrade"),
    ('[1, 2]', "not a record"),
])
def test_refused_records(tmp_path, record, match):
    path = str(tmp_path / "g.npy")
    GrundysGame().compute(100, path)
    with open(path + ".json", "w") as f:
        f.write(record)
    with pytest.raises(grundy.FileFormatError, match=match):
        GrundysGame().compute(100, path)


def test_bad_count_in_record_and_bad_arrays(tmp_path):
    path = str(tmp_path / "g.npy")
    GrundysGame().compute(100, path)
    data = json.load(open(path + ".json"))
    for known in (-1, "5", 10 ** 9):
        with open(path + ".json", "w") as f:
            json.dump(dict(data, known=known), f)
        with pytest.raises(grundy.FileFormatError):
            GrundysGame().compute(100, path)
    with open(path + ".json", "w") as f:
        json.dump(data, f)
    np.save(path, np.zeros(101, np.int64))
    with pytest.raises(grundy.FileFormatError, match="int64"):
        GrundysGame().compute(100, path)


def test_damaged_values_files(tmp_path):
    path = str(tmp_path / "g.npy")
    GrundysGame().compute(1000, path)
    size = os.path.getsize(path)
    # Cut short: refused before anything is written (the size is kept).
    with open(path, "r+b") as f:
        f.truncate(500)
    with pytest.raises(grundy.FileFormatError, match="truncated"):
        GrundysGame().compute(1000, path)
    assert os.path.getsize(path) == 500
    # A header that claims more values than the file holds.
    GrundysGame().compute(1000, str(tmp_path / "h.npy"))
    data = open(str(tmp_path / "h.npy"), "rb").read()
    edited = data.replace(b"(1001,)", b"(9999,)")
    assert edited != data
    with open(path, "wb") as f:
        f.write(edited)
    with pytest.raises(grundy.FileFormatError, match="truncated or grown"):
        GrundysGame().compute(1000, path)
    assert os.path.getsize(path) == size
    # Empty, and not a numpy file at all.
    for content in (b"", b"hello world, not numpy"):
        with open(path, "wb") as f:
            f.write(content)
        with pytest.raises(grundy.FileFormatError, match="not a values file"):
            GrundysGame().compute(1000, path)


def test_empty_values_file_from_the_cli(tmp_path):
    path = str(tmp_path / "g.npy")
    assert run_cli("grundy", "100", "--into", path).returncode == 0
    open(path, "wb").close()
    proc = run_cli("grundy", "100", "--into", path)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.decode().startswith("grundy: error: ") and b"Traceback" not in proc.stderr


def test_stopped_before_any_value_resumes(tmp_path):
    # The record is written before the values file: a record saying 0
    # values with no file is simply started again.
    path = str(tmp_path / "g.npy")
    GrundysGame().compute(10, path)
    os.unlink(path)
    with open(path + ".json") as f:
        record = json.load(f)
    with open(path + ".json", "w") as f:
        json.dump(dict(record, known=0, crc32=0), f)
    assert GrundysGame().compute(50, path) == 51
    assert np.load(path).tolist() == grundys_game_naive(50)


def test_full_disk_is_an_error_not_a_crash(tmp_path, monkeypatch):
    import errno

    def full(fd, offset, length):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "posix_fallocate", full, raising=False)
    path = str(tmp_path / "g.npy")
    with pytest.raises(grundy.MemoryLimitError, match="disk is full"):
        GrundysGame().compute(10 ** 5, path)
    assert sorted(os.listdir(tmp_path)) == ["g.npy.json"]


def test_bad_arguments_and_no_room(tmp_path, monkeypatch):
    path = str(tmp_path / "g.npy")
    with pytest.raises(ValueError, match="every must be > 0 seconds, got 0"):
        GrundysGame().compute(10, path, every=0)
    with pytest.raises(TypeError, match="every must be a number of seconds, got 'x'"):
        GrundysGame().compute(10, path, every="x")
    with pytest.raises(TypeError, match="path"):
        GrundysGame().compute(10, 5)
    with pytest.raises(ValueError, match="n"):
        GrundysGame().compute(-1, path)
    import shutil
    from collections import namedtuple
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda p: usage(1 << 20, 0, 1000))
    with pytest.raises(grundy.MemoryLimitError, match="disk"):
        GrundysGame().compute(10 ** 6, path)
    assert not os.path.exists(path)


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "grundy", "octal", *args],
                          capture_output=True, timeout=120)


def test_cli_into(tmp_path):
    path = str(tmp_path / "g.npy")
    proc = run_cli("grundy", "3000", "--into", path, "--period")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode().splitlines() == [f"G(0..3000) of grundy in {path}",
                                                 "no period found up to 3000"]
    assert np.load(path).tolist() == grundys_game_naive(3000)
    assert run_cli("grundy", "4000", "--into", path).returncode == 0     # goes on
    assert np.load(path).tolist() == grundys_game_naive(4000)
    proc = run_cli("0.77", "10", "--into", path)
    assert proc.returncode == 2
    assert proc.stderr.decode().startswith("grundy: error: ") and b"GrundysGame" in proc.stderr
    proc = run_cli("0.77", "10", "--into", str(tmp_path / "no" / "such" / "dir.npy"))
    assert proc.returncode != 0 and proc.stderr.decode().startswith("grundy: error: cannot write")
