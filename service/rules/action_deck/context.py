"""One move in progress: a private deep copy of the state, the actor, the dice, and the events so far."""
from __future__ import annotations

import copy
from typing import Any

from service.dice.types import DiceSource
from service.rules.action_deck.cards import FULL_DECK
from service.rules.action_deck.errors import violation
from service.rules.action_deck.options import Options
from service.rules.action_deck.rolls import Roller
from service.rules.base import Actor, Event


def initial_table() -> dict[str, Any]:
    return {
        "players": {},      # player_id -> {"bennies", "character_ids"} (§3.3: bennies belong to the player)
        "session": {"status": "closed", "number": 0, "party_size": 0},                       # §3.2
        "gm": {"benny_pool": 0, "npc_bennies": {}},                                          # §3.4, GM-only
        "deck": {"draw_pile": list(FULL_DECK), "discard_pile": [], "in_play": [],           # §3.6
                 "ordered": True, "joker_dealt_this_round": False, "shuffle_count": 0},
        "encounter": None,  # §3.7, see encounter.py
        "tests": {},        # trait tests and damage rolls: open ones plus the last few finished (§3.9)
        "opposed": {},      # opposed tests not yet resolved (§5.6)
        "seq": {},          # id counters
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
        self.roller = Roller(dice, self.options.ace_safety_cap)
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
    def deck(self) -> dict[str, Any]:
        return self.table["deck"]

    @property
    def table_mode(self) -> bool:
        """Physical cards and dice at the table: deals carry the cards drawn (§4.16, brief)."""
        return getattr(self.dice, "mode", "server") == "table"

    def emit(self, type_: str, data: dict[str, Any], *, gm_only: bool = False,
             redacted: dict[str, Any] | None = None) -> None:
        self.events.append(Event(type_, data, visibility="gm" if gm_only else "all", redacted=redacted))

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
        """The character's per-round record while an encounter runs, else None."""
        enc = self.encounter
        return None if enc is None else enc["participants"].get(character_id)

    def name(self, character_id: str) -> str:
        return (self.characters.get(character_id) or {}).get("name", character_id)
