"""Whose move it is (`table.awaiting`, spec §4.13–§4.19, §5.2, §5.5–§5.7): one test per rule. The driver checks
the shape after every move (action_deck_support.check_awaiting)."""

from __future__ import annotations

from action_deck_support import GM, Table, interrupt_table, player
from engine_moves import check_offered

from service.rules.action_deck import SYSTEM

ANN = player("p-ann", "ann")


def crew(*ids: str, **options) -> Table:
    t = Table(**options)
    for cid in ids:
        t.add(cid, side="opposition" if cid.startswith("o") else "party")
    t.session({f"p-{c}": [c] for c in ids if not c.startswith("o")})
    return t


def entry(t: Table, cid: str | None) -> list[str] | None:
    """The moves the table waits for from this party (None: the GM), or None when it waits for nothing."""
    found = [e["may"] for e in t.table["awaiting"] if e["character_id"] == cid]
    assert len(found) <= 1, "one entry per party"
    return found[0] if found else None


def test_closed_session_awaits_the_gm_to_open_one():
    t = Table()
    assert t.table["awaiting"] == [{"who": "gm", "character_id": None, "may": ["open_session"]}]


def test_out_of_combat_the_gm_starts_an_encounter_awards_or_closes():
    t = crew("ann")
    assert t.table["awaiting"] == [
        {"who": "gm", "character_id": None, "may": ["start_encounter", "award_benny", "close_session"]}
    ]


def test_before_the_deal_the_gm_deals():
    t = crew("ann")
    t.do({"type": "start_encounter", "participants": ["ann"]})
    assert t.table["awaiting"] == [{"who": "gm", "character_id": None, "may": ["deal", "end_encounter"]}]


def test_draw_window_offers_card_holders_an_extra_card_and_the_gm_the_call():
    t = crew("ann", "bob")
    t.fight({"ann": "5S", "bob": "9H"})
    assert entry(t, "ann") == ["draw_extra_card"] and entry(t, "bob") == ["draw_extra_card"]
    assert entry(t, None) == ["call_next", "end_encounter"]
    t.do({"type": "draw_extra_card", "character_id": "ann", "card": "KS"}, actor=ANN)
    assert entry(t, "ann") == ["draw_extra_card", "keep_card"]


def test_a_called_card_awaits_its_character_to_declare_hold_or_pass():
    t = crew("ann", "bob")
    t.fight({"ann": "5S", "bob": "9H"})
    t.do({"type": "call_next"})
    assert t.table["awaiting"] == [
        {"who": "character", "character_id": "bob", "may": ["declare_turn", "hold", "end_turn"]}
    ]


def test_a_shaken_called_character_is_not_offered_hold():
    t = crew("ann")
    t.fight({"ann": "5S"})
    t.do({"type": "set_condition", "character_id": "ann", "shaken": True})
    t.do({"type": "call_next"})
    assert entry(t, "ann") == ["declare_turn", "end_turn"]


def test_an_acting_turn_offers_its_declared_actions_and_run_until_the_first_roll():
    t = crew("ann")
    t.fight({"ann": "5S"})
    t.do({"type": "call_next"})
    t.do({"type": "declare_turn", "character_id": "ann", "actions": [{"kind": "attack"}]})
    may = entry(t, "ann")
    assert may[:2] == ["take_action", "run"] and "trait_test" in may and may[-1] == "end_turn"
    t.do({"type": "trait_test", "character_id": "ann", "trait": "fighting", "action_index": 0}, dice=[5, 2])
    may = entry(t, "ann")
    assert "run" not in may and "take_action" not in may and "accept_test" in may


def test_holders_may_interrupt_the_running_turn():
    t = crew("ann", "bob")
    t.fight({"ann": "KS", "bob": "5S"})
    t.do({"type": "call_next"})
    t.do({"type": "hold", "character_id": "ann"})
    t.do({"type": "call_next"})
    assert entry(t, "ann") == ["interrupt"] and entry(t, "bob")[0] == "declare_turn"


def test_holders_and_jokers_may_claim_between_turns():
    t = crew("ann", "bob", "cat")
    t.fight({"ann": "KS", "bob": "JK-R", "cat": "2C"})
    assert entry(t, "bob") == ["draw_extra_card", "declare_turn", "hold"]
    t.do({"type": "call_next"})
    t.do({"type": "hold", "character_id": "ann"})
    assert entry(t, "ann") == ["declare_turn"] and entry(t, "bob") == ["declare_turn", "hold"]


def test_no_card_left_awaits_end_round_once_every_joker_has_acted():
    t = crew("ann", "bob")
    t.fight({"ann": "KS", "bob": "JK-R"})
    t.do({"type": "call_next"})
    t.do({"type": "end_turn", "character_id": "ann"})
    assert entry(t, None) == ["end_encounter"] and entry(t, "bob") == ["declare_turn", "hold"]
    t.do({"type": "declare_turn", "character_id": "bob"})
    t.do({"type": "end_turn", "character_id": "bob"})
    assert entry(t, None) == ["end_round", "end_encounter"]


def test_an_open_test_awaits_its_rollers_reroll_substitution_or_accept():
    t = crew("ann")
    t.do({"type": "trait_test", "character_id": "ann", "trait": "fighting"}, dice=[2, 3], actor=ANN)
    assert entry(t, "ann") == ["reroll", "accept_test", "choose_wild_substitution"]
    t.do({"type": "accept_test", "test_id": t.last_test()["id"]}, actor=ANN)
    assert entry(t, "ann") is None


def test_a_critical_failure_awaits_nothing_from_its_roller():
    t = crew("ann")
    t.do({"type": "trait_test", "character_id": "ann", "trait": "fighting"}, dice=[1, 1], actor=ANN)
    assert entry(t, "ann") is None


def test_a_group_test_awaits_the_gm():
    t = Table()
    for o in ("o1", "o2"):
        t.add(o, kind="extra", side="opposition")
    t.do({"type": "group_test", "leader_id": "o1", "member_ids": ["o1", "o2"], "trait": "fighting"}, dice=[3, 2])
    assert entry(t, None)[:2] == ["reroll", "accept_test"]


def test_an_opposed_test_awaits_the_defender_once_the_active_party_rolled():
    t = crew("ann", "bob")
    t.do(
        {
            "type": "opposed_test",
            "character_id": "ann",
            "trait": "fighting",
            "defender_id": "bob",
            "defender_trait": "fighting",
        },
        dice=[5, 2],
    )
    assert entry(t, "bob") == ["defend"] and entry(t, "ann")[:2] == ["reroll", "accept_test"]
    t.do({"type": "defend", "opposed_id": t.table["opposed"]["o1"]["id"]}, dice=[3, 2])
    assert entry(t, "ann") is None and entry(t, "bob")[:2] == ["reroll", "accept_test"]


def test_an_interrupt_test_holds_the_turn_until_it_is_settled():
    t = crew("ann", "bob")
    t.fight({"ann": "KS", "bob": "5S"})
    t.do({"type": "call_next"})
    t.do({"type": "hold", "character_id": "ann"})
    t.do({"type": "call_next"})
    t.do({"type": "declare_turn", "character_id": "bob", "actions": [{"kind": "attack"}]})
    t.do({"type": "interrupt", "character_id": "ann"}, dice=[5, 2])
    assert entry(t, "ann")[:2] == ["reroll", "accept_test"] and entry(t, "bob") == ["defend"]
    assert entry(t, None) is None


def test_a_players_soak_awaits_the_gms_ruling():
    t = crew("ann")
    t.do({"type": "apply_wounds", "character_id": "ann", "wounds": 1})
    t.do({"type": "soak", "character_id": "ann"}, actor=ANN)
    assert t.table["awaiting"][0] == {
        "who": "gm",
        "character_id": None,
        "may": ["set_condition", "start_encounter", "award_benny", "close_session"],
    }
    t.do({"type": "set_condition", "character_id": "ann", "wounds": 0})
    assert t.table["soaks_pending"] == [] and entry(t, None)[0] == "start_encounter"


def test_a_table_stored_before_state_version_2_gains_awaiting_on_its_next_move():
    """Snapshots of version 1 have no `awaiting` or `soaks_pending`; the next move (a replay) adds both."""
    assert SYSTEM.state_version == 2
    t = crew("ann")
    del t.state["table"]["awaiting"], t.state["table"]["soaks_pending"]
    t.do({"type": "start_encounter", "participants": ["ann"]})
    assert t.table["soaks_pending"] == [] and entry(t, None) == ["deal", "end_encounter"]


def test_the_gms_own_soak_ruling_also_settles_a_pending_soak():
    t = crew("ann")
    t.do({"type": "apply_wounds", "character_id": "ann", "wounds": 2})
    t.do({"type": "soak", "character_id": "ann"}, actor=ANN)
    t.do({"type": "soak", "character_id": "ann", "wounds_avoided": 1})
    assert t.table["soaks_pending"] == [] and "set_condition" not in entry(t, None)


def test_a_joker_whose_interrupt_fails_on_acceptance_is_offered_another():
    """§5.5: the holder's next move first accepts its rolled Athletics; below TN 4 the interrupt then fails with no
    defence (AD-D3), and the Joker, not yet acted, may interrupt again: the offers say so before that move."""
    t = Table(joker_interrupt_needs_test=True)
    t.add("h", kind="extra", skills={"athletics": "d8"})
    t.add("t", kind="extra", skills={"athletics": "d8", "fighting": "d8"})
    t.session({"ph": ["h"], "pt": ["t"]})
    t.fight({"h": "JK-R", "t": "5D"})
    t.do({"type": "call_next"})
    t.do({"type": "declare_turn", "character_id": "t", "actions": [{"kind": "attack"}]})
    t.do({"type": "interrupt", "character_id": "h"}, dice=[1])  # 1 + 2 for the Joker: below TN 4
    again = {"type": "interrupt", "character_id": "h"}
    assert t.enc["pending_interrupt"] is not None and "interrupt" not in (entry(t, "h") or [])
    assert check_offered(SYSTEM, t.state, again, GM)
    t.do(again, dice=[5])
    assert t.enc["pending_interrupt"]["holder"] == "h"


def test_the_interrupted_character_whose_defence_is_rolled_is_offered_its_turn_moves():
    """§5.5: the interrupted character's next move accepts its rolled Athletics first, which settles the interrupt;
    when the defence wins (AD-D3) its turn goes on, so the offers show the turn moves before that move."""
    t = interrupt_table(2)
    t.do({"type": "interrupt", "character_id": "h"}, dice=[5])
    t.do({"type": "defend", "opposed_id": t.enc["pending_interrupt"]["opposed_id"]}, dice=[7])
    end = {"type": "end_turn", "character_id": "t"}
    assert t.enc["pending_interrupt"] is not None and "end_turn" not in entry(t, "t")
    assert check_offered(SYSTEM, t.state, end, player("pt", "t"))
    t.do(end, actor=player("pt", "t"))
    assert t.enc["pending_interrupt"] is None


def test_what_a_gm_characters_accepted_roll_would_open_is_offered_to_the_gm_only():
    t = Table(joker_interrupt_needs_test=True)
    t.add("h", kind="extra", skills={"athletics": "d8"})
    t.add("t", kind="extra", skills={"athletics": "d8", "fighting": "d8"})
    t.session({"pt": ["t"]})  # h is nobody's: the GM's
    t.fight({"h": "JK-R", "t": "5D"})
    t.do({"type": "call_next"})
    t.do({"type": "declare_turn", "character_id": "t", "actions": [{"kind": "attack"}]})
    t.do({"type": "interrupt", "character_id": "h"}, dice=[1])  # fails once accepted: h may interrupt again

    def interrupt_offered_to_h(viewer) -> bool:
        offers = SYSTEM.view(t.state, viewer)["table"]["offers"]
        return any(e["character_id"] == "h" and "interrupt" in e["may"] for e in offers)

    assert interrupt_offered_to_h(GM)
    assert not interrupt_offered_to_h(player("pt", "t"))
