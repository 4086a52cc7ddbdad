"""What every engine's move context shares: a private deep copy of the state, the actor, the dice and
the events so far. Each rule system subclasses it with its own options, table defaults and helpers."""
from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, ClassVar

from pydantic import BaseModel

from service.dice.types import DiceSource
from service.rules.base import Actor, Event, RuleViolation


class MoveContext:
    Options: ClassVar[type[BaseModel]]
    # The system's own factory, so "unknown_character" carries the status its closed code set gives it.
    violation: ClassVar[Callable[..., RuleViolation]]

    @staticmethod
    def initial_table() -> dict[str, Any]:
        return {"seq": {}}

    def __init__(self, state: dict[str, Any], actor: Actor, dice: DiceSource | None) -> None:
        # Purity: the caller's state is never touched; every change lands in this copy.
        self.state = copy.deepcopy(state)
        self.state.setdefault("characters", {})
        self.options = self.Options.model_validate(self.state.get("options") or {})
        table = self.state.get("table") or {}
        for key, value in self.initial_table().items():
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

    def emit(self, type_: str, data: dict[str, Any], *, gm_only: bool = False,
             redacted: dict[str, Any] | None = None, sealed: bool = False) -> None:
        """`sealed`: nobody, the GM included, sees more than `redacted` until a later event reveals `data`."""
        # Copies: an event must never alias the state it describes, which later steps keep changing.
        visibility = "sealed" if sealed else "gm" if gm_only else "all"
        self.events.append(Event(type_, copy.deepcopy(data), visibility=visibility,
                                 redacted=copy.deepcopy(redacted)))

    def next_id(self, kind: str, prefix: str) -> str:
        seq = self.table["seq"]
        seq[kind] = seq.get(kind, 0) + 1
        return f"{prefix}{seq[kind]}"

    def sheet(self, character_id: str, field: str = "character_id") -> dict[str, Any]:
        sheet = self.characters.get(character_id)
        if sheet is None:
            raise type(self).violation("unknown_character", f"no character {character_id!r} in this campaign", field)
        return sheet
