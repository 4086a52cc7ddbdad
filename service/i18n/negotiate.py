"""Which language a request is answered in.

Precedence (docs/frontend.md, Languages): the first of
1. the best language of the request's `Accept-Language` header that the service speaks (by q-value; a
   region such as `pl-PL` counts as its language; `*` and unsupported languages are not a choice);
2. the player's own preference (set by the player, for their token);
3. the campaign's default language (set by the GM);
4. English.
The header comes first because it is what this very request asks for; a client that wants the stored
preferences to apply leaves it out (or lists no language the service speaks).
"""

from __future__ import annotations

from service.i18n import DEFAULT, SUPPORTED

MAX_HEADER = 512
MAX_RANGES = 32


def accepted(header: str | None) -> list[str]:
    """The supported languages of an Accept-Language header, best first (ties keep the header's order)."""
    if not header:
        return []
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header[:MAX_HEADER].split(",")[:MAX_RANGES]):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        language = tag.strip().lower().split("-")[0]
        if language in SUPPORTED and 0 < q <= 1:
            ranked.append((-q, index, language))
    seen: list[str] = []
    for _q, _i, language in sorted(ranked):
        if language not in seen:
            seen.append(language)
    return seen


def choose(header: str | None, player: str | None = None, campaign: str | None = None) -> str:
    best = accepted(header)
    if best:
        return best[0]
    for stored in (player, campaign):
        if stored in SUPPORTED:
            return stored
    return DEFAULT
