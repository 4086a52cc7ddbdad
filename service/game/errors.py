"""Errors the application layer raises; the API layers turn them into problem bodies."""

from __future__ import annotations

from service.i18n import validation
from service.i18n.message import _


class GameError(Exception):
    """A refused request with a stable machine-readable `code` and the offending `field`."""

    def __init__(
        self, status: int, code: str, detail: str, *, field: str | None = None, extra: dict | None = None
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.field = field
        self.extra = extra or {}


# What not_found names, in words a translation can inflect.
NOT_FOUND = {
    "campaign": _("campaign not found"),
    "character": _("character not found"),
    "webhook": _("webhook not found"),
    "delivery": _("delivery not found"),
    "dice session": _("dice session not found"),
    "player": _("player not found"),
}


def not_found(what: str, field: str | None = None) -> GameError:
    return GameError(404, "not_found", NOT_FOUND.get(what) or _("{what} not found", what=what), field=field)


def unauthorized(detail: str | None = None) -> GameError:
    return GameError(401, "unauthorized", detail or _("a valid bearer token is required"))


def forbidden(detail: str, field: str | None = None, code: str = "forbidden") -> GameError:
    """403. `gm_only`: only a GM may do this; `not_your_character`: a player acting for a character that is not
    theirs; `forbidden`: anything else a credential may not do (a player setting another player's language)."""
    return GameError(403, code, detail, field=field)


def conflict(code: str, detail: str, field: str | None = None) -> GameError:
    return GameError(409, code, detail, field=field)


def invalid(code: str, detail: str, field: str | None = None) -> GameError:
    return GameError(422, code, detail, field=field)


def from_validation(exc, prefix: str = "", shift: int = 0) -> GameError:
    """A pydantic ValidationError as a 422 naming the first offending field (all are in `errors`). `shift`: the
    error came from a slice of a list starting there, so its first index is moved on by it."""
    errs = exc.errors(include_url=False, include_context=True, include_input=False)
    if shift:
        errs = [
            {**e, "loc": (e["loc"][0] + shift, *e["loc"][1:])} if e["loc"] and isinstance(e["loc"][0], int) else e
            for e in errs
        ]
    first = errs[0] if errs else {"loc": (), "msg": "invalid input"}
    loc = ".".join(str(p) for p in (prefix.split(".") if prefix else []) + list(first["loc"]))
    return GameError(
        422,
        "invalid_input",
        _("{field}: {message}", field=loc or "body", message=validation.message(first)),
        field=loc or None,
        extra={
            "errors": [
                {
                    "field": ".".join(str(p) for p in ((prefix.split(".") if prefix else []) + list(e["loc"]))),
                    "message": e["msg"],
                    "type": e["type"],
                }
                for e in errs
            ]
        },
    )
