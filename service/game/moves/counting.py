"""Moves and free rolls counted by rule system and outcome (the counters are service/metrics.py's): an
application-layer concern, since the outcome is the application's refusal code."""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from prometheus_client import Counter

from service.game.errors import GameError

_system: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar("metrics_system", default=None)
F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


def system_is(system: str) -> None:
    """Name the rule system of the move or roll being counted (a no-op outside `@counted`)."""
    seen = _system.get()
    if seen is not None:
        seen["system"] = system


def counted(counter: Counter) -> Callable[[F], F]:
    """Count each call by system and outcome: applied (returned), refused (a 4xx GameError, by code), failed
    (a 5xx or an unexpected error). Calls that end before the campaign is known (no system) are not moves or
    rolls of any system: the HTTP metrics count them."""

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        async def run(*args, **kwargs):
            seen: dict[str, str] = {}
            token = _system.set(seen)
            outcome, code = "failed", "internal_error"
            try:
                result = await fn(*args, **kwargs)
                outcome, code = "applied", ""
                return result
            except GameError as exc:
                outcome, code = ("refused" if exc.status < 500 else "failed"), exc.code
                raise
            finally:
                _system.reset(token)
                if "system" in seen:
                    counter.labels(seen["system"], outcome, code).inc()

        return run  # type: ignore[return-value]

    return wrap
