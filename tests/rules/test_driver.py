"""The shared move driver: every system's move goes through the same steps in the same order, and the sender check
is the same for all of them (service/rules/driver.py)."""

from __future__ import annotations

import importlib
from typing import Any, ClassVar, Literal

import pytest
from pydantic import BaseModel

from service.rules import driver
from service.rules.actions import action_set
from service.rules.base import Actor, RuleViolation
from service.rules.fields import Move, Sender
from service.rules.move import MoveContext
from service.rules.registry import SYSTEMS


class Options(BaseModel):
    pass


class Ctx(MoveContext):
    Options = Options
    violation = staticmethod(lambda code, detail, field=None: RuleViolation(code, detail, field=field, status=404))


class Note(Move):
    type: Literal["note"]


class Step(Move):
    sender: ClassVar[Sender] = "owner"
    type: Literal["step"]
    character_id: str


Action, ADAPTER, TYPES, SENDERS = action_set((Note, Step))
GM = Actor(role="gm")
ALA = Actor(role="player", player_id="p1", character_ids=frozenset({"ala"}))


def log(step: str):
    def record(ctx: Any, *_: Any) -> None:
        ctx.table.setdefault("log", []).append(step)

    return record


def table(**overrides: Any) -> driver.MoveTable:
    return driver.MoveTable(
        **{
            "adapter": ADAPTER,
            "context": Ctx,
            "handlers": {"note": log("handler"), "step": log("handler")},
            "guards": (log("guard"),),
            "after": (log("after 1"), log("after 2")),
            "awaiting": log("awaiting"),
            **overrides,
        }
    )


def state() -> dict[str, Any]:
    return {"options": {}, "characters": {"ala": {"name": "Ala"}, "bo": {"name": "Bo", "turned": True}}, "table": {}}


def test_a_move_runs_its_guards_then_its_handler_then_the_rules_after_it_then_says_who_is_awaited():
    before = state()
    new, events = driver.apply(table(), before, {"type": "note"}, GM, None)
    assert new["table"]["log"] == ["guard", "handler", "after 1", "after 2", "awaiting"]
    assert before == state() and events == []


def test_an_action_set_lists_every_move_type_and_who_may_send_it():
    assert TYPES == ["note", "step"] and SENDERS == {"note": "gm", "step": "owner"}
    assert isinstance(driver.validate(table(), {"type": "step", "character_id": "ala"}), Step)


def never(*_: Any) -> None:
    raise AssertionError("a refused move went past the sender check")


def test_a_gm_move_from_a_player_is_refused_naming_the_type_before_any_guard_runs():
    with pytest.raises(RuleViolation) as refused:
        driver.apply(table(guards=(never,)), state(), {"type": "note"}, ALA, None)
    assert (refused.value.code, refused.value.status, refused.value.field) == ("gm_only", 403, "type")


def test_a_player_acts_only_for_their_own_characters_and_the_gm_for_any():
    with pytest.raises(RuleViolation) as refused:
        driver.apply(table(), state(), {"type": "step", "character_id": "bo"}, ALA, None)
    assert (refused.value.code, refused.value.field) == ("not_your_character", "character_id")
    driver.apply(table(), state(), {"type": "step", "character_id": "bo"}, GM, None)
    driver.apply(table(), state(), {"type": "step", "character_id": "ala"}, ALA, None)


def test_where_the_handlers_check_the_owner_the_driver_leaves_owner_moves_to_them():
    driver.apply(table(owner_check=False), state(), {"type": "step", "character_id": "bo"}, ALA, None)


def taken_over(sheet: dict[str, Any]) -> RuleViolation | None:
    return RuleViolation("character_not_yours", "turned", status=403) if sheet.get("turned") else None


def test_a_character_the_rules_took_over_is_refused_to_its_player_but_not_to_the_gm():
    bound_to_bo = Actor(role="player", player_id="p2", character_ids=frozenset({"bo"}))
    with pytest.raises(RuleViolation) as refused:
        driver.apply(table(taken_over=taken_over), state(), {"type": "step", "character_id": "bo"}, bound_to_bo, None)
    assert refused.value.code == "character_not_yours"
    driver.apply(table(taken_over=taken_over), state(), {"type": "step", "character_id": "bo"}, GM, None)


def test_where_the_rules_can_take_a_character_over_an_unknown_one_is_refused_as_unknown():
    with pytest.raises(RuleViolation) as refused:
        driver.apply(table(taken_over=taken_over), state(), {"type": "step", "character_id": "cy"}, ALA, None)
    assert refused.value.code == "unknown_character"


@pytest.mark.parametrize("system", SYSTEMS.values(), ids=lambda s: s.id)
def test_every_system_has_one_handler_per_move_type(system):
    moves = importlib.import_module(f"service.rules.{system.id}.engine").MOVES
    assert sorted(moves.handlers) == sorted(system.action_types)
