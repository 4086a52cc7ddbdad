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


def finish(dice: DiceSource, ds: DiceSession | None, *, purpose: str) -> list[Event]:
    """After a command: reject unused table dice, advance the verifiable counter, log every die."""
    if isinstance(dice, TableDice) and dice.unused:
        raise invalid("dice_unused", f"{dice.unused} table {'die was' if dice.unused == 1 else 'dice were'} given "
                      "but this move did not roll them; send exactly the dice it rolls", "dice")
    rolled = dice.rolled
    if not rolled:
        return []
    data: dict[str, Any] = {"purpose": purpose, "dice": [d.to_dict() for d in rolled]}
    if ds is not None:
        ds.counter = dice.next_counter  # type: ignore[attr-defined]
        data["dice_session"] = ds.number
    return [Event("dice_rolled", data)]
