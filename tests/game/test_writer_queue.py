"""A campaign's writers wait in line in the service, first come first served, before they take a connection
(service/game/moves/queue.py)."""

from __future__ import annotations

import asyncio

from service.game.moves.queue import WriterQueue


async def test_a_campaigns_writers_are_served_one_at_a_time_in_the_order_they_came():
    queue, served, inside = WriterQueue(), [], []

    async def writer(n: int) -> None:
        async with queue.served("camp"):
            inside.append(n)
            assert len(inside) == 1, "two writers of one campaign were served at once"
            await asyncio.sleep(0.001)
            served.append(n)
            inside.remove(n)

    tasks = []
    for n in range(8):
        tasks.append(asyncio.create_task(writer(n)))
        await asyncio.sleep(0)
    await asyncio.gather(*tasks)
    assert served == list(range(8))
    assert len(queue) == 0, "a line outlived its last writer"


async def test_writers_of_other_campaigns_do_not_wait_in_the_same_line():
    queue = WriterQueue()
    async with queue.served("a"):
        async with asyncio.timeout(1):
            async with queue.served("b"):
                assert queue.waiting("a") == queue.waiting("b") == 1


async def test_a_writer_that_gives_up_while_waiting_leaves_the_line_and_the_rest_are_served():
    queue, served = WriterQueue(), []

    async def writer(n: int) -> None:
        async with queue.served("camp"):
            served.append(n)

    async with queue.served("camp"):
        first, gone, last = (asyncio.create_task(writer(n)) for n in range(3))
        await asyncio.sleep(0)
        assert queue.waiting("camp") == 4
        gone.cancel()
        await asyncio.sleep(0)
    await asyncio.gather(first, last)
    assert served == [0, 2] and gone.cancelled()
    assert len(queue) == 0
