"""The move log: every applied move, recorded with its dice in the transaction that commits it.

A table at any version is its latest snapshot at or before that version plus the moves after it,
replayed through the pure engine with their recorded dice. Nothing else is needed to rebuild it:
the live store only caches the newest version.

Engine changes: each snapshot carries the engine's `state_version` (a rule system's attribute,
1 unless it says otherwise). A rule system that changes the shape of its state bumps it; snapshots of
another version are then passed over and the table is replayed from the campaign's first snapshot
(version 0, always kept) with the engine as it is now.
"""

from __future__ import annotations

import copy
import hashlib
import json
import secrets
from typing import Any

from pydantic import TypeAdapter
from sqlalchemy import select

from service.dice.types import DiceError, DiceMode, DieRoll
from service.rules.base import Actor, RuleSystem, RuleViolation
from service.rules.registry import SYSTEMS
from service.store.records.models import Campaign, MoveRecord, SnapshotRecord

# A rebuild replays at most this many moves after the newest snapshot.
SNAPSHOT_EVERY = 50

_ADAPTERS: dict[str, TypeAdapter] = {}


class ReplayDiverged(Exception):
    """Replaying a recorded move did not go as it went the first time (an engine change, or a bug)."""


def action_adapter(system_id: str) -> TypeAdapter:
    if system_id not in _ADAPTERS:
        _ADAPTERS[system_id] = TypeAdapter(SYSTEMS[system_id].Action)
    return _ADAPTERS[system_id]


def engine_version(system: RuleSystem) -> int:
    return int(getattr(system, "state_version", 1))


class RecordedDice:
    """Feeds a move the very dice it rolled the first time, and refuses any other die."""

    def __init__(self, dice: list[dict[str, Any]], mode: DiceMode) -> None:
        self._dice = [DieRoll(**d) for d in dice]
        self._next = 0
        # Engines may branch on the mode (a table-mode deck has no known order), so it is the campaign's.
        self.mode = mode

    def roll(self, sides: int, *, purpose: str = "", **_: Any) -> DieRoll:
        if self._next >= len(self._dice):
            raise ReplayDiverged(f"the move asks for a d{sides} ({purpose}) it did not roll when it was made")
        die = self._dice[self._next]
        if die.sides != sides:
            raise ReplayDiverged(f"die {self._next} was a d{die.sides}; the replay asks for a d{sides}")
        self._next += 1
        return die

    @property
    def rolled(self) -> list[DieRoll]:
        return self._dice[: self._next]

    @property
    def unused(self) -> int:
        return len(self._dice) - self._next


def actor_record(actor: Actor) -> dict[str, Any]:
    return {"role": actor.role, "player_id": actor.player_id, "character_ids": sorted(actor.character_ids)}


def actor_from(record: dict[str, Any]) -> Actor:
    return Actor(
        role=record["role"],
        player_id=record.get("player_id"),
        character_ids=frozenset(record.get("character_ids") or ()),
    )


def replay_move(
    system: RuleSystem,
    dice_mode: DiceMode,
    state: dict[str, Any],
    kind: str,
    body: dict[str, Any],
    actor: dict[str, Any],
    dice: list[dict[str, Any]],
) -> dict[str, Any]:
    """One recorded move applied again. Undo moves are not replayed here: their state is a snapshot."""
    if kind == "character":
        out = copy.deepcopy(state)
        out.setdefault("characters", {})[body["character_id"]] = copy.deepcopy(body["sheet"])
        return out
    if kind != "action":
        raise ReplayDiverged(f"a {kind} move is restored from its snapshot, not replayed")
    action = action_adapter(system.id).validate_python(body["action"])
    source = RecordedDice(dice, dice_mode)
    try:
        new_state, _ = system.apply(state, action, actor_from(actor), source)
    except (RuleViolation, DiceError) as exc:
        raise ReplayDiverged(f"the engine now refuses this move: {exc}") from exc
    if source.unused:
        raise ReplayDiverged(f"the move rolled {source.unused} more dice the first time")
    return new_state


def state_hash(state: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(state, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


async def snapshot_before(s, campaign: Campaign, version: int, *, first: bool = False) -> SnapshotRecord:
    """The newest usable snapshot at or before `version` (version 0 is written with the campaign);
    with `first`, the campaign's first snapshot whatever came after."""
    system = SYSTEMS[campaign.system]
    snap = (
        None
        if first
        else await s.scalar(
            select(SnapshotRecord)
            .where(
                SnapshotRecord.campaign_id == campaign.id,
                SnapshotRecord.version <= version,
                SnapshotRecord.engine_version == engine_version(system),
            )
            .order_by(SnapshotRecord.version.desc())
            .limit(1)
        )
    )
    if snap is None:
        snap = await s.scalar(
            select(SnapshotRecord).where(SnapshotRecord.campaign_id == campaign.id, SnapshotRecord.version == 0)
        )
    if snap is None:
        raise ReplayDiverged(f"campaign {campaign.id} has no snapshot to rebuild from")
    return snap


async def state_at(s, campaign: Campaign, version: int, *, from_scratch: bool = False) -> dict[str, Any]:
    """The whole engine state (options, characters, table) as it stood at `version`. `from_scratch` replays
    every move from version 0, trusting no later snapshot (a check that snapshots and replay agree)."""
    system = SYSTEMS[campaign.system]
    snap = await snapshot_before(s, campaign, version, first=from_scratch)
    state = copy.deepcopy(snap.state)
    if snap.version == version:
        return state
    moves = await s.scalars(
        select(MoveRecord)
        .where(
            MoveRecord.campaign_id == campaign.id,
            MoveRecord.version > snap.version,
            MoveRecord.version <= version,
        )
        .order_by(MoveRecord.version)
    )
    for m in moves:
        if m.kind == "undo":
            # Every undo writes a snapshot, so only an engine change (snapshots passed over) gets here.
            state = await state_at(s, campaign, m.body["target"], from_scratch=from_scratch)
        else:
            state = replay_move(system, campaign.dice_mode, state, m.kind, m.body, m.actor, m.dice)
    return state


def snapshot(s, campaign: Campaign, version: int, state: dict[str, Any]) -> None:
    s.add(snapshot_record(campaign, version, state))


def snapshot_record(campaign: Campaign, version: int, state: dict[str, Any]) -> SnapshotRecord:
    return SnapshotRecord(
        campaign_id=campaign.id,
        version=version,
        engine_version=engine_version(SYSTEMS[campaign.system]),
        state=copy.deepcopy(state),
    )


def record(
    s,
    campaign: Campaign,
    kind: str,
    body: dict[str, Any],
    actor: Actor,
    dice: list[DieRoll],
    first_seq: int,
    state_after: dict[str, Any],
) -> MoveRecord:
    """Append the move that produced `state_after`; bumps the table version. Call after the move's
    events were appended, so `campaign.last_seq` closes its range of events."""
    move, snap = next_move(campaign, kind, body, actor, dice, first_seq, state_after)
    s.add(move)
    if snap is not None:
        s.add(snap)
    return move


def next_move(
    campaign: Campaign,
    kind: str,
    body: dict[str, Any],
    actor: Actor,
    dice: list[DieRoll],
    first_seq: int,
    state_after: dict[str, Any],
) -> tuple[MoveRecord, SnapshotRecord | None]:
    """As `record`, for a caller that writes the rows itself: the move, and the snapshot when one is due."""
    campaign.table_version += 1
    campaign.table_token = secrets.token_hex(8)
    move = MoveRecord(
        campaign_id=campaign.id,
        version=campaign.table_version,
        kind=kind,
        body=body,
        actor=actor_record(actor),
        dice=[d.to_dict() for d in dice],
        first_seq=first_seq,
        last_seq=campaign.last_seq,
    )
    due = kind == "undo" or campaign.table_version % SNAPSHOT_EVERY == 0
    return move, snapshot_record(campaign, campaign.table_version, state_after) if due else None
