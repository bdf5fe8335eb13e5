"""What every subcommand shares: the exit statuses, the errors that are the
user's, reading the input and writing the output, and the option values.

Standard library only at import time (see :mod:`grundy.cli`).

>>> parse_count("12", "N")
12
"""
from __future__ import annotations

import argparse
import re
import sys

EXIT_INPUT = 2          # bad input, or a computation refused
EXIT_OUTPUT = 1         # the output could not be written
EXIT_INTERRUPTED = 130  # Ctrl-C


class InputError(ValueError):
    """Malformed command-line input."""


class OutputError(Exception):
    """The output could not be written (a full disk, a closed stream...)."""


def read_input(path: str | None) -> bytes:
    if path is None or path == "-":
        if sys.stdin is None:
            raise InputError("standard input is closed: give a FILE to read")
        try:
            return sys.stdin.buffer.read()
        except OSError as exc:
            raise InputError(f"cannot read standard input: {exc.strerror or exc}") from None
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise InputError(f"cannot read {path!r}: {exc.strerror or exc}") from None


def write_output(data: bytes | bytearray | memoryview) -> None:
    """Write bytes (or a bytes-like object) to standard output."""
    if sys.stdout is None:
        raise OutputError("standard output is closed")
    try:
        sys.stdout.buffer.write(data)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(f"cannot write the output: {exc.strerror or exc}") from None


def parse_count(text: str, name: str) -> int:
    """A non-negative integer given on the command line (ASCII digits only)."""
    from grundy._common import shorten

    if not re.fullmatch(r"[0-9]+", text, re.ASCII):
        raise InputError(f"{name} must be a non-negative integer (digits 0-9), "
                         f"got {shorten(text, 40)}")
    return int(text)


# -- grundy graph ------------------------------------------------------------


def parse_memory(text: str) -> int:
    """--max-memory: bytes, or with a K/M/G/T suffix (binary)."""
    from grundy._common import parse_size
    try:
        return parse_size(text, "--max-memory")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


# -- wiring ------------------------------------------------------------------


def parse_threads(text: str) -> int:
    """--threads: a positive integer (digits only)."""
    from grundy._common import MAX_THREADS, shorten
    if not re.fullmatch(r"[0-9]+", text, re.ASCII) or not 1 <= int(text) <= MAX_THREADS:
        raise argparse.ArgumentTypeError(f"--threads must be an integer 1..{MAX_THREADS}, "
                                         f"got {shorten(text, 40)}")
    return int(text)


def report_error(message: object) -> None:
    """``grundy: error: MESSAGE`` on standard error (if it can be written)."""
    if sys.stderr is not None:
        try:
            print(f"grundy: error: {message}", file=sys.stderr)
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
