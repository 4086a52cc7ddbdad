"""The range every part of an expression can take, so a division that could fail, or a number too large to
log and send, is refused before any die.

A roll must not fail because of a face it threw: the failure would tell the caller that face, and a player
could probe the dice with expressions like `1/((1d20-1)//10)` (an error exactly when the d20 shows 1-10).
So a divisor (of `/`, `//` or `%`) whose range includes 0 is refused from the text alone, whatever the
dice would show. Ranges are conservative intervals: a divisor that can never be zero but whose interval
includes 0 (`1d6 - 1d6 + 1d6`, really 1..11 but -4..11 here) is refused too; say it another way.

The same ranges bound every number in the result tree: a part that can reach past the budget's `max_number`
(a 200-digit literal, or products of large ones) is refused, so what is rolled is always written to the log
and read back by every client exactly.

Explosions and rerolls can still stop a roll past the dice budget; the application logs those dice.
"""

from __future__ import annotations

import math
from fractions import Fraction

from d20 import diceast as ast

from service.dice import rolled as r
from service.dice.budget import Budget, invalid, too_large
from service.i18n.message import _

Interval = tuple[Fraction, Fraction]

_THROWING = ("rr", "ro", "ra", "e")
_GROWING = ("ra", "e")
_DROPPING = ("k", "p")


def check_divisions(tree: ast.Node, budget: Budget) -> Interval:
    """The interval of `tree`; raises expression_invalid for a divisor that may be zero or an unknown node,
    expression_too_large for a part that may reach past the budget's largest number."""
    return _Bounds(budget).of(tree)


class _Bounds:
    def __init__(self, budget: Budget) -> None:
        self._budget = budget

    def of(self, node: ast.Node) -> Interval:
        lo, hi = self._of(node)
        limit = self._budget.max_number
        if lo < -limit or hi > limit:
            raise too_large(
                _(
                    "{node}: a number in a dice expression, or anything it adds up to, may be at most "
                    "{limit} either side of zero",
                    node=_short(node),
                    limit=limit,
                )
            )
        return lo, hi

    def _of(self, node: ast.Node) -> Interval:
        if isinstance(node, ast.Expression):
            return self.of(node.roll)
        if isinstance(node, ast.AnnotatedNumber | ast.Parenthetical):
            return self.of(node.value)
        if isinstance(node, ast.Literal):
            value = node.value
            exact = Fraction(repr(value)) if isinstance(value, float) else Fraction(value)
            return exact, exact
        if isinstance(node, ast.UnOp):
            lo, hi = self.of(node.value)
            return (-hi, -lo) if node.op == "-" else (lo, hi)
        if isinstance(node, ast.BinOp):
            return self._binop(node)
        if isinstance(node, ast.OperatedDice):
            return self._dice(node.value, node.operations)
        if isinstance(node, ast.Dice):
            return self._dice(node, [])
        if isinstance(node, ast.OperatedSet):
            droppable = any(op.op in _DROPPING for op in node.operations)
            return self._set(node.value, droppable)
        if isinstance(node, ast.NumberSet):
            return self._set(node, False)
        raise invalid(_("this kind of expression is not supported: {node}", node=node))

    def _set(self, node: ast.Node, droppable: bool) -> Interval:
        members = node.values if isinstance(node, ast.NumberSet) else [node]
        lo = hi = Fraction(0)
        for member in members:
            m_lo, m_hi = self.of(member)
            if droppable:  # a dropped member counts 0
                m_lo, m_hi = min(m_lo, Fraction(0)), max(m_hi, Fraction(0))
            lo, hi = lo + m_lo, hi + m_hi
        return lo, hi

    def _dice(self, dice: ast.Dice, operations: list[ast.SetOperator]) -> Interval:
        # check_tree has already refused d%, sizes below 1 and terms that cannot stop.
        face_lo, face_hi = Fraction(1), Fraction(dice.size)
        for op in operations:
            bound = Fraction(op.sels[-1].num) if op.sels else Fraction(0)
            if op.op in _THROWING:
                face_lo, face_hi = min(face_lo, Fraction(1)), max(face_hi, Fraction(dice.size))
            elif op.op == "mi":
                face_lo, face_hi = max(face_lo, bound), max(face_hi, bound)
            elif op.op == "ma":
                face_lo, face_hi = min(face_lo, bound), min(face_hi, bound)
        count_max = self._budget.max_dice if any(op.op in _GROWING for op in operations) else dice.num
        kept_min = 0 if any(op.op in _DROPPING for op in operations) else dice.num
        return face_lo * kept_min, face_hi * count_max

    def _binop(self, node: ast.BinOp) -> Interval:
        if node.op not in r.BinOp.OPS:
            raise invalid(_("the operator {op!r} is not supported", op=node.op))
        a_lo, a_hi = self.of(node.left)
        b_lo, b_hi = self.of(node.right)
        op = node.op
        if op in ("/", "//", "%"):
            if b_lo == b_hi == 0:
                raise invalid(_("{node}: cannot divide by zero", node=node))
            if b_lo <= 0 <= b_hi:
                raise invalid(
                    _(
                        "{node}: the divisor {right} can be zero (it ranges from {low} to "
                        "{high}), so this roll is refused before any die is thrown",
                        node=node,
                        right=node.right,
                        low=_text(b_lo),
                        high=_text(b_hi),
                    )
                )
        if op == "+":
            return a_lo + b_lo, a_hi + b_hi
        if op == "-":
            return a_lo - b_hi, a_hi - b_lo
        if op in ("*", "/", "//"):
            pairs = [(x, y) for x in (a_lo, a_hi) for y in (b_lo, b_hi)]
            values = [x * y for x, y in pairs] if op == "*" else [x / y for x, y in pairs]
            lo, hi = min(values), max(values)
            return (Fraction(math.floor(lo)), Fraction(math.floor(hi))) if op == "//" else (lo, hi)
        if op == "%":  # Python's sign rule: the result lies between 0 and the divisor
            return (Fraction(0), b_hi) if b_lo > 0 else (b_lo, Fraction(0))
        return _comparison(op, (a_lo, a_hi), (b_lo, b_hi))


def _comparison(op: str, a: Interval, b: Interval) -> Interval:
    """0 or 1; exactly one of them when the two ranges settle it."""
    (a_lo, a_hi), (b_lo, b_hi) = a, b
    settled = {
        "<": (a_hi < b_lo, a_lo >= b_hi),
        ">": (a_lo > b_hi, a_hi <= b_lo),
        "<=": (a_hi <= b_lo, a_lo > b_hi),
        ">=": (a_lo >= b_hi, a_hi < b_lo),
        "==": (a_lo == a_hi == b_lo == b_hi, a_hi < b_lo or b_hi < a_lo),
        "!=": (a_hi < b_lo or b_hi < a_lo, a_lo == a_hi == b_lo == b_hi),
    }
    always, never = settled[op]
    if always:
        return Fraction(1), Fraction(1)
    if never:
        return Fraction(0), Fraction(0)
    return Fraction(0), Fraction(1)


def _short(node: ast.Node) -> str:
    text = str(node)
    return text if len(text) <= 40 else text[:40] + "…"


def _text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else str(float(value))
