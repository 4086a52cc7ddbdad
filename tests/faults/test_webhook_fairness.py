"""Webhook fairness against a real `rulekeeper serve`: receivers that accept and never answer hold send slots
until the timeout, and must not starve another campaign's deliveries (docs/operator.md, Webhooks)."""

from __future__ import annotations

import time

import httpx
import pytest
from webhook_receiver import Receiver, Service, Silent


def campaign(base: str) -> tuple[str, dict[str, str]]:
    r = httpx.post(f"{base}/v1/campaigns", json={"name": "Fairness", "system": "stepdice", "dice_mode": "server"})
    assert r.status_code == 201, r.text
    return r.json()["campaign"]["id"], {"Authorization": f"Bearer {r.json()['gm_token']}"}


def hook(base: str, cid: str, auth: dict[str, str], url: str) -> dict:
    r = httpx.post(f"{base}/v1/campaigns/{cid}/webhooks", json={"url": url, "event_types": ["gm_note"]}, headers=auth)
    assert r.status_code == 201, r.text
    return r.json()


def note(base: str, cid: str, auth: dict[str, str], text: str) -> None:
    r = httpx.post(
        f"{base}/v1/campaigns/{cid}/actions",
        json={"action": {"type": "gm_note", "text": text}},
        headers=auth,
        timeout=10,
    )
    assert r.status_code == 200, r.text


@pytest.fixture
def service(tmp_path):
    # The default 10 s timeout: each silent send holds its slot that long.
    s = Service(
        f"sqlite:///{tmp_path}/rulekeeper.db",
        RULEKEEPER_WEBHOOKS_TIMEOUT_SECONDS="10",
        RULEKEEPER_WEBHOOKS_BACKOFF_SECONDS="10",
    ).start()
    yield s
    s.stop()


def test_forty_silent_endpoints_of_two_campaigns_leave_a_third_campaigns_delivery_under_a_second(service):
    base = service.url
    with Silent() as silent, Receiver() as receiver:
        attackers = [campaign(base) for _ in range(2)]
        for cid, auth in attackers:
            for i in range(20):
                hook(base, cid, auth, silent.url(f"/hook{i}"))
        bystander, auth = campaign(base)
        hook(base, bystander, auth, receiver.url)
        for cid, their in attackers:
            note(base, cid, their, "hold every slot")
        deadline = time.monotonic() + 5
        while silent.accepted < 8 and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.3)  # whatever the worker would claim, it has claimed
        held = silent.accepted
        sent = time.monotonic()
        note(base, bystander, auth, "still on time")
        receiver.wait_for(1, timeout=15)
        took = receiver.times()[0] - sent
        assert took < 1.0, f"the bystander's delivery took {took:.2f}s; {held} silent sends were holding slots"
        assert held == 8, held  # 4 per campaign (RULEKEEPER_WEBHOOKS_MAX_IN_FLIGHT_PER_CAMPAIGN)
