"""The first round trip of every move: who is asking, the campaign locked for writing, its characters, and
whether any webhook listens, in one statement.

Asked one after another these were four queries, each a round trip on the request's critical path while it
holds the campaign's lock (service/game/events.py: the lock orders every writer of one campaign)."""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import and_, exists, select
from sqlalchemy.ext.asyncio import AsyncSession

from service.game import outbox
from service.game.auth import Principal, refused
from service.game.errors import unauthorized
from service.game.tokens import hash_token
from service.store.records.models import Campaign, Character, Credential, Webhook


@dataclass(frozen=True)
class Opened:
    principal: Principal
    campaign: Campaign
    # None when not asked for; else every character of the campaign, as ORM rows of this session.
    characters: list[Character] | None


async def open_for_writing(s: AsyncSession, token: str | None, campaign_id: str, *,
                           characters: bool = True) -> Opened:
    """As `authenticate` then `locked_campaign` (and the campaign's characters): a 401 without a token that
    belongs to this campaign. A campaign that does not exist has no token, so that is a 401 too."""
    if not token:
        raise unauthorized()
    hooks = exists().where(Webhook.campaign_id == Campaign.id, Webhook.status == "active").label("hooks")
    columns = [Campaign, Credential.id, Credential.role, Credential.player_id, hooks]
    stmt = select(*columns, Character) if characters else select(*columns)
    stmt = (stmt.join(Credential, and_(Credential.campaign_id == Campaign.id,
                                       Credential.token_hash == hash_token(token))))
    if characters:
        stmt = stmt.outerjoin(Character, Character.campaign_id == Campaign.id)
    rows = (await s.execute(stmt.where(Campaign.id == campaign_id).with_for_update(of=Campaign))).all()
    if not rows:
        refused()
        raise unauthorized("the bearer token is not valid for this campaign")
    campaign, cred_id, role, player_id, has_hooks = rows[0][:5]
    chars = [row[5] for row in rows if row[5] is not None] if characters else None
    if not has_hooks:
        outbox.no_webhooks(s, campaign.id)
    own: frozenset[str] = frozenset()
    if player_id:
        if chars is None:
            own = frozenset(await s.scalars(select(Character.id).where(Character.campaign_id == campaign_id,
                                                                       Character.player_id == player_id)))
        else:
            own = frozenset(c.id for c in chars if c.player_id == player_id)
    principal = Principal(cred_id, campaign.id, role, player_id, own)
    return Opened(principal, campaign, chars)
