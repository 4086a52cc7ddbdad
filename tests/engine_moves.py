"""What every rule engine's test driver checks on every move: apply() leaves its input untouched, uses
exactly the dice it was given, logs every die it rolled in exactly one event, returns JSON, and gives
the same state and events again when the move is replayed from the move log (its JSON as stored, its
recorded dice) — so every worked example is also a test that the move log rebuilds it; and says whose move
is next in the shape every system shares (`table.awaiting`, and `table.requests` where a system keeps it); and,
where a system documents its shapes (`State`, `Sheet`), that both views fit them."""

from __future__ import annotations

import copy
import json
import typing
from typing import Any

import pytest
from pydantic import BaseModel

from service.dice.table import TableDice
from service.game.log import moves as movelog
from service.rules.awaiting import AwaitingEntry
from service.rules.base import Actor, Event, RuleViolation
from service.rules.move import with_id_salt

TEST_ID_SALT = "engine-tests-salt"


def salted(state: dict[str, Any], salt: str = TEST_ID_SALT) -> dict[str, Any]:
    """A table as the application layer hands it to an engine: with the salt of its hidden ids."""
    with_id_salt(state["table"], salt)
    return state


def checked_apply(
    system, state: dict[str, Any], action: dict[str, Any], actor: Actor, source
) -> tuple[dict[str, Any], list[Event]]:
    before = copy.deepcopy(state)
    offered = check_offered(system, state, action, actor)
    new, events = system.apply(state, action, actor, source)
    assert state == before, "apply() mutated its input state"
    assert offered, (
        f"{system.id} accepted {_type(action)!r} from {actor.role} {sorted(actor.character_ids)}, "
        f"which table.offers did not list"
    )
    if isinstance(source, TableDice):
        assert source.unused == 0, f"{source.unused} injected dice left unused"
    logged = [d for ev in events for d in (ev.data.get("dice") or [])]
    assert logged == [d.to_dict() for d in source.rolled], "every die rolled is in exactly one event"
    json.dumps(new)
    check_awaiting(system, new)
    for ev in events:
        json.dumps(ev.data)
        json.dumps(ev.redacted)
    check_typed(system, new)
    _check_replay(system, before, action, actor, source, new, events)
    return new, events


def _type(action) -> str:
    return action["type"] if isinstance(action, dict) else action.type


def check_offered(system, state: dict[str, Any], action, actor: Actor) -> bool:
    """Whether the table, as the GM sees it before the move, offers this move to the actor's party: the GM's (the GM
    may act for any character, so every entry counts), or one of the player's characters'. Asked before every move
    checked_apply makes and asserted once the engine has accepted it: a client that shows `table.offers` as the
    moves one may make hides none that would be accepted."""
    offers = system.view(state, Actor(role="gm"))["table"]["offers"]
    may = {m for e in offers if actor.role == "gm" or e["character_id"] in actor.character_ids for m in e["may"]}
    return _type(action) in may


def check_awaiting(system, state: dict[str, Any]) -> None:
    """Every entry of `table.awaiting` is an AwaitingEntry as engines emit it (no `until`: the application layer
    adds that), and every move it offers is one of this system's action types. `table.requests`, where a system
    keeps it, names its party and moves the same way (a system may add its own keys there, e.g. `when`)."""
    table = state["table"]
    assert isinstance(table.get("awaiting"), list), f"{system.id} keeps no table.awaiting"
    for entry in table["awaiting"]:
        AwaitingEntry.model_validate(entry)
        assert "until" not in entry, entry
    for entry in table["awaiting"] + table.get("requests", []):
        assert entry["who"] in ("gm", "character"), entry
        assert (entry["who"] == "gm") == (entry["character_id"] is None), entry
        assert entry["may"] and set(entry["may"]) <= set(system.action_types), entry
    check_one_entry_per_party(state)


def check_one_entry_per_party(state: dict[str, Any]) -> None:
    """Every system merges a party's waits into one entry (service.rules.awaiting.merged)."""
    parties = [(e["who"], e["character_id"]) for e in state["table"]["awaiting"]]
    assert len(parties) == len(set(parties)), "one entry per party"


def check_typed(system, state: dict[str, Any]) -> None:
    """Where a system documents its shapes (`State`, `Sheet`), they hold: the GM's view and a player's view of the
    new state validate as `State`, and so every sheet in them as `Sheet`, the type of `State.characters`' values.
    (Events need no check here: an engine builds each one as its type's payload model, and the move context refuses
    any other; see test_emission_sites.)"""
    if not all(hasattr(system, name) for name in ("State", "Sheet")):
        return
    # Validating each sheet again on its own took about a quarter of the property tests' time and checked nothing more.
    assert system.State.model_fields["characters"].annotation == dict[str, system.Sheet]
    first = next(iter(state.get("characters") or {}), None)
    seat = Actor(role="player", player_id="typed-check", character_ids=frozenset([first] if first else []))
    for viewer in (Actor(role="gm"), seat):
        system.State.model_validate(system.view(state, viewer))


def check_typed_models(system, prefix: str) -> None:
    """The documented models are fit to generate contracts from: every model reachable from `State`, `Sheet` and
    `EventPayloads` that the system defines forbids unknown fields and carries the system's prefix as class name
    and title, titles are unique, and each top-level model renders a JSON Schema."""
    seen: dict[str, type] = {}

    def walk(tp: Any) -> None:
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            if tp in seen.values():
                return
            title = tp.model_config.get("title") or tp.__name__
            assert seen.setdefault(title, tp) is tp, f"two models are titled {title}"
            if tp.__module__.startswith(f"service.rules.{system.id}."):
                assert tp.model_config.get("extra") == "forbid", f"{tp.__name__} accepts unknown fields"
                assert tp.__name__.startswith(prefix) and title == tp.__name__, (tp.__name__, title)
            for f in tp.model_fields.values():
                walk(f.annotation)
        else:
            for arg in typing.get_args(tp):
                walk(arg)

    roots = [system.State, system.Sheet, *system.EventPayloads.values()]
    for root in roots:
        walk(root)
        json.dumps(root.model_json_schema())
    assert set(system.EventPayloads) and all(t == t.strip() for t in system.EventPayloads)


def _check_replay(system, before, action, actor: Actor, source, new, events) -> None:
    """The move as the move log stores it (JSON state, JSON action, the actor's record, the dice rolled)
    replays to the same state and events."""
    stored = json.loads(json.dumps(before))
    raw = action.model_dump(mode="json") if hasattr(action, "model_dump") else json.loads(json.dumps(action))
    parsed = movelog.action_adapter(system.id).validate_python(raw)
    dice = movelog.RecordedDice([d.to_dict() for d in source.rolled], source.mode)
    again, again_events = system.apply(stored, parsed, movelog.actor_from(movelog.actor_record(actor)), dice)
    assert dice.unused == 0, "the replay rolled fewer dice than the move"
    assert json.loads(json.dumps(again)) == json.loads(json.dumps(new)), "replaying the move gave another state"
    assert [(e.type, e.data, e.visibility, e.redacted) for e in again_events] == [
        (e.type, e.data, e.visibility, e.redacted) for e in events
    ], "replaying the move gave other events"


def checked_refusal(
    system, state: dict[str, Any], action: dict[str, Any], actor: Actor, source, code: str, status: int | None = None
) -> RuleViolation:
    """A refused move raises the named rule's code (and status) and leaves the state untouched."""
    before = copy.deepcopy(state)
    with pytest.raises(RuleViolation) as info:
        system.apply(state, action, actor, source)
    assert info.value.code == code, (info.value.code, info.value.detail)
    if status is not None:
        assert info.value.status == status
    assert state == before
    return info.value
