"""Webhook delivery end to end: the service runs as a real process (`rulekeeper serve`, the README's way)
and delivers to a real receiver on 127.0.0.1 that checks every request with the `standardwebhooks`
package. In order, retried with growing backoff, failed after the limit, still delivered after the
service is SIGKILLed, never slowing the API; and with two replicas on PostgreSQL, each delivery made once.
"""

from __future__ import annotations

import asyncio
import time
import uuid

import httpx
import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine
from serve_process import LOOPBACK_TLS
from webhook_receiver import Receiver, Service

from servers import postgres_url, server_unavailable


class Table:
    """A campaign on a running service, with one webhook to `hook_url`."""

    def __init__(self, base: str, hook_url: str) -> None:
        self.base = base
        r = httpx.post(f"{base}/v1/campaigns", json={"name": "Webhooks", "system": "stepdice", "dice_mode": "server"})
        assert r.status_code == 201, r.text
        self.id, self.gm = r.json()["campaign"]["id"], r.json()["gm_token"]
        hook = self.post("/webhooks", {"url": hook_url, "view": "gm", "event_types": ["gm_note"]})
        self.hook_id, self.secret = hook["id"], hook["secret"]

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.gm}"}

    def post(self, path: str, body: dict, base: str | None = None) -> dict:
        r = httpx.post(
            f"{base or self.base}/v1/campaigns/{self.id}{path}",
            json=body,
            headers=self.auth,
            timeout=10,
            verify=LOOPBACK_TLS,
        )
        assert r.status_code in (200, 201), r.text
        return r.json()

    def note(self, text: str, base: str | None = None) -> float:
        """Send a GM note; returns how long the request took."""
        started = time.monotonic()
        self.post("/actions", {"action": {"type": "gm_note", "text": text}}, base)
        return time.monotonic() - started

    def deliveries(self, base: str | None = None) -> list[dict]:
        r = httpx.get(
            f"{base or self.base}/v1/campaigns/{self.id}/webhooks/{self.hook_id}/deliveries",
            params={"limit": 100},
            headers=self.auth,
            timeout=10,
        )
        assert r.status_code == 200, r.text
        return list(reversed(r.json()["items"]))

    def settled(self, count: int, timeout: float = 15.0) -> list[dict]:
        deadline = time.monotonic() + timeout
        while True:
            items = self.deliveries()
            if len([d for d in items if d["status"] != "pending"]) >= count:
                return items
            assert time.monotonic() < deadline, items
            time.sleep(0.05)


def texts(receiver: Receiver, secret: str) -> list[str]:
    return [p["data"]["data"]["text"] for p in receiver.verified(secret)]


@pytest.fixture
def receiver():
    with Receiver() as r:
        yield r


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path}/rulekeeper.db"


@pytest.fixture
def service(sqlite_url):
    started: list[Service] = []

    def run(**settings: str) -> Service:
        s = Service(sqlite_url, **settings).start()
        started.append(s)
        return s

    yield run
    for s in started:
        s.stop()


def test_deliveries_arrive_in_order_and_verify_with_a_standard_webhooks_receiver(service, receiver):
    t = Table(service().url, receiver.url)
    for i in range(12):
        t.note(f"note {i}")
    receiver.wait_for(12)
    assert texts(receiver, t.secret) == [f"note {i}" for i in range(12)]


def test_a_failing_receiver_is_retried_with_growing_backoff_until_it_answers(service, receiver):
    t = Table(service(RULEKEEPER_WEBHOOKS_BACKOFF_SECONDS="0.2").url, receiver.url)
    receiver.plan = [500, 502, 503]
    t.note("persist")
    t.note("then me")
    receiver.wait_for(5)
    at = receiver.times()
    gaps = [b - a for a, b in zip(at, at[1:4])]
    # base 0.2s doubling, half of each delay jittered: 0.1-0.2s, 0.2-0.4s, 0.4-0.8s
    assert gaps[0] >= 0.09 and gaps[1] >= 0.19 and gaps[2] >= 0.39 and gaps[2] > gaps[0], gaps
    assert texts(receiver, t.secret) == ["persist"] * 4 + ["then me"]
    first, second = t.settled(2)
    assert first["status"] == second["status"] == "delivered"
    assert first["attempts"] == 3 and first["last_response_code"] == 204


def test_after_the_attempt_limit_a_delivery_is_marked_failed_and_the_next_event_goes(service, receiver):
    t = Table(service(RULEKEEPER_WEBHOOKS_MAX_ATTEMPTS="4").url, receiver.url)
    receiver.status = 500
    t.note("never acknowledged")
    receiver.wait_for(4)
    (failed,) = t.settled(1)
    assert failed["status"] == "failed" and failed["attempts"] == 4 and failed["last_response_code"] == 500
    time.sleep(0.5)
    assert len(receiver.requests()) == 4
    receiver.status = 204
    t.note("the next one")
    receiver.wait_for(5)
    assert texts(receiver, t.secret)[-1] == "the next one"


def test_a_delivery_pending_when_the_service_is_killed_is_delivered_after_a_restart(service, receiver, sqlite_url):
    first = service(RULEKEEPER_WEBHOOKS_BACKOFF_SECONDS="0.5", RULEKEEPER_WEBHOOKS_MAX_ATTEMPTS="100")
    t = Table(first.url, receiver.url)
    receiver.status = 503
    t.note("survive the crash")
    receiver.wait_for(3)  # the next try is a second or more away
    time.sleep(0.1)
    first.kill()
    tried = len(receiver.requests())
    receiver.status = 204
    second = service(RULEKEEPER_WEBHOOKS_BACKOFF_SECONDS="0.5", RULEKEEPER_WEBHOOKS_MAX_ATTEMPTS="100")
    t.base = second.url
    got = receiver.wait_for(tried + 1, timeout=20)
    assert texts(receiver, t.secret) == ["survive the crash"] * len(got)
    assert len({h["webhook-id"] for h, _ in got}) == 1
    (d,) = t.settled(1)
    assert d["status"] == "delivered"


def test_a_receiver_that_has_not_answered_delays_no_api_request(service, receiver):
    # The receiver holds its answer to the first delivery until the test has made every request: had a request
    # waited for that delivery, it would never have been answered. No bound on how fast a loaded machine answers.
    t = Table(service(RULEKEEPER_WEBHOOKS_TIMEOUT_SECONDS="60").url, receiver.url)
    receiver.hold.clear()
    t.note("slow to acknowledge")
    receiver.wait_for(1)  # the service is now waiting on the receiver
    for i in range(10):
        t.note(f"meanwhile {i}")
    r = httpx.get(f"{t.base}/v1/campaigns/{t.id}/events", headers=t.auth, timeout=10)
    assert r.status_code == 200 and len(r.json()["items"]) >= 11, r.text
    assert receiver.answered == 0 and len(receiver.requests()) == 1
    receiver.hold.set()
    receiver.wait_for(11, timeout=30)
    assert texts(receiver, t.secret) == ["slow to acknowledge"] + [f"meanwhile {i}" for i in range(10)]


# --- two replicas ---------------------------------------------------------------------------------------


async def _admin(sql: str) -> None:
    engine = create_async_engine(postgres_url(), isolation_level="AUTOCOMMIT", connect_args={"timeout": 3})
    try:
        async with engine.connect() as conn:
            await conn.execute(text(sql))
    finally:
        await engine.dispose()


@pytest.fixture
def postgres_db() -> str:
    """A database of this test's own, so no other test's webhooks are delivered by these replicas."""
    name = f"rk_webhooks_{uuid.uuid4().hex[:10]}"
    try:
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    except Exception as exc:
        server_unavailable("postgres", repr(exc))
    url = make_url(postgres_url()).set(drivername="postgresql", database=name)
    yield url.render_as_string(hide_password=False)
    asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def test_with_two_replicas_on_postgresql_each_delivery_is_made_once_and_in_order(postgres_db, receiver):
    replicas = [Service(postgres_db)]
    try:
        replicas[0].start()  # migrates the database
        replicas.append(Service(postgres_db, RULEKEEPER_AUTO_MIGRATE="false"))
        replicas[1].start()
        t = Table(replicas[0].url, receiver.url)
        for i in range(30):
            t.note(f"note {i}", base=replicas[i % 2].url)
        got = receiver.wait_for(30)
        time.sleep(1.5)  # a duplicate would have arrived by now
        assert len(receiver.requests()) == 30
        assert len({h["webhook-id"] for h, _ in got}) == 30
        assert texts(receiver, t.secret) == [f"note {i}" for i in range(30)]
    finally:
        for r in replicas:
            r.stop()
