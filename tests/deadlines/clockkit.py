"""Driving turn deadlines in tests: a clock the test moves by hand, and the worker's scan run on demand."""

from __future__ import annotations

from typing import Any

from apikit import Table, bearer

from service.game.log.serviceevents import SERVICE_EVENTS
from service.game.deadlines import settings as deadline_settings


class FakeClock:
    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


CLOCK_EVENTS = ("deadline_warning", "deadline_expired")


async def scan(app, t: Table) -> int:
    """One scan of the app's deadline worker, as its loop would run it; returns how many warnings and expiries
    it gave this campaign (the PostgreSQL database is shared by the session, so others' deadlines may fire too)."""
    before = len([e for e in await events(t) if e["type"] in CLOCK_EVENTS])
    await app.state.deadlines.run_due()
    return len([e for e in await events(t) if e["type"] in CLOCK_EVENTS]) - before


async def events(t: Table, after: int = 0, token: str | None = None) -> list[dict[str, Any]]:
    r = await t.client.get(f"{t.base}/events", params={"after": after, "limit": 500}, headers=bearer(token or t.gm))
    assert r.status_code == 200, r.text
    items = r.json()["items"]
    # Every deadline test also checks the clock's events against the payload models both contracts publish.
    for e in items:
        if e["type"].startswith("deadline"):
            SERVICE_EVENTS[e["type"]].model_validate(e["data"])
    return items


def of_type(evs: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in evs if e["type"] == kind]


async def board(t: Table, token: str | None = None) -> dict[str, Any]:
    r = await t.client.get(f"{t.base}/deadlines", headers=bearer(token or t.gm))
    assert r.status_code == 200, r.text
    return r.json()


async def state(t: Table, token: str | None = None) -> dict[str, Any]:
    r = await t.client.get(f"{t.base}/state", headers=bearer(token or t.gm))
    assert r.status_code == 200, r.text
    return r.json()["state"]


def install(monkeypatch) -> FakeClock:
    clock = FakeClock()
    monkeypatch.setattr(deadline_settings, "clock", clock)
    return clock
