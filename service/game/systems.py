"""The rule systems this service runs, as clients discover them: options with defaults, and actions; their
names in the request's language, in the rulebooks' own terms (service/i18n/terms.py)."""

from __future__ import annotations

from typing import Any

from service.i18n import terms
from service.i18n.render import render
from service.rules.registry import SYSTEMS


def _labels(table: dict[str, str], codes: list[str]) -> dict[str, str]:
    return {code: render(table[code]) if code in table else code for code in codes}


def summaries() -> list[dict[str, Any]]:
    out = []
    for s in SYSTEMS.values():
        options = s.Options().model_dump(mode="json")
        out.append(
            {
                "id": s.id,
                "name": render(terms.NAMES.get(s.id, s.name)),
                "options": options,
                "actions": list(s.action_types),
                "option_labels": _labels(terms.OPTIONS.get(s.id, {}), list(options)),
                "action_labels": _labels(terms.ACTIONS.get(s.id, {}), list(s.action_types)),
            }
        )
    return out
