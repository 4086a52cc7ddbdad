"""One move in progress: a private deep copy of the state, the actor, the dice, and the events so far."""
from __future__ import annotations

import copy
from typing import Any

from service.dice.types import DiceSource
from service.rules.base import Actor, Event
from service.rules.stepdice.errors import violation
from service.rules.stepdice.options import Options

COMBAT_PHASES = ("player_phase", "enemy_phase")


def initial_table() -> dict[str, Any]:
    return {
        "scene": None,            # {id, kind, label}
        "encounter": None,        # see combat modules; None when no encounter was opened
        "clocks": {},             # clock_id -> clock (spec 3.4)
        "pending": None,          # the one in-flight choice of spec 5.1, or None
        "failed_tests": [],       # signatures of failed tests in this scene, for the §3.7 warning
        "seq": {},                # id counters: test, scene, encounter, enemy, clock, hit
    }


class Ctx:
    def __init__(self, state: dict[str, Any], actor: Actor, dice: DiceSource) -> None:
        # Purity: the caller's state is never touched; every change lands in this copy.
        self.state = copy.deepcopy(state)
        self.state.setdefault("characters", {})
        self.options = Options.model_validate(self.state.get("options") or {})
        table = self.state.get("table") or {}
        for key, value in initial_table().items():
            table.setdefault(key, value)
        self.state["table"] = table
        self.actor = actor
        self.dice = dice
        self.events: list[Event] = []

    @property
    def table(self) -> dict[str, Any]:
        return self.state["table"]

    @property
    def characters(self) -> dict[str, dict[str, Any]]:
        return self.state["characters"]

    @property
    def encounter(self) -> dict[str, Any] | None:
        return self.table["encounter"]

    @property
    def in_combat(self) -> bool:
        enc = self.encounter
        return enc is not None and enc["phase"] in COMBAT_PHASES

    def emit(self, type_: str, data: dict[str, Any], *, gm_only: bool = False,
             redacted: dict[str, Any] | None = None) -> None:
        # Copies: an event must never alias the state it describes, which later steps keep changing.
        self.events.append(Event(type_, copy.deepcopy(data), visibility="gm" if gm_only else "all",
                                 redacted=copy.deepcopy(redacted)))

    def next_id(self, kind: str, prefix: str) -> str:
        seq = self.table["seq"]
        seq[kind] = seq.get(kind, 0) + 1
        return f"{prefix}{seq[kind]}"

    def sheet(self, character_id: str, field: str = "character_id") -> dict[str, Any]:
        sheet = self.characters.get(character_id)
        if sheet is None:
            raise violation("unknown_character", f"no character {character_id!r} in this campaign", field)
        return sheet

    def slot(self, character_id: str) -> dict[str, Any] | None:
        """The character's per-round combat record while an encounter is running, else None."""
        if not self.in_combat:
            return None
        return self.encounter["pcs"].get(character_id)
