"""A served process's heap, settled once its start-up has completed (service/asgi.py: under any ASGI server,
`rulekeeper serve` included)."""

from __future__ import annotations

import gc


def settle() -> None:
    """Keep what start-up made (the modules, the rule systems' models, the GraphQL schema: about 290,000
    objects) out of the garbage collector's full passes, which otherwise walk all of it: each took about 170 ms
    here, more than once a second under load, and every request in flight waited for it. GET state over 32
    connections: p99 184-188 ms with them, 27-37 ms without; 1,550-1,610 against 2,360-2,470 requests/s.

    Those objects live as long as the process, so nothing is lost by never scanning them; the cycles start-up
    left are collected first, and whatever the service allocates later is collected as before. Once per process,
    when what lives as long as it has been made: after a served app's start-up, and in a test worker after it has
    collected its tests (tests/conftest.py), not after each of the apps the tests build, which would then be kept.

    The youngest generation is collected after 10,000 new objects instead of 700: a GraphQL request makes
    thousands and frees nearly all of them itself, so the collector ran several times per request for little.
    GraphQL Step Dice moves over 32 tables: 481 -> 522 requests/s, 2.07 -> 1.88 ms of CPU each (medians of three
    rounds, every round above; REST moves and GET state unchanged). At most that many young objects wait in a cycle
    for their collection."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)


def settle_import() -> None:
    """What importing the service made, settled as soon as it is made (service/asgi.py), with the collector still
    paused: its cycles collected (about a quarter of the 390,000 objects the import tracks) and the rest frozen.

    Resumed with everything the import made in its youngest generation, the collector walked all of it in its
    first collection of that generation, again in the next generation's, and a third time in `settle`'s full pass
    once the app had started: 0.62-0.66 s of a start's CPU in collections here, against 0.25-0.28 s for this one
    pass and `settle`'s then-small one (counted with gc.callbacks over an import and a start-up to the lifespan's
    end). The whole of it, import and start-up to the end of the lifespan's: 2.85 s of CPU against 3.23 s, medians of
    eight in-process starts alternating with and without this pass, on the embedded defaults."""
    gc.collect()
    gc.freeze()


class SettledOnceStarted:
    """An ASGI app whose heap is settled (`settle`) once its lifespan's start-up has completed, before the server
    is told so (and so before it answers anything)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return

        async def started(message) -> None:
            if message["type"] == "lifespan.startup.complete":
                settle()
            await send(message)

        await self.app(scope, receive, started)
