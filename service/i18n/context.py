"""The language of the request being served.

The transport notes the `Accept-Language` header when the request arrives (service.api.language); the
application layer notes the player's and the campaign's stored languages once it knows the caller
(service.game.auth). Both write into one shared `Choice`, so a note made inside a task the request
spawned (GraphQL resolvers, a subscription) still counts; the language is decided when something is rendered.
"""
from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass

from service.i18n import DEFAULT
from service.i18n.negotiate import choose


@dataclass
class Choice:
    header: str | None = None
    player: str | None = None
    campaign: str | None = None
    fixed: str | None = None
    _decided: tuple | None = None

    @property
    def language(self) -> str:
        # Asked once per rendered text (a page of events asks hundreds of times): decided again only when a
        # note changed what it depends on.
        key = (self.header, self.player, self.campaign, self.fixed)
        if self._decided is None or self._decided[0] != key:
            self._decided = (key, self.fixed or choose(self.header, self.player, self.campaign))
        return self._decided[1]


current: ContextVar[Choice | None] = ContextVar("rulekeeper_language", default=None)


def language() -> str:
    choice = current.get()
    return choice.language if choice is not None else DEFAULT


def begin(header: str | None) -> Choice:
    choice = Choice(header=header)
    current.set(choice)
    return choice


def note_preferences(player: str | None, campaign: str | None) -> None:
    choice = current.get()
    if choice is not None:
        choice.player, choice.campaign = player, campaign


@contextlib.contextmanager
def using(lang: str) -> Iterator[None]:
    """Render in `lang` whatever the request asked for (a webhook body is in the campaign's language)."""
    token = current.set(Choice(fixed=lang))
    try:
        yield
    finally:
        current.reset(token)
