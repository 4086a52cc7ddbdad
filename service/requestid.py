"""Request ids: each HTTP request and WebSocket connection gets one, the caller's `X-Request-ID` when it is a
safe value, else a new UUID. It is echoed in the response, written on every log line the request causes
(service/logs.py) and recorded on every event the request appends (events.request_id), so one id joins a
client's report, the service's log and the records. The outermost middleware (service/api/edge.py) takes it.
"""

from __future__ import annotations

import re
import uuid
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
    return str(uuid.uuid4())
