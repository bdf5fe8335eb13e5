"""The plug-in template of examples/plugin builds outside the source tree,
against the installed package, exactly as a user builds it (its own
setup.py: cythonize with include_path and include_dirs from
grundy.get_include(), only ``grundy.plugin`` cimported), and solves its game
as the same game written with grundy.Game does.

Slow: it compiles a C extension (a few seconds, in a subprocess).
"""
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

import grundy
from locations import ROOT

pytestmark = pytest.mark.slow

TEMPLATE = os.path.join(ROOT, "examples", "plugin")


def test_the_template_cimports_the_public_contract_only():
    with open(os.path.join(TEMPLATE, "wythoff.pyx")) as f:
        text = f.read()
    assert "from grundy.plugin cimport" in text and "_core" not in text
    assert os.path.isfile(os.path.join(grundy.get_include(), "grundy", "plugin.pxd"))


def test_the_template_builds_against_the_installed_package_and_solves(tmp_path):
    build = tmp_path / "wythoff"
    shutil.copytree(TEMPLATE, build)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=build,
                          capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    check = textwrap.dedent("""
        import grundy, wythoff
        from grundy import Game, solve_game

        N = 30

        class Wythoff(Game):                     # the same rules, one position at a time
            def start(self):
                return (N - 1, N - 1)

            def moves(self, p):
                a, b = p
                return ([(a - k, b) for k in range(1, a + 1)] +
                        [(a, b - k) for k in range(1, b + 1)] +
                        [(a - k, b - k) for k in range(1, min(a, b) + 1)])

        for misere in (False, True):
            compiled = grundy.solve_source(wythoff.Wythoff(N), misere=misere)
            ref = solve_game(Wythoff(), misere=misere)
            assert ref.n_positions == compiled.n_positions == N * N
            for a in range(N):
                for b in range(N):
                    want = ref[(a, b)]
                    got = compiled[a * N + b]
                    move = want.move if want.move is grundy.NO_MOVE else \\
                        want.move[0] * N + want.move[1]
                    assert (got.outcome, got.remoteness, got.move) == \\
                        (want.outcome, want.remoteness, move), (a, b, got, want)
        # Wythoff's pairs are the losses of normal play.
        sol = grundy.solve_source(wythoff.Wythoff(N))
        losses = sorted(divmod(s, N) for s in range(N * N) if sol.outcome[s] == grundy.LOSS)
        assert losses[:7] == [(0, 0), (1, 2), (2, 1), (3, 5), (4, 7), (5, 3), (6, 10)]
        print("same")
        """)
    proc = subprocess.run([sys.executable, "-c", check], cwd=build, capture_output=True,
                          text=True, timeout=300, env=env)
    assert proc.returncode == 0 and proc.stdout.strip() == "same", proc.stdout + proc.stderr
