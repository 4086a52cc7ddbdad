"""Set and dice operators: k p (any set), rr ro ra e mi ma (dice only). Semantics follow d20.

One deliberate difference: d20 keeps selections in Python sets, so when two dice are rerolled
at once, which new face goes to which die depends on memory addresses. Here a selection is
always in the order the values appear, so the same faces in always give the same tree out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from d20 import diceast as ast

from service.dice import rolled as r
from service.dice.budget import invalid
from service.i18n.message import _

# Throws one new d`sides` for the given role ("reroll", "explosion") and returns its face.
Throw = Callable[[str], r.Face]


def select(sels: list[ast.SetSelector], target: r.Rolled, max_targets: int | None = None) -> list[r.Rolled]:
    """The values of `target` any selector picks, in set order, each once."""
    if len(sels) == 1 and max_targets is None and sels[0].cat not in ("h", "l"):
        return _select_one(sels[0], target)  # already in set order, each once: nothing to merge
    picked: dict[int, r.Rolled] = {}
    for sel in sels:
        if max_targets is not None:
            room = max_targets - len(picked)
            if room == 0:
                break
            batch = _select_one(sel, target)[:room]
        else:
            batch = _select_one(sel, target)
        for node in batch:
            picked[id(node)] = node
    return [n for n in target.set if id(n) in picked]


def _select_one(sel: ast.SetSelector, target: r.Rolled) -> list[r.Rolled]:
    kept = target.keptset
    if sel.cat == "h":
        return sorted(kept, key=lambda n: n.total, reverse=True)[: sel.num]  # stable: ties go to the earlier
    if sel.cat == "l":
        return sorted(kept, key=lambda n: n.total)[: sel.num]
    if sel.cat == ">":
        return [n for n in kept if n.total > sel.num]
    if sel.cat == "<":
        return [n for n in kept if n.total < sel.num]
    return [n for n in kept if n.total == sel.num]


def apply(op: ast.SetOperator, target: r.Rolled, throw: Throw | None) -> None:
    if op.op == "k":
        chosen = {id(n) for n in select(op.sels, target)}
        for node in target.keptset:
            if id(node) not in chosen:
                node.drop()
    elif op.op == "p":
        for node in select(op.sels, target):
            node.drop()
    elif throw is None or not isinstance(target, r.Dice):
        raise invalid(_("{op} works on dice only, not on {kind}", op=op.op, kind=target.kind))
    elif op.op == "rr":
        _reroll(op, target, throw, once=False)
    elif op.op == "ro":
        _reroll(op, target, throw, once=True)
    elif op.op == "e":
        _explode(op, target, throw, max_targets=None)
    elif op.op == "ra":
        _explode(op, target, throw, max_targets=1)
    elif op.op in ("mi", "ma"):
        _clamp(op, target)
    else:
        raise invalid(_("the operator {op!r} is not supported", op=op.op))


def _dice(values: list[r.Rolled]) -> list[r.Die]:
    """The values of a Dice are its Die nodes, so any selection of them is of dice."""
    return cast("list[r.Die]", values)


def _reroll(op: ast.SetOperator, target: r.Dice, throw: Throw, *, once: bool) -> None:
    # The budget's throw counter stops `rr` on unlucky streaks; check_tree already refused
    # selectors that can never stop.
    chosen = select(op.sels, target)
    while chosen:
        for die in _dice(chosen):
            die.reroll(throw("reroll"))
        if once:
            return
        chosen = select(op.sels, target)


def _explode(op: ast.SetOperator, target: r.Dice, throw: Throw, *, max_targets: int | None) -> None:
    done: set[int] = set()
    chosen = select(op.sels, target, max_targets)
    while chosen:
        for die in _dice(chosen):
            die.faces[-1].exploded = True
            target.dice.append(r.Die(target.sides, throw("explosion")))
            done.add(id(die))
        if max_targets is not None:  # ra: explode at most once in all
            return
        chosen = [n for n in select(op.sels, target) if id(n) not in done]


def _clamp(op: ast.SetOperator, target: r.Dice) -> None:
    bound = op.sels[-1].num  # d20 uses only the last selector of an immediate operator
    for die in _dice(target.keptset):
        face = die.faces[-1]
        if (op.op == "mi" and face.number < bound) or (op.op == "ma" and face.number > bound):
            face.values.append(bound)
