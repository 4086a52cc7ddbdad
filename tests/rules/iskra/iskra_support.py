"""A small driver for Iskra engine tests: a table, characters, moves with injected table dice."""

from __future__ import annotations

from typing import Any


from pydantic.json_schema import models_json_schema

from engine_moves import checked_apply, checked_refusal, salted

from service.dice.table import TableDice
from service.rules.base import Actor, Event, RuleViolation
from service.rules.iskra import SYSTEM

GM = Actor(role="gm")
ATTRS = {"strength": 2, "dexterity": 2, "intelligence": 2, "charisma": 2}


def check_models(system, prefix: str) -> None:
    """The typed models (State, Sheet, EventPayloads) forbid unknown fields, carry unique titles with the
    system's prefix, and describe every field."""
    models = [system.State, system.Sheet, *dict.fromkeys(system.EventPayloads.values())]
    _, schema = models_json_schema([(m, "validation") for m in models])
    titles = [d["title"] for d in schema["$defs"].values()]
    assert len(titles) == len(set(titles))
    shared = {"AwaitingEntry", "AwaitingMove", "AbilityDef"}  # the shared awaiting shape; an Iskra catalogue entry
    assert [t for t in titles if not t.startswith(prefix) and t not in shared] == []
    for name, d in schema["$defs"].items():
        if "properties" in d:  # a union (root model) is checked through its members
            assert d.get("additionalProperties") is False or name in shared, name
        assert [f for f, p in d.get("properties", {}).items() if "description" not in p] == [], name


def player(*character_ids: str) -> Actor:
    return Actor(role="player", player_id="p-" + "-".join(character_ids), character_ids=frozenset(character_ids))


def char_input(name: str = "Ala", species: str = "elf", **changes: Any) -> dict[str, Any]:
    picks = [{"ability_id": "light_step"}, {"ability_id": "efficiency"}]
    if species == "human":
        picks += [{"ability_id": "ambidexterity"}, {"ability_id": "language", "param": "elficki"}]
    data = {
        "name": name,
        "species": species,
        "attributes": dict(ATTRS),
        "predispositions": [{"label": "Skradanie się"}],
        "weaknesses": [{"label": "Publiczne Przemówienia"}],
        "abilities": picks,
    }
    data.update(changes)
    return data


class Table:
    def __init__(self, **options: Any) -> None:
        self.state = salted(SYSTEM.initial_state(SYSTEM.Options(**options)))
        self.log: list[Event] = []

    # --- setup -----------------------------------------------------------------------------------------
    def pc(self, cid: str, *, approve: bool = True, **changes: Any) -> dict[str, Any]:
        attrs = {**ATTRS, **changes.pop("attrs", {})}
        data = char_input(cid.title(), attributes=attrs, **changes)
        sheet = SYSTEM.new_character(
            SYSTEM.CharacterInput.model_validate(data), SYSTEM.Options.model_validate(self.state["options"])
        )
        self.state["characters"][cid] = {**sheet, "id": cid}
        if approve:
            self.do({"type": "approve_character", "character_id": cid})
        return self.sheet(cid)

    def npc(self, cid: str, **changes: Any) -> dict[str, Any]:
        return self.pc(cid, controller="gm", **changes)

    def set(self, cid: str, **fields: Any) -> dict[str, Any]:
        """Put a sheet into a state the example starts from (illustrative values)."""
        self.state["characters"][cid].update(fields)
        return self.sheet(cid)

    # --- moves -----------------------------------------------------------------------------------------
    def do(self, action: dict[str, Any], dice=(), actor: Actor = GM) -> list[Event]:
        new, events = checked_apply(SYSTEM, self.state, action, actor, TableDice(dice))
        self.state = new
        self.log.extend(events)
        return events

    def fails(
        self, action: dict[str, Any], code: str, dice=(), actor: Actor = GM, status: int | None = None
    ) -> RuleViolation:
        return checked_refusal(SYSTEM, self.state, action, actor, TableDice(dice), code, status)

    # --- common sequences ------------------------------------------------------------------------------
    def open(self, cid: str, attribute: str = "dexterity", **kw: Any) -> dict[str, Any]:
        self.do({"type": "open_test", "character_id": cid, "attribute": attribute, **kw})
        return self.pending

    def test(self, cid: str, attribute: str, roll: int, actor: Actor = GM, **kw: Any) -> dict[str, Any]:
        """Open, roll, accept: the resolved test record."""
        self.open(cid, attribute, **kw)
        self.do({"type": "roll"}, dice=[roll], actor=actor)
        if self.pending is not None and self.pending["kind"] == "test":
            self.do({"type": "accept_test"}, actor=actor)
        return self.last_test

    def fight(self, *sides: list[str], initiator: str | None = None, hazards=()) -> dict[str, Any]:
        self.do(
            {
                "type": "start_combat",
                "initiator_id": initiator or sides[0][0],
                "hazards": list(hazards),
                "sides": [{"side_id": chr(65 + i), "participant_ids": s} for i, s in enumerate(sides)],
            }
        )
        return self.enc

    # --- reading ---------------------------------------------------------------------------------------
    def sheet(self, cid: str) -> dict[str, Any]:
        return self.state["characters"][cid]

    @property
    def table(self) -> dict[str, Any]:
        return self.state["table"]

    @property
    def pending(self) -> dict[str, Any] | None:
        return self.state["table"]["pending"]

    @property
    def last_test(self) -> dict[str, Any] | None:
        return self.state["table"]["last_test"]

    @property
    def enc(self) -> dict[str, Any] | None:
        return self.state["table"]["encounter"]

    @property
    def current(self) -> str | None:
        enc = self.enc
        i = enc["current_index"]
        return enc["order"][i] if 0 <= i < len(enc["order"]) else None


def of(events: list[Event], type_: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.type == type_]


def one(events: list[Event], type_: str) -> dict[str, Any]:
    found = of(events, type_)
    assert len(found) == 1, (type_, [e.type for e in events])
    return found[0]


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]
