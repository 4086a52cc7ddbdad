"""The result tree: what an expression rolled, every face kept, dropped, exploded or rerolled.

Built fresh for each evaluation (the parsed expression tree is shared and never touched), and
mutated only while its own operators run: keep/drop mark nodes, rerolls and explosions append.

Numbers are ints, or exact Fractions once `/` or a decimal literal is involved; the final total
is truncated toward zero, as d20 does with int().
"""

from __future__ import annotations

from fractions import Fraction
from typing import ClassVar

from service.dice.types import DieRoll

Num = int | Fraction


def json_number(value: Num) -> int | float:
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    return value


class Rolled:
    """Base node. Identity matters: selections compare nodes by `is`, not by value."""

    kind: ClassVar[str] = ""
    __slots__ = ("kept", "annotation")

    def __init__(self) -> None:
        self.kept = True
        self.annotation: str | None = None

    @property
    def number(self) -> Num:
        raise NotImplementedError

    @property
    def total(self) -> Num:
        return self.number if self.kept else 0

    @property
    def set(self) -> list[Rolled]:
        """What keep/drop operators choose among when applied to this node."""
        return [self]

    @property
    def keptset(self) -> list[Rolled]:
        return [n for n in self.set if n.kept]

    def drop(self) -> None:
        self.kept = False

    def to_dict(self) -> dict:
        out = {"type": self.kind, "value": json_number(self.number), "kept": self.kept}
        if self.annotation:
            out["annotation"] = self.annotation
        out.update(self._fields())
        return out

    def _fields(self) -> dict:
        return {}


class Literal(Rolled):
    kind = "literal"
    __slots__ = ("value", "text")

    def __init__(self, value: Num, text: str) -> None:
        super().__init__()
        self.value = value
        self.text = text

    @property
    def number(self) -> Num:
        return self.value


class Face(Rolled):
    """One throw of one die. `values` is its history: the face, then any mi/ma override."""

    kind = "face"
    __slots__ = ("roll", "values", "exploded")

    def __init__(self, roll: DieRoll) -> None:
        # Rolled.__init__ inlined here and in Die: one of each per die thrown, the hot path of every roll.
        self.kept = True
        self.annotation = None
        self.roll = roll
        self.values: list[int] = [roll.face]
        self.exploded = False

    @property
    def number(self) -> int:
        return self.values[-1]

    @property
    def total(self) -> int:
        # Rolled.total without the second property call: selections read every face's total, often.
        return self.values[-1] if self.kept else 0

    def _fields(self) -> dict:
        return {"face": self.roll.face, "seq": self.roll.seq, "exploded": self.exploded, "forced": self.values[1:]}


class Die(Rolled):
    """One die in a NdX term; rerolling it drops its last face and appends a new one."""

    kind = "die"
    __slots__ = ("sides", "faces")

    def __init__(self, sides: int, first: Face) -> None:
        self.kept = True
        self.annotation = None
        self.sides = sides
        self.faces = [first]

    @property
    def number(self) -> int:
        return self.faces[-1].total

    @property
    def total(self) -> int:
        return self.faces[-1].total if self.kept else 0

    @property
    def set(self) -> list[Rolled]:
        return [self.faces[-1]]

    def reroll(self, face: Face) -> None:
        self.faces[-1].drop()
        self.faces.append(face)

    def _fields(self) -> dict:
        return {"sides": self.sides, "faces": [f.to_dict() for f in self.faces]}


class _Operated(Rolled):
    __slots__ = ("operations",)

    def __init__(self) -> None:
        super().__init__()
        self.operations: list[str] = []  # as written, e.g. ["kh3", "ro1"]


class Dice(_Operated):
    kind = "dice"
    __slots__ = ("num", "sides", "dice")

    def __init__(self, num: int, sides: int, dice: list[Die]) -> None:
        super().__init__()
        self.num = num
        self.sides = sides
        self.dice = dice

    @property
    def number(self) -> Num:
        return sum((d.number for d in self.keptset), 0)

    @property
    def set(self) -> list[Rolled]:
        return list(self.dice)

    def _fields(self) -> dict:
        return {
            "num": self.num,
            "sides": self.sides,
            "operations": "".join(self.operations),
            "dice": [d.to_dict() for d in self.dice],
        }


class Set(_Operated):
    kind = "set"
    __slots__ = ("values",)

    def __init__(self, values: list[Rolled]) -> None:
        super().__init__()
        self.values = values

    @property
    def number(self) -> Num:
        return sum((v.number for v in self.keptset), 0)

    @property
    def set(self) -> list[Rolled]:
        return list(self.values)

    def _fields(self) -> dict:
        return {"operations": "".join(self.operations), "values": [v.to_dict() for v in self.values]}


class Parenthetical(_Operated):
    kind = "parenthetical"
    __slots__ = ("value",)

    def __init__(self, value: Rolled) -> None:
        super().__init__()
        self.value = value

    @property
    def number(self) -> Num:
        return self.value.total

    @property
    def set(self) -> list[Rolled]:
        # (4d6)kh3 keeps dice inside the parentheses, as in d20.
        return self.value.set

    def _fields(self) -> dict:
        return {"operations": "".join(self.operations), "inner": self.value.to_dict()}


class UnOp(Rolled):
    kind = "unop"
    __slots__ = ("op", "value")

    def __init__(self, op: str, value: Rolled) -> None:
        super().__init__()
        self.op = op
        self.value = value

    @property
    def number(self) -> Num:
        return -self.value.total if self.op == "-" else self.value.total

    def _fields(self) -> dict:
        return {"op": self.op, "operand": self.value.to_dict()}


_BINARY = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: Fraction(a) / b,  # exact, where d20 would use float
    "//": lambda a, b: a // b,
    "%": lambda a, b: a % b,
    "<": lambda a, b: int(a < b),
    ">": lambda a, b: int(a > b),
    "==": lambda a, b: int(a == b),
    ">=": lambda a, b: int(a >= b),
    "<=": lambda a, b: int(a <= b),
    "!=": lambda a, b: int(a != b),
}


class BinOp(Rolled):
    kind = "binop"
    __slots__ = ("op", "left", "right")

    OPS: ClassVar[frozenset[str]] = frozenset(_BINARY)

    def __init__(self, left: Rolled, op: str, right: Rolled) -> None:
        super().__init__()
        self.op = op
        self.left = left
        self.right = right

    @property
    def number(self) -> Num:
        value = _BINARY[self.op](self.left.total, self.right.total)
        if isinstance(value, Fraction) and value.denominator == 1:
            return value.numerator
        return value

    def _fields(self) -> dict:
        return {"op": self.op, "left": self.left.to_dict(), "right": self.right.to_dict()}


class Expression(Rolled):
    kind = "expression"
    __slots__ = ("roll",)

    def __init__(self, roll: Rolled) -> None:
        super().__init__()
        self.roll = roll

    @property
    def number(self) -> Num:
        return self.roll.total

    @property
    def set(self) -> list[Rolled]:
        return self.roll.set

    def _fields(self) -> dict:
        return {"total": int(self.number), "roll": self.roll.to_dict()}
