"""One move in progress: a private deep copy of the state, the actor, the dice, and the events so far."""

from __future__ import annotations

from typing import Any

from service.dice.types import DiceSource, DieRoll
from service.rules.base import Actor
from service.rules.move import MoveContext
from service.rules.trikus import seats
from service.rules.trikus.errors import violation
from service.rules.trikus.events_model import EVENT_PAYLOADS
from service.rules.trikus.options import Options


def initial_table() -> dict[str, Any]:
    return {
        "session_number": 1,
        "reset_count": 0,  # party-wide resets so far (spec 3.3)
        "activity": None,  # the one open test / PvP test / combat (I7), see README of this package
        "last_activity": None,  # summary of the last closed activity
        "pending_changes": [],  # promotions and new Beginners waiting for the session boundary (A34)
        "dark_side_prompts": [],  # spent dark tokens awaiting the player's acknowledgement (spec 4.15)
        "gm_notes": [],  # the GM's private notes (spec 8.2); never in a player's view
        "awaiting": [],  # who must move next, and what they may do (recomputed after every move)
        "requests": [],  # non-blocking asks: acknowledge a dark side, write new sides
        "seats": [],  # character ids in the order they joined the table (spec 3.3 seat order)
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
        self.table["seats"] = seats.order(self.state)

    @property
    def activity(self) -> dict[str, Any] | None:
        return self.table["activity"]

    def roll(self, purpose: str) -> DieRoll:
        """Every die of the engine comes from here: a d10 from the injected source (spec 1)."""
        return self.thrown().roll(10, purpose=purpose)

    def active_ids(self) -> list[str]:
        """Active party members in seat order (spec 3.3), the order every tie-break follows."""
        return [cid for cid in self.table["seats"] if self.characters[cid].get("status") == "active"]
