"""Property test: random move sequences in an encounter never break the sheet and enemy invariants."""

from __future__ import annotations

import copy
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_examples import examples

from service.dice.types import DieRoll
from service.rules.base import Actor, RuleViolation
from service.rules.stepdice import SYSTEM
from engine_moves import check_awaiting, check_offered, check_typed
from stepdice_support import GM, Table

PCS = ("w", "r", "m")
FOES = ("m1", "m2", "el", "bo")
DICE = {"d6", "d8", "d10", "d12", "d20"}
APPLIED: dict[str, int] = {}


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


@st.composite
def moves(draw):
    pc = draw(st.sampled_from(PCS))
    other = draw(st.sampled_from(PCS))
    foe = draw(st.sampled_from(FOES))
    steps = draw(
        st.lists(st.builds(lambda d: {"source": "s", "delta": d}, st.sampled_from([-2, -1, 1, 2])), max_size=2)
    )
    text = draw(st.sampled_from([None, "it gets worse"]))
    square = {"x": draw(st.integers(-1, 6)), "y": draw(st.integers(-1, 6))}
    return draw(
        st.sampled_from(
            [
                {"type": "begin_turn", "character_id": pc},
                {"type": "end_turn", "character_id": pc},
                {
                    "type": "attack",
                    "character_id": pc,
                    "target_enemy_id": foe,
                    "steps": steps,
                    "attack_type": draw(st.sampled_from(["melee", "ranged", "spell"])),
                    "attacker_cover": draw(st.sampled_from(["none", "partial", "full"])),
                },
                {
                    "type": "test",
                    "character_id": pc,
                    "attribute": "strength",
                    "base_tn": 6,
                    "steps": steps,
                    "on_near_certain": "skip_roll",
                    "on_near_impossible": draw(st.sampled_from(["roll", "refuse"])),
                },
                {
                    "type": "cast",
                    "character_id": pc,
                    "tier": draw(st.sampled_from(["trick", "standard", "strong"])),
                    "heal_target_id": draw(st.sampled_from([None, other])),
                },
                {"type": "help", "character_id": pc, "target_character_id": other, "description": "aid"},
                {"type": "raise", "character_id": pc, "target_character_id": other},
                {"type": "move", "character_id": pc, "path": [square]},
                {"type": "end_player_phase"},
                {"type": "enemy_hit", "enemy_id": foe, "character_id": pc},
                {"type": "harm", "character_id": pc},
                {"type": "call_test", "character_id": pc, "attribute": "dexterity", "base_tn": 8},
                {"type": "end_enemy_phase"},
                {
                    "type": "resolve_retaliation",
                    "could_reach": draw(st.sampled_from([None, True, False])),
                    "complication": text,
                    "substitute_complication": draw(st.sampled_from([None, "prone"])),
                },
                {
                    "type": "choose_benefit",
                    "option": draw(
                        st.sampled_from(
                            ["extra_wound", "narrative_bonus", "bigger_scale", "refund_mana", "extra_benefit"]
                        )
                    ),
                    "text": "bonus",
                },
                {"type": "choose_armor", "use_armor": draw(st.booleans())},
                {"type": "record_consequence", "text": "ouch"},
                {"type": "grant_advancement", "character_ids": [pc]},
                {
                    "type": "advance",
                    "character_id": pc,
                    "choice": draw(st.sampled_from(["heart", "mana", "step_die"])),
                    "attribute": draw(st.sampled_from([None, "strength", "magic"])),
                },
                {"type": "rest"},
            ]
        )
    )


@st.composite
def legal_moves(draw, state):
    """A move the rules should accept in this state, most of the time (some still fail on reach or Mana)."""
    table, chars = state["table"], state["characters"]
    enc, p = table["encounter"], table["pending"]
    pick = lambda xs: draw(st.sampled_from(xs))  # noqa: E731
    if p:
        stage = p["stage"]
        if stage == "choose_benefit":
            return {"type": "choose_benefit", "option": pick(p["benefit_options"]), "text": "bonus"}
        if stage == "retaliation_check":
            reach = pick([True, False] if p["attack"]["could_reach_default"] is None else [None, True, False])
            swap = pick([None, "prone"]) if state["options"]["allow_retaliation_substitution"] else None
            return {
                "type": "resolve_retaliation",
                "could_reach": reach,
                "complication": "worse",
                "substitute_complication": swap,
            }
        if stage == "armor_choice":
            return {"type": "choose_armor", "use_armor": draw(st.booleans())}
        return {"type": "record_consequence", "text": "it costs you"}
    granted = [c for c in PCS if chars[c]["pending_advancements"]]
    if granted and draw(st.booleans()):
        return {"type": "advance", "character_id": pick(granted), "choice": pick(["heart", "mana"])}
    active = [c for c in enc["pcs"] if chars[c]["condition"] == "active"]
    foes = [e for e, v in enc["enemies"].items() if v["state"] == "active"] or ["m1"]
    if enc["phase"] == "enemy_phase":
        return pick(
            [
                {"type": "enemy_hit", "enemy_id": pick(foes), "character_id": pick(PCS)},
                {"type": "call_test", "character_id": pick(active or ["w"]), "attribute": "dexterity", "base_tn": 6},
                {"type": "grant_advancement", "character_ids": [pick(PCS)]},
                {"type": "end_enemy_phase"},
                {"type": "end_enemy_phase"},
            ]
        )
    if enc["phase"] != "player_phase":
        return {"type": "rest"}
    who = enc["turn_open_for"]
    if who is None:
        ready = [c for c in active if c not in enc["pcs_done"]]
        if not ready or draw(st.integers(0, 9)) == 0:
            return {"type": "end_player_phase"}
        return {"type": "begin_turn", "character_id": pick(ready)}
    slot, here = enc["pcs"][who], enc["pcs"][who]["position"]
    options = [{"type": "end_turn", "character_id": who}]
    if slot["action_available"]:
        others = [c for c in PCS if c != who]
        options += [
            {
                "type": "attack",
                "character_id": who,
                "target_enemy_id": pick(foes),
                "attack_type": pick(["melee", "ranged", "spell"]),
                "cover": "none",
                "attacker_cover": pick(["none", "partial", "full"]),
                "steps": [{"source": "s", "delta": d} for d in draw(st.lists(st.sampled_from([-1, 1]), max_size=2))],
            },
            {
                "type": "test",
                "character_id": who,
                "attribute": pick(["strength", "magic"]),
                "base_tn": pick([4, 12]),
                "steps": [{"source": "s", "delta": pick([-1, 1])}],
            },
            {
                "type": "cast",
                "character_id": who,
                "tier": pick(["trick", "standard", "strong"]),
                "heal_target_id": pick([None, *others]),
            },
            {"type": "help", "character_id": who, "target_character_id": pick(others), "description": "aid"},
            {
                "type": "raise",
                "character_id": who,
                "target_character_id": pick([c for c in others if chars[c]["condition"] == "downed"] or others),
            },
        ]
    if here is not None and slot["move_remaining"]:
        options.append(
            {
                "type": "move",
                "character_id": who,
                "path": [{"x": here["x"] + pick([-1, 0, 1]), "y": here["y"] + pick([-1, 1])}],
            }
        )
    return pick(options)


def _check(before: dict, after: dict) -> None:
    json.dumps(after)
    for cid, s in after["characters"].items():
        assert 0 <= s["hearts"] <= s["hearts_max"] and 5 <= s["hearts_max"] <= 7, s
        assert 0 <= s["mana"] <= s["mana_max"] and 3 <= s["mana_max"] <= 5, s
        assert (s["hearts"] == 0) == (s["condition"] != "active"), s
        assert set(s["dice"].values()) <= DICE
        if before["characters"][cid]["condition"] == "dead":
            assert s["condition"] == "dead"
    enc = after["table"]["encounter"]
    for eid, e in (enc or {}).get("enemies", {}).items():
        assert 0 <= e["wounds_taken"] <= e["wounds_max"]
        assert (e["state"] == "defeated") == (e["wounds_taken"] == e["wounds_max"])
        if before["table"]["encounter"]["enemies"][eid]["state"] == "defeated":
            assert e["state"] == "defeated"
    if enc:
        assert enc["turn_open_for"] in (None, *enc["pcs"])
        assert not enc["help_tokens"] or enc["phase"] == "player_phase"


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_legal_sequences_keep_invariants(data):
    opts = data.draw(
        st.fixed_dictionaries(
            {
                "use_armor_tokens": st.booleans(),
                "downed_damage_kills": st.booleans(),
                "use_grid": st.booleans(),
                "variant_d6_only": st.booleans(),
                "exceptional_requires_tn": st.booleans(),
                "allow_retaliation_substitution": st.booleans(),
            }
        )
    )
    t = Table(**opts)
    t.pc("w", "warrior", protection="mail")
    t.pc("r", "rogue")
    t.pc("m", "mage", protection="robe")
    for c in PCS:  # start hurt, so downed, death and raising come up in short sequences
        t.sheet(c)["hearts"] = data.draw(st.integers(1, 5))
    grid = opts["use_grid"]
    t.fight(
        {c: ({"x": 0, "y": i} if grid else None) for i, c in enumerate(PCS)},
        [
            {"enemy_id": e, "name": e, "kind": k, **({"position": {"x": 1, "y": i}} if grid else {})}
            for i, (e, k) in enumerate(zip(FOES, ("minion", "minion", "elite", "boss")))
        ],
    )
    state = t.state
    for _ in range(data.draw(st.integers(5, 40))):
        action = data.draw(legal_moves(state) if data.draw(st.integers(0, 5)) else moves())
        actor = (
            GM if data.draw(st.integers(0, 2)) else Actor("player", "p", frozenset({action.get("character_id", "w")}))
        )
        frozen = copy.deepcopy(state)
        offered = check_offered(SYSTEM, state, action, actor)
        try:
            new, events = SYSTEM.apply(state, action, actor, DrawnDice(data))
        except RuleViolation as exc:
            assert exc.status in (403, 409, 422)
            assert state == frozen
            continue
        assert state == frozen, "apply() mutated its input"
        assert offered, f"accepted {action['type']!r} from {actor.role}, which table.offers did not list"
        for ev in events:
            json.dumps(ev.data)
        _check(state, new)
        check_awaiting(SYSTEM, new)
        check_typed(SYSTEM, new)
        state = new
        APPLIED[action["type"]] = APPLIED.get(action["type"], 0) + 1
