"""Messages in a language: the one step between a `Message` and the text a client reads."""

from __future__ import annotations

import logging
from typing import Any

from service.i18n import DEFAULT
from service.i18n.catalogue import gettext, ngettext
from service.i18n.context import language
from service.i18n.message import Message, PluralMessage

log = logging.getLogger("rulekeeper.i18n")


def render(value: Any, lang: str | None = None) -> str:
    """`value` in `lang` (by default the current request's language). A `Message` is translated and formatted
    with its parameters (themselves rendered); plain text is looked up as a msgid, so a literal detail that
    is in the catalogue is translated too."""
    lang = lang or language()
    if lang == DEFAULT:
        return str(value)
    if isinstance(value, Message):
        params = {k: render(v, lang) if isinstance(v, Message) else v for k, v in value.params.items()}
        if isinstance(value, PluralMessage):
            return fill(ngettext(lang, value.msgid, value.plural, value.n), value.msgid, params, lang)
        return fill(gettext(lang, value.msgid), value.msgid, params, lang)
    text = str(value)
    return gettext(lang, text) if lang != DEFAULT else text


def fill(template: str, msgid: str, params: dict[str, Any], lang: str) -> str:
    if not params:
        return template
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        # A translation whose placeholders do not match its msgid (the catalogue test forbids it): English
        # keeps the request answerable.
        log.warning("translation of %r into %s does not format", msgid, lang)
        return msgid.format(**params)
