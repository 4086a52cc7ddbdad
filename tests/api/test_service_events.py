"""The service's own events (campaigns, players, characters, dice, sessions, undo) match their payload models, as
the GM and as a player see them, so both contracts can type them."""

from __future__ import annotations

from apikit import ROGUE, Table, bearer

from service.game.log.serviceevents import SERVICE_EVENTS

# Checked elsewhere: the turn clock's events by every test in tests/deadlines (clockkit.events), a disabled
# webhook's by tests/api/test_webhook_timeouts.py.
ELSEWHERE = ("deadline", "webhook_disabled")


async def played(client) -> tuple[Table, str]:
    r = await client.post("/v1/campaigns", json={"name": "Log", "system": "stepdice", "dice_mode": "verifiable"})
    assert r.status_code == 201, r.text
    t = Table(client=client, id=r.json()["campaign"]["id"], gm=r.json()["gm_token"])
    pid, token = await t.invite("Ala")
    ch = await t.character(ROGUE)
    gm = bearer(t.gm)
    assert (
        await client.put(f"{t.base}/characters/{ch['id']}/player", headers=gm, json={"player_id": pid})
    ).status_code == 200
    assert (
        await client.put(f"{t.base}/dice-sessions/current/client-seed", headers=gm, json={"client_seed": "ours"})
    ).status_code == 200
    assert (await client.put(f"{t.base}/language", headers=gm, json={"language": "pl"})).status_code == 200
    assert (
        await client.post(f"{t.base}/rolls", headers=gm, json={"expression": "2d6", "label": "x"})
    ).status_code == 200
    await t.ok({"type": "gm_note", "text": "rain"})
    assert (await client.post(f"{t.base}/undo", headers=gm, json={"count": 1})).status_code == 200
    assert (await client.post(f"{t.base}/dice-sessions/current/close", headers=gm)).status_code == 200
    assert (await client.post(f"{t.base}/finish", headers=gm)).status_code == 200
    return t, token


async def test_every_service_event_matches_its_payload_model_for_gm_and_player(client):
    t, token = await played(client)
    for who in (t.gm, token):
        events = await t.events(who)
        seen = {e["type"] for e in events if e["type"] in SERVICE_EVENTS}
        expected = {kind for kind in SERVICE_EVENTS if not kind.startswith(ELSEWHERE)}
        assert seen == expected, expected - seen
        for e in events:
            if e["type"] in SERVICE_EVENTS:
                SERVICE_EVENTS[e["type"]].model_validate(e["data"])


async def test_service_events_are_typed_in_graphql(client):
    t, _ = await played(client)
    q = """query($c: ID!) { events(campaignId: $c, first: 500) { edges { node { type data { __typename
        ... on DiceRolledEvent { purpose dice { sides face source seq } } } } } } }"""
    r = await client.post("/graphql", json={"query": q, "variables": {"c": t.id}}, headers=bearer(t.gm))
    edges = r.json()["data"]["events"]["edges"]
    names = {e["node"]["type"]: e["node"]["data"]["__typename"] for e in edges if e["node"]["type"] in SERVICE_EVENTS}
    assert names == {
        event_type: model.__name__
        for event_type, model in SERVICE_EVENTS.items()
        if not event_type.startswith(ELSEWHERE)
    }
    rolled = [e["node"]["data"] for e in edges if e["node"]["type"] == "dice_rolled"]
    assert [d["sides"] for d in rolled[0]["dice"]] == [6, 6] and rolled[0]["dice"][0]["source"] == "verifiable"
