"""A small driver for Trikus engine tests: a party, moves with injected table dice, checks on every move."""

from __future__ import annotations

from typing import Any


from engine_moves import checked_apply, checked_refusal, salted

from service.dice.table import TableDice
from service.rules.base import Actor, Event, RuleViolation
from service.rules.trikus import SYSTEM
from service.rules.trikus.actions import ACTION_SENDERS

GM = Actor(role="gm")
SIDES = {"beginner": (3, 1), "advanced": (2, 2), "master": (1, 3)}


def player(*character_ids: str) -> Actor:
    return Actor(role="player", player_id="p-" + "-".join(character_ids), character_ids=frozenset(character_ids))


def character_input(name: str, tier: str, **extra: Any) -> dict[str, Any]:
    light, dark = SIDES[tier]
    return {
        "name": name,
        "tier": tier,
        "light_sides": [{"text": f"{name} light {i}"} for i in range(light)],
        "dark_sides": [
            {"text": f"{name} dark {i}", "authored_by": "self" if i == 0 or tier != "master" else f"other-player-{i}"}
            for i in range(dark)
        ],
        **extra,
    }


def dice_in(events: list[Event]) -> list[dict[str, Any]]:
    return [d for ev in events for d in ev.data.get("dice", [])]


class Table:
    def __init__(self, **options: Any) -> None:
        self.state = salted(SYSTEM.initial_state(SYSTEM.Options(**options)))
        self.log: list[Event] = []

    # --- setup -------------------------------------------------------------------------------------------
    def pc(self, cid: str, tier: str, name: str | None = None, **sheet: Any) -> dict[str, Any]:
        data = character_input(name or cid.title(), tier, **{k: v for k, v in sheet.items() if k == "equipment"})
        made = SYSTEM.new_character(
            SYSTEM.CharacterInput.model_validate(data), SYSTEM.Options.model_validate(self.state["options"])
        )
        made.update({k: v for k, v in sheet.items() if k != "equipment"}, id=cid)
        self.state["characters"][cid] = made
        return made

    def party(self) -> None:
        """Paweł the Beginner, Zuzia the Advanced, Michał the Master (L29)."""
        self.pc("pawel", "beginner", "Paweł")
        self.pc("zuzia", "advanced", "Zuzia")
        self.pc("michal", "master", "Michał")

    def lines(self, cid: str, *states: str) -> None:
        for line, st in zip(self.sheet(cid)["lines"], states):
            line["state"] = st.split(":")[0]
            line.pop("lost_resets_remaining", None)
            if st.startswith("lost"):
                line["lost_resets_remaining"] = int(st.split(":")[1]) if ":" in st else 2

    # --- moves -------------------------------------------------------------------------------------------
    def actor_for(self, action: dict[str, Any]) -> Actor:
        cid = action.get("character_id")
        if cid and ACTION_SENDERS[action["type"]] != "gm":
            return player(cid)
        return GM

    def do(self, action: dict[str, Any], dice=(), actor: Actor | None = None) -> list[Event]:
        new, events = checked_apply(SYSTEM, self.state, action, actor or self.actor_for(action), TableDice(dice))
        self.state = new
        self.log.extend(events)
        return events

    def fails(
        self, action: dict[str, Any], code: str, dice=(), actor: Actor | None = None, status: int | None = None
    ) -> RuleViolation:
        return checked_refusal(
            SYSTEM, self.state, action, actor or self.actor_for(action), TableDice(dice), code, status
        )

    # --- short moves -------------------------------------------------------------------------------------
    def throw(self, who: str, value: int) -> list[Event]:
        return self.do({"type": "throw"} if who == "gm" else {"type": "throw", "character_id": who}, [value])

    def submit(self, who: str) -> list[Event]:
        """A throw that is not the last of its wave: nothing is rolled yet."""
        return self.do({"type": "throw"} if who == "gm" else {"type": "throw", "character_id": who})

    def wave(self, **throws: int) -> list[Event]:
        """A whole wave: every thrower but the last submits; the last one's move rolls the wave's dice,
        the GM's first and then seat order (spec 4.3)."""
        order = self.contest["order"]
        whos = sorted(throws, key=order.index)
        events = []
        for who in whos[:-1]:
            events += self.submit(who)
        last = whos[-1]
        move = {"type": "throw"} if last == "gm" else {"type": "throw", "character_id": last}
        return events + self.do(move, [throws[w] for w in whos])

    # --- reading -----------------------------------------------------------------------------------------
    def sheet(self, cid: str) -> dict[str, Any]:
        return self.state["characters"][cid]

    @property
    def act(self) -> dict[str, Any] | None:
        return self.state["table"]["activity"]

    @property
    def contest(self) -> dict[str, Any]:
        return self.act["contest"]

    def whose(self) -> list[str]:
        return [e["character_id"] or "gm" for e in self.state["table"]["awaiting"]]

    def may(self, who: str) -> list[str]:
        return next(e["may"] for e in self.state["table"]["awaiting"] if (e["character_id"] or "gm") == who)

    def pair(self, cid: str) -> dict[str, Any]:
        return next(p for p in self.contest["pairs"] if cid in (p["a"], p["b"]))

    def ctrl(self, cid: str) -> tuple:
        st = self.pair(cid)["state"]
        if st["kind"] == "ctrl":
            return ("ctrl", "gm" if st["side"] == "gm" else "player", st["target"])
        return (st["kind"], st.get("value"))

    def unthrown(self) -> dict[str, int]:
        return dict(self.contest["unthrown"])

    def events(self, type_: str) -> list[Event]:
        return [e for e in self.log if e.type == type_]

    @property
    def last(self) -> dict[str, Any]:
        return self.state["table"]["last_activity"]
