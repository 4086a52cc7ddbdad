"""Telling subscribers that a campaign has new events: a tiny "campaign X has events up to seq N" sent
after the writer's transaction commits. Subscribers then read the events from the records database with
their own role filter, so the database stays the truth and resuming after a reconnect needs no broker.

Backends: `RedisNotifier` when REDIS_URL is set (every process hears every process), `PostgresNotifier` on
PostgreSQL without Redis (the same, through LISTEN/NOTIFY), `LocalNotifier` on the embedded default (one
process).
"""

from __future__ import annotations

from .hub import Hub, Waiter
from .local import SWEEP_SECONDS, LocalNotifier, Probe
from .postgres import PostgresNotifier
from .redis import RedisNotifier

Notifier = LocalNotifier

__all__ = [
    "SWEEP_SECONDS",
    "Hub",
    "LocalNotifier",
    "Notifier",
    "PostgresNotifier",
    "Probe",
    "RedisNotifier",
    "Waiter",
    "open_notifier",
]


def open_notifier(
    redis_url: str | None, *, channel: str = "rk:events", database_url: str | None = None
) -> LocalNotifier:
    """Nothing connects here; `start(probe)` begins the sweep and listening (and never fails for a Redis
    or PostgreSQL that is down)."""
    if redis_url:
        return RedisNotifier(redis_url, channel)
    if database_url and database_url.startswith(("postgresql", "postgres")):
        return PostgresNotifier(database_url)
    return LocalNotifier()
