"""Worked examples TK-E1 … TK-E4, TK-E8 … TK-E13 (spec section 6): tests outside combat (TK-E17 … E19 in
test_trikus_examples_advanced.py).

Every throw is replayed through TableDice; after each move the test checks whose move it is
(`table.awaiting`), the pair states and the unthrown dice, then the final outcome.
"""

from __future__ import annotations

import pytest
from trikus_support import GM, Table, character_input

from service.rules.base import RuleViolation
from service.rules.trikus import SYSTEM


def test_TK_E1_tier_selection():
    """Paweł Beginner, Zuzia Advanced, Michał Master: lines, zero resources, side counts (L29–L35)."""
    t = Table()
    t.party()
    assert [ln["dice"] for ln in t.sheet("pawel")["lines"]] == [1, 1, 1]
    assert [ln["dice"] for ln in t.sheet("zuzia")["lines"]] == [2, 1]
    assert [ln["dice"] for ln in t.sheet("michal")["lines"]] == [3]
    for cid in ("pawel", "zuzia", "michal"):
        s = t.sheet(cid)
        assert all(ln["state"] == "free" for ln in s["lines"])
        assert s["morale_dice"] == 0
        assert s["light_tokens"]["active"] == s["dark_tokens"]["active"] == 0
    assert (len(t.sheet("pawel")["light_sides"]), len(t.sheet("pawel")["dark_sides"])) == (3, 1)
    assert (len(t.sheet("zuzia")["light_sides"]), len(t.sheet("zuzia")["dark_sides"])) == (2, 2)
    assert (len(t.sheet("michal")["light_sides"]), len(t.sheet("michal")["dark_sides"])) == (1, 3)
    party = SYSTEM.view(t.state, GM)["party"]
    assert party["composition_ok"] and party["composition"] == {"beginner": 1, "advanced": 1, "master": 1}
    with pytest.raises(RuleViolation) as err:  # a Beginner with a Master's sides
        SYSTEM.new_character(
            SYSTEM.CharacterInput.model_validate({**character_input("X", "master"), "tier": "beginner"}),
            SYSTEM.Options(),
        )
    assert (err.value.code, err.value.status, err.value.field) == ("wrong_side_count", 422, "light_sides")


def test_TK_E2_bad_feeling_at_the_senators_mansion():
    """Michał, his only line crossed, opts out; no line, morale or token changes; NO_TEST (L82–L86)."""
    t = Table()
    t.party()
    t.lines("michal", "crossed")
    t.sheet("michal")["morale_dice"] = 1  # "or he has some but does not want to use them"
    t.do(
        {
            "type": "open_test",
            "character_ids": ["michal"],
            "gm_pool": 3,
            "stakes_success": "find out what is behind the strong concentration of the Force",
        }
    )
    assert t.whose() == ["michal"] and t.may("michal") == ["join", "bad_feeling"]
    t.do(
        {
            "type": "bad_feeling",
            "character_id": "michal",
            "intent": "find out what lies behind the Force",
            "description": "stops on the threshold: 'I have a bad feeling about this'",
        }
    )
    assert t.whose() == ["gm"] and t.may("gm") == ["start"]
    t.do({"type": "start"})
    t.do({"type": "narrate", "text": "The Senator welcomes the party warmly and hires them."})
    assert t.act is None and t.last["outcome"] == "no_test"
    m = t.sheet("michal")
    assert m["lines"][0]["state"] == "crossed" and m["morale_dice"] == 1
    assert m["dark_tokens"]["received_total"] == 0


def test_TK_E3_michal_persuades_the_merchant():
    """Single opposed test, GM 2 dice vs Michał 3 (L114–L134); 'Marek' at L116 is Michał (A4).
    Success exhausts the last line of the party: everybody regains their lines (L198)."""
    t = Table()
    t.party()
    t.lines("pawel", "crossed", "crossed", "crossed")
    t.lines("zuzia", "crossed", "lost:2")
    t.do(
        {
            "type": "open_test",
            "character_ids": ["michal"],
            "gm_pool": 2,
            "stakes_success": "Zuzia is freed",
            "stakes_failure": "Zuzia stays captive for a long time",
        }
    )
    assert t.whose() == ["michal"]
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    assert t.whose() == ["gm"]
    t.do({"type": "start"})
    assert t.sheet("michal")["lines"][0]["state"] == "crossed"
    assert t.whose() == ["gm", "michal"] and t.unthrown() == {"gm": 2, "michal": 3}
    t.submit("gm")  # step 4: hidden until W1 completes
    assert t.whose() == ["michal"] and t.contest["dice"] == []
    t.do({"type": "throw", "character_id": "michal"}, [5, 7])  # W1 revealed together: GM 5, M 7
    assert t.ctrl("michal") == ("ctrl", "player", 7) and t.whose() == ["gm"]
    assert t.unthrown() == {"gm": 1, "michal": 2}
    t.throw("gm", 7)  # a tie is enough (L122)
    assert t.ctrl("michal") == ("ctrl", "gm", 7) and t.whose() == ["michal"]
    assert t.unthrown() == {"gm": 0, "michal": 2}
    t.throw("michal", 1)
    assert t.ctrl("michal") == ("ctrl", "gm", 7) and t.whose() == ["michal"]
    assert t.unthrown() == {"gm": 0, "michal": 1}
    t.throw("michal", 9)
    assert t.act is None and t.last["results"] == {"michal": "success"}
    assert t.sheet("michal")["morale_dice"] == 1
    assert t.state["table"]["reset_count"] == 1
    assert [ln["state"] for ln in t.sheet("pawel")["lines"]] == ["free"] * 3
    assert t.sheet("zuzia")["lines"][0]["state"] == "free"
    assert t.sheet("zuzia")["lines"][1] == {"index": 1, "dice": 1, "state": "lost", "lost_resets_remaining": 1}
    assert t.sheet("michal")["lines"][0]["state"] == "free"
    assert t.whose() == ["gm"]


def _merchant_house(t: Table) -> None:
    t.party()
    t.do(
        {
            "type": "open_test",
            "character_ids": ["pawel", "zuzia"],
            "gm_pool": 3,
            "stakes_success": "steal the holodisk",
            "stakes_failure": "caught by the guards",
        }
    )
    t.do({"type": "join", "character_id": "pawel", "line_index": 0})
    t.do({"type": "join", "character_id": "zuzia", "line_index": 0})
    t.do({"type": "start"})
    assert t.whose() == ["gm", "pawel", "zuzia"]
    t.wave(gm=6, pawel=9, zuzia=3)
    assert t.ctrl("pawel") == ("ctrl", "player", 9) and t.ctrl("zuzia") == ("ctrl", "gm", 6)
    assert t.unthrown() == {"gm": 2, "pawel": 0, "zuzia": 1} and t.whose() == ["gm", "zuzia"]
    t.wave(gm=5, zuzia=4)
    assert t.pair("zuzia")["outcome"] == "won" and t.pair("zuzia")["winner"] == "gm"  # out of dice
    assert t.ctrl("pawel") == ("ctrl", "player", 9) and t.unthrown() == {"gm": 1, "pawel": 0, "zuzia": 0}
    assert t.whose() == ["gm"]
    t.throw("gm", 2)
    assert t.act["phase"] == "cancellation" and t.whose() == ["pawel"]
    assert t.may("pawel") == ["keep_success", "give_up_success"]
    assert t.act["results"] == {"pawel": "success", "zuzia": "failure"}
    assert t.act["final_values"] == {"pawel": 9, "zuzia": 6}


def test_TK_E4_team_test_at_the_merchants_house():
    """GM 3 dice vs Paweł 1, Zuzia 2; each pair separate; Paweł keeps his success (L154–L170)."""
    t = Table()
    _merchant_house(t)
    t.sheet("zuzia")["morale_dice"] = 2
    t.do({"type": "keep_success", "character_id": "pawel"})
    assert t.act is None and t.last["results"] == {"pawel": "success", "zuzia": "failure"}
    assert t.sheet("pawel")["morale_dice"] == 1 and t.sheet("zuzia")["morale_dice"] == 0


def test_TK_E4_alternative_cancel_zuzias_failure():
    """Paweł gives up his success: both count as no result; nobody's morale changes (L170, spec 4.5)."""
    t = Table()
    _merchant_house(t)
    t.sheet("zuzia")["morale_dice"] = 2
    t.do({"type": "give_up_success", "character_id": "pawel", "target_character_id": "zuzia"})
    assert t.last["results"] == {"pawel": "no_result", "zuzia": "no_result"}
    assert t.sheet("pawel")["morale_dice"] == 0 and t.sheet("zuzia")["morale_dice"] == 2


def test_TK_E8_morale_dice():
    """Michał, no free line, commits 2 of 3 morale: success → 2; after a reset, line only, failure → 0
    (L236; the reset in between is A44)."""
    t = Table()
    t.party()
    t.lines("michal", "crossed")
    t.sheet("michal")["morale_dice"] = 3
    t.do({"type": "open_test", "character_ids": ["michal"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "michal", "line_index": None, "morale": 2})
    t.do({"type": "start"})
    assert t.sheet("michal")["morale_dice"] == 1 and t.unthrown() == {"gm": 1, "michal": 2}
    t.wave(gm=3, michal=8)  # GM out of dice, Michał in control
    assert t.act is None and t.whose() == ["gm"]
    assert t.last["results"] == {"michal": "success"} and t.sheet("michal")["morale_dice"] == 2
    t.do({"type": "force_reset", "reason": "the rest of the party is exhausted too (A44)"})
    t.do({"type": "open_test", "character_ids": ["michal"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    t.do({"type": "start"})
    assert t.unthrown() == {"gm": 1, "michal": 3}
    t.wave(gm=10, michal=2)
    assert t.ctrl("michal") == ("ctrl", "gm", 10) and t.whose() == ["michal"]
    t.throw("michal", 4)
    assert t.ctrl("michal") == ("ctrl", "gm", 10) and t.whose() == ["michal"]
    t.throw("michal", 9)
    assert t.last["results"] == {"michal": "failure"} and t.sheet("michal")["morale_dice"] == 0


def test_TK_E9_boost_while_exhausted():
    """Exhausted Michał boosts: exactly 2d10 (L232); failure: a dark token, a Catastrophe losing his
    crossed line until the second reset after it, morale stays 0 (L238, A16)."""
    t = Table()
    t.party()
    t.lines("michal", "crossed")
    t.sheet("michal")["dark_tokens"].update(active=1, received_total=1)
    t.do({"type": "open_test", "character_ids": ["michal"], "gm_pool": 2})
    t.do({"type": "join", "character_id": "michal", "line_index": None, "boost": True})
    t.do({"type": "start"})
    assert t.unthrown() == {"gm": 2, "michal": 2} and t.whose() == ["gm", "michal"]
    t.wave(gm=8, michal=3)
    assert t.ctrl("michal") == ("ctrl", "gm", 8) and t.whose() == ["michal"]
    t.throw("michal", 5)
    assert t.last["results"] == {"michal": "failure"}
    m = t.sheet("michal")
    assert m["dark_tokens"]["active"] == 2 and m["status"] == "active"
    assert m["lines"][0] == {"index": 0, "dice": 3, "state": "lost", "lost_resets_remaining": 2}
    assert m["morale_dice"] == 0
    assert [e.data["cause"] for e in t.events("catastrophe")] == ["boost_failure"]
    t.do({"type": "force_reset", "reason": "party exhausted"})
    assert m["lines"][0]["state"] != "free"
    assert t.sheet("michal")["lines"][0] == {"index": 0, "dice": 3, "state": "lost", "lost_resets_remaining": 1}
    t.do({"type": "force_reset", "reason": "party exhausted again"})
    assert t.sheet("michal")["lines"][0] == {"index": 0, "dice": 3, "state": "free"}


def test_TK_E10_michals_sides_under_optional_rule_1():
    """Michał writes 'I act as a team' and 'I do what I want'; Paweł and Zuzia write the other two
    dark sides (L254, optional rule 1 L256, A50)."""
    opts = SYSTEM.Options(opt1_master_dark_sides_by_others=True)
    data = {
        "name": "Michał",
        "tier": "master",
        "light_sides": [{"text": "Działam drużynowo"}],
        "dark_sides": [
            {"text": "Robię, co chcę"},
            {"text": "Nie przyznaję się do błędu", "authored_by": "pawel"},
            {"text": "Zdradzam sojuszników", "authored_by": "zuzia"},
        ],
    }
    sheet = SYSTEM.new_character(SYSTEM.CharacterInput.model_validate(data), opts)
    assert [s["authored_by"] for s in sheet["dark_sides"]] == ["self", "pawel", "zuzia"]
    own = {**data, "dark_sides": [{"text": t} for t in ("a", "b", "c")]}
    with pytest.raises(RuleViolation) as err:
        SYSTEM.new_character(SYSTEM.CharacterInput.model_validate(own), opts)
    assert (err.value.code, err.value.field, err.value.status) == ("master_dark_side_authorship", "dark_sides", 422)
    assert SYSTEM.new_character(SYSTEM.CharacterInput.model_validate(own), SYSTEM.Options())["tier"] == "master"


def test_TK_E11_lukes_light_token_fact():
    """The Millennium Falcon appears: active 1 → 0, used_total +1, no dice (L274)."""
    t = Table()
    t.pc("luke", "beginner", "Luke")
    t.do({"type": "award_light_token", "character_id": "luke", "reason": "saves his friends"})
    t.do(
        {
            "type": "light_token_fact",
            "character_id": "luke",
            "text": "The Millennium Falcon appears and rescues Luke from the antenna",
        }
    )
    tok = t.sheet("luke")["light_tokens"]
    assert (tok["active"], tok["used_total"], tok["received_total"]) == (0, 1, 1)


def test_TK_E12_zuzias_dark_side_token():
    """A boosted failure gives a dark token (and a Catastrophe, A49); the GM spends it; Zuzia acts out
    'saboteur' and destroys the holodisk (L288)."""
    t = Table()
    t.party()
    t.do({"type": "open_test", "character_ids": ["zuzia"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "zuzia", "line_index": 1, "boost": True})
    t.do({"type": "start"})
    assert t.unthrown() == {"gm": 1, "zuzia": 3} and t.whose() == ["gm", "zuzia"]
    t.wave(gm=10, zuzia=1)
    assert t.ctrl("zuzia") == ("ctrl", "gm", 10) and t.whose() == ["zuzia"]
    t.throw("zuzia", 2)
    assert t.whose() == ["zuzia"]
    t.throw("zuzia", 3)
    z = t.sheet("zuzia")
    assert z["dark_tokens"]["active"] == 1 and t.events("catastrophe")[0].data["cause"] == "boost_failure"
    assert z["lines"][1]["state"] == "lost"
    t.sheet("zuzia")["dark_sides"][0]["text"] = "sabotażystka"
    t.do({"type": "spend_dark_token", "character_id": "zuzia", "note": "she has the holodisk"})
    z = t.sheet("zuzia")
    assert (z["dark_tokens"]["active"], z["dark_tokens"]["used_total"]) == (0, 1)
    assert t.state["table"]["requests"] == [
        {"who": "character", "character_id": "zuzia", "may": ["acknowledge_dark_side"]}
    ]
    t.do(
        {
            "type": "acknowledge_dark_side",
            "character_id": "zuzia",
            "side_index": 0,
            "text": "destroys the valuable holodisk in a fit of anger",
        }
    )
    assert t.sheet("zuzia")["dark_sides"][0]["revealed"] is True
    assert t.state["table"]["requests"] == []


def test_TK_E13_zuzia_turns_to_the_dark_side():
    """Dark active 2 → 3 turns Zuzia at once; Paweł is queued for Advanced, Zuzia's player for a new
    Beginner; Michał stays Master (L310)."""
    t = Table(adv_escape=True)
    t.party()
    t.sheet("zuzia")["dark_tokens"].update(active=2, received_total=2)
    t.do({"type": "open_test", "character_ids": ["zuzia"], "gm_pool": 2})
    t.do({"type": "join", "character_id": "zuzia", "line_index": 0})
    t.do({"type": "start"})
    t.wave(gm=9, zuzia=2)
    assert t.whose() == ["zuzia"] and "escape" in t.may("zuzia")
    t.do({"type": "escape", "character_id": "zuzia"})
    z = t.sheet("zuzia")
    assert z["status"] == "turned_dark" and z["controller"] == "gm"
    assert z["dark_tokens"]["active"] == 0 and z["dark_tokens"]["forfeited_total"] == 3
    pending = t.state["table"]["pending_changes"]
    assert {
        "kind": "promote",
        "character_id": "pawel",
        "from": "beginner",
        "to": "advanced",
        "at_session_start": True,
    } in pending
    assert any(p["kind"] == "new_character" and p["replaces"] == "zuzia" for p in pending)
    assert not any(p.get("character_id") == "michal" for p in pending)
    assert t.last["results"] == {"zuzia": "escaped"}
    t.do({"type": "start_session"})
    assert t.sheet("pawel")["tier"] == "advanced" and t.sheet("michal")["tier"] == "master"
    assert [ln["dice"] for ln in t.sheet("pawel")["lines"]] == [2, 1]
    assert t.state["table"]["requests"] == [{"who": "character", "character_id": "pawel", "may": ["set_sides"]}]
