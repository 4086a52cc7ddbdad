"""The live-store contract: versioned JSON values with compare-and-set and optional expiry.

Every backend (memory, SQL, Redis) keeps the same semantics so the game layer and the tests
never need to know which one is underneath:

- a value is a JSON object or array; versions start at 1 on create and grow by 1 per write;
- `compare_and_set(key, None, ...)` creates and fails if the key exists;
  `compare_and_set(key, n, ...)` replaces and fails unless the current version is exactly n;
- each write sets the expiry afresh: `ttl=None` means the entry never expires (a later write
  without a ttl removes an earlier expiry);
- `put_newer(key, version, ...)` is for caches of a versioned truth kept elsewhere: it writes the
  value at exactly `version` unless the entry already holds that version or a later one, so
  writers that finish out of order never put an older copy over a newer one;
- an expired entry is absent everywhere: `get` misses it, a create succeeds over it (starting
  again at version 1) and a CAS against its old version conflicts with `actual=None`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable, Protocol, TypeAlias, runtime_checkable

from service.store import jsontext

JSON: TypeAlias = dict[str, Any] | list[Any]


@dataclass(frozen=True)
class Versioned:
    value: JSON
    version: int


class VersionConflict(Exception):
    """The entry was not at the expected version. `None` on either side means "absent"."""

    def __init__(self, key: str, expected: int | None, actual: int | None) -> None:
        super().__init__(key, expected, actual)  # keeps the exception picklable
        self.key = key
        self.expected = expected
        self.actual = actual

    def __str__(self) -> str:
        def show(v: int | None) -> str:
            return "absent" if v is None else f"version {v}"

        return f"live entry {self.key!r}: expected {show(self.expected)}, found {show(self.actual)}"


@runtime_checkable
class LiveStore(Protocol):
    async def get(self, key: str) -> Versioned | None: ...

    async def compare_and_set(
        self, key: str, expected_version: int | None, value: JSON, ttl: float | None = None
    ) -> int:
        """Write `value` if the entry is at `expected_version` (None: must not exist).

        Returns the new version; raises VersionConflict otherwise. Atomic under concurrency.
        """
        ...

    async def put_newer(self, key: str, version: int, value: JSON, ttl: float | None = None) -> bool:
        """Store `value` as `version` unless the live entry is already at `version` or later.
        True when written. Atomic under concurrency."""
        ...

    async def delete(self, key: str, expected_version: int | None = None) -> bool:
        """Remove the entry. False if it was absent; VersionConflict if it exists at another version."""
        ...

    async def get_many(self, keys: Iterable[str]) -> dict[str, Versioned]:
        """The present entries among `keys` (absent ones are left out)."""
        ...

    async def close(self) -> None: ...


def encode(value: JSON) -> str:
    """Serialize once, the same way for every backend and as the records database writes its JSON, so all of them
    round-trip identically (tuples come back as lists, NaN as null: service/store/jsontext.py)."""
    if not isinstance(value, (dict, list)):
        raise TypeError(f"a live value is a JSON object or array, not {type(value).__name__}")
    return jsontext.dumps(value)


def decode(data: str | bytes) -> JSON:
    return json.loads(data)


def check_put(version: int, ttl: float | None) -> None:
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise ValueError(f"version must be an int >= 1, not {version!r}")
    if ttl is not None and not ttl > 0:
        raise ValueError(f"ttl must be None or > 0 seconds, not {ttl!r}")


def check_write(expected_version: int | None, ttl: float | None) -> None:
    # Version 0 would be ambiguous with "absent" in the Redis script, so refuse it everywhere.
    if expected_version is not None and (
        isinstance(expected_version, bool) or not isinstance(expected_version, int) or expected_version < 1
    ):
        raise ValueError(f"expected_version must be None or an int >= 1, not {expected_version!r}")
    if ttl is not None and not ttl > 0:
        raise ValueError(f"ttl must be None or > 0 seconds, not {ttl!r}")
