"""Who is asking, from a bearer token; and the checks every command makes on it."""

from __future__ import annotations

import hmac
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, bindparam, select
from sqlalchemy.ext.asyncio import AsyncSession

from service.game.errors import GameError, forbidden, unauthorized
from service.game.tokens import hash_token
from service.i18n import context as i18n_context
from service.i18n.message import _
from service.rules.base import Actor
from service.settings import Settings
from service.store.records import pgdirect
from service.store.records.models import Campaign, Character, Credential, Player


class AuthFailures:
    """Credentials refused while serving one request; the transport's rate limiter charges them to the
    client's address, so a client trying tokens is slowed down whichever API it uses."""

    def __init__(self) -> None:
        self.count = 0


auth_failures: ContextVar[AuthFailures | None] = ContextVar("auth_failures", default=None)


def refused() -> None:
    """Count a refused credential against this request's client."""
    failures = auth_failures.get()
    if failures is not None:
        failures.count += 1


@dataclass(frozen=True)
class Principal:
    credential_id: str
    campaign_id: str
    role: str
    player_id: str | None
    character_ids: frozenset[str]

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"

    def actor(self) -> Actor:
        return Actor(role="gm" if self.is_gm else "player", player_id=self.player_id, character_ids=self.character_ids)


_credentials, _campaigns, _players, _characters = (
    Credential.__table__,
    Campaign.__table__,
    Player.__table__,
    Character.__table__,
)
# Who holds the token, in one round trip: a row per character of the caller's (one with none for the GM). The
# languages come along: the reply is in the player's or the campaign's language unless the request's
# Accept-Language says otherwise (service/i18n/negotiate.py).
_WHO = (
    select(
        _credentials.c.id,
        _credentials.c.role,
        _credentials.c.player_id,
        _campaigns.c.language.label("campaign_language"),
        _players.c.language.label("player_language"),
        _characters.c.id.label("character_id"),
    )
    .join(_campaigns, _campaigns.c.id == _credentials.c.campaign_id)
    .outerjoin(_players, _players.c.id == _credentials.c.player_id)
    .outerjoin(
        _characters,
        and_(
            _characters.c.campaign_id == _credentials.c.campaign_id, _characters.c.player_id == _credentials.c.player_id
        ),
    )
    .where(_credentials.c.token_hash == bindparam("token_hash"), _credentials.c.campaign_id == bindparam("campaign_id"))
)
_WHO_DIRECT = pgdirect.Direct(_WHO)


async def authenticate(session: AsyncSession, token: str | None, campaign_id: str) -> Principal:
    """401 without a token that belongs to this campaign. A token of another campaign is a 401 too:
    saying 403 would tell its holder that the campaign exists."""
    params = credential_params(token, campaign_id)
    return _principal((await (await session.connection()).execute(_WHO, params)).mappings().all(), campaign_id)


async def authenticate_alone(conn: pgdirect.Alone, token: str | None, campaign_id: str) -> Principal:
    """`authenticate` on a connection of its own (Services.alone)."""
    return _principal(await conn.fetch(_WHO_DIRECT, credential_params(token, campaign_id)), campaign_id)


def credential_params(token: str | None, campaign_id: str) -> dict[str, str]:
    """The parameters of a statement that finds the token's credential in this campaign: a 401 without a token."""
    if not token:
        raise unauthorized()
    return {"token_hash": hash_token(token), "campaign_id": campaign_id}


def invalid_token() -> GameError:
    """The 401 for a token that is not one of this campaign's, counted against the client."""
    refused()
    return unauthorized(_("the bearer token is not valid for this campaign"))


def _principal(rows: Any, campaign_id: str) -> Principal:
    if not rows:
        raise invalid_token()
    first = rows[0]
    i18n_context.note_preferences(player=first["player_language"], campaign=first["campaign_language"])
    chars = frozenset(r["character_id"] for r in rows if r["character_id"] is not None)
    return Principal(first["id"], campaign_id, first["role"], first["player_id"], chars)


def require_gm(principal: Principal) -> None:
    if not principal.is_gm:
        raise forbidden(_("only a GM of this campaign may do this"), code="gm_only")


def check_operator_key(settings: Settings, given: str | None) -> None:
    """Creating a campaign needs the operator key when the deployment sets one."""
    expected = settings.operator_key
    if expected is None:
        return
    if not given or not hmac.compare_digest(given.encode(), str(expected).encode()):
        if given:
            refused()
        raise GameError(
            401,
            "operator_key_required",
            _("this deployment requires the operator key to create campaigns"),
            field="Authorization",
        )


def check_import_allowed(settings: Settings, given: str | None) -> None:
    """An import writes someone else's history into this server: only whom the operator allows may send one."""
    policy = settings.import_policy
    if settings.operator_key is not None and policy != "off":
        check_operator_key(settings, given)
        return
    if policy == "anyone":
        return
    raise GameError(
        403,
        "import_disabled",
        _("this deployment does not accept campaign imports; the operator turns them on with RULEKEEPER_IMPORT"),
    )
