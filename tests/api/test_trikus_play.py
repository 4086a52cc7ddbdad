"""Trikus through the API: a team test thrown die by die by several people at once, and hidden
information (dark sides under optional rule 2) kept out of both APIs and the event log."""

from __future__ import annotations

import asyncio

from apikit import Table, bearer

SIDES = {"beginner": (3, 1), "advanced": (2, 2), "master": (1, 3)}


def sheet(name: str, tier: str) -> dict:
    light, dark = SIDES[tier]
    return {
        "name": name,
        "tier": tier,
        "light_sides": [{"text": f"{name} is kind {i}"} for i in range(light)],
        "dark_sides": [{"text": f"SECRET-{name}-{i}", "authored_by": "self"} for i in range(dark)],
    }


async def trikus_table(client, *, dice_mode="server", options=None) -> tuple[Table, dict]:
    r = await client.post(
        "/v1/campaigns", json={"name": "Trikus", "system": "trikus", "dice_mode": dice_mode, "options": options or {}}
    )
    assert r.status_code == 201, r.text
    t = Table(client=client, id=r.json()["campaign"]["id"], gm=r.json()["gm_token"])
    seats = {}
    for name, tier in (("Pawel", "beginner"), ("Zuzia", "advanced"), ("Michal", "master")):
        pid, token = await t.invite(name)
        ch = await t.character(sheet(name, tier), player_id=pid)
        seats[name] = (ch["id"], token)
    return t, seats


async def test_TK_E4_team_test_through_rest_in_table_mode(client):
    """TK-E4: GM 3 dice against Paweł and Zuzia; GM 6 / Paweł 9 / Zuzia 3, then GM 5 / Zuzia 4, then GM 2:
    Paweł succeeds, Zuzia fails; Paweł keeps his success."""
    t, seats = await trikus_table(client, dice_mode="table")
    (p, pt), (z, zt) = seats["Pawel"], seats["Zuzia"]
    await t.ok({"type": "open_test", "character_ids": [p, z], "gm_pool": 3})
    await t.ok({"type": "join", "character_id": p, "line_index": 0}, token=pt)
    await t.ok({"type": "join", "character_id": z, "line_index": 0}, token=zt)
    out = await t.ok({"type": "start"})
    assert [a["character_id"] or "gm" for a in out["state"]["table"]["awaiting"]] == ["gm", p, z]
    await t.ok({"type": "throw"})
    await t.ok({"type": "throw", "character_id": p}, token=pt)
    out = await t.ok({"type": "throw", "character_id": z}, token=zt, dice=[6, 9, 3])
    assert [a["character_id"] or "gm" for a in out["state"]["table"]["awaiting"]] == ["gm", z]
    await t.ok({"type": "throw"})
    await t.ok({"type": "throw", "character_id": z}, token=zt, dice=[5, 4])
    out = await t.ok({"type": "throw"}, dice=[2])
    act = out["state"]["table"]["activity"]
    assert act["phase"] == "cancellation" and act["results"] == {p: "success", z: "failure"}
    out = await t.ok({"type": "keep_success", "character_id": p}, token=pt)
    assert out["state"]["table"]["activity"] is None
    assert out["state"]["characters"][p]["morale_dice"] == 1


async def test_two_players_throwing_at_the_same_moment_never_lose_or_double_a_throw(client):
    """Both players' throws of one wave arrive together: both apply in some order (or one is refused with
    409) and the wave is rolled exactly once, with one die per thrower."""
    t, seats = await trikus_table(client)
    (p, pt), (z, zt) = seats["Pawel"], seats["Zuzia"]
    await t.ok({"type": "open_test", "character_ids": [p, z], "gm_pool": 3})
    joins = await asyncio.gather(
        t.act({"type": "join", "character_id": p, "line_index": 0}, token=pt),
        t.act({"type": "join", "character_id": z, "line_index": 0}, token=zt),
    )
    assert all(r.status_code == 200 for r in joins), [r.text for r in joins]
    await t.ok({"type": "start"})
    await t.ok({"type": "throw"})
    seated = [(p, pt), (z, zt)]
    throws = await asyncio.gather(*[t.act({"type": "throw", "character_id": c}, token=tok) for c, tok in seated])
    statuses = sorted(r.status_code for r in throws)
    assert statuses in ([200, 200], [200, 409]), [r.text for r in throws]
    for (c, tok), r in zip(seated, throws):
        if r.status_code == 409:  # refused as a concurrent update: the client retries and it applies
            retry = await t.act({"type": "throw", "character_id": c}, token=tok)
            assert retry.status_code == 200, retry.text
    rolled = [e for e in await t.events() if e["type"] == "dice_rolled"]
    assert len(rolled) == 1 and len(rolled[0]["data"]["dice"]) == 3
    contest = (await t.state())["state"]["table"]["activity"]["contest"]
    assert len(contest["dice"]) == 3 and contest["wave"] >= 1


async def test_gm_does_not_see_dark_sides_under_optional_rule_2(client):
    t, seats = await trikus_table(client, options={"opt2_gm_blind_to_dark_sides": True})
    mid, mt = seats["Michal"]
    gm_sheet = (await client.get(f"{t.base}/characters/{mid}", headers=bearer(t.gm))).json()["sheet"]
    own_sheet = (await client.get(f"{t.base}/characters/{mid}", headers=bearer(mt))).json()["sheet"]
    assert "SECRET" not in str(gm_sheet)
    assert "SECRET-Michal-0" in str(own_sheet)
    assert "SECRET" not in str((await t.state())["state"])
    assert "SECRET" not in str(await t.events())
    q = {
        "query": "query($c: ID!) { characters(campaignId: $c) { sheet { __typename ... on TrikusSheet { "
        "darkSides { text hidden } } } } state(campaignId: $c) { state { __typename ... on TrikusState { "
        "characters { value { darkSides { text hidden } } } } } } }",
        "variables": {"c": t.id},
    }
    gql = (await client.post("/graphql", json=q, headers=bearer(t.gm))).json()
    assert "errors" not in gql and "SECRET" not in str(gql)
    assert gql["data"]["state"]["state"]["__typename"] == "TrikusState"
    assert {c["sheet"]["__typename"] for c in gql["data"]["characters"]} == {"TrikusSheet"}
    assert any(side["hidden"] for c in gql["data"]["characters"] for side in c["sheet"]["darkSides"])


async def test_gm_sees_dark_sides_by_default(client):
    t, seats = await trikus_table(client)
    mid, _ = seats["Michal"]
    gm_sheet = (await client.get(f"{t.base}/characters/{mid}", headers=bearer(t.gm))).json()["sheet"]
    assert "SECRET-Michal-0" in str(gm_sheet)


async def test_hidden_dark_counts_reach_only_the_owner_and_the_gm(client):
    """A38 option: other players learn a character's dark-token count from neither the sheet, its totals nor
    the event log; its own player and the GM still see it."""
    t, seats = await trikus_table(
        client, dice_mode="table", options={"hide_dark_counts_from_other_players": True, "adv_escape": True}
    )
    (z, zt), (_, pt) = seats["Zuzia"], seats["Pawel"]
    await t.ok({"type": "open_test", "character_ids": [z], "gm_pool": 2})
    await t.ok({"type": "join", "character_id": z, "line_index": 0}, token=zt)
    await t.ok({"type": "start"})
    await t.ok({"type": "throw"})
    await t.ok({"type": "throw", "character_id": z}, token=zt, dice=[9, 2])
    await t.ok({"type": "escape", "character_id": z}, token=zt)  # a dark token (L324)
    others = (await t.state(pt))["state"]["characters"][z]["dark_tokens"]
    assert set(others.values()) == {None}
    assert (await t.state(zt))["state"]["characters"][z]["dark_tokens"]["active"] == 1
    assert (await t.state())["state"]["characters"][z]["dark_tokens"]["received_total"] == 1
    assert not [e for e in await t.events(pt) if e["type"] == "dark_token_added"]
    assert [e for e in await t.events() if e["type"] == "dark_token_added"]
    await t.ok({"type": "spend_dark_token", "character_id": z})
    spent = [e for e in await t.events(pt) if e["type"] == "dark_token_spent"][0]["data"]
    assert "active" not in spent and "used_total" not in spent


async def test_gm_note_ids_and_counters_stay_with_the_gm(client):
    t, seats = await trikus_table(client)
    _, pt = seats["Pawel"]
    await t.ok({"type": "gm_note", "text": "the ship is bugged"})
    gm_table = (await t.state())["state"]["table"]
    assert gm_table["gm_notes"][0]["id"] != "n1"
    table = (await t.state(pt))["state"]["table"]
    assert table["gm_notes"] == [] and "seq" not in table and "id_salt" not in table


async def test_seat_order_is_the_order_characters_joined_live_and_replayed(client):
    """Spec 3.3: seat order (tie-breaks, `party.members`, which Master pays) is the order characters joined the
    table, never the order of their random ids; the live table and its replay from the move log agree (the
    fixture's teardown rebuilds every campaign from its log and compares)."""
    t, seats = await trikus_table(client)
    joined = [cid for cid, _ in seats.values()]
    for name in ("Ola", "Ela", "Iga", "Ula"):
        pid, _ = await t.invite(name)
        joined.append((await t.character(sheet(name, "beginner"), player_id=pid))["id"])
    out = await t.ok({"type": "gm_note", "text": "the table is full"})
    assert out["state"]["table"]["seats"] == joined
    assert out["state"]["party"]["members"] == joined
