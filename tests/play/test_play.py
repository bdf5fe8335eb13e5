"""``grundy play``: a session against the perfect opponent, driven as a user
drives it, through a pseudo-terminal (pexpect); and ``grundy.play.play`` over
text streams, in process."""
import functools
import io
import os
import re
import subprocess
import sys
import textwrap

import pexpect
import pytest

import grundy
from grundy import LOSS, TIE, WIN, Game, MemoryLimitError
from grundy.cli import main
from grundy.play import (nim_table, octal_table, play, police_table, rules_table,
                         load_game)
from locations import EXAMPLES

PROMPT = "\r\n> "          # the prompt starts a line (a move list may hold "-> ")
TIMEOUT = 10


class Session:
    """``python -m grundy play ARGS`` on a pseudo-terminal of 80 x 24."""

    def __init__(self, *args, cwd=None):
        env = dict(os.environ, COLUMNS="80", LINES="24")
        self.child = pexpect.spawn(sys.executable, ["-m", "grundy", "play", *args], cwd=cwd,
                                   env=env, timeout=TIMEOUT, encoding="utf-8",
                                   dimensions=(24, 80))
        self.seen = []

    def prompt(self):
        """Wait for the prompt; the text shown since the last one."""
        self.child.expect_exact(PROMPT)
        return self._keep(self.child.before)

    def send(self, line):
        self.child.sendline(line)

    def answer(self, line):
        """Send a line; the text up to the next prompt."""
        self.send(line)
        return self.prompt()

    def end(self):
        """Wait for the end: (the text since the last prompt, exit status)."""
        self.child.expect(pexpect.EOF)
        text = self._keep(self.child.before)
        self.child.close()
        return text, self.child.exitstatus

    def _keep(self, text):
        text = text.replace("\r\n", "\n")
        self.seen.append(text)
        return text

    def check_width(self):
        lines = "".join(self.seen).split("\n")
        assert max(len(line) for line in lines) <= 78


def flat(text):
    """The text with its line breaks and runs of spaces as single spaces (for
    messages, which are wrapped at 78 columns)."""
    return " ".join(text.split())


def last_heaps(text, word):
    """The heap sizes of the last picture of heaps in ``text``."""
    groups = []
    for number, size in re.findall(rf"^{word} (\d+): *\|* +(\d+)$", text, re.M):
        if number == "1":
            groups.append([])
        groups[-1].append(int(size))
    return tuple(groups[-1])


def value_line(text):
    """(whose turn, outcome, remoteness) of the last value line in ``text``."""
    lines = re.findall(r"^(You|The computer)(?: \(\w+\))? (?:are|is) to move: (.*)$", text, re.M)
    who, what = lines[-1]
    m = re.search(r"(?:win|lose|loses|tie) .*?(\d+) moves?", what)
    if "can win" in what:
        outcome = WIN
    elif "lose" in what:
        outcome = LOSS
    elif "a tie" in what:
        outcome = TIE
    else:
        outcome = grundy.DRAW
    return who, outcome, int(m.group(1)) if m else -1


def xor(values):
    return functools.reduce(lambda a, b: a ^ b, values, 0)


# -- full games, through the terminal ---------------------------------------------------

def test_nim_full_game_the_computer_restores_a_zero_nim_sum():
    sol = nim_table([1, 2, 3]).solution
    s = Session("nim", "1", "2", "3")
    text = s.prompt()
    assert last_heaps(text, "pile") == (1, 2, 3)
    assert value_line(text) == ("You", LOSS, sol[(1, 2, 3)].remoteness)
    computer_moves = 0
    while True:
        piles = last_heaps(text, "pile")
        i = next(i for i, p in enumerate(piles) if p)
        s.send(f"{i + 1} 1")                      # take one stone from the first pile
        k = s.child.expect_exact([PROMPT, "The computer wins."])
        text = s._keep(s.child.before)
        assert "The computer plays: take" in text
        computer_moves += 1
        if k == 1:
            break
        piles = last_heaps(text, "pile")
        assert xor(piles) == 0 and any(piles)     # the computer moved to a zero nim-sum
        key = tuple(sorted(p for p in piles if p))
        assert value_line(text) == ("You", LOSS, sol[key].remoteness)
    rest, status = s.end()
    assert status == 0
    assert "no stone is left" in text + rest
    s.check_width()


def test_police_as_thief_following_hints_escapes():
    board = os.path.join(EXAMPLES, "police.txt")
    s = Session("police", board, "--as", "thief")
    text = s.prompt()
    assert "The computer (police) moves first" in text
    assert "You (thief) are to move: you can win" in text
    while True:
        hint = s.answer("hint")
        m = re.search(r"Hint: \d+\) (\w+) ", hint)
        assert m and "you win in" in hint
        s.send(m.group(1))                            # the hinted direction
        k = s.child.expect_exact([PROMPT, "You win."])
        text = s._keep(s.child.before)
        if k == 1:
            break
        assert "You (thief) are to move: you can win" in text
    assert "The thief escapes." in text
    assert s.end()[1] == 0
    s.check_width()


def test_police_as_thief_is_caught_by_the_computer_in_time():
    board = os.path.join(EXAMPLES, "police_catch.txt")
    sol = police_table(open(board).read()).solution
    limit = sol[sol.start].remoteness                 # the police hurries
    s = Session("police", board, "--as", "thief")
    text = s.prompt()
    assert value_line(text) == ("You", LOSS, limit - 1)
    plies = 1
    while True:
        s.send("1")                                   # the first listed move
        k = s.child.expect_exact([PROMPT, "The computer wins."])
        text = s._keep(s.child.before)
        plies += 2
        if k == 1:
            break
    assert "The police catches the thief." in text
    assert plies <= limit
    assert s.end()[1] == 0


def test_octal_kayles_computer_first_moves_to_nim_value_zero():
    G = grundy.OctalGame("0.77").nim_sequence(12).tolist()
    s = Session("octal", "0.77", "3", "4", "--computer-first")
    text = s.prompt()
    assert "The computer moves first" in text
    while True:
        heaps = last_heaps(text, "heap")
        assert xor(G[h] for h in heaps) == 0          # the computer left a P-position
        s.send("1")
        k = s.child.expect_exact([PROMPT, "The computer wins."])
        text = s._keep(s.child.before)
        if k == 1:
            break
    assert "The game is over: no move is left." in text
    assert s.end()[1] == 0


def test_game_from_a_file_in_the_current_directory(tmp_path):
    (tmp_path / "subtraction.py").write_text(textwrap.dedent('''
        import grundy

        class Subtract(grundy.Game):
            """Take 1, 2 or 3 from 9; whoever cannot move loses."""
            def start(self):
                return 9
            def moves(self, n):
                return [n - k for k in (1, 2, 3) if k <= n]
            def render(self, n):
                return "o" * n + f"  ({n} left)"
    '''))
    s = Session("game", "subtraction:Subtract", cwd=str(tmp_path))
    text = s.prompt()
    assert "ooooooooo  (9 left)" in text and "1) 8  2) 7  3) 6" in text
    assert value_line(text) == ("You", WIN, 5)
    while True:
        hint = s.answer("hint")
        number, move = re.search(r"Hint: (\d+)\) (\d+) ", hint).groups()
        assert int(move) % 4 == 0                     # to a multiple of 4
        s.send(number)
        k = s.child.expect_exact([PROMPT, "You win."])
        text = s._keep(s.child.before)
        if k == 1:
            break
        n = int(re.findall(r"\((\d+) left\)", text)[-1])
        assert n % 4 != 0                               # the computer could not help it
    assert s.end()[1] == 0


def test_game_from_a_path_with_the_computer_first(tmp_path):
    path = tmp_path / "games" / "chain.py"
    path.parent.mkdir()
    path.write_text("class Chain:\n    def start(self):\n        return 'a'\n"
                    "    def moves(self, p):\n        return {'a': ['b'], 'b': ['c'], "
                    "'c': []}[p]\n")
    s = Session("game", f"{path}:Chain", "--computer-first")
    text = s.prompt()
    assert "The computer plays: b." in text and "1) c" in text
    s.send("c")
    text, status = s.end()
    assert "The game is over.  You win." in text and status == 0


# -- mistakes, undo, quitting, through the terminal --------------------------------------

def test_nim_malformed_and_illegal_moves_then_the_prompt_again():
    s = Session("nim", "3", "4", "5")
    s.prompt()
    for typed, message in [("xyzzy", "'xyzzy' is not a move or a command"),
                           ("0", "'0' is not a move number: the moves are numbered 1..12"),
                           ("13", "the moves are numbered 1..12"),
                           ("1 4", "'1 4' is not a legal move: pile 1 has only 3 stones"),
                           ("4 1", "there is no pile 4 (the piles are 1..3)"),
                           ("2 0", "take at least one stone"),
                           ("", "Type a move, or 'help'."),
                           ("undo", "Nothing to undo: you have not moved yet.")]:
        text = s.answer(typed)
        assert message in flat(text)
        assert "You are to move" not in text          # no move was played
    help_text = s.answer("help")
    assert "PILE COUNT" in help_text and "undo" in help_text
    s.send("quit")
    text, status = s.end()
    assert "You quit." in text and status == 0


def test_police_and_octal_illegal_moves():
    s = Session("police", os.path.join(EXAMPLES, "police.txt"))
    s.prompt()
    assert "the cell to the north-east of the police is off the board" in flat(s.answer("ne"))
    assert "a wall, at (1, 1)" in flat(s.answer("se"))
    assert "'up' is not a move or a command" in flat(s.answer("up"))
    s.send("quit")
    assert s.end()[1] == 0
    s = Session("octal", "0.77", "6")
    s.prompt()
    assert "a heap of 6 cannot become heaps 5 1" in flat(s.answer("1 -> 5 1"))
    assert "there is no heap 2" in flat(s.answer("2 1"))
    s.send("quit")
    assert s.end()[1] == 0


def test_undo_takes_back_the_move_and_the_reply():
    s = Session("nim", "1", "2", "3")
    s.prompt()
    text = s.answer("3 3")
    assert "The computer plays:" in text and last_heaps(text, "pile") != (1, 2, 3)
    text = s.answer("undo")
    assert "You take back your last move and the computer's reply." in text
    assert last_heaps(text, "pile") == (1, 2, 3)
    assert "Nothing to undo" in s.answer("undo")
    s.send("quit")
    assert s.end()[1] == 0


def test_ctrl_c_exits_130():
    s = Session("nim", "3", "4", "5")
    s.prompt()
    s.child.sendintr()
    text, status = s.end()
    assert "grundy: error: interrupted" in text
    assert "Traceback" not in text
    assert status == 130


def test_end_of_input_ends_the_session():
    s = Session("octal", "grundy", "7")
    s.prompt()
    s.child.sendeof()
    text, status = s.end()
    assert "End of input: the game is left unfinished." in text
    assert status == 0


def test_scripted_on_plain_stdin():
    proc = subprocess.run([sys.executable, "-m", "grundy", "play", "nim", "1", "2"],
                          input="hint\n2\n1\n", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "> hint\nHint: 2) take 1 from pile 2" in proc.stdout     # the lines are echoed
    assert proc.stdout.endswith("The game is over: no stone is left.  You win.\n")


# -- in process: play() over text streams -----------------------------------------------

def run(game, lines, **options):
    out = io.StringIO()
    result = play(game, input=io.StringIO("".join(f"{x}\n" for x in lines)), output=out,
                  **options)
    return result, out.getvalue()


class TakeAway(Game):
    """Take 1 or 2 from 5; taking the last one ties the game."""

    def start(self):
        return 5

    def moves(self, n):
        return [n - k for k in (1, 2) if k <= n]

    def primitive(self, n):
        return TIE if n == 0 else None


def test_a_tie():
    result, out = run(TakeAway(), ["hint", "1", "2"])      # 5 -> 4, 4 -> 2, 2 -> 0
    assert result == "tie"
    assert "You are to move: a tie with perfect play (in 3 moves)." in out
    assert out.endswith("The game is over.  It is a tie.\n")


def test_misere_nim_and_the_results():
    assert run(nim_table([1, 1], misere=True), ["1"])[0] == "won"
    result, out = run(nim_table([1, 1], misere=True), ["1"], human_first=False)
    assert result == "lost" and "taking the last stone loses" in out
    assert run(nim_table([2, 2]), ["quit"])[0] == "quit"
    assert run(nim_table([2, 2]), [])[0] == "eof"
    result, out = run(nim_table([0]), [])
    assert result == "lost" and "You are to move" not in out     # over before it starts


def test_police_draw_until_the_player_quits():
    table = police_table(open(os.path.join(EXAMPLES, "police_draw.txt")).read())
    sol, face, position = table
    typed = []
    for _ in range(2):                  # the police keeps the draw, and so does the thief
        moves = face.moves(position)
        typed.append(str([m.position for m in moves].index(sol.best_move(position)) + 1))
        position = sol.best_move(sol.best_move(position))
    result, out = run(table, typed + ["hint", "quit"])
    assert result == "quit"
    assert "a draw with perfect play" in out and "(it keeps the draw)" in out
    assert out.count("The computer (thief) plays:") == 2


def test_solutions_play_from_their_start():
    sol = grundy.solve_game(TakeAway())
    assert run(sol, ["1", "1"])[0] == "tie"
    board = grundy.PoliceThief.parse("1 3\nP.T")
    assert run(board.solve(), ["e", "e"])[0] == "won"
    with pytest.raises(TypeError, match="needs a start"):
        run(grundy.GameGraph.from_edges([(0, 1)]).solve(), [])
    with pytest.raises(TypeError, match="got 42"):
        run(42, [])


def test_a_batch_game_lists_the_moves_of_its_graph():
    import numpy as np

    class Subtraction(grundy.BatchGame):          # take 1 or 2 from 4, codes are heaps
        def start(self):
            return 4

        def moves(self, codes):
            children = codes[:, None] - np.arange(1, 3)
            keep = children >= 0
            return np.concatenate([[0], np.cumsum(keep.sum(axis=1))]), children[keep]

        def render(self, code):
            return f"heap of {code}"

    # 4 -> 3; the computer moves to 2 or 1; then to 0 ("2" is not a move from 1).
    result, out = run(Subtraction(), ["1", "2", "1"])
    assert "heap of 4" in out and "1) 3  2) 2" in out
    assert result == "won" and re.search(r"The computer plays: [12]\.", out)


def test_many_moves_are_listed_on_request():
    result, out = run(nim_table([50]), ["moves", "50"])
    assert "You have 50 legal moves: type 'moves' to list them." in out
    assert "50) take 50 from pile 1" in out and result == "won"


def test_ctrl_c_in_process_leaves_a_new_line():
    class Interrupted(io.StringIO):
        def readline(self, *args):
            raise KeyboardInterrupt
    out = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        play(nim_table([2]), input=Interrupted(), output=out)
    assert out.getvalue().endswith("> \n")


def test_table_errors():
    with pytest.raises(ValueError, match="a pile must be >= 0, got -1"):
        nim_table([3, -1])
    with pytest.raises(TypeError, match="1.5"):
        nim_table([1.5])
    with pytest.raises(MemoryLimitError, match="nim 300 300 300 is too large to play here: "
                                               "more than 2,000,000 positions"):
        nim_table([300, 300, 300])
    with pytest.raises(MemoryLimitError, match="nim 200 200 200 is too large .* moves"):
        nim_table([200, 200, 200])
    with pytest.raises(MemoryLimitError, match="0.77 60 is too large .* more than 10,000 "
                                               "moves; try fewer or smaller heaps"):
        octal_table("0.77", [60], max_moves=10_000)
    with pytest.raises(ValueError, match="'0.9'"):
        octal_table("0.9", [3])
    result, out = run(nim_table([2]), ["x" * 100])
    assert result == "eof" and "xxx...' is too long to be a move" in out
    with pytest.raises(MemoryLimitError, match="more than 5 positions"):
        rules_table(TakeAway(), max_positions=5)


# -- command-line errors ----------------------------------------------------------------

@pytest.fixture
def games_dir(tmp_path, monkeypatch):
    (tmp_path / "mygames.py").write_text(textwrap.dedent('''
        import grundy

        class Good(grundy.Game):
            def start(self):
                return 2
            def moves(self, n):
                return [n - 1] if n else []

        class NeedsArgument(grundy.Game):
            def __init__(self, size):
                self.size = size

        class NotAGame:
            pass

        class BrokenMoves(Good):
            def moves(self, n):
                return 7
    '''))
    (tmp_path / "broken.py").write_text("1 / 0\n")
    (tmp_path / "bad.txt").write_text("2 2\nPX\n.T\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("args, message", [
    (["game", "nosuchmodule:Game"], "no module named 'nosuchmodule'"),
    (["game", "mygames:Missing"], "module 'mygames' has no class 'Missing'"),
    (["game", "mygames:NotAGame"], "mygames:NotAGame is not a game: it needs start() and "
                                   "moves(position)"),
    (["game", "mygames:NeedsArgument"], "NeedsArgument() failed: TypeError"),
    (["game", "mygames:BrokenMoves"], "moves(2) must return an iterable of positions"),
    (["game", "broken:Game"], "importing 'broken' failed: ZeroDivisionError"),
    (["game", "missing.py:Game"], "no such file 'missing.py'"),
    (["game", "mygames"], "expected MODULE:CLASS or FILE.py:CLASS, got 'mygames'"),
    (["police", "bad.txt"], "unknown cell 'X'"),
    (["police", "nothere.txt"], "cannot read 'nothere.txt'"),
    (["police", "-"], "standard input is where the moves are read"),
    (["nim", "1000", "1000", "1000"], "nim 1000 1000 1000 is too large to play here"),
    (["nim", "x"], "a pile must be a non-negative integer"),
    (["octal", "0.9", "5"], "'0.9': digit '9' is not octal (0-7)"),
    (["octal", "0.77", "99999999"], "0.77 99999999 is too large to play here"),
    (["police", "bad.txt", "--as", "robber"], "invalid choice: 'robber'"),
])
def test_command_line_errors(games_dir, capsys, args, message):
    assert main(["play", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("grundy: error: ") and message in err, err
    assert "Traceback" not in err


def test_command_line_error_in_a_real_process(games_dir):
    proc = subprocess.run([sys.executable, "-m", "grundy", "play", "game", "mygames:Nope"],
                          capture_output=True, text=True, timeout=60, cwd=str(games_dir))
    assert proc.returncode == 2
    assert proc.stderr == "grundy: error: module 'mygames' has no class 'Nope'\n"


def test_load_game_gives_an_instance(games_dir):
    assert type(load_game("mygames:Good")).__name__ == "Good"
    assert type(load_game(str(games_dir / "mygames.py") + ":Good")).__name__ == "Good"
    assert sys.modules["mygames"].Good is type(load_game("mygames:Good"))
    with pytest.raises(TypeError):
        load_game(3)
