"""Each advanced and optional rule, toggled on and off (spec 3.2, 7.0)."""

from __future__ import annotations

from trikus_support import GM, Table, player

from service.rules.trikus import SYSTEM


def solo(t: Table, cid: str, gm_pool: int = 1, **join) -> None:
    t.do({"type": "open_test", "character_ids": [cid], "gm_pool": gm_pool})
    t.do({"type": "join", "character_id": cid, **({"line_index": 0} | join)})
    t.do({"type": "start"})


def test_options_defaults():
    opts = SYSTEM.Options()
    assert opts.adv_catastrophe_line_loss is True  # A19
    assert not any(
        [
            opts.adv_escape,
            opts.adv_negotiation,
            opts.adv_boom,
            opts.adv_combat_difficulty,
            opts.adv_equipment,
            opts.opt1_master_dark_sides_by_others,
            opts.opt2_gm_blind_to_dark_sides,
        ]
    )
    assert (opts.boom_visibility, opts.promotions_apply) == ("players_must_notice", "next_session")
    assert opts.last_chance_prompt and opts.team_cancellation_waives_penalties
    assert not opts.catastrophe_master_strict


def test_option_adv_escape_off():
    t = Table()
    t.party()
    solo(t, "michal", gm_pool=2)
    t.fails({"type": "escape", "character_id": "michal"}, "option_disabled")


def test_option_adv_catastrophe_line_loss_off_keeps_the_line():
    """A19: the narrative Catastrophe is core; only the line loss is the toggle."""
    t = Table(adv_catastrophe_line_loss=False)
    t.party()
    solo(t, "michal", boost=True)
    t.wave(gm=10, michal=1)
    t.do({"type": "auto"}, [1, 1, 1, 1])
    assert t.events("catastrophe")[0].data["line_loss"] is False and t.events("line_lost") == []
    assert t.sheet("michal")["lines"][0]["state"] == "crossed"


def test_option_adv_negotiation_off():
    t = Table()
    t.party()
    solo(t, "michal", gm_pool=2)
    t.wave(gm=9, michal=1)
    t.fails({"type": "propose_negotiation", "character_id": "michal"}, "option_disabled")
    assert "propose_negotiation" not in t.may("michal")


def test_option_negotiation_decline_changes_nothing():
    t = Table(adv_negotiation=True)
    t.party()
    solo(t, "michal", gm_pool=2)
    t.wave(gm=9, michal=1)
    t.do({"type": "propose_negotiation", "character_id": "michal"})
    t.do({"type": "answer_negotiation", "accept": False})
    assert t.ctrl("michal") == ("ctrl", "gm", 9) and not t.act["participants"]["michal"]["negotiated"]
    t.fails({"type": "propose_negotiation", "character_id": "michal"}, "negotiation_already_refused")
    assert "propose_negotiation" not in t.may("michal")
    t.do({"type": "auto"}, [1, 1])
    assert t.events("catastrophe") == []


def test_option_adv_boom_off_no_scan_no_claim():
    t = Table()
    t.party()
    t.do({"type": "open_test", "character_ids": ["pawel", "michal"], "gm_pool": 3})
    t.do({"type": "join", "character_id": "pawel", "line_index": 0})
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    t.do({"type": "start"})
    t.wave(gm=5, pawel=5, michal=5)
    assert t.contest["boom"]["available"] == []
    t.fails({"type": "claim_boom", "character_id": "pawel", "value": 5, "text": "x"}, "option_disabled")


def test_option_boom_announce_shows_players_and_skips_review_without_boom():
    t = Table(adv_boom=True, boom_visibility="announce")
    t.party()
    t.do({"type": "open_test", "character_ids": ["pawel", "michal"], "gm_pool": 3})
    t.do({"type": "join", "character_id": "pawel", "line_index": 0})
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    t.do({"type": "start"})
    t.wave(gm=5, pawel=5, michal=5)
    assert t.events("boom_available")[0].visibility == "all"
    assert SYSTEM.view(t.state, player("pawel"))["table"]["activity"]["contest"]["boom"]["available"] == [5]
    t2 = Table(adv_boom=True, boom_visibility="announce")
    t2.party()
    solo(t2, "michal")
    t2.wave(gm=1, michal=9)
    assert t2.act is None  # no triple, nothing to review


def test_option_boom_unclaimed_gm_overturns_results():
    """L356, A42: nobody claimed; the GM overturns the result and its consequences follow."""
    t = Table(adv_boom=True)
    t.party()
    t.do({"type": "open_test", "character_ids": ["pawel", "michal"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "pawel", "line_index": 0})
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    t.do({"type": "start"})
    t.sheet("michal")["morale_dice"] = 0
    t.wave(gm=4, pawel=4, michal=4)
    assert t.act["phase"] == "boom_review" and t.whose() == ["gm"]
    t.fails({"type": "boom_review", "overrides": {"zuzia": "failure"}}, "not_a_result")
    t.do({"type": "boom_review", "overrides": {"michal": "failure", "pawel": "success"}})
    assert t.whose() == ["pawel"]  # a team test: cancellation follows
    t.do({"type": "keep_success", "character_id": "pawel"})
    assert t.last["results"] == {"pawel": "success", "michal": "failure"}
    assert t.sheet("pawel")["morale_dice"] == 1
    ev = t.events("boom_reviewed")[0]
    assert ev.data["unclaimed"] == [4] and ev.redacted["unclaimed"] is None


def test_option_adv_combat_difficulty_off_rejects_cd():
    t = Table()
    t.party()
    t.fails(
        {"type": "open_combat", "character_ids": ["pawel"], "gm_pool": 2, "combat_difficulty": 4}, "option_disabled"
    )
    t.do({"type": "open_combat", "character_ids": ["pawel"], "gm_pool": 2})
    assert t.act["combat_difficulty"] is None


def test_option_adv_equipment_off_rejects_items():
    t = Table()
    t.pc("pawel", "beginner", equipment=[{"name": "blaster", "traits": [{"kind": "helpful"}]}])
    t.do({"type": "open_test", "character_ids": ["pawel"], "gm_pool": 1})
    t.fails({"type": "join", "character_id": "pawel", "line_index": 0, "item_ids": ["i1"]}, "option_disabled")


def test_option_last_chance_prompt_off_is_final_at_once():
    t = Table(last_chance_prompt=False)
    t.pc("pawel", "beginner")
    t.pc("michal", "master")
    t.do({"type": "award_light_token", "character_id": "pawel", "reason": "x"})
    solo(t, "pawel", gm_pool=2)
    t.wave(gm=9, pawel=1)
    assert t.act is None and t.last["results"] == {"pawel": "failure"}


def _cancelled_boost(**options) -> Table:
    t = Table(**options)
    t.party()
    t.do({"type": "open_test", "character_ids": ["pawel", "zuzia"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "pawel", "line_index": 0})
    t.do({"type": "join", "character_id": "zuzia", "line_index": 1, "boost": True})
    t.do({"type": "start"})
    t.wave(gm=9, pawel=10, zuzia=1)
    t.do({"type": "auto"}, [1, 1])
    t.do({"type": "give_up_success", "character_id": "pawel", "target_character_id": "zuzia"})
    return t


def test_option_team_cancellation_waives_penalties_on():
    """A10: a cancelled boosted failure: no dark token, no Catastrophe."""
    t = _cancelled_boost()
    assert t.sheet("zuzia")["dark_tokens"]["active"] == 0 and t.events("catastrophe") == []


def test_option_team_cancellation_waives_penalties_off():
    t = _cancelled_boost(team_cancellation_waives_penalties=False)
    assert t.sheet("zuzia")["dark_tokens"]["active"] == 1
    assert t.events("catastrophe")[0].data["cause"] == "boost_failure"


def test_option_catastrophe_master_strict():
    """A18 reading (b): a Master whose line is lost takes no test, not even on extras."""
    t = Table(catastrophe_master_strict=True)
    t.pc("michal", "master", morale_dice=1)
    t.lines("michal", "lost:2")
    t.do({"type": "open_test", "character_ids": ["michal"], "gm_pool": 1})
    t.fails({"type": "join", "character_id": "michal", "line_index": None, "morale": 1}, "master_line_lost")
    t2 = Table()
    t2.pc("michal", "master", morale_dice=1)
    t2.lines("michal", "lost:2")
    t2.do({"type": "open_test", "character_ids": ["michal"], "gm_pool": 1})
    t2.do({"type": "join", "character_id": "michal", "line_index": None, "morale": 1})


def test_option_promotions_apply_immediately():
    """A34 option: in a 1/1/1 party the chain applies when the activity closes."""
    t = Table(promotions_apply="immediately", adv_escape=True)
    t.party()
    t.sheet("zuzia")["dark_tokens"].update(active=2, received_total=2)
    solo(t, "zuzia", gm_pool=2)
    t.do({"type": "escape", "character_id": "zuzia"})
    assert t.sheet("pawel")["tier"] == "advanced" and t.sheet("pawel")["sides_pending"]
    assert [p["kind"] for p in t.state["table"]["pending_changes"]] == ["new_character"]
    t.do(
        {
            "type": "set_sides",
            "character_id": "pawel",
            "light_sides": [{"text": "a"}, {"text": "b"}],
            "dark_sides": [{"text": "c"}, {"text": "d"}],
        }
    )
    assert not t.sheet("pawel")["sides_pending"]


def test_option_promotions_immediately_waits_for_the_gm_outside_a_standard_party():
    """A34: a party that is not 1/1/1 needs the GM's confirmation (start_session)."""
    t = Table(promotions_apply="immediately", adv_escape=True)
    t.party()
    t.pc("extra", "beginner")
    t.sheet("zuzia")["dark_tokens"].update(active=2, received_total=2)
    solo(t, "zuzia", gm_pool=2)
    t.do({"type": "escape", "character_id": "zuzia"})
    assert t.sheet("pawel")["tier"] == "beginner"
    t.do({"type": "start_session"})
    assert t.sheet("pawel")["tier"] == t.sheet("extra")["tier"] == "advanced"


def test_option_opt1_applies_to_a_new_master_sides():
    t = Table(opt1_master_dark_sides_by_others=True, adv_escape=True)
    t.party()
    t.sheet("michal")["dark_tokens"].update(active=2, received_total=2)
    solo(t, "michal", gm_pool=2)
    t.do({"type": "escape", "character_id": "michal"})
    t.do({"type": "start_session"})
    assert t.sheet("zuzia")["tier"] == "master"
    t.fails(
        {
            "type": "set_sides",
            "character_id": "zuzia",
            "light_sides": [{"text": "a"}],
            "dark_sides": [{"text": "b"}, {"text": "c"}, {"text": "d"}],
        },
        "master_dark_side_authorship",
    )
    t.do(
        {
            "type": "set_sides",
            "character_id": "zuzia",
            "light_sides": [{"text": "a"}],
            "dark_sides": [{"text": "b"}, {"text": "c", "authored_by": "pawel"}, {"text": "d", "authored_by": "x"}],
        }
    )


def test_option_opt2_gm_blind_to_dark_sides():
    """L258: the GM's view and event data carry no unrevealed dark-side text; players see it."""
    t = Table(opt2_gm_blind_to_dark_sides=True, promotions_apply="immediately", adv_escape=True)
    t.party()
    gm_view = SYSTEM.view(t.state, GM)["characters"]["zuzia"]["dark_sides"]
    assert all(s == {"hidden": True, "authored_by": "self", "revealed": False} for s in gm_view)
    assert SYSTEM.view(t.state, player("pawel"))["characters"]["zuzia"]["dark_sides"][0]["text"] == "Zuzia dark 0"
    t.sheet("michal")["dark_tokens"].update(active=2, received_total=2)
    solo(t, "michal", gm_pool=2)
    t.do({"type": "escape", "character_id": "michal"})
    t.do(
        {
            "type": "set_sides",
            "character_id": "pawel",
            "light_sides": [{"text": "a"}, {"text": "b"}],
            "dark_sides": [{"text": "secret one"}, {"text": "secret two"}],
        }
    )
    ev = t.events("sides_set")[0]
    assert "secret" not in str(ev.data) and "secret one" in str(ev.redacted)
    t.sheet("pawel")["dark_tokens"].update(active=1, received_total=1)
    t.do({"type": "spend_dark_token", "character_id": "pawel"})
    assert "secret" not in str(t.events("dark_token_spent")[0].data)
    t.do({"type": "acknowledge_dark_side", "character_id": "pawel", "side_index": 1})
    gm_view = SYSTEM.view(t.state, GM)["characters"]["pawel"]["dark_sides"]
    assert gm_view[0]["hidden"] and gm_view[1]["text"] == "secret two"  # revealed by acting it out


def test_option_hide_dark_counts_from_other_players():
    t = Table(hide_dark_counts_from_other_players=True)
    t.party()
    t.sheet("zuzia")["dark_tokens"].update(active=2, received_total=2)
    assert SYSTEM.view(t.state, player("pawel"))["characters"]["zuzia"]["dark_tokens"]["active"] is None
    assert SYSTEM.view(t.state, player("zuzia"))["characters"]["zuzia"]["dark_tokens"]["active"] == 2
    assert SYSTEM.view(t.state, GM)["characters"]["zuzia"]["dark_tokens"]["active"] == 2
    t2 = Table()
    t2.party()
    t2.sheet("zuzia")["dark_tokens"].update(active=2, received_total=2)
    assert SYSTEM.view(t2.state, player("pawel"))["characters"]["zuzia"]["dark_tokens"]["active"] == 2  # L290
