"""The metrics an operator pages on move where things happen: webhook deliveries by outcome, the webhook queue's
depth and the age of its oldest pending delivery, and open event subscriptions (the deadline worker's lag:
tests/deadlines/test_deadline_lag_metric.py). The registry is the process's: each test reads the change its own doings made."""

from __future__ import annotations

import asyncio
import dataclasses
import time

import pytest
from apikit import bearer, new_table
from prometheus_client import REGISTRY
from webhook_receiver import Receiver

from service.game.log import feed


def value(name: str, **labels) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


@pytest.fixture
def settings(settings):
    """Loopback allowed (the receiver is on 127.0.0.1), two quick attempts, a long wait between them."""
    return dataclasses.replace(
        settings,
        webhooks_allow_loopback=True,
        webhooks_backoff_seconds=0.05,
        webhooks_max_attempts=2,
        webhooks_timeout_seconds=2.0,
    )


@pytest.fixture
def receiver():
    with Receiver() as r:
        yield r


async def until(check, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the metric did not move"
        await asyncio.sleep(0.05)


async def hooked_table(client, receiver):
    t = await new_table(client)
    r = await client.post(
        f"{t.base}/webhooks", json={"url": receiver.url, "event_types": ["gm_note"]}, headers=bearer(t.gm)
    )
    assert r.status_code == 201, r.text
    return t


async def test_webhook_deliveries_are_counted_by_outcome(client, receiver):
    t = await hooked_table(client, receiver)
    delivered = value("rulekeeper_webhook_deliveries_total", outcome="delivered")
    retrying = value("rulekeeper_webhook_deliveries_total", outcome="retrying")
    failed = value("rulekeeper_webhook_deliveries_total", outcome="failed")
    await t.ok({"type": "gm_note", "text": "heard", "visible_to_players": True})
    await until(lambda: value("rulekeeper_webhook_deliveries_total", outcome="delivered") == delivered + 1)
    receiver.status = 500
    await t.ok({"type": "gm_note", "text": "refused twice", "visible_to_players": True})
    await until(lambda: value("rulekeeper_webhook_deliveries_total", outcome="failed") == failed + 1)
    assert value("rulekeeper_webhook_deliveries_total", outcome="retrying") == retrying + 1


async def test_the_webhook_queue_shows_its_depth_and_its_oldest_pending_delivery(app, client, receiver):
    svc = app.state.services
    svc.settings = dataclasses.replace(svc.settings, webhooks_backoff_seconds=3600.0)  # the retry waits
    receiver.status = 500
    t = await hooked_table(client, receiver)
    await t.ok({"type": "gm_note", "text": "stuck", "visible_to_players": True})
    # Tried once, refused, to be tried again in an hour: pending, and the worker's polls see it wait.
    await until(lambda: value("rulekeeper_webhook_queue_depth") >= 1)
    await until(lambda: value("rulekeeper_webhook_oldest_pending_seconds") >= 1.0)


async def test_open_subscriptions_are_counted_while_they_are_open(app, client):
    t = await new_table(client)
    before = value("rulekeeper_subscribers")
    stream = feed.follow(app.state.services, t.id, t.gm, 0)
    assert (await stream.__anext__())["type"] == "campaign_created"
    assert value("rulekeeper_subscribers") == before + 1
    await stream.aclose()
    assert value("rulekeeper_subscribers") == before
