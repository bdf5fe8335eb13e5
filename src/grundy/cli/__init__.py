"""The ``grundy`` command line: competitive-programming style stdin/stdout solvers.

The solving subcommands (graph, nim, police, octal) read FILE (or standard
input), solve, and print plain text; ``--save`` keeps a solution, ``query``
answers from a saved one, ``--plot`` draws a picture, and ``play`` plays
against the perfect opponent, reading moves from standard input.  A long
solve shows a progress bar when standard error is a terminal (with tqdm,
the ``grundy[progress]`` extra).  Every failure is one line on stderr,
``grundy: error: <message>``, and an exit status: 2 for bad input or a
refused computation (too much memory), 1 when the output cannot be
written, 130 after Ctrl-C.

This module imports only the standard library at import time; the solvers
are imported inside :func:`main`, so that Ctrl-C or a broken installation
during the imports is reported like any other failure.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from grundy.cli.io import EXIT_INPUT, EXIT_INTERRUPTED, EXIT_OUTPUT, OutputError, report_error
from grundy.cli.parser import build_parser

__all__ = ["main", "build_parser"]


def _silence_stdout() -> None:
    """After an output failure, point stdout at /dev/null so that Python's
    own flush at exit does not fail (and print) a second time."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, AttributeError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 done, 2 bad input or refused work, 1 the output could not be
        written, 130 interrupted.

    Examples
    --------
    >>> import subprocess, sys
    >>> run = subprocess.run([sys.executable, "-m", "grundy", "octal", "0.07", "5"],
    ...                      capture_output=True, text=True)
    >>> run.returncode, run.stdout
    (0, '0 0 1 1 2 0\\n')
    """
    # Nim piles of up to MAX_PILE_DIGITS digits, in and out (restored after).
    digits = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else None
    if digits is not None:
        sys.set_int_max_str_digits(0)
    try:
        return _main(argv)
    finally:
        if digits is not None:
            sys.set_int_max_str_digits(digits)


def _main(argv: Sequence[str] | None) -> int:
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:                # --help, --version, or a usage error
            if exc.code == 0 and sys.stdout is not None:
                sys.stdout.flush()               # --help > /dev/full must say so
            return exc.code if isinstance(exc.code, int) else EXIT_INPUT
        # Import the solvers here, inside the error handling (Ctrl-C included).
        import grundy.engine.graph  # noqa: F401
        args.run(args)
        if sys.stdout is not None:
            sys.stdout.flush()
    except OSError as exc:                        # flushing the output (or --help)
        if isinstance(exc, BrokenPipeError):     # the reader went away: not an error
            _silence_stdout()
            return 0
        _silence_stdout()
        report_error(f"cannot write the output: {exc.strerror or exc}")
        return EXIT_OUTPUT
    except KeyboardInterrupt:
        report_error("interrupted")
        return EXIT_INTERRUPTED
    except OutputError as exc:
        _silence_stdout()
        report_error(exc)
        return EXIT_OUTPUT
    except MemoryError as exc:                    # MemoryLimitError: refused beforehand
        report_error(str(exc) or "out of memory")
        return EXIT_INPUT
    except ValueError as exc:                     # bad input: InputError, BoardError, ...
        report_error(exc)
        return EXIT_INPUT
    return 0
