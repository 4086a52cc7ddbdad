"""Moves on one campaign wait in line in the service, without a connection, and are served in the order they
came (service/game/moves/queue.py). Runs on the embedded defaults and on PostgreSQL + Redis."""

from __future__ import annotations

import asyncio

import pytest

from apikit import bearer, new_table

# More than the PostgreSQL pool's 30 connections (service/store/records/db.py).
WRITERS = 32


async def test_moves_on_one_table_wait_without_a_connection_and_are_applied_in_the_order_they_came(client, app):
    svc = app.state.services
    busy = await new_table(client, dice_mode="server", options={"use_time_pressure_clocks": True})
    other = await new_table(client, dice_mode="server")
    r = await client.post(
        f"/v1/campaigns/{busy.id}/actions",
        headers=bearer(busy.gm),
        json={"action": {"type": "start_scene", "kind": "narrative"}},
    )
    assert r.status_code == 200, r.text

    async def move(n: int):
        return await client.post(
            f"/v1/campaigns/{busy.id}/actions",
            headers=bearer(busy.gm),
            json={"action": {"type": "create_clock", "label": f"m{n}", "consequence": "the tower falls"}},
        )

    moves = []
    async with svc.writers.served(busy.id):  # the line is held: every move below waits in it
        for n in range(WRITERS):
            moves.append(asyncio.create_task(move(n)))
            async with asyncio.timeout(5):
                while svc.writers.waiting(busy.id) < n + 2:
                    await asyncio.sleep(0.001)
        # With every pooled connection held by a waiting writer, this read would wait for the pool.
        async with asyncio.timeout(5):
            r = await client.get(f"/v1/campaigns/{other.id}/state", headers=bearer(other.gm))
        assert r.status_code == 200, r.text
        assert not any(m.done() for m in moves)
    replies = await asyncio.gather(*moves)
    assert [r.status_code for r in replies] == [200] * WRITERS, [r.text for r in replies if r.status_code != 200]
    versions = [r.json()["version"] for r in replies]
    assert versions == sorted(versions) and len(set(versions)) == WRITERS, versions
    assert svc.writers.waiting(busy.id) == 0


@pytest.mark.parametrize("settings", ["servers"], indirect=True)  # Redis is written after the commit
async def test_the_next_move_does_not_wait_for_the_last_ones_copy_into_the_live_store(client, app):
    svc = app.state.services
    t = await new_table(client, dice_mode="server", options={"use_time_pressure_clocks": True})
    r = await client.post(
        f"/v1/campaigns/{t.id}/actions",
        headers=bearer(t.gm),
        json={"action": {"type": "start_scene", "kind": "narrative"}},
    )
    assert r.status_code == 200, r.text
    copying, go_on = asyncio.Event(), asyncio.Event()
    put_newer = svc.live.put_newer

    async def slow_first_copy(*args, **kwargs):
        if not copying.is_set():
            copying.set()
            await go_on.wait()
        return await put_newer(*args, **kwargs)

    svc.live.put_newer = slow_first_copy

    def clock(label: str):
        return client.post(
            f"/v1/campaigns/{t.id}/actions",
            headers=bearer(t.gm),
            json={"action": {"type": "create_clock", "label": label, "consequence": "the tower falls"}},
        )

    first = asyncio.create_task(clock("first"))
    async with asyncio.timeout(5):
        await copying.wait()
        second = await clock("second")  # served while the first still copies its table
    assert second.status_code == 200, second.text
    go_on.set()
    assert (await first).status_code == 200
    assert second.json()["version"] == (await first).json()["version"] + 1
