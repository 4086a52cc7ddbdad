"""Server dice: every face drawn from the operating system's cryptographic RNG.

`secrets.randbelow` rather than `random`: the global Mersenne Twister can be predicted from
a few hundred outputs, and a player who can predict the next die can choose when to act.
"""
from __future__ import annotations

import secrets

from service.dice.types import DiceMode, DieRoll, DieVisibility


class ServerDice:
    mode: DiceMode = "server"

    def __init__(self) -> None:
        self._rolled: list[DieRoll] = []

    def roll(self, sides: int, *, purpose: str = "", visibility: DieVisibility = "all") -> DieRoll:
        if not isinstance(sides, int) or isinstance(sides, bool) or sides < 1:
            # A rule engine asking for a d0 is a bug in the engine, not a player error.
            raise ValueError(f"a die needs a whole number of sides >= 1, got {sides!r}")
        die = DieRoll(sides=sides, face=secrets.randbelow(sides) + 1, source="server", purpose=purpose,
                      visibility=visibility)
        self._rolled.append(die)
        return die

    @property
    def rolled(self) -> list[DieRoll]:
        return list(self._rolled)
