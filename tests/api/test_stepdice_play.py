"""Step Dice played through the API, table dice fed in: the worked examples end to end, concurrency,
hidden information, optimistic concurrency and restarts."""

from __future__ import annotations

import asyncio

import httpx

from apikit import MAGE, ROGUE, WARRIOR, assert_problem, bearer, gql_action, new_table


async def seat(t, sheet):
    """A player with one character; returns (character_id, player_token)."""
    pid, token = await t.invite(sheet["name"])
    ch = await t.character(sheet, player_id=pid)
    return ch["id"], token


async def fight(t, pcs: dict[str, dict | None], enemies: list[dict]):
    await t.ok({"type": "create_encounter"})
    for cid, pos in pcs.items():
        await t.ok({"type": "add_character", "character_id": cid, "position": pos})
    for e in enemies:
        await t.ok({"type": "add_enemy", **e})
    await t.ok({"type": "start_encounter"})


def of_type(events, type_):
    return [e for e in events if e["type"] == type_]


async def test_SD_E4_simple_melee_exchange_through_rest(client):
    """SD-E4: Warrior d10 rolls 4 against a minion's TN 6 in melee: failure, retaliation, hearts 4/5."""
    t = await new_table(client, dice_mode="table")
    w, wt = await seat(t, WARRIOR)
    await fight(
        t, {w: {"x": 0, "y": 0}}, [{"enemy_id": "m", "name": "Goblin", "kind": "minion", "position": {"x": 1, "y": 0}}]
    )
    await t.ok({"type": "begin_turn", "character_id": w}, token=wt)
    out = await t.ok(
        {"type": "attack", "character_id": w, "target_enemy_id": "m", "attack_type": "melee"}, token=wt, dice=[4]
    )
    rolled = of_type(out["events"], "dice_rolled")[0]["data"]["dice"]
    assert rolled == [{"sides": 10, "face": 4, "source": "table", "seq": None, "purpose": rolled[0]["purpose"]}]
    assert of_type(out["events"], "test_resolved")[0]["data"]["outcome"] == "failure"
    assert out["state"]["table"]["pending"]["stage"] == "retaliation_check"
    # only the GM answers "could it reach?"
    assert_problem(await t.act({"type": "resolve_retaliation"}, token=wt), 403, "gm_only")
    await t.ok({"type": "resolve_retaliation"})
    sheet = (await client.get(f"{t.base}/characters/{w}", headers=bearer(wt))).json()["sheet"]
    assert (sheet["hearts"], sheet["hearts_max"]) == (4, 5)
    state = (await t.state())["state"]
    assert state["table"]["encounter"]["pcs"][w]["action_available"] is False
    assert state["table"]["encounter"]["enemies"]["m"]["state"] == "active"


async def test_SD_E5_boss_and_exceptional_success_through_graphql(client):
    """SD-E5: help steps the Rogue's d10 to d12, good position TN 12 → 8, a 12 is exceptional: boss takes 2 wounds."""
    t = await new_table(client, dice_mode="table")
    r, rt = await seat(t, ROGUE)
    a, at = await seat(t, WARRIOR)
    await fight(t, {r: None, a: None}, [{"enemy_id": "boss", "name": "Boss", "kind": "boss"}])

    async def act(action, token, dice=None):
        q = """mutation($i: ActInput!) { act(input: $i) {
            version state { __typename } events { type data { __typename ... on StepDiceTestRecord { die tn outcome } } }
        } }"""
        res = await client.post(
            "/graphql",
            json={
                "query": q,
                "variables": {"i": {"campaignId": t.id, "action": gql_action("stepdice", action), "dice": dice}},
            },
            headers=bearer(token),
        )
        body = res.json()
        assert "errors" not in body, body
        assert body["data"]["act"]["state"]["__typename"] == "StepDiceState"
        return body["data"]["act"]

    await act({"type": "begin_turn", "character_id": a}, at)
    await act({"type": "help", "character_id": a, "target_character_id": r, "description": "draws its eye"}, at)
    await act({"type": "end_turn", "character_id": a}, at)
    await act({"type": "begin_turn", "character_id": r}, rt)
    out = await act(
        {
            "type": "attack",
            "character_id": r,
            "target_enemy_id": "boss",
            "attack_type": "ranged",
            "steps": [{"source": "good position", "delta": -1}],
        },
        rt,
        [12],
    )
    rec = of_type(out["events"], "test_resolved")[0]["data"]
    assert (rec["die"], rec["tn"], rec["outcome"]) == ("d12", 8, "exceptional_success")
    await act({"type": "choose_benefit", "option": "extra_wound"}, rt)
    boss = (await t.state())["state"]["table"]["encounter"]["enemies"]["boss"]
    assert (boss["wounds_taken"], boss["state"]) == (2, "active")


async def test_SD_E6_and_SD_E7_magic_through_rest(client):
    """SD-E6: standard tier, d10 = 9, success, mana 3 → 2. SD-E7: strong tier, roll 3, failure, mana 2 → 0 after
    the consequence (here from the SD-E6 caster, so mana starts at 2)."""
    t = await new_table(client, dice_mode="table")
    m, mt = await seat(t, MAGE)
    out = await t.ok(
        {"type": "cast", "character_id": m, "tier": "standard", "intent": "short shield"}, token=mt, dice=[9]
    )
    assert of_type(out["events"], "test_resolved")[0]["data"]["outcome"] == "success"
    assert out["state"]["characters"][m]["mana"] == 2
    out = await t.ok({"type": "cast", "character_id": m, "tier": "strong", "intent": "immobilize"}, token=mt, dice=[3])
    assert out["state"]["characters"][m]["mana"] == 0
    assert_problem(
        await t.act({"type": "test", "character_id": m, "attribute": "magic", "base_tn": 6}, token=mt, dice=[5]),
        409,
        "choice_pending",
    )
    await t.ok({"type": "record_consequence", "text": "you expose yourself"})
    r = await t.act({"type": "cast", "character_id": m, "tier": "standard"}, token=mt, dice=[5])
    assert_problem(r, 409, "insufficient_mana")


async def test_player_cannot_act_for_another_players_character(client):
    t = await new_table(client, dice_mode="table")
    w, _ = await seat(t, WARRIOR)
    _, rt = await seat(t, ROGUE)
    r = await t.act({"type": "test", "character_id": w, "attribute": "strength", "base_tn": 6}, token=rt, dice=[5])
    assert_problem(r, 403, "not_your_character")


async def test_player_cannot_send_gm_moves(client):
    t = await new_table(client, dice_mode="table")
    _, wt = await seat(t, WARRIOR)
    assert_problem(await t.act({"type": "create_encounter"}, token=wt), 403, "gm_only")


async def test_unknown_action_type_is_422_naming_the_field(client):
    t = await new_table(client)
    r = await t.act({"type": "fireball"})
    assert_problem(r, 422, "invalid_input")
    assert r.json()["field"].startswith("action")


async def test_table_mode_needs_the_dice_the_move_rolls(client):
    t = await new_table(client, dice_mode="table")
    w, wt = await seat(t, WARRIOR)
    r = await t.act({"type": "test", "character_id": w, "attribute": "strength", "base_tn": 6}, token=wt)
    assert_problem(r, 422, "dice_required", "dice[0]")
    r = await t.act({"type": "test", "character_id": w, "attribute": "strength", "base_tn": 6}, token=wt, dice=[11])
    assert_problem(r, 422, "die_out_of_range", "dice[0]")


async def test_players_do_not_see_gm_only_enemy_details(client):
    t = await new_table(client, dice_mode="table")
    w, wt = await seat(t, WARRIOR)
    await fight(t, {w: None}, [{"enemy_id": "b", "name": "Shadow", "kind": "boss"}])
    gm_enemy = (await t.state())["state"]["table"]["encounter"]["enemies"]["b"]
    pl_enemy = (await t.state(wt))["state"]["table"]["encounter"]["enemies"]["b"]
    assert gm_enemy["tn"] == 12 and gm_enemy["wounds_max"] == 3
    assert "tn" not in pl_enemy and "wounds_max" not in pl_enemy and "kind" not in pl_enemy
    pl_log = await t.events(wt)
    leaked = [e for e in pl_log if '"tn": 12' in str(e["data"]).replace("'", '"')]
    assert leaked == [], leaked


async def test_concurrent_moves_on_one_encounter_never_both_apply(client):
    """Only one PC turn may be open at a time: of several simultaneous begin_turns exactly one applies."""
    t = await new_table(client, dice_mode="table")
    seats = [await seat(t, {**s, "name": f"{s['name']}{i}"}) for i, s in enumerate([WARRIOR, ROGUE, MAGE, WARRIOR])]
    await fight(t, {cid: None for cid, _ in seats}, [{"enemy_id": "m", "name": "Goblin", "kind": "minion"}])
    before = (await t.state())["version"]
    results = await asyncio.gather(
        *[t.act({"type": "begin_turn", "character_id": cid}, token=tok) for cid, tok in seats]
    )
    codes = sorted(r.status_code for r in results)
    assert codes.count(200) == 1, [r.text for r in results]
    assert all(r.status_code == 409 for r in results if r.status_code != 200)
    after = await t.state()
    assert after["version"] == before + 1
    assert after["state"]["table"]["encounter"]["turn_open_for"] in {cid for cid, _ in seats}
    assert len(of_type(await t.events(), "turn_begun")) == 1


async def test_if_match_with_a_stale_version_is_412(client):
    t = await new_table(client)
    await t.ok({"type": "start_scene", "kind": "narrative"})
    r = await client.get(f"{t.base}/state", headers=bearer(t.gm))
    etag = r.headers["etag"]
    assert (await t.act({"type": "gm_note", "text": "rain"}, headers={"If-Match": etag})).status_code == 200
    body = assert_problem(
        await t.act({"type": "gm_note", "text": "again"}, headers={"If-Match": etag}),
        412,
        "version_mismatch",
        "If-Match",
    )
    assert body["current_version"] == int(etag.strip('"')) + 1


async def test_idempotent_retry_of_an_action_applies_once(client):
    t = await new_table(client, dice_mode="table")
    m, mt = await seat(t, MAGE)
    h = {"Idempotency-Key": "cast-1"}
    a = await t.act({"type": "cast", "character_id": m, "tier": "standard"}, token=mt, dice=[9], headers=h)
    b = await t.act({"type": "cast", "character_id": m, "tier": "standard"}, token=mt, dice=[9], headers=h)
    assert a.status_code == b.status_code == 200 and a.json() == b.json()
    sheet = (await client.get(f"{t.base}/characters/{m}", headers=bearer(mt))).json()["sheet"]
    assert sheet["mana"] == 2


async def test_server_mode_rolls_the_die_and_logs_it(client):
    t = await new_table(client, dice_mode="server")
    w, wt = await seat(t, WARRIOR)
    out = await t.ok({"type": "test", "character_id": w, "attribute": "strength", "base_tn": 6}, token=wt)
    die = of_type(out["events"], "dice_rolled")[0]["data"]["dice"][0]
    assert die["sides"] == 10 and 1 <= die["face"] <= 10 and die["source"] == "server"


async def test_embedded_live_store_keeps_an_encounter_across_a_restart(embedded_settings):
    from service.app import create_app

    async def run(fn):
        app = create_app(embedded_settings)
        async with app.router.lifespan_context(app):
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
                return await fn(c)

    async def setup(c):
        t = await new_table(c, dice_mode="table")
        w, _ = await seat(t, WARRIOR)
        await fight(t, {w: None}, [{"enemy_id": "m", "name": "Goblin", "kind": "minion"}])
        return t.id, t.gm, (await t.state())

    cid, gm, before = await run(setup)

    async def read(c):
        return (await c.get(f"/v1/campaigns/{cid}/state", headers=bearer(gm))).json()

    after = await run(read)
    assert after == before and after["state"]["table"]["encounter"]["phase"] == "player_phase"


async def test_many_simultaneous_readers_and_writers_do_not_exhaust_the_connection_pool(client):
    """Each request holds one pooled connection at most: 60 concurrent state reads and moves finish promptly
    (a second connection per request for the live store once deadlocked the pool under load)."""
    t = await new_table(client, dice_mode="server")
    _, wt = await seat(t, WARRIOR)
    calls = [t.state(wt) if i % 2 else t.act({"type": "gm_note", "text": f"note {i}"}) for i in range(60)]
    results = await asyncio.wait_for(asyncio.gather(*calls), timeout=60)
    moves = [r for r in results if isinstance(r, httpx.Response)]
    assert all(r.status_code == 200 for r in moves), [r.text for r in moves if r.status_code != 200][:3]


async def test_players_cannot_count_hidden_clocks_from_ids_or_counters(client):
    """Spec 8: a hidden clock stays hidden — no gap in the ids players see, no id counter in their state."""
    t = await new_table(client, dice_mode="table", options={"use_time_pressure_clocks": True})
    w, wt = await seat(t, WARRIOR)
    await t.ok({"type": "start_scene"})
    for label, visible in (("torches", True), ("ritual", False), ("tide", True)):
        await t.ok({"type": "create_clock", "label": label, "consequence": "x", "visible_to_players": visible})
    table = (await t.state(wt))["state"]["table"]
    assert len(table["clocks"]) == 2
    assert "c1" not in table["clocks"] and "c3" not in table["clocks"]
    assert "seq" not in table and "id_salt" not in table
    gm_table = (await t.state())["state"]["table"]
    assert gm_table["seq"]["clock"] == 3 and len(gm_table["clocks"]) == 3


async def test_clock_ids_differ_between_campaigns(client):
    """The ids are keyed per table, so one campaign's ids say nothing about another's."""
    ids = []
    for _ in range(2):
        t = await new_table(client, dice_mode="table", options={"use_time_pressure_clocks": True})
        await t.ok({"type": "start_scene"})
        out = await t.ok({"type": "create_clock", "label": "x", "consequence": "y", "visible_to_players": True})
        ids.extend(out["state"]["table"]["clocks"])
    assert ids[0] != ids[1]


async def test_a_refusal_never_tells_a_player_an_unrevealed_enemys_tn_or_position(client):
    """Spec 8: enemy TN and unrevealed positions are GM-only; refusals to players do not leak them."""
    t = await new_table(client, dice_mode="table")
    w, wt = await seat(t, WARRIOR)
    await fight(
        t,
        {w: {"x": 0, "y": 0}},
        [{"enemy_id": "b", "name": "Shape", "kind": "boss", "position": {"x": 5, "y": 0}, "position_revealed": False}],
    )
    await t.ok({"type": "begin_turn", "character_id": w}, token=wt)
    probe = {
        "type": "attack",
        "character_id": w,
        "target_enemy_id": "b",
        "attack_type": "ranged",
        "steps": [{"source": "dark", "delta": 1}],
        "on_near_impossible": "refuse",
    }
    body = assert_problem(await t.act(probe, token=wt), 403, "gm_only", "action.on_near_impossible")
    assert "12" not in body["detail"] and "boss" not in body["detail"]
    melee = {"type": "attack", "character_id": w, "target_enemy_id": "b", "attack_type": "melee"}
    body = assert_problem(await t.act(melee, token=wt), 409, "not_adjacent", "action.target_enemy_id")
    assert "squares away" not in body["detail"]
    assert not [e for e in await t.events(wt) if e["type"] == "test_refused"]


async def test_a_failed_tests_steps_read_over_graphql_as_one_entry_each(client):
    """§3.7 keeps each failed test of the scene with its steps as [source, delta] pairs; GraphQL gives each pair
    as one {key, value} entry (the schema once said a list of entries per pair, and the pair could not be read)."""
    t = await new_table(client, dice_mode="table")
    r, rt = await seat(t, ROGUE)
    await t.ok({"type": "start_scene"})
    steps = [{"source": "Dark", "delta": 1}, {"source": "good position", "delta": -1}]
    test = {"type": "test", "character_id": r, "attribute": "dexterity", "base_tn": 6, "steps": steps}
    await t.ok(test, token=rt, dice=[2])
    assert (await t.state())["state"]["table"]["failed_tests"][0]["steps"] == [["dark", 1], ["good position", -1]]
    q = """query($id: ID!) { state(campaignId: $id) { state {
        ... on StepDiceState { table { failedTests { characterId steps { key value } } } } } } }"""
    body = (await client.post("/graphql", json={"query": q, "variables": {"id": t.id}}, headers=bearer(rt))).json()
    assert "errors" not in body, body
    (failed,) = body["data"]["state"]["state"]["table"]["failedTests"]
    assert failed == {"characterId": r, "steps": [{"key": "dark", "value": 1}, {"key": "good position", "value": -1}]}
