"""What every rule engine's test driver checks on every move: apply() leaves its input untouched, uses
exactly the dice it was given, logs every die it rolled in exactly one event, and returns JSON."""
from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from service.dice.table import TableDice
from service.rules.base import Actor, Event, RuleViolation
from service.rules.move import with_id_salt

TEST_ID_SALT = "engine-tests-salt"


def salted(state: dict[str, Any], salt: str = TEST_ID_SALT) -> dict[str, Any]:
    """A table as the application layer hands it to an engine: with the salt of its hidden ids."""
    with_id_salt(state["table"], salt)
    return state


def checked_apply(system, state: dict[str, Any], action: dict[str, Any], actor: Actor,
                  source) -> tuple[dict[str, Any], list[Event]]:
    before = copy.deepcopy(state)
    new, events = system.apply(state, action, actor, source)
    assert state == before, "apply() mutated its input state"
    if isinstance(source, TableDice):
        assert source.unused == 0, f"{source.unused} injected dice left unused"
    logged = [d for ev in events for d in (ev.data.get("dice") or [])]
    assert logged == [d.to_dict() for d in source.rolled], "every die rolled is in exactly one event"
    json.dumps(new)
    for ev in events:
        json.dumps(ev.data)
        json.dumps(ev.redacted)
    return new, events


def checked_refusal(system, state: dict[str, Any], action: dict[str, Any], actor: Actor, source, code: str,
                    status: int | None = None) -> RuleViolation:
    """A refused move raises the named rule's code (and status) and leaves the state untouched."""
    before = copy.deepcopy(state)
    with pytest.raises(RuleViolation) as info:
        system.apply(state, action, actor, source)
    assert info.value.code == code, (info.value.code, info.value.detail)
    if status is not None:
        assert info.value.status == status
    assert state == before
    return info.value
