"""Campaigns, players, characters and tokens, per API.md: 401 without a valid token, 403 for a forbidden act."""

from __future__ import annotations

from apikit import MAGE, ROGUE, WARRIOR, assert_problem, bearer, new_table


async def test_create_campaign_returns_gm_token_once_and_defaults_options(client):
    r = await client.post("/v1/campaigns", json={"name": "Kampania", "system": "stepdice"})
    assert r.status_code == 201
    body = r.json()
    assert body["gm_token"].startswith("rk_gm_")
    assert body["campaign"]["dice_mode"] == "server"
    assert body["campaign"]["options"]["use_talents"] is True
    got = await client.get(f"/v1/campaigns/{body['campaign']['id']}", headers=bearer(body["gm_token"]))
    assert got.status_code == 200
    assert "gm_token" not in got.json()
    assert got.json()["you"]["role"] == "gm"


async def test_unknown_option_is_422_naming_the_field(client):
    r = await client.post("/v1/campaigns", json={"name": "x", "system": "stepdice", "options": {"use_gird": True}})
    assert_problem(r, 422, "invalid_input", "options.use_gird")


async def test_unknown_system_is_422(client):
    r = await client.post("/v1/campaigns", json={"name": "x", "system": "chess"})
    assert_problem(r, 422, "invalid_input", "system")


async def test_malformed_json_is_400(client):
    r = await client.post("/v1/campaigns", content=b"{nope", headers={"content-type": "application/json"})
    assert_problem(r, 400, "invalid_json", "body")


async def test_missing_token_is_401_and_wrong_token_is_401(client):
    t = await new_table(client)
    assert_problem(await client.get(t.base), 401, "unauthorized")
    assert_problem(await client.get(t.base, headers=bearer("rk_gm_forged")), 401, "unauthorized")


async def test_a_token_of_another_campaign_is_401(client):
    a = await new_table(client)
    b = await new_table(client)
    assert_problem(await client.get(b.base, headers=bearer(a.gm)), 401, "unauthorized")


async def test_tokens_are_stored_hashed(app, client):
    from sqlalchemy import select

    from service.store.records.models import Credential

    t = await new_table(client)
    async with app.state.services.read() as s:
        hashes = list(await s.scalars(select(Credential.token_hash).where(Credential.campaign_id == t.id)))
    assert hashes and t.gm not in hashes and all(len(h) == 64 for h in hashes)


async def test_player_cannot_invite_players(client):
    t = await new_table(client)
    _, token = await t.invite("Ala")
    r = await client.post(f"{t.base}/players", json={"name": "Ola"}, headers=bearer(token))
    assert_problem(r, 403, "gm_only")


async def test_player_creates_own_character_and_gm_assigns_characters(client):
    t = await new_table(client)
    pid, token = await t.invite("Ala")
    r = await client.post(f"{t.base}/characters", json={"sheet": ROGUE}, headers=bearer(token))
    assert r.status_code == 201, r.text
    rogue = r.json()
    assert rogue["player_id"] == pid
    warrior = await t.character(WARRIOR)
    assert warrior["player_id"] is None
    r = await client.put(f"{t.base}/characters/{warrior['id']}/player", json={"player_id": pid}, headers=bearer(t.gm))
    assert r.status_code == 200 and r.json()["player_id"] == pid
    me = (await client.get(t.base, headers=bearer(token))).json()["you"]
    assert sorted(me["character_ids"]) == sorted([rogue["id"], warrior["id"]])


async def test_player_cannot_assign_characters_or_create_for_others(client):
    t = await new_table(client)
    pid, token = await t.invite("Ala")
    other, _ = await t.invite("Ola")
    mage = await t.character(MAGE)
    r = await client.put(f"{t.base}/characters/{mage['id']}/player", json={"player_id": pid}, headers=bearer(token))
    assert_problem(r, 403, "gm_only")
    r = await client.post(f"{t.base}/characters", json={"sheet": ROGUE, "player_id": other}, headers=bearer(token))
    assert_problem(r, 403, "not_your_character", "player_id")


async def test_assigning_to_an_unknown_player_is_422(client):
    t = await new_table(client)
    mage = await t.character(MAGE)
    r = await client.put(f"{t.base}/characters/{mage['id']}/player", json={"player_id": "nobody"}, headers=bearer(t.gm))
    assert_problem(r, 422, "unknown_player", "player_id")


async def test_validate_character_returns_the_completed_sheet_without_saving(client):
    t = await new_table(client)
    r = await client.post(f"{t.base}/characters/validate", json={"sheet": ROGUE}, headers=bearer(t.gm))
    assert r.status_code == 200, r.text
    assert r.json()["valid"] is True
    assert (await client.get(f"{t.base}/characters", headers=bearer(t.gm))).json()["items"] == []


async def test_invalid_sheet_is_422_naming_the_field(client):
    t = await new_table(client)
    bad = {**ROGUE, "talents": ["Scout"]}
    r = await client.post(f"{t.base}/characters", json={"sheet": bad}, headers=bearer(t.gm))
    body = assert_problem(r, 422, r.json()["code"])
    assert "talents" in (body.get("field") or "")


async def test_operator_key_guards_campaign_creation_when_set(tmp_path):
    import httpx

    from service.app import create_app
    from service.settings import Secret, Settings

    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/op.db", operator_key=Secret("s3cret")))
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
            body = {"name": "x", "system": "stepdice"}
            assert_problem(await c.post("/v1/campaigns", json=body), 401, "operator_key_required")
            assert (await c.post("/v1/campaigns", json=body, headers=bearer("s3cret"))).status_code == 201


async def test_event_log_pages_with_after_cursor(client):
    t = await new_table(client)
    for name in ("A", "B", "C"):
        await t.invite(name)
    first = await client.get(f"{t.base}/events", params={"limit": 2}, headers=bearer(t.gm))
    page = first.json()
    assert [e["type"] for e in page["items"]] == ["campaign_created", "player_invited"]
    assert page["has_more"] is True
    rest = (await client.get(f"{t.base}/events", params={"after": page["next_after"]}, headers=bearer(t.gm))).json()
    assert [e["seq"] for e in rest["items"]] == [3, 4]


async def test_bad_event_cursor_is_400(client):
    t = await new_table(client)
    r = await client.get(f"{t.base}/events", params={"after": "x"}, headers=bearer(t.gm))
    assert_problem(r, 400, "invalid_query", "after")


async def test_unknown_route_is_problem_404(client):
    assert_problem(await client.get("/v1/nothing"), 404, "not_found")


async def test_control_characters_in_names_are_422_not_a_database_error(client):
    r = await client.post("/v1/campaigns", json={"name": "bad\u0000name", "system": "stepdice"})
    assert_problem(r, 422, "invalid_input", "name")
    t = await new_table(client)
    r = await client.post(
        f"{t.base}/characters", json={"sheet": {**ROGUE, "name": "Sz\u0000ept"}}, headers=bearer(t.gm)
    )
    assert r.status_code == 422, r.text


async def test_out_of_range_cursor_and_session_number_are_4xx(client):
    t = await new_table(client, dice_mode="verifiable")
    assert_problem(
        await client.get(f"{t.base}/events", params={"after": 2**40}, headers=bearer(t.gm)),
        400,
        "invalid_query",
        "after",
    )
    r = await client.get(f"{t.base}/dice-sessions/{2**40}/verification", headers=bearer(t.gm))
    assert_problem(r, 404, "not_found")
