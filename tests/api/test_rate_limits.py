"""Nobody can flood the table: token buckets per token and per client address, and a stricter budget for
failed authentication, answered with a 429 problem and Retry-After. Each test plays from an address of
its own, so runs that share one Redis do not share budgets."""

from __future__ import annotations

import asyncio
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


@asynccontextmanager
async def replica(settings: Settings, address: str):
    """One replica of the service and a client from `address`, with the replica's rate-limit buckets."""
    from service.app import create_app

    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app, client=(address, 4000))
        async with httpx.AsyncClient(transport=transport, base_url="http://rulekeeper.test") as c:
            yield c, app.state.rate_buckets


async def test_replicas_share_one_budget_through_redis(postgres_database, redis_server):
    """Each replica decides alone and learns the others' charges when it reconciles: a budget spent at one replica
    is spent at the other once it has reconciled, and what it admitted before knowing is paid back by a longer
    wait."""
    settings = Settings(
        database_url=postgres_database,
        redis_url=redis_server,
        webhooks_secrets_key="a key for sealing webhook secrets",
        **{**OFF, "rate_per_token": Rate(0.2, 2)},
    )
    address = new_address()
    async with replica(settings, address) as (one, one_buckets), replica(settings, address) as (two, two_buckets):
        cid, gm = await campaign(one)
        for _ in range(2):
            assert (await one.get(f"/v1/campaigns/{cid}", headers=bearer(gm))).status_code == 200
        assert_throttled(await one.get(f"/v1/campaigns/{cid}", headers=bearer(gm)))
        await reconciled(one_buckets)
        # Two has not asked Redis about this token yet: it admits, and learns of one's charges at its reconciliation.
        assert (await two.get(f"/v1/campaigns/{cid}", headers=bearer(gm))).status_code == 200
        await reconciled(two_buckets)
        r = await two.get(f"/v1/campaigns/{cid}", headers=bearer(gm))
        assert_throttled(r)
        # Three charges of a budget of two (one every 5 s): the bucket has room again in 10 s, not 5.
        assert int(r.headers["Retry-After"]) >= 9


async def reconciled(buckets: RedisBuckets) -> None:
    """Wait until the replica has sent its charges to Redis (and taken the others' back)."""
    deadline = asyncio.get_running_loop().time() + 5
    while (buckets.pending or buckets.reconciling) and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.01)
    assert not buckets.pending, "the charges never went to Redis"


async def test_a_request_is_decided_without_a_round_trip_to_redis_and_its_charge_follows_in_one_script():
    redis = _CountingRedis()
    buckets = RedisBuckets(redis, every=0.01)
    token, address = Bucket("token:t", Rate(1, 5)), Bucket("address:a", Rate(1, 5))
    for _ in range(3):
        assert await buckets.take([token, address]) == 0
    assert redis.calls == []  # decided here: nothing went to Redis on the requests' way
    await asyncio.sleep(0.1)
    assert len(redis.calls) == 1  # one script for everything charged meanwhile
    keys, args = redis.calls[0]
    assert keys == ["rk:rate:token:t", "rk:rate:address:a"] and args == [3_000_000, 3_000_000]


async def test_charges_of_another_replica_fill_this_replicas_bucket_at_the_next_reconciliation():
    redis = _CountingRedis(full_in={"rk:rate:token:t": 4.5})  # another replica spent 4.5 of 5
    buckets = RedisBuckets(redis, every=0.01)
    token = Bucket("token:t", Rate(1, 5))
    assert await buckets.take([token]) == 0  # this replica did not know yet
    await buckets.reconcile()
    assert await buckets.take([token]) > 0  # now it does: 4.5 + its own 1 of 5


async def test_charges_in_flight_when_the_replica_stops_go_with_its_last_reconciliation():
    redis = _HangingOnceRedis()
    buckets = RedisBuckets(redis, every=0.0)
    assert await buckets.take([Bucket("token:t", Rate(1, 5))]) == 0
    await asyncio.wait_for(redis.hanging.wait(), 5)  # the reconciliation is in flight, its call unanswered
    assert buckets.pending == {}
    await asyncio.wait_for(buckets.close(), 5)
    assert redis.calls == [(["rk:rate:token:t"], [1_000_000])]


async def test_a_refused_request_charges_nothing_but_asks_redis_about_its_buckets():
    redis = _CountingRedis()
    buckets = RedisBuckets(redis, every=0.01)
    tight = Bucket("token:t", Rate(0.1, 1))
    assert await buckets.take([tight]) == 0
    assert await buckets.take([tight]) > 0
    assert buckets.pending == {"token:t": 10_000_000}  # the admitted request's step; the refused one's 0


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


class _CountingRedis:
    """Redis as the reconciling script sees it: the buckets' times of being full, in microseconds on a fixed
    clock; records each call."""

    NOW = 1_000_000_000_000

    def __init__(self, full_in: dict[str, float] | None = None) -> None:
        self.full = {k: self.NOW + round(s * 1e6) for k, s in (full_in or {}).items()}
        self.calls: list[tuple[list[str], list[int]]] = []

    def register_script(self, _source):
        async def script(keys, args):
            self.calls.append((keys, args))
            for key, step in zip(keys, args):
                if step:
                    self.full[key] = max(self.full.get(key, 0), self.NOW) + step
            return [self.NOW, *(self.full.get(key, 0) for key in keys)]

        return script

    async def aclose(self) -> None:
        pass


class _HangingOnceRedis(_CountingRedis):
    """Its first script call never answers (a Redis gone quiet): the caller has to give up on it."""

    def __init__(self) -> None:
        super().__init__()
        self.hanging = asyncio.Event()

    def register_script(self, source):
        counting = super().register_script(source)

        async def script(keys, args):
            if not self.hanging.is_set():
                self.hanging.set()
                await asyncio.Event().wait()
            return await counting(keys, args)

        return script


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
async def test_an_unreachable_redis_leaves_each_replica_limiting_on_its_own(exc, caplog):
    buckets = RedisBuckets(_DroppedRedis(exc))
    assert await buckets.take([Bucket("t", Rate(1, 1))]) == 0.0
    await buckets.reconcile()
    assert "rate limits are kept by each replica alone" in caplog.text
    assert await buckets.take([Bucket("t", Rate(1, 1))]) > 0  # not failing open: this process still counts


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
