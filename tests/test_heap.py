"""The served app settles its heap once started (service/heap.py): what start-up made is out of the garbage
collector's full passes, and the youngest generation is collected less often."""

from __future__ import annotations

import gc

import pytest

from service.heap import SettledOnceStarted


def tracked(obj: object) -> bool:
    """Whether the collector walks `obj` (by identity: some objects' `==` answers anything)."""
    return any(o is obj for o in gc.get_objects())


@pytest.fixture(autouse=True)
def unsettled():
    """This test process's heap and thresholds as they were, after each test (the suite freezes each worker's heap
    once it has collected its tests: tests/conftest.py)."""
    thresholds, frozen = gc.get_threshold(), gc.get_freeze_count() > 0
    gc.unfreeze()
    yield
    gc.unfreeze()
    if frozen:
        gc.freeze()
    gc.set_threshold(*thresholds)


async def test_once_started_what_startup_made_is_out_of_the_collectors_full_passes():
    made_at_startup = object.__new__(type("MadeAtStartup", (), {}))
    told: list[tuple[str, bool]] = []

    async def app(scope, receive, send):
        await send({"type": "lifespan.startup.complete"})

    async def send(message):
        told.append((message["type"], tracked(made_at_startup)))

    async def receive():
        return {"type": "lifespan.startup"}

    assert tracked(made_at_startup)
    await SettledOnceStarted(app)({"type": "lifespan"}, receive, send)
    # Settled before the server is told the start-up completed, so before it answers anything.
    assert told == [("lifespan.startup.complete", False)]
    assert gc.get_freeze_count() > 0  # frozen objects are in no generation the collector walks
    assert gc.get_threshold()[0] == 10_000


async def test_requests_pass_through_untouched():
    seen = []

    async def app(scope, receive, send):
        seen.append(scope["type"])

    await SettledOnceStarted(app)({"type": "http"}, None, None)
    assert seen == ["http"] and gc.get_freeze_count() == 0
