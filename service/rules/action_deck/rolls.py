"""Dice primitives (spec §4.1): open-ended (acing) and plain rolls, every die recorded for the events."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from service.dice.types import DiceSource, DieRoll, DieVisibility
from service.rules.move import guaranteed


class Roller:
    """Wraps the injected dice source; collects what was thrown so each event can carry its dice."""

    def __init__(self, dice: DiceSource | None, ace_cap: int = 100) -> None:
        self.dice = dice
        self.ace_cap = ace_cap
        self._thrown: list[DieRoll] = []
        self._visibility: DieVisibility = "all"

    @contextmanager
    def hidden(self, when: bool = True) -> Iterator[None]:
        """§8 'NPC trait dice' are GM-only: dice thrown inside are logged for the GM, not for players."""
        before = self._visibility
        if when:
            self._visibility = "gm"
        try:
            yield
        finally:
            self._visibility = before

    def plain(self, sides: int, purpose: str, *, sealed: bool = False) -> int:
        """One face, no ace: the running die (seed 1.3 'nie może wypaść As'), the Extras' d6 check, shuffles.
        `sealed`: seen by nobody until unsealed (a shuffle fixes the undealt order, §8)."""
        # A context for offers or a view has no dice: nothing it runs throws any.
        die = guaranteed(self.dice, "the dice of a move that throws some").roll(
            sides, purpose=purpose, visibility="sealed" if sealed else self._visibility
        )
        self._thrown.append(die)
        return die.face

    def open(self, sides: int, purpose: str) -> dict[str, Any]:
        """Roll again on the maximum face and add (seed 1.4 'Asy'); modifiers come only after this."""
        faces: list[int] = []
        while True:
            faces.append(self.plain(sides, purpose))
            if faces[-1] < sides:
                capped = False
                break
            if len(faces) > self.ace_cap:  # B44: a safety cap, logged; never reached in practice
                capped = True
                break
        return {
            "sides": sides,
            "faces": faces,
            "total": sum(faces),
            "natural_one": faces[0] == 1,
            "aced": len(faces) > 1,
            "capped": capped,
        }

    def take(self) -> list[dict[str, Any]]:
        """The dice thrown since the last take, as the event payload wants them."""
        out = [d.to_dict() for d in self._thrown]
        self._thrown = []
        return out
