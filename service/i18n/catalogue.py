"""The gettext catalogues, read from the .po files shipped in the package (service/locale/<lang>/LC_MESSAGES).

The .po files are read directly with Babel, so an editable install, a wheel and a checkout all serve the same
text without a compile step; fuzzy entries are ignored, as gettext would.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from gettext import c2py
from importlib import resources

from babel.messages.pofile import read_po

from service.i18n import DOMAIN, SUPPORTED


def po_path(language: str):
    return resources.files("service").joinpath("locale", language, "LC_MESSAGES", f"{DOMAIN}.po")


@functools.cache
def translations(language: str) -> dict[str, str]:
    """msgid -> translation for one language; empty for a language without a catalogue."""
    if language not in SUPPORTED:
        return {}
    path = po_path(language)
    if not path.is_file():
        return {}
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=language, domain=DOMAIN)
    return {
        m.id: m.string
        for m in catalog
        if isinstance(m.id, str) and m.id and isinstance(m.string, str) and m.string and not m.fuzzy
    }


def gettext(language: str, msgid: str) -> str:
    return translations(language).get(msgid, msgid)


@functools.cache
def _plurals(language: str) -> tuple[Callable[[int], int], dict[str, tuple[str, ...]]]:
    """The language's plural rule (from its catalogue's Plural-Forms, which Babel writes from CLDR) and its
    plural entries: singular msgid -> every form."""
    if language not in SUPPORTED or not po_path(language).is_file():
        return (lambda n: int(n != 1)), {}
    with po_path(language).open("rb") as fh:
        catalog = read_po(fh, locale=language, domain=DOMAIN)
    entries = {
        m.id[0]: tuple(m.string)
        for m in catalog
        if isinstance(m.id, (tuple, list)) and isinstance(m.string, (tuple, list)) and not m.fuzzy and all(m.string)
    }
    return c2py(catalog.plural_expr), entries


def ngettext(language: str, singular: str, plural: str, n: int) -> str:
    """The form of a plural entry for `n` in `language`; English's own forms when it has no translation."""
    rule, entries = _plurals(language)
    forms = entries.get(singular)
    if not forms:
        return singular if n == 1 else plural
    return forms[min(rule(n), len(forms) - 1)]
