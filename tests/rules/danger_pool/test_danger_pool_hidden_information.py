"""Spec §8, A43, §4.15.3: what players must not learn or do — how many elements the GM holds, and a betrayer's
voice once the character is the GM's."""

from __future__ import annotations

import pytest
from danger_pool_support import GM, Table, element_id, player

from service.rules.danger_pool import SYSTEM

FORMER = player("c1", player_id="P1")  # the records still bind c1 to its former player


def _betrayed() -> Table:
    """DP-D8: c1 betrays the team in a planning scene and becomes a GM character."""
    t = Table()
    for i in (1, 2):
        t.pc(f"c{i}", player_id=f"P{i}")
    t.state["characters"]["c1"]["pending_aftermath"] = True
    t.planning()
    t.do(
        {"type": "choose_aftermath", "character_id": "c1", "option": "betray_the_team", "plan": "sell them out"},
        actor=FORMER,
    )
    assert t.sheet("c1")["status"] == "traitor_npc"
    return t


def test_players_cannot_count_the_gms_elements_from_the_ids_they_see():
    t = Table()
    t.pc("ann", {"Wetwork": 1})
    t.scene_for(["ann"], elements=[{"text": "the sniper"}, {"text": "the dogs"}, {"text": "the gate"}])
    t.declare("ann", [5], [6, 2])
    t.do({"type": "element_reroll", "element_id": element_id(3)}, [3, 2])
    seen = SYSTEM.view(t.state, player("ann"))["table"]
    [used] = seen["scene"]["elements"]
    assert used["text"] == "the gate" and used["element_id"] != "element-3"
    assert not used["element_id"].removeprefix("element-").isdigit()
    assert "seq" not in seen and "id_salt" not in seen


@pytest.mark.parametrize(
    "action",
    [
        {"type": "describe", "character_id": "c1", "topic": "other", "text": "I never liked you anyway"},
        {"type": "choose_aftermath", "character_id": "c1", "option": "hide_the_pain"},
        {"type": "pass_turn", "character_id": "c1"},
    ],
    ids=lambda a: a["type"],
)
def test_a_betrayer_is_no_longer_its_players(action):
    """§4.15.3: the betrayer is the GM's now; its former player may neither act nor narrate for it."""
    t = _betrayed()
    err = t.fails(action, "character_not_yours", actor=FORMER, status=403)
    assert err.field == "character_id"


def test_the_gm_still_narrates_for_a_betrayer():
    t = _betrayed()
    ev = t.do({"type": "describe", "character_id": "c1", "topic": "other", "text": "c1 slips away"}, actor=GM)
    assert ev[-1].type == "narration"


def test_the_betrayers_former_player_still_reads_the_plan():
    """§8: the traitor's plan is known to the GM and that player only."""
    t = _betrayed()
    assert SYSTEM.view(t.state, FORMER)["characters"]["c1"]["traitor_plan"] == "sell them out"
    assert SYSTEM.view(t.state, player("c2", player_id="P2"))["characters"]["c1"]["traitor_plan"] is None
