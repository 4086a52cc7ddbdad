"""One move in progress: a private deep copy of the state, the actor, the dice, and the events so far."""

from __future__ import annotations

from typing import Any

from service.rules.move import MoveContext, guaranteed
from service.rules.stepdice.errors import violation
from service.rules.stepdice.events_model import EVENT_PAYLOADS
from service.rules.stepdice.options import Options

COMBAT_PHASES = ("player_phase", "enemy_phase")


def initial_table() -> dict[str, Any]:
    return {
        "scene": None,  # {id, kind, label}
        "encounter": None,  # see combat modules; None when no encounter was opened
        "clocks": {},  # clock_id -> clock (spec 3.4)
        "pending": None,  # the one in-flight choice of spec 5.1, or None
        "awaiting": [],  # who must act next and what they may send (recomputed after every move)
        "failed_tests": [],  # signatures of failed tests in this scene, for the §3.7 warning
        "seq": {},  # id counters: test, scene, encounter, enemy, clock, hit
    }


class Ctx(MoveContext[Options]):
    Options = Options
    violation = staticmethod(violation)
    payloads = EVENT_PAYLOADS
    initial_table = staticmethod(initial_table)

    @property
    def encounter(self) -> dict[str, Any] | None:
        return self.table["encounter"]

    @property
    def in_combat(self) -> bool:
        enc = self.encounter
        return enc is not None and enc["phase"] in COMBAT_PHASES

    def running(self) -> dict[str, Any]:
        """The encounter a step of combat works on: its move's guards made sure there is one."""
        return guaranteed(self.encounter, "the encounter of a combat step")

    def slot(self, character_id: str) -> dict[str, Any] | None:
        """The character's per-round combat record while an encounter is running, else None."""
        enc = self.encounter
        if enc is None or not self.in_combat:
            return None
        return enc["pcs"].get(character_id)
