"""An endpoint that keeps timing out is backed off as a whole and, after RULEKEEPER_WEBHOOKS_DISABLE_AFTER_TIMEOUTS
timeouts in a row, disabled with a GM-only `webhook_disabled` event; the GM sets it active again with the
webhook update API. The receiver accepts connections and never answers (tests/webhook_receiver.py, Silent)."""

from __future__ import annotations

import asyncio
import dataclasses
import time

import pytest
from apikit import bearer, new_table
from webhook_receiver import Receiver, Silent

from service.game.log.serviceevents import WebhookDisabledEvent


@pytest.fixture
def settings(settings):
    return dataclasses.replace(
        settings,
        webhooks_allow_loopback=True,
        webhooks_timeout_seconds=0.3,
        webhooks_backoff_seconds=1.0,
        webhooks_max_attempts=50,
        webhooks_disable_after_timeouts=2,
    )


async def register(t, url: str) -> dict:
    r = await t.client.post(
        f"{t.base}/webhooks", json={"url": url, "view": "gm", "event_types": ["gm_note"]}, headers=bearer(t.gm)
    )
    assert r.status_code == 201, r.text
    return r.json()


async def webhook(t, hook_id: str) -> dict:
    r = await t.client.get(f"{t.base}/webhooks/{hook_id}", headers=bearer(t.gm))
    assert r.status_code == 200, r.text
    return r.json()


async def until(t, hook_id: str, check, timeout: float = 10.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        w = await webhook(t, hook_id)
        if check(w):
            return w
        assert time.monotonic() < deadline, w
        await asyncio.sleep(0.02)


async def note(t, text: str) -> None:
    await t.ok({"type": "gm_note", "text": text})


async def log(t, token: str) -> list[dict]:
    r = await t.client.get(f"{t.base}/events", params={"limit": 500}, headers=bearer(token))
    assert r.status_code == 200, r.text
    return r.json()["items"]


async def test_a_timed_out_endpoint_is_backed_off_as_a_whole_before_its_next_attempt(client):
    t = await new_table(client)
    with Silent() as silent:
        hook = await register(t, silent.url())
        await note(t, "first")
        await note(t, "second")
        w = await until(t, hook["id"], lambda w: w["timeouts_in_row"] == 1)
        assert w["status"] == "active" and w["retry_at"] is not None
        # base 1 s: the next attempt is 0.5-1 s away, for this delivery and every later one of the endpoint.
        await asyncio.sleep(0.35)
        assert silent.accepted == 1


async def test_an_endpoint_that_keeps_timing_out_is_disabled_and_only_the_gm_is_told(client):
    t = await new_table(client)
    _, player = await t.invite("Ola")
    with Silent() as silent:
        hook = await register(t, silent.url())
        await note(t, "into the void")
        w = await until(t, hook["id"], lambda w: w["status"] == "disabled")
        assert w["timeouts_in_row"] == 2
        (event,) = [e for e in await log(t, t.gm) if e["type"] == "webhook_disabled"]
        data = WebhookDisabledEvent.model_validate(event["data"])
        assert data.webhook_id == hook["id"] and data.timeouts_in_row == 2 and "no answer" in data.last_error
        assert not [e for e in await log(t, player) if e["type"] == "webhook_disabled"]
        q = """query($c: ID!) { events(campaignId: $c, first: 500) { edges { node { type data { __typename
            ... on WebhookDisabledEvent { webhookId timeoutsInRow } } } } } }"""
        r = await client.post("/graphql", json={"query": q, "variables": {"c": t.id}}, headers=bearer(t.gm))
        typed = [
            e["node"]["data"] for e in r.json()["data"]["events"]["edges"] if e["node"]["type"] == "webhook_disabled"
        ]
        assert typed == [{"__typename": "WebhookDisabledEvent", "webhookId": hook["id"], "timeoutsInRow": 2}]
        await asyncio.sleep(1.2)  # past any backoff: a disabled endpoint gets nothing more
        assert silent.accepted == 2
        await note(t, "while disabled")
        r = await client.get(f"{t.base}/webhooks/{hook['id']}/deliveries", headers=bearer(t.gm))
        assert [d["status"] for d in r.json()["items"]] == ["pending"]  # none written while disabled


async def test_the_gm_sets_a_disabled_endpoint_active_again_and_its_pending_delivery_goes(client):
    t = await new_table(client)
    with Silent() as silent, Receiver() as receiver:
        hook = await register(t, silent.url())
        await note(t, "kept for later")
        await until(t, hook["id"], lambda w: w["status"] == "disabled")
        r = await client.patch(
            f"{t.base}/webhooks/{hook['id']}", json={"url": receiver.url, "status": "active"}, headers=bearer(t.gm)
        )
        assert r.status_code == 200, r.text
        assert r.json()["status"] == "active" and r.json()["timeouts_in_row"] == 0 and r.json()["retry_at"] is None
        await receiver.arrived(1)
        (body,) = receiver.verified(hook["secret"])
        assert body["data"]["data"]["text"] == "kept for later"


async def test_any_answer_even_an_error_resets_the_count_of_timeouts(client):
    t = await new_table(client)
    with Receiver() as receiver:
        receiver.delay = 0.6  # past the 0.3 s timeout
        hook = await register(t, receiver.url)
        await note(t, "slow, then answered")
        await until(t, hook["id"], lambda w: w["timeouts_in_row"] == 1)
        receiver.delay, receiver.plan = 0.0, [500]
        w = await until(t, hook["id"], lambda w: w["timeouts_in_row"] == 0)
        assert w["status"] == "active" and w["retry_at"] is None


async def test_a_player_cannot_re_enable_or_read_a_webhook(client):
    t = await new_table(client)
    _, player = await t.invite("Ola")
    with Silent() as silent:
        hook = await register(t, silent.url())
        r = await client.patch(f"{t.base}/webhooks/{hook['id']}", json={"status": "active"}, headers=bearer(player))
        assert r.status_code == 403, r.text
        r = await client.patch(f"{t.base}/webhooks/{hook['id']}", json={"status": "disabled"}, headers=bearer(t.gm))
        assert r.status_code == 422, r.text  # only the service disables
