"""Logging set-up for the command line and ASGI entry points."""
from __future__ import annotations

import logging
import os
import re

# Control characters (C0, DEL, C1), Unicode line separators, the backslash that starts an escape and the
# space that separates fields: what could make one logged value look like more fields or more lines.
_UNSAFE = re.compile(r"[\x00-\x20\x7f-\x9f\u2028\u2029\\]")


def configure(level: str | None = None) -> None:
    level = (level or os.environ.get("RULEKEEPER_LOG_LEVEL") or "INFO").upper()
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # Alembic announces each of its plugins at INFO on every start; only its migration lines are news.
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)


def printable(text: str) -> str:
    """`text` on one line, unambiguously: a client-chosen value (a decoded path) cannot forge log lines."""
    return _UNSAFE.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 256 else f"\\u{ord(m.group()):04x}",
                       text)
