"""Verifiable dice sessions: the commitment before play, the table's seed, the reveal, the proof."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from service.dice import verifiable
from service.game.log import events as log
from service.game import idempotency
from service.game.log import tables
from service.game.auth import authenticate, require_gm
from service.game.campaigns.records import open_dice_session
from service.game.context import Services
from service.game.moves.dicesource import current_session
from service.game.errors import GameError, conflict, not_found
from service.game.inputs import MAX_SEQ, ClientSeed
from service.i18n.message import _
from service.rules.base import Event
from service.rules.registry import SYSTEMS
from service.store.records.models import Campaign, DiceSession, EventRecord, utcnow


def session_view(ds: DiceSession) -> dict[str, Any]:
    return {
        "number": ds.number,
        "status": ds.status,
        "commitment": ds.commitment,
        "client_seed": ds.client_seed,
        "rolls": ds.counter,
        "seed": ds.seed if ds.status == "closed" else None,
        "opened_at": ds.opened_at.isoformat(),
        "closed_at": ds.closed_at.isoformat() if ds.closed_at else None,
    }


async def _verifiable_campaign(s, campaign_id: str, lock: bool = False) -> Campaign:
    c = await (log.locked_campaign(s, campaign_id) if lock else s.get(Campaign, campaign_id))
    if c is None:
        raise not_found("campaign", "campaign_id")
    if c.dice_mode != "verifiable":
        raise conflict(
            "not_verifiable",
            _(
                "this campaign rolls in {dice_mode} mode; dice sessions exist only in verifiable mode",
                dice_mode=c.dice_mode,
            ),
        )
    return c


async def list_sessions(svc: Services, campaign_id: str, token: str | None) -> list[dict[str, Any]]:
    async with svc.read() as s:
        await authenticate(s, token, campaign_id)
        await _verifiable_campaign(s, campaign_id)
        rows = await s.scalars(
            select(DiceSession).where(DiceSession.campaign_id == campaign_id).order_by(DiceSession.number)
        )
        return [session_view(r) for r in rows]


async def set_client_seed(svc: Services, campaign_id: str, token: str | None, body: ClientSeed) -> dict[str, Any]:
    async with svc.write() as s:
        principal = await authenticate(s, token, campaign_id)
        c = await _verifiable_campaign(s, campaign_id, lock=True)
        ds = await current_session(s, campaign_id)
        if ds.counter > 0:
            raise conflict(
                "session_already_rolling",
                _("the client seed can only be set before the session's first die"),
                "client_seed",
            )
        ds.client_seed = body.client_seed
        log.append(
            s,
            c,
            [Event("dice_session_client_seed", {"number": ds.number, "client_seed": body.client_seed})],
            principal.actor(),
        )
        return session_view(ds)


async def close_session(svc: Services, campaign_id: str, token: str | None) -> dict[str, Any]:
    """Reveal the seed of the open session and open the next one with a fresh commitment."""
    async with svc.write() as s:
        principal = await authenticate(s, token, campaign_id)
        require_gm(principal)
        c = await _verifiable_campaign(s, campaign_id, lock=True)
        await _may_reveal(s, svc, c)
        ds = await current_session(s, campaign_id)
        ds.status = "closed"
        ds.closed_at = utcnow()
        nxt = await open_dice_session(s, campaign_id, ds.number + 1)
        log.append(
            s,
            c,
            [
                Event(
                    "dice_session_closed",
                    {
                        "number": ds.number,
                        "seed": ds.seed,
                        "commitment": ds.commitment,
                        "client_seed": ds.client_seed,
                        "rolls": ds.counter,
                    },
                ),
                Event("dice_session_opened", {"number": nxt.number, "commitment": nxt.commitment}),
            ],
            principal.actor(),
        )
        return await idempotency.complete(s, {"closed": session_view(ds), "opened": session_view(nxt)})


async def _may_reveal(s, svc: Services, campaign: Campaign) -> None:
    """The seed recomputes every die of the session, the sealed ones too: a rule system may say that
    revealing it now would reveal what its rules still hide (a shuffled deck being dealt)."""
    blocker = getattr(SYSTEMS[campaign.system], "session_close_blocker", None)
    if blocker is None:
        return
    refusal = blocker((await tables.load(svc, s, campaign))["table"])
    if refusal is not None:
        raise GameError(refusal.status, refusal.code, refusal.detail, field=refusal.field)


async def verification(svc: Services, campaign_id: str, number: int, token: str | None) -> dict[str, Any]:
    """Everything needed to recompute a closed session's dice, plus the service's own check of it."""
    async with svc.read() as s:
        await authenticate(s, token, campaign_id)
        await _verifiable_campaign(s, campaign_id)
        if not 1 <= number <= MAX_SEQ:
            raise not_found("dice session", "number")
        ds = await s.scalar(
            select(DiceSession).where(DiceSession.campaign_id == campaign_id, DiceSession.number == number)
        )
        if ds is None:
            raise not_found("dice session", "number")
        if ds.status != "closed":
            raise conflict("session_open", _("the seed is revealed only when the session is closed"), "number")
        rows = await s.scalars(
            select(EventRecord)
            .where(EventRecord.campaign_id == campaign_id, EventRecord.type == "dice_rolled")
            .order_by(EventRecord.seq)
        )
        rolls = [
            {"seq": d["seq"], "sides": d["sides"], "face": d["face"], "event_seq": r.seq}
            for r in rows
            if r.data.get("dice_session") == number
            for d in r.data["dice"]
        ]
        report = verifiable.verify_rolls(ds.seed, ds.commitment, ds.client_seed, rolls)
        return {
            "number": ds.number,
            "seed": ds.seed,
            "commitment": ds.commitment,
            "client_seed": ds.client_seed,
            "rolls": rolls,
            "algorithm": verifiable.ALGORITHM,
            "report": _report(report, rolls, ds.counter),
        }


def _report(report, rolls: list[dict[str, Any]], counter: int) -> dict[str, Any]:
    """The dice library's report, plus dice the session counted that the log does not hold (a trailing gap)."""
    out = report.to_dict()
    trailing = list(range(max((r["seq"] for r in rolls), default=-1) + 1, counter))
    out["gaps"] = out["gaps"] + trailing
    out["ok"] = out["ok"] and not trailing
    out["session_rolls"] = counter
    return out
