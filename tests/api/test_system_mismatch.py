"""A move meant for another rule system is refused with its own code, however the client names the system."""

from __future__ import annotations

from apikit import assert_problem, bearer, new_table


async def test_a_body_naming_another_system_is_refused_with_system_mismatch(client):
    t = await new_table(client)
    r = await client.post(
        f"{t.base}/actions",
        headers=bearer(t.gm),
        json={"system": "trikus", "action": {"type": "gm_note", "text": "hello"}},
    )
    assert_problem(r, 409, "system_mismatch", "system")
    assert "gm_note" not in [e["type"] for e in await t.events()]


async def test_a_body_naming_the_campaigns_system_is_played(client):
    t = await new_table(client)
    r = await client.post(
        f"{t.base}/actions",
        headers=bearer(t.gm),
        json={"system": "stepdice", "action": {"type": "gm_note", "text": "hello"}},
    )
    assert r.status_code == 200, r.text


async def test_another_systems_action_operation_is_refused_with_system_mismatch(client):
    t = await new_table(client)
    r = await client.post(
        f"{t.base}/actions/iskra", headers=bearer(t.gm), json={"action": {"type": "gm_note", "text": "hello"}}
    )
    assert_problem(r, 409, "system_mismatch", "system")
    ok = await client.post(
        f"{t.base}/actions/stepdice", headers=bearer(t.gm), json={"action": {"type": "gm_note", "text": "hello"}}
    )
    assert ok.status_code == 200 and ok.headers["ETag"] == f'"{ok.json()["version"]}"'


async def test_a_system_action_operation_checks_the_move_against_its_system_first(client):
    t = await new_table(client)
    r = await client.post(f"{t.base}/actions/stepdice", headers=bearer(t.gm), json={"action": {"type": "open_test"}})
    assert_problem(r, 422, "invalid_input")
