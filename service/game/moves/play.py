"""A client's side of playing: the table as the caller may see it, and a move made with the caller's token
(the steps of a move are moves/pipeline.py's, shared with the clock's default moves)."""

from __future__ import annotations

import re
from typing import Any

import orjson

from service import metrics
from service.game.moves import counting
from service.game import idempotency
from service.game.context import Services
from service.game.deadlines import sync as deadline_sync
from service.game.errors import GameError
from service.game.inputs import ActionRequest
from service.game.log import events as log
from service.game.log import moves as movelog
from service.game.log import tables
from service.game.moves import pipeline
from service.game.moves.access import Glances, look, open_for_reading, open_for_writing
from service.i18n.message import _
from service.rules.registry import SYSTEMS


def etag(version: int) -> str:
    return f'"{version}"'


# The If-Match formats the service takes, stated as is in the OpenAPI parameter so the document is exact:
# `*`, one ETag it returned (`"3"`; the weak `W/"3"` names the same version), or the bare version (`3`, which
# clients that read `version` from a body send). A list of ETags, or anything else, is a 400.
IF_MATCH_PATTERN = r'^(\*|[0-9]{1,10}|(W/)?"[0-9]{1,10}")$'
_IF_MATCH = re.compile(IF_MATCH_PATTERN)


def parse_if_match(value: str | None) -> int | None:
    if value is None:
        return None
    if not _IF_MATCH.fullmatch(value):
        raise GameError(
            400,
            "invalid_if_match",
            _('If-Match must be * or an ETag this service returned, like "3"'),
            field="If-Match",
        )
    return None if value == "*" else int(value.removeprefix("W/").strip('"'))


async def get_state(
    svc: Services,
    campaign_id: str,
    token: str | None,
    version: int | None = None,
    *,
    spliced: bool = False,
    glances: Glances | None = None,
) -> dict[str, Any]:
    """The table as this caller may see it: now, or as it stood at an earlier `version`. `spliced`: a view kept in
    this process may come as its JSON bytes (an orjson.Fragment), for a reply that orjson writes. `glances`: the
    first looks a GraphQL query's fields share (access.py)."""
    alone = None
    if version is None:
        # Most reads are of a view kept in this process (service/game/log/views.py), which the campaign's row alone
        # confirms, with no session (Services.alone). A table awaiting a timed move is annotated with its
        # deadlines, which a session reads.
        alone = await look(svc, token, campaign_id, glances)
        glance = alone[0]
        kept = svc.views.kept(glance.campaign, glance.characters, glance.principal.actor(), svc.settings.table_idle_ttl)
        if kept is not None:
            reply = {"version": glance.campaign.table_version, "system": glance.campaign.system}
            if spliced and not glance.timed:
                return {**reply, "state": orjson.Fragment(kept)}
            state = orjson.loads(kept)
            table = state.get("table")
            if not (glance.timed and isinstance(table, dict) and table.get("awaiting")):
                return {**reply, "state": state}
    async with svc.read() as s:
        opened = await open_for_reading(s, token, campaign_id, rows=alone[1] if alone is not None else None)
        principal, campaign = opened.principal, opened.campaign
        system = SYSTEMS[campaign.system]
        viewer = principal.actor()
        if version is None or version == campaign.table_version:
            version = campaign.table_version
            if campaign.table_version:
                # Loaded and viewed only when no view is kept for this version (service/game/log/views.py).
                async def viewed() -> dict[str, Any]:
                    state = await tables.load(svc, s, campaign, writing=False, characters=opened.characters)
                    return deadline_sync.named_moves(system.view(state, viewer))

                seen = await svc.views.view(
                    campaign, opened.characters or [], viewer, viewed, max_age=svc.settings.table_idle_ttl
                )
            else:
                seen = deadline_sync.named_moves(
                    system.view(
                        await tables.load(svc, s, campaign, writing=False, characters=opened.characters), viewer
                    )
                )
        elif version > campaign.table_version:
            raise GameError(
                404,
                "not_found",
                _(
                    "the table is at version {table_version}; version {version} does not exist yet",
                    table_version=campaign.table_version,
                    version=version,
                ),
                field="version",
            )
        else:
            seen = deadline_sync.named_moves(system.view(await movelog.state_at(s, campaign, version), viewer))
        if version == campaign.table_version:  # deadlines belong to the table as it is now
            seen = await deadline_sync.with_until(s, campaign.id, seen)
        return {"version": version, "system": campaign.system, "state": seen}


@counting.counted(metrics.MOVES)
async def act(
    svc: Services, campaign_id: str, token: str | None, body: ActionRequest, if_match: str | None = None
) -> dict[str, Any]:
    """One move. Refused before its first die, it changes nothing; refused after drawing dice, it still logs
    them (service/game/moves/dicesource.py) and the refusal says so in `dice_consumed`. Applied, it is recorded in
    the move log with its dice, events and sheets in one transaction, and the live copy follows."""
    expected = parse_if_match(if_match)
    refusal: BaseException | None = None
    async with svc.write(line=campaign_id) as s:
        opened = await open_for_writing(s, token, campaign_id)
        principal, campaign = opened.principal, opened.campaign
        # Before the move is counted: a retry answered with its first reply is not a move.
        await idempotency.claim_in_command(s, principal.credential_id)
        counting.system_is(campaign.system)
        try:
            applied = await pipeline.apply(
                svc,
                s,
                campaign,
                principal,
                body.action,
                characters=opened.characters,
                faces=body.dice,
                system=body.system,
                expected=expected,
            )
        except pipeline.Refused as refused:
            # The transaction commits the dice the move drew; the refusal is answered after it.
            refusal = refused.error if isinstance(refused.cause, GameError) else refused.cause
        else:
            return await idempotency.complete(
                s,
                {
                    "version": campaign.table_version,
                    "system": campaign.system,
                    "events": [v for v in (log.view(r, principal) for r in applied.records) if v is not None],
                    "state": await deadline_sync.annotate(
                        s, campaign.id, SYSTEMS[campaign.system].view(applied.state, applied.actor)
                    ),
                },
            )
    raise refusal
