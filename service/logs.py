"""Logging set-up for the command line and ASGI entry points: one format for every logger, uvicorn's included.

`RULEKEEPER_LOG_FORMAT=json` writes one JSON object per line: time (UTC), level, logger, message, request_id
(null outside a request), any structured fields a line carries (the access log's method, path, status,
duration_ms) and the exception's traceback. `text` is the same in one human-readable line. Unset, the log is
text when it goes to a terminal (someone reading it) and JSON otherwise (a collector parsing it).
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
from datetime import datetime, timezone

from service import requestid

# Control characters (C0, DEL, C1), Unicode line separators, the backslash that starts an escape and the
# space that separates fields: what could make one logged value look like more fields or more lines.
_UNSAFE = re.compile(r"[\x00-\x20\x7f-\x9f\u2028\u2029\\]")

# Structured fields a log call may pass in `extra=`; JSON lines carry them as they are.
FIELDS = ("method", "path", "route", "status", "duration_ms", "campaign_id")
# uvicorn configures these with handlers of its own unless told not to; they go through ours instead.
UVICORN = ("uvicorn", "uvicorn.error", "uvicorn.asgi")
FORMATS = ("json", "text")


class _WithRequestId(logging.Filter):
    """Stamps each record with the request id of the context that logs it (a filter runs in that context)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "request_id", None) is None:
            record.request_id = requestid.current.get()
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, timezone.utc)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None),
        }
        for key in FIELDS:
            if key in record.__dict__:
                entry[key] = record.__dict__[key]
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        # ensure_ascii: every control character and line separator is escaped, so a record is one line.
        return json.dumps(entry, ensure_ascii=True, default=str)


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s [%(request_label)s]: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        record.request_label = getattr(record, "request_id", None) or "-"
        return super().format(record)


def formatter(kind: str) -> logging.Formatter:
    if kind not in FORMATS:
        raise ValueError(f"RULEKEEPER_LOG_FORMAT is one of {', '.join(FORMATS)}, not {kind!r}")
    return JsonFormatter() if kind == "json" else TextFormatter()


def default_format(stream) -> str:
    """`text` on a terminal, `json` anywhere else (a file, a pipe, a container's log driver)."""
    try:
        return "text" if stream.isatty() else "json"
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return "json"


def configure(level: str | None = None, kind: str | None = None, stream=None) -> None:
    """Send every logger through one handler on the root logger. Safe to call again (it replaces its own
    handler, and only that)."""
    level = (level or os.environ.get("RULEKEEPER_LOG_LEVEL") or "INFO").upper()
    stream = stream or sys.stderr
    kind = (kind or os.environ.get("RULEKEEPER_LOG_FORMAT") or default_format(stream)).lower()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter(kind))
    handler.addFilter(_WithRequestId())
    handler._rulekeeper = True  # type: ignore[attr-defined]
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "_rulekeeper", False)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in UVICORN:
        uv = logging.getLogger(name)
        uv.handlers.clear()
        uv.propagate = True
    # The service writes its own access line per request (service/app.py, with the request id); uvicorn's
    # would be a second one per request, in another shape.
    logging.getLogger("uvicorn.access").disabled = True
    # Alembic announces each of its plugins at INFO on every start; only its migration lines are news.
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)


def printable(text: str) -> str:
    """`text` on one line, unambiguously: a client-chosen value (a decoded path) cannot forge log lines."""
    return _UNSAFE.sub(
        lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 256 else f"\\u{ord(m.group()):04x}", text
    )
