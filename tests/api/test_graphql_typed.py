"""GraphQL's per-system types: the table, sheets and event payloads come back as the system's own types (for the
GM and for a player, whose view is redacted), with the same values as REST."""

from __future__ import annotations

import logging

from apikit import bearer
from test_danger_pool_play import danger_table

from service.game.log.serviceevents import SERVICE_EVENTS
from service.api.systemmodels import MODELS, NAMES

TYPED = """query($c: ID!) {
  state(campaignId: $c) { version state { __typename ... on DangerPoolState {
    table { awaiting { who characterId may until } gmNotes } characters { key } } } }
  characters(campaignId: $c) { id sheet { __typename } }
  events(campaignId: $c, first: 500) { edges { node { type data { __typename } } } }
}"""


async def gql(client, query: str, variables: dict, token: str) -> dict:
    r = await client.post("/graphql", json={"query": query, "variables": variables}, headers=bearer(token))
    assert r.status_code == 200, r.text
    body = r.json()
    assert "errors" not in body, body
    return body["data"]


def camel_entry(entry: dict) -> dict:
    return {"who": entry["who"], "characterId": entry["character_id"], "may": entry["may"], "until": entry.get("until")}


async def test_the_danger_pool_table_sheets_and_events_are_typed_for_gm_and_player(client, caplog):
    t, cid, token = await danger_table(client)
    await t.ok({"type": "create_action_scene", "goal": "crack the safe", "leader_id": cid, "team": [cid]})
    await t.ok({"type": "add_element", "text": "SECRET guard dog"})
    with caplog.at_level(logging.WARNING, logger="rulekeeper.graphql"):
        for who in (t.gm, token):
            data = await gql(client, TYPED, {"c": t.id}, who)
            state = data["state"]["state"]
            assert state["__typename"] == "DangerPoolState"
            rest = (await t.state(who))["state"]
            assert state["table"]["awaiting"] == [camel_entry(e) for e in rest["table"]["awaiting"]]
            assert [c["key"] for c in state["characters"]] == list(rest["characters"])
            assert [c["sheet"]["__typename"] for c in data["characters"]] == [NAMES[MODELS["danger_pool"].sheet]]
            typed = {e["node"]["type"]: e["node"]["data"]["__typename"] for e in data["events"]["edges"]}
            models = MODELS["danger_pool"].events
            for event_type, name in typed.items():
                expected = NAMES[models[event_type]] if event_type in models else SERVICE_EVENTS[event_type].__name__
                assert name == expected, event_type
            assert any(name != "Untyped" for name in typed.values())
            assert "SECRET" not in str(data) or who == t.gm
    # Every view matched its model: nothing fell back to Untyped with a warning.
    assert [r.getMessage() for r in caplog.records] == []


async def test_options_come_back_as_the_systems_options_type(client):
    t, _, _ = await danger_table(client)
    q = """query($id: ID!) { campaign(id: $id) { system diceMode options { __typename } you { role } } }"""
    data = await gql(client, q, {"id": t.id}, t.gm)
    assert data["campaign"] == {
        "system": "danger_pool",
        "diceMode": "table",
        "options": {"__typename": "DangerPoolOptions"},
        "you": {"role": "gm"},
    }


async def test_maps_and_mixed_values_go_in_and_come_back_typed(client):
    """A map is a list of `{key, value}` entries both ways, and a value of several shapes (`int` or
    `"unlimited"`) an object with the one field of its shape set (a `@oneOf` input), as the SDL says."""
    created = await gql(
        client,
        """mutation($i: CreateCampaignInput!) { createCampaign(input: $i) { gmToken
        campaign { id options { ... on IskraOptions { reactionsPerRound { int string } } } } } }""",
        {"i": {"name": "I", "system": "iskra", "options": {"iskra": {"reactionsPerRound": {"string": "unlimited"}}}}},
        "",
    )
    campaign = created["createCampaign"]["campaign"]
    assert campaign["options"]["reactionsPerRound"] == {"int": None, "string": "unlimited"}

    deck = await gql(
        client,
        """mutation($i: CreateCampaignInput!) { createCampaign(input: $i) { gmToken
        campaign { id } } }""",
        {"i": {"name": "D", "system": "action_deck"}},
        "",
    )
    cid, gm = deck["createCampaign"]["campaign"]["id"], deck["createCampaign"]["gmToken"]
    attributes = [
        {"key": k, "value": "d8" if k == "agility" else "d6"}
        for k in ("agility", "smarts", "spirit", "strength", "vigor")
    ]
    made = await gql(
        client,
        """mutation($i: CreateCharacterInput!) { createCharacter(input: $i) { character {
        sheet { ... on ActionDeckCharacter { attributes { key value { sides } } skills { key value { sides } } } } } } }""",
        {
            "i": {
                "campaignId": cid,
                "sheet": {
                    "actionDeck": {
                        "name": "Hero",
                        "attributes": attributes,
                        "skills": [{"key": "fighting", "value": "d10"}],
                    }
                },
            }
        },
        gm,
    )
    sheet = made["createCharacter"]["character"]["sheet"]
    assert [(e["key"], e["value"]["sides"]) for e in sheet["attributes"]] == [
        (a["key"], int(a["value"][1:])) for a in attributes
    ]
    assert [(e["key"], e["value"]["sides"]) for e in sheet["skills"]] == [("fighting", 10)]


def test_every_move_type_names_its_graphql_action_field_mechanically():
    """`may` lists REST `type`s; `moves[].graphqlField` is the field of the system's `@oneOf` action input that
    makes the same move, for every move of every system (no client keeps a table of its own)."""
    from service.api.graphql.schema import schema
    from service.rules.awaiting import graphql_field

    types = schema._schema.type_map
    for models in MODELS.values():
        fields = types[f"{models.prefix}ActionInput"].fields
        assert {graphql_field(t) for t in models.actions} == set(fields), models.id


def _named(m: str) -> dict[str, str]:
    return {"type": m, "graphql_field": m.split("_")[0] + "".join(p.title() for p in m.split("_")[1:])}


async def test_awaiting_offers_and_requests_name_each_move_for_rest_and_graphql(client):
    """Whatever lists moves a party may make (`awaiting`, `offers`, a system's `requests`) names each for both
    transports."""
    t, cid, token = await danger_table(client)
    q = """query($c: ID!) { state(campaignId: $c) { system state { ... on DangerPoolState {
        table { awaiting { may moves { type graphqlField } } offers { may moves { type graphqlField } }
                requests { may moves { type graphqlField } } } } } } }"""
    data = await gql(client, q, {"c": t.id}, t.gm)
    assert data["state"]["system"] == "danger_pool"
    table = data["state"]["state"]["table"]
    assert table["awaiting"] and table["offers"]
    for entry in table["awaiting"] + table["offers"] + table["requests"]:
        assert [m["type"] for m in entry["moves"]] == entry["may"]
    rest = (await t.state())["state"]["table"]
    assert rest["awaiting"] and rest["offers"]
    for key in ("awaiting", "offers", "requests"):
        assert all(e["moves"] == [_named(m) for m in e["may"]] for e in rest[key]), key


def test_a_systems_requests_are_named_like_its_waits():
    from service.game.deadlines.sync import named_moves

    ask = {"who": "character", "character_id": "c1", "may": ["acknowledge_dark_side"]}
    view = {"table": {"awaiting": [], "offers": [], "requests": [ask]}}
    named = named_moves(view)
    assert named["table"]["requests"] == [{**ask, "moves": [_named("acknowledge_dark_side")]}]
    assert "moves" not in ask, "the view handed in is left as it was"
