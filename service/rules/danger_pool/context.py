"""One move in progress: a private deep copy of the state, the actor, the dice, and the events so far."""
from __future__ import annotations

import copy
from typing import Any

from service.dice.types import DiceSource, DieRoll
from service.rules.base import Actor, Event
from service.rules.danger_pool.errors import violation
from service.rules.danger_pool.options import Options


def initial_table() -> dict[str, Any]:
    return {
        "scene": None,               # the one open scene (action or planning), see README.md
        "last_scene": None,          # the scene that ended last, as it ended
        "players": {},               # player_id -> {"character_id", "aftermath_used"} (spec §3.2)
        "pending_track_boxes": 0,    # Betray the Team boxes waiting for the next action scene (A36)
        "traitor_elements": [],      # betrayers the GM may use as elements (§4.15.3)
        "gm_notes": [],              # GM-only: planned alarm, threats (§3.4)
        "awaiting": [],              # who must move for the scene to go on, and what they may send
        "requests": [],              # non-blocking asks: after-effects to choose in a planning scene
        "seq": {},                   # id counters
    }


class Ctx:
    def __init__(self, state: dict[str, Any], actor: Actor, dice: DiceSource | None) -> None:
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
    def scene(self) -> dict[str, Any] | None:
        return self.table["scene"]

    @property
    def top(self) -> int:
        """The face with the special 'ten' meaning (A8: the highest face of the campaign's die)."""
        return self.options.die_sides

    def emit(self, type_: str, data: dict[str, Any], *, gm_only: bool = False,
             redacted: dict[str, Any] | None = None) -> None:
        # Copies: an event must never alias the state it describes, which later steps keep changing.
        self.events.append(Event(type_, copy.deepcopy(data), visibility="gm" if gm_only else "all",
                                 redacted=copy.deepcopy(redacted)))

    def roll(self, purpose: str) -> DieRoll:
        """Every die of the engine comes from here (spec §4.1)."""
        return self.dice.roll(self.options.die_sides, purpose=purpose)

    def next_id(self, kind: str, prefix: str) -> str:
        seq = self.table["seq"]
        seq[kind] = seq.get(kind, 0) + 1
        return f"{prefix}{seq[kind]}"

    def sheet(self, character_id: str, field: str = "character_id") -> dict[str, Any]:
        sheet = self.characters.get(character_id)
        if sheet is None:
            raise violation("unknown_character", f"no character {character_id!r} in this campaign", field)
        return sheet

    def name(self, character_id: str) -> str:
        return self.characters.get(character_id, {}).get("name", character_id)
