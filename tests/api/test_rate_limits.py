"""Nobody can flood the table: token buckets per token and per client address, and a stricter budget for
failed authentication, answered with a 429 problem and Retry-After. Each test plays from an address of
its own, so runs that share one Redis do not share budgets."""

from __future__ import annotations

import uuid
from contextlib import asynccontextmanager
from dataclasses import replace

import httpx
import pytest

from apikit import assert_problem, bearer
from service.settings import Rate, Settings
from service.store.buckets import Bucket, MemoryBuckets, RedisBuckets

OFF = {"rate_per_token": None, "rate_per_address": None, "rate_auth_failures": None}


def new_address() -> str:
    return "10.%d.%d.%d" % tuple(uuid.uuid4().bytes[:3])


@asynccontextmanager
async def serve(settings: Settings, address: str | None = None):
    from service.app import create_app

    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=(address or new_address(), 4000))
        async with httpx.AsyncClient(transport=transport, base_url="http://rulekeeper.test") as c:
            yield c


async def campaign(c: httpx.AsyncClient) -> tuple[str, str]:
    body = (await c.post("/v1/campaigns", json={"name": "r", "system": "stepdice"})).json()
    return body["campaign"]["id"], body["gm_token"]


def assert_throttled(r: httpx.Response) -> None:
    body = assert_problem(r, 429, "rate_limited")
    assert int(r.headers["Retry-After"]) >= 1 and body["retry_after"] == int(r.headers["Retry-After"])


async def test_a_token_past_its_budget_gets_429_with_retry_after(settings):
    async with serve(replace(settings, **{**OFF, "rate_per_token": Rate(0.2, 3)})) as c:
        cid, gm = await campaign(c)
        for _ in range(3):
            assert (await c.get(f"/v1/campaigns/{cid}", headers=bearer(gm))).status_code == 200
        assert_throttled(await c.get(f"/v1/campaigns/{cid}", headers=bearer(gm)))
        assert (await c.get("/v1/systems")).status_code == 200  # without the token: not this token's budget


async def test_an_address_past_its_budget_gets_429(settings):
    async with serve(replace(settings, **{**OFF, "rate_per_address": Rate(0.2, 2)})) as c:
        assert (await c.get("/v1/systems")).status_code == 200
        assert (await c.get("/v1/systems")).status_code == 200
        assert_throttled(await c.get("/v1/systems"))


async def test_health_checks_are_never_limited(settings):
    async with serve(replace(settings, **{**OFF, "rate_per_address": Rate(0.2, 1)})) as c:
        assert (await c.get("/v1/systems")).status_code == 200
        assert_throttled(await c.get("/v1/systems"))
        for _ in range(5):
            assert (await c.get("/healthz")).status_code == 200
            assert (await c.get("/readyz")).status_code == 200


async def test_wrong_tokens_exhaust_the_address_budget_for_failed_authentication(settings):
    address = new_address()
    async with serve(replace(settings, **{**OFF, "rate_auth_failures": Rate(0.1, 3)}), address) as c:
        cid, gm = await campaign(c)
        for i in range(3):
            assert_problem(await c.get(f"/v1/campaigns/{cid}", headers=bearer(f"rk_gm_guess{i}")), 401, "unauthorized")
        assert_throttled(await c.get(f"/v1/campaigns/{cid}", headers=bearer("rk_gm_guess4")))
        # The address is slowed down, whatever token it tries next; other addresses are not.
        assert_throttled(await c.get(f"/v1/campaigns/{cid}", headers=bearer(gm)))
    async with serve(replace(settings, **{**OFF, "rate_auth_failures": Rate(0.1, 3)})) as other:
        assert (await other.get(f"/v1/campaigns/{cid}", headers=bearer(gm))).status_code == 200


async def test_wrong_tokens_through_graphql_are_counted_too(settings):
    async with serve(replace(settings, **{**OFF, "rate_auth_failures": Rate(0.1, 2)})) as c:
        cid, _ = await campaign(c)
        query = {"query": '{ campaign(id: "%s") { name } }' % cid}
        for i in range(2):
            r = await c.post("/graphql", json=query, headers=bearer(f"rk_gm_guess{i}"))
            assert r.json()["errors"][0]["extensions"]["code"] == "unauthorized"
        r = await c.post("/graphql", json=query, headers=bearer("rk_gm_guess3"))
        assert_throttled(r)
        assert r.json()["errors"][0]["extensions"]["code"] == "rate_limited"  # a GraphQL response as well


async def test_a_missing_token_is_not_a_failed_authentication(settings):
    async with serve(replace(settings, **{**OFF, "rate_auth_failures": Rate(0.1, 1)})) as c:
        cid, gm = await campaign(c)
        for _ in range(3):
            assert_problem(await c.get(f"/v1/campaigns/{cid}"), 401, "unauthorized")
        assert (await c.get(f"/v1/campaigns/{cid}", headers=bearer(gm))).status_code == 200


async def test_replicas_share_one_budget_through_redis(postgres_database, redis_server):
    settings = Settings(
        database_url=postgres_database,
        redis_url=redis_server,
        webhooks_secrets_key="a key for sealing webhook secrets",
        **{**OFF, "rate_per_token": Rate(0.2, 2)},
    )
    address = new_address()
    async with serve(settings, address) as one, serve(settings, address) as two:
        cid, gm = await campaign(one)
        assert (await one.get(f"/v1/campaigns/{cid}", headers=bearer(gm))).status_code == 200
        assert (await two.get(f"/v1/campaigns/{cid}", headers=bearer(gm))).status_code == 200
        assert_throttled(await one.get(f"/v1/campaigns/{cid}", headers=bearer(gm)))
        assert_throttled(await two.get(f"/v1/campaigns/{cid}", headers=bearer(gm)))


async def test_a_bucket_refills_at_its_rate():
    now = [0.0]
    buckets = MemoryBuckets(clock=lambda: now[0])
    b = Bucket("t", Rate(2, 3))  # 2 a second, 3 at once
    assert [await buckets.take([b]) for _ in range(3)] == [0, 0, 0]
    assert await buckets.take([b]) == pytest.approx(0.5)
    now[0] = 0.5
    assert await buckets.take([b]) == 0
    assert await buckets.take([b]) == pytest.approx(0.5)


async def test_a_refused_request_charges_none_of_its_buckets():
    buckets = MemoryBuckets(clock=lambda: 0.0)
    roomy, tight = Bucket("roomy", Rate(1, 10)), Bucket("tight", Rate(1, 1))
    assert await buckets.take([roomy, tight]) == 0
    assert await buckets.take([roomy, tight]) > 0
    assert buckets.full_at["roomy"] == pytest.approx(1.0)


class _DroppedRedis:
    """A Redis client whose connection is gone, failing the way `exc` says."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    def register_script(self, _source):
        async def script(keys, args):
            raise self.exc

        return script


@pytest.mark.parametrize(
    "exc",
    [
        ConnectionError("Connection refused"),
        # What redis-py raises under uvloop when Redis drops the connection it is writing to.
        RuntimeError("unable to perform operation on <TCPTransport closed=True>; the handler is closed"),
    ],
    ids=["connection-error", "closed-transport"],
)
async def test_an_unreachable_redis_lets_requests_through_unlimited_instead_of_failing_them(exc, caplog):
    buckets = RedisBuckets(_DroppedRedis(exc))
    assert await buckets.take([Bucket("t", Rate(1, 1))]) == 0.0
    assert "rate limits are not enforced" in caplog.text


def test_rate_limits_are_settings_read_from_the_environment():
    s = Settings.from_env(
        {
            "RULEKEEPER_RATE_LIMIT_PER_TOKEN": "5/10",
            "RULEKEEPER_RATE_LIMIT_PER_ADDRESS": "off",
            "RULEKEEPER_RATE_LIMIT_AUTH_FAILURES": "0.5/4",
        }
    )
    assert (s.rate_per_token, s.rate_per_address, s.rate_auth_failures) == (Rate(5, 10), None, Rate(0.5, 4))
    defaults = Settings.from_env({})
    assert (defaults.rate_per_token, defaults.rate_per_address, defaults.rate_auth_failures) == (
        Rate(20, 100),
        Rate(100, 300),
        Rate(1, 10),
    )
    with pytest.raises(ValueError):
        Settings.from_env({"RULEKEEPER_RATE_LIMIT_PER_TOKEN": "fast"})


async def test_ipv6_clients_share_the_budget_of_their_64(settings):
    from service.app import create_app

    app = create_app(replace(settings, **{**OFF, "rate_per_address": Rate(0.2, 2)}))
    async with app.router.lifespan_context(app):
        prefix = "2001:db8:%x:%x" % (uuid.uuid4().int & 0xFFFF, uuid.uuid4().int & 0xFFFF)
        for host in (f"{prefix}::1", f"{prefix}::2", f"{prefix}:ffff::3"):
            transport = httpx.ASGITransport(app=app, client=(host, 4000))
            async with httpx.AsyncClient(transport=transport, base_url="http://rulekeeper.test") as c:
                last = await c.get("/v1/systems")
        assert_throttled(last)


def test_each_operation_on_a_websocket_takes_from_the_token_budget(embedded_settings):
    """Queries and mutations run over graphql-transport-ws too: a socket is no way around the limits."""
    from starlette.testclient import TestClient

    from service.app import create_app

    with TestClient(create_app(replace(embedded_settings, **{**OFF, "rate_per_token": Rate(0.1, 2)}))) as http:
        gm = http.post("/v1/campaigns", json={"name": "ws", "system": "stepdice"}).json()["gm_token"]
        with http.websocket_connect("/graphql", subprotocols=["graphql-transport-ws"]) as ws:
            ws.send_json({"type": "connection_init", "payload": {"authorization": f"Bearer {gm}"}})
            assert ws.receive_json()["type"] == "connection_ack"
            answers = []
            for i in range(3):
                ws.send_json({"id": str(i), "type": "subscribe", "payload": {"query": "{ systems { id } }"}})
                first = ws.receive_json()
                if first["type"] == "next":
                    assert ws.receive_json()["type"] == "complete"
                answers.append(first)
    assert [a["type"] for a in answers] == ["next", "next", "error"]
    assert answers[2]["payload"][0]["extensions"]["code"] == "rate_limited"
