"""Draw the pictures of the README: docs/police.png and docs/nim_sequence.png.

Run from anywhere, with grundy and matplotlib installed (``pip install
'.[plot]'``):  python docs/make_pictures.py
"""
import os

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

import grundy  # noqa: E402
from grundy import plot  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# A 12 x 16 board: a room in the middle with the thief, four exits outside.
BOARD = """12 16
E.......*.......
..****..*..***..
..*.........*...
..*..**.**..*..E
........*.......
***..*.....*.***
....**..T..*....
..*.....**.....*
..*..*......*...
.....*..**..*.*.
E.****.........P
.......*....E...
"""


def police_picture(path):
    sol = grundy.PoliceThief.parse(BOARD).solve()
    ax = plot.police_board(sol)                  # the thief on its start, police to move
    ax.figure.savefig(path, dpi=100)
    plt.close(ax.figure)


def nim_sequence_picture(path):
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 7.5), layout="constrained")
    plot.nim_sequence(grundy.OctalGame("0.77"), 200, ax=top)         # Kayles: its period
    plot.nim_sequence(grundy.GrundysGame(), 1000, mask=0xFFFFFFFE, period=False,
                      ax=bottom)                                      # rare and common
    fig.savefig(path, dpi=90)
    plt.close(fig)


if __name__ == "__main__":
    police_picture(os.path.join(HERE, "police.png"))
    nim_sequence_picture(os.path.join(HERE, "nim_sequence.png"))
