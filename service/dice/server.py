"""Server dice: every face drawn from the operating system's cryptographic RNG.

The OS's RNG rather than `random`: the global Mersenne Twister can be predicted from
a few hundred outputs, and a player who can predict the next die can choose when to act.
"""

from __future__ import annotations

from functools import lru_cache
from os import urandom

from service.dice.types import DiceMode, DieRoll, DieVisibility

# Random bytes fetched per system call. Each source keeps its own (a move or a roll), never shared between
# requests or threads, so no byte is ever handed out twice.
_POOL = 32


class ServerDice:
    mode: DiceMode = "server"

    def __init__(self) -> None:
        self._rolled: list[DieRoll] = []
        self._pool = b""
        self._at = 0

    def roll(self, sides: int, *, purpose: str = "", visibility: DieVisibility = "all") -> DieRoll:
        if type(sides) is not int or sides < 1:  # bool is an int too, and no die size
            # A rule engine asking for a d0 is a bug in the engine, not a player error.
            raise ValueError(f"a die needs a whole number of sides >= 1, got {sides!r}")
        die = DieRoll(sides=sides, face=self._below(sides) + 1, source="server", purpose=purpose, visibility=visibility)
        self._rolled.append(die)
        return die

    @property
    def rolled(self) -> list[DieRoll]:
        return list(self._rolled)

    def _below(self, sides: int) -> int:
        """Uniform in 0..sides-1: n random bytes as a number, redrawn while it falls in the top partial
        stretch (at or above `limit`, the largest multiple of `sides` they can show), then taken mod sides."""
        n, limit = _draw(sides)
        while True:
            at = self._at
            if at + n > len(self._pool):
                self._pool, at = urandom(max(_POOL, n)), 0
            self._at = at + n
            x = self._pool[at] if n == 1 else int.from_bytes(self._pool[at : at + n])
            if x < limit:
                return x % sides


@lru_cache(maxsize=64)
def _draw(sides: int) -> tuple[int, int]:
    n = max(1, (sides.bit_length() + 7) // 8)
    span = 256**n
    return n, span - span % sides
