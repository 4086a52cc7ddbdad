"""Property test: random move sequences never break the sheet invariants (spec 3.2), death is terminal, the
input state is never mutated, and replaying the same moves with the same dice rebuilds the same state."""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_examples import examples

from iskra_support import GM, Table, player
from engine_moves import check_awaiting, check_offered, check_one_entry_per_party, check_typed
from service.dice.table import TableDice
from service.dice.types import DieRoll
from service.rules.base import RuleViolation
from service.rules.iskra import SYSTEM, derived

CIDS = ("ala", "bob", "orc")
TEXT = "as described"


class DrawnDice:
    """A dice source whose faces hypothesis chooses, so failing sequences shrink."""

    mode = "server"

    def __init__(self, data) -> None:
        self.data = data
        self._rolled: list[DieRoll] = []

    def roll(self, sides: int, *, purpose: str = "") -> DieRoll:
        die = DieRoll(sides=sides, face=self.data.draw(st.integers(1, sides)), source="server", purpose=purpose)
        self._rolled.append(die)
        return die

    @property
    def rolled(self) -> list[DieRoll]:
        return list(self._rolled)


def _on_pending(d) -> dict:
    n = d.draw(st.integers(0, 6))
    return d.draw(
        st.sampled_from(
            [
                {"type": "roll"},
                {"type": "roll"},
                {"type": "accept_test"},
                {"type": "accept_test"},
                {"type": "reroll", "description": TEXT},
                {"type": "use_glory"},
                {"type": "approve_focus"},
                {"type": "focus_adjust", "amount": d.draw(st.sampled_from([-1, 1, 2, 3])), "description": TEXT},
                {"type": "reject_focus"},
                {"type": "accept_damage"},
                {"type": "set_wounds", "wounds": n},
                {"type": "dodge", "choice": d.draw(st.sampled_from(["none", "dodge", "dodge_stay_standing"]))},
                {"type": "reduce_damage", "amount": d.draw(st.integers(1, 3)), "description": TEXT},
                {"type": "use_ready", "character_id": d.draw(st.sampled_from(CIDS)), "execute": d.draw(st.booleans())},
            ]
        )
    )


def _owner_of(state: dict, action: dict) -> str:
    p = state["table"]["pending"]
    if "character_id" in action:
        return action["character_id"]
    if p is None:
        return "ala"
    if p["kind"] == "damage":
        return (p.get("dodge_test") or {}).get("character_id") or p["target_id"]
    return p["character_id"]


def _current(state: dict) -> str | None:
    enc = state["table"]["encounter"]
    if enc is None or enc["state"] != "active" or not 0 <= enc["current_index"] < len(enc["order"]):
        return None
    return enc["order"][enc["current_index"]]


def _move(d, state: dict) -> dict:
    now = _current(state)
    c = now if now is not None and d.draw(st.booleans()) else d.draw(st.sampled_from(CIDS))
    o = d.draw(st.sampled_from(CIDS))
    n = d.draw(st.integers(0, 6))
    return d.draw(
        st.sampled_from(
            [
                {
                    "type": "open_test",
                    "character_id": c,
                    "attribute": d.draw(st.sampled_from(["strength", "charisma"])),
                    "modifiers": [{"source": "s", "value": d.draw(st.integers(-6, 8))}],
                    "action_cost": "none",
                    "context": d.draw(st.sampled_from(["general", "persuade"])),
                },
                {"type": "roll"},
                {"type": "accept_test"},
                {"type": "reroll", "description": TEXT},
                {"type": "focus_adjust", "amount": d.draw(st.sampled_from([-1, 1, 2, 3])), "description": TEXT},
                {"type": "use_glory"},
                {"type": "approve_focus"},
                {"type": "reject_focus"},
                {
                    "type": "deal_damage",
                    "character_id": c,
                    "wounds": n,
                    "source": d.draw(st.sampled_from(["attack", "fall"])),
                },
                {"type": "dodge", "choice": d.draw(st.sampled_from(["none", "dodge", "dodge_stay_standing"]))},
                {"type": "reduce_damage", "amount": d.draw(st.integers(1, 3)), "description": TEXT},
                {"type": "accept_damage"},
                {"type": "set_wounds", "wounds": n},
                {
                    "type": "attack",
                    "character_id": c,
                    "target_id": o,
                    "mode": "melee",
                    **({"wounds": n} if d.draw(st.booleans()) else {}),
                },
                {
                    "type": "start_combat",
                    "initiator_id": c,
                    "sides": [
                        {"side_id": "A", "participant_ids": ["ala", "bob"]},
                        {"side_id": "B", "participant_ids": ["orc"]},
                    ],
                },
                {"type": "end_turn", "participant_id": c},
                {"type": "end_combat"},
                {"type": "help", "character_id": c, "beneficiary_id": o, "description": TEXT},
                {"type": "stand_up", "character_id": c},
                {"type": "convert_major", "character_id": c},
                {
                    "type": "ready",
                    "character_id": c,
                    "held_action": "melee_attack",
                    "target_id": o,
                    "description": TEXT,
                    "trigger_text": TEXT,
                },
                {"type": "trigger_ready", "character_id": c},
                {"type": "use_ready", "character_id": c, "execute": d.draw(st.booleans())},
                {"type": "minor_action", "character_id": c, "kind": "interact", "description": TEXT},
                {"type": "advance_time", "days": d.draw(st.integers(1, 3))},
                {"type": "recovery_test", "character_id": c},
                {"type": "rest_start", "character_id": c},
                {"type": "set_location", "character_ids": [c], "location_id": d.draw(st.sampled_from(["inn", "cold"]))},
                {"type": "restore_focus", "character_id": c, "amount": n + 1},
                {"type": "restore_health", "character_id": c, "amount": n + 1},
                {"type": "start_session"},
                {"type": "end_session", "roleplay_awards": [c]},
                {"type": "award_adversity", "adversity": f"a{n}", "character_ids": [c]},
                {"type": "award_glory", "character_id": c, "deed": TEXT},
                {
                    "type": "buy",
                    "character_id": c,
                    "purchase": d.draw(st.sampled_from(["focus_max", "attribute", "ability"])),
                    "attribute": "strength",
                    "ability_id": "language",
                    "param": f"l{n}",
                },
                {"type": "add_item", "character_id": c, "name": "rock", "weight": n},
                {"type": "drop_item", "character_id": c, "item_id": "i1"},
            ]
        )
    )


def _start(in_combat: bool) -> Table:
    t = Table(overflow_damage_kills=not in_combat)
    t.pc("ala")
    t.pc("bob", species="asrai")
    t.npc("orc")
    t.do({"type": "define_location", "location_id": "inn", "name": "Inn", "is_safe_place": True})
    t.do({"type": "define_location", "location_id": "cold", "name": "Glacier", "temperature_extreme": True})
    if in_combat:
        t.fight(["ala", "bob"], ["orc"])
    return t


def _check(state: dict, dead: set[str]) -> None:
    options = SYSTEM.Options.model_validate(state["options"])
    for cid, s in state["characters"].items():
        assert 0 <= s["health"] <= s["health_max"], (cid, s["health"])
        assert 0 <= s["focus_points"] <= s["focus_max"], (cid, s["focus_points"])
        assert s["xp"] >= 0 and s["glory"] >= 0
        assert all(0 <= v <= 5 for v in s["attributes"].values())
        assert derived.encumbrance(s, options) != "over_limit"
        if cid in dead:
            assert s["status"] == "dead" and s["health"] == 0  # death is terminal
    enc = state["table"]["encounter"]
    if enc is not None and enc["state"] == "active":
        assert all(v == "unlimited" or v >= 0 for v in enc["reactions_left"].values())
        assert all(b[k] >= 0 for b in enc["budget"].values() for k in ("major", "minor", "passing"))


@pytest.mark.parametrize("in_combat", [False, True])
@settings(max_examples=examples(50), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_legal_sequences_keep_invariants_and_replay(in_combat, data):
    t = _start(in_combat)
    start = copy.deepcopy(t.state)
    state, dead, applied = t.state, set(), []
    for _ in range(data.draw(st.integers(5, 45))):
        busy = state["table"]["pending"] is not None and data.draw(st.integers(0, 9)) < 8
        action = _on_pending(data) if busy else _move(data, state)
        gm_move = SYSTEM.action_senders[action["type"]] == "gm"
        actor = GM if gm_move or data.draw(st.integers(0, 9)) < 6 else player(_owner_of(state, action))
        dice = DrawnDice(data)
        before = copy.deepcopy(state)
        offered = check_offered(SYSTEM, state, action, actor)
        try:
            new, events = SYSTEM.apply(state, action, actor, dice)
        except RuleViolation:
            assert state == before and dice.rolled == []  # validated fully before any die
            continue
        assert state == before, "apply() mutated its input"
        assert offered, f"accepted {action['type']!r} from {actor.role}, which table.offers did not list"
        thrown = [x for e in events for x in e.data.get("dice", [])]
        assert thrown == [x.to_dict() for x in dice.rolled]
        applied.append((action, actor, [x.face for x in dice.rolled]))
        state = new
        dead |= {c for c, s in state["characters"].items() if s["status"] == "dead"}
        _check(state, dead)
        check_awaiting(SYSTEM, state)
        check_one_entry_per_party(state)
        check_typed(SYSTEM, state)
    replay = start
    for action, actor, faces in applied:
        replay, _ = SYSTEM.apply(replay, action, actor, TableDice(faces))
    assert replay == state
