"""One test per violation code, continued: boom, team decisions, sides, equipment, authorization."""

from __future__ import annotations

from pathlib import Path

import pytest
from trikus_support import Table, character_input, player

from service.rules.base import RuleViolation
from service.rules.trikus import SYSTEM
from service.rules.trikus.errors import CODES


def opened(t: Table, cid: str = "michal", gm_pool: int = 2, **join) -> None:
    t.do({"type": "open_test", "character_ids": [cid], "gm_pool": gm_pool})
    t.do({"type": "join", "character_id": cid, **({"line_index": 0} | join)})
    t.do({"type": "start"})


@pytest.fixture
def t() -> Table:
    table = Table(adv_escape=True, adv_negotiation=True, adv_boom=True, adv_equipment=True)
    table.party()
    return table


def test_code_no_such_boom(t):
    opened(t)
    t.fails({"type": "claim_boom", "character_id": "pawel", "value": 3, "text": "x"}, "no_such_boom", status=422)


def _triple(t: Table) -> None:
    t.do({"type": "open_test", "character_ids": ["pawel", "michal"], "gm_pool": 3})
    t.do({"type": "join", "character_id": "pawel", "line_index": 0})
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    t.do({"type": "start"})
    t.wave(gm=5, pawel=5, michal=5)


def test_code_boom_already_claimed(t):
    _triple(t)
    t.do({"type": "claim_boom", "character_id": "zuzia", "value": 5, "text": "the wall explodes"})
    t.fails({"type": "claim_boom", "character_id": "pawel", "value": 5, "text": "x"}, "boom_already_claimed")


def test_code_no_unclaimed_boom(t):
    opened(t, gm_pool=1)
    t.wave(gm=1, michal=9)
    t.fails({"type": "boom_review", "overrides": {"michal": "failure"}}, "no_unclaimed_boom")


def test_code_not_a_result(t):
    _triple(t)
    t.do({"type": "auto"}, [1, 9, 1])
    assert t.act["phase"] == "boom_review"
    t.fails({"type": "boom_review", "overrides": {"zuzia": "success"}}, "not_a_result")


def test_code_not_a_cancellable_failure(t):
    t.do({"type": "open_test", "character_ids": ["pawel", "michal"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "pawel", "line_index": 0})
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    t.do({"type": "start"})
    t.wave(gm=5, pawel=1, michal=9)
    t.do({"type": "boom_review"})
    t.fails(
        {"type": "give_up_success", "character_id": "michal", "target_character_id": "zuzia"},
        "not_a_cancellable_failure",
    )


def test_code_cannot_cancel_negotiation_failure(t):
    t.sheet("zuzia")["morale_dice"] = 1
    t.do({"type": "open_test", "character_ids": ["pawel", "zuzia", "michal"], "gm_pool": 2})
    t.do({"type": "join", "character_id": "pawel", "line_index": 0})
    t.do({"type": "join", "character_id": "zuzia", "line_index": 1, "morale": 1})
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    t.do({"type": "start"})
    t.wave(gm=8, pawel=1, zuzia=1, michal=9)
    t.do({"type": "propose_negotiation", "character_id": "zuzia"})
    t.do({"type": "answer_negotiation", "accept": True})
    t.throw("gm", 7)
    t.wave(gm=1, zuzia=2)
    t.do({"type": "boom_review"})
    assert t.whose() == ["michal"]
    t.fails(
        {"type": "give_up_success", "character_id": "michal", "target_character_id": "zuzia"},
        "cannot_cancel_negotiation_failure",
    )


def test_code_not_a_failing_player(t):
    t.do({"type": "open_combat", "character_ids": ["pawel", "michal"], "gm_pool": 2})
    t.do({"type": "join", "character_id": "pawel", "line_index": 0})
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    t.do({"type": "start"})
    t.do({"type": "declare_round", "character_id": "pawel"})
    t.do({"type": "declare_round", "character_id": "michal"})
    t.wave(gm=5, pawel=1, michal=9)
    t.throw("gm", 1)
    t.do({"type": "boom_review"})
    t.fails({"type": "defend", "character_id": "michal", "target_character_id": "michal"}, "not_a_failing_player")


def test_code_cannot_defend_negotiation_failure(t):
    t.sheet("zuzia")["morale_dice"] = 1
    t.do({"type": "open_combat", "character_ids": ["pawel", "zuzia", "michal"], "gm_pool": 2})
    for cid in ("pawel", "zuzia", "michal"):
        t.do({"type": "join", "character_id": cid, "line_index": 0})
    t.do({"type": "start"})
    t.do({"type": "declare_round", "character_id": "pawel"})
    t.do({"type": "declare_round", "character_id": "zuzia"})
    t.do({"type": "declare_round", "character_id": "michal"})
    t.wave(gm=8, pawel=1, zuzia=1, michal=9)
    t.do({"type": "propose_negotiation", "character_id": "zuzia"})
    t.do({"type": "answer_negotiation", "accept": True})
    t.throw("gm", 7)
    t.wave(gm=1, zuzia=2)
    t.do({"type": "boom_review"})
    assert t.whose() == ["michal"]
    t.fails(
        {"type": "defend", "character_id": "michal", "target_character_id": "zuzia"},
        "cannot_defend_negotiation_failure",
    )
    t.do({"type": "defend", "character_id": "michal", "target_character_id": "pawel"})


def test_code_not_a_roll_target():
    t = Table(adv_combat_difficulty=True)
    t.party()
    t.do({"type": "open_combat", "character_ids": ["pawel", "michal"], "gm_pool": 2})
    for cid in ("pawel", "michal"):
        t.do({"type": "join", "character_id": cid, "line_index": 0})
    t.do({"type": "start"})
    t.do({"type": "declare_round", "character_id": "pawel"})
    t.do({"type": "declare_round", "character_id": "michal"})
    t.wave(gm=5, pawel=1, michal=9)
    t.throw("gm", 1)
    t.do({"type": "defend", "character_id": "michal", "target_character_id": "pawel"})
    t.fails({"type": "throw", "target_character_id": "michal"}, "not_a_roll_target")


def test_code_not_a_candidate_line():
    t = Table()
    t.pc("zuzia", "advanced")
    t.pc("michal", "master")
    t.lines("zuzia", "crossed", "crossed")
    t.do({"type": "open_test", "character_ids": ["zuzia"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "zuzia", "boost": True})
    t.do({"type": "start"})
    t.do({"type": "auto"}, [9, 1, 1])
    t.fails({"type": "choose_lost_line", "character_id": "zuzia", "line_index": 2}, "not_a_candidate_line")


def test_code_no_dark_side_prompt(t):
    t.fails({"type": "acknowledge_dark_side", "character_id": "zuzia", "side_index": 0}, "no_dark_side_prompt")


def test_code_no_such_side(t):
    t.sheet("pawel")["dark_tokens"].update(active=1, received_total=1)
    t.do({"type": "spend_dark_token", "character_id": "pawel"})
    t.fails({"type": "acknowledge_dark_side", "character_id": "pawel", "side_index": 1}, "no_such_side")


def test_code_sides_not_pending(t):
    t.fails({"type": "set_sides", "character_id": "pawel", "light_sides": [], "dark_sides": []}, "sides_not_pending")


def test_code_wrong_side_count(t):
    t.sheet("pawel")["sides_pending"] = True
    t.fails(
        {"type": "set_sides", "character_id": "pawel", "light_sides": [{"text": "a"}], "dark_sides": [{"text": "b"}]},
        "wrong_side_count",
        status=422,
    )


def test_code_master_dark_side_authorship():
    with pytest.raises(RuleViolation) as err:
        SYSTEM.new_character(
            SYSTEM.CharacterInput.model_validate(
                {**character_input("M", "master"), "dark_sides": [{"text": "a"}, {"text": "b"}, {"text": "c"}]}
            ),
            SYSTEM.Options(opt1_master_dark_sides_by_others=True),
        )
    assert err.value.code == "master_dark_side_authorship"


def test_code_unknown_item(t):
    t.do({"type": "open_test", "character_ids": ["pawel"], "gm_pool": 1})
    t.fails({"type": "join", "character_id": "pawel", "line_index": 0, "item_ids": ["i9"]}, "unknown_item")


def test_code_item_not_available(t):
    t.do({"type": "give_item", "character_id": "pawel", "item": {"name": "x", "traits": [{"kind": "helpful"}]}})
    t.do({"type": "open_test", "character_ids": ["pawel"], "gm_pool": 1})
    t.fails({"type": "join", "character_id": "pawel", "line_index": 0, "item_ids": ["i1", "i1"]}, "item_not_available")


def test_code_item_not_renewable(t):
    t.do({"type": "give_item", "character_id": "pawel", "item": {"name": "x", "traits": [{"kind": "helpful"}]}})
    t.fails({"type": "renew_item", "character_id": "pawel", "item_id": "i1"}, "item_not_renewable")


@pytest.mark.parametrize(
    "code, item",
    [
        ("duplicate_trait", {"name": "x", "traits": [{"kind": "helpful"}, {"kind": "helpful"}]}),
        ("modifier_required", {"name": "x", "traits": [{"kind": "defensive"}]}),
        ("bad_trait_modifier", {"name": "x", "traits": [{"kind": "offensive", "modifier": 1}]}),
    ],
)
def test_code_item_traits(t, code, item):
    t.fails({"type": "give_item", "character_id": "pawel", "item": item}, code, status=422)


def test_code_no_such_trait_and_trait_already_known(t):
    t.do({"type": "give_item", "character_id": "pawel", "item": {"name": "x", "traits": [{"kind": "helpful"}]}})
    t.fails({"type": "reveal_trait", "character_id": "pawel", "item_id": "i1", "trait_index": 2}, "no_such_trait")
    t.fails({"type": "reveal_trait", "character_id": "pawel", "item_id": "i1", "trait_index": 0}, "trait_already_known")


def test_code_same_character(t):
    t.fails({"type": "open_pvp_test", "challenger_id": "pawel", "opponent_id": "pawel"}, "same_character")


def test_code_not_your_character(t):
    """403: a player acts only for characters they control."""
    t.do({"type": "open_test", "character_ids": ["michal"], "gm_pool": 1})
    t.fails(
        {"type": "join", "character_id": "michal", "line_index": 0},
        "not_your_character",
        actor=player("pawel"),
        status=403,
    )


def test_code_gm_only(t):
    """403: GM-only moves and the GM's die are the GM's."""
    t.do({"type": "open_test", "character_ids": ["michal"], "gm_pool": 1})
    t.fails({"type": "start"}, "gm_only", actor=player("michal"), status=403)
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    t.do({"type": "start"})
    t.fails({"type": "throw"}, "gm_only", actor=player("michal"), status=403)
    t.fails({"type": "award_light_token", "character_id": "michal", "reason": "me"}, "gm_only", actor=player("michal"))


def test_every_code_has_a_test():
    """The closed set of codes in errors.py and the two violation modules agree."""
    here = Path(__file__).parent
    source = (here / "test_trikus_violations.py").read_text() + Path(__file__).read_text()
    missing = [code for code in CODES if f'"{code}"' not in source]
    assert missing == []
