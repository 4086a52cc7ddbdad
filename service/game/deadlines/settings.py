"""A campaign's turn deadline settings, and which rule system's timeouts apply. Kept beside the rule
systems' own options, never in them: an engine replays its moves the same with or without a clock."""

import time
from datetime import datetime, timezone
from types import ModuleType

from pydantic import BaseModel, ConfigDict, Field

from service.rules.action_deck import timeouts as action_deck
from service.rules.danger_pool import timeouts as danger_pool
from service.rules.iskra import timeouts as iskra
from service.rules.stepdice import timeouts as stepdice
from service.rules.trikus import timeouts as trikus

# Tests move time by replacing this (never by sleeping).
clock = time.time

MAX_SECONDS = 7 * 24 * 3600

POLICIES: dict[str, ModuleType] = {
    "stepdice": stepdice,
    "trikus": trikus,
    "danger_pool": danger_pool,
    "iskra": iskra,
    "action_deck": action_deck,
}


class TurnDeadlines(BaseModel):
    """Time limits for players' waits; both limits null means the campaign keeps no deadlines."""

    model_config = ConfigDict(extra="forbid", strict=True, title="TurnDeadlines")

    turn_seconds: int | None = Field(
        None,
        ge=1,
        le=MAX_SECONDS,
        description="How long a player has for a turn (or a throw, a declaration, "
        "a round's action); null: turns are not timed.",
    )
    choice_seconds: int | None = Field(
        None,
        ge=1,
        le=MAX_SECONDS,
        description="How long a player has for a pending choice or reaction; null: choices are not timed.",
    )
    warning_seconds: int = Field(
        60,
        ge=0,
        le=MAX_SECONDS,
        description="A `deadline_warning` event goes out this long before a deadline; 0: no warning.",
    )

    def limit(self, kind: str) -> int | None:
        return self.turn_seconds if kind == "turn" else self.choice_seconds

    @property
    def enabled(self) -> bool:
        return bool(self.turn_seconds or self.choice_seconds)


def iso(at: float | None) -> str | None:
    return None if at is None else datetime.fromtimestamp(at, timezone.utc).isoformat()
