"""Table dice: faces thrown by hand at the table and entered by a client.

The same class feeds dice into engines in tests: the faces are consumed in order, each is
checked against the size of the die the rules ask for, and running out is an error that says
how many more faces the move needs.
"""

from __future__ import annotations

from collections.abc import Iterable

from service.dice.types import DiceError, DiceMode, DieRoll, DieVisibility
from service.i18n.message import _, _n


class TableDice:
    mode: DiceMode = "table"

    def __init__(self, faces: Iterable[int], *, field: str = "dice") -> None:
        self._faces = list(faces)
        self._next = 0
        self._field = field
        self._rolled: list[DieRoll] = []

    def roll(self, sides: int, *, purpose: str = "", visibility: DieVisibility = "all") -> DieRoll:
        if self._next >= len(self._faces):
            raise DiceError(
                "dice_required",
                _n(
                    "this move needs a d{sides} ({purpose}); only {count} table die was given",
                    "this move needs a d{sides} ({purpose}); only {count} table dice were given",
                    len(self._faces),
                    sides=sides,
                    purpose=purpose or "roll",
                    count=len(self._faces),
                ),
                f"{self._field}[{self._next}]",
            )
        face = self._faces[self._next]
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= sides:
            raise DiceError(
                "die_out_of_range",
                _("a d{sides} shows 1 to {sides}; got {face!r}", sides=sides, face=face),
                f"{self._field}[{self._next}]",
            )
        self._next += 1
        die = DieRoll(sides=sides, face=face, source="table", purpose=purpose, visibility=visibility)
        self._rolled.append(die)
        return die

    @property
    def rolled(self) -> list[DieRoll]:
        return list(self._rolled)

    @property
    def unused(self) -> int:
        return len(self._faces) - self._next
