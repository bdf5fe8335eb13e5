"""``grundy play nim|octal|police|game``: play against the perfect opponent,
reading moves from standard input (:mod:`grundy.play`).
"""
from __future__ import annotations

import argparse
import sys

from grundy.cli.io import InputError, parse_count, read_input


def cmd_play(args: argparse.Namespace) -> None:
    from grundy.play import load_game, nim_table, octal_table, play, police_table, rules_table

    if sys.stdin is None:
        raise InputError("standard input is closed: the moves are read from it")
    if args.game == "police":
        if args.board == "-":
            raise InputError("give the board as a FILE: standard input is where the moves "
                             "are read")
        table = police_table(read_input(args.board), max_memory=args.max_memory)
        human_first = args.side == "police"          # the police moves first
    elif args.game == "nim":
        table = nim_table([parse_count(x, "a pile") for x in args.piles], misere=args.misere)
        human_first = not args.computer_first
    elif args.game == "octal":
        table = octal_table(args.code, [parse_count(x, "a heap N") for x in args.heaps],
                            misere=args.misere)
        human_first = not args.computer_first
    else:
        game = load_game(args.spec)
        try:
            table = rules_table(game, misere=args.misere)
        except TypeError as exc:          # the game breaks the protocol: solve_game says how
            raise InputError(f"{args.spec}: {exc}") from None
        human_first = not args.computer_first
    play(table, human_first=human_first, input=sys.stdin, output=sys.stdout)
