"""Choosing the dice for one command from the campaign's mode, and logging what was thrown.

A die the service draws is never discarded: a command that succeeds logs its dice with its events
(`finish`), and a command refused after drawing dice still logs them, marked with the refusal, and
advances the verifiable counter (`consume_refused`). Otherwise a refusal whose message depends on a die
(a division by a die that came up zero, an explosion past the budget) would show that die to the
caller, and the next command would draw the very same one.
"""

from __future__ import annotations

from itertools import groupby
from typing import Any, Protocol

from sqlalchemy import select

from service.dice.server import ServerDice
from service.dice.table import TableDice
from service.dice.types import DiceSource, DieRoll
from service.dice.verifiable import VerifiableDice
from service.game.log import events as log
from service.game.log import write as movewrite
from service.game.errors import GameError, invalid
from service.game.auth import Principal
from service.i18n.message import _, _n
from service.rules.base import Event
from service.store.records.models import Campaign, DiceSession


async def current_session(s, campaign_id: str) -> DiceSession:
    """A verifiable campaign's open dice session: it always has one (opened with the campaign, and the next one
    opened in the transaction that reveals a seed)."""
    ds = await s.scalar(
        select(DiceSession)
        .where(DiceSession.campaign_id == campaign_id, DiceSession.status == "open")
        .order_by(DiceSession.number.desc())
        .limit(1)
    )
    if ds is None:
        raise RuntimeError(f"verifiable campaign {campaign_id} has no open dice session")
    return ds


async def dice_for(s, campaign: Campaign, faces: list[int] | None) -> tuple[DiceSource, DiceSession | None]:
    if campaign.dice_mode == "table":
        return TableDice(faces or []), None
    if faces is not None:
        raise invalid(
            "dice_not_allowed",
            _(
                "this campaign's dice mode is {dice_mode}: the service rolls, so `dice` must be omitted",
                dice_mode=campaign.dice_mode,
            ),
            "dice",
        )
    if campaign.dice_mode == "verifiable":
        ds = await current_session(s, campaign.id)
        return VerifiableDice(ds.seed, ds.client_seed, ds.counter), ds
    return ServerDice(), None


def drawn(dice: DiceSource) -> list[DieRoll]:
    """The dice this command took from the service's own source. Table dice are the players' own,
    thrown in plain sight: a refused table-mode command has nothing of the service's to account for."""
    return [] if isinstance(dice, TableDice) else dice.rolled


def finish(dice: DiceSource, ds: DiceSession | None, *, purpose: str) -> list[Event]:
    """After a command: reject unused table dice, advance the verifiable counter, log every die."""
    if isinstance(dice, TableDice) and dice.unused:
        detail = _n(
            "{unused} table die was given but this move did not roll it; send exactly the dice it rolls",
            "{unused} table dice were given but this move did not roll them; send exactly the dice it rolls",
            dice.unused,
            unused=dice.unused,
        )
        raise invalid("dice_unused", detail, "dice")
    if ds is not None:
        ds.counter = dice.next_counter  # type: ignore[attr-defined]
    return dice_events(dice.rolled, ds, purpose=purpose)


class Numbered(Protocol):
    """What the log names of a dice session: its number (an import's replay has only that)."""

    number: int


def dice_events(
    rolled: list[DieRoll], ds: Numbered | None, *, purpose: str, refused: dict[str, Any] | None = None
) -> list[Event]:
    """One `dice_rolled` event per run of dice with the same visibility, in the order they were thrown.

    "gm" dice (an NPC's trait dice): players see that dice were thrown, not how many or which.
    "sealed" dice (a shuffle): everyone sees how many, nobody (the GM included) which, until the rules
    unseal them with a later event; the record keeps them for a closed session's verification document.
    A refused command's sealed dice are shown at once: the order they would have fixed never took effect."""
    events = []
    for visibility, run in groupby(rolled, key=lambda d: d.visibility):
        group = list(run)
        if refused is not None and visibility == "sealed":
            visibility = "all"
        head: dict[str, Any] = {"purpose": purpose}
        if ds is not None:
            head["dice_session"] = ds.number
        if refused is not None:
            head["refused"] = refused
        data = {**head, "dice": [d.to_dict() for d in group]}
        if visibility == "gm":
            events.append(Event("dice_rolled", data, redacted={**head, "hidden": "gm"}))
        elif visibility == "sealed":
            seals = sorted({d.purpose for d in group})
            events.append(
                Event(
                    "dice_rolled",
                    {**data, "sealed": seals},
                    visibility="sealed",
                    redacted={**head, "sealed": seals, "hidden_dice": len(group)},
                )
            )
        else:
            events.append(Event("dice_rolled", data))
    return events


# A bug after dice were drawn: the dice are logged with this refusal, then the error goes on as a 5xx.
BUG = GameError(500, "internal_error", _("the service failed; this is a bug and has been logged"))


async def consume_refused(
    s,
    campaign: Campaign,
    rolled: list[DieRoll],
    ds: DiceSession | None,
    *,
    purpose: str,
    error: GameError,
    principal: Principal,
) -> GameError:
    """Log the dice a refused command drew (`drawn`), move the verifiable counter past them, and return the
    refusal to raise once this transaction commits. Nothing else of the command may have been written."""
    refused = {"code": error.code, "status": error.status, "detail": str(error.detail)}
    records = log.append(
        s, campaign, dice_events(rolled, ds, purpose=purpose, refused=refused), principal.actor(), add=False
    )
    seqs = [d.seq for d in rolled if d.seq is not None]  # verifiable dice number every die
    if ds is not None and seqs:
        ds.counter = max(seqs) + 1
    await movewrite.write(s, campaign, records)
    views = [v for v in (log.view(r, principal) for r in records) if v is not None]
    return GameError(
        error.status, error.code, error.detail, field=error.field, extra={**error.extra, "dice_consumed": views}
    )
