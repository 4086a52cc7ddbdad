"""The vocabulary every dice source and rule engine shares."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol

DiceMode = Literal["server", "verifiable", "table"]

# Who may see a die in the log. "gm": players see that dice were thrown, not which (an NPC's trait dice);
# "sealed": nobody, the GM included, until the rules unseal them (a shuffle that fixes a deck's order).
# Every die is logged whatever its visibility, and a closed verifiable session reveals them all.
DieVisibility = Literal["all", "gm", "sealed"]


@dataclass(frozen=True)
class DieRoll:
    """One die as it was thrown: its size, the face that came up, where it came from.

    `seq` is the die's position in the campaign's dice session (verifiable mode), so a
    roll that was thrown and then discarded shows up as a gap in the log.
    """

    sides: int
    face: int
    source: DiceMode
    seq: int | None = None
    purpose: str = ""
    # Where the die may be shown, not part of it: the log groups dice by it (service/game/moves/dicesource.py).
    visibility: DieVisibility = field(default="all", compare=False)

    def __init__(
        self,
        sides: int,
        face: int,
        source: DiceMode,
        seq: int | None = None,
        purpose: str = "",
        visibility: DieVisibility = "all",
    ) -> None:
        # The generated frozen __init__ sets each field through object.__setattr__, which costs more than the
        # rest of throwing a die; writing the instance dict once gives the same frozen object.
        self.__dict__.update(sides=sides, face=face, source=source, seq=seq, purpose=purpose, visibility=visibility)

    def to_dict(self) -> dict:
        # Spelled out rather than dataclasses.asdict: every die of every move passes here, and asdict's
        # recursive walk cost more than the throw. Every field but visibility, in field order.
        return {"sides": self.sides, "face": self.face, "source": self.source, "seq": self.seq, "purpose": self.purpose}


class DiceError(Exception):
    """A die could not be produced: a table die out of range, or missing."""

    def __init__(self, code: str, detail: str, field: str = "dice") -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.field = field


class DiceSource(Protocol):
    """Where every die comes from. Rule engines only ever call `roll`."""

    mode: DiceMode

    def roll(self, sides: int, *, purpose: str = "", visibility: DieVisibility = "all") -> DieRoll: ...

    @property
    def rolled(self) -> list[DieRoll]:
        """Every die produced so far, in order."""
        ...
