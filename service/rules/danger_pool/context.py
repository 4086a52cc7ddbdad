"""One move in progress: a private deep copy of the state, the actor, the dice, and the events so far."""

from __future__ import annotations

from typing import Any

from service.dice.types import DiceSource, DieRoll
from service.rules.base import Actor
from service.rules.move import MoveContext
from service.rules.danger_pool.errors import violation
from service.rules.danger_pool.events_model import EVENT_PAYLOADS
from service.rules.danger_pool.options import Options


def initial_table() -> dict[str, Any]:
    return {
        "scene": None,  # the one open scene (action or planning), see README.md
        "last_scene": None,  # the scene that ended last, as it ended
        "players": {},  # player_id -> {"character_id", "aftermath_used"} (spec §3.2)
        "pending_track_boxes": 0,  # Betray the Team boxes waiting for the next action scene (A36)
        "traitor_elements": [],  # betrayers the GM may use as elements (§4.15.3)
        "gm_notes": [],  # GM-only: planned alarm, threats (§3.4)
        "awaiting": [],  # who must move for the scene to go on, and what they may send
        "requests": [],  # non-blocking asks: after-effects to choose in a planning scene
        "seq": {},  # id counters
    }


class Ctx(MoveContext[Options]):
    Options = Options
    violation = staticmethod(violation)
    payloads = EVENT_PAYLOADS
    initial_table = staticmethod(initial_table)

    def __init__(self, state: dict[str, Any], actor: Actor, dice: DiceSource | None) -> None:
        super().__init__(state, actor, dice)
        self.state["options"] = self.options.model_dump(mode="json")

    @property
    def scene(self) -> dict[str, Any] | None:
        return self.table["scene"]

    @property
    def top(self) -> int:
        """The face with the special 'ten' meaning (A8: the highest face of the campaign's die)."""
        return self.options.die_sides

    def roll(self, purpose: str) -> DieRoll:
        """Every die of the engine comes from here (spec §4.1)."""
        return self.thrown().roll(self.options.die_sides, purpose=purpose)

    def name(self, character_id: str) -> str:
        return self.characters.get(character_id, {}).get("name", character_id)
