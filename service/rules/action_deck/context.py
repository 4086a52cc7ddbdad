"""One move in progress: a private deep copy of the state, the actor, the dice, and the events so far."""

from __future__ import annotations

from typing import Any

from service.dice.types import DiceSource
from service.rules.action_deck.cards import FULL_DECK
from service.rules.action_deck.errors import violation
from service.rules.action_deck.events_model import EVENT_PAYLOADS
from service.rules.action_deck.options import Options
from service.rules.action_deck.rolls import Roller
from service.rules.base import Actor
from service.rules.move import MoveContext, guaranteed


def initial_table() -> dict[str, Any]:
    return {
        "players": {},  # player_id -> {"bennies", "character_ids"} (§3.3: bennies belong to the player)
        "session": {"status": "closed", "number": 0, "party_size": 0},  # §3.2
        "gm": {"benny_pool": 0, "npc_bennies": {}},  # §3.4, GM-only
        "deck": {
            "draw_pile": list(FULL_DECK),
            "discard_pile": [],
            "in_play": [],  # §3.6
            "ordered": True,
            "joker_dealt_this_round": False,
            "shuffle_count": 0,
            "sealed": None,
        },  # the current shuffle's order and dice until they are unsealed (§8)
        "encounter": None,  # §3.7, see encounter.py
        "tests": {},  # trait tests and damage rolls: open ones plus the last few finished (§3.9)
        "opposed": {},  # opposed tests not yet resolved (§5.6)
        "soaks_pending": [],  # characters whose player soaked: the GM rules what it avoided (B38)
        "awaiting": [],  # whose move it is (awaiting.py), recomputed after every move
        "seq": {},  # id counters
    }


class Ctx(MoveContext[Options]):
    Options = Options
    violation = staticmethod(violation)
    payloads = EVENT_PAYLOADS
    initial_table = staticmethod(initial_table)

    def __init__(self, state: dict[str, Any], actor: Actor, dice: DiceSource | None) -> None:
        super().__init__(state, actor, dice)
        self.roller = Roller(dice, self.options.ace_safety_cap)

    @property
    def encounter(self) -> dict[str, Any] | None:
        return self.table["encounter"]

    def running(self) -> dict[str, Any]:
        """The encounter a step of combat works on: its move's guards made sure there is one."""
        return guaranteed(self.encounter, "the encounter of a combat step")

    @property
    def deck(self) -> dict[str, Any]:
        return self.table["deck"]

    @property
    def table_mode(self) -> bool:
        """Physical cards and dice at the table: deals carry the cards drawn (§4.16, brief)."""
        return getattr(self.dice, "mode", "server") == "table"

    def slot(self, character_id: str) -> dict[str, Any] | None:
        """The character's per-round record while an encounter runs, else None."""
        enc = self.encounter
        return None if enc is None else enc["participants"].get(character_id)

    def name(self, character_id: str) -> str:
        return (self.characters.get(character_id) or {}).get("name", character_id)
