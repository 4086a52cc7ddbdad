"""A small driver for Step Dice engine tests: a table, characters, moves with injected table dice."""

from __future__ import annotations

from typing import Any


from engine_moves import TEST_ID_SALT, checked_apply, checked_refusal, salted

from service.dice.table import TableDice
from service.rules.base import Actor, Event, RuleViolation
from service.rules.move import secret_token
from service.rules.stepdice import SYSTEM

GM = Actor(role="gm")


def clock_id(n: int) -> str:
    """The id of the table's n-th clock: a keyed hash, not "c<n>", so players cannot count hidden clocks."""
    return "c" + secret_token(TEST_ID_SALT, "clock", n)


def player(*character_ids: str) -> Actor:
    return Actor(role="player", player_id="p-" + "-".join(character_ids), character_ids=frozenset(character_ids))


def sheet_for(
    role: str, *, protection: str | None = None, talents=("Scout", "Negotiator"), use_talents=True, **options: Any
) -> dict[str, Any]:
    data = {
        "name": role.title(),
        "role": role,
        "talents": list(talents) if use_talents else [],
        "equipment": {"weapon": "blade", "protection": protection, "items": ["rope", "torch", "lockpicks"]},
    }
    return SYSTEM.new_character(
        SYSTEM.CharacterInput.model_validate(data), SYSTEM.Options(use_talents=use_talents, **options)
    )


class Table:
    def __init__(self, **options: Any) -> None:
        self.state = salted(SYSTEM.initial_state(SYSTEM.Options(**options)))
        self.log: list[Event] = []

    # --- setup -----------------------------------------------------------------------------------------
    def pc(self, cid: str, role: str = "warrior", **kw: Any) -> dict[str, Any]:
        opts = {k: v for k, v in self.state["options"].items() if k in ("variant_d6_only",)}
        sheet = sheet_for(role, use_talents=self.state["options"]["use_talents"], **opts, **kw)
        self.state["characters"][cid] = {**sheet, "id": cid}
        return self.state["characters"][cid]

    def fight(self, pcs: dict[str, Any], enemies: list[dict[str, Any]], *, start: bool = True) -> None:
        self.do({"type": "create_encounter"})
        for cid, pos in pcs.items():
            self.do({"type": "add_character", "character_id": cid, "position": pos})
        for e in enemies:
            self.do({"type": "add_enemy", **e})
        if start:
            self.do({"type": "start_encounter"})

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

    # --- reading ---------------------------------------------------------------------------------------
    def sheet(self, cid: str) -> dict[str, Any]:
        return self.state["characters"][cid]

    @property
    def table(self) -> dict[str, Any]:
        return self.state["table"]

    @property
    def enc(self) -> dict[str, Any]:
        return self.state["table"]["encounter"]

    def enemy(self, eid: str) -> dict[str, Any]:
        return self.enc["enemies"][eid]

    @property
    def pending(self) -> dict[str, Any] | None:
        return self.state["table"]["pending"]


def of(events: list[Event], type_: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.type == type_]


def one(events: list[Event], type_: str) -> dict[str, Any]:
    found = of(events, type_)
    assert len(found) == 1, (type_, [e.type for e in events])
    return found[0]


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


# --- a small skirmish -------------------------------------------------------------------------------------

P0, P1 = {"x": 0, "y": 0}, {"x": 1, "y": 0}
ROLES = {"w": "warrior", "r": "rogue", "m": "mage"}


def skirmish(pcs=("w", "r"), enemies=None, **options: Any) -> Table:
    """PCs w (warrior), r (rogue), m (mage) in a column at x=0, a minion m1 next to w; player phase, round 1."""
    t = Table(**options)
    for c in pcs:
        t.pc(c, ROLES[c])
    grid = t.state["options"]["use_grid"]
    pos = {c: ({"x": 0, "y": i * 3} if grid else None) for i, c in enumerate(pcs)}
    if enemies is None:
        enemies = [{"enemy_id": "m1", "name": "Goblin", "kind": "minion", **({"position": P1} if grid else {})}]
    t.fight(pos, enemies)
    return t


def attack(cid: str = "w", target: str = "m1", kind: str = "melee", **kw: Any) -> dict[str, Any]:
    return {"type": "attack", "character_id": cid, "target_enemy_id": target, "attack_type": kind, **kw}


def begin(t: Table, cid: str) -> None:
    t.do({"type": "begin_turn", "character_id": cid})
