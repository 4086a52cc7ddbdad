"""Choosing a campaign's dice source from its dice mode."""

from __future__ import annotations

from collections.abc import Iterable

from service.dice.server import ServerDice
from service.dice.table import TableDice
from service.dice.types import DiceSource
from service.dice.verifiable import VerifiableDice


def make_dice(
    mode: str,
    *,
    faces: Iterable[int] | None = None,
    seed: str | None = None,
    client_seed: str | None = None,
    start_counter: int = 0,
) -> DiceSource:
    if mode == "server":
        return ServerDice()
    if mode == "verifiable":
        if seed is None:
            # A configuration bug, not a player error: the session's seed must exist before play.
            raise ValueError("verifiable dice need the session's seed")
        return VerifiableDice(seed, client_seed or "", start_counter)
    if mode == "table":
        # No faces is still a valid source: the first die the move needs raises dice_required,
        # which tells the client how many faces to send.
        return TableDice(faces or [])
    raise ValueError(f"unknown dice mode {mode!r}; expected server, verifiable or table")
