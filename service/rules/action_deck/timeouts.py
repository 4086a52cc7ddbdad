"""Action Deck on a run-out deadline: a called character goes on hold (§4.18: it may still act later in the
round, or interrupt), and so does a Joker holder the round waits for (B7: act now or hold); where a hold is not
allowed (Shaken, Stunned, a turn already under way) the turn ends (a called character may pass). A rolled test
is accepted, keeping the best attempt (§5.5, B30). An opposed defence is the defender's own roll: the GM
decides. A holder's or a Joker's chance to claim or interrupt is not a wait, and the benny draw window has
its own default when the GM closes it (§4.14), so neither is timed."""

from __future__ import annotations

from typing import Any

from service.rules.timeouts import Kind, waited_as


def kind(table: dict[str, Any], entry: dict[str, Any]) -> Kind | None:
    return waited_as(entry, {"end_turn", "hold"}, {"accept_test", "defend"})


def _rolled_test(table: dict[str, Any], cid: str) -> str | None:
    tests = table.get("tests") or {}
    return next(
        (
            t["id"]
            for t in tests.values()
            if t.get("state") == "rolled" and t.get("roller_id") == cid and t.get("group") is None
        ),
        None,
    )


def default(table: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any] | None:
    may, cid = entry["may"], entry["character_id"]
    if "hold" in may:
        return {"type": "hold", "character_id": cid}
    if "end_turn" in may:
        return {"type": "end_turn", "character_id": cid}
    if "accept_test" in may:
        test_id = _rolled_test(table, cid)
        return None if test_id is None else {"type": "accept_test", "test_id": test_id}
    return None
