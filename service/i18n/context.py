"""The language of the request being served.

The transport notes the `Accept-Language` header when the request arrives (service.api.edge); the
application layer notes the player's and the campaign's stored languages once it knows the caller
(service.game.auth). Both write into one shared `Choice`, so a note made inside a task the request
spawned (GraphQL resolvers, a subscription) still counts; the language is decided when something is rendered.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass

from service.i18n import DEFAULT, SUPPORTED
from service.i18n.negotiate import choose


@dataclass
class Choice:
    header: str | None = None
    player: str | None = None
    campaign: str | None = None
    fixed: str | None = None
    # A WebSocket: the page's own choice from connection_init, and a handshake header the page could not set.
    socket: bool = False
    asked: str | None = None
    _decided: tuple | None = None

    @property
    def language(self) -> str:
        # Asked once per rendered text (a page of events asks hundreds of times): decided again only when a
        # note changed what it depends on.
        key = (self.header, self.player, self.campaign, self.fixed, self.asked)
        if self._decided is None or self._decided[0] != key:
            self._decided = (key, self.fixed or self.asked or self._negotiated())
        return self._decided[1]

    def _negotiated(self) -> str:
        # A browser sends its own Accept-Language on a handshake and no page can change it: on a socket the
        # player's stored choice outranks it (a page that wants another says so in connection_init).
        if self.socket and self.player in SUPPORTED:
            return self.player
        return choose(self.header, self.player, self.campaign)


current: ContextVar[Choice | None] = ContextVar("rulekeeper_language", default=None)


def language() -> str:
    choice = current.get()
    return choice.language if choice is not None else DEFAULT


def begin(header: str | None, *, socket: bool = False) -> Choice:
    choice = Choice(header=header, socket=socket)
    current.set(choice)
    return choice


def note_preferences(player: str | None, campaign: str | None) -> None:
    choice = current.get()
    if choice is not None:
        choice.player, choice.campaign = player, campaign


def ask(lang: str) -> None:
    """The language a page asked for in a WebSocket's connection_init: it outranks everything else."""
    choice = current.get()
    if choice is not None:
        choice.asked = lang


@contextlib.contextmanager
def using(lang: str) -> Iterator[None]:
    """Render in `lang` whatever the request asked for (a webhook body is in the campaign's language)."""
    token = current.set(Choice(fixed=lang))
    try:
        yield
    finally:
        current.reset(token)
