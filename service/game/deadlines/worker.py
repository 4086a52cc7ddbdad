"""The clock: warns before a turn deadline and, when it runs out, applies what the rules allow without the
player (service/rules/<system>/timeouts.py) as an ordinary logged move, or hands the wait to the GM.

Every replica runs one. Deadlines live in the records database, so a restart loses none; a worker takes a
campaign with due deadlines by locking its row with SKIP LOCKED (PostgreSQL), so two replicas never act on the
same campaign at once, and it re-reads the deadline under that lock, so none fires twice. On SQLite the one
process's writer lock does the same."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from pydantic import ValidationError
from sqlalchemy import delete, func, or_, select

from service import metrics
from service.dice.types import DiceMode, DieRoll, DieVisibility
from service.game.deadlines import settings as ds
from service.game.deadlines import sync
from service.game.log import events as log
from service.game.log import moves as movelog, tables
from service.game.moves import pipeline
from service.game.auth import Principal
from service.game.context import Services
from service.game.errors import GameError
from service.rules.base import Event, RuleViolation
from service.rules.registry import SYSTEMS
from service.rules.timeouts import normalized
from service.store.records.clocks import CampaignClock, TurnDeadline
from service.store.records.models import Campaign

log_ = logging.getLogger("rulekeeper.deadlines")

# A campaign's due deadlines handled in one visit, one transaction each (a default move may start new waits).
MAX_STEPS_PER_CAMPAIGN = 50


def _clock_principal(campaign_id: str) -> Principal:
    return Principal(credential_id="", campaign_id=campaign_id, role="gm", player_id=None, character_ids=frozenset())


class _NeedsDice(Exception):
    pass


class _Probe:
    """A dice source that stops the engine at its first die: the checks before any roll tell whether the
    rules take the move at all, and no die is drawn for a move that would be refused."""

    def __init__(self, mode: DiceMode) -> None:
        self.mode = mode
        self.rolled: list[DieRoll] = []

    def roll(self, sides: int, *, purpose: str = "", visibility: DieVisibility = "all") -> DieRoll:
        raise _NeedsDice


def refusal(campaign: Campaign, state: dict[str, Any], raw: dict[str, Any]) -> str | None:
    """Why the rules would not take this default move now; None when they would."""
    system = SYSTEMS[campaign.system]
    try:
        action = movelog.action_adapter(campaign.system).validate_python(raw)
        system.apply(state, action, sync.CLOCK_ACTOR, _Probe(campaign.dice_mode))
    except _NeedsDice:
        if campaign.dice_mode == "table":
            return "table_dice"  # the players throw their own dice: nobody can throw for the absent one
    except RuleViolation as exc:
        return exc.code
    except ValidationError:
        return "invalid_action"
    except Exception:  # a bug in an engine must not stall the table: the GM takes the wait over
        log_.exception("the default move %s could not be checked", raw)
        return "default_failed"
    return None


def _due(now: float):
    return (TurnDeadline.status == "running", or_(TurnDeadline.due_at <= now, TurnDeadline.warn_at <= now))


class DeadlineWorker:
    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.scan_seconds = svc.settings.deadline_scan_seconds
        self._loop: asyncio.Task | None = None
        self._stopping = False

    def start(self) -> None:
        self._loop = asyncio.create_task(self._run(), name="turn-deadlines")

    async def stop(self) -> None:
        self._stopping = True
        if self._loop is not None:
            self._loop.cancel()
            await asyncio.gather(self._loop, return_exceptions=True)

    async def _run(self) -> None:
        while not self._stopping:
            try:
                await self.run_due()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database may be away for a while: keep scanning, never die
                log_.warning("turn deadline scan failed: %s", exc)
            await asyncio.sleep(self.scan_seconds)

    async def run_due(self) -> int:
        """Warn and expire whatever is due now; returns how many deadlines were acted on."""
        now = ds.clock()
        # A read first: when nothing is due, no write transaction (SQLite's one writer stays free).
        async with self.svc.read() as s:
            ids = list(await s.scalars(select(TurnDeadline.campaign_id).where(*_due(now)).distinct()))
            overdue = (
                await s.execute(
                    select(func.min(TurnDeadline.due_at), func.min(TurnDeadline.warn_at)).where(
                        TurnDeadline.status == "running"
                    )
                )
            ).one()
        metrics.DEADLINE_LAG.set(max([0.0] + [now - at for at in overdue if at is not None]))
        done = 0
        for campaign_id in ids:
            try:
                with log.acting_as(log.CLOCK):
                    done += await self._visit(campaign_id, now)
            except Exception as exc:  # rolled back (a database away, a bug): the next scan retries; the
                log_.warning("turn deadlines of campaign %s not handled: %s", campaign_id, exc)  # others go on
        return done

    async def _visit(self, campaign_id: str, now: float) -> int:
        done = 0
        for _ in range(MAX_STEPS_PER_CAMPAIGN):
            async with self.svc.write() as s:
                query = select(Campaign).where(Campaign.id == campaign_id)
                rows_query = (
                    select(TurnDeadline)
                    .where(TurnDeadline.campaign_id == campaign_id, *_due(now))
                    .order_by(TurnDeadline.due_at, TurnDeadline.id)
                )
                if not self.svc.is_sqlite:
                    # Another replica (or a player's move) holds the campaign: it is theirs this time round.
                    query = query.with_for_update(skip_locked=True)
                    rows_query = rows_query.with_for_update(skip_locked=True)
                campaign = await s.scalar(query)
                if campaign is None:
                    return done
                rows = list(await s.scalars(rows_query))
                if not rows:
                    return done
                if campaign.status != "active":
                    await s.execute(delete(TurnDeadline).where(TurnDeadline.campaign_id == campaign_id))
                    return done
                expiring = [r for r in rows if sync.due(r) <= now]
                if expiring:
                    await self._expire(s, campaign, expiring[0])
                    done += 1
                else:
                    self._warn(s, campaign, rows, now)
                    done += len(rows)
        return done

    def _warn(self, s, campaign: Campaign, rows: list[TurnDeadline], now: float) -> None:
        events = []
        for row in rows:
            row.warn_at, row.warned_at = None, now
            events.append(
                Event(
                    "deadline_warning", {**sync.described(row), "seconds_left": round(max(0.0, sync.due(row) - now), 3)}
                )
            )
        log.append(s, campaign, events, sync.CLOCK_ACTOR)

    async def _expire(self, s, campaign: Campaign, row: TurnDeadline) -> None:
        state = await tables.load(self.svc, s, campaign)
        table = state["table"]
        described = sync.described(row)
        # Kept (not deleted) while the wait lasts, so the same wait never gets a second deadline.
        row.status, row.warn_at = "expired", None
        entry = next(
            (
                e
                for e in map(normalized, table.get("awaiting") or [])
                if e["who"] == "character"
                and e["character_id"] == row.character_id
                and sorted(e["may"]) == sorted(row.may)
            ),
            None,
        )
        if entry is None:  # the wait ended without a move this worker saw: nothing to do
            await s.delete(row)
            return
        why: str | None
        try:
            action = ds.POLICIES[campaign.system].default(table, entry)
        except Exception:  # as above: a bug hands the wait to the GM rather than stalling it
            log_.exception("no default could be worked out for deadline %s", row.id)
            action, why = None, "default_failed"
        else:
            why = refusal(campaign, state, action) if action is not None else "no_default"
        data = {
            **described,
            "until": ds.iso(row.due_at),
            "default_action": None if why else action,
            "handed_to": "gm" if why else "rules",
        }
        if why:
            data["reason"] = why
        log.append(s, campaign, [Event("deadline_expired", data)], sync.CLOCK_ACTOR)
        await s.flush()
        if why:
            return
        # Answered now: a wait that the default move leaves open is a new one, with a deadline of its own.
        key, row.key = row.key, f"fired:{row.id}"
        await s.flush()
        try:
            await pipeline.apply(self.svc, s, campaign, _clock_principal(campaign.id), action, by_clock=True)
        except (GameError, pipeline.Refused) as refused:  # the GM takes the wait over; drawn dice are logged
            exc = refused.error if isinstance(refused, pipeline.Refused) else refused
            row.key = key
            log.append(
                s,
                campaign,
                [
                    Event(
                        "deadline_default_refused", {"deadline_id": row.id, "code": exc.code, "detail": str(exc.detail)}
                    )
                ],
                sync.CLOCK_ACTOR,
            )
            return
        await self._count_default(s, campaign)

    async def _count_default(self, s, campaign: Campaign) -> None:
        """A table nobody sits at would otherwise be moved for forever (each default can open the next timed
        wait): after the limit in a row, the deadlines pause, as if the GM had paused them, until the GM
        resumes them."""
        clock = await s.get(CampaignClock, campaign.id)
        if clock is None:
            return
        clock.defaults_in_row += 1
        if clock.paused or clock.defaults_in_row < self.svc.settings.deadline_max_defaults_in_row:
            return
        clock.paused = True
        paused = await sync.pause_running(s, campaign.id, ds.clock())
        log.append(
            s,
            campaign,
            [Event("deadlines_paused_unattended", {"defaults_in_row": clock.defaults_in_row, "deadlines": paused})],
            sync.CLOCK_ACTOR,
        )
        log_.info("campaign %s: deadlines paused after %d default moves in a row", campaign.id, clock.defaults_in_row)
