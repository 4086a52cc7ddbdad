"""Spec 8.2: what players must not learn — other players' dark-token counts under the A38 option (not from
the sheet, its totals or the events), the number of the GM's notes, and a turned character's voice."""

from __future__ import annotations

import pytest
from trikus_support import GM, Table, player

from service.rules.trikus import SYSTEM

COUNTS = ("active", "received_total", "used_total", "forfeited_total")


def _escaped(**options) -> Table:
    """Zuzia escapes a test she is losing: a dark token (L324)."""
    t = Table(adv_escape=True, **options)
    t.party()
    t.do({"type": "open_test", "character_ids": ["zuzia"], "gm_pool": 2})
    t.do({"type": "join", "character_id": "zuzia", "line_index": 0})
    t.do({"type": "start"})
    t.wave(gm=9, zuzia=2)
    t.do({"type": "escape", "character_id": "zuzia"})
    return t


def _turned() -> Table:
    """TK-E13: Zuzia's third active dark token turns her to the dark side at once."""
    t = Table(adv_escape=True)
    t.party()
    t.sheet("zuzia")["dark_tokens"].update(active=2, received_total=2)
    t.do({"type": "open_test", "character_ids": ["zuzia"], "gm_pool": 2})
    t.do({"type": "join", "character_id": "zuzia", "line_index": 0})
    t.do({"type": "start"})
    t.wave(gm=9, zuzia=2)
    t.do({"type": "escape", "character_id": "zuzia"})
    assert t.sheet("zuzia")["controller"] == "gm"
    return t


def test_hidden_dark_counts_leave_no_total_to_subtract_from():
    """A38 option: active = received − used − forfeited, so every count is hidden from other players."""
    t = Table(hide_dark_counts_from_other_players=True)
    t.party()
    t.sheet("zuzia")["dark_tokens"].update(active=1, received_total=3, used_total=2)
    other = SYSTEM.view(t.state, player("pawel"))["characters"]["zuzia"]["dark_tokens"]
    assert all(other[k] is None for k in COUNTS)
    own = SYSTEM.view(t.state, player("zuzia"))["characters"]["zuzia"]["dark_tokens"]
    assert (own["active"], own["received_total"], own["used_total"]) == (1, 3, 2)
    assert SYSTEM.view(t.state, GM)["characters"]["zuzia"]["dark_tokens"]["received_total"] == 3


def test_hidden_dark_counts_a_new_dark_token_is_not_announced_to_players():
    """Counting dark_token_added events would rebuild the hidden count: under the option they are GM-only."""
    t = _escaped(hide_dark_counts_from_other_players=True)
    added = t.events("dark_token_added")
    assert len(added) == 1 and added[0].seen_by(GM)["active"] == 1
    assert added[0].seen_by(player("pawel")) is None
    assert SYSTEM.view(t.state, player("zuzia"))["characters"]["zuzia"]["dark_tokens"]["active"] == 1


def test_dark_tokens_are_announced_when_the_counts_are_public():
    """L290: without the option the counts are public, and so is every new dark token."""
    t = _escaped()
    assert t.events("dark_token_added")[0].seen_by(player("pawel"))["active"] == 1


def test_hidden_dark_counts_a_spend_tells_players_what_was_spent_not_what_is_left():
    t = Table(hide_dark_counts_from_other_players=True)
    t.party()
    t.sheet("zuzia")["dark_tokens"].update(active=2, received_total=2)
    t.do({"type": "spend_dark_token", "character_id": "zuzia", "note": "greed"})
    spent = t.events("dark_token_spent")[0]
    seen = spent.seen_by(player("pawel"))
    assert seen["character_id"] == "zuzia" and "active" not in seen and "used_total" not in seen
    assert spent.seen_by(GM)["active"] == 1


def test_gm_notes_cannot_be_counted_from_ids_or_counters():
    t = Table()
    t.party()
    for text in ("the Sith watch", "the ship is bugged"):
        t.do({"type": "gm_note", "text": text})
    ids = [n["id"] for n in t.state["table"]["gm_notes"]]
    assert len(set(ids)) == 2 and not any(i[1:].isdigit() for i in ids)
    seen = SYSTEM.view(t.state, player("pawel"))["table"]
    assert seen["gm_notes"] == [] and "seq" not in seen and "id_salt" not in seen


@pytest.mark.parametrize(
    "action",
    [
        {"type": "narrate", "character_id": "zuzia", "text": "I was never one of you"},
        {"type": "light_token_fact", "character_id": "zuzia", "text": "the door is unlocked"},
        {"type": "acknowledge_dark_side", "character_id": "zuzia", "side_index": 0},
        {"type": "set_sides", "character_id": "zuzia", "light_sides": [], "dark_sides": []},
    ],
    ids=lambda a: a["type"],
)
def test_a_character_turned_to_the_dark_side_is_no_longer_its_players(action):
    """L300: it becomes a GM character; its former player may neither act nor narrate for it."""
    t = _turned()
    err = t.fails(action, "character_not_yours", actor=player("zuzia"), status=403)
    assert err.field == "character_id"


def test_the_gm_still_narrates_for_a_character_turned_to_the_dark_side():
    t = _turned()
    t.do({"type": "narrate", "character_id": "zuzia", "text": "She smiles."}, actor=GM)
    assert t.events("narration")[-1].data["by"] == "gm"
