"""Free dice expressions in d20's syntax ("4d6kh3", "1d10e10 + 2", "(1d6, 1d8)kh1").

    >>> from service.dice.table import TableDice
    >>> result = roll_expression("4d6kh3", TableDice([6, 3, 1, 5]))
    >>> result.total
    14
    >>> result.render()
    '4d6kh3 (6, 3, ~~1~~, 5) = 14'
    >>> [die.face for die in result.dice]  # every die thrown, explosions and rerolls included
    [6, 3, 1, 5]
    >>> result.to_dict()["tree"]["roll"]["operations"]  # the whole result tree, JSON-able
    'kh3'

Three steps, as in d20: parse (d20's grammar, cached, shared, never mutated), evaluate
(evaluate.py, every die from the injected source, within a Budget), render (render.py).

We parse with d20's grammar and transformer directly rather than `d20.parse`: d20's parse
cache is keyed on the text with spaces removed, so once "12" has been parsed, "1 2" (a syntax
error) comes back as 12, and "1d2 0" as 1d20. Our cache is keyed on the exact text.

If the budget stops a roll half way (too many explosions), the dice already thrown are in the
source's `rolled` list: log them, so a verifiable session shows no gap in its counter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import lark
from d20 import diceast as ast

from service.dice import rolled
from service.dice.bounds import check_divisions
from service.dice.budget import DEFAULT_BUDGET, Budget, check_length, check_tree, invalid
from service.dice.evaluate import Evaluator
from service.dice.render import render
from service.dice.types import DiceSource, DieRoll
from service.i18n.message import _

# Lark's terminal names, as a player would say them.
_EXPECTED = {
    "LPAR": "(",
    "RPAR": ")",
    "COMMA": ",",
    "U_OP": "+ or -",
    "A_OP": "+ or -",
    "M_OP": "* / // %",
    "COMP_OPERATOR": "a comparison",
    "INTEGER": "a number",
    "DECIMAL": "a number",
    "D": "d",
    "DICE_VALUE": "a die size",
    "SELTYPE": "h l < >",
    "SET_OPERATOR": "k or p",
    "DICE_OPERATOR": "a dice operator",
    "ANNOTATION": "an [annotation]",
    "$END": "the end",
}


@dataclass
class ExpressionResult:
    expression: str
    tree: rolled.Expression
    dice: list[DieRoll] = field(default_factory=list)

    @property
    def total(self) -> int:
        return int(self.tree.total)  # truncates toward zero, like d20

    def render(self) -> str:
        return render(self.tree)

    def to_dict(self) -> dict:
        return {
            "expression": self.expression,
            "total": self.total,
            "render": self.render(),
            "tree": self.tree.to_dict(),
            "dice": [d.to_dict() for d in self.dice],
        }


def parse_expression(expr: str, budget: Budget = DEFAULT_BUDGET) -> ast.Expression:
    """d20's expression tree for `expr`, checked against the budget. Shared: do not mutate."""
    if not isinstance(expr, str):
        raise invalid(_("a dice expression must be text"))
    check_length(expr, budget)
    return _checked(expr, budget)


@lru_cache(maxsize=1024)
def _checked(expr: str, budget: Budget) -> ast.Expression:
    # The checks read only the text and the budget, so a tree that passed once passes again: players repeat
    # the same few expressions, and these walks cost more than rolling them. Refusals are not cached.
    tree = _parse(expr)
    check_tree(tree, budget)
    check_divisions(tree, budget)
    return tree


@lru_cache(maxsize=1024)
def _parse(expr: str) -> ast.Expression:
    try:
        return ast.parser.parse(expr, start="expr")
    except lark.UnexpectedInput as error:
        raise invalid(_syntax_message(expr, error)) from None
    except lark.LarkError as error:  # e.g. a transformer failure on a malformed number
        raise invalid(_("not a dice expression: {error}", error=error)) from None


def _syntax_message(expr: str, error: lark.UnexpectedInput) -> str:
    expected = getattr(error, "expected", None) or getattr(error, "allowed", None) or ()
    wanted = sorted({_EXPECTED.get(name, name) for name in expected if not name.startswith("_")})
    hint = _("; expected {wanted}", wanted=", ".join(wanted)) if wanted else ""
    token = getattr(error, "token", None)
    if not expr.strip() or (token is not None and token.type == "$END"):
        return _("the expression ends too early (position {position}){hint}", position=len(expr) + 1, hint=hint)
    position = (getattr(error, "pos_in_stream", None) or 0) + 1
    got = str(token) if token is not None else expr[position - 1 : position]
    if len(got) > 12:
        got = got[:12] + "…"
    if token is not None and token.type == "COMMENT" and set(expected) == {"$END"}:
        return _(
            "unexpected {got!r} at position {position}{hint} (a label after a roll goes in square brackets, like "
            "1d6 [fire])",
            got=got,
            position=position,
            hint=hint,
        )
    return _("unexpected {got!r} at position {position}{hint}", got=got, position=position, hint=hint)


def roll_expression(expr: str, dice: DiceSource, *, budget: Budget = DEFAULT_BUDGET) -> ExpressionResult:
    return evaluate_expression(expr, parse_expression(expr, budget), dice, budget=budget)


def evaluate_expression(
    expr: str, tree: ast.Expression, dice: DiceSource, *, budget: Budget = DEFAULT_BUDGET
) -> ExpressionResult:
    """Roll a tree `parse_expression` returned. Only the faces can still fail it: explosions or rerolls
    past the budget. The dice thrown before that are in the source's `rolled` list, to be logged."""
    evaluator = Evaluator(dice, budget)
    result = evaluator.run(tree)
    assert isinstance(result, rolled.Expression)
    return ExpressionResult(expression=expr, tree=result, dice=evaluator.thrown)
