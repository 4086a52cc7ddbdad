"""Request ids: a safe X-Request-ID is kept, anything else replaced by a new one; the id comes back in the
response, on every log line the request causes (JSON, one object per line) and on every event it appends."""

from __future__ import annotations

import io
import json
import logging
import uuid

import httpx
import pytest
from sqlalchemy import select

from apikit import bearer, new_table
from service import logs
from service.store.records.models import EventRecord


@pytest.fixture
def log_lines():
    """The service's log as JSON lines, through the handler `rulekeeper serve` installs."""
    buffer = io.StringIO()
    root = logging.getLogger()
    level = root.level
    logs.configure(level="INFO", kind="json", stream=buffer)

    def read() -> list[dict]:
        return [json.loads(line) for line in buffer.getvalue().splitlines()]

    read.stream = buffer
    yield read
    for handler in [h for h in root.handlers if getattr(h, "_rulekeeper", False)]:
        root.removeHandler(handler)
    root.setLevel(level)
    logging.getLogger("uvicorn.access").disabled = False


async def test_a_safe_request_id_is_echoed(client):
    r = await client.get("/v1/systems", headers={"X-Request-ID": "edge-7f3a:req/42"})
    assert r.headers["x-request-id"] == "edge-7f3a:req/42"


async def test_a_request_without_an_id_gets_a_new_one(client):
    first = (await client.get("/healthz")).headers["x-request-id"]
    second = (await client.get("/healthz")).headers["x-request-id"]
    assert uuid.UUID(first) and uuid.UUID(second) and first != second


def test_a_new_id_is_a_random_uuid_in_its_canonical_text():
    from service.requestid import new_id

    ids = [new_id() for _ in range(10_000)]
    assert len(set(ids)) == len(ids)
    parsed = [uuid.UUID(i) for i in ids]
    assert all(u.version == 4 and u.variant == uuid.RFC_4122 and str(u) == i for u, i in zip(parsed, ids))
    # Every bit but the version's and the variant's varies.
    varying = 0
    for u in parsed:
        varying |= u.int ^ parsed[0].int
    assert varying == ~((0xF << 76) | (0x3 << 62)) & ((1 << 128) - 1)


@pytest.mark.parametrize(
    "unsafe", ["two words", "x" * 129, "caf\u00e9", ""], ids=["space", "too-long", "non-ascii", "empty"]
)
async def test_an_unsafe_request_id_is_replaced_not_refused(client, unsafe):
    r = await client.get("/v1/systems", headers={"X-Request-ID": unsafe.encode("utf-8")})
    assert r.status_code == 200
    assert uuid.UUID(r.headers["x-request-id"])


async def test_a_request_id_with_control_characters_is_refused_like_any_such_header_and_still_answered_with_one(client):
    r = await client.get("/v1/systems", headers={"X-Request-ID": b"line\x01break"})
    assert r.status_code == 400 and r.json()["code"] == "invalid_header"
    assert uuid.UUID(r.headers["x-request-id"])


async def test_refusals_carry_the_request_id_too(client):
    r = await client.get("/v1/campaigns/nope/state", headers={"X-Request-ID": "refused-1"})
    assert r.status_code == 401 and r.headers["x-request-id"] == "refused-1"


async def test_every_event_a_request_appends_records_its_id(app, client):
    t = await new_table(client, dice_mode="server", options={"use_time_pressure_clocks": True})
    await t.ok({"type": "start_scene", "kind": "narrative"})
    before = max(e["seq"] for e in await t.events())
    r = await t.act(
        {"type": "create_clock", "label": "Alarm", "consequence": "guards"}, headers={"X-Request-ID": "move-abc-123"}
    )
    assert r.status_code == 200 and r.headers["x-request-id"] == "move-abc-123"
    async with app.state.services.read() as s:
        rows = list(await s.scalars(select(EventRecord).where(EventRecord.campaign_id == t.id)))
    written = [e for e in rows if e.seq > before]  # the earlier ones came from other requests
    assert written and {e.request_id for e in written} == {"move-abc-123"}
    # The id is the operator's: the events clients read have the shape they always had.
    assert all("request_id" not in e and "request_id" not in e["data"] for e in await t.events())


async def test_each_log_line_is_one_json_object_with_the_request_id(client, log_lines):
    await client.get("/v1/x%0a2026-01-01 INFO forged", headers={"X-Request-ID": "log-1"})
    lines = log_lines()
    access = [line for line in lines if line["logger"] == "rulekeeper" and line.get("status") == 404]
    assert len(access) == 1
    assert access[0]["request_id"] == "log-1" and access[0]["method"] == "GET" and access[0]["level"] == "INFO"
    assert access[0]["time"].endswith("Z")


async def test_a_500_answers_with_the_request_id_its_logged_traceback_carries(app, monkeypatch, log_lines):
    from service.game.campaigns import records as campaigns

    async def broken(*_a, **_k):
        raise RuntimeError("boom")

    monkeypatch.setattr(campaigns, "get_campaign", broken)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        t = await new_table(c)
        r = await c.get(t.base, headers={**bearer(t.gm), "X-Request-ID": "bug-1"})
    assert r.status_code == 500 and r.headers["x-request-id"] == "bug-1"
    errors = [line for line in log_lines() if line["logger"] == "rulekeeper.errors"]
    assert len(errors) == 1 and errors[0]["request_id"] == "bug-1" and "RuntimeError: boom" in errors[0]["exception"]


def test_uvicorns_own_loggers_write_the_same_json_lines_when_uvicorn_configured_them_first(log_lines):
    """`uvicorn service.asgi:app` sets up its loggers before it imports the app; the app's set-up takes them over."""
    import logging.config

    from uvicorn.config import LOGGING_CONFIG

    logging.config.dictConfig(LOGGING_CONFIG)
    logs.configure(level="INFO", kind="json", stream=log_lines.stream)
    logging.getLogger("uvicorn.error").warning("Invalid HTTP request received.")
    logging.getLogger("uvicorn.access").info("a second access line per request")
    lines = log_lines()
    assert [(line["logger"], line["message"]) for line in lines] == [
        ("uvicorn.error", "Invalid HTTP request received.")
    ]
    assert lines[0]["request_id"] is None and lines[0]["level"] == "WARNING"


async def test_passing_probes_and_scrapes_stay_out_of_the_info_log(client, log_lines):
    for path in ("/healthz", "/readyz", "/metrics"):
        assert (await client.get(path)).status_code == 200
    await client.get("/v1/systems")
    assert [line["path"] for line in log_lines() if "status" in line] == ["/v1/systems"]


def test_a_websocket_is_accepted_with_its_request_id(embedded_settings):
    from starlette.testclient import TestClient

    from service.app import create_app

    with TestClient(create_app(embedded_settings)) as http:
        given = str(uuid.uuid4())
        with http.websocket_connect(
            "/graphql", subprotocols=["graphql-transport-ws"], headers={"X-Request-ID": given}
        ) as ws:
            assert (b"x-request-id", given.encode()) in ws.extra_headers
        with http.websocket_connect("/graphql", subprotocols=["graphql-transport-ws"]) as ws:
            ids = [v for k, v in ws.extra_headers if k == b"x-request-id"]
            assert len(ids) == 1 and uuid.UUID(ids[0].decode())
