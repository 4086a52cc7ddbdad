"""Dice modes: server rolls, verifiable commit-reveal sessions, table dice; and free expressions."""

from __future__ import annotations

import json

from apikit import assert_problem, bearer, new_table

from service.dice import verifiable
from service.dice.verify_cli import run_verify


async def test_free_expression_in_table_mode_uses_the_given_faces(client):
    t = await new_table(client, dice_mode="table")
    r = await client.post(f"{t.base}/rolls", json={"expression": "4d6kh3", "dice": [6, 3, 1, 5]}, headers=bearer(t.gm))
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["total"] == 14
    assert [d["face"] for d in body["dice"]] == [6, 3, 1, 5]
    assert all(d["source"] == "table" for d in body["dice"])
    types = [e["type"] for e in body["events"]]
    assert types == ["dice_rolled", "expression_rolled"]


async def test_table_face_out_of_range_is_422(client):
    t = await new_table(client, dice_mode="table")
    r = await client.post(f"{t.base}/rolls", json={"expression": "1d6", "dice": [7]}, headers=bearer(t.gm))
    assert_problem(r, 422, "die_out_of_range", "dice[0]")


async def test_table_mode_without_enough_dice_is_422(client):
    t = await new_table(client, dice_mode="table")
    r = await client.post(f"{t.base}/rolls", json={"expression": "2d6", "dice": [3]}, headers=bearer(t.gm))
    assert_problem(r, 422, "dice_required", "dice[1]")


async def test_table_mode_with_unused_dice_is_422(client):
    t = await new_table(client, dice_mode="table")
    r = await client.post(f"{t.base}/rolls", json={"expression": "1d6", "dice": [3, 4]}, headers=bearer(t.gm))
    assert_problem(r, 422, "dice_unused", "dice")


async def test_server_mode_refuses_client_dice(client):
    t = await new_table(client, dice_mode="server")
    r = await client.post(f"{t.base}/rolls", json={"expression": "1d6", "dice": [3]}, headers=bearer(t.gm))
    assert_problem(r, 422, "dice_not_allowed", "dice")


async def test_server_mode_rolls_and_logs_every_die_with_its_source(client):
    t = await new_table(client, dice_mode="server")
    r = await client.post(f"{t.base}/rolls", json={"expression": "10d10"}, headers=bearer(t.gm))
    assert r.status_code == 200
    dice = r.json()["dice"]
    assert len(dice) == 10 and all(1 <= d["face"] <= 10 and d["source"] == "server" for d in dice)
    logged = [e for e in await t.events() if e["type"] == "dice_rolled"]
    assert logged[-1]["data"]["dice"] == dice


async def test_expression_over_budget_is_422_not_a_hang(client):
    t = await new_table(client, dice_mode="server")
    for expr in ("1000000d1000", "1d1e1", "1d100000"):
        r = await client.post(f"{t.base}/rolls", json={"expression": expr}, headers=bearer(t.gm))
        assert_problem(r, 422, "expression_too_large", "expression")


async def test_expression_syntax_error_is_422(client):
    t = await new_table(client, dice_mode="server")
    r = await client.post(f"{t.base}/rolls", json={"expression": "2d6+"}, headers=bearer(t.gm))
    assert_problem(r, 422, "expression_invalid", "expression")


async def test_verifiable_session_commitment_reveal_and_verification(client, tmp_path):
    t = await new_table(client, dice_mode="verifiable")
    sessions = (await client.get(f"{t.base}/dice-sessions", headers=bearer(t.gm))).json()["items"]
    assert len(sessions) == 1 and sessions[0]["seed"] is None
    commitment = sessions[0]["commitment"]
    _, player = await t.invite("Ala")
    r = await client.put(
        f"{t.base}/dice-sessions/current/client-seed", json={"client_seed": "our table"}, headers=bearer(player)
    )
    assert r.status_code == 200 and r.json()["client_seed"] == "our table"
    rolled = []
    for expr in ("3d10", "1d20", "4d6kh3"):
        r = await client.post(f"{t.base}/rolls", json={"expression": expr}, headers=bearer(player))
        rolled += r.json()["dice"]
    assert [d["seq"] for d in rolled] == list(range(8))
    assert all(d["source"] == "verifiable" for d in rolled)
    # the seed cannot be read before the session closes
    assert_problem(
        await client.get(f"{t.base}/dice-sessions/1/verification", headers=bearer(t.gm)), 409, "session_open"
    )
    assert_problem(await client.post(f"{t.base}/dice-sessions/current/close", headers=bearer(player)), 403, "gm_only")
    closed = (await client.post(f"{t.base}/dice-sessions/current/close", headers=bearer(t.gm))).json()
    assert closed["closed"]["commitment"] == commitment and closed["closed"]["seed"]
    assert closed["opened"]["number"] == 2 and closed["opened"]["seed"] is None
    doc = (await client.get(f"{t.base}/dice-sessions/1/verification", headers=bearer(player))).json()
    assert doc["report"]["ok"] is True and doc["report"]["gaps"] == []
    # recompute without the service: the commitment, then every die
    assert verifiable.commitment(doc["seed"]) == commitment
    for die in doc["rolls"]:
        assert verifiable.derive_face(doc["seed"], "our table", die["seq"], die["sides"])[0] == die["face"]
    path = tmp_path / "session.json"
    path.write_text(json.dumps(doc))
    assert run_verify([str(path)]) == 0
    doc["rolls"][3]["face"] = doc["rolls"][3]["face"] % doc["rolls"][3]["sides"] + 1
    path.write_text(json.dumps(doc))
    assert run_verify([str(path)]) == 1


async def test_client_seed_cannot_change_after_the_first_die(client):
    t = await new_table(client, dice_mode="verifiable")
    await client.post(f"{t.base}/rolls", json={"expression": "1d6"}, headers=bearer(t.gm))
    r = await client.put(
        f"{t.base}/dice-sessions/current/client-seed", json={"client_seed": "late"}, headers=bearer(t.gm)
    )
    assert_problem(r, 409, "session_already_rolling", "client_seed")


async def test_dice_sessions_exist_only_in_verifiable_mode(client):
    t = await new_table(client, dice_mode="server")
    assert_problem(await client.get(f"{t.base}/dice-sessions", headers=bearer(t.gm)), 409, "not_verifiable")


async def test_idempotency_key_replays_the_first_response(client):
    t = await new_table(client, dice_mode="server")
    h = {**bearer(t.gm), "Idempotency-Key": "roll-1"}
    first = await client.post(f"{t.base}/rolls", json={"expression": "5d20"}, headers=h)
    again = await client.post(f"{t.base}/rolls", json={"expression": "5d20"}, headers=h)
    assert first.json() == again.json()
    assert again.headers.get("idempotent-replayed") == "true"
    assert len([e for e in await t.events() if e["type"] == "expression_rolled"]) == 1
    other = await client.post(f"{t.base}/rolls", json={"expression": "1d4"}, headers=h)
    assert_problem(other, 422, "idempotency_key_reused", "Idempotency-Key")
