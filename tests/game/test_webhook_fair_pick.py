"""Which due deliveries the worker claims: round-robin across campaigns, each campaign under its cap, endpoints
that last timed out under the slow lane's (service/game/webhooks/delivery.py, `pick`)."""

from __future__ import annotations

from service.game.webhooks.delivery import Candidate, pick


def due(campaign: str, n: int, *, slow: bool = False) -> list[Candidate]:
    return [Candidate(f"{campaign}-{i}", campaign, slow) for i in range(n)]


def test_each_campaigns_first_delivery_goes_before_any_campaigns_second():
    candidates = due("a", 20) + due("b", 20) + due("c", 1)
    chosen = pick(candidates, room=3, per_campaign={"a": 4, "b": 4, "c": 4}, slow_room=16)
    assert [c.id for c in chosen] == ["a-0", "b-0", "c-0"]


def test_a_campaign_never_holds_more_than_its_share():
    candidates = due("a", 20) + due("b", 20) + due("c", 1)
    chosen = pick(candidates, room=32, per_campaign={"a": 4, "b": 4, "c": 4}, slow_room=16)
    counts = {cid: sum(c.campaign_id == cid for c in chosen) for cid in "abc"}
    assert counts == {"a": 4, "b": 4, "c": 1}


def test_a_campaign_with_sends_in_flight_gets_only_what_is_left_of_its_share():
    chosen = pick(due("a", 20) + due("b", 2), room=32, per_campaign={"a": 1, "b": 4}, slow_room=16)
    assert [c.id for c in chosen] == ["a-0", "b-0", "b-1"]


def test_endpoints_that_timed_out_share_the_slow_lane_and_a_healthy_endpoint_of_the_same_campaign_still_goes():
    candidates = due("a", 3, slow=True) + due("b", 3, slow=True) + [Candidate("a-ok", "a", False)]
    chosen = pick(candidates, room=32, per_campaign={"a": 4, "b": 4}, slow_room=2)
    assert sorted(c.id for c in chosen) == ["a-0", "a-ok", "b-0"]


def test_nothing_is_chosen_without_room():
    assert pick(due("a", 5), room=0, per_campaign={"a": 4}, slow_room=16) == []
    assert pick(due("a", 5), room=5, per_campaign={"a": 0}, slow_room=16) == []
    assert pick(due("a", 5, slow=True), room=5, per_campaign={"a": 4}, slow_room=0) == []
