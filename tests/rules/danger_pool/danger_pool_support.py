"""A small driver for Danger Pool engine tests: a table, characters, moves with injected table dice."""

from __future__ import annotations

from typing import Any


from pydantic.json_schema import models_json_schema

from engine_moves import TEST_ID_SALT, checked_apply, checked_refusal, salted

from service.dice.table import TableDice
from service.rules.base import Actor, Event, RuleViolation
from service.rules.danger_pool import SYSTEM
from service.rules.move import secret_token

GM = Actor(role="gm")


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


def element_id(n: int) -> str:
    """The id of the table's n-th element: a keyed hash, so players cannot count the GM's hidden elements."""
    return "element-" + secret_token(TEST_ID_SALT, "element", n)


def player(*character_ids: str, player_id: str | None = None) -> Actor:
    return Actor(
        role="player", player_id=player_id or "p-" + "-".join(character_ids), character_ids=frozenset(character_ids)
    )


def character(name: str = "Ana", abilities: dict[str, int] | None = None, **kw: Any) -> dict[str, Any]:
    data = {"name": name, "abilities": abilities or {"Wetwork": 3}, **kw}
    return SYSTEM.new_character(SYSTEM.CharacterInput.model_validate(data), SYSTEM.Options())


class Table:
    def __init__(self, **options: Any) -> None:
        self.state = salted(SYSTEM.initial_state(SYSTEM.Options(**options)))
        self.log: list[Event] = []

    # --- setup -----------------------------------------------------------------------------------------
    def pc(
        self, cid: str, abilities: dict[str, int] | None = None, *, player_id: str | None = None, **kw: Any
    ) -> dict[str, Any]:
        sheet = SYSTEM.new_character(
            SYSTEM.CharacterInput.model_validate({"name": cid.title(), "abilities": abilities or {"Wetwork": 3}, **kw}),
            SYSTEM.Options(**self.state["options"]),
        )
        self.state["characters"][cid] = {**sheet, "id": cid}
        if player_id is not None:
            self.do({"type": "assign_player", "player_id": player_id, "character_id": cid})
        return self.state["characters"][cid]

    def scene_for(
        self, team: list[str], leader: str | None = None, *, start: bool = True, waive: bool = False, **kw: Any
    ) -> dict[str, Any]:
        self.do(
            {
                "type": "create_action_scene",
                "goal": "get into the compound",
                "leader_id": leader or team[0],
                "team": team,
                **kw,
            }
        )
        if start:
            self.do({"type": "start_scene"})
            if waive:
                self.do({"type": "waive_first", "character_id": leader or team[0]})
        return self.scene

    def planning(self, **kw: Any) -> None:
        self.do({"type": "create_planning_scene", **kw})

    # --- moves -----------------------------------------------------------------------------------------
    def do(self, action: dict[str, Any], dice=(), actor: Actor = GM) -> list[Event]:
        new, events = checked_apply(SYSTEM, self.state, action, actor, TableDice(dice))
        self.state = new
        self.log.extend(events)
        return events

    def declare(
        self, cid: str, player_dice=(), danger_dice=(), *, kind: str = "push", ability: str = "Wetwork", **kw: Any
    ) -> list[Event]:
        return self.do(
            {"type": "declare_action", "character_id": cid, "kind": kind, "approach": "go", "ability": ability, **kw},
            [*player_dice, *danger_dice],
        )

    def tie(self, cid: str, option: str, die_index: int | None = None) -> list[Event]:
        return self.do({"type": "choose_tie", "character_id": cid, "option": option, "die_index": die_index})

    def fails(
        self, action: dict[str, Any], code: str, dice=(), actor: Actor = GM, status: int | None = None
    ) -> RuleViolation:
        return checked_refusal(SYSTEM, self.state, action, actor, TableDice(dice), code, status)

    # --- reading ---------------------------------------------------------------------------------------
    def sheet(self, cid: str) -> dict[str, Any]:
        return self.state["characters"][cid]

    @property
    def table(self) -> dict[str, Any]:
        return self.state["table"]

    @property
    def scene(self) -> dict[str, Any] | None:
        return self.state["table"]["scene"]

    @property
    def roll(self) -> dict[str, Any] | None:
        sc = self.scene
        return sc["roll"] if sc else None

    @property
    def last_roll(self) -> dict[str, Any]:
        sc = self.scene if self.scene and self.scene.get("last_roll") else self.table["last_scene"]
        return sc["last_roll"]

    def set_scene(self, **fields: Any) -> None:
        """Tests start some examples from a state the spec gives directly (e.g. 'danger pool is 4')."""
        self.state["table"]["scene"].update(fields)


def of(events: list[Event], type_: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.type == type_]


def one(events: list[Event], type_: str) -> dict[str, Any]:
    found = of(events, type_)
    assert len(found) == 1, (type_, [e.type for e in events])
    return found[0]


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def end_round(t: Table, leader: str) -> None:
    """Leader continues; the GM starts the next round without the alarm (§4.13)."""
    t.do({"type": "continue_scene", "character_id": leader})
    if t.scene["phase"] == "round_end_window":
        t.do({"type": "next_round"})
