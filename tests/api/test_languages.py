"""Languages over both APIs (docs/frontend.md, Languages): Accept-Language first, then the player's own language, then
the campaign's default, then English; details, event descriptions and rule terms follow it; codes, types
and field names never do."""

from __future__ import annotations

import asyncio
import dataclasses
import json

import httpx
import pytest
import websockets
from apikit import ROGUE, assert_problem, bearer, new_table

from service.i18n.describe import describe
from service.i18n.message import _
from service.i18n.render import render

NOT_VALID = _("the bearer token is not valid for this campaign")
ONLY_GM = _("only a GM of this campaign may do this")


@pytest.fixture
def settings(settings):
    """Webhooks may point at loopback: the webhook test reads the body the outbox wrote, never a delivery."""
    return dataclasses.replace(settings, webhooks_allow_loopback=True, webhooks_max_attempts=1)


def lang(code: str) -> dict[str, str]:
    return {"Accept-Language": code}


async def gql(
    client, query: str, variables: dict | None = None, token: str | None = None, headers: dict[str, str] | None = None
) -> dict:
    r = await client.post(
        "/graphql",
        json={"query": query, "variables": variables or {}},
        headers={**(bearer(token) if token else {}), **(headers or {})},
    )
    assert r.status_code == 200, r.text
    return r.json()


def keys(value) -> object:
    """The shape of a JSON value: its field names all the way down, without the text."""
    if isinstance(value, dict):
        return {k: keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [keys(v) for v in value]
    return type(value).__name__


def test_the_catalogue_speaks_polish_and_russian():
    assert render(NOT_VALID, "pl") != str(NOT_VALID) != render(NOT_VALID, "ru")
    assert render(NOT_VALID, "en") == "the bearer token is not valid for this campaign"


async def test_accept_language_picks_the_problem_detail_and_keeps_the_code(client):
    t = await new_table(client)
    answers = {}
    for code in ("en", "pl-PL,pl;q=0.9", "ru;q=0.8, de"):
        r = await client.get(t.base, headers={**bearer("rk_gm_forged"), **lang(code)})
        answers[code] = assert_problem(r, 401, "unauthorized")
        assert "Accept-Language" in r.headers["vary"]
    assert answers["en"]["detail"] == str(NOT_VALID)
    assert answers["pl-PL,pl;q=0.9"]["detail"] == render(NOT_VALID, "pl")
    assert answers["ru;q=0.8, de"]["detail"] == render(NOT_VALID, "ru")
    assert len({a["title"] for a in answers.values()}) == 3
    assert len({keys(a) == keys(answers["en"]) for a in answers.values()}) == 1


async def test_q_values_rank_the_languages(client):
    r = await client.get("/v1/systems", headers=lang("en;q=0.2, ru;q=0.9, pl;q=0.5"))
    assert r.headers["content-language"] == "ru"
    r = await client.get("/v1/systems", headers=lang("de, fr;q=0.9"))
    assert r.headers["content-language"] == "en"


async def test_the_campaign_default_applies_without_a_header_and_the_gm_changes_it(client):
    r = await client.post("/v1/campaigns", json={"name": "Kampania", "system": "stepdice", "language": "pl"})
    assert r.status_code == 201, r.text
    campaign, gm = r.json()["campaign"], r.json()["gm_token"]
    assert campaign["language"] == "pl"
    base = f"/v1/campaigns/{campaign['id']}"
    _, player = await _invite(client, base, gm)
    refused = await client.post(f"{base}/players", json={"name": "Ola"}, headers=bearer(player))
    assert assert_problem(refused, 403, "gm_only")["detail"] == render(ONLY_GM, "pl")
    assert refused.headers["content-language"] == "pl"

    changed = await client.put(f"{base}/language", json={"language": "ru"}, headers=bearer(gm))
    assert changed.status_code == 200, changed.text
    assert changed.json()["language"] == "ru" and changed.headers["content-language"] == "ru"
    refused = await client.post(f"{base}/players", json={"name": "Ola"}, headers=bearer(player))
    assert assert_problem(refused, 403, "gm_only")["detail"] == render(ONLY_GM, "ru")
    # The header of the request still comes first.
    refused = await client.post(f"{base}/players", json={"name": "Ola"}, headers={**bearer(player), **lang("en")})
    assert assert_problem(refused, 403, "gm_only")["detail"] == str(ONLY_GM)

    log = (await client.get(f"{base}/events", headers=bearer(gm))).json()["items"]
    assert log[-1]["type"] == "campaign_language_changed" and log[-1]["data"] == {"language": "ru"}


async def test_only_the_gm_changes_the_campaign_language(client):
    t = await new_table(client)
    _, player = await t.invite("Ala")
    assert_problem(
        await client.put(f"{t.base}/language", json={"language": "pl"}, headers=bearer(player)), 403, "gm_only"
    )
    assert_problem(
        await client.put(f"{t.base}/language", json={"language": "de"}, headers=bearer(t.gm)),
        422,
        "invalid_input",
        "language",
    )


async def _invite(client, base: str, gm: str) -> tuple[str, str]:
    r = await client.post(f"{base}/players", json={"name": "Ala"}, headers=bearer(gm))
    assert r.status_code == 201, r.text
    return r.json()["player"]["id"], r.json()["token"]


async def test_a_players_own_language_beats_the_campaigns_and_is_theirs_alone(client):
    t = await new_table(client)
    ala, ala_token = await t.invite("Ala")
    ola, ola_token = await t.invite("Ola")
    r = await client.put(f"{t.base}/players/{ala}/language", json={"language": "ru"}, headers=bearer(ala_token))
    assert r.status_code == 200 and r.json() == {"id": ala, "name": "Ala", "language": "ru"}
    assert_problem(
        await client.put(f"{t.base}/players/{ala}/language", json={"language": "pl"}, headers=bearer(ola_token)),
        403,
        "forbidden",
        "player_id",
    )
    assert_problem(
        await client.put(f"{t.base}/players/{ala}/language", json={"language": "pl"}, headers=bearer(t.gm)),
        403,
        "forbidden",
        "player_id",
    )

    for token, expected in ((ala_token, "ru"), (ola_token, "en"), (t.gm, "en")):
        refused = await client.post(f"{t.base}/players", json={"name": "X"}, headers=bearer(token))
        if token == t.gm:
            assert refused.status_code == 201
            continue
        assert assert_problem(refused, 403, "gm_only")["detail"] == render(ONLY_GM, expected)
    players = (await client.get(t.base, headers=bearer(t.gm))).json()["players"]
    assert {p["id"]: p["language"] for p in players}[ala] == "ru"
    cleared = await client.put(f"{t.base}/players/{ala}/language", json={"language": None}, headers=bearer(ala_token))
    assert cleared.json()["language"] is None and cleared.headers["content-language"] == "en"


async def test_system_terms_follow_the_language_and_the_codes_do_not(client):
    by_language = {}
    for code in ("en", "pl", "ru"):
        r = await client.get("/v1/systems", headers=lang(code))
        by_language[code] = {s["id"]: s for s in r.json()["items"]}
    en, pl, ru = by_language["en"], by_language["pl"], by_language["ru"]
    for system in en:
        assert en[system]["actions"] == pl[system]["actions"] == ru[system]["actions"]
        assert en[system]["options"] == pl[system]["options"] == ru[system]["options"]
        assert set(pl[system]["action_labels"]) == set(en[system]["actions"])
        assert set(ru[system]["option_labels"]) == set(en[system]["options"])
    # The rulebooks' own words: the Russian rulebook's danger pool, the Polish one's light-side tokens.
    assert ru["danger_pool"]["name"] == "Пул опасности"
    assert pl["danger_pool"]["action_labels"]["bail_out"] != en["danger_pool"]["action_labels"]["bail_out"]
    assert pl["trikus"]["action_labels"]["award_light_token"] == "Przyznanie Sztonu Jasnej Strony"
    assert ru["danger_pool"]["action_labels"]["bail_out"] == "Сматывать удочки"


async def test_event_descriptions_are_in_the_readers_language(client):
    t = await new_table(client)
    ala, ala_token = await t.invite("Ala")
    await client.put(f"{t.base}/players/{ala}/language", json={"language": "pl"}, headers=bearer(ala_token))
    await t.character(ROGUE, ala)
    gm_log = await t.events()
    pl_log = await t.events(ala_token)
    ru_log = (await client.get(f"{t.base}/events", headers={**bearer(ala_token), **lang("ru")})).json()["items"]
    invited = [e for e in gm_log if e["type"] == "player_invited"][0]
    assert invited["description"] == describe("player_invited", invited["data"], "en") == "Player Ala invited"
    for log, code in ((pl_log, "pl"), (ru_log, "ru")):
        assert [e["type"] for e in log] == [e["type"] for e in gm_log]
        assert [e["data"] for e in log] == [e["data"] for e in gm_log]
        for event in log:
            assert event["description"] == describe(event["type"], event["data"], code)
        assert log[1]["description"] != invited["description"]


async def test_graphql_honours_accept_language_and_the_stored_languages(client):
    created = (
        await gql(
            client,
            """mutation { createCampaign(input: {name: "K", system: danger_pool,
        language: ru}) { gmToken campaign { id language } } }""",
        )
    )["data"]["createCampaign"]
    cid, gm = created["campaign"]["id"], created["gmToken"]
    assert created["campaign"]["language"] == "ru"
    invite = 'mutation($c: ID!) { invitePlayer(input: {campaignId: $c, name: "Ala"}) { player { id } token } }'
    player = (await gql(client, invite, {"c": cid}, gm))["data"]["invitePlayer"]

    refused = await gql(client, invite, {"c": cid}, player["token"])
    assert refused["errors"][0]["message"] == render(ONLY_GM, "ru")
    assert refused["errors"][0]["extensions"]["code"] == "gm_only"
    refused = await gql(client, invite, {"c": cid}, player["token"], headers=lang("pl"))
    assert refused["errors"][0]["message"] == render(ONLY_GM, "pl")
    assert refused["errors"][0]["extensions"]["code"] == "gm_only"

    set_mine = """mutation($c: ID!, $p: ID!, $l: CampaignLanguage) {
        setPlayerLanguage(input: {campaignId: $c, playerId: $p, language: $l}) { id language } }"""
    mine = await gql(client, set_mine, {"c": cid, "p": player["player"]["id"], "l": "en"}, player["token"])
    assert mine["data"]["setPlayerLanguage"]["language"] == "en"
    refused = await gql(client, invite, {"c": cid}, player["token"])
    assert refused["errors"][0]["message"] == str(ONLY_GM)
    changed = await gql(
        client,
        """mutation($c: ID!) { setCampaignLanguage(input: {campaignId: $c, language: pl})
        { language } }""",
        {"c": cid},
        gm,
    )
    assert changed["data"]["setCampaignLanguage"]["language"] == "pl"

    systems = "{ systems { id name actions actionLabels { key value } optionLabels { key value } } }"
    en = {s["id"]: s for s in (await gql(client, systems))["data"]["systems"]}
    ru = {s["id"]: s for s in (await gql(client, systems, headers=lang("ru")))["data"]["systems"]}
    assert ru["danger_pool"]["name"] == "Пул опасности" and en["danger_pool"]["name"] == "Danger Pool"
    assert ru["danger_pool"]["actions"] == en["danger_pool"]["actions"]
    labels = {e["key"]: e["value"] for e in ru["danger_pool"]["actionLabels"]}
    assert set(labels) == set(en["danger_pool"]["actions"]) and labels != {
        e["key"]: e["value"] for e in en["danger_pool"]["actionLabels"]
    }

    events = """query($c: ID!) { events(campaignId: $c) { edges { node { type description } } } }"""
    ru_events = [
        e["node"] for e in (await gql(client, events, {"c": cid}, gm, headers=lang("ru")))["data"]["events"]["edges"]
    ]
    en_events = [
        e["node"] for e in (await gql(client, events, {"c": cid}, gm, headers=lang("en")))["data"]["events"]["edges"]
    ]
    assert [e["type"] for e in ru_events] == [e["type"] for e in en_events]
    assert ru_events[0]["description"] != en_events[0]["description"]


async def test_graphql_validation_errors_are_rendered_per_request(client):
    """The ValidationCache keeps the error first made for a document: each reply still speaks its caller's
    language."""
    document = 'mutation { invitePlayer(input: {campaignId: "x", name: "\\u0000"}) { token } }'
    first = await gql(client, document, headers=lang("pl"))
    again = await gql(client, document, headers=lang("en"))
    assert first["errors"][0]["extensions"]["code"] == again["errors"][0]["extensions"]["code"]
    assert again["errors"][0]["message"] == str(_("a string may not contain NUL or unpaired surrogates"))
    assert first["errors"][0]["message"] == render(_("a string may not contain NUL or unpaired surrogates"), "pl")


async def test_a_webhook_body_speaks_the_campaigns_language_whoever_made_the_move(client):
    r = await client.post("/v1/campaigns", json={"name": "K", "system": "stepdice", "language": "ru"})
    base, gm = f"/v1/campaigns/{r.json()['campaign']['id']}", r.json()["gm_token"]
    hook = await client.post(f"{base}/webhooks", json={"url": "http://127.0.0.1:9/hook"}, headers=bearer(gm))
    assert hook.status_code == 201, hook.text
    invited = await client.post(f"{base}/players", json={"name": "Ala"}, headers={**bearer(gm), **lang("pl")})
    assert invited.status_code == 201 and invited.headers["content-language"] == "pl"
    listed = await client.get(f"{base}/webhooks/{hook.json()['id']}/deliveries", headers=bearer(gm))
    (delivery,) = listed.json()["items"]
    detail = await client.get(f"{base}/webhooks/{hook.json()['id']}/deliveries/{delivery['id']}", headers=bearer(gm))
    body = detail.json()["payload"]
    body = json.loads(body) if isinstance(body, str) else body
    assert body["type"] == "player_invited"
    assert body["data"]["description"] == describe("player_invited", {"name": "Ala"}, "ru") == "Приглашён игрок Ala"


async def _subscribed_descriptions(
    live_server: str, token: str, campaign_id: str, headers: dict[str, str]
) -> list[str]:
    query = "subscription($c: ID!) { campaignEvents(campaignId: $c, after: 0) { seq type description } }"
    url = live_server.replace("http://", "ws://", 1) + "/graphql"
    async with websockets.connect(
        url, subprotocols=["graphql-transport-ws"], additional_headers=headers, open_timeout=10
    ) as ws:
        await ws.send(json.dumps({"type": "connection_init", "payload": {"authorization": f"Bearer {token}"}}))
        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "connection_ack"
        await ws.send(
            json.dumps({"id": "1", "type": "subscribe", "payload": {"query": query, "variables": {"c": campaign_id}}})
        )
        got = []
        while len(got) < 2:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert msg["type"] == "next" and not msg["payload"].get("errors"), msg
            got.append(msg["payload"]["data"]["campaignEvents"]["description"])
        return got


async def test_a_subscription_speaks_the_handshakes_language_or_the_campaigns(live_server):
    async with httpx.AsyncClient(base_url=live_server) as http:
        r = await http.post("/v1/campaigns", json={"name": "K", "system": "stepdice", "language": "pl"})
        cid, gm = r.json()["campaign"]["id"], r.json()["gm_token"]
        invited = await http.post(f"/v1/campaigns/{cid}/players", json={"name": "Ala"}, headers=bearer(gm))
        assert invited.status_code == 201
    polish = await _subscribed_descriptions(live_server, gm, cid, {})
    russian = await _subscribed_descriptions(live_server, gm, cid, lang("ru"))
    assert polish[1] == "Zaproszono gracza Ala"
    assert russian[1] == "Приглашён игрок Ala"


async def test_the_routers_own_refusals_are_translated_too(client):
    r = await client.get("/v1/no-such-thing", headers=lang("pl"))
    assert assert_problem(r, 404, "not_found")["detail"] == "Nie znaleziono"
    r = await client.post(
        "/graphql", content=b'{"variables": {}}', headers={"content-type": "application/json", **lang("ru")}
    )
    assert r.json()["detail"] == "В запросе нет запроса GraphQL"


async def test_export_and_import_keep_the_campaigns_and_the_players_languages(client):
    r = await client.post("/v1/campaigns", json={"name": "K", "system": "stepdice", "language": "pl"})
    base, gm = f"/v1/campaigns/{r.json()['campaign']['id']}", r.json()["gm_token"]
    invited = await client.post(f"{base}/players", json={"name": "Ala"}, headers=bearer(gm))
    ala, token = invited.json()["player"]["id"], invited.json()["token"]
    await client.put(f"{base}/players/{ala}/language", json={"language": "ru"}, headers=bearer(token))
    doc = (await client.get(f"{base}/export", headers=bearer(gm))).json()
    imported = await client.post("/v1/campaigns/import", json=doc)
    assert imported.status_code == 201, imported.text
    assert imported.json()["campaign"]["language"] == "pl"
    assert [p["player"]["language"] for p in imported.json()["players"]] == ["ru"]


async def test_a_rule_refusal_speaks_the_callers_language_with_the_same_code(client):
    t = await new_table(client)
    refusals = {}
    for code in ("en", "pl", "ru"):
        r = await t.act({"type": "end_encounter", "outcome": "victory"}, headers=lang(code))
        refusals[code] = assert_problem(r, 409, "no_encounter")
    assert refusals["en"]["detail"] == "no combat encounter is open"
    assert refusals["pl"]["detail"] == "żadna walka nie jest otwarta"
    assert refusals["ru"]["detail"] == "нет открытого боя"
    assert {k for k in refusals["pl"]} == {k for k in refusals["en"]} == {k for k in refusals["ru"]}
    act = """mutation($c: ID!) { act(input: {campaignId: $c, action: {stepdice: {endEncounter: {outcome: victory}}}})
        { version } }"""
    over_graphql = await gql(client, act, {"c": t.id}, t.gm, headers=lang("ru"))
    assert over_graphql["errors"][0]["message"] == "нет открытого боя"
    assert over_graphql["errors"][0]["extensions"]["code"] == "no_encounter"


async def test_a_players_own_language_reaches_the_move_path(client):
    """A move reads who is asking in one statement of its own (service/game/moves/access.py): the player's language
    comes with it."""
    t = await new_table(client)
    ala, token = await t.invite("Ala")
    await client.put(f"{t.base}/players/{ala}/language", json={"language": "pl"}, headers=bearer(token))
    polish = await t.act({"type": "end_encounter", "outcome": "victory"}, token=token)
    english = await t.act({"type": "end_encounter", "outcome": "victory"}, token=token, headers=lang("en"))
    assert polish.headers["content-language"] == "pl" and english.headers["content-language"] == "en"
    assert assert_problem(polish, 403, "gm_only")["detail"] != assert_problem(english, 403, "gm_only")["detail"]


async def test_an_answer_that_varies_with_more_than_the_language_says_all_of_it_once(client):
    """A gzipped answer varies with Accept-Encoding as well (GZipMiddleware), and every answer with Origin (CORS)."""
    r = await client.get("/v1/systems", headers={"Accept-Encoding": "gzip", **lang("pl")})
    assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
    assert r.headers.get_list("vary") == ["Origin, Accept-Encoding, Accept-Language"]
    assert r.headers.get_list("content-language") == ["pl"]
