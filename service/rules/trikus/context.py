"""One move in progress: a private deep copy of the state, the actor, the dice, and the events so far."""
from __future__ import annotations

import copy
from typing import Any

from service.dice.types import DiceSource, DieRoll
from service.rules.base import Actor, Event
from service.rules.trikus.errors import violation
from service.rules.trikus.options import Options


def initial_table() -> dict[str, Any]:
    return {
        "session_number": 1,
        "reset_count": 0,          # party-wide resets so far (spec 3.3)
        "activity": None,          # the one open test / PvP test / combat (I7), see README of this package
        "last_activity": None,     # summary of the last closed activity
        "pending_changes": [],     # promotions and new Beginners waiting for the session boundary (A34)
        "dark_side_prompts": [],   # spent dark tokens awaiting the player's acknowledgement (spec 4.15)
        "gm_notes": [],            # the GM's private notes (spec 8.2); never in a player's view
        "awaiting": [],            # who must move next, and what they may do (recomputed after every move)
        "requests": [],            # non-blocking asks: acknowledge a dark side, write new sides
        "seq": {},                 # id counters
    }


class Ctx:
    def __init__(self, state: dict[str, Any], actor: Actor, dice: DiceSource) -> None:
        # Purity: the caller's state is never touched; every change lands in this copy.
        self.state = copy.deepcopy(state)
        self.state.setdefault("characters", {})
        self.options = Options.model_validate(self.state.get("options") or {})
        self.state["options"] = self.options.model_dump(mode="json")
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
    def activity(self) -> dict[str, Any] | None:
        return self.table["activity"]

    def emit(self, type_: str, data: dict[str, Any], *, gm_only: bool = False,
             redacted: dict[str, Any] | None = None) -> None:
        self.events.append(Event(type_, data, visibility="gm" if gm_only else "all", redacted=redacted))

    def roll(self, purpose: str) -> DieRoll:
        """Every die of the engine comes from here: a d10 from the injected source (spec 1)."""
        return self.dice.roll(10, purpose=purpose)

    def next_id(self, kind: str, prefix: str) -> str:
        seq = self.table["seq"]
        seq[kind] = seq.get(kind, 0) + 1
        return f"{prefix}{seq[kind]}"

    def sheet(self, character_id: str, field: str = "character_id") -> dict[str, Any]:
        sheet = self.characters.get(character_id)
        if sheet is None:
            raise violation("unknown_character", f"no character {character_id!r} in this campaign", field)
        return sheet

    def active_ids(self) -> list[str]:
        """Active party members in a stable order (the campaign's character ids, sorted)."""
        return sorted(cid for cid, s in self.characters.items() if s.get("status") == "active")
