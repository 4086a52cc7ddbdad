"""Event descriptions: one sentence per event type, formatted from the event's data as the reader sees it.

The templates live in service/i18n/descriptions.py (marked for the catalogue); a placeholder names a key of
the event's data. A key the reader's view lacks (redacted for players) reads as "?", so a description never
shows more than the data beside it.
"""

from __future__ import annotations

import string
from typing import Any

from service.i18n.catalogue import gettext, ngettext
from service.i18n.context import language
from service.i18n.descriptions import DESCRIPTIONS, FALLBACK
from service.i18n.message import PluralTemplate

MISSING = "?"


class _Data(dict):
    def __missing__(self, key: str) -> str:
        return MISSING


def _text(value: Any) -> str:
    if value is None:
        return MISSING
    if isinstance(value, bool):
        return "✓" if value else "✗"
    if isinstance(value, (list, tuple)):
        return ", ".join(_text(v) for v in value) if value else "—"
    if isinstance(value, dict):
        # A die: its size and face.
        if "sides" in value and "face" in value:
            return f"d{value['sides']}→{value['face']}"
        return MISSING
    return str(value)


def describe(event_type: str, data: dict[str, Any], lang: str | None = None) -> str:
    lang = lang or language()
    template = DESCRIPTIONS.get(event_type)
    fields = _Data({k: _text(v) for k, v in data.items()})
    fields["type"] = event_type
    if isinstance(template, PluralTemplate):
        count = data.get(template.count_key)
        # A count the reader's view lacks reads "?" in the form of 0, which every language's "many" covers.
        n = abs(count) if isinstance(count, int) and not isinstance(count, bool) else 0
        english = template.singular if n == 1 else template.plural
        text = ngettext(lang, template.singular, template.plural, n)
    else:
        english = template or FALLBACK
        text = gettext(lang, english)
    try:
        return string.Formatter().vformat(text, (), fields)
    except (IndexError, ValueError, AttributeError):
        return string.Formatter().vformat(english, (), fields)
