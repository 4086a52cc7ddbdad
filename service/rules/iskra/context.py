"""One move in progress: a private deep copy of the state, the actor, the dice, and the events so far."""
from __future__ import annotations

import copy
from typing import Any

from service.dice.types import DiceSource
from service.rules.base import Actor, Event
from service.rules.iskra.errors import violation
from service.rules.iskra.options import Options


def initial_table() -> dict[str, Any]:
    return {
        "session": {"number": 0, "state": "between_sessions"},  # spec 3.8, 5.6
        "day": 0,                 # game time at day resolution ("doba", spec 3.8)
        "locations": {},          # location_id -> spec 3.7 record
        "pending": None,          # the one test or damage sub-machine in flight (spec 5.1 / 5.2)
        "encounter": None,        # spec 3.9
        "last_test": None,        # the most recently closed test
        "adversities": [],        # adversity labels already awarded (7-B16: once per adversity)
        "ether_exposure": [],     # GM-only flags (spec 4.14)
        "awaiting": [],           # whose move it is
        "seq": {},                # id counters
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
        enc = self.table["encounter"]
        return enc if enc is not None and enc["state"] == "active" else None

    def emit(self, type_: str, data: dict[str, Any], *, gm_only: bool = False,
             redacted: dict[str, Any] | None = None) -> None:
        # Copies: an event must never alias the state it describes, which later steps keep changing.
        self.events.append(Event(type_, copy.deepcopy(data), visibility="gm" if gm_only else "all",
                                 redacted=copy.deepcopy(redacted)))

    def emit_sheet(self, type_: str, cid: str, data: dict[str, Any], hide: tuple[str, ...]) -> None:
        """An event about one character; for NPCs the listed numbers are GM-only (spec 8: NPC Health, Focus)."""
        npc = self.characters[cid]["controller"] == "gm"
        self.emit(type_, data, redacted={k: v for k, v in data.items() if k not in hide} if npc else None)

    def next_id(self, kind: str, prefix: str) -> str:
        seq = self.table["seq"]
        seq[kind] = seq.get(kind, 0) + 1
        return f"{prefix}{seq[kind]}"

    def sheet(self, character_id: str, field: str = "character_id") -> dict[str, Any]:
        sheet = self.characters.get(character_id)
        if sheet is None:
            raise violation("unknown_character", f"no character {character_id!r} in this campaign", field)
        return sheet

    def participant(self, pid: str) -> dict[str, Any] | None:
        """The character's combat record while an encounter is active, else None."""
        enc = self.encounter
        if enc is None:
            return None
        p = enc["participants"].get(pid)
        return p if p is not None and not p["removed"] else None
