"""A translatable message that keeps its template and parameters until the API renders it.

Rule engines and the application layer build their refusals with `_("no character {character_id}",
character_id=cid)`. The result is a `str` holding the English text, so logs, tests and any code that treats it
as text see English; the API boundary reads `msgid` and `params` and renders it in the caller's language
(service.i18n.render). Placeholders are named, so a translation may put them in any order.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Message(str):
    __slots__ = ("msgid", "params")
    msgid: str
    params: dict[str, Any]

    def __new__(cls, msgid: str, /, **params: Any) -> "Message":
        self = super().__new__(cls, msgid.format(**params) if params else msgid)
        self.msgid = msgid
        self.params = params
        return self

    @classmethod
    def worded(cls, english: str, msgid: str, /, **params: Any) -> "Message":
        """A message whose English text comes from elsewhere (a library's own wording) while other languages
        render `msgid`."""
        self = super().__new__(cls, english)
        self.msgid = msgid
        self.params = params
        return self

    def __reduce__(self):
        return (_rebuild, (self.msgid, self.params))

    def __repr__(self) -> str:
        return f"Message({self.msgid!r}, {self.params!r})"


def _rebuild(msgid: str, params: dict[str, Any]) -> Message:
    return Message(msgid, **params)


def _(msgid: str, /, **params: Any) -> Message:
    """Mark `msgid` for translation (`pybabel extract -k _`) and keep its parameters for later rendering."""
    return Message(msgid, **params)


class PluralMessage(Message):
    """A message that names a count: gettext's singular and plural, and the count that chooses the form (Polish
    and Russian have three: 1 kość, 2 kości, 5 kości; 1 кость, 2 кости, 5 костей). `msgid` is the singular."""

    __slots__ = ("plural", "n")
    plural: str
    n: int

    def __new__(cls, singular: str, plural: str, n: int, /, **params: Any) -> "PluralMessage":
        english = singular if n == 1 else plural
        self = str.__new__(cls, english.format(**params) if params else english)
        self.msgid, self.plural, self.n, self.params = singular, plural, n, params
        return self

    @classmethod
    def worded_count(cls, english: str, singular: str, plural: str, n: int, /, **params: Any) -> "PluralMessage":
        """A counted message whose English text comes from elsewhere (a library's own wording) while other
        languages render the form of `singular`/`plural` their rule gives `n`."""
        self = str.__new__(cls, english)
        self.msgid, self.plural, self.n, self.params = singular, plural, n, params
        return self

    def __reduce__(self):
        return (_rebuild_plural, (self.msgid, self.plural, self.n, self.params))

    def __repr__(self) -> str:
        return f"PluralMessage({self.msgid!r}, {self.plural!r}, {self.n!r}, {self.params!r})"


def _rebuild_plural(singular: str, plural: str, n: int, params: dict[str, Any]) -> PluralMessage:
    return PluralMessage(singular, plural, n, **params)


def _n(singular: str, plural: str, n: int, /, **params: Any) -> PluralMessage:
    """Mark a message that names a count (`pybabel extract -k _n:1,2`): the form is chosen by `n` in the
    caller's language, e.g. `_n("{count} die", "{count} dice", count, count=count)`."""
    return PluralMessage(singular, plural, n, **params)


def N_(msgid: str) -> str:
    """Mark a template for extraction without formatting it now: event descriptions and rule terms, whose
    values come later (`pybabel extract -k N_`)."""
    return msgid


class PluralTemplate(NamedTuple):
    """A template that names a count, whose values come later: its two English forms and the key of the value
    that chooses the form (an event description's data key, a library error's context key)."""

    singular: str
    plural: str
    count_key: str


def N_n(singular: str, plural: str, count: str, /) -> PluralTemplate:
    """Mark a template that names a count for extraction without formatting it now (`pybabel extract -k
    N_n:1,2`); `count` is the key of the value that chooses the form."""
    return PluralTemplate(singular, plural, count)
