"""Deadlines follow the table: after every move the waits in `awaiting` are compared with the deadlines kept,
a new wait gets a deadline, a satisfied one is dropped; and `awaiting[].until` is filled in for clients."""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

from sqlalchemy import delete, select

from service.game.deadlines import settings as ds
from service.game.log import events as log
from service.rules.awaiting import with_moves
from service.rules.base import Actor, Event
from service.rules.timeouts import normalized
from service.store.records.clocks import CampaignClock, TurnDeadline
from service.store.records.models import Campaign, Character

# Deadline events are the service's, made with the GM's authority (as the campaign's own first events are).
CLOCK_ACTOR = Actor(role="gm")


def wait_key(kind: str, entry: dict[str, Any]) -> str:
    """A turn is one wait however its moves change as it goes on; a choice is the same choice only with the
    same moves offered."""
    moves = "" if kind == "turn" else ",".join(sorted(entry["may"]))
    return hashlib.sha256(f"{kind}|{entry['character_id']}|{moves}".encode()).hexdigest()[:64]


def timed_waits(
    system_id: str, table: dict[str, Any], settings: ds.TurnDeadlines, played: set[str]
) -> dict[str, tuple[dict, str, int]]:
    """The waits that get a deadline: those of characters a player plays (the GM's own are never timed)."""
    policy = ds.POLICIES.get(system_id)
    out: dict[str, tuple[dict, str, int]] = {}
    if policy is None:
        return out
    for raw in table.get("awaiting") or []:
        entry = normalized(raw)
        if entry["who"] != "character" or entry["character_id"] not in played:
            continue
        kind = policy.kind(table, entry)
        seconds = settings.limit(kind) if kind else None
        if seconds:
            out.setdefault(wait_key(kind, entry), (entry, kind, seconds))
    return out


def start(row: TurnDeadline, seconds: float, warning: int, now: float) -> None:
    """Run the clock for `seconds` more from now. Its warning goes out once per deadline: `warning` seconds
    before the end when the limit is longer than that, at once when less is left and it has not gone out yet
    (a pause caught it between its time and the next scan), never again once it has, however often the GM
    pauses and resumes (`extend` clears `warned_at`: the new limit gets its warning)."""
    row.status, row.remaining = "running", None
    row.due_at = now + seconds
    due = bool(warning) and warning < row.seconds and row.warned_at is None
    row.warn_at = max(now, row.due_at - warning) if due else None


def described(row: TurnDeadline) -> dict[str, Any]:
    return {
        "deadline_id": row.id,
        "character_id": row.character_id,
        "may": list(row.may),
        "kind": row.kind,
        "until": ds.iso(row.due_at) if row.status == "running" else None,
    }


# session.info key: campaign id -> its clock row or None, so one transaction looks it up once (a move both
# recomputes its deadlines and shows them).
_CLOCKS = "rulekeeper.campaign_clocks"


def remember(s, campaign_id: str, clock: CampaignClock | None) -> None:
    s.info.setdefault(_CLOCKS, {})[campaign_id] = clock


async def clock_of(s, campaign_id: str) -> tuple[CampaignClock, ds.TurnDeadlines] | None:
    """The campaign's turn clock and its settings; None for a campaign without deadlines."""
    known = s.info.setdefault(_CLOCKS, {})
    if campaign_id not in known:
        known[campaign_id] = await s.get(CampaignClock, campaign_id)
    clock = known[campaign_id]
    if clock is None:
        return None
    return clock, ds.TurnDeadlines.model_validate(clock.settings)


def due(row: TurnDeadline) -> float:
    """A running deadline's due time: a running row always has one (start() sets it)."""
    if row.due_at is None:
        raise RuntimeError(f"running deadline {row.id} has no due time")
    return row.due_at


def left(row: TurnDeadline) -> float:
    """A paused deadline's time left: a paused row always keeps it (pause_running() sets it)."""
    if row.remaining is None:
        raise RuntimeError(f"paused deadline {row.id} has no time left recorded")
    return row.remaining


async def rows_of(s, campaign_id: str) -> list[TurnDeadline]:
    return list(
        await s.scalars(
            select(TurnDeadline)
            .where(TurnDeadline.campaign_id == campaign_id)
            .order_by(TurnDeadline.created_at, TurnDeadline.id)
        )
    )


async def after_move(s, campaign: Campaign, table: dict[str, Any], *, by_clock: bool = False) -> None:
    """Inside the writer's transaction, under the campaign's lock: bring the deadlines in line with the
    table a move just produced. Appends `deadline_set` / `deadline_cleared` events. A move someone at the
    table made (not `by_clock`) starts the count of unattended default moves again."""
    found = await clock_of(s, campaign.id)
    if found is None:
        return
    clock, settings = found
    if not by_clock and clock.defaults_in_row:
        clock.defaults_in_row = 0
    wanted = {}
    if settings.enabled and any(normalized(e)["who"] == "character" for e in table.get("awaiting") or []):
        played = set(
            await s.scalars(
                select(Character.id).where(Character.campaign_id == campaign.id, Character.player_id.is_not(None))
            )
        )
        wanted = timed_waits(campaign.system, table, settings, played)
    rows = {r.key: r for r in await rows_of(s, campaign.id)}
    events: list[Event] = []
    for key, row in rows.items():
        if key not in wanted:
            events.append(Event("deadline_cleared", described(row)))
            await s.delete(row)
        elif wanted[key][1] == "turn":
            row.may = wanted[key][0]["may"]
    now = ds.clock()
    for key, (entry, kind, seconds) in wanted.items():
        if key in rows:
            continue
        row = TurnDeadline(
            id=str(uuid.uuid4()),
            campaign_id=campaign.id,
            key=key,
            character_id=entry["character_id"],
            may=entry["may"],
            kind=kind,
            seconds=float(seconds),
        )
        if clock.paused:
            row.status, row.remaining = "paused", float(seconds)
        else:
            start(row, seconds, settings.warning_seconds, now)
        s.add(row)
        events.append(Event("deadline_set", {**described(row), "seconds": seconds}))
    if events:
        log.append(s, campaign, events, CLOCK_ACTOR)
        await s.flush()


async def pause_running(s, campaign_id: str, now: float) -> list[dict[str, Any]]:
    """Stop every running deadline where it stands; returns each as described, with the time it had left."""
    paused = []
    for row in await rows_of(s, campaign_id):
        if row.status == "running":
            row.status, row.remaining = "paused", max(0.0, due(row) - now)
            row.due_at = row.warn_at = None
            paused.append({**described(row), "seconds_left": round(row.remaining, 3)})
    return paused


async def stop_all(s, campaign_id: str) -> None:
    """A finished campaign waits for nobody: its deadlines go (its settings stay with it)."""
    await s.execute(delete(TurnDeadline).where(TurnDeadline.campaign_id == campaign_id))


NAMED = ("awaiting", "offers", "requests")


def named_moves(view: dict[str, Any]) -> dict[str, Any]:
    """The view with `moves` on every entry of `awaiting`, `offers` and (where a system keeps it) `requests`:
    each of `may` under its REST and GraphQL names, so no client keeps a table of its own (see
    service.rules.awaiting)."""
    table = view.get("table")
    if not isinstance(table, dict) or not any(isinstance(table.get(k), list) for k in NAMED):
        return view
    # New lists: the view may share its dicts with the cached state, which must not change.
    return {
        **view,
        "table": {**table, **{k: [with_moves(e) for e in table[k]] for k in NAMED if isinstance(table.get(k), list)}},
    }


async def annotate(s, campaign_id: str, view: dict[str, Any]) -> dict[str, Any]:
    """The view with `until` on every awaiting entry, when the campaign keeps deadlines (null on a wait that
    is not timed, is paused, or was handed to the GM), and `moves` (named_moves)."""
    return await with_until(s, campaign_id, named_moves(view))


async def with_until(s, campaign_id: str, view: dict[str, Any]) -> dict[str, Any]:
    """`annotate` for a view that has its `moves` already (a kept view has them: they follow from the table)."""
    table = view.get("table")
    if not isinstance(table, dict) or not table.get("awaiting"):
        return view
    if await clock_of(s, campaign_id) is None:
        return view
    running = {
        (r.character_id, tuple(sorted(r.may))): ds.iso(r.due_at)
        for r in await rows_of(s, campaign_id)
        if r.status == "running"
    }
    # A new table and list: the view may share its dicts with the cached state, which must not change.
    awaiting = []
    for raw in table["awaiting"]:
        entry = normalized(raw)
        until = (
            running.get((entry["character_id"], tuple(sorted(entry["may"])))) if entry["who"] == "character" else None
        )
        awaiting.append({**raw, "until": until})
    return {**view, "table": {**table, "awaiting": awaiting}}
