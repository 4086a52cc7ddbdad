"""Logging set-up for the command line and ASGI entry points."""
from __future__ import annotations

import logging
import os


def configure(level: str | None = None) -> None:
    level = (level or os.environ.get("RULEKEEPER_LOG_LEVEL") or "INFO").upper()
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # Alembic announces each of its plugins at INFO on every start; only its migration lines are news.
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
