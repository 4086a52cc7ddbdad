"""Evaluating d20's expression tree into a result tree, with every die from one DiceSource.

d20's own Roller draws from the global `random` module; this evaluator is the reason we do
not use it. It reads the parsed tree and never changes it (the tree is cached and shared).
"""
from __future__ import annotations

from fractions import Fraction

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
        self._handlers = {
            ast.Expression: self._expression,
            ast.AnnotatedNumber: self._annotated,
            ast.Literal: self._literal,
            ast.Parenthetical: self._parenthetical,
            ast.UnOp: self._unop,
            ast.BinOp: self._binop,
            ast.NumberSet: self._numberset,
            ast.OperatedSet: self._operated,
            ast.OperatedDice: self._operated,
            ast.Dice: self._dice_term,
        }

    def eval(self, node: ast.Node) -> r.Rolled:
        handler = self._handlers.get(type(node))
        if handler is None:
            raise invalid(_("this kind of expression is not supported: {node}", node=node))
        return handler(node)

    def throw(self, sides: int, purpose: str) -> r.Face:
        # Counted before the throw, so the budget stops us without a die too many.
        if len(self.thrown) >= self._budget.max_dice:
            raise too_large(
                f"this roll needs more than {self._budget.max_dice} dice "
                "(explosions and rerolls count); it was stopped"
            )
        die = self._dice.roll(sides, purpose=purpose)
        self.thrown.append(die)
        return r.Face(die)

    # ----- nodes -----

    def _expression(self, node: ast.Expression) -> r.Rolled:
        return r.Expression(self.eval(node.roll))

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
        if isinstance(node.value, ast.Dice):
            target = self._dice_term(node.value, purpose=str(node))
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
