"""Differential test: the same faces through d20's own roller and through ours.

d20 draws from its module's `random`; we hand it a recorder for the length of one roll so
we know which faces it used, then feed those faces to our evaluator through TableDice.
"""

import random

import d20
import d20.expression
import pytest

from service.dice.expression import roll_expression
from service.dice.table import TableDice

EXPRESSIONS = [
    "1d20",
    "4d6kh3",
    "4d6kl1",
    "4d6ph1",
    "4d6pl1",
    "2d20kh1",
    "2d20kl1",
    "6d6kh3kl1",
    "4d6k>3",
    "4d6p<3",
    "4d6k4",
    "4d6e6",
    "1d10e10",
    "3d6e>4",
    "8d4e<2",
    "4d6e6kh3",
    "3d6ra6",
    "1d20ro1",
    "2d6rr1",
    "4d6rr<3",
    "4d6ro<3kh3",
    "2d20ro1kh1",
    "1d6mi3",
    "2d6ma4",
    "4d6mi2kh3",
    "1d6e6mi2",
    "(1d6, 1d8, 1d10)kh1",
    "(1d6, 2, 3)kh2",
    "(4d6)kh3",
    "(2d6)pl1",
    "(1d6 + 2) * 3",
    "1d8 + 1d6 - 2",
    "10d6 / 3",
    "-10d6 / 3",
    "1d20 >= 12",
    "-1d4",
    "1d6 // 2",
    "1d6 % 4",
    "1d20 [attack] + 5 [str]",
    "1.5 * 2d4",
    "((1d6, 1d6)kh1 + 1d4, 1d8)kl1",
    "3d2e2kl2",
]
REORDERS = ("rr", "ro")  # d20 rerolls in Python-set order, so only totals must agree


class RecordingRandom:
    def __init__(self, seed):
        self._rng = random.Random(seed)
        self.faces = []

    def randrange(self, n):
        value = self._rng.randrange(n)
        self.faces.append(value + 1)
        return value


class PlainStringifier(d20.MarkdownStringifier):
    """d20's Markdown renderer without backticks and bold: the format we promise."""

    def _str_expression(self, node):
        return f"{self._stringify(node.roll)} = {int(node.total)}"

    def _str_die(self, node):
        return ", ".join(self._stringify(v) for v in node.values)


@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_same_faces_give_the_same_total_and_text_as_d20(expr, monkeypatch):
    for seed in range(40):
        recorder = RecordingRandom(seed)
        monkeypatch.setattr(d20.expression, "random", recorder)
        theirs = d20.roll(expr, stringifier=PlainStringifier())
        monkeypatch.undo()

        dice = TableDice(recorder.faces)
        ours = roll_expression(expr, dice)
        assert dice.unused == 0, f"{expr} seed {seed}: threw a different number of dice"
        assert ours.total == theirs.total, f"{expr} seed {seed}"
        if not any(op in expr for op in REORDERS):
            assert ours.render() == theirs.result, f"{expr} seed {seed}"
