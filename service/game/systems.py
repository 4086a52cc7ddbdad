"""The rule systems this service runs, as clients discover them: options with defaults, and actions."""
from __future__ import annotations

from typing import Any

from service.rules.registry import SYSTEMS


def summaries() -> list[dict[str, Any]]:
    return [{"id": s.id, "name": s.name, "options": s.Options().model_dump(mode="json"), "actions": list(s.action_types)}
            for s in SYSTEMS.values()]
