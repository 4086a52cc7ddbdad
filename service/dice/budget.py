"""Limits on a free dice expression, so no request can make the service roll forever.

Like d20's RollContext/TooManyRolls, with one addition: everything that can be known from the
expression tree alone is checked *before* the first die is thrown. That matters in verifiable
mode, where every thrown die consumes a counter value that must then appear in the log.
Only explosions and rerolls, whose count depends on the faces, are checked while rolling.
"""

from __future__ import annotations

from dataclasses import dataclass

from d20 import diceast as ast

from service.dice.types import DiceError
from service.i18n.message import _

FIELD = "expression"


@dataclass(frozen=True)
class Budget:
    max_length: int = 200  # characters of expression text
    max_sides: int = 1000  # faces on one die
    max_dice_per_term: int = 100  # N in one NdX
    max_dice: int = 100  # dice thrown by the whole expression, explosions and rerolls included
    # Any number the expression writes or reaches, either side of zero: the largest integer every JSON client
    # reads exactly (a JavaScript number), and well inside the 64 bits the log's JSON encoder writes.
    max_number: int = 2**53 - 1


DEFAULT_BUDGET = Budget()


def too_large(detail: str) -> DiceError:
    return DiceError("expression_too_large", detail, field=FIELD)


def invalid(detail: str) -> DiceError:
    return DiceError("expression_invalid", detail, field=FIELD)


def check_length(expr: str, budget: Budget) -> None:
    if len(expr) > budget.max_length:
        raise too_large(f"a dice expression may be at most {budget.max_length} characters; got {len(expr)}")


def check_tree(tree: ast.Node, budget: Budget) -> None:
    """Reject what is too large or can never halt, before any die is thrown."""
    planned = 0
    stack: list[ast.Node] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Dice):
            _check_dice(node, budget)
            planned += node.num
        elif isinstance(node, ast.OperatedDice):
            _check_dice(node.value, budget)  # sizes first: the coverage test below loops over faces
            for op in node.operations:
                _check_dice_op(node.value, op)
        stack.extend(node.children)
    if planned > budget.max_dice:
        raise too_large(f"this expression throws {planned} dice; at most {budget.max_dice} are allowed")


def _check_dice(dice: ast.Dice, budget: Budget) -> None:
    if dice.size == "%":
        # d20 rolls d% as a tens die showing 0-90, which surprises everyone who meant d100.
        raise invalid(_("d% (percentile dice) is not supported; roll d100 instead"))
    if dice.size < 1:
        raise invalid(_("{dice}: a die needs at least one side", dice=dice))
    if dice.size > budget.max_sides:
        raise too_large(f"{dice}: a die may have at most {budget.max_sides} sides")
    if dice.num > budget.max_dice_per_term:
        raise too_large(f"{dice}: at most {budget.max_dice_per_term} dice may be thrown in one term")


def _check_dice_op(dice: ast.Dice, op: ast.SetOperator) -> None:
    if op.op in ast.SetOperator.IMMEDIATE and op.sels[-1].cat is not None:
        raise invalid(_("{op}: {op_2} takes a plain number (like {op_2}3), not a selector", op=op, op_2=op.op))
    if dice.num == 0:
        return
    if op.op == "rr" and any(sel.cat in ("h", "l") and sel.num > 0 for sel in op.sels):
        # The highest/lowest die always exists, so "reroll the lowest until it is not" never ends.
        raise too_large(f"{dice}{op}: rerolling the highest or lowest die would never stop")
    if op.op in ("rr", "e") and _covers_every_face(op.sels, dice.size):
        verb = "explode" if op.op == "e" else "be rerolled"
        raise too_large(f"{dice}{op}: every face would {verb} again, so the roll would never stop")


def _covers_every_face(sels: list[ast.SetSelector], sides: int) -> bool:
    def selected(face: int) -> bool:
        for sel in sels:
            if sel.cat is None and face == sel.num:
                return True
            if sel.cat == "<" and face < sel.num:
                return True
            if sel.cat == ">" and face > sel.num:
                return True
        return False

    return all(selected(face) for face in range(1, sides + 1))
