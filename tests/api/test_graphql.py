"""GraphQL: the same application layer as REST, camelCase names, errors carrying the REST `code`."""

from __future__ import annotations

import asyncio

from apikit import ROGUE, bearer, gql_action, new_table


async def gql(client, query: str, variables: dict | None = None, token: str | None = None) -> dict:
    r = await client.post(
        "/graphql", json={"query": query, "variables": variables or {}}, headers=bearer(token) if token else {}
    )
    assert r.status_code == 200, r.text
    return r.json()


CREATE = """mutation($input: CreateCampaignInput!) {
  createCampaign(input: $input) { gmToken campaign { id system diceMode
    options { __typename ... on StepDiceOptions { useArmorTokens } } } } }"""


async def test_graphql_is_served_at_the_exact_path_without_redirect(client):
    r = await client.post("/graphql", json={"query": "{ systems { id actions } }"})
    assert r.status_code == 200
    assert r.json()["data"]["systems"][0]["id"] == "stepdice"


async def test_create_campaign_invite_and_read_through_graphql(client):
    out = await gql(
        client,
        CREATE,
        {
            "input": {
                "name": "G",
                "system": "stepdice",
                "diceMode": "table",
                "options": {"stepdice": {"useArmorTokens": True}},
            }
        },
    )
    camp = out["data"]["createCampaign"]
    assert camp["campaign"]["diceMode"] == "table" and camp["campaign"]["system"] == "stepdice"
    assert camp["campaign"]["options"] == {"__typename": "StepDiceOptions", "useArmorTokens": True}
    cid, gm = camp["campaign"]["id"], camp["gmToken"]
    inv = await gql(
        client,
        """mutation($i: InvitePlayerInput!) { invitePlayer(input: $i) { token player { id name } } }""",
        {"i": {"campaignId": cid, "name": "Ala"}},
        gm,
    )
    assert inv["data"]["invitePlayer"]["player"]["name"] == "Ala"
    q = await gql(
        client, """query($id: ID!) { campaign(id: $id) { name players { name } you { role } } }""", {"id": cid}, gm
    )
    assert q["data"]["campaign"] == {"name": "G", "players": [{"name": "Ala"}], "you": {"role": "gm"}}


async def test_graphql_errors_carry_the_rest_code(client):
    t = await new_table(client)
    out = await gql(client, """query($id: ID!) { campaign(id: $id) { name } }""", {"id": t.id})
    assert out["errors"][0]["extensions"]["code"] == "unauthorized"
    bad = await gql(client, CREATE, {"input": {"name": "", "system": "stepdice"}})
    assert bad["errors"][0]["extensions"]["code"] == "invalid_input"
    assert bad["errors"][0]["extensions"]["field"] == "name"


async def test_roll_expression_and_event_log_through_graphql(client):
    t = await new_table(client, dice_mode="table")
    out = await gql(
        client,
        """mutation($i: RollInput!) { rollExpression(input: $i) { total text dice { face source } } }""",
        {"i": {"campaignId": t.id, "expression": "2d6+1", "dice": [2, 5]}},
        t.gm,
    )
    roll = out["data"]["rollExpression"]
    assert roll["total"] == 8 and [d["face"] for d in roll["dice"]] == [2, 5]
    ev = await gql(
        client, """query($c: ID!) { events(campaignId: $c) { edges { node { seq type } } } }""", {"c": t.id}, t.gm
    )
    assert [e["node"]["type"] for e in ev["data"]["events"]["edges"]][-2:] == ["dice_rolled", "expression_rolled"]


async def test_campaign_events_subscription_streams_the_log(app, client):
    from service.api.graphql.schema import schema

    t = await new_table(client)
    await t.invite("Ala")
    ctx = {"services": app.state.services, "token": t.gm, "request": None, "response": None}
    stream = await schema.subscribe(
        "subscription($c: ID!) { campaignEvents(campaignId: $c) { seq type } }",
        variable_values={"c": t.id},
        context_value=ctx,
    )
    got = []
    async for result in stream:
        got.append(result.data["campaignEvents"]["type"])
        if len(got) == 2:
            break
    await asyncio.sleep(0)
    assert got == ["campaign_created", "player_invited"]


def test_campaign_events_over_websocket_graphql_transport_ws(embedded_settings):
    """The subscription over a real WebSocket, the token passed in connection_init as browsers must."""
    from starlette.testclient import TestClient

    from service.app import create_app

    app = create_app(embedded_settings)
    with TestClient(app) as http:
        created = http.post("/v1/campaigns", json={"name": "ws", "system": "stepdice"}).json()
        cid, gm = created["campaign"]["id"], created["gm_token"]
        with http.websocket_connect("/graphql", subprotocols=["graphql-transport-ws"]) as ws:
            ws.send_json({"type": "connection_init", "payload": {"authorization": f"Bearer {gm}"}})
            assert ws.receive_json()["type"] == "connection_ack"
            ws.send_json(
                {
                    "id": "1",
                    "type": "subscribe",
                    "payload": {
                        "query": "subscription($c: ID!) { campaignEvents(campaignId: $c) { seq type } }",
                        "variables": {"c": cid},
                    },
                }
            )
            first = ws.receive_json()
            assert first["type"] == "next" and first["payload"]["data"]["campaignEvents"] == {
                "seq": 1,
                "type": "campaign_created",
            }
            http.post(f"/v1/campaigns/{cid}/players", json={"name": "Ala"}, headers={"Authorization": f"Bearer {gm}"})
            second = ws.receive_json()
            assert second["payload"]["data"]["campaignEvents"]["type"] == "player_invited"
            ws.send_json({"id": "1", "type": "complete"})


def test_subscription_without_a_token_is_refused_with_the_rest_code(embedded_settings):
    from starlette.testclient import TestClient

    from service.app import create_app

    app = create_app(embedded_settings)
    with TestClient(app) as http:
        cid = http.post("/v1/campaigns", json={"name": "ws", "system": "stepdice"}).json()["campaign"]["id"]
        with http.websocket_connect("/graphql", subprotocols=["graphql-transport-ws"]) as ws:
            ws.send_json({"type": "connection_init", "payload": {}})
            assert ws.receive_json()["type"] == "connection_ack"
            ws.send_json(
                {
                    "id": "1",
                    "type": "subscribe",
                    "payload": {
                        "query": "subscription($c: ID!) { campaignEvents(campaignId: $c) { seq } }",
                        "variables": {"c": cid},
                    },
                }
            )
            msg = ws.receive_json()
            assert msg["type"] in {"error", "next"}
            errors = msg["payload"] if msg["type"] == "error" else msg["payload"]["errors"]
            assert errors[0]["extensions"]["code"] == "unauthorized"


async def test_graphql_writes_honour_idempotency_key(client):
    t = await new_table(client, dice_mode="server")
    q = """mutation($i: RollInput!) { rollExpression(input: $i) { total dice { face } } }"""
    h = {**bearer(t.gm), "Idempotency-Key": "gql-roll-1"}
    body = {"query": q, "variables": {"i": {"campaignId": t.id, "expression": "6d20"}}}
    first = (await client.post("/graphql", json=body, headers=h)).json()
    again = (await client.post("/graphql", json=body, headers=h)).json()
    assert "errors" not in first and first == again
    logged = [e for e in await t.events() if e["type"] == "expression_rolled"]
    assert len(logged) == 1


EVENTS = """query($c: ID!, $after: String, $first: Int!) { events(campaignId: $c, after: $after, first: $first) {
  edges { cursor node { seq type } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }"""


async def test_events_are_a_relay_connection_read_page_by_page_with_end_cursor(client):
    t = await new_table(client)
    for name in ("Ala", "Olek", "Ewa"):
        await t.invite(name)
    seen, after = [], None
    while True:
        page = (await gql(client, EVENTS, {"c": t.id, "after": after, "first": 2}, t.gm))["data"]["events"]
        seen += [e["node"]["seq"] for e in page["edges"]]
        if page["edges"]:
            assert page["pageInfo"]["endCursor"] == page["edges"][-1]["cursor"]
        assert page["pageInfo"]["hasPreviousPage"] is (after is not None)
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert seen == [e["seq"] for e in await t.events()] and len(seen) == 4


async def test_an_events_cursor_the_service_did_not_issue_is_refused(client):
    t = await new_table(client)
    out = await gql(client, EVENTS, {"c": t.id, "after": "42", "first": 2}, t.gm)
    assert (out["errors"][0]["extensions"]["code"], out["errors"][0]["extensions"]["field"]) == (
        "invalid_query",
        "after",
    )


ACT = """mutation($i: ActInput!) { act(input: $i) { version events { type } state { __typename } } }"""


async def test_a_move_is_a_one_of_input_per_system_and_move_type(client):
    t = await new_table(client)
    out = await gql(
        client, ACT, {"i": {"campaignId": t.id, "action": {"stepdice": {"createEncounter": {"label": "Gate"}}}}}, t.gm
    )
    assert "errors" not in out, out
    assert "encounter_created" in [e["type"] for e in out["data"]["act"]["events"]]
    # A move without fields is sent as `true`; it reaches the rules like any other.
    out = await gql(client, ACT, {"i": {"campaignId": t.id, "action": {"stepdice": {"startEncounter": True}}}}, t.gm)
    assert out["errors"][0]["extensions"]["code"] == "encounter_needs_combatants"


async def test_a_move_naming_two_systems_or_two_moves_is_refused_by_the_schema(client):
    t = await new_table(client)
    both = {"stepdice": {"gmNote": {"text": "a"}}, "trikus": {"gmNote": {"text": "b"}}}
    out = await gql(client, ACT, {"i": {"campaignId": t.id, "action": both}}, t.gm)
    assert out["errors"] and "exactly one" in out["errors"][0]["message"]
    two = {"stepdice": {"gmNote": {"text": "a"}, "startEncounter": True}}
    out = await gql(client, ACT, {"i": {"campaignId": t.id, "action": two}}, t.gm)
    assert out["errors"] and "exactly one" in out["errors"][0]["message"]
    assert [e["type"] for e in await t.events()].count("gm_note") == 0


async def test_a_move_of_another_system_is_refused_with_system_mismatch(client):
    t = await new_table(client)
    out = await gql(
        client,
        ACT,
        {"i": {"campaignId": t.id, "action": gql_action("trikus", {"type": "gm_note", "text": "hello"})}},
        t.gm,
    )
    assert out["errors"][0]["extensions"]["code"] == "system_mismatch"
    assert out["errors"][0]["extensions"]["field"] == "system"


async def test_a_sheet_is_a_one_of_input_and_comes_back_typed_by_system(client):
    t = await new_table(client)
    sheet = {
        "stepdice": {
            "name": ROGUE["name"],
            "role": ROGUE["role"],
            "talents": ROGUE["talents"],
            "equipment": ROGUE["equipment"],
        }
    }
    q = """mutation($i: CreateCharacterInput!) { createCharacter(input: $i) {
        character { id name sheet { __typename } } } }"""
    out = await gql(client, q, {"i": {"campaignId": t.id, "sheet": sheet}}, t.gm)
    assert "errors" not in out, out
    assert out["data"]["createCharacter"]["character"]["name"] == ROGUE["name"]
    wrong = await gql(
        client, q, {"i": {"campaignId": t.id, "sheet": {"trikus": {"name": "X", "tier": "beginner"}}}}, t.gm
    )
    assert wrong["errors"][0]["extensions"]["code"] in {"system_mismatch", "graphql_validation_failed"}


async def test_enums_refuse_an_unknown_system_or_dice_mode(client):
    out = await gql(client, CREATE, {"input": {"name": "G", "system": "chess"}})
    assert out["errors"][0]["extensions"]["code"] == "graphql_validation_failed"
    out = await gql(client, CREATE, {"input": {"name": "G", "system": "stepdice", "diceMode": "loaded"}})
    assert out["errors"][0]["extensions"]["code"] == "graphql_validation_failed"


async def test_options_of_another_system_are_refused_with_system_mismatch(client):
    out = await gql(client, CREATE, {"input": {"name": "G", "system": "stepdice", "options": {"trikus": {}}}})
    assert out["errors"][0]["extensions"]["code"] == "system_mismatch"


async def test_null_options_are_the_spec_s_defaults_as_omitted_ones_are(client):
    out = await gql(client, CREATE, {"input": {"name": "G", "system": "stepdice", "options": None}})
    assert "errors" not in out, out
    assert out["data"]["createCampaign"]["campaign"]["options"]["useArmorTokens"] is False


async def test_a_nullable_field_left_out_is_null_as_graphql_reads_it(client):
    created = (await gql(client, CREATE, {"input": {"name": "G", "system": "stepdice", "language": "pl"}}))["data"]
    cid, gm = created["createCampaign"]["campaign"]["id"], created["createCampaign"]["gmToken"]
    invite = 'mutation($c: ID!) { invitePlayer(input: {campaignId: $c, name: "Ala"}) { player { id } token } }'
    player = (await gql(client, invite, {"c": cid}, gm))["data"]["invitePlayer"]
    mutation = """mutation($i: SetPlayerLanguageInput!) { setPlayerLanguage(input: $i) { language } }"""
    ids = {"campaignId": cid, "playerId": player["player"]["id"]}
    chosen = await gql(client, mutation, {"i": {**ids, "language": "ru"}}, player["token"])
    assert chosen["data"]["setPlayerLanguage"]["language"] == "ru"
    left_out = await gql(client, mutation, {"i": ids}, player["token"])
    assert left_out["data"]["setPlayerLanguage"]["language"] is None
