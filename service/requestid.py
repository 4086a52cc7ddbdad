"""Request ids: each HTTP request and WebSocket connection gets one, the caller's `X-Request-ID` when it is a
safe value, else a new UUID. It is echoed in the response, written on every log line the request causes
(service/logs.py) and recorded on every event the request appends (events.request_id), so one id joins a
client's report, the service's log and the records. The outermost middleware (service/api/edge.py) takes it.
"""

from __future__ import annotations

import random
import re
from contextvars import ContextVar

HEADER = b"x-request-id"
MAX_LENGTH = 128
# Visible ASCII only, no spaces: a value that cannot split a log line or a header, and fits the column.
_SAFE = re.compile(rf"[\x21-\x7e]{{1,{MAX_LENGTH}}}")

current: ContextVar[str | None] = ContextVar("request_id", default=None)


def accept(value: str | None) -> str:
    """The caller's id when it is safe to log and store as is; otherwise a fresh one (never a refusal: an id
    is for correlation, and a proxy's odd id must not fail the request)."""
    if value is not None and _SAFE.fullmatch(value):
        return value
    return new_id()


# The version (4) and variant (RFC 9562) bits of a random UUID, over 122 random ones.
_RANDOM_BITS = ~((0xF << 76) | (0x3 << 62)) & ((1 << 128) - 1)
_VERSION_4 = (0x4 << 76) | (0x2 << 62)


def new_id() -> str:
    """A version-4 UUID's text, its 122 bits from `random` rather than the operating system: an id joins records,
    it guards nothing, and uuid.uuid4 cost 2.5 µs (a getrandom call and a UUID object) against 0.7 here, about 2%
    of a GET …/state. `random` is seeded from the operating system in each process, and again in a forked child."""
    h = "%032x" % (random.getrandbits(128) & _RANDOM_BITS | _VERSION_4)
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
