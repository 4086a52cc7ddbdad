"""The gettext catalogues, read from the .po files shipped in the package (service/locale/<lang>/LC_MESSAGES).

The .po files are read directly with Babel, so an editable install, a wheel and a checkout all serve the same
text without a compile step; fuzzy entries are ignored, as gettext would.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from gettext import c2py
from importlib import resources
from typing import NamedTuple

from babel.messages.pofile import read_po

from service.i18n import DOMAIN, SUPPORTED


def po_path(language: str):
    return resources.files("service").joinpath("locale", language, "LC_MESSAGES", f"{DOMAIN}.po")


class Catalogue(NamedTuple):
    """One language's catalogue, as the service reads it."""

    messages: dict[str, str]  # msgid -> translation
    plural_rule: Callable[[int], int]  # n -> index of its form (from the catalogue's Plural-Forms)
    plurals: dict[str, tuple[str, ...]]  # singular msgid -> every form


NO_CATALOGUE = Catalogue({}, lambda n: int(n != 1), {})


@functools.cache
def catalogue(language: str) -> Catalogue:
    """A language's catalogue, parsed once per process for its messages and its plural forms alike (parsing a .po
    file is most of a start-up's i18n cost); English's plural rule and no entries for a language without one. Fuzzy
    entries are left out, as gettext would."""
    if language not in SUPPORTED or not po_path(language).is_file():
        return NO_CATALOGUE
    with po_path(language).open("rb") as fh:
        read = read_po(fh, locale=language, domain=DOMAIN)
    messages: dict[str, str] = {}
    plurals: dict[str, tuple[str, ...]] = {}
    for m in read:
        if m.fuzzy:
            continue
        if isinstance(m.id, str) and m.id and isinstance(m.string, str) and m.string:
            messages[m.id] = m.string
        elif isinstance(m.id, (tuple, list)) and isinstance(m.string, (tuple, list)) and all(m.string):
            plurals[m.id[0]] = tuple(m.string)
    return Catalogue(messages, c2py(read.plural_expr), plurals)


def translations(language: str) -> dict[str, str]:
    """msgid -> translation for one language; empty for a language without a catalogue."""
    return catalogue(language).messages


def gettext(language: str, msgid: str) -> str:
    return catalogue(language).messages.get(msgid, msgid)


def ngettext(language: str, singular: str, plural: str, n: int) -> str:
    """The form of a plural entry for `n` in `language`; English's own forms when it has no translation."""
    read = catalogue(language)
    forms = read.plurals.get(singular)
    if not forms:
        return singular if n == 1 else plural
    return forms[min(read.plural_rule(n), len(forms) - 1)]
