"""In-process live store: the fake for unit tests. Nothing survives the process."""

from __future__ import annotations

import asyncio
import time
from typing import Callable, Iterable

from .base import JSON, Versioned, VersionConflict, check_put, check_write, decode, encode


class MemoryLiveStore:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        # `clock` is injectable so expiry tests advance a fake clock instead of sleeping.
        self._clock = clock
        # key -> (version, JSON text, deadline or None). Values are kept as JSON text so the
        # fake has the same copy-on-read and JSON normalization as the real backends.
        self._entries: dict[str, tuple[int, str, float | None]] = {}
        # No operation awaits while holding it today, so each is already atomic on one event
        # loop; the lock keeps them atomic if an await is ever added inside one.
        self._lock = asyncio.Lock()

    def _live(self, key: str) -> tuple[int, str, float | None] | None:
        entry = self._entries.get(key)
        if entry is not None and entry[2] is not None and self._clock() >= entry[2]:
            del self._entries[key]  # lazy expiry, like Redis's passive expiry
            return None
        return entry

    async def get(self, key: str) -> Versioned | None:
        async with self._lock:
            entry = self._live(key)
        return None if entry is None else Versioned(decode(entry[1]), entry[0])

    async def compare_and_set(
        self, key: str, expected_version: int | None, value: JSON, ttl: float | None = None
    ) -> int:
        check_write(expected_version, ttl)
        data = encode(value)
        async with self._lock:
            entry = self._live(key)
            actual = None if entry is None else entry[0]
            if actual != expected_version:
                raise VersionConflict(key, expected_version, actual)
            version = (actual or 0) + 1
            deadline = None if ttl is None else self._clock() + ttl
            self._entries[key] = (version, data, deadline)
        return version

    async def put_newer(self, key: str, version: int, value: JSON, ttl: float | None = None) -> bool:
        check_put(version, ttl)
        data = encode(value)
        async with self._lock:
            entry = self._live(key)
            if entry is not None and entry[0] >= version:
                return False
            self._entries[key] = (version, data, None if ttl is None else self._clock() + ttl)
        return True

    async def delete(self, key: str, expected_version: int | None = None) -> bool:
        async with self._lock:
            entry = self._live(key)
            if entry is None:
                return False
            if expected_version is not None and entry[0] != expected_version:
                raise VersionConflict(key, expected_version, entry[0])
            del self._entries[key]
            return True

    async def get_many(self, keys: Iterable[str]) -> dict[str, Versioned]:
        async with self._lock:
            found = {k: e for k in dict.fromkeys(keys) if (e := self._live(k)) is not None}
        return {k: Versioned(decode(e[1]), e[0]) for k, e in found.items()}

    async def close(self) -> None:
        pass
