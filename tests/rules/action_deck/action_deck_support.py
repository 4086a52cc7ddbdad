"""A small driver for Action Deck engine tests: a table, characters, moves with injected dice and cards."""

from __future__ import annotations

import random
from typing import Any


from pydantic.json_schema import models_json_schema

from engine_moves import checked_apply, checked_refusal, salted

from service.dice.table import TableDice
from service.dice.types import DieRoll
from service.rules.action_deck import SYSTEM
from service.rules.base import Actor, Event, RuleViolation

GM = Actor(role="gm")


def player(player_id: str, *character_ids: str) -> Actor:
    return Actor(role="player", player_id=player_id, character_ids=frozenset(character_ids))


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


class SeededDice:
    """A reproducible 'server' source for tests that need the service's own shuffles."""

    mode = "server"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)
        self._rolled: list[DieRoll] = []

    def roll(self, sides: int, *, purpose: str = "", visibility: str = "all") -> DieRoll:
        die = DieRoll(
            sides=sides, face=self._rng.randint(1, sides), source="server", purpose=purpose, visibility=visibility
        )
        self._rolled.append(die)
        return die

    @property
    def rolled(self) -> list[DieRoll]:
        return list(self._rolled)


def sheet(name: str, **data: Any) -> dict[str, Any]:
    data.setdefault("attributes", {"agility": "d6", "smarts": "d6", "spirit": "d6", "strength": "d6", "vigor": "d6"})
    data.setdefault("skills", {"athletics": "d6", "notice": "d6", "fighting": "d6", "shooting": "d6"})
    options = data.pop("options", SYSTEM.Options())
    return SYSTEM.new_character(SYSTEM.CharacterInput.model_validate({"name": name, **data}), options)


class Table:
    def __init__(self, **options: Any) -> None:
        self.state = salted(SYSTEM.initial_state(SYSTEM.Options(**options)))
        self.log: list[Event] = []

    # --- setup -----------------------------------------------------------------------------------------
    def add(self, cid: str, **data: Any) -> dict[str, Any]:
        data.setdefault("options", SYSTEM.Options(**self.state["options"]))
        self.state["characters"][cid] = {**sheet(data.pop("name", cid.title()), **data), "id": cid}
        return self.state["characters"][cid]

    def session(self, players: dict[str, list[str]], **kw: Any) -> list[Event]:
        return self.do(
            {
                "type": "open_session",
                "players": [{"player_id": p, "character_ids": c} for p, c in players.items()],
                **kw,
            }
        )

    def fight(self, cards: dict[str, str], **kw: Any) -> list[Event]:
        """Start an encounter with these participants and deal them these cards (table mode)."""
        self.do({"type": "start_encounter", "participants": list(cards), **kw})
        return self.do({"type": "deal", "cards": list(cards.values())})

    # --- moves -----------------------------------------------------------------------------------------
    def do(self, action: dict[str, Any], dice=(), actor: Actor = GM, source=None) -> list[Event]:
        new, events = checked_apply(
            SYSTEM, self.state, action, actor, source if source is not None else TableDice(dice)
        )
        self.state = new
        self.log.extend(events)
        return events

    def play_round(self, cards: dict[str, str]) -> None:
        """Deal these cards, let every called card take an empty turn, Jokers claim, end the round."""
        self.do({"type": "deal", "cards": list(cards.values())})
        for cid, card in cards.items():
            if card.startswith("JK"):
                self.do({"type": "declare_turn", "character_id": cid})
                self.do({"type": "end_turn", "character_id": cid})
        while True:
            try:
                SYSTEM.apply(self.state, {"type": "call_next"}, GM, TableDice([]))
            except RuleViolation:
                break
            self.do({"type": "call_next"})
            cid = self.enc["current_turn"]
            self.do({"type": "declare_turn", "character_id": cid})
            self.do({"type": "end_turn", "character_id": cid})
        self.do({"type": "end_round"})

    def fails(self, action: dict[str, Any], code: str, dice=(), actor: Actor = GM, source=None) -> RuleViolation:
        return checked_refusal(
            SYSTEM, self.state, action, actor, source if source is not None else TableDice(dice), code, None
        )

    # --- reading ---------------------------------------------------------------------------------------
    @property
    def table(self) -> dict[str, Any]:
        return self.state["table"]

    @property
    def enc(self) -> dict[str, Any]:
        return self.table["encounter"]

    def slot(self, cid: str) -> dict[str, Any]:
        return self.enc["participants"][cid]

    def char(self, cid: str) -> dict[str, Any]:
        return self.state["characters"][cid]

    def bennies(self, pid: str) -> int:
        return self.table["players"][pid]["bennies"]

    def last_test(self) -> dict[str, Any]:
        return self.table["tests"][max(self.table["tests"], key=lambda t: int(t[1:]))]

    def test(self, test_id: str) -> dict[str, Any]:
        return self.table["tests"][test_id]


def interrupt_table(actions: int, **options: Any) -> Table:
    """AD-D3's set-up: `h` (an Extra) holds, `t` (an Extra with Fighting) is called and declares `actions` attacks;
    `h` may now interrupt `t`'s turn."""
    t = Table(**options)
    t.add("h", kind="extra", skills={"athletics": "d8"})
    t.add("t", kind="extra", skills={"athletics": "d8", "fighting": "d8"})
    t.session({"ph": ["h"], "pt": ["t"]})
    t.fight({"h": "KS", "t": "5D"})
    t.do({"type": "call_next"})
    t.do({"type": "hold", "character_id": "h"})
    t.do({"type": "call_next"})
    t.do({"type": "declare_turn", "character_id": "t", "actions": [{"kind": "attack"}] * actions})
    return t


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def one(events: list[Event], type_: str) -> Event:
    found = [e for e in events if e.type == type_]
    assert len(found) == 1, (type_, types(events))
    return found[0]
