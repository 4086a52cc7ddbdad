"""The in-process doorbell: a subscriber wakes for its campaign moving past its cursor, and for nothing else."""

from __future__ import annotations

import asyncio

from service.notify import Hub, LocalNotifier


async def test_a_waiter_wakes_when_its_campaign_moves_past_its_cursor():
    hub = Hub()
    with hub.watch("c1") as waiter:
        woke = asyncio.ensure_future(waiter.wait(cursor=3, timeout=5))
        await asyncio.sleep(0)
        hub.deliver("c1", 4)
        assert await asyncio.wait_for(woke, 1) == "announced"


async def test_a_waiter_sleeps_through_other_campaigns_and_seqs_it_already_has():
    hub = Hub()
    with hub.watch("c1") as waiter:
        woke = asyncio.ensure_future(waiter.wait(cursor=3, timeout=0.2))
        await asyncio.sleep(0)
        hub.deliver("c2", 9)
        hub.deliver("c1", 3)
        assert await woke == "timeout"


async def test_a_notification_that_came_before_the_wait_is_not_missed():
    hub = Hub()
    with hub.watch("c1") as waiter:
        hub.deliver("c1", 5)  # rang while the subscriber was still reading
        assert await asyncio.wait_for(waiter.wait(cursor=3, timeout=5), 1) == "announced"


async def test_an_announced_seq_that_never_shows_up_wakes_the_waiter_once_not_in_a_loop():
    hub = Hub()
    with hub.watch("c1") as waiter:
        hub.deliver("c1", 7)
        assert await waiter.wait(cursor=3, timeout=5) == "announced"
        assert await waiter.wait(cursor=3, timeout=0.1) == "timeout"


async def test_recheck_all_wakes_every_waiter_of_every_campaign():
    hub = Hub()
    with hub.watch("c1") as w1, hub.watch("c2") as w2:
        woke = asyncio.ensure_future(asyncio.gather(w1.wait(0, 5), w2.wait(0, 5)))
        await asyncio.sleep(0)
        hub.recheck_all()
        assert await asyncio.wait_for(woke, 1) == ["recheck", "recheck"]


async def test_a_waiter_leaves_the_hub_when_its_subscriber_goes():
    notifier = LocalNotifier()
    with notifier.watch("c1"), notifier.watch("c1"):
        assert notifier.hub.watching == 2
    assert notifier.hub.watching == 0


async def test_a_cancelled_wait_is_cancelled():
    hub = Hub()
    with hub.watch("c1") as waiter:
        task = asyncio.ensure_future(waiter.wait(0, 5))
        await asyncio.sleep(0.01)
        task.cancel()
        await asyncio.wait({task}, timeout=1)
        assert task.cancelled()


async def test_the_sweep_reads_every_watched_campaign_in_one_probe_and_wakes_only_those_behind():
    probes: list[list[str]] = []

    async def probe(ids: list[str]) -> dict[str, int]:
        probes.append(sorted(ids))
        return {"c1": 5, "c2": 2}  # c3 is gone

    notifier = LocalNotifier(sweep_seconds=0.05)
    await notifier.start(probe)
    try:
        with (
            notifier.watch("c1") as behind,
            notifier.watch("c1") as also_behind,
            notifier.watch("c2") as current,
            notifier.watch("c3") as deleted,
        ):
            woke = await asyncio.wait_for(
                asyncio.gather(behind.wait(3, 5), also_behind.wait(3, 5), current.wait(2, 0.3), deleted.wait(0, 5)), 2
            )
            assert woke == ["announced", "announced", "timeout", "recheck"]
        assert probes and all(p == ["c1", "c2", "c3"] for p in probes)
    finally:
        await notifier.close()


async def test_a_failing_sweep_keeps_sweeping():
    calls = []

    async def probe(ids: list[str]) -> dict[str, int]:
        calls.append(ids)
        if len(calls) == 1:
            raise ConnectionError("records database away")
        return {"c1": 9}

    notifier = LocalNotifier(sweep_seconds=0.05)
    await notifier.start(probe)
    try:
        with notifier.watch("c1") as waiter:
            assert await asyncio.wait_for(waiter.wait(3, 5), 2) == "announced"
        assert len(calls) >= 2
    finally:
        await notifier.close()
