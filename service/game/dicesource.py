"""Choosing the dice for one command from the campaign's mode, and logging what was thrown."""
from __future__ import annotations

from typing import Any

from sqlalchemy import select

from service.dice.server import ServerDice
from service.dice.table import TableDice
from service.dice.types import DiceSource
from service.dice.verifiable import VerifiableDice
from service.game.errors import invalid
from service.rules.base import Event
from service.store.records.models import Campaign, DiceSession


async def current_session(s, campaign_id: str) -> DiceSession | None:
    return await s.scalar(
        select(DiceSession).where(DiceSession.campaign_id == campaign_id, DiceSession.status == "open")
        .order_by(DiceSession.number.desc()).limit(1)
    )


async def dice_for(s, campaign: Campaign, faces: list[int] | None) -> tuple[DiceSource, DiceSession | None]:
    if campaign.dice_mode == "table":
        return TableDice(faces or []), None
    if faces is not None:
        raise invalid("dice_not_allowed",
                      f"this campaign's dice mode is {campaign.dice_mode}: the service rolls, so `dice` must be omitted",
                      "dice")
    if campaign.dice_mode == "verifiable":
        ds = await current_session(s, campaign.id)
        return VerifiableDice(ds.seed, ds.client_seed, ds.counter), ds
    return ServerDice(), None


def finish(dice: DiceSource, ds: DiceSession | None, *, purpose: str,
           secret_purposes: frozenset[str] = frozenset()) -> list[Event]:
    """After a command: reject unused table dice, advance the verifiable counter, log every die.

    Dice thrown for a secret purpose (a deck shuffle fixes the undealt order) go to a GM-only event;
    players see how many there were, not their faces."""
    if isinstance(dice, TableDice) and dice.unused:
        raise invalid("dice_unused", f"{dice.unused} table {'die was' if dice.unused == 1 else 'dice were'} given "
                      "but this move did not roll them; send exactly the dice it rolls", "dice")
    rolled = dice.rolled
    if ds is not None:
        ds.counter = dice.next_counter  # type: ignore[attr-defined]
    events = []
    for secret in (False, True):
        group = [d for d in rolled if (d.purpose in secret_purposes) == secret]
        if not group:
            continue
        data: dict[str, Any] = {"purpose": purpose, "dice": [d.to_dict() for d in group]}
        if ds is not None:
            data["dice_session"] = ds.number
        if secret:
            hidden = {k: v for k, v in data.items() if k != "dice"} | {"hidden_dice": len(group)}
            events.append(Event("dice_rolled", data, visibility="all", redacted=hidden))
        else:
            events.append(Event("dice_rolled", data))
    return events
