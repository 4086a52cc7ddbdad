"""`rulekeeper_deadline_lag_seconds`: how late the deadline worker found the most overdue warning or expiry, the
metric to page on when the clock falls behind."""

from __future__ import annotations

from clockkit import install
from prometheus_client import REGISTRY
from test_deadlines_iskra import iskra_fight


def lag() -> float:
    return REGISTRY.get_sample_value("rulekeeper_deadline_lag_seconds") or 0.0


async def test_the_deadline_worker_says_how_late_it_found_what_was_due(app, client, monkeypatch):
    clock = install(monkeypatch)
    await iskra_fight(client, {"turn_seconds": 60, "warning_seconds": 10})
    clock.advance(75)  # the warning found 25 s late, the expiry 15 s late
    await app.state.deadlines.run_due()
    assert lag() >= 25.0
    clock.advance(0.5)
    await app.state.deadlines.run_due()  # nothing of this campaign overdue any more
    assert lag() < 25.0
