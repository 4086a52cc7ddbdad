"""Evaluating d20's expression tree into a result tree, with every die from one DiceSource.

d20's own Roller draws from the global `random` module; this evaluator is the reason we do
not use it. It reads the parsed tree and never changes it (the tree is cached and shared).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cached_property, lru_cache

from d20 import diceast as ast

from service.dice import operators
from service.dice import rolled as r
from service.dice.budget import Budget, invalid, too_large
from service.dice.types import DiceSource, DieRoll
from service.i18n.message import _


class Evaluator:
    def __init__(self, dice: DiceSource, budget: Budget) -> None:
        self._dice = dice
        self._budget = budget
        self.thrown: list[DieRoll] = []

    @cached_property
    def _handlers(self) -> _Handlers:
        return _Handlers(self)

    def run(self, node: ast.Node) -> r.Rolled:
        """eval, straight from the handler table: the path every roll's common nodes take."""
        handler = _HANDLERS.get(type(node))
        return self.eval(node) if handler is None else handler(self, node)

    def eval(self, node: ast.Node) -> r.Rolled:
        handler = self._handlers.get(type(node))
        if handler is None:
            raise invalid(_("this kind of expression is not supported: {node}", node=node))
        return handler(node)

    def throw(self, sides: int, purpose: str) -> r.Face:
        # Counted before the throw, so the budget stops us without a die too many.
        if len(self.thrown) >= self._budget.max_dice:
            raise too_large(
                f"this roll needs more than {self._budget.max_dice} dice (explosions and rerolls count); it was stopped"
            )
        die = self._dice.roll(sides, purpose=purpose)
        self.thrown.append(die)
        return r.Face(die)

    # ----- nodes -----

    def _expression(self, node: ast.Expression) -> r.Rolled:
        return r.Expression(self.run(node.roll))

    def _annotated(self, node: ast.AnnotatedNumber) -> r.Rolled:
        target = self.eval(node.value)
        target.annotation = "".join(node.annotations)
        return target

    def _literal(self, node: ast.Literal) -> r.Rolled:
        value = node.value
        # repr(1.1) == "1.1": read the decimal as written, not as the nearest binary float.
        exact = Fraction(repr(value)) if isinstance(value, float) else value
        return r.Literal(exact, str(value))

    def _parenthetical(self, node: ast.Parenthetical) -> r.Rolled:
        return r.Parenthetical(self.eval(node.value))

    def _unop(self, node: ast.UnOp) -> r.Rolled:
        return r.UnOp(node.op, self.eval(node.value))

    def _binop(self, node: ast.BinOp) -> r.Rolled:
        if node.op not in r.BinOp.OPS:
            raise invalid(_("the operator {op!r} is not supported", op=node.op))
        result = r.BinOp(self.eval(node.left), node.op, self.eval(node.right))
        try:
            # Computed now so x/0 fails here, not while rendering. bounds.py has already refused every divisor
            # that may be zero, before any die: this is the backstop, never the rule.
            result.number  # noqa: B018
        except ZeroDivisionError:
            raise invalid(_("{node}: cannot divide by zero", node=node)) from None
        return result

    def _numberset(self, node: ast.NumberSet) -> r.Rolled:
        return r.Set([self.eval(v) for v in node.values])

    def _operated(self, node: ast.OperatedSet) -> r.Rolled:
        target: r.Rolled
        if isinstance(node.value, ast.Dice):
            target = self._roll_term(node.value, purpose=_label(node))
        else:
            target = self.eval(node.value)
        if not isinstance(target, r.Dice | r.Set | r.Parenthetical):
            raise invalid(_("{node}: operators apply to dice, sets and parentheses only", node=node))
        throw = self._thrower(target.sides, str(node)) if isinstance(target, r.Dice) else None
        for op in node.operations:
            operators.apply(op, target, throw)
            target.operations.append(str(op))
        return target

    def _thrower(self, sides: int, term: str) -> operators.Throw:
        # Rerolls and explosions are logged with the term and their role: "1d10e10 explosion".
        return lambda role: self.throw(sides, f"{term} {role}")

    def _dice_term(self, node: ast.Dice, purpose: str | None = None) -> r.Dice:
        label = purpose or str(node)
        dice = [r.Die(node.size, self.throw(node.size, label)) for _n in range(node.num)]
        return r.Dice(node.num, node.size, dice)

    def _operated_dice(self, node: ast.OperatedDice) -> r.Rolled:
        """_operated for NdM with operators (4d6kh3, 1d10e10), the common case, with the term's text and the
        operators' text kept per parsed node instead of rebuilt for every roll."""
        if not isinstance(node.value, ast.Dice):
            return self._operated(node)
        label = _label(node)
        target = self._roll_term(node.value, purpose=label)
        throw = self._thrower(target.sides, label)
        for op in node.operations:
            operators.apply(op, target, throw)
            target.operations.append(_label(op))
        return target

    def _roll_term(self, node: ast.Dice, purpose: str | None = None) -> r.Dice:
        """_dice_term, with the budget checked once for the whole term instead of once per die."""
        label = purpose or _label(node)
        size, num = node.size, node.num
        if len(self.thrown) + num > self._budget.max_dice:
            return self._dice_term(node, label)  # throw() stops the term at the die that crosses the budget
        roll, thrown = self._dice.roll, self.thrown
        dice = []
        for _n in range(num):
            die = roll(size, purpose=label)
            thrown.append(die)
            dice.append(r.Die(size, r.Face(die)))
        return r.Dice(num, size, dice)


@lru_cache(maxsize=4096)
def _label(node: ast.Node) -> str:
    # A term's or an operator's text, logged as each die's purpose and kept in the result tree. Parsed trees
    # are cached and never change, and d20's nodes hash by identity, so the text can be kept with the node
    # instead of rebuilt for every roll.
    return str(node)


# By node type; the parsed tree's classes are d20's, so a subclass we have not seen is refused, not guessed.
_HANDLERS = {
    ast.Expression: Evaluator._expression,
    ast.AnnotatedNumber: Evaluator._annotated,
    ast.Literal: Evaluator._literal,
    ast.Parenthetical: Evaluator._parenthetical,
    ast.UnOp: Evaluator._unop,
    ast.BinOp: Evaluator._binop,
    ast.NumberSet: Evaluator._numberset,
    ast.OperatedSet: Evaluator._operated,
    ast.OperatedDice: Evaluator._operated_dice,
    ast.Dice: Evaluator._roll_term,
}


class _Handlers:
    """The handler table as one evaluator sees it: a method is bound when a node needs it, rather than all ten
    bound up front for every roll, most of which touch two or three kinds of node."""

    __slots__ = ("_evaluator",)

    def __init__(self, evaluator: Evaluator) -> None:
        self._evaluator = evaluator

    def get(self, kind: type) -> Callable[[ast.Node], r.Rolled] | None:
        handler = _HANDLERS.get(kind)
        return None if handler is None else handler.__get__(self._evaluator)
