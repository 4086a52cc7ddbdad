"""CORS for web clients and VTT modules running in a browser: only the origins in RULEKEEPER_CORS_ORIGINS,
on REST and /graphql alike, preflight included; none by default."""

from __future__ import annotations

import dataclasses

import httpx
import pytest

from service.app import create_app
from service.settings import Settings

ALLOWED = "https://vtt.example.org"
OTHER = "https://evil.example.net"


@pytest.fixture
async def cors_client(embedded_settings):
    settings = dataclasses.replace(embedded_settings, cors_origins=(ALLOWED, "http://localhost:30000"))
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://rk.test") as c:
            yield c


def preflight(origin: str, method: str = "POST", headers: str = "authorization, content-type, idempotency-key"):
    return {"Origin": origin, "Access-Control-Request-Method": method, "Access-Control-Request-Headers": headers}


@pytest.mark.parametrize("path", ["/v1/campaigns", "/graphql"])
async def test_an_allowed_origin_passes_the_preflight(cors_client, path):
    r = await cors_client.options(path, headers=preflight(ALLOWED))
    assert r.status_code == 200
    assert r.headers["access-control-allow-origin"] == ALLOWED
    assert "POST" in r.headers["access-control-allow-methods"]
    allowed_headers = r.headers["access-control-allow-headers"].lower()
    assert {"authorization", "content-type", "idempotency-key"} <= {h.strip() for h in allowed_headers.split(",")}
    assert "access-control-allow-credentials" not in r.headers  # bearer tokens, never cookies


async def test_an_allowed_origin_may_read_a_rest_reply_and_its_etag(cors_client):
    created = await cors_client.post(
        "/v1/campaigns", json={"name": "Web", "system": "stepdice"}, headers={"Origin": ALLOWED}
    )
    assert created.status_code == 201 and created.headers["access-control-allow-origin"] == ALLOWED
    cid, gm = created.json()["campaign"]["id"], created.json()["gm_token"]
    state = await cors_client.get(
        f"/v1/campaigns/{cid}/state", headers={"Origin": ALLOWED, "Authorization": f"Bearer {gm}"}
    )
    assert state.headers["access-control-allow-origin"] == ALLOWED
    assert "etag" in state.headers["access-control-expose-headers"].lower()


async def test_an_allowed_origin_may_read_a_problem_too(cors_client):
    r = await cors_client.get("/v1/campaigns/nope/state", headers={"Origin": ALLOWED})
    assert r.status_code == 401 and r.headers["access-control-allow-origin"] == ALLOWED


async def test_an_allowed_origin_may_read_a_graphql_reply(cors_client):
    r = await cors_client.post("/graphql", json={"query": "{ systems { id } }"}, headers={"Origin": ALLOWED})
    assert r.status_code == 200 and r.headers["access-control-allow-origin"] == ALLOWED


@pytest.mark.parametrize("path", ["/v1/campaigns", "/graphql"])
async def test_another_origin_gets_no_cors_headers(cors_client, path):
    pre = await cors_client.options(path, headers=preflight(OTHER))
    assert "access-control-allow-origin" not in pre.headers and pre.status_code >= 400
    r = await cors_client.post(
        path,
        json={"query": "{ systems { id } }"} if path == "/graphql" else {"name": "x", "system": "stepdice"},
        headers={"Origin": OTHER},
    )
    assert "access-control-allow-origin" not in r.headers


@pytest.mark.parametrize("path", ["/v1/campaigns", "/graphql"])
async def test_by_default_no_origin_is_allowed(client, path):
    pre = await client.options(path, headers=preflight(ALLOWED))
    assert "access-control-allow-origin" not in pre.headers
    r = await client.post("/graphql", json={"query": "{ systems { id } }"}, headers={"Origin": ALLOWED})
    assert r.status_code == 200 and "access-control-allow-origin" not in r.headers


def test_the_allow_list_is_read_from_rulekeeper_cors_origins():
    s = Settings.from_env({"RULEKEEPER_CORS_ORIGINS": " https://VTT.example.org/ ,http://localhost:30000,, "})
    assert s.cors_origins == ("https://vtt.example.org", "http://localhost:30000")
    assert Settings.from_env({}).cors_origins == ()
    assert Settings.from_env({"RULEKEEPER_CORS_ORIGINS": "*"}).cors_origins == ("*",)


@pytest.mark.parametrize("bad", ["vtt.example.org", "https://vtt.example.org/app", "https://a.org?x=1"])
def test_an_entry_that_is_not_an_origin_is_refused_at_start(bad):
    with pytest.raises(ValueError, match="RULEKEEPER_CORS_ORIGINS"):
        Settings.from_env({"RULEKEEPER_CORS_ORIGINS": f"https://ok.example.org,{bad}"})
