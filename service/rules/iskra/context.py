"""One move in progress: a private deep copy of the state, the actor, the dice, and the events so far."""

from typing import Any

from pydantic import BaseModel

from service.rules.move import MoveContext, without
from service.rules.iskra.errors import violation
from service.rules.iskra.events_model import EVENT_PAYLOADS
from service.rules.iskra.options import Options


def initial_table() -> dict[str, Any]:
    return {
        "session": {"number": 0, "state": "between_sessions"},  # spec 3.8, 5.6
        "day": 0,  # game time at day resolution ("doba", spec 3.8)
        "locations": {},  # location_id -> spec 3.7 record
        "pending": None,  # the one test or damage sub-machine in flight (spec 5.1 / 5.2)
        "encounter": None,  # spec 3.9
        "last_test": None,  # the most recently closed test
        "adversities": [],  # adversity labels already awarded (7-B16: once per adversity)
        "ether_exposure": [],  # GM-only flags (spec 4.14)
        "awaiting": [],  # whose move it is
        "seq": {},  # id counters
    }


class Ctx(MoveContext[Options]):
    Options = Options
    violation = staticmethod(violation)
    payloads = EVENT_PAYLOADS
    initial_table = staticmethod(initial_table)

    @property
    def encounter(self) -> dict[str, Any] | None:
        enc = self.table["encounter"]
        return enc if enc is not None and enc["state"] == "active" else None

    def emit_sheet(self, type_: str, cid: str, data: BaseModel, hide: tuple[str, ...]) -> None:
        """An event about one character; for NPCs the listed numbers are GM-only (spec 8: NPC Health, Focus)."""
        npc = self.characters[cid]["controller"] == "gm"
        self.emit(type_, data, redacted=without(data, *hide) if npc else None)

    def participant(self, pid: str) -> dict[str, Any] | None:
        """The character's combat record while an encounter is active, else None."""
        enc = self.encounter
        if enc is None:
            return None
        p = enc["participants"].get(pid)
        return p if p is not None and not p["removed"] else None
