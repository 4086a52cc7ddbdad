"""What the benchmark plays: per rule system, a character, the moves that set a table up, and a cycle of
real moves that can be played again and again on that table (the cycle ends where it began).

Each cycle throws dice through the engine; moves that wait for someone (a pending benefit, an open test)
are closed by the cycle's next move, so every request takes the whole write path and none is refused."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

Action = dict[str, Any]

STEP_DICE_WARRIOR = {
    "name": "Brona",
    "role": "warrior",
    "talents": ["Athlete", "Medic"],
    "equipment": {"weapon": "axe", "protection": None, "items": ["rope", "torch", "whetstone"]},
}
ACTION_DECK_HERO = {
    "name": "Hero",
    "attributes": {"agility": "d6", "smarts": "d6", "spirit": "d6", "strength": "d6", "vigor": "d6"},
    "skills": {"athletics": "d6", "notice": "d6", "fighting": "d8", "shooting": "d6"},
}
ISKRA_NPC = {
    "name": "Ala",
    "species": "elf",
    "controller": "gm",
    "attributes": {"strength": 2, "dexterity": 2, "intelligence": 2, "charisma": 2},
    "predispositions": [{"label": "Sneaking"}],
    "weaknesses": [{"label": "Public speaking"}],
    "abilities": [{"ability_id": "light_step"}, {"ability_id": "efficiency"}],
}
TRIKUS_BEGINNER = {
    "name": "Pawel",
    "tier": "beginner",
    "light_sides": [{"text": f"Pawel is kind {i}"} for i in range(3)],
    "dark_sides": [{"text": "Pawel is afraid of the dark", "authored_by": "self"}],
}
DANGER_POOL_CREW = {
    "name": "Cyclops",
    "abilities": {"Wetwork": 3},
    "legends": ["Lead Nightmare of Old Baghdad"],
    "equipment": ["ivory-trimmed Colt 1911"],
}


@dataclass(frozen=True)
class Workload:
    system: str
    sheet: dict[str, Any]
    setup: Callable[[str], list[Action]] = lambda _c: []
    cycle: Callable[[str], list[Action]] = field(default=lambda _c: [])
    # Table dice (the players' own, sent with the move: move type -> faces) where the service's own roll could
    # end the cycle early or leave a choice pending. The dice still go through the engine and into the log.
    dice_mode: str = "server"
    dice: dict[str, list[int]] | None = None

    @property
    def single_move(self) -> bool:
        """One move repeats by itself: safe on a table many connections share."""
        return len(self.cycle("x")) == 1


WORKLOADS = [
    Workload(
        "stepdice",
        STEP_DICE_WARRIOR,
        setup=lambda c: [{"type": "start_scene", "kind": "narrative"}],
        cycle=lambda c: [
            {
                "type": "test",
                "character_id": c,
                "attribute": "strength",
                "base_tn": 8,
                "repeat_justification": "the benchmark repeats it",
            }
        ],
        # A 1 (fumble) or a 10 (exceptional success) waits for the GM's words or the player's benefit.
        dice_mode="table",
        dice={"test": [5]},
    ),
    Workload(
        "action_deck",
        ACTION_DECK_HERO,
        cycle=lambda c: [{"type": "trait_test", "character_id": c, "trait": "fighting"}],
    ),
    Workload(
        "iskra",
        ISKRA_NPC,
        setup=lambda c: [{"type": "approve_character", "character_id": c}],
        cycle=lambda c: [
            {"type": "open_test", "character_id": c, "attribute": "strength"},
            {"type": "roll"},
            {"type": "accept_test"},
        ],
        # A critical roll settles the test itself, and the cycle's accept_test would find none open.
        dice_mode="table",
        dice={"roll": [5]},
    ),
    Workload(
        "trikus",
        TRIKUS_BEGINNER,
        cycle=lambda c: [
            {"type": "open_test", "character_ids": [c], "gm_pool": 1},
            {"type": "join", "character_id": c, "line_index": 0},
            {"type": "start"},
            {"type": "auto"},
            {"type": "force_reset", "reason": "the next scene"},
        ],
        dice_mode="table",
        dice={"auto": [3, 9]},
    ),
    Workload(
        "danger_pool",
        DANGER_POOL_CREW,
        cycle=lambda c: [
            {
                "type": "create_action_scene",
                "goal": "through the bar",
                "leader_id": c,
                "team": [c],
                "progress_track_length": 8,
            },
            {"type": "start_scene"},
            {
                "type": "declare_action",
                "character_id": c,
                "kind": "push",
                "approach": "kick the door",
                "ability": "Wetwork",
            },
            {"type": "end_scene"},
        ],
        dice_mode="table",
        dice={"declare_action": [6, 6, 5, 4, 3]},
    ),
]


@dataclass
class Table:
    """A table set up for a workload: the campaign, its GM's token and the character the cycle plays."""

    id: str
    gm: str
    character: str


async def new_table(c: httpx.AsyncClient, w: Workload) -> Table:
    r = await c.post("/v1/campaigns", json={"name": "bench", "system": w.system, "dice_mode": w.dice_mode})
    r.raise_for_status()
    cid, gm = r.json()["campaign"]["id"], r.json()["gm_token"]
    h = {"Authorization": f"Bearer {gm}"}
    r = await c.post(f"/v1/campaigns/{cid}/characters", json={"sheet": w.sheet}, headers=h)
    r.raise_for_status()
    character = r.json()["id"]
    for action in w.setup(character):
        r = await c.post(f"/v1/campaigns/{cid}/actions", json={"action": action}, headers=h)
        if r.status_code != 200:
            raise SystemExit(f"{w.system} setup move {action['type']} refused: {r.text[:500]}")
    return Table(cid, gm, character)


def web_table_read(campaign_id: str) -> dict[str, Any]:
    """The Step Dice table's query as the web table sends it after every move (service/web/static/api.js: the
    operation and its fragments): every field of the table at its GraphQL type, the seat and the characters."""
    from service.web.operations import as_sent  # the measured checkout's, once it is on the path

    return {
        "query": as_sent("StepDiceTable"),
        "operationName": "StepDiceTable",
        "variables": {"campaignId": campaign_id},
    }
